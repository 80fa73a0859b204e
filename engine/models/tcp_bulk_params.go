package models

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Cost is simulated seconds times link rate times channels.
func (m *TCPBulk) Cost(p vocab.Params) float64 {
	return p.Float("duration") * p.Float("rate") * float64(p.Int("channels"))
}

// tcpLinkParams are the parameters tcp-bulk and tcp-transfer share.
func tcpLinkParams() []vocab.Param {
	return append([]vocab.Param{
		{Name: "rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(1e9), Min: 1e3, Max: 1e12,
			Doc: "link rate (per channel)"},
		{Name: "delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0.0533), Min: 0, Max: 10,
			Doc: "one-way propagation delay"},
		queueParam(0),
		queueBDPParam(0),
		hostParam("mss"),
		{Name: "window", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(65535), Min: 1000, Max: 1 << 30,
			Doc: "receive buffer: the largest window advertised (65535 caps it without window scaling)"},
		hostParam("window_scaling"),
		hostParam("sack"),
		hostParam("iw"),
		hostParam("delayed_ack"),
		hostParam("limited_transmit"),
		hostParam("min_rto"),
		hostParam("loss_detection"),
		{Name: "cca", Kind: vocab.String, Default: vocab.S("newreno"), Choices: cc.Names(),
			Doc: "congestion control (engine/tcp/cc): reno uses RFC 5681 loss recovery, every other controller RFC 6582 NewReno recovery, or RFC 6675 with sack"},
		{Name: "per", Kind: vocab.Float, Default: vocab.F(0), Min: 0, Max: 1,
			Doc: "packet error rate of the data direction (used when ber is 0)"},
		{Name: "ber", Kind: vocab.Float, Default: vocab.F(0), Min: 0, Max: 0.5,
			Doc: "bit error rate of the data direction, turned into a PER per packet size (64B/66B coded)"},
		{Name: "per_formula", Kind: vocab.String, Default: vocab.S("exact"), Choices: []string{"exact", "worst"},
			Doc: "BER to PER: exact 1-(1-BER)^bits or the worst-case linear bound (document 000 Eq. 8)"},
	}, withRecovery("prr", "timestamps", "syn_timeout", "hystart", "hystart_variant", "cubic_variant", "byte_counting", "abc_limit", "write_size", "send_buffer", "ssthresh_basis", "prr_rounding", "grow_on_recovery_exit", "ack_first_segment")...)
}

func tcpBulkSchema() *vocab.Schema {
	params := append(tcpLinkParams(),
		vocab.Param{Name: "duration", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(10), Min: 0.001, Max: 1e5,
			Doc: "simulated time"},
		vocab.Param{Name: "warmup", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0), Min: 0, Max: 1e5,
			Doc: "goodput counts bytes delivered from this time on; 0, the default, counts the whole run (a warm-up is asked for, never implied)"},
		vocab.Param{Name: "size", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(0), Min: 0, Max: 1 << 50,
			Doc: "bytes each flow sends; 0 sends for the whole duration"},
		vocab.Param{Name: "flows", Kind: vocab.Int, Default: vocab.I(1), Min: 1, Max: 10000, Doc: "number of TCP flows"},
		vocab.Param{Name: "channels", Kind: vocab.Int, Default: vocab.I(1), Min: 1, Max: 64,
			Doc: "parallel channels (wavelengths), each at rate"},
		vocab.Param{Name: "striping", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "with several channels, stripe packets round-robin (true) or bind each flow to one channel"},
		vocab.Param{Name: "sample_interval", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0), Min: 0, Max: 1e5,
			Doc: "period of the cwnd/ssthresh/RTT time series; 0 writes none"},
		vocab.Param{Name: "ssthresh", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(0), Min: 0, Max: 1 << 40,
			Doc: "initial slow-start threshold; 0 keeps the controller's (65535 is document 000's conventional 65 KB SST)"},
		vocab.Param{Name: "loss_model", Kind: vocab.String, Default: vocab.S("given"), Choices: []string{"given", "fso"},
			Doc: "given: per or ber as set; fso: BER of each channel from the FSO link budget of document 000 (Table 1, Eqs. 1-7) at distance and the channel's rate, PER per packet size in both directions"},
		vocab.Param{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(0), Min: 0, Max: 1e9,
			Doc: "inter-satellite distance; when > 0 the one-way delay is distance/c (c of constants) and delay is ignored"},
		vocab.Param{Name: "detection", Kind: vocab.String, Default: vocab.S("auto"), Choices: []string{"auto", "direct", "coherent"},
			Doc: "fso detection: direct (thermal noise), coherent (shot noise), or auto: direct below 20,000 km and coherent above, as document 000 section 6.1 advises"},
		vocab.Param{Name: "constants", Kind: vocab.String, Default: vocab.S("codata"), Choices: []string{"codata", "paper"},
			Doc: "physical constants of the fso budget and of distance/c: CODATA 2018 or document 000 Table 1 as printed"},
		vocab.Param{Name: "ber_formula", Kind: vocab.String, Default: vocab.S("eq7"), Choices: []string{"eq7", "q"},
			Doc: "fso BER from SNR: eq7 = exp(-SNR/2)/sqrt(2 pi SNR) (document 000 Eq. 7) or q = Q(sqrt(SNR))"},
		vocab.Param{Name: "channel_spacing", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(0.8e-9), Min: 0, Max: 100e-9,
			Doc: "fso wavelength spacing of parallel channels around 1550 nm (0.8 nm is the ITU-T G.694.1 100 GHz grid), so each channel has its own BER"},
		vocab.Param{Name: "trace_packets", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(0), Min: 0, Max: 1e6,
			Doc: "with striping over several channels, record the first this many striped packets in the stripes table"},
	)
	return &vocab.Schema{
		Exclusive: queueForms(),
		Name:      "tcp-bulk",
		Version:   26, // 26: the RTT is sampled as Linux's tcp_ack_update_rtt does: an ACK that covers a segment ever retransmitted gives no sample from sequence numbers (Karn; FLAG_RETRANS_DATA_ACKED), otherwise the oldest segment it newly acknowledges and had not SACKed is timed, where the newest was, so the ACK that ended a repair timed the receiver's wait since it SACKed the segment (seconds after a timeout); without a sequence sample the oldest segment an ACK newly SACKs is timed (RACK-TLP senders), and without that an ACK of new data by its timestamp echo; the minimum RTT and the controller's RTT (HyStart, Vegas, BBR) follow the newest segment timed (ca_rtt_us); every sample ends the timer's back-off; 25: with quick_ack (Linux's quick-ACK mode) the receiver also acknowledges every skb at once while its receive window grows from the first 65535 bytes towards the buffer's, each skb raising it by max(2 advmss, 2 x its length) (tcp_grow_window's icsk_ack.quick |= 1), as a real Linux 6.1 receiver does on document 002's testbed for the first 25-35 s of a flow of a few Mbit/s into a 16 MiB window (validation/linuxpeer's captures); past the first quick ACKs it delayed them; 24: with byte counting as Linux's (abc_limit 0) Reno's slow start stops at ssthresh and hands the segments a stretch ACK carries past it to congestion avoidance, as tcp_slow_start and tcp_reno_cong_avoid do (it overshot ssthresh by them); 23: byte counting as Linux's tcp_slow_start runs it: in slow start one ACK adds every segment it covers (was at most 2, RFC 3465's L), so a stretch ACK (GRO, an ACK lost or delayed) grows cwnd by all it acknowledges; the host parameter abc_limit sets an L (2 is RFC 3465's); 22: the host parameter edt_credit: a paced sender (BBR, BBRv2) paces from its 10th segment on, and an skb sent after its departure time had passed (an ACK let it go) shortens the gap after it by that delay, up to half its length, as Linux's tcp_update_skb_after_send does (on by default, as in Linux since 4.20; was every skb followed by its whole length from the first); and with TSO an aggregate that cwnd cut short is followed by its own length at the pacing rate (tcp_wstamp_ns moves per skb), where its pacing was carried into the next aggregate's gap; 21: BBRv2 judges its departure-time in-flight tests (PROBE_UP, DOWN, DRAIN) under the gain the previous ACK left, bbr->pacing_gain as bbr_update_gains sets it after the model update, where it used the new phase's gain on an ACK or after a loss mark that changed the phase; BBR v1's TSO burst goal is capped at 127 segments (tcp_bbr.c's bbr_tso_segs_goal), which binds only for segments under 514 bytes; 20: BBR and BBRv2 judge their gain cycle's and DRAIN's in-flight targets by what will be in the network at the next departure, as bbr_packets_in_net_at_edt does (prior_in_flight less what the bandwidth delivers until the pacing lets the next skb go, plus that skb while probing), where they judged prior_in_flight itself; 19: BIC grows by the segments each ACK covers and carries what slow start leaves past ssthresh into congestion avoidance, as tcp_bic.c does since Linux 5.7 ("tcp: fix stretch ACK bugs in BIC": tcp_cong_avoid_ai(tp, ca->cnt, acked), was one credit per ACK whatever it covered, the excess dropped); 18: BBR v1 models a token-bucket policer as tcp_bbr.c does (bbr_lt_bw_sampling: after two lossy intervals of 4-16 round trips, each with at least 50/256 of its delivery lost, whose rates agree within 1/8 or 4 kbit/s, it paces at and sizes cwnd from their mean with a gain of 1 for 48 round trips), where it was left out, and sets its gains on every ACK (bbr_update_gains); 17: the host parameter sack_compression: Linux's SACK compression (__tcp_ack_snd_check, tcp_sack_new_ofo_skb: a receiver holding out-of-order data sends the first three ACKs at one RCV.NXT at once, then one per 44 segments, per min(1 ms, SRTT/20) or when a SACK block would fall behind the first two), on by default as in Linux since 4.18; 16: BBR and BBRv2 pace from the handshake's RTT (bbr_init_pacing_rate_from_rtt: high_gain x IW / SRTT, was over a nominal 1 ms) and restart from high_gain x cwnd / SRTT at the first RTT known whatever the bandwidth sample (bbr_set_pacing_rate; STARTUP kept the nominal 331 Mbit/s); BBRv2 raises inflight_hi in PROBE_UP while the window was cwnd-limited as tcp_cwnd_validate records it (tp->is_cwnd_limited, bbr2_probe_inflight_hi_upward), not while the pipe at the ACK fills cwnd; 15: losses counted when a segment is marked lost (tcp_mark_skb_lost: RACK's marks, every unSACKed segment at a timeout, none of a timeout's marks among an ACK's losses), not when it is resent, which BBR and BBRv2 read; the host parameter skb_marked_lost: BBRv2 reacts to each segment the moment it is marked lost (bbr2_skb_marked_lost), on by default as in the BBRv2 alpha; 14: the rate sample and the cong_control call of every ACK that SACKs new data (tcp_rate_gen, tcp_cong_control: BBR and BBRv2 follow SACKs through a recovery, STARTUP ends on loss as in Linux); BBR's window grows by the bytes delivered, SACKed included (rs->acked_sacked); the host parameter sack_rate_samples; 13: the controllers of Linux 5.13 (the BBRv2 alpha kernel's base), with no PRR over BBR and BBRv2 (Linux's cong_control controllers): CUBIC in tcp_cubic.c's arithmetic (cubic_variant, rfc9438 kept) with Linux's HyStart (hystart_variant, rfc9406 kept), BIC as tcp_bic.c, BBR v1 with tcp_bbr.c's ACK-aggregation allowance and quantization budget, BBRv2 as the v2alpha tcp_bbr2.c (no recovery cut); 12: the Linux recovery mechanisms of the shared host (quick_ack, dsack, undo, frto, adaptive_reordering, rto_min_on), on by default as in Linux; 11: the wire rate is wire_rate (was throughput); 10: timeseries ssthresh null while infinite (was -1); 9: t0, completion and response times null where not applicable (was NaN); 8: warmup defaults to 0 (was 1 s); the shared host options prr, timestamps, syn_timeout, hystart, byte_counting, write_size, loss_detection dupthresh-only; 7: limited_transmit parameter, t0 metric; 6: rto metric (Padhye's T0); 4: RACK finds lost retransmissions, SACK state kept over timeouts, BBR as Linux; 5: RACK sees reordering only where the wire reorders
		Doc: "Bulk TCP flows (any congestion controller of engine/tcp/cc, optional SACK and window scaling) over a link or parallel channels with " +
			"random loss; goodput after warm-up, retransmissions, recoveries, RTT and queueing delay.",
		Params:  params,
		Metrics: append(tcpMetrics(), bulkMetrics()...),
		Tables: []vocab.Table{
			{Name: "flows", Doc: "one row per flow", Columns: []vocab.Metric{
				{Name: "flow", Kind: vocab.Int, Doc: "flow index, 0-based (as the timeseries and stripes tables number flows)"},
				{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond,
					Doc: "the flow's application goodput: payload bytes its receiving application got in order at or after warmup, per second of duration - warmup"},
				{Name: "bytes_delivered", Kind: vocab.Int, Unit: vocab.Byte,
					Doc: "payload bytes the flow's receiving application got in order over the whole run (warmup not applied)"},
				{Name: "retrans_segs", Kind: vocab.Int, Unit: vocab.Packet,
					Doc: "data segments the flow's sender retransmitted over the whole run, for any cause (fast retransmit, recovery, timeout, or a tail loss probe that resends data), spurious ones included"},
				{Name: "fast_recoveries", Kind: vocab.Int,
					Doc: "fast recovery episodes the flow's sender entered (RFC 6582/6675: at most one per window of data)"},
				{Name: "rtos", Kind: vocab.Int, Doc: "the flow's retransmission timer expiries of data, back-offs counted one each (a SYN's timeouts are not counted)"},
				{Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second,
					Doc: "mean of the flow's RTT samples (the samples Linux's tcp_ack_update_rtt takes: the handshake's, and per ACK the oldest segment it newly acknowledges that was neither SACKed nor ever retransmitted, none from an ACK that covers a retransmission (Karn's rule as tcp_clean_rtx_queue applies it); without one, with loss_detection rack-tlp, the oldest segment it newly SACKs, and then, with timestamps, its echo); 0 when the flow took no sample, which means no RTT, not a zero one"},
				{Name: "completion_time", Kind: vocab.Float, Unit: vocab.Second,
					Doc: "from the flow's first SYN until its data and FIN are acknowledged; null if the flow did not finish (always with size 0)"},
			}},
			{Name: "timeseries", Doc: "cwnd, ssthresh and smoothed RTT of every flow every sample_interval", Columns: []vocab.Metric{
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second, Doc: "sample time from the start of the run: 0, sample_interval, 2 sample_interval, ... up to duration, which is sampled too when it is a whole number of sample_intervals"},
				{Name: "flow", Kind: vocab.Int, Doc: "flow index, 0-based as in the flows table"},
				{Name: "cwnd", Kind: vocab.Int, Unit: vocab.Byte,
					Doc: "the sender's congestion window at the sample time; 0 before the connection opens (the sample at time 0), which means no window yet"},
				{Name: "ssthresh", Kind: vocab.Int, Unit: vocab.Byte, Doc: "slow-start threshold; null while there is none: the initial infinite one (no loss yet, no ssthresh parameter) or before the connection opens"},
				{Name: "srtt", Kind: vocab.Float, Unit: vocab.Second,
					Doc: "the sender's smoothed RTT (RFC 6298 section 2) at the sample time; 0 before its first RTT sample, which means no estimate yet, not a zero RTT"},
			}},
			{Name: "stripes", Doc: "wavelength striping trace: the first trace_packets packets spread round-robin over the channels, " +
				"one time slot per round (document 000 Fig. 2)", Columns: []vocab.Metric{
				{Name: "slot", Kind: vocab.Int, Doc: "time slot: the round of the round-robin, one packet per wavelength"},
				{Name: "wavelength", Kind: vocab.Int, Doc: "channel index"},
				{Name: "flow", Kind: vocab.Int, Doc: "source flow, 0-based as in the flows table"},
				{Name: "packet", Kind: vocab.Int, Doc: "packet number within its flow, from 1 (the SYN)"},
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second, Doc: "when the packet was handed to its channel"},
				{Name: "size", Kind: vocab.Int, Unit: vocab.Byte, Doc: "size on the wire before line coding"},
			}},
		},
	}
}

// The positions of tcp-bulk's own metrics after the shared ones.
const (
	bmBER = tmCount + iota
	bmPERData
	bmPERAck
	bmOneWayDelay
	bmCount
)

func bulkMetrics() []vocab.Metric {
	return []vocab.Metric{
		{Name: "link_ber", Kind: vocab.Float,
			Doc: "bit error rate of the data direction: the given ber, or the mean over the channels of the fso budget's"},
		{Name: "per_data", Kind: vocab.Float,
			Doc: "packet error rate of a full data segment of mss + 40 header bytes, mean over the channels (the given per if set); with timestamps on, the segments sent carry 12 option bytes more, so the bit errors drop them slightly more often than this says (PER of mss + 52 bytes: 0.8 % more at mss 1448 and a low bit error rate)"},
		{Name: "per_ack", Kind: vocab.Float,
			Doc: "packet error rate of a 40-byte ACK on the return channel (0 unless loss_model is fso)"},
		{Name: "one_way_delay", Kind: vocab.Float, Unit: vocab.Second,
			Doc: "propagation delay used: delay, or distance/c"},
	}
}

// The metric positions shared by tcp-bulk and tcp-transfer.
const (
	tmGoodput = iota
	tmWireRate
	tmBytesDelivered
	tmRetransSegs
	tmRetransBytes
	tmFastRecoveries
	tmRTOs
	tmRTOEpisodes
	tmDropsOverflow
	tmDropsCorrupt
	tmRTTMean
	tmRTTMax
	tmRTO
	tmT0
	tmQueueDelayMean
	tmQueueDelayMax
	tmCompletion
	tmResponse
	tmPktsSent
	tmPktsDelivered
	tmPktsDropped
	tmPktsInFlight
	tmCount
)

func tcpMetrics() []vocab.Metric {
	m := make([]vocab.Metric, tmCount)
	m[tmGoodput] = vocab.Metric{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond,
		Doc: "application goodput: payload bytes delivered in order to the receiving applications per second, all flows, from warmup on (0 unless asked: the whole run); bytes held out of order at warmup count when they are delivered, so after losses it can exceed the bottleneck rate by a little"}
	m[tmWireRate] = vocab.Metric{Name: "wire_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond,
		Doc: "bits transmitted on the data-direction links per second over the whole run, warmup not applied: headers, options and retransmissions included (goodput is the application's rate)"}
	m[tmBytesDelivered] = vocab.Metric{Name: "bytes_delivered", Kind: vocab.Int, Unit: vocab.Byte,
		Doc: "payload bytes delivered in order to the receiving applications over the whole run, all flows (warmup not applied)"}
	m[tmRetransSegs] = vocab.Metric{Name: "retrans_segs", Kind: vocab.Int, Unit: vocab.Packet,
		Doc: "data segments retransmitted over the whole run, all flows, for any cause (fast retransmit, recovery, timeout, or a tail loss probe that resends data), spurious ones included"}
	m[tmRetransBytes] = vocab.Metric{Name: "retrans_bytes", Kind: vocab.Int, Unit: vocab.Byte,
		Doc: "payload bytes of the retransmitted segments (retrans_segs), headers excluded"}
	m[tmFastRecoveries] = vocab.Metric{Name: "fast_recoveries", Kind: vocab.Int,
		Doc: "fast recovery episodes entered, all flows (RFC 6582/6675: at most one per window of data); timeouts are counted in rtos instead"}
	m[tmRTOs] = vocab.Metric{Name: "rtos", Kind: vocab.Int, Doc: "retransmission timer expiries of data (a SYN's timeouts are not counted)"}
	m[tmRTOEpisodes] = vocab.Metric{Name: "rto_episodes", Kind: vocab.Int,
		Doc: "sequences of timeouts: expiries before any back-off (Padhye et al. 1998's timeout loss indications)"}
	m[tmDropsOverflow] = vocab.Metric{Name: "drops_overflow", Kind: vocab.Int, Unit: vocab.Packet,
		Doc: "packets a full queue dropped (tail drop, or an AQM queue at its hard limit; the AQM's own drops count only in packets_dropped), every link in both directions, data and ACKs"}
	m[tmDropsCorrupt] = vocab.Metric{Name: "drops_corrupt", Kind: vocab.Int, Unit: vocab.Packet,
		Doc: "packets the links' loss process destroyed (per, ber or the fso budget), every link in both directions, data and ACKs"}
	m[tmRTTMean] = vocab.Metric{Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "mean of the senders' RTT samples, all flows pooled (the samples the flows table's rtt_mean takes: the handshake's, and per ACK the oldest segment it newly acknowledges that was neither SACKed nor ever retransmitted, as Linux's tcp_ack_update_rtt times it; none from an ACK that covers a retransmission, Karn's rule; without one, with loss_detection rack-tlp, the oldest segment it newly SACKs, and then, with timestamps, its echo): " +
			"propagation, serialisation, queueing and delayed ACKs; 0 when no sender took a sample, which means no RTT, not a zero one"}
	m[tmRTTMax] = vocab.Metric{Name: "rtt_max", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "largest RTT sample of any flow (samples as rtt_mean); 0 when no sender took a sample, which means no RTT"}
	m[tmRTO] = vocab.Metric{Name: "rto", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "retransmission timeout at the end of the run (RFC 6298, with any back-off), mean over flows"}
	m[tmT0] = vocab.Metric{Name: "t0", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "mean duration of the first timeout of each sequence of timeouts (the timer's run from its last arming to expiry, before back-off), all flows: the T0 of Padhye et al. 1998; null without timeouts (not applicable)"}
	m[tmQueueDelayMean] = vocab.Metric{Name: "queue_delay_mean", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "mean wait in the queue (arrival to start of transmission) of the packets the data-direction links (every channel) transmitted, over the whole run; 0 when none was transmitted, which means no packet to measure"}
	m[tmQueueDelayMax] = vocab.Metric{Name: "queue_delay_max", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "longest such wait on a data-direction link; 0 when none was transmitted"}
	m[tmCompletion] = vocab.Metric{Name: "completion_time", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "from the first SYN until the last flow's data and FIN are acknowledged; null if unfinished"}
	m[tmResponse] = vocab.Metric{Name: "response_time", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "from the first SYN until the last byte reaches the receiving application; null if unfinished"}
	m[tmPktsSent] = vocab.Metric{Name: "packets_sent", Kind: vocab.Int, Unit: vocab.Packet, Doc: "offered to links"}
	m[tmPktsDelivered] = vocab.Metric{Name: "packets_delivered", Kind: vocab.Int, Unit: vocab.Packet,
		Doc: "packets that reached the far end of their link, every link in both directions, data and ACKs"}
	m[tmPktsDropped] = vocab.Metric{Name: "packets_dropped", Kind: vocab.Int, Unit: vocab.Packet,
		Doc: "packets dropped on every link in both directions, for any reason (overflow, AQM, corruption, no route): drops_overflow and drops_corrupt and the rest"}
	m[tmPktsInFlight] = vocab.Metric{Name: "packets_in_flight", Kind: vocab.Int, Unit: vocab.Packet,
		Doc: "queued or on the wire at the end: sent = delivered + dropped + in flight"}
	return m
}

// lossDetectionChoices are the values of the loss_detection parameter.
var lossDetectionChoices = []string{"dupthresh", "rack-tlp", "dupthresh-only"}

const lossDetectionDoc = "loss detection: dupthresh, RFC 5681/6675's duplicate-ACK threshold (RACK only for lost retransmissions); " +
	"rack-tlp, RFC 8985's RACK for every segment and Tail Loss Probes, Linux's default since 4.18 (needs sack, else dupthresh); " +
	"dupthresh-only, the threshold without RACK, so a lost retransmission waits for the timer (ns-3 up to 3.37)"

// lossDetection maps a loss_detection value to the sender's setting; the
// schema's choices have been checked.
func lossDetection(v string) tcp.LossDetection {
	switch v {
	case "rack-tlp":
		return tcp.LossRACKTLP
	case "dupthresh-only":
		return tcp.LossDupThreshOnly
	}
	return tcp.LossDupThresh
}

// tcpLinkConfig is the decoded form of tcpLinkParams: the link, the loss
// given on it and the host at both ends.
type tcpLinkConfig struct {
	rate     unit.BitRate
	delay    des.Duration
	queue    queueForm
	window   unit.Bytes // receive buffer
	host     tcpHost
	cca      string
	per, ber float64
	worst    bool // per_formula worst: document 000's Eq. 8 bound
}

// decodeTCPLink reads tcpLinkParams.
func decodeTCPLink(p vocab.Params) tcpLinkConfig {
	c := tcpLinkConfig{
		rate:   unit.BitRate(p.Float("rate")),
		delay:  des.FromSeconds(p.Float("delay")),
		queue:  decodeQueue(p),
		window: unit.Bytes(p.Int("window")),
		host:   decodeHost(p),
		cca:    p.Str("cca"),
		per:    p.Float("per"),
		ber:    p.Float("ber"),
		worst:  p.Str("per_formula") == "worst",
	}
	// tcp-bulk's and tcp-transfer's reno is RFC 5681 with its own
	// recovery; every other controller recovers as RFC 6582 (or RFC 6675
	// with SACK).
	c.host.renoRecovery = c.cca == "reno"
	return c
}

// conn is the tcp.Config of both ends: the receive buffer is window, and
// the application is never limited by the socket's send buffer (the host's
// send_buffer bounds the writer instead).
func (c tcpLinkConfig) conn() tcp.Config {
	return c.host.config(c.window, 1<<40)
}

// fsoConfig is tcp-bulk's physical layer: the distance, and with
// loss_model fso the FSO link budget's choices.
type fsoConfig struct {
	fso        bool // loss_model fso
	distance   float64
	detection  string
	constants  string
	berFormula string
	spacing    float64 // channel_spacing, m
}

// bulkConfig is tcp-bulk's parameters, decoded.
type bulkConfig struct {
	link             tcpLinkConfig
	duration, warmup des.Time
	size             unit.Bytes // per flow; workload.Unlimited for a timed run
	flows, channels  int
	striping         bool
	sample           des.Duration
	ssthresh         unit.Bytes
	trace            int
	phys             fsoConfig
}

// decodeBulk reads tcp-bulk's parameters and checks the ones that depend
// on each other.
func decodeBulk(p vocab.Params) (bulkConfig, error) {
	c := bulkConfig{
		link:     decodeTCPLink(p),
		duration: des.Time(des.FromSeconds(p.Float("duration"))),
		warmup:   des.Time(des.FromSeconds(p.Float("warmup"))),
		size:     unit.Bytes(p.Int("size")),
		flows:    int(p.Int("flows")),
		channels: int(p.Int("channels")),
		striping: p.Bool("striping"),
		sample:   des.FromSeconds(p.Float("sample_interval")),
		ssthresh: unit.Bytes(p.Int("ssthresh")),
		trace:    int(p.Int("trace_packets")),
		phys: fsoConfig{
			fso:        p.Str("loss_model") == "fso",
			distance:   p.Float("distance"),
			detection:  p.Str("detection"),
			constants:  p.Str("constants"),
			berFormula: p.Str("ber_formula"),
			spacing:    p.Float("channel_spacing"),
		},
	}
	if c.warmup >= c.duration {
		return c, fmt.Errorf("models: tcp-bulk: warmup %v must be shorter than duration %v", c.warmup, c.duration)
	}
	if c.size == 0 {
		c.size = workload.Unlimited
	}
	return c, nil
}
