package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// undo is the state with which the sender finds a congestion response
// spurious and undoes it (Config.Undo, and Config.FRTO for its own
// detection), as Linux's tcp_input.c does:
//
//   - a fast recovery or a timeout opens an episode (tcp_init_undo):
//     marker is SND.UNA, priorCwnd and priorSsthresh the window and
//     threshold before the reduction (tp->prior_cwnd, tp->prior_ssthresh,
//     the latter tcp_current_ssthresh: max(ssthresh, 3/4 cwnd) outside a
//     reduction). A timeout during a fast recovery, or a repeated one
//     before any progress, opens none: the episode started earlier goes on
//     (tcp_enter_loss);
//   - retrans counts the episode's retransmissions not yet reported
//     duplicate (tp->undo_retrans, -1 for none); each DSACK of data above
//     the marker takes its segments off (tcp_check_dsack; RFC 3708
//     section 3: when every retransmission is DSACKed, none was needed);
//   - stamp is the timestamp clock at the episode's first retransmission
//     (tp->retrans_stamp): an ACK whose echoed TSecr is older was sent for
//     an original transmission, so the retransmission was not needed (the
//     Eifel detection of RFC 3522 section 3.2, tcp_packet_delayed);
//   - when either says so (tcp_may_undo) the sender restores cwnd by the
//     controller's cc.UndoCwnd and ssthresh to priorSsthresh if that is
//     higher (tcp_undo_cwnd_reduction): at the end of a fast recovery
//     (tcp_try_undo_recovery), on an ACK of new data in a timeout's
//     recovery, which ends it (tcp_try_undo_loss), and when DSACKs report
//     every retransmission, in a fast recovery (which ends) or after one
//     (tcp_try_undo_dsack).
//
// Leaving the timeout's recovery by an undo stops its retransmissions:
// nothing outstanding counts as lost any more (Linux's unmark_loss).
type undo struct {
	// on: the state is kept and DSACKs are parsed (Config.Undo, FRTO or
	// AdaptiveReordering)
	on     bool
	detect bool // DSACKs and timestamps may undo (Config.Undo)

	set           bool // an episode is open (tp->undo_marker != 0)
	marker        seqnum.Value
	retrans       int
	stamp         uint32
	stampSet      bool
	priorCwnd     unit.Bytes
	priorSsthresh unit.Bytes
	dsackDups     int64 // segments DSACKed so far (tp->dsack_dups)

	// Per ACK: its timestamp echo (hasTS: it carries the option), and
	// whether it carried a DSACK, newly SACKed data, or delivered a
	// segment never retransmitted sent before the timeout's recovery
	// point (Linux's FLAG_DSACKING_ACK, FLAG_DATA_SACKED,
	// FLAG_ORIG_SACK_ACKED).
	tsecr         uint32
	hasTS         bool
	dsack         bool
	sacked        bool
	origDelivered bool
}

// undoAckStart resets the per-ACK flags.
func (s *sender) undoAckStart(p *netsim.Packet) {
	u := &s.undo
	if !u.on {
		return
	}
	u.tsecr, u.hasTS = p.TSecr, p.HasTS
	u.dsack, u.sacked, u.origDelivered = false, false, false
}

// undoDelivered notes a record the ACK newly delivers (sacked: by a SACK
// block).
func (s *sender) undoDelivered(r *sendRecord, sacked bool) {
	u := &s.undo
	if !u.on {
		return
	}
	u.sacked = u.sacked || sacked
	if !r.retx && !s.frto.high.LessThan(r.end()) {
		u.origDelivered = true
	}
}

// undoSave opens an episode (tcp_init_undo with the prior window);
// inReduction says cwnd is already being reduced, when ssthresh is the
// prior threshold (tcp_current_ssthresh).
func (s *sender) undoSave(inReduction bool) {
	u := &s.undo
	if !u.on {
		return
	}
	u.priorCwnd = s.cc.Cwnd
	u.priorSsthresh = s.cc.Ssthresh
	if !inReduction {
		u.priorSsthresh = max(s.cc.Ssthresh, s.cc.Cwnd/2+s.cc.Cwnd/4)
		u.stampSet = false // Linux clears retrans_stamp in the open state
	}
	u.marker, u.set = s.una, true
	u.retrans = -1
	if n := s.retransOut(); n > 0 {
		u.retrans = n
	}
}

// retransOut counts the retransmitted segments still in the network
// (Linux's tp->retrans_out): neither delivered nor judged lost again.
func (s *sender) retransOut() int {
	n := 0
	for i := 0; i < s.recs.len(); i++ {
		if r := s.recs.at(i); r.retx && !r.sacked && !r.relost {
			n++
		}
	}
	return n
}

// tsNow is the timestamp clock (Conn.stamp's TSval).
func (s *sender) tsNow() uint32 { return uint32(s.c.s.Now().Sub(0) / des.Millisecond) }

// undoRetransmitted counts a retransmission (Linux's tcp_retransmit_skb:
// retrans_stamp of the first, undo_retrans++).
func (s *sender) undoRetransmitted() {
	u := &s.undo
	if !u.on {
		return
	}
	if !u.stampSet {
		u.stamp, u.stampSet = s.tsNow(), true
	}
	if u.retrans < 0 {
		u.retrans = 0
	}
	u.retrans++
}

// packetDelayed is Linux's tcp_packet_delayed (RFC 3522 section 3.2):
// the ACK echoes a timestamp from before the first retransmission.
func (s *sender) packetDelayed() bool {
	u := &s.undo
	return s.c.tsOK && u.hasTS && u.stampSet && u.tsecr != 0 && int32(u.tsecr-u.stamp) < 0
}

// mayUndo is Linux's tcp_may_undo.
func (s *sender) mayUndo() bool {
	u := &s.undo
	return u.detect && u.set && (u.retrans == 0 || s.packetDelayed())
}

// undoReduction is Linux's tcp_undo_cwnd_reduction; unmarkLoss also ends
// a timeout's recovery, whose losses were not.
func (s *sender) undoReduction(unmarkLoss bool) {
	u := &s.undo
	if unmarkLoss {
		s.unmarkLost()
	}
	s.refreshCounters() // BBR restarts its long-term sampling from them
	s.cc.Cwnd = max(cc.UndoCwnd(s.ctrl, &s.cc, u.priorCwnd), s.smss)
	if u.priorSsthresh > s.cc.Ssthresh {
		s.cc.Ssthresh = u.priorSsthresh
	}
	u.set = false
	u.stampSet = false
	// The reduction is gone, so a loss found from now on is a new one
	// (Linux enters Recovery again from the open state).
	if s.una.LessThan(s.recover) {
		s.recover = s.una
	}
	s.c.Stats.Undos++
}

// unmarkLost ends a timeout's recovery: no segment outstanding is lost
// any more, RACK's marks included, and RACK examines the segments sent
// before the timeout again (Linux sets rack.advanced).
func (s *sender) unmarkLost() {
	s.inLoss = false
	s.rtoRepeat = false
	s.clearRelost()
	// tcp_undo_cwnd_reduction clears TCPCB_LOST from every segment: one
	// lost later is marked (and counted) again.
	for i := 0; i < s.recs.len(); i++ {
		s.recs.at(i).marked = false
	}
	s.rack.scan = s.una
	if s.nxt.LessThan(s.max) {
		s.nxt = s.max // go-back-N stops
	}
}

// checkDSACK is Linux's tcp_check_dsack and tcp_dsack_seen (RFC 2883
// section 4): the first SACK block reports a duplicate when it lies below
// the cumulative ACK or inside the second block. A duplicate larger than
// the window, or more duplicates than retransmissions, are dubious and
// ignored. Each duplicate segment above the episode's marker was a
// retransmission not needed (RFC 3708 section 3; counted by size, as
// Linux does for data already acknowledged).
func (s *sender) checkDSACK(p *netsim.Packet, ack seqnum.Value) {
	if p.NSACK == 0 {
		return
	}
	l, r := seqnum.Value(p.SACK[0].Left), seqnum.Value(p.SACK[0].Right)
	if !l.LessThan(ack) {
		if p.NSACK < 2 {
			return
		}
		l1, r1 := seqnum.Value(p.SACK[1].Left), seqnum.Value(p.SACK[1].Right)
		if r1.LessThan(r) || l.LessThan(l1) {
			return
		}
	}
	if !l.LessThan(r) {
		return
	}
	n := unit.Bytes(l.Size(r))
	if n > max(s.wnd, s.c.cfg.RcvBuf) {
		return
	}
	dups := int64(1)
	probe := false
	if n > s.smss {
		dups = int64((n + s.smss - 1) / s.smss)
	} else {
		probe = s.tlp.endSet && s.tlp.end == r
	}
	u := &s.undo
	u.dsackDups += dups
	if u.dsackDups > s.c.Stats.RetransSegs {
		return
	}
	s.c.Stats.DSACKsRecv++
	u.dsack = true
	s.reorderDSACK(probe)
	if u.set && u.retrans > 0 && u.marker.LessThan(r) {
		u.retrans = max(0, u.retrans-int(dups))
	}
}

// undoRecoveryEnd is Linux's tcp_try_undo_recovery on the ACK that ends
// fast recovery.
func (s *sender) undoRecoveryEnd() {
	if s.mayUndo() {
		s.undoReduction(false)
		return
	}
	s.reorderRecoveryEnd()
}

// undoDSACK is Linux's tcp_try_undo_dsack: every retransmission of the
// episode was reported duplicate. In fast recovery the recovery ends
// (tcp_try_to_open).
func (s *sender) undoDSACK(now des.Time) {
	u := &s.undo
	if !u.detect || !u.set || u.retrans != 0 {
		return
	}
	s.reorderUndoDSACK()
	s.undoReduction(false)
	if s.inRecovery {
		s.exitRecovery(now)
	}
}

// undoPartial is Linux's tcp_try_undo_partial for an ACK that advances
// SND.UNA to below the recovery point: when its timestamp says the
// original transmission filled the hole (RFC 3522), the path reorders by
// at least the distance from the prior SND.UNA to the fack
// (tcp_check_sack_reordering's timestamp case), and with no
// retransmission left in the network the recovery is undone and ends.
// It reports whether it ended the recovery.
func (s *sender) undoPartial(now des.Time, priorUna seqnum.Value) bool {
	u := &s.undo
	if !u.detect || !u.set || !s.packetDelayed() {
		return false
	}
	s.reorderCheckFrom(priorUna)
	if s.retransOut() > 0 {
		return false
	}
	s.undoReduction(true)
	s.exitRecovery(now)
	return true
}
