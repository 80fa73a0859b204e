package models

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// prrParam is the parameter that selects RFC 6937's Proportional Rate
// Reduction in every TCP model, with one name, default and doc.
func prrParam() vocab.Param {
	return vocab.Param{Name: "prr", Kind: vocab.Bool, Default: vocab.B(false),
		Doc: "RFC 6937 Proportional Rate Reduction: during SACK recovery cwnd follows the data delivered instead of dropping to ssthresh at once " +
			"(the default of Linux and ns-3); needs SACK, without which recovery is NewReno"}
}

// The host parameters every TCP model has had under its own doc: one
// definition each, the model's default kept (Linux's value in the doc).

func mssParam(def int64) vocab.Param {
	return vocab.Param{Name: "mss", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(def), Min: 88, Max: 65495,
		Doc: "maximum segment size: payload bytes per segment (Linux in a 1500-byte MTU: 1460, or 1448 with timestamps)"}
}

func iwParam(def int64) vocab.Param {
	return vocab.Param{Name: "iw", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(def), Min: 0, Max: 1000,
		Doc: "initial window in segments; 0 is RFC 3390's min(4*MSS, max(2*MSS, 4380 B)) (Linux: 10, RFC 6928)"}
}

func delayedACKParam(def bool) vocab.Param {
	return vocab.Param{Name: "delayed_ack", Kind: vocab.Bool, Default: vocab.B(def),
		Doc: "delayed ACKs (RFC 1122 4.2.3.2): an ACK for every second full segment or after 200 ms (Linux: on)"}
}

func minRTOParam(def float64) vocab.Param {
	return vocab.Param{Name: "min_rto", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(def), Min: 0.001, Max: 60,
		Doc: "minimum RTO (RFC 6298 2.4: 1 s; Linux: 200 ms)"}
}

func sackParam(def bool) vocab.Param {
	return vocab.Param{Name: "sack", Kind: vocab.Bool, Default: vocab.B(def),
		Doc: "SACK (RFC 2018) with RFC 6675 loss recovery (Linux: on)"}
}

func lossDetectionParam(def string) vocab.Param {
	return vocab.Param{Name: "loss_detection", Kind: vocab.String, Default: vocab.S(def), Choices: lossDetectionChoices,
		Doc: lossDetectionDoc + " (Linux: rack-tlp)"}
}

// hostOptionParams are the host options every TCP model takes with one
// name, unit, default and doc: RFC 6937 PRR, RFC 7323 timestamps, the
// SYN timeout, the send buffer and the ssthresh basis. The defaults keep
// each model's earlier results (no PRR, no timestamps, a 1 s SYN timeout,
// no send-buffer limit, RFC 5681's FlightSize); each doc states Linux's
// value.
func hostOptionParams() []vocab.Param {
	return []vocab.Param{
		prrParam(),
		{Name: "timestamps", Kind: vocab.Bool, Default: vocab.B(false),
			Doc: "RFC 7323 timestamps, offered by every endpoint: 12 more bytes on every segment (mss stays the payload; Linux, which offers them by default, sends 1448-byte payloads in a 1500-byte MTU)"},
		{Name: "syn_timeout", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(1), Min: 0.001, Max: 600,
			Doc: "retransmission timeout of a SYN before back-off (RFC 6298 2.1 and Linux: 1 s; ns-3's ConnTimeout: 3 s)"},
		{Name: "send_buffer", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(0), Min: 0, Max: 1 << 40,
			Doc: "send buffer: the most bytes written and not yet acknowledged; a writer blocks until ACKs free room, then writes again (write_size at a time); 0 is unlimited (ns-3's SndBufSize: 131072; Linux autotunes SO_SNDBUF, tcp_wmem up to 4 MiB)"},
		{Name: "ssthresh_basis", Kind: vocab.String, Default: vocab.S("flight_size"), Choices: []string{"flight_size", "pipe"},
			Doc: "what a loss halves into ssthresh (NewReno-like controllers; CUBIC scales cwnd): flight_size, RFC 5681 eq. (4); pipe, RFC 6675's pipe as ns-3 3.37's EnterRecovery passes BytesInFlight()"},
		{Name: "prr_rounding", Kind: vocab.String, Default: vocab.S("segments"), Choices: []string{"segments", "bytes"},
			Doc: "how prr rounds its proportional share CEIL(prr_delivered * ssthresh / RecoverFS) up: segments, as Linux and RFC 6937 section 5's example; bytes, as ns-3 3.37's TcpPrrRecovery, which sends a segment only once a whole one's share has accrued"},
		{Name: "grow_on_recovery_exit", Kind: vocab.Bool, Default: vocab.B(false),
			Doc: "the ACK that ends fast recovery also grows cwnd (cwnd = ssthresh, then the controller's per-ACK growth), as ns-3 3.37's TcpSocketBase::ProcessAck does; off, RFC 5681 3.2 step 6 and RFC 6937 3.1: cwnd = ssthresh on that ACK (Linux: off)"},
	}
}

// withHostOptions sets the options of hostOptionParams on cfg (prr goes
// through sackRecovery).
func withHostOptions(cfg tcp.Config, p vocab.Params) tcp.Config {
	cfg.Timestamps = p.Bool("timestamps")
	cfg.SYNTimeout = des.FromSeconds(p.Float("syn_timeout"))
	cfg.SendBuffer = unit.Bytes(p.Int("send_buffer"))
	if p.Str("ssthresh_basis") == "pipe" {
		cfg.SsthreshBasis = tcp.SsthreshPipe
	}
	cfg.GrowOnRecoveryExit = p.Bool("grow_on_recovery_exit")
	cfg.PRRByteCeil = p.Str("prr_rounding") == "bytes"
	return cfg
}

// writeSizeParam is the application's write size of the models whose
// sources are bulk or sized transfers (workload.Source.WriteSize).
func writeSizeParam() vocab.Param {
	return vocab.Param{Name: "write_size", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(0), Min: 0, Max: 1 << 40,
		Doc: "bytes the application writes at a time once connected (ns-3's BulkSend: 512 B); the writes of one instant leave together in full segments, and with a send_buffer the writer refills it write_size at a time as ACKs free room; " +
			"0 hands the whole transfer over at once"}
}

// hystartParam and byteCountingParam are the slow-start options of the
// congestion controllers, one name and doc in every TCP model; def is the
// model's default, kept from before the options were shared (Linux runs
// HyStart and counts acknowledged segments rather than ACKs).
func hystartParam(def bool) vocab.Param {
	return vocab.Param{Name: "hystart", Kind: vocab.Bool, Default: vocab.B(def),
		Doc: "HyStart++ (RFC 9406) in CUBIC's initial slow start (Linux: on); other controllers ignore it"}
}

func byteCountingParam(def bool) vocab.Param {
	return vocab.Param{Name: "byte_counting", Kind: vocab.Bool, Default: vocab.B(def),
		Doc: "appropriate byte counting (RFC 3465, L = 2 SMSS): cwnd grows by the bytes an ACK covers, not per ACK, so delayed ACKs do not slow growth (Linux counts acknowledged segments, to the same effect)"}
}

// ccOptions reads hystart and byte_counting; seed is the controller's own
// random stream.
func ccOptions(p vocab.Params, seed uint64) cc.Options {
	return cc.Options{HyStart: p.Bool("hystart"), ABC: p.Bool("byte_counting"), Seed: seed}
}

// sackRecovery returns the loss recovery of a connection that offers SACK
// (RFC 6675, or RFC 6937 PRR over it when prr is set); a peer that does
// not permit SACK makes the sender fall back to NewReno.
func sackRecovery(prr bool) tcp.Recovery {
	if prr {
		return tcp.RecoveryPRR
	}
	return tcp.RecoverySACK
}
