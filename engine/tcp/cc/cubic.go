package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// CUBIC constants (RFC 9438 section 5: "C SHOULD be set to 0.4" and
// "beta_cubic SHOULD be set to 0.7").
const (
	cubicC    = 0.4 // segments per second^3
	cubicBeta = 0.7
	// cubicAlpha is section 4.3 equation (5), alpha_cubic =
	// 3 (1 - beta_cubic) / (1 + beta_cubic), which makes the Reno-friendly
	// estimate grow at Reno's average rate given beta_cubic.
	cubicAlpha = 3 * (1 - cubicBeta) / (1 + cubicBeta)
	// cubicMaxGrowth is section 4.2's clamp of the target to 1.5 cwnd, so
	// that the window grows at most by half per RTT.
	cubicMaxGrowth = 1.5
)

// Cubic is CUBIC (RFC 9438). In congestion avoidance the window follows
// equation (1), W_cubic(t) = C (t - K)^3 + W_max, where t is the time since
// the congestion-avoidance stage (epoch) began and K (equation (2)) the
// time the curve takes to climb back to W_max from the window the epoch
// started with; for a reduction by beta_cubic, K = cbrt(W_max (1 -
// beta_cubic) / C). Each ACK moves cwnd towards W_cubic(t + RTT) (section
// 4.4/4.5, concave below W_max and convex above it) unless the
// Reno-friendly estimate W_est is larger (section 4.3). Loss multiplies the
// window by beta_cubic (section 4.6) after fast convergence has lowered
// W_max (section 4.7); a timeout follows section 4.8. Slow start is RFC
// 5681's, ended by Linux's HyStart (LinuxHyStart, tcp_cubic.c) with
// Options.HyStart, or run as HyStart++ (RFC 9406) when
// Options.HyStartVariant asks for it.
//
// Windows are in segments as in the RFC, time in seconds from `now`.
type Cubic struct {
	w   window
	abc ABC
	hs  *HyStart // RFC 9406 HyStart++; nil: not that
	// lhs is Linux's HyStart (tcp_cubic.c); nil: not that. At most one
	// of hs and lhs is set.
	lhs *LinuxHyStart
	// delayMin is tcp_cubic.c's delay_min: the smallest RTT sample, in
	// whole microseconds, outside the first second of an epoch
	// (bictcp_acked); 0 before the first, and again after a timeout
	// (bictcp_reset).
	delayMin des.Duration
	// fastConvergence is section 4.7 (on by default, as the RFC's
	// "SHOULD").
	fastConvergence bool

	wMax      float64  // W_max, segments (0 before the first event)
	cwndPrior float64  // cwnd before the latest reduction (section 4.1.2)
	k         float64  // K, seconds
	epoch     des.Time // t_epoch; valid when inEpoch
	inEpoch   bool
	cwndEpoch float64 // cwnd_epoch, segments
	wEst      float64 // W_est, segments (section 4.3)
	// restart is section 4.8: after a timeout (and before any event) the
	// next epoch takes W_max from its own starting window and K = 0.
	restart bool
}

// NewCubic returns CUBIC; hystart enables Linux's HyStart (the default
// of Linux's tcp_cubic.c, module parameter hystart = 1) and abc RFC 3465
// byte counting in standard slow start.
func NewCubic(hystart bool, abc ABC) *Cubic {
	v := HyStartOff
	if hystart {
		v = HyStartLinux
	}
	return NewCubicHyStart(v, abc)
}

// NewCubicHyStart returns CUBIC with the slow-start exit v.
func NewCubicHyStart(v HyStartVariant, abc ABC) *Cubic {
	c := &Cubic{abc: abc, fastConvergence: true}
	switch v {
	case HyStartLinux:
		c.lhs = &LinuxHyStart{}
		c.lhs.init(0)
	case HyStartRFC9406:
		c.hs = NewHyStart()
	}
	return c
}

// Name implements Controller.
func (c *Cubic) Name() string { return "cubic" }

// Init implements Controller.
func (c *Cubic) Init(s *State) {
	s.Ssthresh = initialSsthresh
	*c = Cubic{abc: c.abc, hs: c.hs, lhs: c.lhs, fastConvergence: c.fastConvergence, restart: true}
	if c.hs != nil {
		c.hs.Reset()
	}
	if c.lhs != nil {
		// bictcp_init: bictcp_hystart_reset at connection start (time
		// 0 here: the first ACK of data starts a new round anyway).
		c.lhs.init(0)
	}
}

// OnPacketSent implements Controller.
func (c *Cubic) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {
	if c.hs != nil {
		c.hs.OnPacketSent(bytes, retransmit)
	}
	if c.lhs != nil && !retransmit {
		c.lhs.sent += bytes
	}
}

// LinuxHyStart returns Linux's HyStart state, or nil when CUBIC runs
// without it.
func (c *Cubic) LinuxHyStart() *LinuxHyStart { return c.lhs }

// DelayMin returns tcp_cubic.c's delay_min (0 before a sample).
func (c *Cubic) DelayMin() des.Duration { return c.delayMin }

// acked is bictcp_acked, the pkts_acked hook, which Linux calls from
// tcp_clean_rtx_queue for every ACK with an RTT sample, before the
// cong_avoid hook and in recovery too: it keeps delay_min and runs
// hystart_update while cwnd is in slow start, at least
// hystart_low_window and the exit not yet found.
func (c *Cubic) acked(s *State, a *Ack) {
	// "Some calls are for duplicates without timetamps": no sample.
	if a.RTT <= 0 {
		return
	}
	// "Discard delay samples right after fast recovery": within HZ of
	// the epoch's start.
	if c.inEpoch && a.Now.Sub(c.epoch) < lhsDiscardAfterEpoch {
		return
	}
	// sample->rtt_us, at least 1.
	delay := max(a.RTT/des.Microsecond*des.Microsecond, des.Microsecond)
	if c.delayMin == 0 || c.delayMin > delay {
		c.delayMin = delay
	}
	if c.lhs != nil && !c.lhs.found && s.InSlowStart() && s.Cwnd >= lhsLowWindow*s.SMSS {
		c.lhs.update(s, a.Now, delay, c.delayMin, a.SRTT, s.PacingRate > 0)
	}
}

// WCubic is RFC 9438 equation (1) for the current epoch: the target window
// in segments t seconds after the epoch began.
func (c *Cubic) WCubic(t float64) float64 {
	d := t - c.k
	return cubicC*d*d*d + c.wMax
}

// K returns the current epoch's K in seconds (equation (2)).
func (c *Cubic) K() float64 { return c.k }

// WMax returns W_max in segments.
func (c *Cubic) WMax() float64 { return c.wMax }

// OnAck implements Controller.
func (c *Cubic) OnAck(s *State, a *Ack) {
	if c.lhs != nil {
		c.lhs.acked += a.Acked
	}
	c.acked(s, a)
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	if s.InSlowStart() {
		hyStartSlowStart(&c.w, c.abc, c.hs, c.lhs, s, a)
		return
	}
	cwnd := segs(s)
	if !c.inEpoch {
		c.startEpoch(a.Now, cwnd)
	}
	t := a.Now.Sub(c.epoch).Seconds()
	acked := segmentsAcked(s, a)

	// Section 4.3 equation (4): W_est += alpha_cubic * segments_acked /
	// cwnd, with alpha_cubic = 1 once W_est has reached cwnd_prior.
	alpha := cubicAlpha
	if c.wEst >= c.cwndPrior {
		alpha = 1
	}
	c.wEst += alpha * acked / cwnd
	if c.WCubic(t) < c.wEst {
		// Reno-friendly region: cwnd = W_est.
		c.w.setTo(s, c.wEst)
		return
	}
	// Sections 4.4 and 4.5: cwnd += (target - cwnd) / cwnd per segment
	// acked, target = W_cubic(t + RTT) clamped to [cwnd, 1.5 cwnd]
	// (section 4.2), RTT the smoothed RTT.
	rtt := a.SRTT
	if rtt <= 0 {
		rtt = a.RTT
	}
	target := min(max(c.WCubic(t+rtt.Seconds()), cwnd), cubicMaxGrowth*cwnd)
	c.w.grow(s, (target-cwnd)/cwnd*acked)
}

// startEpoch begins a congestion-avoidance stage: t_epoch = now,
// cwnd_epoch = cwnd, K from equation (2), W_est = cwnd_epoch (section 4.3).
func (c *Cubic) startEpoch(now des.Time, cwnd float64) {
	c.inEpoch = true
	c.epoch = now
	c.cwndEpoch = cwnd
	c.wEst = cwnd
	if c.restart || c.wMax <= cwnd {
		// Section 4.8 (and the first stage after the initial slow start,
		// or one that begins above W_max): W_max = cwnd_epoch, K = 0.
		c.wMax = cwnd
		c.k = 0
		c.restart = false
		return
	}
	// Equation (2): K = cbrt((W_max - cwnd_epoch) / C).
	c.k = math.Cbrt((c.wMax - cwnd) / cubicC)
}

// lossEvent is sections 4.6 and 4.7: remember cwnd_prior, lower W_max by
// fast convergence if the window did not regain the previous W_max, and
// end the epoch.
func (c *Cubic) lossEvent(s *State) {
	cwnd := segs(s)
	if c.fastConvergence && cwnd < c.wMax {
		c.wMax = cwnd * (1 + cubicBeta) / 2
	} else {
		c.wMax = cwnd
	}
	c.cwndPrior = cwnd
	c.inEpoch = false
	if c.hs != nil {
		c.hs.Stop()
	}
}

// OnCongestionEvent implements Controller: section 4.6, ssthresh =
// max(cwnd * beta_cubic, 2), cwnd = ssthresh. (The RFC notes flight size
// may stand for cwnd; cwnd is what Linux uses and what W_max refers to.)
func (c *Cubic) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	c.lossEvent(s)
	c.restart = false
	c.w.reduce(s, cubicBeta)
}

// OnExitRecovery implements Controller.
func (c *Cubic) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: section 4.8, cwnd = 1 segment as Reno does
// but ssthresh by beta_cubic as in section 4.6, and the first
// congestion-avoidance stage afterwards starts with K = 0 and W_max =
// cwnd_epoch. A repeated timeout holds ssthresh (RFC 5681 section 3.1).
func (c *Cubic) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	if !repeated {
		c.lossEvent(s)
	}
	c.inEpoch = false
	c.restart = true
	c.w.timeout(s, cubicBeta, repeated)
	if c.lhs != nil {
		// bictcp_state(TCP_CA_Loss): bictcp_reset clears delay_min and
		// found, and bictcp_hystart_reset starts a round, so the slow
		// start after the timeout runs HyStart again.
		c.delayMin = 0
		c.lhs.lossReset(now)
	}
}

// hyStartSlowStart is one ACK of CUBIC's slow start with the HyStart it
// runs (hs RFC 9406's, lhs Linux's, at most one set): bictcp_cong_avoid's
// "if (hystart && after(ack, ca->end_seq)) bictcp_hystart_reset(sk)"
// starts Linux HyStart's new round, then HyStart++ or standard slow start
// grows the window.
func hyStartSlowStart(w *window, abc ABC, hs *HyStart, lhs *LinuxHyStart, s *State, a *Ack) {
	if lhs != nil && lhs.acked > lhs.endSeq {
		lhs.resetRound(a.Now)
	}
	if hs != nil && hs.Active() {
		hs.OnAck(s, a)
	} else {
		w.slowStart(s, a.Acked, abc)
	}
}
