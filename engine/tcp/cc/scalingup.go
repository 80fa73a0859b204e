package cc

import (
	"github.com/crosslink-sim/crosslink/engine/des"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// SupLimit is the slow-start threshold and window bound of the "scaling
// up" (Sup) model of document 000 (Rodriguez-Colina et al. 2013, section
// 5.1): the largest window RFC 7323 window scaling can express,
// 65535 x 2^14 bytes, which the document calls 1.07 GB ("1 GB" in its
// pseudo code).
const SupLimit = 65535 << 14

// ConventionalLimit is the slow-start threshold of "conventional" TCP in
// document 000 section 5.1: without the window scale option "the maximum
// value for the slow start threshold (SST) is 65 KB", the largest window a
// 16-bit window field can advertise.
const ConventionalLimit = 65535

// ScalingUp is the window growth of document 000 section 5.1 and its
// Fig. 4. Its pseudo code reads
//
//	if (cwnd < SSTS)   /* this opens the window exponentially */
//	    SSTS = 1GB
//	else               /* congestion avoidance */
//	    cwnd += 1/cwnd
//
// so the slow-start threshold is (re)set to the limit on every ACK taken in
// slow start: the window grows exponentially, RFC 5681 section 3.1
// equation (2), until it reaches the limit, and after a retransmission
// timeout (cwnd = 1 segment, below the threshold) it grows exponentially
// all the way again rather than stopping at half the old window. Above the
// threshold it grows by one segment per window of ACKs, RFC 5681
// equation (3). The document says nothing of losses otherwise; on entering
// fast recovery and on a timeout ScalingUp halves like Reno, RFC 5681
// equation (4). The limit is a threshold, not a cap: like the document's
// conventional curve, the window keeps growing linearly above it (the
// receive window bounds what is sent).
//
// With Limit = SupLimit it is the document's "scaling up" model; with
// Limit = ConventionalLimit it is its "conventional" growth. The Sup
// model's other half, an advertised window that is not capped at 64 KB
// although no window scale option is exchanged, belongs to the receiver,
// not to congestion control.
type ScalingUp struct {
	// Limit is SSTS in bytes.
	Limit unit.Bytes
	w     window
}

// NewScalingUp returns the scaling-up controller with threshold limit in
// bytes (SupLimit or ConventionalLimit).
func NewScalingUp(limit unit.Bytes) *ScalingUp { return &ScalingUp{Limit: limit} }

// Name implements Controller.
func (c *ScalingUp) Name() string { return "scalingup" }

// Init implements Controller: SSTS starts at the limit.
func (c *ScalingUp) Init(s *State) {
	s.Ssthresh = c.Limit
	c.w = window{}
}

// OnPacketSent implements Controller.
func (c *ScalingUp) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {
}

// OnAck implements Controller.
func (c *ScalingUp) OnAck(s *State, a *Ack) {
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	if s.InSlowStart() {
		// Section 5.1: "SSTS = 1GB" whenever cwnd < SSTS.
		s.Ssthresh = c.Limit
		c.w.slowStart(s, a.Acked, ABCOff)
		return
	}
	// Section 5.1: "cwnd += 1/cwnd" in segments, RFC 5681 equation (3).
	c.w.grow(s, segmentsAcked(s, a)/segs(s))
}

// OnCongestionEvent implements Controller: RFC 5681 equation (4).
func (c *ScalingUp) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	s.Ssthresh = halve(s, flightSize)
	s.Cwnd = s.Ssthresh
	c.w.carry = 0
}

// OnExitRecovery implements Controller.
func (c *ScalingUp) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: RFC 5681 section 3.1, ssthresh by
// equation (4) and cwnd = 1 segment; the next ACK in slow start restores
// SSTS to the limit (section 5.1 of document 000).
func (c *ScalingUp) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	if !repeated {
		s.Ssthresh = halve(s, flightSize)
	}
	s.Cwnd = s.SMSS
	c.w.carry = 0
}
