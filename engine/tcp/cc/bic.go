package cc

import (
	"github.com/crosslink-sim/crosslink/engine/des"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// BIC constants, as Linux net/ipv4/tcp_bic.c sets them (the module
// parameters' defaults), which follow Xu, Harfoush and Rhee, "Binary
// Increase Congestion Control for Fast, Long Distance Networks", INFOCOM
// 2004.
const (
	bicB          = 4            // BICTCP_B: each RTT the search covers 1/B of the distance to W_max
	bicMaxInc     = 16           // max_increment, S_max in the paper, segments per RTT
	bicLowWindow  = 14           // low_window: below it BIC is Reno
	bicBeta       = 819.0 / 1024 // beta: multiplicative decrease to 0.8
	bicSmoothPart = 20           // smooth_part: growth near W_max is B/smooth_part per RTT
	// bicNoLossCap is tcp_bic.c's floor on growth before any loss
	// ("increase cwnd 5% per RTT"): at most 20 ACKs per segment of growth.
	bicNoLossCap = 20
)

// BIC is Binary Increase Congestion control. After a loss at window W_max
// the window drops to beta*W_max and then binary-searches for the
// available window: each RTT it covers a 1/B fraction of the distance to
// W_max (the paper's midpoint search with B = 2), by at most S_max segments (additive
// increase when far below) and at least B/smooth_part of a segment near
// W_max; above W_max it probes slowly at first and then faster ("max
// probing"), again capped at S_max per RTT. With fast convergence, a loss
// below the previous W_max lowers W_max to (1+beta)/2 of the window so
// that a new flow can take its share. Below low_window BIC is Reno.
//
// The per-RTT increment is the inverse of tcp_bic.c's cnt (ACKs per
// segment of growth) times cwnd; it is applied per segment acked as
// increment/cwnd.
type BIC struct {
	w   window
	abc bool
	// lastMax is W_max (tcp_bic.c last_max_cwnd), 0 before any loss.
	lastMax float64
}

// NewBIC returns BIC.
func NewBIC(abc bool) *BIC { return &BIC{abc: abc} }

// Name implements Controller.
func (b *BIC) Name() string { return "bic" }

// Init implements Controller.
func (b *BIC) Init(s *State) {
	s.Ssthresh = initialSsthresh
	*b = BIC{abc: b.abc}
}

// OnPacketSent implements Controller.
func (b *BIC) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {}

// BICIncrement returns BIC's window increase in segments per RTT at window
// cwnd (segments) with the given W_max (bictcp_update).
func BICIncrement(cwnd, wMax float64) float64 {
	if cwnd <= bicLowWindow {
		return 1 // Reno: one segment per RTT
	}
	var inc float64
	switch {
	case cwnd < wMax:
		dist := (wMax - cwnd) / bicB
		switch {
		case dist > bicMaxInc:
			inc = bicMaxInc // additive increase
		case dist <= 1:
			inc = float64(bicB) / bicSmoothPart // close to W_max: smooth
		default:
			inc = dist // binary search
		}
	default:
		// Max probing above W_max: slow start back out of the old maximum.
		switch {
		case cwnd < wMax+bicB:
			inc = float64(bicB) / bicSmoothPart
		case cwnd < wMax+bicMaxInc*(bicB-1):
			inc = (cwnd - wMax) / (bicB - 1)
		default:
			inc = bicMaxInc
		}
	}
	if wMax == 0 {
		// No loss yet: grow at least 5% per RTT.
		inc = max(inc, cwnd/bicNoLossCap)
	}
	return inc
}

// OnAck implements Controller.
func (b *BIC) OnAck(s *State, a *Ack) {
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	if s.InSlowStart() {
		b.w.slowStart(s, a.Acked, b.abc)
		return
	}
	cwnd := segs(s)
	b.w.grow(s, BICIncrement(cwnd, b.lastMax)/cwnd*segmentsAcked(s, a))
}

// beta returns the decrease factor and records W_max with fast
// convergence (bictcp_recalc_ssthresh).
func (b *BIC) beta(s *State) float64 {
	cwnd := segs(s)
	if cwnd < b.lastMax {
		b.lastMax = cwnd * (1 + bicBeta) / 2
	} else {
		b.lastMax = cwnd
	}
	if cwnd <= bicLowWindow {
		return 0.5
	}
	return bicBeta
}

// OnCongestionEvent implements Controller.
func (b *BIC) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	b.w.reduce(s, b.beta(s))
}

// OnExitRecovery implements Controller.
func (b *BIC) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: ssthresh as on loss (held on a repeated
// timeout), cwnd = 1 segment.
func (b *BIC) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	f := 0.0
	if !repeated {
		f = b.beta(s)
	}
	b.w.timeout(s, f, repeated)
}
