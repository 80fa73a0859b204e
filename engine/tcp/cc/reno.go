package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// Reno is the window growth and reduction of RFC 5681, shared by Reno and
// NewReno (RFC 6582 changes only loss recovery, which the sender owns).
type Reno struct {
	name string
	abc  ABC
	// bytesAcked is RFC 3465 section 2.1's counter for congestion
	// avoidance with byte counting.
	bytesAcked unit.Bytes
}

// NewReno returns the RFC 5681/6582 controller; abc enables RFC 3465.
func NewReno(abc ABC) *Reno { return &Reno{name: "newreno", abc: abc} }

// Name implements Controller.
func (r *Reno) Name() string { return r.name }

// Init implements Controller. RFC 5681 section 3.1: "The initial value of
// ssthresh SHOULD be set arbitrarily high".
func (r *Reno) Init(s *State) {
	s.Ssthresh = math.MaxInt64 / 2
	r.bytesAcked = 0
}

// OnPacketSent implements Controller.
func (r *Reno) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {}

// OnAck implements Controller.
func (r *Reno) OnAck(s *State, a *Ack) {
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	// tcp_reno_cong_avoid does nothing, its byte count included, while
	// cwnd does not limit a Linux host's sender.
	if !a.IsCwndLimited(s) {
		return
	}
	acked := a.Acked
	if s.InSlowStart() {
		s.Cwnd += r.abc.slowStartStep(s, acked)
		if r.abc != ABCUnlimited {
			return
		}
		// Linux's tcp_slow_start stops cwnd at ssthresh, and
		// tcp_reno_cong_avoid hands the segments past it to
		// tcp_cong_avoid_ai: a stretch ACK may carry many.
		if acked = capAtSsthresh(s); acked == 0 {
			return
		}
	}
	if r.abc != ABCOff {
		// RFC 3465 section 2.1: count acked bytes; when they reach cwnd,
		// grow cwnd by SMSS.
		r.bytesAcked += acked
		if r.bytesAcked >= s.Cwnd {
			r.bytesAcked -= s.Cwnd
			s.Cwnd += s.SMSS
		}
		return
	}
	// RFC 5681 section 3.1 equation (3): cwnd += SMSS*SMSS/cwnd, and "if
	// the above formula yields 0, the result SHOULD be rounded up to 1 byte".
	s.Cwnd += max(s.SMSS*s.SMSS/s.Cwnd, 1)
}

// halve is RFC 5681 section 3.1 equation (4): ssthresh = max(FlightSize/2, 2*SMSS).
func halve(s *State, flightSize unit.Bytes) unit.Bytes { return max(flightSize/2, 2*s.SMSS) }

// OnCongestionEvent implements Controller: RFC 5681 section 3.2 step 2 sets
// ssthresh by equation (4); the recovery algorithm then sets cwnd to
// ssthresh plus any inflation (step 3).
func (r *Reno) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	s.Ssthresh = halve(s, flightSize)
	s.Cwnd = s.Ssthresh
	r.bytesAcked = 0
}

// OnExitRecovery implements Controller.
func (r *Reno) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: RFC 5681 section 3.1, ssthresh by equation
// (4) unless the segment was already retransmitted by the timer (then it is
// "held constant"), and cwnd = LW = 1 full-sized segment.
func (r *Reno) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	if !repeated {
		s.Ssthresh = halve(s, flightSize)
	}
	s.Cwnd = s.SMSS
	r.bytesAcked = 0
}
