package models

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Cost is simulated seconds times the bits the links carry per second.
func (m *MulticastVideo) Cost(p vocab.Params) float64 {
	if p.Str("path") == "satellite" {
		return p.Float("duration") * p.Float("video_rate")
	}
	return p.Float("duration") * p.Float("hop_rate") * float64(p.Int("hops"))
}

func multicastVideoSchema() *vocab.Schema {
	return &vocab.Schema{
		Name:    "multicast-video",
		Version: 17, // 17: the RTT is sampled as Linux's tcp_ack_update_rtt does: an ACK that covers a segment ever retransmitted gives no sample from sequence numbers (Karn; FLAG_RETRANS_DATA_ACKED), otherwise the oldest segment it newly acknowledges and had not SACKed is timed, where the newest was, so the ACK that ended a repair timed the receiver's wait since it SACKed the segment (seconds after a timeout); without a sequence sample the oldest segment an ACK newly SACKs is timed (RACK-TLP senders), and without that an ACK of new data by its timestamp echo; the minimum RTT and the controller's RTT (HyStart, Vegas, BBR) follow the newest segment timed (ca_rtt_us); every sample ends the timer's back-off; 16: with quick_ack (Linux's quick-ACK mode) the receiver also acknowledges every skb at once while its receive window grows from the first 65535 bytes towards the buffer's, each skb raising it by max(2 advmss, 2 x its length) (tcp_grow_window's icsk_ack.quick |= 1), as a real Linux 6.1 receiver does on document 002's testbed for the first 25-35 s of a flow of a few Mbit/s into a 16 MiB window (validation/linuxpeer's captures); past the first quick ACKs it delayed them; 15: with byte counting as Linux's (abc_limit 0) Reno's slow start stops at ssthresh and hands the segments a stretch ACK carries past it to congestion avoidance, as tcp_slow_start and tcp_reno_cong_avoid do (it overshot ssthresh by them); 14: byte counting as Linux's tcp_slow_start runs it: in slow start one ACK adds every segment it covers (was at most 2, RFC 3465's L), so a stretch ACK (GRO, an ACK lost or delayed) grows cwnd by all it acknowledges; the host parameter abc_limit sets an L (2 is RFC 3465's); 13: the host parameter edt_credit: a paced sender (BBR, BBRv2) paces from its 10th segment on, and an skb sent after its departure time had passed (an ACK let it go) shortens the gap after it by that delay, up to half its length, as Linux's tcp_update_skb_after_send does (on by default, as in Linux since 4.20; was every skb followed by its whole length from the first); and with TSO an aggregate that cwnd cut short is followed by its own length at the pacing rate (tcp_wstamp_ns moves per skb), where its pacing was carried into the next aggregate's gap; 12: BBRv2 judges its departure-time in-flight tests (PROBE_UP, DOWN, DRAIN) under the gain the previous ACK left, bbr->pacing_gain as bbr_update_gains sets it after the model update, where it used the new phase's gain on an ACK or after a loss mark that changed the phase; BBR v1's TSO burst goal is capped at 127 segments (tcp_bbr.c's bbr_tso_segs_goal), which binds only for segments under 514 bytes; 11: BBR and BBRv2 judge their gain cycle's and DRAIN's in-flight targets by what will be in the network at the next departure, as bbr_packets_in_net_at_edt does (prior_in_flight less what the bandwidth delivers until the pacing lets the next skb go, plus that skb while probing), where they judged prior_in_flight itself; 10: BIC grows by the segments each ACK covers and carries what slow start leaves past ssthresh into congestion avoidance, as tcp_bic.c does since Linux 5.7 ("tcp: fix stretch ACK bugs in BIC": tcp_cong_avoid_ai(tp, ca->cnt, acked), was one credit per ACK whatever it covered, the excess dropped); 9: BBR v1 models a token-bucket policer as tcp_bbr.c does (bbr_lt_bw_sampling: after two lossy intervals of 4-16 round trips, each with at least 50/256 of its delivery lost, whose rates agree within 1/8 or 4 kbit/s, it paces at and sizes cwnd from their mean with a gain of 1 for 48 round trips), where it was left out, and sets its gains on every ACK (bbr_update_gains); 8: BBR and BBRv2 pace from the handshake's RTT (bbr_init_pacing_rate_from_rtt: high_gain x IW / SRTT, was over a nominal 1 ms) and restart from high_gain x cwnd / SRTT at the first RTT known whatever the bandwidth sample (bbr_set_pacing_rate; STARTUP kept the nominal 331 Mbit/s); BBRv2 raises inflight_hi in PROBE_UP while the window was cwnd-limited as tcp_cwnd_validate records it (tp->is_cwnd_limited, bbr2_probe_inflight_hi_upward), not while the pipe at the ACK fills cwnd; 7: losses counted when a segment is marked lost (tcp_mark_skb_lost: RACK's marks, every unSACKed segment at a timeout, none of a timeout's marks among an ACK's losses), not when it is resent, which BBR and BBRv2 read; BBRv2 reacts to each segment the moment it is marked lost (bbr2_skb_marked_lost); 6: the rate sample and the cong_control call of every ACK that SACKs new data (tcp_rate_gen, tcp_cong_control: BBR and BBRv2 follow SACKs through a recovery, STARTUP ends on loss as in Linux); BBR's window grows by the bytes delivered, SACKed included (rs->acked_sacked); the host parameter sack_rate_samples; 5: its TCP cross traffic runs the controllers of Linux 5.13 (the BBRv2 alpha kernel's base): CUBIC in tcp_cubic.c's arithmetic (cubic_variant, rfc9438 kept) with Linux's HyStart (hystart_variant, rfc9406 kept), BIC as tcp_bic.c, BBR v1 with tcp_bbr.c's ACK-aggregation allowance and quantization budget, BBRv2 as the v2alpha tcp_bbr2.c (no recovery cut); 4: the gop parameter (frames predicted from the frame before a lost one are not shown) and vic's frame count (vic_frame_rate: frames whose marker packet arrived); 3: the parameter cross is cross_traffic (cross is an SQL keyword; no rows change); 2: the TCP cross traffic: RACK, SACK state kept over timeouts, BBR as Linux
		Doc: "MBone video (document 001): a constant-rate UDP/RTP video stream over a terrestrial path of congested hops " +
			"(each shared with TCP cross traffic) or one GEO satellite hop; loss, RFC 3550 jitter, received bandwidth and " +
			"frame rate over time and on average.",
		Params: []vocab.Param{
			{Name: "path", Kind: vocab.String, Default: vocab.S("terrestrial"), Choices: []string{"terrestrial", "satellite"},
				Doc: "terrestrial: hops routers each shared with cross traffic; satellite: one GEO hop of its own"},
			{Name: "duration", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(120), Min: 1, Max: 1e5,
				Doc: "how long the video is sent"},
			{Name: "sample_interval", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(1), Min: 0.01, Max: 1e4,
				Doc: "interval of the time series (vic and RTCP report every few seconds)"},
			{Name: "video_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(128e3), Min: 1e3, Max: 1e9,
				Doc: "video bit rate, headers excluded (document 001: 128 kbit/s)"},
			{Name: "fps", Kind: vocab.Float, Default: vocab.F(8), Min: 0.1, Max: 1000,
				Doc: "frames per second (document 001: 8)"},
			{Name: "packet_size", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(1000), Min: 16, Max: 65000,
				Doc: "video bytes per packet at most; each packet adds 40 bytes of IP, UDP and RTP headers"},
			{Name: "gop", Kind: vocab.Int, Default: vocab.I(1), Min: 1, Max: 10000,
				Doc: "group of pictures: every gop-th frame is intra-coded and the others are predicted from the frame before; " +
					"1 codes every frame intra, as vic's intra-H.261 (document 001's video tool)"},
			{Name: "hops", Kind: vocab.Int, Default: vocab.I(10), Min: 1, Max: 100,
				Doc: "terrestrial hops, each a bottleneck shared with cross traffic (document 001: tens of hops)"},
			{Name: "hop_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(1.544e6), Min: 1e3, Max: 1e12,
				Doc: "rate of each terrestrial hop (T1)"},
			{Name: "hop_delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0.005), Min: 0, Max: 1,
				Doc: "one-way propagation delay of each terrestrial hop"},
			{Name: "hop_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(50), Min: 1, Max: 1e6,
				Doc: "DropTail limit of each router's output queue"},
			{Name: "cross_traffic", Kind: vocab.String, Default: vocab.S("bulk"), Choices: []string{"none", "bulk", "onoff"},
				Doc: "TCP cross traffic per hop: none, greedy bulk flows, or on/off flows (Poisson bursts of exponential size)"},
			{Name: "cross_flows", Kind: vocab.Int, Default: vocab.I(4), Min: 0, Max: 1000,
				Doc: "TCP cross-traffic flows on each hop (each enters before the hop and leaves after it)"},
			{Name: "cross_load", Kind: vocab.Float, Default: vocab.F(0.9), Min: 0, Max: 10,
				Doc: "on/off cross traffic: offered load of each hop's flows together, as a fraction of hop_rate"},
			{Name: "cross_burst", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(50000), Min: 1, Max: 1 << 40,
				Doc: "on/off cross traffic: mean burst (transfer) size"},
			{Name: "cross_window", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(65535), Min: 1000, Max: 1 << 30,
				Doc: "receive window of the cross-traffic TCPs"},
			{Name: "cross_cca", Kind: vocab.String, Default: vocab.S("newreno"), Choices: cc.Names(),
				Doc: "congestion control of the cross traffic"},
			{Name: "sat_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(2e6), Min: 1e3, Max: 1e12,
				Doc: "capacity of the satellite hop"},
			{Name: "sat_delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0.25), Min: 0, Max: 10,
				Doc: "one-way delay of the satellite hop (GEO: at least 250 ms, document 001)"},
			{Name: "sat_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(50), Min: 1, Max: 1e6,
				Doc: "DropTail limit of the satellite uplink queue"},
		},
		Metrics: []vocab.Metric{
			{Name: "loss", Kind: vocab.Float, Doc: "fraction of the video packets sent that never arrived; 0 if none was sent"},
			{Name: "jitter_mean", Kind: vocab.Float, Unit: vocab.Second, Doc: "mean of the interval samples of RFC 3550 jitter"},
			{Name: "jitter_max", Kind: vocab.Float, Unit: vocab.Second, Doc: "largest RFC 3550 jitter estimate"},
			{Name: "bandwidth_mean", Kind: vocab.Float, Unit: vocab.BitPerSecond, Doc: "video bits received per second of duration, the arrivals in the drain time after duration included (which no timeseries interval holds, so the intervals' mean is lower by them)"},
			{Name: "frame_rate_mean", Kind: vocab.Float, Unit: vocab.PerSecond,
				Doc: "frames shown per second of duration: every packet arrived, and the reference frame was shown for a predicted one; frames completed in the drain time after duration included"},
			{Name: "delay_mean", Kind: vocab.Float, Unit: vocab.Second, Doc: "mean one-way delay of the packets received; 0 if none arrived, which means no delay to measure"},
			{Name: "delay_max", Kind: vocab.Float, Unit: vocab.Second, Doc: "largest one-way delay of the packets received; 0 if none arrived"},
			{Name: "packets_sent", Kind: vocab.Int, Unit: vocab.Packet, Doc: "video packets the sender sent over the duration"},
			{Name: "packets_received", Kind: vocab.Int, Unit: vocab.Packet,
				Doc: "distinct video packets that reached the receiver, those arriving in the drain time after duration included"},
			{Name: "cross_goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond,
				Doc: "cross-traffic bytes delivered per second per hop, mean over hops; 0 with cross_traffic none or cross_flows 0, where there is no cross traffic to measure"},
			{Name: "hop_drops", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets dropped by the forward queues, all traffic"},
			{Name: "vic_frame_rate_mean", Kind: vocab.Float, Unit: vocab.PerSecond,
				Doc: "frames whose last (RTP marker) packet arrived per second of duration: the frame rate vic counts; arrivals in the drain time after duration included"},
		},
		Tables: []vocab.Table{
			{Name: "timeseries", Doc: "video quality every sample_interval (interval start time)", Columns: []vocab.Metric{
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second,
					Doc: "start of the interval: 0, sample_interval, 2 sample_interval, ... before duration"},
				{Name: "loss_rate", Kind: vocab.Float, Doc: "lost / sent of the packets captured in the interval; 0 in an interval in which none was sent, which means no packet to lose"},
				{Name: "jitter", Kind: vocab.Float, Unit: vocab.Second, Doc: "RFC 3550 jitter estimate after the last arrival before the interval's end; 0 before the second packet arrives (the estimator's start)"},
				{Name: "bandwidth", Kind: vocab.Float, Unit: vocab.BitPerSecond, Doc: "video bits received per second in the interval (arrivals after duration fall in none)"},
				{Name: "frame_rate", Kind: vocab.Float, Unit: vocab.PerSecond,
					Doc: "frames shown per second: every packet arrived, and the reference frame was shown for a predicted one"},
				{Name: "vic_frame_rate", Kind: vocab.Float, Unit: vocab.PerSecond,
					Doc: "frames whose last (RTP marker) packet arrived per second: vic's count"},
				{Name: "packets_sent", Kind: vocab.Int, Unit: vocab.Packet, Doc: "video packets sent during the interval"},
				{Name: "packets_lost", Kind: vocab.Int, Unit: vocab.Packet,
					Doc: "of packets_sent, those that never reached the receiver (counted in the interval they were sent in, not when they were missed)"},
			}},
		},
	}
}

// videoConfig is multicast-video's parameters, decoded.
type videoConfig struct {
	format      workload.VideoFormat
	duration    des.Time
	interval    des.Duration
	satellite   bool // path satellite
	satRate     unit.BitRate
	satDelay    des.Duration
	satQueue    int // packets
	hops        int
	hopRate     unit.BitRate
	hopDelay    des.Duration
	hopQueue    int // packets
	cross       string
	crossFlows  int
	crossLoad   float64 // fraction of hop_rate
	crossBurst  unit.Bytes
	crossWindow unit.Bytes
	crossCCA    string
}

// decodeVideo reads multicast-video's parameters.
func decodeVideo(p vocab.Params) videoConfig {
	return videoConfig{
		format:      workload.VideoFormat{Rate: p.Float("video_rate"), FPS: p.Float("fps"), Payload: int(p.Int("packet_size")), GOP: int(p.Int("gop"))},
		duration:    des.Time(des.FromSeconds(p.Float("duration"))),
		interval:    des.FromSeconds(p.Float("sample_interval")),
		satellite:   p.Str("path") == "satellite",
		satRate:     unit.BitRate(p.Float("sat_rate")),
		satDelay:    des.FromSeconds(p.Float("sat_delay")),
		satQueue:    int(p.Int("sat_queue")),
		hops:        int(p.Int("hops")),
		hopRate:     unit.BitRate(p.Float("hop_rate")),
		hopDelay:    des.FromSeconds(p.Float("hop_delay")),
		hopQueue:    int(p.Int("hop_queue")),
		cross:       p.Str("cross_traffic"),
		crossFlows:  int(p.Int("cross_flows")),
		crossLoad:   p.Float("cross_load"),
		crossBurst:  unit.Bytes(p.Int("cross_burst")),
		crossWindow: unit.Bytes(p.Int("cross_window")),
		crossCCA:    p.Str("cross_cca"),
	}
}

// crossHost is the host of the cross traffic, the TCP of document 001's
// 1997 paths: MSS 1460 (a 1500-byte MTU, no options), RFC 6298's 1 s
// minimum RTO, NewReno without SACK, RFC 3042 limited transmit, an ACK
// for every segment, window scaling only for a window past 65535 bytes.
// It is not a parameter set of its own: the model's columns stay those
// of the video.
func (c videoConfig) crossHost() tcpHost {
	return tcpHost{mss: 1460, minRTO: des.Second, limitedTransmit: true, windowScaling: c.crossWindow > 65535}
}
