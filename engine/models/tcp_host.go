package models

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/vocab"
)

// prrParam is the parameter that selects RFC 6937's Proportional Rate
// Reduction in every TCP model, with one name, default and doc.
func prrParam() vocab.Param {
	return vocab.Param{Name: "prr", Kind: vocab.Bool, Default: vocab.B(false),
		Doc: "RFC 6937 Proportional Rate Reduction: during SACK recovery cwnd follows the data delivered instead of dropping to ssthresh at once " +
			"(the default of Linux and ns-3); needs SACK, without which recovery is NewReno"}
}

// hostOptionParams are the host options every TCP model takes with one
// name, unit, default and doc: RFC 6937 PRR, RFC 7323 timestamps and the
// SYN timeout. The defaults keep each model's earlier results (no PRR, no
// timestamps, a 1 s SYN timeout); each doc states Linux's value.
func hostOptionParams() []vocab.Param {
	return []vocab.Param{
		prrParam(),
		{Name: "timestamps", Kind: vocab.Bool, Default: vocab.B(false),
			Doc: "RFC 7323 timestamps, offered by every endpoint: 12 more bytes on every segment (mss stays the payload; Linux, which offers them by default, sends 1448-byte payloads in a 1500-byte MTU)"},
		{Name: "syn_timeout", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(1), Min: 0.001, Max: 600,
			Doc: "retransmission timeout of a SYN before back-off (RFC 6298 2.1 and Linux: 1 s; ns-3's ConnTimeout: 3 s)"},
	}
}

// withHostOptions sets the options of hostOptionParams on cfg (prr goes
// through sackRecovery).
func withHostOptions(cfg tcp.Config, p vocab.Params) tcp.Config {
	cfg.Timestamps = p.Bool("timestamps")
	cfg.SYNTimeout = des.FromSeconds(p.Float("syn_timeout"))
	return cfg
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
