package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// enterSACKRecovery is RFC 6675 section 5 step (4): RecoveryPoint is set
// (by enterRecovery), cwnd = ssthresh (by the controller), the first
// segment presumed lost is retransmitted (4.3) and the transmission loop
// (C) runs.
func (s *sender) enterSACKRecovery(now des.Time) {
	s.rxtNext = s.una
	s.rxtNext = s.retransmit(now, s.una)
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
// retransmission, is optional and not implemented.
func (s *sender) sackOutput(now des.Time) {
	dt := s.c.cfg.DupThresh
	mss := seqnum.Size(s.smss)
	for {
		if !s.paceOK(now) {
			return
		}
		pipe := int64(s.sb.Pipe(s.una, s.max, s.rxtNext, dt, mss))
		if s.cc.Cwnd-pipe < s.smss {
			return
		}
		if start, _, ok := s.sb.NextSeg(seqnum.Max(s.rxtNext, s.una), dt, mss, false); ok {
			s.rxtNext = s.retransmit(now, start)
			continue
		}
		// Rule (2): new data, if the peer's window allows.
		if rem := s.remaining(s.nxt); s.nxt == s.max && rem > 0 {
			n := min(s.smss, rem)
			if int64(s.una.Size(s.nxt))+n <= min(s.wnd, s.c.cfg.SndBuf) {
				s.sendData(now, s.nxt, n, false, false)
				s.nxt = s.nxt.Add(seqnum.Size(n))
				s.max = s.nxt
				continue
			}
		}
		if start, _, ok := s.sb.NextSeg(seqnum.Max(s.rxtNext, s.una), dt, mss, true); ok {
			s.rxtNext = s.retransmit(now, start)
			continue
		}
		return
	}
}
