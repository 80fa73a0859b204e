package cc

import (
	"github.com/crosslink-sim/crosslink/engine/des"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// Scalable TCP parameters, Kelly, "Scalable TCP: improving performance in
// highspeed wide area networks", ACM SIGCOMM CCR 33(2), 2003, section 2.
const (
	scalableA = 0.01  // a: cwnd += a per segment acknowledged
	scalableB = 0.125 // b: cwnd -= b*cwnd on a congestion event
	// scalableLegacy is lwnd, the legacy window: below it Scalable TCP
	// uses Standard TCP's rules, so that it is no more aggressive than
	// Reno where Reno's response function is above its own.
	scalableLegacy = 16
)

// Scalable is Scalable TCP: a multiplicative increase of a = 0.01 segment
// per acknowledged segment (so the window grows by 1% per RTT and recovers
// from a loss in a number of RTTs independent of the window) and a decrease
// by b = 1/8 on a congestion event; Reno below the legacy window of 16
// segments. Slow start is RFC 5681's.
type Scalable struct {
	w   window
	abc ABC
}

// NewScalable returns Scalable TCP.
func NewScalable(abc ABC) *Scalable { return &Scalable{abc: abc} }

// Name implements Controller.
func (c *Scalable) Name() string { return "scalable" }

// Init implements Controller.
func (c *Scalable) Init(s *State) {
	s.Ssthresh = initialSsthresh
	c.w = window{}
}

// OnPacketSent implements Controller.
func (c *Scalable) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {
}

// ScalableIncrement is the congestion-avoidance increase in segments per
// acknowledged segment at window cwnd (segments): a, or Reno's 1/cwnd below
// the legacy window.
func ScalableIncrement(cwnd float64) float64 {
	if cwnd < scalableLegacy {
		return 1 / cwnd
	}
	return scalableA
}

// ScalableDecrease is the fraction of the window kept on a congestion
// event: 1 - b, or Reno's 1/2 below the legacy window.
func ScalableDecrease(cwnd float64) float64 {
	if cwnd < scalableLegacy {
		return 0.5
	}
	return 1 - scalableB
}

// OnAck implements Controller.
func (c *Scalable) OnAck(s *State, a *Ack) {
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	if s.InSlowStart() {
		c.w.slowStart(s, a.Acked, c.abc)
		return
	}
	c.w.grow(s, ScalableIncrement(segs(s))*segmentsAcked(s, a))
}

// OnCongestionEvent implements Controller: cwnd = (1 - b) cwnd.
func (c *Scalable) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	c.w.reduce(s, ScalableDecrease(segs(s)))
}

// OnExitRecovery implements Controller.
func (c *Scalable) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: ssthresh = (1 - b) cwnd (held on a repeated
// timeout), cwnd = 1 segment.
func (c *Scalable) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	c.w.timeout(s, ScalableDecrease(segs(s)), repeated)
}
