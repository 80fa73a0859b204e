package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"math"
	"testing"
)

// Kelly 2003, section 2: in congestion avoidance cwnd += a = 0.01 per
// acknowledged segment, so the window grows by 1% per RTT (a window of
// 1000 segments by 10), and a congestion event cuts it by b = 1/8; below
// the legacy window of 16 segments the rules are Reno's (1 segment per
// RTT, halving). Tolerance for one RTT's growth: the increments are summed
// per ACK exactly, so only the whole-segment sending of the pipe rounds:
// 0.1 segment.
func TestScalableRules(t *testing.T) {
	tests := []struct {
		w          unit.Bytes
		growth     float64 // segments per RTT
		keep       float64 // fraction kept on loss
		wantInc    float64 // per acknowledged segment
		wantFactor float64
	}{
		{1000, 10, 0.875, 0.01, 0.875},
		{100, 1, 0.875, 0.01, 0.875},
		{10, 1, 0.5, 0.1, 0.5},
	}
	for _, tt := range tests {
		if got := ScalableIncrement(float64(tt.w)); math.Abs(got-tt.wantInc) > 1e-12 {
			t.Errorf("ScalableIncrement(%d) = %v, want %v", tt.w, got, tt.wantInc)
		}
		if got := ScalableDecrease(float64(tt.w)); got != tt.wantFactor {
			t.Errorf("ScalableDecrease(%d) = %v, want %v", tt.w, got, tt.wantFactor)
		}
		c := NewScalable(ABCOff)
		p := newPipe(t, c, tt.w, tt.w, fixedRTT(100e6))
		p.runRounds(1)
		if g := segs(&p.s) - float64(tt.w); math.Abs(g-tt.growth) > 0.1 {
			t.Errorf("w = %d: growth in one RTT = %.3f segments, want %v", tt.w, g, tt.growth)
		}
		s := State{Cwnd: tt.w * smss, SMSS: smss}
		c.Init(&s)
		c.OnCongestionEvent(0, &s, s.Cwnd)
		if want := unit.Bytes(tt.keep * float64(tt.w*smss)); s.Cwnd != want || s.Ssthresh != want {
			t.Errorf("w = %d: cwnd, ssthresh after loss = %d, %d, want %d", tt.w, s.Cwnd, s.Ssthresh, want)
		}
	}
}

// Kelly's point: the time to recover from a loss, log(1/(1-b))/log(1+a) =
// 13.4 RTTs, does not depend on the window. From 0.875 W the window is back
// at W after 14 RTTs for W = 200 and for W = 2000 (the per-RTT growth
// compounds at 1% per RTT, so 13.4 rounds up to 14 whole rounds).
func TestScalableRecoveryTime(t *testing.T) {
	want := math.Log(1/(1-scalableB)) / math.Log(1+scalableA)
	for _, w := range []unit.Bytes{200, 2000} {
		c := NewScalable(ABCOff)
		p := newPipe(t, c, w*7/8, w*7/8, fixedRTT(100e6))
		rounds := 0
		for segs(&p.s) < float64(w) {
			p.runRounds(1)
			rounds++
		}
		if math.Abs(float64(rounds)-want) > 1 {
			t.Errorf("W = %d: back at W after %d RTTs, want %.1f (+-1)", w, rounds, want)
		}
	}
}
