package models

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// The host: one set of TCP host parameters that tcp-bulk, tcp-transfer,
// tcp-compete, sat-island and leo-path take with the same name, unit,
// range and doc, decoded into one tcpHost whose config method builds every
// endpoint's tcp.Config. The defaults are Linux's (a 6.x kernel with its
// sysctl defaults in a 1500-byte MTU), each with the place in Linux's
// source or documentation that sets it; a spec whose document ran another
// host sets that host's values itself, and leo-path keeps its former
// host's as its defaults (leoHostParams). hostTable is the one statement
// of them.

// hostSetting is one row of hostTable: a parameter with Linux's value as
// its default, and where Linux sets that value.
type hostSetting struct {
	param vocab.Param
	linux string
}

// hostTable returns the host parameters with Linux's defaults, in the
// order the models list them.
func hostTable() []hostSetting {
	return []hostSetting{
		{vocab.Param{Name: "mss", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(1448), Min: 88, Max: 65495,
			Doc: "maximum segment size: payload bytes per segment, TCP options not included (Linux in a 1500-byte MTU: 1460, less 12 with timestamps: 1448)"},
			"tcp_mtu_to_mss() in net/ipv4/tcp_output.c: MTU - 20 IPv4 - 20 TCP = 1460 advertised; tcp_current_mss() subtracts the 12 aligned timestamp option bytes (TCPOLEN_TSTAMP_ALIGNED) from every segment: 1448"},
		{vocab.Param{Name: "iw", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(10), Min: 0, Max: 1000,
			Doc: "initial window in segments; 0 is RFC 3390's min(4*MSS, max(2*MSS, 4380 B)) (Linux: 10, RFC 6928)"},
			"TCP_INIT_CWND 10 in include/net/tcp.h (since 2.6.39, RFC 6928)"},
		{vocab.Param{Name: "delayed_ack", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "delayed ACKs (RFC 1122 4.2.3.2): an ACK for every second full segment or after 200 ms (Linux: on, its timer 40-200 ms)"},
			"__tcp_ack_snd_check() in net/ipv4/tcp_input.c ACKs at once only past one full segment received (or in quick-ACK mode); tcp_send_delayed_ack() arms the timer, TCP_DELACK_MAX 200 ms in include/net/tcp.h"},
		{vocab.Param{Name: "min_rto", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0.2), Min: 0.001, Max: 60,
			Doc: "minimum RTO (RFC 6298 2.4: 1 s; Linux: 200 ms)"},
			"TCP_RTO_MIN (HZ/5) in include/net/tcp.h"},
		{vocab.Param{Name: "sack", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "SACK (RFC 2018) with RFC 6675 loss recovery (Linux: on)"},
			"net.ipv4.tcp_sack = 1 (Documentation/networking/ip-sysctl.rst)"},
		{vocab.Param{Name: "loss_detection", Kind: vocab.String, Default: vocab.S("rack-tlp"), Choices: lossDetectionChoices,
			Doc: lossDetectionDoc + " (Linux: rack-tlp)"},
			"net.ipv4.tcp_recovery = 0x1 (RACK) and net.ipv4.tcp_early_retrans = 3 (TLP) (Documentation/networking/ip-sysctl.rst)"},
		{vocab.Param{Name: "limited_transmit", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "RFC 3042 limited transmit: a new segment on each of the first two duplicate ACKs (off: the 1998 Reno that Padhye et al. model; Linux: on)"},
			"tcp_add_reno_sack() in net/ipv4/tcp_input.c counts each duplicate ACK as a segment out of flight, so tcp_packets_in_flight() lets a new segment go, the effect of RFC 3042"},
		{vocab.Param{Name: "prr", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "RFC 6937 Proportional Rate Reduction: during SACK recovery cwnd follows the data delivered instead of dropping to ssthresh at once " +
				"(the default of Linux and ns-3); needs SACK, without which recovery is NewReno"},
			"tcp_cwnd_reduction() in net/ipv4/tcp_input.c, always on since 3.2 (no switch)"},
		{vocab.Param{Name: "timestamps", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "RFC 7323 timestamps, offered by every endpoint: 12 more bytes on every segment (mss stays the payload; Linux, which offers them by default, sends 1448-byte payloads in a 1500-byte MTU)"},
			"net.ipv4.tcp_timestamps = 1 (Documentation/networking/ip-sysctl.rst)"},
		{vocab.Param{Name: "syn_timeout", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(1), Min: 0.001, Max: 600,
			Doc: "retransmission timeout of a SYN before back-off (RFC 6298 2.1 and Linux: 1 s; ns-3's ConnTimeout: 3 s)"},
			"TCP_TIMEOUT_INIT (1*HZ) in include/net/tcp.h (RFC 6298 2.1)"},
		{vocab.Param{Name: "hystart", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "HyStart in CUBIC's slow start, the variant hystart_variant names (Linux: on); other controllers ignore it"},
			"module parameter hystart = 1 in net/ipv4/tcp_cubic.c"},
		{vocab.Param{Name: "hystart_variant", Kind: vocab.String, Default: vocab.S("linux"), Choices: []string{"linux", "rfc9406"},
			Doc: "which HyStart CUBIC runs when hystart is on: linux, tcp_cubic.c's ACK-train and delay detectors (hystart_detect = 3, hystart_low_window 16, hystart_ack_delta_us 2000, delay threshold clamp(delay_min/8, 4 ms, 16 ms) after 8 samples), which set ssthresh = cwnd, again after every timeout; " +
				"rfc9406, HyStart++ with Conservative Slow Start, initial slow start only (Linux: linux)"},
			"bictcp_hystart_reset(), hystart_update(), hystart_ack_delay() and bictcp_acked() in net/ipv4/tcp_cubic.c (Linux 5.13); Linux has no RFC 9406 code"},
		{vocab.Param{Name: "cubic_variant", Kind: vocab.String, Default: vocab.S("linux"), Choices: []string{"linux", "rfc9438"},
			Doc: "CUBIC's congestion avoidance: linux, tcp_cubic.c's integer arithmetic (the curve at t + min RTT reached through cnt ACKs per segment, at least 5 % growth per RTT until the first loss and after every timeout, " +
				"a Reno-friendly window that caps cnt, whole-segment ssthresh 717/1024); rfc9438, RFC 9438 as written (Linux: linux)"},
			"bictcp_update(), bictcp_recalc_ssthresh(), bictcp_state() and bictcp_cwnd_event() in net/ipv4/tcp_cubic.c (Linux 5.13); tcp_cong_avoid_ai() in net/ipv4/tcp_cong.c"},
		{vocab.Param{Name: "byte_counting", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "appropriate byte counting (RFC 3465): cwnd grows by what an ACK acknowledges, not by one segment per ACK, so delayed ACKs do not slow growth; abc_limit caps one ACK's step in slow start (Linux: on, counting acknowledged segments)"},
			"tcp_slow_start() and tcp_cong_avoid_ai() in net/ipv4/tcp_cong.c grow cwnd by the segments an ACK covers (acked), since 3.8 removed the tcp_abc switch"},
		{vocab.Param{Name: "abc_limit", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(0), Min: 0, Max: 1 << 20,
			Doc: "with byte_counting, the most segments one ACK may add to cwnd in slow start, RFC 3465 section 2.2's L (it recommends 2); 0 is no limit: a stretch ACK (GRO, a lost ACK, a delayed ACK) adds every segment it covers, as Linux does"},
			"tcp_slow_start() in net/ipv4/tcp_cong.c (Linux 5.13): cwnd = min(cwnd + acked, ssthresh), acked being every segment the ACK covers, with no limit"},
		{vocab.Param{Name: "window_scaling", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "RFC 7323 window scaling (Linux: on); off caps the advertised window at 65535 bytes"},
			"net.ipv4.tcp_window_scaling = 1 (Documentation/networking/ip-sysctl.rst)"},
		{vocab.Param{Name: "write_size", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(0), Min: 0, Max: 1 << 40,
			Doc: "bytes the application writes at a time once connected (ns-3's BulkSend: 512 B); the writes of one instant leave together in full segments, and with a send_buffer the writer refills it write_size at a time as ACKs free room; " +
				"0 hands the whole transfer over at once"},
			"an application's choice, not the kernel's: 0 stands for one large write (iperf3's 128 KiB writes coalesce into full segments)"},
		{vocab.Param{Name: "send_buffer", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(0), Min: 0, Max: 1 << 40,
			Doc: "send buffer: the most bytes written and not yet acknowledged; a writer blocks until ACKs free room, then writes again (write_size at a time); 0 is unlimited (ns-3's SndBufSize: 131072; Linux autotunes SO_SNDBUF, tcp_wmem up to 4 MiB)"},
			"no fixed size: tcp_sndbuf_expand() in net/ipv4/tcp_input.c grows SO_SNDBUF to about twice the congestion window (net.ipv4.tcp_wmem, up to 4 MiB), so the buffer does not limit a flow; 0 stands for that"},
		{vocab.Param{Name: "ssthresh_basis", Kind: vocab.String, Default: vocab.S("flight_size"), Choices: []string{"flight_size", "pipe"},
			Doc: "what a loss halves into ssthresh (NewReno-like controllers; CUBIC scales cwnd): flight_size, RFC 5681 eq. (4); pipe, RFC 6675's pipe as ns-3 3.37's EnterRecovery passes BytesInFlight() (Linux: half of cwnd, which is the flight size of a flow the window limits)"},
			"tcp_reno_ssthresh() in net/ipv4/tcp_cong.c: max(cwnd / 2, 2); cwnd is the data in flight of a flow that fills its window, RFC 5681's FlightSize"},
		{vocab.Param{Name: "prr_rounding", Kind: vocab.String, Default: vocab.S("segments"), Choices: []string{"segments", "bytes"},
			Doc: "how prr rounds its proportional share CEIL(prr_delivered * ssthresh / RecoverFS) up: segments, as Linux and RFC 6937 section 5's example; bytes, as ns-3 3.37's TcpPrrRecovery, which sends a segment only once a whole one's share has accrued (Linux: segments)"},
			"tcp_cwnd_reduction() in net/ipv4/tcp_input.c counts in packets: sndcnt = div_u64(snd_ssthresh * prr_delivered + prior_cwnd - 1, prior_cwnd) - prr_out"},
		{vocab.Param{Name: "grow_on_recovery_exit", Kind: vocab.Bool, Default: vocab.B(false),
			Doc: "the ACK that ends fast recovery also grows cwnd by one congestion-avoidance step after cwnd = ssthresh, as ns-3 3.37's TcpSocketBase::ProcessAck does; off, RFC 5681 3.2 step 6 and RFC 6937 3.1: cwnd = ssthresh on that ACK, the default (Linux sets cwnd = ssthresh in tcp_end_cwnd_reduction and may grow it on the same ACK in tcp_cong_control once the state is open again; the default follows the RFCs)"},
			"tcp_end_cwnd_reduction() in net/ipv4/tcp_input.c sets cwnd = ssthresh as recovery ends (RFC 6937 3.1); tcp_cong_control() may then count that ACK's segments toward congestion avoidance, a fraction of a segment, which off leaves out"},
		{vocab.Param{Name: "quick_ack", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "quick-ACK mode: with delayed_ack the receiver still ACKs each of the first min(rcv_wnd / (2 MSS), 16) segments at once, again after more than an RTO without data or after a duplicate segment, and every skb at once while its receive window grows from the first 64 KB to the buffer's, by max(2 advmss, 2 x the skb's length) per skb (Linux: always)"},
			"tcp_incr_quickack() and tcp_enter_quickack_mode() in net/ipv4/tcp_input.c (TCP_MAX_QUICKACKS 16); tcp_event_data_recv() re-enters it after an idle RTO; tcp_grow_window() sets icsk_ack.quick |= 1 for each skb that raises rcv_ssthresh"},
		{vocab.Param{Name: "ack_first_segment", Kind: vocab.Bool, Default: vocab.B(false),
			Doc: "with delayed_ack, the receiver ACKs the first data segment after the handshake at once, then every second one, as ns-3 3.37 does (TcpSocketBase::ProcessSynRcvd and ProcessSynSent set m_delAckCount = m_delAckMaxCount); quick_ack does this and more (Linux: off, its quick_ack covers it)"},
			"no switch in Linux: quick-ACK mode (tcp_incr_quickack() in net/ipv4/tcp_input.c) ACKs the first segment at once among up to 16; this row is ns-3's narrower rule, for matching it"},
		{vocab.Param{Name: "dsack", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "RFC 2883 DSACK: the receiver reports a duplicate segment in the first SACK block of its next ACK; needs sack (Linux: on)"},
			"net.ipv4.tcp_dsack = 1 (Documentation/networking/ip-sysctl.rst); tcp_dsack_set() in net/ipv4/tcp_input.c"},
		{vocab.Param{Name: "undo", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "undo of spurious congestion responses: when every retransmission of an episode is DSACKed (RFC 3708) or, with timestamps, an ACK echoes a timestamp older than the first retransmission (Eifel, RFC 3522), cwnd and ssthresh return to their values before it (Linux: always)"},
			"tcp_try_undo_recovery(), tcp_try_undo_loss(), tcp_try_undo_dsack(), tcp_try_undo_partial() and tcp_undo_cwnd_reduction() in net/ipv4/tcp_input.c; tcp_packet_delayed() for the timestamp test"},
		{vocab.Param{Name: "frto", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "RFC 5682 section 3 SACK-enhanced F-RTO: after a timeout the first ACKs release new data, and an ACK of a segment never retransmitted shows the timeout spurious and undoes it; needs sack (Linux: tcp_frto = 2)"},
			"net.ipv4.tcp_frto = 2 (Documentation/networking/ip-sysctl.rst); tcp_process_loss() in net/ipv4/tcp_input.c"},
		{vocab.Param{Name: "adaptive_reordering", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "observed reordering raises the duplicate-ACK threshold (from 3 up to 300) and DSACKs widen RACK's reordering window (RFC 8985 section 6.2) (Linux: always)"},
			"tcp_check_sack_reordering() in net/ipv4/tcp_input.c (net.ipv4.tcp_reordering = 3, net.ipv4.tcp_max_reordering = 300); tcp_rack_update_reo_wnd() in net/ipv4/tcp_recovery.c"},
		{vocab.Param{Name: "rto_min_on", Kind: vocab.String, Default: vocab.S("rttvar"), Choices: []string{"rttvar", "rto"},
			Doc: "what min_rto bounds: rttvar, the variance term, RTO = SRTT + max(4 RTTVAR, min_rto), as Linux; rto, the whole timer, RTO = max(SRTT + 4 RTTVAR, min_rto), RFC 6298 section 2.4 and ns-3 (Linux: rttvar)"},
			"tcp_rtt_estimator() in net/ipv4/tcp_input.c keeps mdev_max_us and rttvar_us at least tcp_rto_min_us(); __tcp_set_rto() in include/net/tcp.h: srtt/8 + rttvar"},
		{vocab.Param{Name: "skb_marked_lost", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "the sender tells BBRv2 of each segment the moment it marks it lost (by RACK, a timeout or the duplicate-ACK rules): while probing for bandwidth, a segment whose own loss rate since it was sent exceeds 2 % ends the probe at once and sets inflight_hi to the inflight where the rate crossed 2 %; " +
				"off, BBRv2 judges losses only on the ACKs' rate samples (Linux's BBRv2 alpha: on); other controllers ignore it"},
			"tcp_notify_skb_loss_event() in net/ipv4/tcp_input.c calls icsk_ca_ops->skb_marked_lost after counting the skb in tp->lost; bbr2_skb_marked_lost() and bbr2_inflight_hi_from_lost_skb() in net/ipv4/tcp_bbr2.c (v2alpha branch of github.com/google/bbr, Linux 5.13 base)"},
		{vocab.Param{Name: "sack_rate_samples", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "every ACK that newly SACKs data counts it delivered and gives a delivery-rate sample, from the most recently sent segment the ACK newly SACKs or acknowledges, and every ACK reaches BBR and BBRv2 (which set cwnd and pacing themselves); " +
				"off, only ACKs that advance the cumulative ACK do, so BBR and BBRv2 see no bandwidth, rounds or loss rate while holes hold it back (Linux: always); window-based controllers grow on cumulative ACKs either way"},
			"no switch in Linux: tcp_sacktag_one() calls tcp_rate_skb_delivered() for each newly SACKed skb, and tcp_ack() calls tcp_rate_gen() and tcp_cong_control() on every ACK (net/ipv4/tcp_input.c, net/ipv4/tcp_rate.c)"},
		{vocab.Param{Name: "sack_compression", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "SACK compression: a receiver holding out-of-order data acknowledges the first 3 segments at one cumulative ACK point at once, then one ACK per 44 segments, per min(1 ms, SRTT/20), or when a SACK block would fall behind the first two reported, whichever comes first; needs sack; " +
				"off, every out-of-order segment is acknowledged at once, RFC 5681 4.2 (Linux: always, since 4.18)"},
			"__tcp_ack_snd_check(), tcp_sack_new_ofo_skb() and tcp_sack_compress_send_ack() in net/ipv4/tcp_input.c (TCP_FASTRETRANS_THRESH 3, TCP_SACK_BLOCKS_EXPECTED 2), tcp_compressed_ack_kick() in net/ipv4/tcp_timer.c; net.ipv4.tcp_comp_sack_nr = 44, tcp_comp_sack_delay_ns = 1 ms (Documentation/networking/ip-sysctl.rst)"},
		{vocab.Param{Name: "edt_credit", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "a paced sender (BBR, BBRv2) paces from its 10th segment on, and an skb sent after its departure time had passed (an ACK, not the pacing timer, let it go) shortens the gap after it by that delay, up to half its length at the pacing rate; " +
				"off, every skb is followed by its whole length at the pacing rate from the first (Linux: always, since 4.20); controllers that do not pace ignore it"},
			"tcp_update_skb_after_send() in net/ipv4/tcp_output.c: no pacing while tp->data_segs_out < 10 (\"Original sch_fq does not pace first 10 MSS\"), and len_ns -= min(len_ns / 2, tcp_wstamp_ns - prior_wstamp) (\"take into account OS jitter\", commit a7a2563064e9)"},
	}
}

// hostParam returns the host parameter called name, with Linux's default.
func hostParam(name string) vocab.Param {
	for _, h := range hostTable() {
		if h.param.Name == name {
			return h.param
		}
	}
	panic("models: bug: no host parameter " + name)
}

// recoveryHostParams names the Linux loss-recovery mechanisms of the host
// (quick ACKs, DSACK, undo, F-RTO, adaptive reordering, Linux's RTO
// floor, the per-segment loss report to BBRv2, the rate samples of
// SACK-only ACKs, SACK compression) and the pacing rules of its
// earliest-departure-time model (edt_credit), which every TCP model takes after
// its other host parameters.
var recoveryHostParams = []string{"quick_ack", "dsack", "undo", "frto", "adaptive_reordering", "rto_min_on", "skb_marked_lost", "sack_rate_samples", "sack_compression", "edt_credit"}

// withRecovery returns the named host parameters followed by the
// recovery mechanisms of recoveryHostParams.
func withRecovery(names ...string) []vocab.Param {
	return hostParams(append(names[:len(names):len(names)], recoveryHostParams...)...)
}

// hostParams returns the named host parameters in the given order.
func hostParams(names ...string) []vocab.Param {
	out := make([]vocab.Param, len(names))
	for i, n := range names {
		out[i] = hostParam(n)
	}
	return out
}

// tcpHost is the host parameters of one scenario, decoded once by
// decodeHost. Every TCP model builds its endpoints' tcp.Config from one
// through config, so that a host option means the same in every model.
type tcpHost struct {
	mss             unit.Bytes
	iw              int // segments; 0 is RFC 3390's
	delayedACK      bool
	minRTO          des.Duration
	sack            bool
	lossDetection   tcp.LossDetection
	limitedTransmit bool
	prr             bool
	timestamps      bool
	synTimeout      des.Duration
	hystart         bool
	hystartVariant  cc.HyStartVariant
	cubicVariant    cc.CubicVariant
	abc             cc.ABC
	windowScaling   bool
	writeSize       unit.Bytes // 0: the whole transfer at once
	sendBuffer      unit.Bytes // 0: unlimited
	ssthreshBasis   tcp.SsthreshBasis
	prrByteCeil     bool
	growOnExit      bool
	ackFirst        bool // ns-3's first ACK at once
	// The Linux recovery mechanisms of engine/tcp, each its Config switch.
	quickAck           bool
	dsack              bool
	undo               bool
	frto               bool
	adaptiveReordering bool
	rtoVarFloor        bool
	skbMarkedLost      bool
	sackRateSamples    bool
	sackCompression    bool
	edtCredit          bool
	// renoRecovery chooses RFC 5681's Reno recovery over RFC 6582's
	// NewReno for a connection without SACK (tcp-bulk's cca reno).
	renoRecovery bool
}

// decodeHost reads the host parameters of hostTable from p. A model that
// does not take one of them (sat-island has no write_size) gets Linux's
// value from the table.
func decodeHost(p vocab.Params) tcpHost {
	s := p.Schema()
	v := func(name string) vocab.Value {
		if s.ParamIndex(name) < 0 {
			return hostParam(name).Default
		}
		return p.Get(name)
	}
	h := tcpHost{
		mss:             unit.Bytes(v("mss").Int()),
		iw:              int(v("iw").Int()),
		delayedACK:      v("delayed_ack").Bool(),
		minRTO:          des.FromSeconds(v("min_rto").Float()),
		sack:            v("sack").Bool(),
		lossDetection:   lossDetection(v("loss_detection").Str()),
		limitedTransmit: v("limited_transmit").Bool(),
		prr:             v("prr").Bool(),
		timestamps:      v("timestamps").Bool(),
		synTimeout:      des.FromSeconds(v("syn_timeout").Float()),
		hystart:         v("hystart").Bool(),
		hystartVariant:  cc.HyStartVariant(v("hystart_variant").Str()),
		cubicVariant:    cc.CubicVariant(v("cubic_variant").Str()),
		abc:             byteCounting(v("byte_counting").Bool(), v("abc_limit").Int()),
		windowScaling:   v("window_scaling").Bool(),
		writeSize:       unit.Bytes(v("write_size").Int()),
		sendBuffer:      unit.Bytes(v("send_buffer").Int()),
		prrByteCeil:     v("prr_rounding").Str() == "bytes",
		growOnExit:      v("grow_on_recovery_exit").Bool(),
		ackFirst:        v("ack_first_segment").Bool(),

		quickAck:           v("quick_ack").Bool(),
		dsack:              v("dsack").Bool(),
		undo:               v("undo").Bool(),
		frto:               v("frto").Bool(),
		adaptiveReordering: v("adaptive_reordering").Bool(),
		rtoVarFloor:        v("rto_min_on").Str() == "rttvar",
		skbMarkedLost:      v("skb_marked_lost").Bool(),
		sackRateSamples:    v("sack_rate_samples").Bool(),
		sackCompression:    v("sack_compression").Bool(),
		edtCredit:          v("edt_credit").Bool(),
	}
	if v("ssthresh_basis").Str() == "pipe" {
		h.ssthreshBasis = tcp.SsthreshPipe
	}
	return h
}

// config is the one tcp.Config of a host: rcvBuf is the largest window it
// advertises, sndBuf the most unacknowledged data it holds.
func (h tcpHost) config(rcvBuf, sndBuf unit.Bytes) tcp.Config {
	return tcp.Config{
		MSS:                h.mss,
		InitialWindow:      h.iw,
		RcvBuf:             rcvBuf,
		SndBuf:             sndBuf,
		WindowScaling:      h.windowScaling,
		SACK:               h.sack,
		DelayedACK:         h.delayedACK,
		MinRTO:             h.minRTO,
		LimitedTransmit:    h.limitedTransmit,
		Recovery:           h.recovery(),
		LossDetection:      h.lossDetection,
		Timestamps:         h.timestamps,
		SYNTimeout:         h.synTimeout,
		SendBuffer:         h.sendBuffer,
		SsthreshBasis:      h.ssthreshBasis,
		GrowOnRecoveryExit: h.growOnExit,
		PRRByteCeil:        h.prrByteCeil,
		QuickAck:           h.quickAck,
		AckFirstSegment:    h.ackFirst,
		DSACK:              h.dsack,
		Undo:               h.undo,
		FRTO:               h.frto,
		AdaptiveReordering: h.adaptiveReordering,
		RTOVarFloor:        h.rtoVarFloor,
		SkbMarkedLost:      h.skbMarkedLost,
		SACKRateSamples:    h.sackRateSamples,
		SACKCompression:    h.sackCompression,
		EDTCredit:          h.edtCredit,
	}
}

// recovery is the loss recovery of a connection that offers SACK (RFC
// 6675, or RFC 6937 PRR over it when prr is set; a peer that does not
// permit SACK makes the sender fall back to NewReno), else RFC 6582
// NewReno, or RFC 5681 Reno where asked.
func (h tcpHost) recovery() tcp.Recovery {
	switch {
	case h.sack && h.prr:
		return tcp.RecoveryPRR
	case h.sack:
		return tcp.RecoverySACK
	case h.renoRecovery:
		return tcp.RecoveryReno
	}
	return tcp.RecoveryNewReno
}

// byteCounting is the controllers' cc.ABC for the host parameters
// byte_counting and abc_limit (0: no limit, as Linux).
func byteCounting(on bool, limit int64) cc.ABC {
	switch {
	case !on:
		return cc.ABCOff
	case limit == 0:
		return cc.ABCUnlimited
	}
	return cc.ABC(limit)
}

// ccOptions are the controller options of the host; seed is the
// controller's own random stream.
func (h tcpHost) ccOptions(seed uint64) cc.Options {
	return cc.Options{HyStart: h.hystart, HyStartVariant: h.hystartVariant, CubicVariant: h.cubicVariant, ABC: h.abc, Seed: seed}
}

// fullPacket is the wire size of a full data segment: mss, 40 header
// bytes and 12 of timestamps when they are on.
func (h tcpHost) fullPacket() unit.Bytes {
	n := h.mss + tcp.HeaderBytes
	if h.timestamps {
		n += 12
	}
	return n
}
