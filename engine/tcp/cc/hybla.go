package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// Hybla parameters: Caini and Firrincieli, "TCP Hybla: a TCP enhancement
// for heterogeneous networks", Int. J. Satellite Communications and
// Networking 22(5), 2004.
const (
	hyblaRTT0 = 25 * des.Millisecond // RTT0, the reference round-trip time
	// hyblaMaxExp caps the exponent of the slow-start increment 2^rho - 1
	// as Linux net/ipv4/tcp_hybla.c does (min(rho, 16)), so that a
	// 600 ms path (rho = 24) does not add 16 million segments per ACK.
	hyblaMaxExp = 16
)

// Hybla is TCP Hybla: it normalises the window growth to a reference RTT
// RTT0 = 25 ms so that flows with longer RTTs (satellite paths) grow their
// rate as fast as a flow with RTT0 does. With rho = RTT/RTT0 (at least 1),
// each acknowledged segment grows cwnd by 2^rho - 1 segments in slow start
// and by rho^2/cwnd in congestion avoidance, so that cwnd/RTT, the rate,
// follows the same curve in time for every RTT. The decrease is Reno's.
//
// RTT is the smallest RTT seen (the path's propagation RTT), so that the
// flow's own queueing does not raise rho; tcp_hybla.c takes the smoothed
// RTT each time the minimum changes.
type Hybla struct {
	w   window
	abc ABC
	rho float64
}

// NewHybla returns TCP Hybla.
func NewHybla(abc ABC) *Hybla { return &Hybla{abc: abc, rho: 1} }

// Name implements Controller.
func (h *Hybla) Name() string { return "hybla" }

// Init implements Controller.
func (h *Hybla) Init(s *State) {
	s.Ssthresh = initialSsthresh
	h.w = window{}
	h.rho = 1
}

// OnPacketSent implements Controller.
func (h *Hybla) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {}

// HyblaRho is rho = max(RTT/RTT0, 1).
func HyblaRho(rtt des.Duration) float64 { return max(float64(rtt)/float64(hyblaRTT0), 1) }

// HyblaIncrement returns the increase in segments per acknowledged segment
// at window cwnd (segments): 2^rho - 1 in slow start, rho^2/cwnd in
// congestion avoidance.
func HyblaIncrement(rho, cwnd float64, slowStart bool) float64 {
	if slowStart {
		return math.Pow(2, min(rho, hyblaMaxExp)) - 1
	}
	return rho * rho / cwnd
}

// OnAck implements Controller.
func (h *Hybla) OnAck(s *State, a *Ack) {
	if a.MinRTT > 0 {
		h.rho = HyblaRho(a.MinRTT)
	}
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	ss := s.InSlowStart()
	if ss && h.rho == 1 {
		// rho = 1 is Reno, byte counting option included.
		h.w.slowStart(s, a.Acked, h.abc)
		return
	}
	inc := HyblaIncrement(h.rho, segs(s), ss) * segmentsAcked(s, a)
	if ss {
		// Slow start ends at ssthresh (tcp_hybla.c clamps the same way),
		// so one ACK cannot overshoot it by 2^rho segments.
		inc = min(inc, float64(s.Ssthresh-s.Cwnd)/float64(s.SMSS))
	}
	h.w.grow(s, inc)
}

// OnCongestionEvent implements Controller: Reno's halving.
func (h *Hybla) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	h.w.reduce(s, 0.5)
}

// OnExitRecovery implements Controller.
func (h *Hybla) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: RFC 5681 section 3.1.
func (h *Hybla) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	h.w.timeout(s, 0.5, repeated)
}
