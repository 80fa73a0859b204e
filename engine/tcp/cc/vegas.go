package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// Vegas is TCP Vegas (L. S. Brakmo and L. L. Peterson, "TCP Vegas: End to
// End Congestion Avoidance on a Global Internet", IEEE JSAC 13(8), 1995,
// section 3.2; the structure follows Linux net/ipv4/tcp_vegas.c).
//
// Once per round trip it compares the expected rate cwnd/BaseRTT with the
// actual rate cwnd/RTT, where BaseRTT is the smallest RTT seen and RTT the
// smallest of the round trip just ended, and turns the difference into the
// packets the flow keeps queued in the network:
//
//	diff = (expected - actual) * BaseRTT = cwnd * (RTT - BaseRTT) / RTT
//
// In congestion avoidance cwnd grows by one packet when diff < alpha,
// shrinks by one when diff > beta and is otherwise left alone. Slow start
// doubles cwnd only every other round trip, holding it in between so that
// the comparison is made at a fixed window (section 3.3), and ends when
// diff exceeds gamma, cwnd dropping to the expected rate's window plus one
// packet. Loss is handled as Reno does (RFC 5681), as in the paper's
// implementation and in Linux, which falls back to Reno outside the Open
// state.
type Vegas struct {
	alpha, beta, gamma float64 // packets
	reno               Reno

	baseRTT  des.Duration // smallest RTT ever seen (0: none yet)
	roundRTT des.Duration // smallest RTT of the current round trip
	cntRTT   int          // RTT samples in the current round trip
	roundEnd unit.Bytes   // the round ends when an ACK's PriorDelivered reaches this
	ssGrow   bool         // slow start grows during this round trip
}

// Vegas thresholds in packets. Linux's defaults (tcp_vegas.c alpha = 2,
// beta = 4, gamma = 1) are those of New; the paper's experiments use
// alpha = 1 and beta = 3 (section 4).
const (
	VegasAlpha = 2
	VegasBeta  = 4
	VegasGamma = 1
)

// NewVegas returns Vegas with thresholds alpha < beta and gamma, in packets.
func NewVegas(alpha, beta, gamma float64) (*Vegas, error) {
	if alpha <= 0 || beta <= alpha || gamma <= 0 {
		return nil, fmt.Errorf("cc: vegas thresholds alpha %v, beta %v, gamma %v: want 0 < alpha < beta and gamma > 0", alpha, beta, gamma)
	}
	return &Vegas{alpha: alpha, beta: beta, gamma: gamma, reno: Reno{name: "vegas"}}, nil
}

// Name implements Controller.
func (v *Vegas) Name() string { return "vegas" }

// Init implements Controller.
func (v *Vegas) Init(s *State) {
	v.reno.Init(s)
	v.baseRTT = 0
	v.ssGrow = true
	v.resetRound(0)
}

func (v *Vegas) resetRound(delivered unit.Bytes) {
	v.roundEnd = delivered
	v.roundRTT = 0
	v.cntRTT = 0
}

// BaseRTT returns the smallest RTT seen.
func (v *Vegas) BaseRTT() des.Duration { return v.baseRTT }

// OnPacketSent implements Controller.
func (v *Vegas) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {}

// OnAck implements Controller.
func (v *Vegas) OnAck(s *State, a *Ack) {
	if a.RTT > 0 {
		if v.baseRTT == 0 || a.RTT < v.baseRTT {
			v.baseRTT = a.RTT
		}
		if v.roundRTT == 0 || a.RTT < v.roundRTT {
			v.roundRTT = a.RTT
		}
		v.cntRTT++
	}
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	if a.Rate.Delivered <= 0 || a.Rate.PriorDelivered < v.roundEnd {
		// Within a round trip only slow start moves cwnd, and only in its
		// growing round trips.
		if s.InSlowStart() && v.ssGrow {
			v.reno.OnAck(s, a)
		}
		return
	}
	// A round trip ended (Linux: the ACK passes beg_snd_nxt).
	if v.cntRTT <= 2 {
		// Too few samples for a fair comparison (tcp_vegas.c: "we don't
		// have enough RTT samples to do the Vegas calculation").
		v.reno.OnAck(s, a)
	} else {
		v.adjust(s)
	}
	v.resetRound(a.Delivered)
}

// adjust is the once-per-RTT decision of section 3.2 and 3.3.
func (v *Vegas) adjust(s *State) {
	rtt := float64(v.roundRTT)
	base := float64(v.baseRTT)
	cwnd := float64(s.Cwnd) / float64(s.SMSS)
	diff := cwnd * (rtt - base) / rtt
	switch {
	case s.InSlowStart() && diff > v.gamma:
		// Leave slow start at the window the expected rate fills, plus one
		// packet (tcp_vegas.c: min(cwnd, target_cwnd+1)).
		target := unit.Bytes(cwnd*base/rtt+1) * s.SMSS
		s.Cwnd = min(s.Cwnd, target)
		s.Ssthresh = min(s.Ssthresh, s.Cwnd-s.SMSS)
	case s.InSlowStart():
		v.ssGrow = !v.ssGrow
	case diff > v.beta:
		s.Cwnd -= s.SMSS
		s.Ssthresh = min(s.Ssthresh, s.Cwnd-s.SMSS)
	case diff < v.alpha:
		s.Cwnd += s.SMSS
	}
	// tcp_vegas.c keeps at least two packets.
	s.Cwnd = max(s.Cwnd, 2*s.SMSS)
}

// OnCongestionEvent implements Controller: Reno's halving (RFC 5681
// equation (4)).
func (v *Vegas) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	v.reno.OnCongestionEvent(now, s, flightSize)
}

// OnExitRecovery implements Controller: the comparison restarts with a
// fresh round trip (tcp_vegas.c vegas_enable on returning to Open).
func (v *Vegas) OnExitRecovery(now des.Time, s *State) { v.roundRTT, v.cntRTT = 0, 0 }

// OnRTO implements Controller: Reno's timeout response.
func (v *Vegas) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	v.reno.OnRTO(now, s, flightSize, repeated)
	v.roundRTT, v.cntRTT = 0, 0
	v.ssGrow = true
}
