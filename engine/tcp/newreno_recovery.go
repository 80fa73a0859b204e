package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// newRenoRecovery is fast retransmit and fast recovery by duplicate ACKs
// without SACK: RFC 5681 section 3.2 (Reno, reno set) or RFC 6582
// (NewReno). After a timeout it resends go-back-N from SND.UNA.
type newRenoRecovery struct {
	s    *sender
	reno bool // RFC 5681: the first ACK of new data ends recovery
	// partials counts the partial ACKs of this recovery (RFC 6582
	// section 3.2 step 5).
	partials int
}

// pipe is RFC 5681 section 2's FlightSize.
func (r *newRenoRecovery) pipe() unit.Bytes { return r.s.flight() }

// dupAck is RFC 5681 section 3.2 steps 2 and 4: the DupThresh-th
// duplicate ACK starts fast recovery, each later one inflates cwnd by one
// segment.
func (r *newRenoRecovery) dupAck(now des.Time) {
	s := r.s
	if s.inRecovery {
		s.cc.Cwnd += s.smss
		return
	}
	if s.dupAcks >= s.dupThresh() {
		s.enterRecovery(now, true)
	}
}

// enter is RFC 5681 section 3.2 steps 2-3 (RFC 6582 section 3.2 steps
// 2-3): retransmit the first unacknowledged segment and set
// cwnd = ssthresh + 3*SMSS, inflating it by the segments that left the
// network (the three duplicate ACKs).
func (r *newRenoRecovery) enter(now des.Time, _ bool) {
	s := r.s
	r.partials = 0
	s.retransmit(now, s.una)
	s.cc.Cwnd = s.cc.Ssthresh + unit.Bytes(s.dupThresh())*s.smss
}

// ack handles an ACK advancing SND.UNA in fast recovery.
func (r *newRenoRecovery) ack(now des.Time, ack seqnum.Value, acked unit.Bytes) {
	s := r.s
	if r.reno {
		// RFC 5681 section 3.2 step 6: the next ACK of new data deflates
		// cwnd to ssthresh and ends recovery.
		s.cc.Cwnd = s.cc.Ssthresh
		s.exitRecovery(now)
		return
	}
	if !ack.LessThan(s.recover) {
		// RFC 6582 section 3.2 step 6, full ACK, option (1):
		// cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).
		flight := s.una.Size(s.max).Bytes()
		s.cc.Cwnd = min(s.cc.Ssthresh, max(flight, s.smss)+s.smss)
		s.exitRecovery(now)
		return
	}
	// RFC 6582 section 3.2 step 5, partial ACK: retransmit the first
	// unacknowledged segment, deflate cwnd by the amount acknowledged and
	// add back one SMSS if that was at least one SMSS, then send new data
	// as the new cwnd allows (output, after this returns).
	r.partials++
	s.retransmit(now, s.una)
	s.cc.Cwnd -= acked
	if acked >= s.smss {
		s.cc.Cwnd += s.smss
	}
	s.cc.Cwnd = max(s.cc.Cwnd, s.smss)
}

// rearmOnAck: RFC 6582 section 3.2 step 5 resets the timer only for the
// first partial ACK (the "Impatient" variant of section 4).
func (r *newRenoRecovery) rearmOnAck() bool { return r.partials == 0 }

// output leaves sending to the sender's loop: new data within the
// inflated cwnd, go-back-N after a timeout.
func (r *newRenoRecovery) output(des.Time) bool { return false }

func (r *newRenoRecovery) retransmitted(seqnum.Value, uint64, bool)    {}
func (r *newRenoRecovery) delivered(des.Time, *sendRecord)             {}
func (r *newRenoRecovery) afterAck(des.Time, seqnum.Value, bool, bool) {}

// timeout resends go-back-N: RFC 2018 section 8 has the sender forget
// SACK state after a timeout, and without SACK recovery nothing uses it.
func (r *newRenoRecovery) timeout() {
	s := r.s
	s.sb.Reset()
	s.nxt = s.una
}
