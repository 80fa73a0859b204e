package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// HyStart++ constants, RFC 9406 section 4.3 (the RECOMMENDED values).
const (
	hsMinRTTThresh  = 4 * des.Millisecond  // MIN_RTT_THRESH
	hsMaxRTTThresh  = 16 * des.Millisecond // MAX_RTT_THRESH
	hsMinRTTDivisor = 8                    // MIN_RTT_DIVISOR
	hsNRTTSample    = 8                    // N_RTT_SAMPLE
	hsCSSGrowthDiv  = 4                    // CSS_GROWTH_DIVISOR
	hsCSSRounds     = 5                    // CSS_ROUNDS
	hsLNonPaced     = 8                    // L for a sender that does not pace
	hsInfinity      = des.Duration(math.MaxInt64)
)

// HyStart is HyStart++ (RFC 9406): slow start that watches the minimum RTT
// of each round and, when it rises by more than a threshold (section 4.2),
// leaves standard slow start for Conservative Slow Start (CSS), which grows
// a quarter as fast for up to CSS_ROUNDS rounds before congestion
// avoidance begins, or returns to slow start if the RTT falls back.
//
// A round (section 4.2: it ends when an ACK covers windowEnd, the SND.NXT
// of its start) is kept here by byte counts: windowEnd is the count of new
// bytes sent when the round starts, and the round ends when the count of
// cumulatively acknowledged bytes reaches it.
//
// It is used only for the initial slow start (section 4.3: "An
// implementation SHOULD use HyStart++ only for the initial slow start");
// the owner calls Stop on the first congestion event.
type HyStart struct {
	sent, acked unit.Bytes // bytes of new data sent, bytes cumulatively acked
	windowEnd   unit.Bytes
	started     bool

	lastRoundMinRTT    des.Duration
	currentRoundMinRTT des.Duration
	rttSampleCount     int

	inCSS             bool
	cssBaselineMinRTT des.Duration
	cssRounds         int
	stopped           bool
}

// NewHyStart returns HyStart++ ready for the initial slow start.
func NewHyStart() *HyStart {
	h := &HyStart{}
	h.Reset()
	return h
}

// Reset prepares for a new connection's initial slow start.
func (h *HyStart) Reset() {
	*h = HyStart{lastRoundMinRTT: hsInfinity, currentRoundMinRTT: hsInfinity, cssBaselineMinRTT: hsInfinity}
}

// Active reports whether HyStart++ still governs slow start.
func (h *HyStart) Active() bool { return !h.stopped }

// InCSS reports whether the sender is in Conservative Slow Start.
func (h *HyStart) InCSS() bool { return h.inCSS && !h.stopped }

// Stop ends HyStart++: RFC 9406 section 4.2, "If loss or ECN marking is
// observed anytime during standard slow start or CSS", the congestion
// controller sets ssthresh and congestion avoidance begins.
func (h *HyStart) Stop() { h.stopped = true; h.inCSS = false }

// OnPacketSent counts new data for the round boundaries.
func (h *HyStart) OnPacketSent(bytes unit.Bytes, retransmit bool) {
	if !retransmit {
		h.sent += bytes
	}
}

// OnAck runs section 4.2 for one ACK in slow start: it grows cwnd by
// min(N, L*SMSS) (a quarter of that in CSS) and, once CSS has lasted
// CSS_ROUNDS rounds, sets ssthresh = cwnd instead, so that congestion
// avoidance starts, and stops.
func (h *HyStart) OnAck(s *State, a *Ack) {
	if h.stopped || a.Acked <= 0 {
		return
	}
	// The ACK that covers windowEnd ends its round (and its RTT sample
	// belongs to it); the next one starts the new round.
	if !h.started || h.acked >= h.windowEnd {
		h.newRound()
		if h.inCSS && h.cssRounds > hsCSSRounds {
			// "If CSS_ROUNDS rounds are complete, enter congestion
			// avoidance by setting the ssthresh to the current cwnd."
			s.Ssthresh = s.Cwnd
			h.Stop()
			return
		}
	}
	h.acked += a.Acked
	// L = infinity for a paced sender, 8 otherwise (section 4.3).
	inc := a.Acked
	if s.PacingRate <= 0 {
		inc = min(inc, hsLNonPaced*s.SMSS)
	}
	if h.inCSS {
		inc /= hsCSSGrowthDiv
	}
	s.Cwnd = min(s.Cwnd+inc, maxCwnd)

	if a.RTT > 0 {
		h.currentRoundMinRTT = min(h.currentRoundMinRTT, a.RTT)
		h.rttSampleCount++
	}
	if h.rttSampleCount < hsNRTTSample || h.currentRoundMinRTT == hsInfinity {
		return
	}
	if !h.inCSS {
		if h.lastRoundMinRTT == hsInfinity {
			return
		}
		thresh := max(hsMinRTTThresh, min(h.lastRoundMinRTT/hsMinRTTDivisor, hsMaxRTTThresh))
		if h.currentRoundMinRTT >= h.lastRoundMinRTT+thresh {
			h.cssBaselineMinRTT = h.currentRoundMinRTT
			h.inCSS = true
			// "If the transition into CSS happens in the middle of a
			// round, that partial round counts towards the limit."
			h.cssRounds = 1
		}
		return
	}
	if h.currentRoundMinRTT < h.cssBaselineMinRTT {
		// The exit was spurious: resume slow start.
		h.cssBaselineMinRTT = hsInfinity
		h.inCSS = false
		h.cssRounds = 0
	}
}

// newRound is section 4.2 "At the start of each round": it also counts the
// CSS rounds and ends CSS after CSS_ROUNDS.
func (h *HyStart) newRound() {
	h.started = true
	h.windowEnd = h.sent
	h.lastRoundMinRTT = h.currentRoundMinRTT
	h.currentRoundMinRTT = hsInfinity
	h.rttSampleCount = 0
	if h.inCSS {
		h.cssRounds++
	}
}
