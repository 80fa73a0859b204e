package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"math"
	"testing"
)

// rfc3649Table is RFC 3649 Appendix B, "A table for a(w) and b(w)", from
// Low_Window = 38 to the last row below High_Window = 83000: the window w
// at which a(w) reaches each integer 1..71, with b(w) to two decimals (as
// Linux's tcp_highspeed.c reproduces it, "From AIMD tables from RFC 3649
// appendix B").
var rfc3649Table = []struct {
	w float64
	b float64
}{
	{38, 0.50}, {118, 0.44}, {221, 0.41}, {347, 0.38}, {495, 0.37}, {663, 0.35},
	{851, 0.34}, {1058, 0.33}, {1284, 0.32}, {1529, 0.31}, {1793, 0.30}, {2076, 0.29},
	{2378, 0.28}, {2699, 0.28}, {3039, 0.27}, {3399, 0.27}, {3778, 0.26}, {4177, 0.26},
	{4596, 0.25}, {5036, 0.25}, {5497, 0.24}, {5979, 0.24}, {6483, 0.23}, {7009, 0.23},
	{7558, 0.22}, {8130, 0.22}, {8726, 0.22}, {9346, 0.21}, {9991, 0.21}, {10661, 0.21},
	{11358, 0.20}, {12082, 0.20}, {12834, 0.20}, {13614, 0.19}, {14424, 0.19}, {15265, 0.19},
	{16137, 0.19}, {17042, 0.18}, {17981, 0.18}, {18955, 0.18}, {19965, 0.17}, {21013, 0.17},
	{22101, 0.17}, {23230, 0.17}, {24402, 0.16}, {25618, 0.16}, {26881, 0.16}, {28193, 0.16},
	{29557, 0.15}, {30975, 0.15}, {32450, 0.15}, {33986, 0.15}, {35586, 0.14}, {37253, 0.14},
	{38992, 0.14}, {40808, 0.14}, {42707, 0.13}, {44694, 0.13}, {46776, 0.13}, {48961, 0.13},
	{51258, 0.13}, {53677, 0.12}, {56230, 0.12}, {58932, 0.12}, {61799, 0.12}, {64851, 0.11},
	{68113, 0.11}, {71617, 0.11}, {75401, 0.10}, {79517, 0.10}, {84035, 0.10},
}

// RFC 3649 section 5's a(w) and b(w) against its Appendix B table, row i
// having a(w) = i+1. Tolerance: the table prints a(w) as an integer and
// b(w) to two decimals, so |a - a_table| < 0.5 and |b - b_table| <= 0.005
// (plus 1e-9 for 75401, whose b = 0.1050 sits on the rounding edge).
// The largest deviations found are 0.05 in a and 0.005 in b.
func TestHighSpeedRFC3649Table(t *testing.T) {
	var worstA, worstB float64
	for i, row := range rfc3649Table {
		wantA := float64(i + 1)
		a, b := HighSpeedA(row.w), HighSpeedB(row.w)
		worstA, worstB = max(worstA, math.Abs(a-wantA)), max(worstB, math.Abs(b-row.b))
		if math.Abs(a-wantA) >= 0.5 {
			t.Errorf("a(%v) = %.3f, want %v", row.w, a, wantA)
		}
		if math.Abs(b-row.b) > 0.005+1e-9 {
			t.Errorf("b(%v) = %.4f, want %.2f", row.w, b, row.b)
		}
	}
	t.Logf("largest deviation from the table: a %.3f, b %.4f", worstA, worstB)
	// At and below Low_Window HighSpeed is Standard TCP.
	for _, w := range []float64{1, 10, 38} {
		if a, b := HighSpeedA(w), HighSpeedB(w); a != 1 || b != 0.5 {
			t.Errorf("a, b(%v) = %v, %v, want 1, 0.5", w, a, b)
		}
	}
}

// The controller applies the table: w += a(w)/w per acknowledged segment
// (so a(w) segments per RTT) and w -= b(w) w on a congestion event.
// Tolerance for the growth over one RTT: one segment (whole segments are
// sent and a(w) changes little within the round).
func TestHighSpeedWindow(t *testing.T) {
	for _, w := range []unit.Bytes{30, 1058, 10661} {
		h := NewHighSpeed(ABCOff)
		p := newPipe(t, h, w, w, fixedRTT(50e6))
		p.runRounds(1)
		grew := segs(&p.s) - float64(w)
		if want := HighSpeedA(float64(w)); math.Abs(grew-want) > 1 {
			t.Errorf("w = %d: growth in one RTT = %.2f segments, want a(w) = %.2f", w, grew, want)
		}
		s := State{Cwnd: w * smss, SMSS: smss}
		h.Init(&s)
		h.OnCongestionEvent(0, &s, s.Cwnd)
		want := unit.Bytes((1 - HighSpeedB(float64(w))) * float64(w*smss))
		if s.Cwnd != want || s.Ssthresh != want {
			t.Errorf("w = %d: cwnd, ssthresh after loss = %d, %d, want %d", w, s.Cwnd, s.Ssthresh, want)
		}
	}
}
