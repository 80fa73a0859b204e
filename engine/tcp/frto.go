package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// frto is the SACK-enhanced F-RTO of RFC 5682 section 3, as Linux's
// tcp_process_loss runs it (net.ipv4.tcp_frto = 2):
//
//   - step 1: the timeout retransmits the first unacknowledged segment
//     (as always); F-RTO runs if no fast recovery was under way, or the
//     timeout repeats one on the same SND.UNA (section 3.2; Linux's
//     new_recovery || icsk_retransmits);
//   - step 2: the first ACK that advances SND.UNA, before the timeout's
//     recovery point is reached, moves the recovery point (high) to
//     HighData and sends new data instead of retransmissions (Linux's
//     REXMIT_NEW; cwnd has grown to two segments); with nothing new to
//     send, or no window for it, F-RTO gives up;
//   - step 3: once that new data is out, an ACK that SACKs data or is a
//     duplicate says the loss was real (3.a) and the conventional
//     recovery resends; but any ACK that delivers a segment never
//     retransmitted sent before the recovery point says the timeout was
//     spurious (3.b): the sender undoes the reduction
//     (tcp_try_undo_loss) and carries on from where it was.
//
// An ACK of new data in the timeout's recovery that undo's own detection
// (DSACKs, timestamps) finds spurious also ends it (tcp_try_undo_loss),
// with Config.Undo.
type frto struct {
	on      bool
	high    seqnum.Value // Linux's high_seq while in CA_Loss
	sendNew bool         // this ACK releases new data only
}

// frtoTimeout is step 1, at a timeout; wasRecovering says a fast
// recovery or a timeout's recovery was under way before it.
func (s *sender) frtoTimeout(wasRecovering bool) {
	f := &s.frto
	f.high = s.max
	f.on = s.c.cfg.FRTO && s.sackBased && (!wasRecovering || s.rtoRepeat)
}

// processLoss is Linux's tcp_process_loss for an ACK that arrived in a
// timeout's recovery: advanced says it moved SND.UNA, dup that it was a
// duplicate, recovered that SND.UNA has reached the recovery point.
func (s *sender) processLoss(now des.Time, advanced, dup, recovered bool) {
	if advanced && s.mayUndo() {
		s.undoLoss(false)
		return
	}
	f := &s.frto
	if f.on {
		if s.undo.origDelivered {
			s.undoLoss(true) // step 3.b
			return
		}
		if f.high.LessThan(s.max) {
			if s.undo.sacked || dup {
				f.on = false // step 3.a
			}
		} else if advanced && !recovered {
			f.high = s.max // step 2.b
			if s.remaining(s.max) > 0 && s.una.Size(s.max).Bytes() < min(s.wnd, s.c.cfg.SndBuf) {
				f.sendNew = true
				return
			}
			f.on = false
		}
	}
	if recovered {
		s.undoRecoveryEnd()
	}
}

// undoLoss is Linux's tcp_try_undo_loss once it decided: the timeout's
// reduction is undone and its recovery ends.
func (s *sender) undoLoss(frto bool) {
	s.undoReduction(true)
	s.frto.on = false
	if frto {
		s.c.Stats.SpuriousRTOs++
	}
}
