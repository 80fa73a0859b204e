package models

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Cost is simulated seconds times the satellite rate, plus a share per
// channel for connection churn.
func (m *SatIsland) Cost(p vocab.Params) float64 {
	return p.Float("duration") * (p.Float("rate") + 2e4*float64(p.Int("channels")))
}

// Orbit defaults (document 004): the satellite input buffers the authors
// settled on.
const (
	satBufferGEO = 250_000
	satBufferMEO = 200_000
)

// Default bounded-Pareto flow sizes. With Alpha 1.1, 90 % of flows carry
// at most 14,600 bytes (10 segments of 1,460 bytes) when Min is 1,800 B.
const (
	defaultFlowAlpha = 1.1
	defaultFlowMin   = 1800
	defaultFlowMax   = 100e6
)

func satIslandSchema() *vocab.Schema {
	f := func(name string, u vocab.Unit, def, lo, hi float64, doc string) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.Float, Unit: u, Default: vocab.F(def), Min: lo, Max: hi, Doc: doc}
	}
	i := func(name string, u vocab.Unit, def int64, lo, hi float64, doc string) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.Int, Unit: u, Default: vocab.I(def), Min: lo, Max: hi, Doc: doc}
	}
	b := func(name string, def bool, doc string) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.Bool, Default: vocab.B(def), Doc: doc}
	}
	str := func(name, def string, choices []string, doc string) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.String, Default: vocab.S(def), Choices: choices, Doc: doc}
	}
	s, ms := vocab.Second, 1e-3
	params := []vocab.Param{
		str("orbit", "geo", []string{"geo", "meo"}, "satellite orbit: geo (35,786 km) or meo (O3b, 8,062 km)"),
		f("sat_delay", s, 0, 0, 10, "one-way satellite delay; 0 derives it from the orbit, elevation_deg and sat_processing"),
		f("elevation_deg", vocab.Dimensionless, 45, 5, 90, "elevation of the satellite seen from the gateway and from the island, degrees"),
		f("sat_processing", s, 5*ms, 0, 1, "modem and satellite processing added to the propagation delay"),
		f("rate", vocab.BitPerSecond, 32e6, 1e5, 1e11, "satellite rate towards the island"),
		f("return_rate", vocab.BitPerSecond, 0, 0, 1e11, "satellite rate towards the world; 0 is the same as rate"),
		str("aqm", "droptail", []string{"droptail", "codel", "fq_codel"}, "discipline of the satellite input queue at the gateway (tcp-compete's aqm)"),
		i("buffer", vocab.Byte, 0, 0, 1<<34, "satellite input queue limit in bytes, as document 004 gives it; set at most one of buffer, queue and queue_bdp; "+
			"all three 0 takes document 004's 250 kB (geo) or 200 kB (meo)"),
		queueParam(0),
		queueBDPParam(0),
		f("codel_target", s, 0, 0, 10, "CoDel target; 0 is 5 ms (RFC 8289 section 4.4)"),
		f("codel_interval", s, 0, 0, 60, "CoDel interval; 0 is the satellite round trip plus 100 ms, tuned to the long RTT"),
		i("channels", vocab.Dimensionless, 100, 0, 4000, "load: closed-loop client channels"),
		i("servers", vocab.Dimensionless, 50, 1, 10000, "world-side servers, each with its own terrestrial delay"),
		f("terr_delay_min", s, 10*ms, 0, 5, "smallest one-way terrestrial delay of a server (uniform distribution)"),
		f("terr_delay_max", s, 70*ms, 0, 5, "largest one-way terrestrial delay of a server"),
		f("terr_rate", vocab.BitPerSecond, 1e9, 1e5, 1e12, "rate of each server's terrestrial link"),
		f("lan_rate", vocab.BitPerSecond, 1e9, 1e5, 1e12, "island LAN rate"),
		f("lan_delay", s, 0.5*ms, 0, 1, "island LAN one-way delay"),
		withSyntax(str("flow_cdf", "", nil, "flow sizes as an empirical CDF, size:probability pairs in bytes (\"1460:0.5 14600:0.9 1e6:1\"); "+
			"empty uses the bounded Pareto of flow_alpha, flow_min, flow_max"), checkCDF),
		f("flow_alpha", vocab.Dimensionless, defaultFlowAlpha, 0.1, 10, "bounded Pareto shape of the default flow sizes"),
		f("flow_min", vocab.Byte, defaultFlowMin, 1, 1e12, "bounded Pareto smallest flow"),
		f("flow_max", vocab.Byte, defaultFlowMax, 2, 1e13, "bounded Pareto largest flow"),
		i("request", vocab.Byte, 100, 0, 1<<20, "request bytes a client sends before its half-close"),
		f("think", s, 0, 0, 3600, "pause of a channel between flows"),
		f("stagger", s, 1, 0, 3600, "channels start at times drawn uniformly from [0, stagger)"),
		i("probe_size", vocab.Byte, 80e6, 0, 1<<40, "probe transfer (document 004's 80 MB iperf3); 0 runs none"),
		f("probe_start", s, 5, 0, 1e5, "when the probe connects"),
		f("probe_delay", s, 10*ms, 0, 5, "one-way terrestrial delay of the probe's server"),
		str("cca", "cubic", cc.Names(), "congestion control of the world servers (the data senders)"),
		str("cca_island", "cubic", cc.Names(), "congestion control of the island clients"),
		hostParam("mss"),
		hostParam("iw"),
		i("window", vocab.Byte, 4<<20, 1000, 1<<30, "receive buffer of every endpoint (window scaling on)"),
		hostParam("window_scaling"),
		hostParam("delayed_ack"),
		hostParam("limited_transmit"),
		hostParam("hystart"),
		hostParam("hystart_variant"),
		hostParam("cubic_variant"),
		hostParam("byte_counting"),
		hostParam("abc_limit"),
		hostParam("sack"),
		hostParam("min_rto"),
		hostParam("loss_detection"),
		b("pep", false, "split TCP: proxies at the gateway and the island router terminate every connection"),
		str("pep_cca", "cubic", cc.Names(), "congestion control of the proxies on the satellite hop"),
		i("pep_window", vocab.Byte, 16<<20, 1000, 1<<30, "receive buffer of the proxies on the satellite hop"),
		i("pep_iw", vocab.Packet, 10, 1, 1000, "initial window of the proxies on the satellite hop"),
		b("coding", false, "block code over the satellite hop: coding_k data + coding_m parity packets per block"),
		i("coding_k", vocab.Packet, 10, 1, 255, "data packets per block"),
		i("coding_m", vocab.Packet, 2, 1, 255, "parity packets per block: up to this many losses per block are recovered"),
		f("coding_timeout", s, 5*ms, 0.0001, 10, "a partial block is closed (its parity sent) this long after its first packet"),
		f("duration", s, 60, 1, 1e5, "simulated time"),
		f("warmup", s, 0, 0, 1e5, "the metrics marked 'after warm-up' count from this time (0: the whole run; document 004's figures use 5 s)"),
		f("sample_interval", s, 1, 0, 1e5, "period of the time series; 0 writes none"),
	}
	metrics := make([]vocab.Metric, siCount)
	m := func(k int, name string, kind vocab.Kind, u vocab.Unit, doc string) {
		metrics[k] = vocab.Metric{Name: name, Kind: kind, Unit: u, Doc: doc}
	}
	F, I := vocab.Float, vocab.Int
	m(siGoodput, "goodput", F, vocab.BitPerSecond, "application goodput: response bytes delivered in order to the island clients' applications per second after warm-up (channels and probe)")
	m(siChannelGoodput, "channel_goodput", F, vocab.BitPerSecond, "the channels' share of goodput")
	m(siFlowsPerS, "flows_completed", F, vocab.PerSecond, "channel flows completed per second after warm-up")
	m(siFlows, "flows", I, vocab.Dimensionless, "channel flows completed after warm-up")
	m(siProbeGoodput, "probe_goodput", F, vocab.BitPerSecond, "probe bytes over its completion time, or delivered bytes over the time since it started if unfinished")
	m(siProbeTime, "probe_completion_time", F, vocab.Second, "probe's first SYN to its last byte; null if unfinished")
	m(siProbeBytes, "probe_bytes", I, vocab.Byte, "probe bytes delivered")
	m(siLoss, "payload_loss", F, vocab.Fraction, "TCP payload bytes dropped at the satellite input queue over those offered, after warm-up; 0 if none was offered")
	m(siOffered, "payload_offered", I, vocab.Byte, "TCP payload bytes offered to the satellite input queue after warm-up")
	m(siQueueMean, "queue_mean", F, vocab.Byte, "time-weighted mean occupancy of the satellite input queue after warm-up")
	m(siQueueP95, "queue_p95", F, vocab.Byte, "95th percentile of the occupancy (to 1,500 bytes)")
	m(siUtil, "utilisation", F, vocab.Dimensionless, "busy fraction of the satellite link towards the island after warm-up")
	m(siShortFCT, "short_fct_mean", F, vocab.Second, "mean completion time (first SYN to last byte) of flows of at most 10 segments; null if none")
	m(siShortN, "short_flows", I, vocab.Dimensionless, "flows of at most 10 segments completed after warm-up")
	m(siMeanSize, "mean_flow_size", F, vocab.Byte, "mean size of the flows the channels started")
	m(siSatDelay, "sat_one_way_delay", F, vocab.Second, "one-way satellite delay used")
	m(siConns, "connections", I, vocab.Dimensionless, "TCP connections opened (proxied legs count separately)")
	m(siRecovered, "coding_recovered", I, vocab.Packet, "packets the block decoder rebuilt")
	m(siOverhead, "coding_overhead", F, vocab.Fraction, "parity bytes over data bytes sent into the satellite queue; 0 with coding off (no parity) or if no data was sent")
	m(siResidual, "residual_loss", F, vocab.Fraction, "payload_loss less the payload the block decoder rebuilt: what TCP sees lost; 0 if no payload was offered")
	m(siRTOs, "rtos", I, vocab.Dimensionless, "retransmission timer expiries of data after warm-up (a SYN's timeouts are not counted), both ends of every connection (proxied legs and the probe included)")
	m(siRTOEpisodes, "rto_episodes", I, vocab.Dimensionless, "sequences of timeouts after warm-up: expiries before any back-off (as tcp-bulk's rto_episodes), every connection")
	m(siEvents, "events", I, vocab.Dimensionless, "simulation events processed")
	return &vocab.Schema{
		Exclusive: satQueueForms(),
		Name:      "sat-island",
		Version:   26, // 26: the RTT is sampled as Linux's tcp_ack_update_rtt does: an ACK that covers a segment ever retransmitted gives no sample from sequence numbers (Karn; FLAG_RETRANS_DATA_ACKED), otherwise the oldest segment it newly acknowledges and had not SACKed is timed, where the newest was, so the ACK that ended a repair timed the receiver's wait since it SACKed the segment (seconds after a timeout); without a sequence sample the oldest segment an ACK newly SACKs is timed (RACK-TLP senders), and without that an ACK of new data by its timestamp echo; the minimum RTT and the controller's RTT (HyStart, Vegas, BBR) follow the newest segment timed (ca_rtt_us); every sample ends the timer's back-off; 25: the timeseries' utilisation is the transmitter's busy time over the interval (was the bytes of the packets whose transmission ended in it, at rate, which counted a packet begun in the interval before and exceeded 1 on a saturated link by up to one packet's transmission time over the interval: 1.0004 in sp-fig1 at 1-s intervals); 24: with quick_ack (Linux's quick-ACK mode) the receiver also acknowledges every skb at once while its receive window grows from the first 65535 bytes towards the buffer's, each skb raising it by max(2 advmss, 2 x its length) (tcp_grow_window's icsk_ack.quick |= 1), as a real Linux 6.1 receiver does on document 002's testbed for the first 25-35 s of a flow of a few Mbit/s into a 16 MiB window (validation/linuxpeer's captures); past the first quick ACKs it delayed them; 23: with byte counting as Linux's (abc_limit 0) Reno's slow start stops at ssthresh and hands the segments a stretch ACK carries past it to congestion avoidance, as tcp_slow_start and tcp_reno_cong_avoid do (it overshot ssthresh by them); 22: byte counting as Linux's tcp_slow_start runs it: in slow start one ACK adds every segment it covers (was at most 2, RFC 3465's L), so a stretch ACK (GRO, an ACK lost or delayed) grows cwnd by all it acknowledges; the host parameter abc_limit sets an L (2 is RFC 3465's); 21: the host parameter edt_credit: a paced sender (BBR, BBRv2) paces from its 10th segment on, and an skb sent after its departure time had passed (an ACK let it go) shortens the gap after it by that delay, up to half its length, as Linux's tcp_update_skb_after_send does (on by default, as in Linux since 4.20; was every skb followed by its whole length from the first); and with TSO an aggregate that cwnd cut short is followed by its own length at the pacing rate (tcp_wstamp_ns moves per skb), where its pacing was carried into the next aggregate's gap; 20: BBRv2 judges its departure-time in-flight tests (PROBE_UP, DOWN, DRAIN) under the gain the previous ACK left, bbr->pacing_gain as bbr_update_gains sets it after the model update, where it used the new phase's gain on an ACK or after a loss mark that changed the phase; BBR v1's TSO burst goal is capped at 127 segments (tcp_bbr.c's bbr_tso_segs_goal), which binds only for segments under 514 bytes; 19: BBR and BBRv2 judge their gain cycle's and DRAIN's in-flight targets by what will be in the network at the next departure, as bbr_packets_in_net_at_edt does (prior_in_flight less what the bandwidth delivers until the pacing lets the next skb go, plus that skb while probing), where they judged prior_in_flight itself; 18: BIC grows by the segments each ACK covers and carries what slow start leaves past ssthresh into congestion avoidance, as tcp_bic.c does since Linux 5.7 ("tcp: fix stretch ACK bugs in BIC": tcp_cong_avoid_ai(tp, ca->cnt, acked), was one credit per ACK whatever it covered, the excess dropped); 17: BBR v1 models a token-bucket policer as tcp_bbr.c does (bbr_lt_bw_sampling: after two lossy intervals of 4-16 round trips, each with at least 50/256 of its delivery lost, whose rates agree within 1/8 or 4 kbit/s, it paces at and sizes cwnd from their mean with a gain of 1 for 48 round trips), where it was left out, and sets its gains on every ACK (bbr_update_gains); 16: the host parameter sack_compression: Linux's SACK compression (__tcp_ack_snd_check, tcp_sack_new_ofo_skb: a receiver holding out-of-order data sends the first three ACKs at one RCV.NXT at once, then one per 44 segments, per min(1 ms, SRTT/20) or when a SACK block would fall behind the first two), on by default as in Linux since 4.18; 15: BBR and BBRv2 pace from the handshake's RTT (bbr_init_pacing_rate_from_rtt: high_gain x IW / SRTT, was over a nominal 1 ms) and restart from high_gain x cwnd / SRTT at the first RTT known whatever the bandwidth sample (bbr_set_pacing_rate; STARTUP kept the nominal 331 Mbit/s); BBRv2 raises inflight_hi in PROBE_UP while the window was cwnd-limited as tcp_cwnd_validate records it (tp->is_cwnd_limited, bbr2_probe_inflight_hi_upward), not while the pipe at the ACK fills cwnd; 14: losses counted when a segment is marked lost (tcp_mark_skb_lost: RACK's marks, every unSACKed segment at a timeout, none of a timeout's marks among an ACK's losses), not when it is resent, which BBR and BBRv2 read; the host parameter skb_marked_lost: BBRv2 reacts to each segment the moment it is marked lost (bbr2_skb_marked_lost), on by default as in the BBRv2 alpha; 13: the rate sample and the cong_control call of every ACK that SACKs new data (tcp_rate_gen, tcp_cong_control: BBR and BBRv2 follow SACKs through a recovery, STARTUP ends on loss as in Linux); BBR's window grows by the bytes delivered, SACKed included (rs->acked_sacked); the host parameter sack_rate_samples; 12: the controllers of Linux 5.13 (the BBRv2 alpha kernel's base), with no PRR over BBR and BBRv2 (Linux's cong_control controllers): CUBIC in tcp_cubic.c's arithmetic (cubic_variant, rfc9438 kept) with Linux's HyStart (hystart_variant, rfc9406 kept), BIC as tcp_bic.c, BBR v1 with tcp_bbr.c's ACK-aggregation allowance and quantization budget, BBRv2 as the v2alpha tcp_bbr2.c (no recovery cut); 11: the Linux recovery mechanisms of the shared host (quick_ack, dsack, undo, frto, adaptive_reordering, rto_min_on), on by default as in Linux; 10: the satellite queue limit takes the shared forms queue (packets) and queue_bdp (a fraction of rate x one-way delay, in full-size packets), exclusive with buffer; buffer_bdp (a fraction of rate x RTT, in bytes) is gone; 9: rtos and rto_episodes; the queue discipline is aqm (was queue, which names a limit in packets in the other TCP models); warmup defaults to 0 (was 5 s); the host parameters delayed_ack, window_scaling and limited_transmit (were off, on, on); 8: payload_loss, coding_overhead, residual_loss stored as fractions in *_frac columns (were percent in *_pct); 7: probe, short-flow and flow-size metrics null where not applicable (was NaN); 6: the shared host options prr, timestamps, syn_timeout, byte_counting, loss_detection dupthresh-only; 5: the flows-per-second column is flows_completed_per_s (was flows_per_s_per_s); 2: RACK finds lost retransmissions, SACK state kept over timeouts, BBR as Linux; 3: RACK-TLP (RFC 8985) by default; 4: RACK sees reordering only where the wire reorders
		Doc: "An island fed by a GEO or MEO satellite link under closed-loop channel load (document 004): total and " +
			"probe goodput, flows per second, payload loss at the satellite input queue, with optional split-TCP " +
			"proxies, block coding, CoDel/FQ-CoDel and BDP-sized buffers.",
		Params:  append(params, withRecovery("prr", "timestamps", "syn_timeout", "send_buffer", "ssthresh_basis", "prr_rounding", "grow_on_recovery_exit", "ack_first_segment")...),
		Metrics: metrics,
		Tables: []vocab.Table{{Name: "timeseries", Doc: "every sample_interval", Columns: []vocab.Metric{
			{Name: "time", Kind: F, Unit: vocab.Second,
				Doc: "sample time, the end of the interval the rates cover: sample_interval, 2 sample_interval, ... up to duration"},
			{Name: "queue", Kind: I, Unit: vocab.Byte, Doc: "satellite input queue at the sample time"},
			{Name: "goodput", Kind: F, Unit: vocab.BitPerSecond, Doc: "bytes delivered to island clients during the interval"},
			{Name: "probe_goodput", Kind: F, Unit: vocab.BitPerSecond,
				Doc: "probe bytes delivered to its client's application during the interval, per second; 0 before probe_start, after the probe finished and with probe_size 0, where no probe runs"},
			{Name: "utilisation", Kind: F, Doc: "busy fraction of the satellite link towards the island during the interval, from 0 to 1: its transmitter's busy time over the interval's length (the main table's utilisation, per interval)"},
			{Name: "connections", Kind: I, Doc: "connections open at the sample time"},
		}}},
	}
}

// Metric positions.
const (
	siGoodput = iota
	siChannelGoodput
	siFlowsPerS
	siFlows
	siProbeGoodput
	siProbeTime
	siProbeBytes
	siLoss
	siOffered
	siQueueMean
	siQueueP95
	siUtil
	siShortFCT
	siShortN
	siMeanSize
	siSatDelay
	siConns
	siRecovered
	siOverhead
	siResidual
	siRTOs
	siRTOEpisodes
	siEvents
	siCount
)

// satConfig is sat-island's parameters, decoded.
type satConfig struct {
	satDelay    des.Duration
	rate, ret   unit.BitRate
	queue       netsim.QueueModel
	buffer      unit.Bytes // limit of the satellite queues in bytes, or 0 when packets limits them
	packets     int        // limit of the satellite queues in packets (queue, queue_bdp), or 0
	channels    int
	servers     int
	terrMin     des.Duration
	terrMax     des.Duration
	terrRate    unit.BitRate
	lanRate     unit.BitRate
	lanDelay    des.Duration
	sizes       workload.FlowSizes
	request     unit.Bytes
	think       des.Duration
	stagger     des.Duration
	probeSize   unit.Bytes
	probeStart  des.Time
	probeDelay  des.Duration
	cca, ccaIsl string
	host        tcpHost
	window      unit.Bytes // receive buffer of every endpoint
	pep         bool
	pepCCA      string
	pepWindow   unit.Bytes
	pepIW       int
	coding      bool
	codeK       int
	codeM       int
	codeTimeout des.Duration
	duration    des.Time
	warmup      des.Time
	sample      des.Duration
}

// decodeSatIsland reads sat-island's parameters and checks the ones that
// depend on each other.
func decodeSatIsland(p vocab.Params) (satConfig, error) {
	c := satConfig{
		rate:        unit.BitRate(p.Float("rate")),
		ret:         unit.BitRate(p.Float("return_rate")),
		channels:    int(p.Int("channels")),
		servers:     int(p.Int("servers")),
		terrMin:     des.FromSeconds(p.Float("terr_delay_min")),
		terrMax:     des.FromSeconds(p.Float("terr_delay_max")),
		terrRate:    unit.BitRate(p.Float("terr_rate")),
		lanRate:     unit.BitRate(p.Float("lan_rate")),
		lanDelay:    des.FromSeconds(p.Float("lan_delay")),
		request:     unit.Bytes(p.Int("request")),
		think:       des.FromSeconds(p.Float("think")),
		stagger:     des.FromSeconds(p.Float("stagger")),
		probeSize:   unit.Bytes(p.Int("probe_size")),
		probeStart:  des.Time(des.FromSeconds(p.Float("probe_start"))),
		probeDelay:  des.FromSeconds(p.Float("probe_delay")),
		cca:         p.Str("cca"),
		ccaIsl:      p.Str("cca_island"),
		host:        decodeHost(p),
		window:      unit.Bytes(p.Int("window")),
		pep:         p.Bool("pep"),
		pepCCA:      p.Str("pep_cca"),
		pepWindow:   unit.Bytes(p.Int("pep_window")),
		pepIW:       int(p.Int("pep_iw")),
		coding:      p.Bool("coding"),
		codeK:       int(p.Int("coding_k")),
		codeM:       int(p.Int("coding_m")),
		codeTimeout: des.FromSeconds(p.Float("coding_timeout")),
		duration:    des.Time(des.FromSeconds(p.Float("duration"))),
		warmup:      des.Time(des.FromSeconds(p.Float("warmup"))),
		sample:      des.FromSeconds(p.Float("sample_interval")),
	}
	if c.ret == 0 {
		c.ret = c.rate
	}
	if c.warmup >= c.duration {
		return c, fmt.Errorf("models: sat-island: warmup %v must be shorter than duration %v", c.warmup, c.duration)
	}
	if c.terrMax < c.terrMin {
		return c, fmt.Errorf("models: sat-island: terr_delay_max %v is below terr_delay_min %v", c.terrMax, c.terrMin)
	}
	alt, buf := orbit.AltitudeGEO, unit.Bytes(satBufferGEO)
	if p.Str("orbit") == "meo" {
		alt, buf = orbit.AltitudeO3b, satBufferMEO
	}
	c.satDelay = des.FromSeconds(p.Float("sat_delay"))
	if c.satDelay == 0 {
		c.satDelay = SatOneWayDelay(alt, p.Float("elevation_deg"), des.FromSeconds(p.Float("sat_processing")))
	}
	if err := c.readLimit(unit.Bytes(p.Int("buffer")), decodeQueue(p), buf); err != nil {
		return c, fmt.Errorf("models: sat-island: %w", err)
	}
	aqm := p.Str("aqm")
	c.queue = c.satQueue(aqm, des.FromSeconds(p.Float("codel_target")), des.FromSeconds(p.Float("codel_interval")))
	var err error
	if c.sizes, err = decodeFlowSizes(p); err != nil {
		return c, fmt.Errorf("models: sat-island: %w", err)
	}
	if c.coding && aqm == "fq_codel" {
		return c, fmt.Errorf("models: sat-island: coding needs a FIFO satellite queue (droptail or codel), not fq_codel")
	}
	return c, nil
}

// satQueue is the satellite input queue of discipline aqm. The AQMs count
// packets: a limit in bytes becomes that many full segments (mss + 40
// bytes). A CoDel interval of 0 is the satellite round trip plus 100 ms.
func (c *satConfig) satQueue(aqm string, target, interval des.Duration) netsim.QueueModel {
	pkts := c.packets
	if pkts == 0 {
		pkts = max(1, int(c.buffer/(c.host.mss+tcp.HeaderBytes)))
	}
	if interval == 0 {
		interval = 2*c.satDelay + 100*des.Millisecond
	}
	switch aqm {
	case "codel":
		return netsim.CoDel{Target: target, Interval: interval, Limit: pkts}
	case "fq_codel":
		return netsim.FQCoDel{Target: target, Interval: interval, Limit: pkts}
	}
	return netsim.DropTail{Bytes: c.buffer, Packets: c.packets}
}

// decodeFlowSizes reads the channels' flow sizes: flow_cdf, or the
// bounded Pareto of flow_alpha, flow_min and flow_max.
func decodeFlowSizes(p vocab.Params) (workload.FlowSizes, error) {
	if cdf := p.Str("flow_cdf"); cdf != "" {
		e, err := workload.ParseCDF(cdf)
		if err != nil {
			return nil, fmt.Errorf("flow_cdf: %w", err)
		}
		return e, nil
	}
	bp := workload.BoundedPareto{Alpha: p.Float("flow_alpha"), Min: p.Float("flow_min"), Max: p.Float("flow_max")}
	if err := bp.Validate(); err != nil {
		return nil, err
	}
	return bp, nil
}

// conn is the tcp.Config of every endpoint but the proxies' satellite
// legs: servers write each response at once, so the send buffer never
// limits them.
func (c *satConfig) conn() tcp.Config {
	return c.host.config(c.window, 1<<40)
}

// pepConn is the tcp.Config of the proxies on the satellite hop: the same
// host with the proxies' receive buffer and initial window.
func (c *satConfig) pepConn() tcp.Config {
	h := c.host
	h.iw = c.pepIW
	return h.config(c.pepWindow, 1<<40)
}

// ccOptions are the controllers' options; every controller of a scenario
// shares the one seed 0.
func (c *satConfig) ccOptions() cc.Options { return c.host.ccOptions(0) }

// readLimit sets the satellite queues' limit from the one form of it the
// parameters set: buffer in bytes, or queue or queue_bdp (the BDP being
// the satellite rate x its one-way delay, as in the other TCP models);
// none of them takes the orbit's buffer, def. Two forms at once are an
// error, so that one limit has one scenario id.
func (c *satConfig) readLimit(buf unit.Bytes, q queueForm, def unit.Bytes) error {
	if buf > 0 {
		if q.packets > 0 {
			return fmt.Errorf("buffer %v and queue %d: set the satellite queue limit in one form, bytes (buffer) or packets (queue), not both (the other to 0)", buf, q.packets)
		}
		if q.bdp > 0 {
			return fmt.Errorf("buffer %v and queue_bdp %g%%: set the satellite queue limit in one form, bytes (buffer) or a fraction of the BDP (queue_bdp), not both (the other to 0)", buf, q.bdp*100)
		}
		c.buffer = buf
		return nil
	}
	pk, err := q.limit(c.rate, c.satDelay, c.host.fullPacket())
	if err != nil {
		return err
	}
	if pk == 0 {
		c.buffer = def
	}
	c.packets = pk
	return nil
}

// withSyntax returns p with its Syntax check set.
func withSyntax(p vocab.Param, check func(string) error) vocab.Param {
	p.Syntax = check
	return p
}

// checkCDF is the Syntax of flow_cdf: empty, or a CDF workload.ParseCDF reads.
func checkCDF(text string) error {
	if text == "" {
		return nil
	}
	_, err := workload.ParseCDF(text)
	return err
}
