package cc

import (
	"math"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// maxCwnd bounds every window the loss-based controllers compute, so that
// an algorithm whose growth is exponential in a parameter (Hybla's 2^rho)
// stays finite in int64 however long it runs without loss: 2^50 bytes is a
// petabyte, far beyond any window a path here can fill.
const maxCwnd = 1 << 50

// initialSsthresh is RFC 5681 section 3.1's "arbitrarily high" initial
// ssthresh, the value Reno uses too.
const initialSsthresh = math.MaxInt64 / 2

// window is what the loss-based controllers of this package share: the
// algorithms are written in segments, as their sources are, while State
// counts bytes; window carries the fraction of a byte that a per-ACK
// increase in segments leaves over, so that many small increments add up
// exactly.
type window struct {
	carry float64 // bytes, in [0, 1)
}

// segs returns cwnd in segments.
func segs(s *State) float64 { return float64(s.Cwnd) / float64(s.SMSS) }

// grow adds inc segments (inc >= 0) to cwnd.
func (w *window) grow(s *State, inc float64) {
	if !(inc > 0) { // also rejects NaN
		return
	}
	b := inc*float64(s.SMSS) + w.carry
	if b >= maxCwnd {
		s.Cwnd = maxCwnd
		w.carry = 0
		return
	}
	whole := math.Floor(b)
	w.carry = b - whole
	s.Cwnd = min(s.Cwnd+unit.Bytes(whole), maxCwnd)
}

// setTo sets cwnd to seg segments if that grows it (ACK-driven updates
// never shrink the window).
func (w *window) setTo(s *State, seg float64) { w.grow(s, seg-segs(s)) }

// slowStart is RFC 5681 section 3.1 equation (2), cwnd += min(N, SMSS),
// or with byte counting what abc lets the ACK add (ABC.slowStartStep).
func (w *window) slowStart(s *State, acked unit.Bytes, abc ABC) {
	s.Cwnd = min(s.Cwnd+abc.slowStartStep(s, acked), maxCwnd)
}

// reduce sets ssthresh to factor*cwnd, at least 2 segments (RFC 5681
// equation (4)'s floor, which every algorithm here keeps), and cwnd to
// ssthresh: the multiplicative decrease on entering recovery.
func (w *window) reduce(s *State, factor float64) {
	s.Ssthresh = floorSsthresh(s, factor*float64(s.Cwnd))
	s.Cwnd = s.Ssthresh
	w.carry = 0
}

// timeout is RFC 5681 section 3.1 on a retransmission timeout: ssthresh
// = factor*cwnd (held if the segment was already retransmitted by the
// timer) and cwnd = LW = 1 segment.
func (w *window) timeout(s *State, factor float64, repeated bool) {
	if !repeated {
		s.Ssthresh = floorSsthresh(s, factor*float64(s.Cwnd))
	}
	s.Cwnd = s.SMSS
	w.carry = 0
}

// floorSsthresh converts a threshold in bytes, keeping it at least
// 2*SMSS and finite.
func floorSsthresh(s *State, b float64) unit.Bytes {
	if !(b < maxCwnd) {
		b = maxCwnd
	}
	return max(unit.Bytes(b), 2*s.SMSS)
}

// segmentsAcked is the number of segments an ACK covers, fractional when
// the ACK covers a partial segment.
func segmentsAcked(s *State, a *Ack) float64 { return float64(a.Acked) / float64(s.SMSS) }

// pastSsthresh ends a slow-start step that crossed ssthresh as
// tcp_slow_start does: cwnd stops at ssthresh, and it returns how many of
// the acked segments are left for congestion avoidance (0 while still in
// slow start or exactly at ssthresh).
func pastSsthresh(s *State, acked uint32) uint32 {
	return min(acked, uint32(capAtSsthresh(s)/s.SMSS))
}

// capAtSsthresh stops at ssthresh a cwnd that a slow-start step took past
// it, as tcp_slow_start does, and returns the bytes it was past (0 while
// still in slow start or exactly at ssthresh).
func capAtSsthresh(s *State) unit.Bytes {
	if s.InSlowStart() || s.Cwnd == s.Ssthresh {
		return 0
	}
	over := s.Cwnd - s.Ssthresh
	s.Cwnd = s.Ssthresh
	return over
}
