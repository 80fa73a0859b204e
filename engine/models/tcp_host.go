package models

import (
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

// sackRecovery returns the loss recovery of a connection that offers SACK
// (RFC 6675, or RFC 6937 PRR over it when prr is set); a peer that does
// not permit SACK makes the sender fall back to NewReno.
func sackRecovery(prr bool) tcp.Recovery {
	if prr {
		return tcp.RecoveryPRR
	}
	return tcp.RecoverySACK
}
