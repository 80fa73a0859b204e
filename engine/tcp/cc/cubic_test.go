package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"

	"math"
	"testing"
)

// The constants of RFC 9438, written out here rather than taken from the
// package (cubicC, cubicBeta), so that a wrong constant in the controller
// fails these tests: section 5 ("C SHOULD be set to 0.4", "beta_cubic
// SHOULD be set to 0.7") and section 4.3, equation (4), alpha_cubic =
// 3 (1 - beta_cubic) / (1 + beta_cubic).
const (
	rfcC     = 0.4 // segments/s^3
	rfcBeta  = 0.7
	rfcAlpha = 3 * (1 - rfcBeta) / (1 + rfcBeta)
)

// RFC 9438 equations (1) and (2): after a loss at W_max the window follows
// W_cubic(t) = C (t - K)^3 + W_max with K = cbrt(W_max (1 - beta_cubic) / C),
// C = 0.4, beta_cubic = 0.7. The controller is driven by the ACK clock of a
// 100 ms path with a fake clock from the loss at W_max = 100 segments
// (K = cbrt(75) = 4.217 s) and cwnd is compared with the formula at several
// times after the epoch began (the first ACK in congestion avoidance), in
// the concave region, at K and in the convex region up to 6 s (from about
// 6.5 s on this path the Reno-friendly W_est of section 4.3 overtakes the
// curve, as TestCubicRenoFriendly checks on a short RTT).
//
// Tolerance: each ACK aims at W_cubic(t + RTT), so cwnd leads the curve by
// up to one RTT's growth where it is steep; 2% of W_max plus one segment
// (the window is sent in whole segments) covers that, and the curve moves
// 21 segments between t = 0.5 s and K, so a wrong K, C or beta fails.
func TestCubicFollowsWCubic(t *testing.T) {
	const wMax = 100
	c := NewCubic(false, ABCOff)
	s := State{Cwnd: wMax * smss, SMSS: smss}
	c.Init(&s)
	c.OnCongestionEvent(0, &s, s.Cwnd)
	if want := unit.Bytes(rfcBeta * wMax * smss); s.Cwnd != want || s.Ssthresh != want {
		t.Fatalf("after the loss: cwnd, ssthresh = %d, %d, want %d (beta_cubic * W_max)", s.Cwnd, s.Ssthresh, want)
	}
	p := pipeFrom(t, c, s, 0, fixedRTT(100e6))
	p.step() // the first ACK starts the epoch
	wantK := math.Cbrt(wMax * (1 - rfcBeta) / rfcC)
	if math.Abs(c.K()-wantK) > 1e-3 {
		t.Fatalf("K = %.4f s, want %.4f s", c.K(), wantK)
	}
	t0 := c.epoch
	for _, ts := range []float64{0.5, 1, 2, 3, 4, 4.217, 5, 6} {
		p.runUntil(t0.Add(des.FromSeconds(ts)))
		got := segs(&p.s)
		want := rfcC*math.Pow(ts-wantK, 3) + wMax
		t.Logf("t = %.3f s: cwnd %.2f, W_cubic %.2f segments", ts, got, want)
		if tol := 0.02*wMax + 1; math.Abs(got-want) > tol {
			t.Errorf("W(%.3f s) = %.2f segments, want %.2f (+-%.1f)", ts, got, want, tol)
		}
	}
}

// RFC 9438 section 4.3: on a short RTT the cubic curve is slower than Reno,
// so the window follows W_est, which grows by alpha_cubic = 3 (1 - 0.7) /
// (1 + 0.7) = 0.529 segments per RTT until it reaches cwnd_prior, then by
// one segment per RTT. With RTT 1 ms and W_max = 100, 50 RTTs after the
// loss W_cubic(0.05 s) is still about 70 segments while W_est is
// 70 + 50 * 0.529 = 96.5. Tolerance: one segment (whole segments sent per
// round, and the per-ACK sum of alpha/cwnd over a growing window).
func TestCubicRenoFriendly(t *testing.T) {
	c := NewCubic(false, ABCOff)
	s := State{Cwnd: 100 * smss, SMSS: smss}
	c.Init(&s)
	c.OnCongestionEvent(0, &s, s.Cwnd)
	p := pipeFrom(t, c, s, 0, fixedRTT(1e6))
	p.runRounds(50)
	got := segs(&p.s)
	want := 70 + 50*rfcAlpha
	if math.Abs(got-want) > 1 {
		t.Errorf("cwnd after 50 RTTs = %.2f segments, want %.2f (+-1)", got, want)
	}
	if w := c.WCubic(float64(p.now-c.epoch) / 1e9); w > got-10 {
		t.Errorf("W_cubic = %.2f, want well below W_est = %.2f (Reno-friendly region)", w, got)
	}
	// Beyond cwnd_prior = 100, alpha_cubic = 1: one segment per RTT.
	p.runRounds(20) // reach 100
	before := segs(&p.s)
	p.runRounds(10)
	if g := segs(&p.s) - before; math.Abs(g-10) > 1 {
		t.Errorf("growth over 10 RTTs above cwnd_prior = %.2f segments, want 10 (+-1)", g)
	}
}

// RFC 9438 sections 4.6 and 4.7: ssthresh = cwnd = 0.7 cwnd on loss, and
// fast convergence: a loss below the previous W_max sets W_max = cwnd
// (1 + 0.7) / 2; section 4.8: a timeout sets cwnd = 1 segment, ssthresh by
// beta_cubic, and the next epoch starts with K = 0 and W_max = cwnd_epoch.
func TestCubicReductions(t *testing.T) {
	c := NewCubic(false, ABCOff)
	s := State{Cwnd: 200 * smss, SMSS: smss}
	c.Init(&s)
	c.OnCongestionEvent(0, &s, s.Cwnd)
	if c.WMax() != 200 || s.Cwnd != 140*smss || s.Ssthresh != 140*smss {
		t.Fatalf("first loss: W_max, cwnd, ssthresh = %v, %d, %d, want 200, %d, %d", c.WMax(), s.Cwnd, s.Ssthresh, 140*smss, 140*smss)
	}
	s.Cwnd = 150 * smss // a second loss before regaining W_max
	c.OnCongestionEvent(1e9, &s, s.Cwnd)
	if want := 150 * (1 + rfcBeta) / 2; math.Abs(c.WMax()-want) > 1e-9 {
		t.Errorf("fast convergence: W_max = %v, want %v", c.WMax(), want)
	}
	if want := unit.Bytes(105 * smss); s.Cwnd != want {
		t.Errorf("second loss: cwnd = %d, want %d", s.Cwnd, want)
	}
	s.Cwnd = 100 * smss
	c.OnRTO(2e9, &s, s.Cwnd, false)
	if s.Cwnd != smss || s.Ssthresh != 70*smss {
		t.Errorf("timeout: cwnd, ssthresh = %d, %d, want %d, %d", s.Cwnd, s.Ssthresh, smss, 70*smss)
	}
	c.OnRTO(3e9, &s, s.Cwnd, true)
	if s.Ssthresh != 70*smss {
		t.Errorf("repeated timeout: ssthresh = %d, want %d held", s.Ssthresh, 70*smss)
	}
	s.Cwnd = 70 * smss // slow start has reached ssthresh
	c.OnAck(&s, &Ack{Now: 4e9, Acked: smss, RTT: 1e8, SRTT: 1e8, MinRTT: 1e8})
	if c.K() != 0 || c.WMax() != 70 {
		t.Errorf("first epoch after a timeout: K, W_max = %v, %v, want 0, 70", c.K(), c.WMax())
	}
}
