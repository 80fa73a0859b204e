package cc

import (
	"github.com/crosslink-sim/crosslink/engine/des"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// Westwood+ parameters: Grieco and Mascolo, "Performance evaluation and
// comparison of Westwood+, New Reno, and Vegas TCP congestion control",
// ACM SIGCOMM CCR 34(2), 2004, and Linux net/ipv4/tcp_westwood.c.
const (
	// westwoodMinWindow is the shortest bandwidth sampling interval,
	// tcp_westwood.c's TCP_WESTWOOD_RTT_MIN (HZ/20 = 50 ms): on shorter
	// RTTs the sample spans several round trips.
	westwoodMinWindow = 50 * des.Millisecond
)

// Westwood is TCP Westwood+: it estimates the bandwidth the flow gets from
// the rate of returning ACKs and, on a congestion event, sets ssthresh to
// the window that bandwidth needs at the path's minimum RTT, BWE x RTTmin
// (at least 2 segments), instead of halving blindly; random (non
// congestion) losses therefore cost little. The "+" is the estimator:
// delivered bytes are counted over one RTT (at least 50 ms) and each
// such sample is low-pass filtered, bw = 7/8 bw + 1/8 sample, twice as
// tcp_westwood.c does (westwood_filter). Growth is Reno's.
//
// On duplicate ACKs (Mascolo et al.): ssthresh = max(2, BWE x RTTmin /
// SMSS) segments and cwnd = ssthresh if cwnd is larger; on a timeout the
// same ssthresh and cwnd = 1 segment. Before the first bandwidth sample the
// reduction is Reno's.
type Westwood struct {
	w   window
	abc ABC

	winStart  des.Time // start of the current sampling interval
	started   bool
	bk        unit.Bytes   // bytes delivered in the interval
	delivered unit.Bytes   // Ack.Delivered at the previous ACK
	bwNS      unit.BitRate // first filter stage (bw_ns_est)
	bw        unit.BitRate // BWE (bw_est)
	rttMin    des.Duration
}

// NewWestwood returns TCP Westwood+.
func NewWestwood(abc ABC) *Westwood { return &Westwood{abc: abc} }

// Name implements Controller.
func (c *Westwood) Name() string { return "westwood" }

// Init implements Controller.
func (c *Westwood) Init(s *State) {
	s.Ssthresh = initialSsthresh
	*c = Westwood{abc: c.abc}
}

// OnPacketSent implements Controller.
func (c *Westwood) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {
}

// Bandwidth returns BWE (0 before the first sample).
func (c *Westwood) Bandwidth() unit.BitRate { return c.bw }

// OnAck implements Controller: the estimator sees every ACK, recovery
// included; the window grows as Reno's outside recovery.
func (c *Westwood) OnAck(s *State, a *Ack) {
	if a.RTT > 0 && (c.rttMin == 0 || a.RTT < c.rttMin) {
		c.rttMin = a.RTT
	}
	c.sample(a)
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	if s.InSlowStart() {
		c.w.slowStart(s, a.Acked, c.abc)
		return
	}
	// RFC 5681 equation (3): cwnd += SMSS*SMSS/cwnd per ACK, here per
	// segment acknowledged.
	c.w.grow(s, segmentsAcked(s, a)/segs(s))
}

// sample is westwood_update_window and westwood_filter: close the interval
// when it has lasted one smoothed RTT (at least 50 ms).
func (c *Westwood) sample(a *Ack) {
	if !c.started {
		c.started = true
		c.winStart = a.Now
	}
	// Bytes delivered, SACKed ones included (tcp_westwood.c counts each
	// duplicate ACK as one segment delivered for the same reason: during
	// recovery the cumulative ACK stalls while data still arrives).
	if a.Delivered > 0 {
		if c.delivered > 0 {
			c.bk += max(a.Delivered-c.delivered, 0)
		}
		c.delivered = a.Delivered
	} else {
		c.bk += max(a.Acked, 0)
	}
	rtt := a.SRTT
	if rtt <= 0 {
		return
	}
	delta := a.Now.Sub(c.winStart)
	if delta <= max(rtt, westwoodMinWindow) {
		return
	}
	bw := unit.RateOf(c.bk, delta)
	if c.bw == 0 && c.bwNS == 0 {
		c.bwNS, c.bw = bw, bw
	} else {
		c.bwNS = (7*c.bwNS + bw) / 8
		c.bw = (7*c.bw + c.bwNS) / 8
	}
	c.bk = 0
	c.winStart = a.Now
}

// ssthresh returns BWE x RTTmin in bytes, or -1 without an estimate.
func (c *Westwood) ssthresh() float64 {
	if c.bw <= 0 || c.rttMin <= 0 {
		return -1
	}
	return c.bw.BytesIn(c.rttMin)
}

// OnCongestionEvent implements Controller.
func (c *Westwood) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	b := c.ssthresh()
	if b < 0 {
		c.w.reduce(s, 0.5)
		return
	}
	s.Ssthresh = floorSsthresh(s, b)
	s.Cwnd = min(s.Cwnd, s.Ssthresh)
	c.w.carry = 0
}

// OnExitRecovery implements Controller.
func (c *Westwood) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller.
func (c *Westwood) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	b := c.ssthresh()
	if b < 0 || repeated {
		c.w.timeout(s, 0.5, repeated)
		return
	}
	s.Ssthresh = floorSsthresh(s, b)
	s.Cwnd = s.SMSS
	c.w.carry = 0
}
