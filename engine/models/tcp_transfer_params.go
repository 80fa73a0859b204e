package models

import (
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Cost is the transfer size.
func (m *TCPTransfer) Cost(p vocab.Params) float64 { return float64(p.Int("size")) }

// The metrics tcp-transfer adds after the shared TCP metrics.
const (
	tmBoundGoodput = tmCount + iota
	tmBoundResponse
	tmTransferCount
)

func tcpTransferSchema() *vocab.Schema {
	params := append(tcpLinkParams(),
		vocab.Param{Name: "size", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(10240), Min: 1, Max: 1 << 40,
			Doc: "bytes transferred"},
		vocab.Param{Name: "handshake", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "open with the three-way handshake; false is T/TCP's accelerated open (RFC 1644, a TAO cache hit: data from the first segment, the CC option in every segment, slow start unchanged)"},
		vocab.Param{Name: "gateway", Kind: vocab.String, Default: vocab.S("droptail"), Choices: []string{"droptail", "red"},
			Doc: "queue in front of the data-direction link: droptail (limit: queue) or red (hard limit: queue, 0 unlimited)"},
		vocab.Param{Name: "red_min_th", Kind: vocab.Float, Unit: vocab.Packet, Default: vocab.F(5), Min: 0, Max: 1e6,
			Doc: "RED minimum threshold on the average queue (ns-2's default thresh_ 5)"},
		vocab.Param{Name: "red_max_th", Kind: vocab.Float, Unit: vocab.Packet, Default: vocab.F(15), Min: 0.001, Max: 1e6,
			Doc: "RED maximum threshold on the average queue (ns-2's default maxthresh_ 15)"},
		vocab.Param{Name: "red_max_p", Kind: vocab.Float, Default: vocab.F(0.1), Min: 0.0001, Max: 1,
			Doc: "RED drop probability at the maximum threshold (ns-2's 1/linterm_ = 0.1)"},
	)
	metrics := tcpMetrics()
	// One transfer has no warm-up: Run sets goodput to size over the
	// response time, which the shared doc does not say.
	metrics[tmGoodput].Doc = "application goodput: bytes transferred x 8 over response_time, the throughput document 001 tabulates"
	metrics = append(metrics,
		vocab.Metric{Name: "bound_goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond,
			Doc: "window-limited bound on goodput: min(rate x MSS/(MSS+H), W/RTT0), W the usable window, " +
				"RTT0 = 2 delay + tx(MSS+H) + tx(H), H the 40 header bytes (52 with timestamps)"},
		vocab.Metric{Name: "bound_response_time", Kind: vocab.Float, Unit: vocab.Second,
			Doc: "lossless response time by hand: handshake + slow-start rounds of RTT0 (window doubling from iw, capped at W) " +
				"+ serialisation of the last round (or of the rest once the pipe is full) + delay"},
	)
	return &vocab.Schema{
		Exclusive: queueForms(),
		Name:      "tcp-transfer",
		Version:   26, // 26: the RTT is sampled as Linux's tcp_ack_update_rtt does: an ACK that covers a segment ever retransmitted gives no sample from sequence numbers (Karn; FLAG_RETRANS_DATA_ACKED), otherwise the oldest segment it newly acknowledges and had not SACKed is timed, where the newest was, so the ACK that ended a repair timed the receiver's wait since it SACKed the segment (seconds after a timeout); without a sequence sample the oldest segment an ACK newly SACKs is timed (RACK-TLP senders), and without that an ACK of new data by its timestamp echo; the minimum RTT and the controller's RTT (HyStart, Vegas, BBR) follow the newest segment timed (ca_rtt_us); every sample ends the timer's back-off; 25: with quick_ack (Linux's quick-ACK mode) the receiver also acknowledges every skb at once while its receive window grows from the first 65535 bytes towards the buffer's, each skb raising it by max(2 advmss, 2 x its length) (tcp_grow_window's icsk_ack.quick |= 1), as a real Linux 6.1 receiver does on document 002's testbed for the first 25-35 s of a flow of a few Mbit/s into a 16 MiB window (validation/linuxpeer's captures); past the first quick ACKs it delayed them; 24: with byte counting as Linux's (abc_limit 0) Reno's slow start stops at ssthresh and hands the segments a stretch ACK carries past it to congestion avoidance, as tcp_slow_start and tcp_reno_cong_avoid do (it overshot ssthresh by them); 23: byte counting as Linux's tcp_slow_start runs it: in slow start one ACK adds every segment it covers (was at most 2, RFC 3465's L), so a stretch ACK (GRO, an ACK lost or delayed) grows cwnd by all it acknowledges; the host parameter abc_limit sets an L (2 is RFC 3465's); 22: the host parameter edt_credit: a paced sender (BBR, BBRv2) paces from its 10th segment on, and an skb sent after its departure time had passed (an ACK let it go) shortens the gap after it by that delay, up to half its length, as Linux's tcp_update_skb_after_send does (on by default, as in Linux since 4.20; was every skb followed by its whole length from the first); and with TSO an aggregate that cwnd cut short is followed by its own length at the pacing rate (tcp_wstamp_ns moves per skb), where its pacing was carried into the next aggregate's gap; 21: BBRv2 judges its departure-time in-flight tests (PROBE_UP, DOWN, DRAIN) under the gain the previous ACK left, bbr->pacing_gain as bbr_update_gains sets it after the model update, where it used the new phase's gain on an ACK or after a loss mark that changed the phase; BBR v1's TSO burst goal is capped at 127 segments (tcp_bbr.c's bbr_tso_segs_goal), which binds only for segments under 514 bytes; 20: BBR and BBRv2 judge their gain cycle's and DRAIN's in-flight targets by what will be in the network at the next departure, as bbr_packets_in_net_at_edt does (prior_in_flight less what the bandwidth delivers until the pacing lets the next skb go, plus that skb while probing), where they judged prior_in_flight itself; 19: BIC grows by the segments each ACK covers and carries what slow start leaves past ssthresh into congestion avoidance, as tcp_bic.c does since Linux 5.7 ("tcp: fix stretch ACK bugs in BIC": tcp_cong_avoid_ai(tp, ca->cnt, acked), was one credit per ACK whatever it covered, the excess dropped); 18: BBR v1 models a token-bucket policer as tcp_bbr.c does (bbr_lt_bw_sampling: after two lossy intervals of 4-16 round trips, each with at least 50/256 of its delivery lost, whose rates agree within 1/8 or 4 kbit/s, it paces at and sizes cwnd from their mean with a gain of 1 for 48 round trips), where it was left out, and sets its gains on every ACK (bbr_update_gains); 17: the host parameter sack_compression: Linux's SACK compression (__tcp_ack_snd_check, tcp_sack_new_ofo_skb: a receiver holding out-of-order data sends the first three ACKs at one RCV.NXT at once, then one per 44 segments, per min(1 ms, SRTT/20) or when a SACK block would fall behind the first two), on by default as in Linux since 4.18; 16: BBR and BBRv2 pace from the handshake's RTT (bbr_init_pacing_rate_from_rtt: high_gain x IW / SRTT, was over a nominal 1 ms) and restart from high_gain x cwnd / SRTT at the first RTT known whatever the bandwidth sample (bbr_set_pacing_rate; STARTUP kept the nominal 331 Mbit/s); BBRv2 raises inflight_hi in PROBE_UP while the window was cwnd-limited as tcp_cwnd_validate records it (tp->is_cwnd_limited, bbr2_probe_inflight_hi_upward), not while the pipe at the ACK fills cwnd; 15: losses counted when a segment is marked lost (tcp_mark_skb_lost: RACK's marks, every unSACKed segment at a timeout, none of a timeout's marks among an ACK's losses), not when it is resent, which BBR and BBRv2 read; the host parameter skb_marked_lost: BBRv2 reacts to each segment the moment it is marked lost (bbr2_skb_marked_lost), on by default as in the BBRv2 alpha; 14: the rate sample and the cong_control call of every ACK that SACKs new data (tcp_rate_gen, tcp_cong_control: BBR and BBRv2 follow SACKs through a recovery, STARTUP ends on loss as in Linux); BBR's window grows by the bytes delivered, SACKed included (rs->acked_sacked); the host parameter sack_rate_samples; 13: the controllers of Linux 5.13 (the BBRv2 alpha kernel's base), with no PRR over BBR and BBRv2 (Linux's cong_control controllers): CUBIC in tcp_cubic.c's arithmetic (cubic_variant, rfc9438 kept) with Linux's HyStart (hystart_variant, rfc9406 kept), BIC as tcp_bic.c, BBR v1 with tcp_bbr.c's ACK-aggregation allowance and quantization budget, BBRv2 as the v2alpha tcp_bbr2.c (no recovery cut); 12: handshake false is RFC 1644's T/TCP, whose segments carry the 8-byte CC option; 11: the Linux recovery mechanisms of the shared host (quick_ack, dsack, undo, frto, adaptive_reordering, rto_min_on), shared with tcp-bulk; 10: the wire rate is wire_rate (was throughput), the window-limited bound bound_goodput (was bound_throughput), both bounds count the timestamp option's 12 bytes; 9: t0, completion and response times null where not applicable, shared with tcp-bulk; 8: the shared host options prr, timestamps, syn_timeout, hystart, byte_counting, write_size, loss_detection dupthresh-only; 7: limited_transmit parameter, shared with tcp-bulk; 6: rto metric, shared with tcp-bulk; 3: BBR controllers seeded per flow (shared with tcp-bulk); 4: RACK, SACK kept over timeouts, BBR as Linux; 5: RACK sees reordering only where the wire reorders
		Doc: "One TCP transfer of a given size: response time (first SYN to last byte delivered), " +
			"goodput (size over response time), completion (FIN acknowledged) and retransmissions, " +
			"with a DropTail or RED gateway, and the closed-form window-limited bounds beside them.",
		Params:  params,
		Metrics: metrics,
	}
}

// transferConfig is tcp-transfer's parameters, decoded.
type transferConfig struct {
	link        tcpLinkConfig
	size        unit.Bytes
	noHandshake bool
	red         *netsim.RED // the RED gateway, or nil for DropTail
}

// decodeTransfer reads tcp-transfer's parameters; the RED thresholds are
// checked once the queue limit is known (transferConfig.gateway).
func decodeTransfer(p vocab.Params) transferConfig {
	c := transferConfig{
		link:        decodeTCPLink(p),
		size:        unit.Bytes(p.Int("size")),
		noHandshake: !p.Bool("handshake"),
	}
	if p.Str("gateway") == "red" {
		c.red = &netsim.RED{MinTh: p.Float("red_min_th"), MaxTh: p.Float("red_max_th"), MaxP: p.Float("red_max_p")}
	}
	return c
}

// gateway is the queue in front of the data direction for a limit of
// limit packets: RED when asked (nil is the DropTail buildTCP makes).
func (c transferConfig) gateway(limit int) (netsim.QueueModel, error) {
	if c.red == nil {
		return nil, nil
	}
	red := *c.red
	red.LimitPackets = limit
	if err := red.Validate(); err != nil {
		return nil, err
	}
	return red, nil
}
