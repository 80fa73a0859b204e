package cc

import (
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// The constants of net/ipv4/tcp_cubic.c in Linux 5.13 (module parameters'
// defaults and cubictcp_register's derived scales).
const (
	lcBetaScale = 1024 // BICTCP_BETA_SCALE
	lcBeta      = 717  // beta = 717/1024 ~ 0.7
	lcBicScale  = 41   // bic_scale: C = 41*10/1024 ~ 0.4
	lcHZShift   = 10   // BICTCP_HZ: time in 1/1024 s
	// cube_rtt_scale = bic_scale * 10.
	lcCubeRTTScale = lcBicScale * 10
	// beta_scale = 8*(1024 + beta) / 3 / (1024 - beta) = 15: the
	// Reno-friendly window grows one segment per (cwnd * 15) >> 3
	// segments acknowledged, alpha = 8/15 ~ 3(1-0.7)/(1+0.7).
	lcBetaScaleFriendly = 8 * (lcBetaScale + lcBeta) / 3 / (lcBetaScale - lcBeta)
	// lcHZ is the kernel's tick rate, CONFIG_HZ: 1000 as the config of
	// google/bbr's build (config.gce); a distribution's 250 would make
	// jiffies 4 ms.
	lcHZ = 1000
)

// lcCubeFactor is 2^(10+3*BICTCP_HZ) / (bic_scale * 10): K in 1/1024 s is
// cubic_root(cube_factor * (W_max - cwnd)).
var lcCubeFactor = uint64(1<<(10+3*lcHZShift)) / lcCubeRTTScale

// CubicLinux is CUBIC as net/ipv4/tcp_cubic.c of Linux 5.13 runs it,
// which differs from RFC 9438 (Cubic) in ways that change the window:
//
//   - the target is evaluated at t + delay_min (the minimum RTT, not the
//     smoothed RTT) and reached by cnt, ACKs per segment of growth
//     (cnt = cwnd / (target - cwnd), integer), applied through
//     tcp_cong_avoid_ai; at or above the target cnt = 100 cwnd, a
//     hundredth of a segment per RTT, not zero;
//   - until the first loss (last_max_cwnd = 0, also after every timeout,
//     which resets the state) cnt is at most 20: the window grows at
//     least 5 % per RTT, where RFC 9438 starts a cubic curve from zero
//     slope;
//   - the Reno-friendly window tcp_cwnd gains one segment per
//     (cwnd * 15) >> 3 segments acknowledged (alpha = 8/15, never 1) and
//     only caps cnt at cwnd / (tcp_cwnd - cwnd), so cwnd approaches it
//     over an RTT rather than jumping to it;
//   - cnt is at least 2 (at most half a segment per segment acked: the
//     1.5 cwnd per RTT of RFC 9438's clamp);
//   - windows and ssthresh are whole segments: ssthresh = max(cwnd *
//     717/1024, 2), fast convergence W_max = cwnd * 1741/2048;
//   - time is in jiffies (1 ms at HZ = 1000) and cnt is recomputed at
//     most once per jiffy, or every HZ/32 while cwnd stays the same;
//   - K uses the exact cube root where the kernel's cubic_root uses a
//     table and one Newton step (average error 0.195 %, so cnt may differ
//     by one now and then);
//   - after idle (a send with nothing in flight) the epoch shifts by the
//     idle time (bictcp_cwnd_event, CA_EVENT_TX_START).
//
// Slow start is tcp_slow_start (by Options.ABC's rule here) with Linux's
// HyStart (LinuxHyStart) or, if asked, RFC 9406's HyStart++.
type CubicLinux struct {
	w   window
	abc ABC
	ai  linuxAI
	hs  *HyStart
	lhs *LinuxHyStart

	cnt         uint32
	lastMaxCwnd uint32 // W_max, segments; 0: no loss since the start or the last timeout
	lastCwnd    uint32
	lastTime    int64 // jiffies
	originPoint uint32
	k           uint64 // bic_K, 1/1024 s
	epochStart  int64  // jiffies, valid when inEpoch
	inEpoch     bool
	ackCnt      uint32
	tcpCwnd     uint32
	delayMin    des.Duration // whole microseconds; 0 before a sample

	lastSend des.Time // for the idle shift of the epoch
}

// NewCubicLinux returns Linux's CUBIC with the slow-start exit v.
func NewCubicLinux(v HyStartVariant, abc ABC) *CubicLinux {
	c := &CubicLinux{abc: abc}
	switch v {
	case HyStartLinux:
		c.lhs = &LinuxHyStart{}
	case HyStartRFC9406:
		c.hs = NewHyStart()
	}
	return c
}

// Name implements Controller.
func (c *CubicLinux) Name() string { return "cubic" }

// LinuxHyStart returns Linux's HyStart state, or nil.
func (c *CubicLinux) LinuxHyStart() *LinuxHyStart { return c.lhs }

// DelayMin returns tcp_cubic.c's delay_min (0 before a sample).
func (c *CubicLinux) DelayMin() des.Duration { return c.delayMin }

// reset is bictcp_reset: everything but HyStart's round is cleared.
func (c *CubicLinux) reset() {
	*c = CubicLinux{abc: c.abc, hs: c.hs, lhs: c.lhs, lastSend: c.lastSend}
}

// Init implements Controller (bictcp_init; initial_ssthresh = 0).
func (c *CubicLinux) Init(s *State) {
	s.Ssthresh = initialSsthresh
	c.reset()
	c.lastSend = 0
	if c.hs != nil {
		c.hs.Reset()
	}
	if c.lhs != nil {
		c.lhs.init(0)
	}
}

// jiffies is tcp_jiffies32 at now.
func lcJiffies(now des.Time) int64 { return int64(now) / int64(des.Second/lcHZ) }

// OnPacketSent implements Controller; a send with nothing else in flight
// after idle shifts the epoch by the idle time (bictcp_cwnd_event).
func (c *CubicLinux) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {
	if c.hs != nil {
		c.hs.OnPacketSent(bytes, retransmit)
	}
	if c.lhs != nil && !retransmit {
		c.lhs.sent += bytes
	}
	if inflight == bytes && c.inEpoch {
		if delta := lcJiffies(now) - lcJiffies(c.lastSend); delta > 0 {
			c.epochStart = min(c.epochStart+delta, lcJiffies(now))
		}
	}
	c.lastSend = now
}

// acked is bictcp_acked (see Cubic.acked).
func (c *CubicLinux) acked(s *State, a *Ack) {
	if a.RTT <= 0 {
		return
	}
	if c.inEpoch && lcJiffies(a.Now)-c.epochStart < lcHZ {
		return // "Discard delay samples right after fast recovery"
	}
	delay := max(a.RTT/des.Microsecond*des.Microsecond, des.Microsecond)
	if c.delayMin == 0 || c.delayMin > delay {
		c.delayMin = delay
	}
	if c.lhs != nil && !c.lhs.found && s.InSlowStart() && s.Cwnd >= lhsLowWindow*s.SMSS {
		c.lhs.update(s, a.Now, delay, c.delayMin, a.SRTT, s.PacingRate > 0)
	}
}

// OnAck implements Controller: bictcp_acked, then bictcp_cong_avoid.
func (c *CubicLinux) OnAck(s *State, a *Ack) {
	if c.lhs != nil {
		c.lhs.acked += a.Acked
	}
	c.acked(s, a)
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	// cubictcp_cong_avoid: nothing, not even bictcp_update's count of
	// ACKed packets for TCP friendliness, while cwnd does not limit the
	// sender.
	if !a.IsCwndLimited(s) {
		return
	}
	acked := uint32(a.Acked / s.SMSS)
	if s.InSlowStart() {
		hyStartSlowStart(&c.w, c.abc, c.hs, c.lhs, s, a)
		// tcp_slow_start stops at ssthresh; the segments past it go on
		// into congestion avoidance below.
		if acked = pastSsthresh(s, acked); acked == 0 {
			return
		}
	}
	cwnd := uint32(s.Cwnd / s.SMSS)
	c.update(a.Now, cwnd, acked)
	c.ai.add(s, c.cnt, acked)
}

// update is bictcp_update for cwnd segments and acked segments at now.
func (c *CubicLinux) update(now des.Time, cwnd, acked uint32) {
	j := lcJiffies(now)
	c.ackCnt += acked // "count the number of ACKed packets"
	if c.lastCwnd == cwnd && j-c.lastTime <= lcHZ/32 {
		return
	}
	// "The CUBIC function can update ca->cnt at most once per jiffy."
	if !(c.inEpoch && j == c.lastTime) {
		c.lastCwnd = cwnd
		c.lastTime = j
		if !c.inEpoch {
			c.inEpoch = true
			c.epochStart = j
			c.ackCnt = acked
			c.tcpCwnd = cwnd
			if c.lastMaxCwnd <= cwnd {
				c.k = 0
				c.originPoint = cwnd
			} else {
				c.k = uint64(math.Cbrt(float64(lcCubeFactor * uint64(c.lastMaxCwnd-cwnd))))
				c.originPoint = c.lastMaxCwnd
			}
		}
		// t = jiffies since the epoch + delay_min, in 1/1024 s.
		t := uint64(j - c.epochStart)
		t += uint64((c.delayMin/des.Microsecond + 1e6/lcHZ - 1) / (1e6 / lcHZ)) // usecs_to_jiffies rounds up
		t = (t << lcHZShift) / lcHZ
		var offs uint64
		if t < c.k {
			offs = c.k - t
		} else {
			offs = t - c.k
		}
		delta := uint32((lcCubeRTTScale * offs * offs * offs) >> (10 + 3*lcHZShift))
		target := c.originPoint + delta
		if t < c.k {
			target = c.originPoint - delta
		}
		if target > cwnd {
			c.cnt = cwnd / (target - cwnd)
		} else {
			c.cnt = 100 * cwnd // "very small increment"
		}
		// "The initial growth of cubic function may be too conservative
		// when the available bandwidth is still unknown."
		if c.lastMaxCwnd == 0 && c.cnt > 20 {
			c.cnt = 20
		}
	}
	// TCP friendliness.
	if d := cwnd * lcBetaScaleFriendly >> 3; d > 0 {
		for c.ackCnt > d {
			c.ackCnt -= d
			c.tcpCwnd++
		}
	}
	if c.tcpCwnd > cwnd {
		if maxCnt := cwnd / (c.tcpCwnd - cwnd); c.cnt > maxCnt {
			c.cnt = maxCnt
		}
	}
	// "The maximum rate of cwnd increase CUBIC allows is 1 packet per 2
	// packets ACKed, meaning cwnd grows at 1.5x per RTT."
	c.cnt = max(c.cnt, 2)
}

// recalcSsthresh is bictcp_recalc_ssthresh: the epoch ends, W_max is
// recorded with fast convergence, ssthresh returned in segments.
func (c *CubicLinux) recalcSsthresh(s *State) uint32 {
	cwnd := uint32(s.Cwnd / s.SMSS)
	c.inEpoch = false
	if cwnd < c.lastMaxCwnd {
		c.lastMaxCwnd = cwnd * (lcBetaScale + lcBeta) / (2 * lcBetaScale)
	} else {
		c.lastMaxCwnd = cwnd
	}
	return max(cwnd*lcBeta/lcBetaScale, 2)
}

// OnCongestionEvent implements Controller: ssthresh from
// bictcp_recalc_ssthresh, cwnd = ssthresh (the recovery algorithm then
// owns it), snd_cwnd_cnt cleared (tcp_init_cwnd_reduction).
func (c *CubicLinux) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	s.Ssthresh = unit.Bytes(c.recalcSsthresh(s)) * s.SMSS
	s.Cwnd = s.Ssthresh
	c.ai = linuxAI{}
	c.w.carry = 0
	if c.hs != nil {
		c.hs.Stop() // RFC 9406: HyStart++ runs in the initial slow start only
	}
}

// OnExitRecovery implements Controller.
func (c *CubicLinux) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: tcp_enter_loss takes ssthresh from
// bictcp_recalc_ssthresh (held on a repeated timeout), cwnd = 1 segment,
// and bictcp_state(TCP_CA_Loss) resets CUBIC (W_max, delay_min, the
// epoch) and HyStart's round, so the next slow start runs HyStart again
// and the next epoch starts at K = 0 with the 5 % per RTT floor.
func (c *CubicLinux) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	if !repeated {
		s.Ssthresh = unit.Bytes(c.recalcSsthresh(s)) * s.SMSS
	}
	s.Cwnd = s.SMSS
	c.reset()
	if c.hs != nil {
		c.hs.Stop()
	}
	if c.lhs != nil {
		c.lhs.lossReset(now)
	}
}
