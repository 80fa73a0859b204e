package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// enterSACKRecovery is RFC 6675 section 5 step (4): RecoveryPoint is set
// (by enterRecovery), cwnd = ssthresh (by the controller), the first
// segment presumed lost is retransmitted (4.3) and the transmission loop
// (C) runs. HighRxt is kept when the previous recovery already
// retransmitted beyond SND.UNA: RFC 6675 restarts it at HighACK, which
// resends holes above the old RecoveryPoint whose retransmissions are
// still in flight; those count in pipe as retransmitted, and RACK finds
// any that are lost (Linux keeps the per-segment retransmitted flag the
// same way).
func (s *sender) enterSACKRecovery(now des.Time, fastRetransmit bool) {
	if s.rxtNext.LessThan(s.una) {
		s.rxtNext = s.una
	}
	if fastRetransmit && s.rxtNext == s.una {
		s.rxtNext = s.retransmit(now, s.una)
	}
	s.sackOutput(now)
}

// sackRecoveryAck handles a cumulative ACK in SACK recovery: once it covers
// RecoveryPoint, recovery ends (RFC 6675 section 5, step (A) ... and the
// paragraph after (C)); otherwise the loop (C) continues from output.
func (s *sender) sackRecoveryAck(now des.Time, ack seqnum.Value) {
	if !ack.LessThan(s.recover) {
		s.exitRecovery(now)
	}
}

// sackOutput is RFC 6675 section 5 step (C): while cwnd - pipe >= 1 SMSS,
// send what NextSeg() names: (1) a lost segment, (2) new data, (3) an
// unSACKed segment below the highest SACKed byte. Rule (4), the rescue
// retransmission, is optional and not implemented. Two additions: a
// segment whose retransmission RACK found lost (RFC 8985 section 6.2) is
// resent first, and its lost retransmission no longer counts in pipe;
// after a timeout every unSACKed byte below its HighData is lost.
func (s *sender) sackOutput(now des.Time) {
	// The scoreboard does not change while the loop sends, so IsLost's
	// bound stays and pipe grows by exactly what each send adds: a resent
	// relost segment its payload (it leaves relostBytes), a retransmission
	// of a hole its length (HighRxt moves over it and the SACKed bytes
	// before it), new data its length (HighData moves).
	lost, hasLost := s.lostBound()
	pipe := int64(s.sb.pipe(s.una, s.max, s.rxtNext, lost, hasLost)) - s.relostBytes
	for {
		if !s.paceOK(now) || s.cc.Cwnd-pipe < s.smss {
			return
		}
		if seq, ok := s.nextRelost(); ok {
			r := s.recs.at(s.recs.find(seq))
			pipe += int64(r.payload)
			s.retransmit(now, seq)
			continue
		}
		from := seqnum.Max(s.rxtNext, s.una)
		if start, _, ok := s.sb.nextLost(from, lost); hasLost && ok {
			s.rxtNext = s.retransmit(now, start)
			pipe += int64(from.Size(s.rxtNext)) - int64(s.sb.sackedIn(from, s.rxtNext))
			continue
		}
		// Rule (2): new data, if the peer's window allows.
		if rem := s.remaining(s.nxt); s.nxt == s.max && rem > 0 {
			n := min(s.smss, rem)
			if int64(s.una.Size(s.nxt))+n <= min(s.wnd, s.c.cfg.SndBuf) {
				s.sendData(now, s.nxt, n, false, false)
				s.nxt = s.nxt.Add(seqnum.Size(n))
				s.max = s.nxt
				pipe += n
				continue
			}
		}
		if s.rackTLP() {
			// RACK-TLP resends only what RACK (or a timeout) marked
			// lost; the probe of section 7 covers the tail that rule
			// (3) would.
			return
		}
		if start, _, ok := s.sb.nextUnsacked(from); ok {
			s.rxtNext = s.retransmit(now, start)
			pipe += int64(from.Size(s.rxtNext)) - int64(s.sb.sackedIn(from, s.rxtNext))
			continue
		}
		return
	}
}
