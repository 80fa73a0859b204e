package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// sackRecovery is RFC 6675's conservative SACK-based loss recovery: the
// scoreboard's IsLost (DupThresh SACKed segments above) decides a first
// loss, SetPipe estimates the bytes in the network, and NextSeg's loop
// sends while cwnd - pipe allows. RACK (rack.go) finds lost
// retransmissions, which IsLost cannot see. After a timeout the
// scoreboard is kept and only unSACKed data is resent (section 5.1, as
// Linux does). rackTLPRecovery reuses it with dupThresh and rule3 off.
type sackRecovery struct {
	s *sender
	// dupThresh: IsLost's DupThresh rule marks losses (RFC 6675 section
	// 4); off under RACK-TLP, where RACK alone does (RFC 8985 section
	// 6.2, as in Linux).
	dupThresh bool
	// rule3: NextSeg's rule (3) resends unSACKed data below the highest
	// SACKed byte; off under RACK-TLP, whose probe covers the tail.
	rule3 bool
	// rack: RACK finds lost retransmissions (off: LossDupThreshOnly).
	rack bool
}

// lostBound returns L such that an unSACKed byte below L is lost: RFC 6675
// section 4's IsLost, or during a timeout's recovery (inLoss) everything
// outstanding at the timeout; ok is false when nothing is lost.
func (r *sackRecovery) lostBound() (seqnum.Value, bool) {
	s := r.s
	var l seqnum.Value
	ok := false
	if r.dupThresh {
		l, ok = s.sb.lostBelow(s.dupThresh(), seqnum.Size(s.smss))
	}
	if s.inLoss && (!ok || l.LessThan(s.lossHigh)) {
		return s.lossHigh, true
	}
	return l, ok
}

// pipe is RFC 6675 section 4's SetPipe, less the retransmissions RACK
// found lost.
//
// The sender asks on every ACK and every send. With nothing SACKed,
// outside a timeout's recovery, no byte is lost by IsLost (it needs
// SACKed bytes above) and SetPipe reduces to [SND.UNA, HighData) plus the
// retransmitted [SND.UNA, HighRxt+1); that case, most ACKs, is computed
// here without the scoreboard: Scoreboard.pipe's arithmetic with no
// blocks, written out because the call costs 1 % of the CPU of a
// RACK-TLP data packet (BenchmarkProbeCubic/rack-tlp, 6 alternating runs).
func (r *sackRecovery) pipe() unit.Bytes {
	s := r.s
	if !s.inLoss && s.sb.Empty() {
		p := s.una.Size(s.max)
		if rxtEnd := seqnum.Min(s.rxtNext, s.max); s.una.LessThan(rxtEnd) {
			p += s.una.Size(rxtEnd)
		}
		return p.Bytes() - s.relostBytes
	}
	l, ok := r.lostBound()
	return s.sb.pipe(s.una, s.max, s.rxtNext, l, ok).Bytes() - s.relostBytes
}

// dupAck is RFC 6675 section 5 steps (1)-(4): recovery starts at the
// DupThresh-th duplicate ACK or when IsLost(HighACK + 1) holds; in
// recovery, cwnd is not inflated (pipe counts what left the network).
func (r *sackRecovery) dupAck(now des.Time) {
	s := r.s
	if s.inRecovery {
		return
	}
	if s.dupAcks >= s.dupThresh() || s.sb.IsLost(s.una, s.dupThresh(), seqnum.Size(s.smss)) {
		s.enterRecovery(now, true)
	}
}

// enter is RFC 6675 section 5 step (4): RecoveryPoint is set (by
// enterRecovery), cwnd = ssthresh (by the controller), the first segment
// presumed lost is retransmitted (4.3) and the transmission loop (C) runs.
// HighRxt is kept when the previous recovery already retransmitted beyond
// SND.UNA: RFC 6675 restarts it at HighACK, which resends holes above the
// old RecoveryPoint whose retransmissions are still in flight; those count
// in pipe as retransmitted, and RACK finds any that are lost (Linux keeps
// the per-segment retransmitted flag the same way).
func (r *sackRecovery) enter(now des.Time, fastRetransmit bool) {
	s := r.s
	if s.rxtNext.LessThan(s.una) {
		s.rxtNext = s.una
	}
	if fastRetransmit && s.rxtNext == s.una {
		s.rxtNext = s.retransmit(now, s.una)
	}
	r.send(now)
}

// ack ends recovery once a cumulative ACK covers RecoveryPoint (RFC 6675
// section 5, step (A) and the paragraph after (C)); otherwise the loop (C)
// continues from output.
func (r *sackRecovery) ack(now des.Time, ack seqnum.Value, _ unit.Bytes) {
	if !ack.LessThan(r.s.recover) {
		r.s.exitRecovery(now)
	}
}

// rearmOnAck: RFC 6298 section 5.3, every ACK of new data restarts the
// timer.
func (r *sackRecovery) rearmOnAck() bool { return true }

func (r *sackRecovery) output(now des.Time) bool {
	r.send(now)
	return true
}

// retransmitted queues the retransmission for RACK's check of lost
// retransmissions (RFC 8985 section 6.2 step 5).
func (r *sackRecovery) retransmitted(seq seqnum.Value, xmitN uint64, _ bool) {
	if r.rack {
		r.s.rack.rxq.push(rxEntry{seq: seq, n: xmitN})
	}
}

func (r *sackRecovery) delivered(now des.Time, rec *sendRecord) {
	if r.rack {
		r.s.rackDelivered(now, rec)
	}
}

// afterAck runs RACK over the ACK's deliveries (RFC 8985 section 6.2).
func (r *sackRecovery) afterAck(now des.Time, _ seqnum.Value, _, _ bool) {
	if r.rack {
		r.s.rackUpdate(now)
		r.s.rackDetect(now)
	}
}

// timeout keeps the SACK scoreboard over a timeout and resends only what
// the receiver does not hold: every unSACKed segment below HighData is
// lost (lossHigh), retransmissions then in flight included, and the loop
// of RFC 6675 section 5 (C) resends them from SND.UNA as cwnd grows again
// from one segment. RFC 2018 section 8 advises dropping SACK state in case
// the receiver reneged (discarded SACKed data); RFC 6675 section 5.1
// leaves it to the implementation, and Linux keeps it
// (tcp_timeout_mark_lost), dropping it only on evidence of reneging: a
// SACKed segment at SND.UNA, which the receiver would have acknowledged
// cumulatively had it kept it. This receiver never reneges, but the rule
// costs nothing. Forgetting SACK state instead makes the go-back-N resend
// whole windows the receiver already holds; at a full queue those resends
// are lost in turn, give no RTT samples (Karn) and back the timer off.
func (r *sackRecovery) timeout() {
	s := r.s
	if s.sb.IsSacked(s.una) {
		s.sb.Reset()
		for i := 0; i < s.recs.len(); i++ {
			s.recs.at(i).sacked = false
		}
	}
	// RACK's queues describe retransmissions the timeout has now judged
	// lost; their state starts anew.
	s.rackForget()
}

// send is RFC 6675 section 5 step (C): while cwnd - pipe >= 1 SMSS, send
// what NextSeg() names: (1) a lost segment, (2) new data, (3) an unSACKed
// segment below the highest SACKed byte. Rule (4), the rescue
// retransmission, is optional and not implemented. Two additions: a
// segment whose retransmission RACK found lost (RFC 8985 section 6.2) is
// resent first, and its lost retransmission no longer counts in pipe;
// after a timeout every unSACKed byte below its HighData is lost.
func (r *sackRecovery) send(now des.Time) {
	s := r.s
	// The scoreboard does not change while the loop sends, so IsLost's
	// bound stays and pipe grows by exactly what each send adds: a resent
	// relost segment its payload (it leaves relostBytes), a retransmission
	// of a hole its length (HighRxt moves over it and the SACKed bytes
	// before it), new data its length (HighData moves).
	lost, hasLost := r.lostBound()
	pipe := s.sb.pipe(s.una, s.max, s.rxtNext, lost, hasLost).Bytes() - s.relostBytes
	// F-RTO's step 2.b (frto.go) sends new data only.
	resend := !s.frto.sendNew
	h := s.c.host
	for {
		if !s.paceOK(now) || s.cc.Cwnd-pipe < s.smss {
			return
		}
		if seq, ok := s.nextRelost(); ok && resend {
			if h != nil && h.blockedRetransmit(now) {
				return
			}
			rec := s.recs.at(s.recs.find(seq))
			pipe += rec.payloadBytes()
			s.retransmit(now, seq)
			continue
		}
		from := seqnum.Max(s.rxtNext, s.una)
		if start, _, ok := s.sb.nextLost(from, lost); hasLost && ok && resend {
			if h != nil && !s.rtoResend && h.blockedRetransmit(now) {
				return
			}
			s.rtoResend = false
			s.rxtNext = s.retransmit(now, start)
			pipe += from.Size(s.rxtNext).Bytes() - s.sb.sackedIn(from, s.rxtNext).Bytes()
			continue
		}
		// Rule (2): new data, if the peer's window allows.
		if rem := s.remaining(s.nxt); s.nxt == s.max && rem > 0 {
			n := min(s.smss, rem)
			if s.una.Size(s.nxt).Bytes()+n <= min(s.wnd, s.c.cfg.SndBuf) {
				if h != nil && h.blocked(now) {
					return
				}
				s.sendData(now, s.nxt, n, false, false)
				s.nxt = s.nxt.Add(seqnum.Size(n))
				s.max = s.nxt
				pipe += n
				continue
			}
		}
		if !r.rule3 || !resend {
			return
		}
		if start, _, ok := s.sb.nextUnsacked(from); ok {
			if h != nil && h.blockedRetransmit(now) {
				return
			}
			s.rxtNext = s.retransmit(now, start)
			pipe += from.Size(s.rxtNext).Bytes() - s.sb.sackedIn(from, s.rxtNext).Bytes()
			continue
		}
		return
	}
}
