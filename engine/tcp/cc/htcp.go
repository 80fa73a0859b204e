package cc

import (
	"github.com/crosslink-sim/crosslink/engine/des"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// H-TCP parameters: Leith and Shorten, "H-TCP: TCP for high-speed and
// long-distance networks", PFLDnet 2004, and Linux net/ipv4/tcp_htcp.c.
const (
	htcpDeltaL  = des.Second // Delta_L: 1 s of Reno-like growth after a congestion event
	htcpBetaMin = 0.5        // lower clamp of the adaptive backoff (BETA_MIN)
	htcpBetaMax = 0.8        // upper clamp (BETA_MAX)
	htcpRTTRef  = 1e8        // RTT scaling reference, 100 ms in ns (tcp_htcp.c: alpha scaled by minRTT/100 ms)
	htcpScaleLo = 0.5        // tcp_htcp.c clamps the scale 100 ms/minRTT to [0.5, 10]
	htcpScaleHi = 10.0
)

// HTCP is H-TCP. The increase depends on the time Delta since the last
// congestion event:
//
//	alpha(Delta) = 1                                          Delta <= Delta_L
//	alpha(Delta) = 1 + 10 (Delta - Delta_L) + ((Delta - Delta_L)/2)^2   otherwise
//
// (Delta in seconds), scaled by 2 (1 - beta) so that the average window
// growth matches Reno's whatever the backoff, and optionally by
// RTTmin/100 ms (RTT scaling, for fairness between flows of different
// RTT). cwnd grows by alpha/cwnd per segment acknowledged. The backoff is
// adaptive: beta = RTTmin/RTTmax, clamped to [0.5, 0.8], which empties the
// queue a flow built up and no more. RTTmax is the largest RTT sample seen
// since the previous congestion event.
//
// Left out: tcp_htcp.c's bandwidth switch (beta falls back to 0.5 when the
// throughput changes by more than 20% between congestion events) and its
// slowly fading RTTmax memory.
type HTCP struct {
	w          window
	abc        ABC
	rttScaling bool

	lastCong des.Time // time of the last congestion event
	started  bool
	beta     float64
	maxRTT   des.Duration // since the last congestion event
	minRTT   des.Duration
}

// NewHTCP returns H-TCP; rttScaling scales alpha by RTTmin/100 ms as
// tcp_htcp.c does by default.
func NewHTCP(rttScaling bool, abc ABC) *HTCP {
	return &HTCP{abc: abc, rttScaling: rttScaling, beta: htcpBetaMin}
}

// Name implements Controller.
func (h *HTCP) Name() string { return "htcp" }

// Init implements Controller.
func (h *HTCP) Init(s *State) {
	s.Ssthresh = initialSsthresh
	*h = HTCP{abc: h.abc, rttScaling: h.rttScaling, beta: htcpBetaMin}
}

// OnPacketSent implements Controller: the first segment starts the clock
// of Delta (tcp_htcp.c sets last_cong when the connection starts).
func (h *HTCP) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {
	if !h.started {
		h.started = true
		h.lastCong = now
	}
}

// HTCPAlpha is the paper's alpha(Delta) for Delta since the last
// congestion event, before any scaling.
func HTCPAlpha(delta des.Duration) float64 {
	if delta <= htcpDeltaL {
		return 1
	}
	d := (delta - htcpDeltaL).Seconds()
	return 1 + 10*d + (d/2)*(d/2)
}

// Alpha returns the increase per RTT in segments at time now: alpha(Delta)
// times 2 (1 - beta), and times RTTmin/100 ms (clamped) with RTT scaling.
func (h *HTCP) Alpha(now des.Time) float64 {
	a := HTCPAlpha(now.Sub(h.lastCong))
	if h.rttScaling && h.minRTT > 0 {
		scale := min(max(htcpRTTRef/float64(h.minRTT), htcpScaleLo), htcpScaleHi)
		a /= scale
	}
	return max(2*(1-h.beta)*a, 0)
}

// Beta returns the backoff factor the next congestion event will use.
func (h *HTCP) Beta() float64 {
	if h.minRTT <= 0 || h.maxRTT <= 0 {
		return htcpBetaMin
	}
	return min(max(float64(h.minRTT)/float64(h.maxRTT), htcpBetaMin), htcpBetaMax)
}

// OnAck implements Controller.
func (h *HTCP) OnAck(s *State, a *Ack) {
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	if a.MinRTT > 0 {
		h.minRTT = a.MinRTT
	}
	if a.RTT > 0 {
		h.maxRTT = max(h.maxRTT, a.RTT)
	}
	if !h.started {
		h.started = true
		h.lastCong = a.Now
	}
	if s.InSlowStart() {
		h.w.slowStart(s, a.Acked, h.abc)
		return
	}
	cwnd := segs(s)
	h.w.grow(s, h.Alpha(a.Now)/cwnd*segmentsAcked(s, a))
}

// backoff sets beta for this event and restarts the clock of Delta and
// the RTTmax measurement.
func (h *HTCP) backoff(now des.Time) float64 {
	h.beta = h.Beta()
	h.lastCong = now
	h.started = true
	h.maxRTT = 0
	return h.beta
}

// OnCongestionEvent implements Controller: ssthresh = cwnd = beta * cwnd.
func (h *HTCP) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	h.w.reduce(s, h.backoff(now))
}

// OnExitRecovery implements Controller.
func (h *HTCP) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: ssthresh = beta * cwnd (held on a repeated
// timeout), cwnd = 1 segment.
func (h *HTCP) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	f := 0.0
	if !repeated {
		f = h.backoff(now)
	}
	h.w.timeout(s, f, repeated)
}
