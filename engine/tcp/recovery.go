package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// recovery is a connection's loss recovery: how the sender decides that
// segments are lost, what it resends and in which order, and what cwnd
// does until the losses are repaired. The sender chooses one when the
// connection opens (newRecovery), once the peer's options are known, and
// calls it at fixed points of its ACK, send and timer paths; the sender
// itself holds no branch on the algorithm. Congestion control, the
// reduction's size, stays with the cc.Controller.
//
// The implementations, one per file:
//   - newRenoRecovery (newreno_recovery.go): RFC 5681 section 3.2 and
//     RFC 6582, duplicate-ACK counting without SACK;
//   - sackRecovery (sack_recovery.go): RFC 6675, the scoreboard's IsLost
//     and NextSeg, with RACK finding lost retransmissions;
//   - rackTLPRecovery (rack_recovery.go): RFC 8985, RACK deciding every
//     loss and Tail Loss Probes, sending by RFC 6675's loop;
//   - prrRecovery (prr.go): RFC 6937 Proportional Rate Reduction, which
//     paces either SACK-based recovery's sends during the reduction.
type recovery interface {
	// pipe is the sender's estimate of the bytes in the network.
	pipe() unit.Bytes
	// dupAck handles a duplicate ACK (RFC 5681 section 2), already
	// counted in sender.dupAcks: it may start fast recovery.
	dupAck(now des.Time)
	// enter starts fast recovery once the controller has responded.
	// fastRetransmit is set when duplicate ACKs started it, so that the
	// segment at SND.UNA is the one presumed lost.
	enter(now des.Time, fastRetransmit bool)
	// ack handles an ACK that advances SND.UNA during fast recovery; it
	// ends the recovery when the ACK covers the recovery point.
	ack(now des.Time, ack seqnum.Value, acked unit.Bytes)
	// rearmOnAck reports whether an ACK advancing SND.UNA during fast
	// recovery restarts the retransmission timer (RFC 6298 section 5.3).
	rearmOnAck() bool
	// output sends during a fast recovery or a timeout's recovery and
	// reports whether it did; false leaves the sender's own loop (new
	// data, or go-back-N after a timeout) to run.
	output(now des.Time) bool
	// retransmitted is told of each retransmission of the record at seq,
	// the xmitN-th transmission of the connection, after it left;
	// rtoArmed says the send started the retransmission timer.
	retransmitted(seq seqnum.Value, xmitN uint64, rtoArmed bool)
	// delivered is told of each record an ACK newly SACKs or
	// cumulatively acknowledges.
	delivered(now des.Time, r *sendRecord)
	// afterAck runs once an ACK's acknowledgements are processed and
	// before the sender sends: advanced says SND.UNA moved, pureDup that
	// the ACK was a duplicate carrying no SACK block and no data.
	afterAck(now des.Time, ack seqnum.Value, advanced, pureDup bool)
	// timeout adjusts the recovery state when the retransmission timer
	// expires, after the sender's common part (RFC 6298 section 5.4-5.6).
	timeout()
}

// newRecovery returns the loss recovery of s's connection for its
// configuration and the options the peer agreed to. SACK-based recovery
// needs the peer to permit SACK; without it every choice falls back to
// NewReno (RFC 6675 section 1, RFC 8985 section 3: both work on SACK
// information). It also switches on the RACK and TLP machinery that
// RACK-TLP drives.
func newRecovery(s *sender) recovery {
	cfg := &s.c.cfg
	if !s.c.sackOK || cfg.Recovery == RecoveryNewReno || cfg.Recovery == RecoveryReno {
		return &newRenoRecovery{s: s, reno: cfg.Recovery == RecoveryReno}
	}
	var r recovery
	if cfg.LossDetection == LossRACKTLP {
		s.rack.all, s.tlp.on = true, true
		r = &rackTLPRecovery{sackRecovery{s: s, rack: true}}
	} else {
		r = &sackRecovery{s: s, dupThresh: true, rule3: true, rack: cfg.LossDetection != LossDupThreshOnly}
	}
	// Linux runs PRR (tcp_cwnd_reduction) only for controllers without
	// a cong_control hook: BBR and BBRv2 keep setting cwnd themselves
	// in recovery (tcp_cong_control in net/ipv4/tcp_input.c).
	if cfg.Recovery == RecoveryPRR && !cc.SetsOwnCwnd(s.ctrl) {
		r = &prrRecovery{recovery: r, s: s}
	}
	return r
}
