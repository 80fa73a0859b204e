package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// enterNewRenoRecovery is RFC 5681 section 3.2 steps 2-3 (RFC 6582 section
// 3.2 step 2-3): retransmit the first unacknowledged segment and set
// cwnd = ssthresh + 3*SMSS, inflating it by the segments that left the
// network (the three duplicate ACKs).
func (s *sender) enterNewRenoRecovery(now des.Time) {
	s.retransmit(now, s.una)
	s.cc.Cwnd = s.cc.Ssthresh + int64(s.c.cfg.DupThresh)*s.smss
}

// newRenoAck handles an ACK advancing SND.UNA in fast recovery.
func (s *sender) newRenoAck(now des.Time, ack seqnum.Value, acked int64) {
	if s.c.cfg.Recovery == RecoveryReno {
		// RFC 5681 section 3.2 step 6: the next ACK of new data deflates
		// cwnd to ssthresh and ends recovery.
		s.cc.Cwnd = s.cc.Ssthresh
		s.exitRecovery(now)
		return
	}
	if !ack.LessThan(s.recover) {
		// RFC 6582 section 3.2 step 6, full ACK, option (1):
		// cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).
		flight := int64(s.una.Size(s.max))
		s.cc.Cwnd = min(s.cc.Ssthresh, max(flight, s.smss)+s.smss)
		s.exitRecovery(now)
		return
	}
	// RFC 6582 section 3.2 step 5, partial ACK: retransmit the first
	// unacknowledged segment, deflate cwnd by the amount acknowledged and
	// add back one SMSS if that was at least one SMSS, then send new data
	// as the new cwnd allows (output, after this returns).
	s.partials++
	s.retransmit(now, s.una)
	s.cc.Cwnd -= acked
	if acked >= s.smss {
		s.cc.Cwnd += s.smss
	}
	s.cc.Cwnd = max(s.cc.Cwnd, s.smss)
}
