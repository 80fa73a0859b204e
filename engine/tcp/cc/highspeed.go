package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// HighSpeed TCP parameters, RFC 3649 section 5.
const (
	hsLowWindow    = 38    // Low_Window: at or below it HighSpeed is Standard TCP
	hsHighWindow   = 83000 // High_Window
	hsHighP        = 1e-7  // High_P: the loss rate at which the window is High_Window
	hsHighDecrease = 0.1   // High_Decrease: b(High_Window)
)

// HighSpeed is HighSpeed TCP (RFC 3649): above Low_Window the window grows
// by a(w)/w per acknowledged segment and is cut by b(w)*w on a congestion
// event, with a(w) and b(w) chosen (section 5) so that the response
// function becomes w = 0.12/p^0.835 instead of Standard TCP's 1.2/sqrt(p).
// Slow start is RFC 5681's (RFC 3649 leaves it alone).
type HighSpeed struct {
	w   window
	abc ABC
}

// NewHighSpeed returns HighSpeed TCP.
func NewHighSpeed(abc ABC) *HighSpeed { return &HighSpeed{abc: abc} }

// HighSpeedB is RFC 3649 section 5's decrease parameter:
//
//	b(w) = (High_Decrease - 0.5) (log w - log Low_Window) / (log High_Window - log Low_Window) + 0.5
//
// for w > Low_Window and 0.5 (Standard TCP) below. The formula goes on
// past High_Window (the RFC's table does too: its last row, w = 84035, has
// b = 0.0994 printed as 0.10), but it would reach 0 near w = 5.6e5
// segments; b is held at High_Decrease/2, a floor of ours, from about
// 2.2e5 segments on.
func HighSpeedB(w float64) float64 {
	if w <= hsLowWindow {
		return 0.5
	}
	f := (math.Log(w) - math.Log(hsLowWindow)) / (math.Log(hsHighWindow) - math.Log(hsLowWindow))
	return max((hsHighDecrease-0.5)*f+0.5, hsHighDecrease/2)
}

// HighSpeedA is RFC 3649 section 5's increase parameter:
//
//	a(w) = w^2 p(w) 2 b(w) / (2 - b(w)),  p(w) = 0.078 / w^1.2,
//
// p(w) being the loss rate at which the response function w = 0.12/p^0.835
// gives window w; a(w) = 1 (Standard TCP) at or below Low_Window.
func HighSpeedA(w float64) float64 {
	if w <= hsLowWindow {
		return 1
	}
	b := HighSpeedB(w)
	p := 0.078 / math.Pow(w, 1.2)
	return max(1, w*w*p*2*b/(2-b))
}

// Name implements Controller.
func (h *HighSpeed) Name() string { return "highspeed" }

// Init implements Controller.
func (h *HighSpeed) Init(s *State) {
	s.Ssthresh = initialSsthresh
	h.w = window{}
}

// OnPacketSent implements Controller.
func (h *HighSpeed) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {
}

// OnAck implements Controller: in congestion avoidance, w += a(w)/w per
// segment acknowledged (RFC 3649 section 5).
func (h *HighSpeed) OnAck(s *State, a *Ack) {
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	if s.InSlowStart() {
		h.w.slowStart(s, a.Acked, h.abc)
		return
	}
	w := segs(s)
	h.w.grow(s, HighSpeedA(w)/w*segmentsAcked(s, a))
}

// OnCongestionEvent implements Controller: w = (1 - b(w)) w.
func (h *HighSpeed) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	h.w.reduce(s, 1-HighSpeedB(segs(s)))
}

// OnExitRecovery implements Controller.
func (h *HighSpeed) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: ssthresh = (1 - b(w)) w (held on a repeated
// timeout), cwnd = 1 segment (RFC 5681 section 3.1).
func (h *HighSpeed) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	h.w.timeout(s, 1-HighSpeedB(segs(s)), repeated)
}
