package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"math"
	"testing"
)

// BIC's per-RTT increase (tcp_bic.c bictcp_update with B = 4, S_max = 16,
// low_window = 14, smooth_part = 20), by hand: far below W_max additive
// S_max; at distance d in (B, B*S_max] a binary-search step d/B; within B
// of W_max the smooth B/smooth_part = 0.2; above W_max max probing, slow
// at first ((cwnd-W_max)/(B-1)) then S_max; Reno at or below low_window;
// before any loss at least 5% per RTT.
func TestBICIncrement(t *testing.T) {
	tests := []struct {
		cwnd, wMax, want float64
	}{
		{10, 1000, 1},          // low window: Reno
		{14, 1000, 1},          //
		{500, 1000, 16},        // (1000-500)/4 = 125 > 16: additive
		{960, 1000, 10},        // (1000-960)/4 = 10: binary search
		{998, 1000, 0.2},       // (1000-998)/4 = 0.5 <= 1: smooth
		{1002, 1000, 0.2},      // just above W_max
		{1030, 1000, 10},       // (1030-1000)/(4-1)
		{1100, 1000, 16},       // beyond W_max + S_max (B-1) = 1048
		{100, 0, 16},           // no loss yet: 16 > 100/20 = 5
		{1000, 0, 1000.0 / 20}, // 5% per RTT beats S_max
	}
	for _, tt := range tests {
		if got := BICIncrement(tt.cwnd, tt.wMax); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("BICIncrement(%v, %v) = %v, want %v", tt.cwnd, tt.wMax, got, tt.want)
		}
	}
}

// After a loss at W_max = 1000 the window climbs from 800 additively by
// S_max = 16 per RTT to 936, then the binary search takes a quarter of the
// remaining distance each RTT (64 -> 48 -> 36 -> 27 -> ...) until it is
// within B = 4 segments of W_max, where it creeps at 0.2 segment per RTT.
// Loss at W = 1000 cuts cwnd to 819/1024 W (and 1/2 at or below
// low_window), and fast convergence lowers W_max to (1 + beta)/2 cwnd when
// the loss comes below the previous W_max.
func TestBICSearchAndDecrease(t *testing.T) {
	b := NewBIC(false)
	s := State{Cwnd: 1000 * smss, SMSS: smss}
	b.Init(&s)
	b.OnCongestionEvent(0, &s, s.Cwnd)
	if want := unit.Bytes(1000 * smss * 819 / 1024); s.Cwnd != want || s.Ssthresh != want {
		t.Fatalf("cwnd, ssthresh after loss at 1000 = %d, %d, want %d", s.Cwnd, s.Ssthresh, want)
	}
	if b.lastMax != 1000 {
		t.Fatalf("W_max = %v, want 1000", b.lastMax)
	}
	// 800 -> 936 is additive (S_max = 16 per RTT): 8.5 RTTs.
	p := pipeFrom(t, b, s, 0, fixedRTT(100e6))
	p.runRounds(9)
	if w := segs(&p.s); math.Abs(w-(800+9*16)) > 2 {
		t.Errorf("after 9 RTTs of additive increase cwnd = %.1f, want %v (+-2)", w, 800+9*16)
	}
	p.runRounds(11)
	w := segs(&p.s)
	if w < 1000-bicB || w > 1000 {
		t.Errorf("after the binary search cwnd = %.2f, want within B = 4 below W_max 1000", w)
	}
	p.runRounds(10)
	if g := segs(&p.s) - w; math.Abs(g-10*0.2) > 0.3 {
		t.Errorf("growth near W_max over 10 RTTs = %.2f segments, want 2 (0.2 per RTT, +-0.3)", g)
	}
	p.s.Cwnd = 900 * smss
	b.OnCongestionEvent(p.now, &p.s, p.s.Cwnd)
	if want := 900 * (1 + bicBeta) / 2; math.Abs(b.lastMax-want) > 1e-9 {
		t.Errorf("fast convergence: W_max = %v, want %v", b.lastMax, want)
	}
	s = State{Cwnd: 12 * smss, SMSS: smss}
	b.Init(&s)
	b.OnCongestionEvent(0, &s, s.Cwnd)
	if s.Cwnd != 6*smss {
		t.Errorf("loss at low window 12: cwnd = %d, want %d (halved)", s.Cwnd, 6*smss)
	}
}
