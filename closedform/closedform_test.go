package closedform

import (
	"math"
	"testing"
)

// TestWireBits checks Eq. 8 of document 000: a 1500-byte packet is
// 1500 x 8 x 66/64 = 12375 bits on the wire (the document's "mapping ...
// equal to 1.03125"), exactly, as it is a power-of-two ratio.
func TestWireBits(t *testing.T) {
	tests := []struct{ bytes, bits float64 }{
		{1500, 12375},
		{64, 528}, // 512 payload bits in eight 66-bit blocks
		{0, 0},
	}
	for _, tt := range tests {
		if got := WireBits(tt.bytes); got != tt.bits {
			t.Errorf("WireBits(%v) = %v, want %v", tt.bytes, got, tt.bits)
		}
	}
}

// TestWindowBounds checks the window-limited rate and the BDP against
// document 001's 64 KB window: 65535 B per 0.5 s round trip is
// 1.04856 Mbit/s, the ceiling its results table shows for GEO paths
// without window scaling; and 1 Gbit/s over 53.3 ms one way (document
// 000's 16,000 km) holds 6.6625 MB. Exact to 1e-15 relative: each is one
// or two floating-point operations.
func TestWindowBounds(t *testing.T) {
	if got, want := WindowRate(65535, 0.5), 1.04856e6; relErr(got, want) > 1e-15 {
		t.Errorf("WindowRate(65535 B, 0.5 s) = %v, want %v", got, want)
	}
	if got, want := BDP(1e9, 0.0533), 6.6625e6; relErr(got, want) > 1e-15 {
		t.Errorf("BDP(1 Gbit/s, 53.3 ms) = %v, want %v", got, want)
	}
	tests := []struct{ window, mss, want float64 }{
		{65535, 1460, 64240}, // 44 whole segments
		{65535, 8960, 62720}, // 7 jumbo segments: a larger MSS fills less
		{2920, 1460, 2920},
	}
	for _, tt := range tests {
		if got := WholeSegments(tt.window, tt.mss); got != tt.want {
			t.Errorf("WholeSegments(%v, %v) = %v, want %v", tt.window, tt.mss, got, tt.want)
		}
	}
}

// TestMathisConstant checks Eq. (3) of Mathis et al. (1997) against the
// constant the paper prints, C = 1.22 for one ACK per segment (to the
// printed two decimals), and its square-root law: four times the loss
// halves the rate (to 1e-15).
func TestMathisConstant(t *testing.T) {
	const mss, rtt = 1000.0, 0.1
	for _, p := range []float64{1e-6, 1e-4, 1e-2} {
		c := Mathis(mss, rtt, p) / (mss * 8 / rtt) * math.Sqrt(p)
		if math.Abs(c-1.22) > 0.005 {
			t.Errorf("Mathis(p = %g): C = %.4f, want 1.22 (Mathis et al. 1997 Eq. 3)", p, c)
		}
		if r := Mathis(mss, rtt, p) / Mathis(mss, rtt, 4*p); relErr(r, 2) > 1e-15 {
			t.Errorf("Mathis(%g) / Mathis(%g) = %v, want 2", p, 4*p, r)
		}
	}
}

// TestPadhyeLimits checks the approximate model of Padhye et al. (1998)
// against what the paper says of it: without timeouts (T0 = 0) it is the
// triple-duplicate model B = 1/RTT sqrt(3/(2bp)), which for b = 1 is
// Mathis et al.'s Eq. (3) (to 1e-15) and for b = 2 (delayed ACKs) has
// the constant 0.87 that Mathis et al. print for delayed ACKs (two
// decimals); timeouts only lower it, and at p = 1 the timeout term
// T0 (1 + 32 p^2) p dominates, so B x T0 x 33 / (8 MSS) is within 5 % of
// 1 for T0 = 1 s, RTT = 10 ms.
func TestPadhyeLimits(t *testing.T) {
	const mss, rtt = 1460.0, 0.2
	for _, p := range []float64{1e-6, 1e-4, 1e-2} {
		if got, want := Padhye(mss, rtt, p, 1, 0), Mathis(mss, rtt, p); relErr(got, want) > 1e-15 {
			t.Errorf("Padhye(p = %g, b = 1, T0 = 0) = %v, want Mathis %v", p, got, want)
		}
		c := Padhye(mss, rtt, p, 2, 0) / (mss * 8 / rtt) * math.Sqrt(p)
		if math.Abs(c-0.87) > 0.005 {
			t.Errorf("Padhye(p = %g, b = 2, T0 = 0): C = %.4f, want 0.87", p, c)
		}
		if with, without := Padhye(mss, rtt, p, 1, 1), Padhye(mss, rtt, p, 1, 0); !(with < without) {
			t.Errorf("Padhye(p = %g): %v with T0 = 1 s, %v without; timeouts must lower it", p, with, without)
		}
	}
	if r := Padhye(mss, 0.01, 1, 1, 1) * 33 / (8 * mss); math.Abs(r-1) > 0.05 {
		t.Errorf("Padhye(p = 1) x T0 x 33 / (8 MSS) = %v, want 1 within 5 %%", r)
	}
	// Padhye et al.'s Eq. (31) printed term by term, at p = 0.01, b = 2,
	// T0 = 1 s, RTT = 0.2 s, MSS = 1460 B: sqrt(2bp/3) = 0.11547,
	// min(1, 3 sqrt(3bp/8)) = 0.25981, 1 + 32p^2 = 1.0032.
	want := 1460 * 8 / (0.2*0.115470 + 1*0.259808*0.01*1.0032)
	if got := Padhye(1460, 0.2, 0.01, 2, 1); relErr(got, want) > 1e-5 {
		t.Errorf("Padhye(1460 B, 0.2 s, 0.01, b = 2, T0 = 1 s) = %v, want %v (1e-5, the terms' six digits)", got, want)
	}
}

func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

// TestPadhyeFull checks Eq. (32) of Padhye et al. (1998) against a value
// worked by hand and against its two limits.
//
// By hand, document 000's 80,000 km row (MSS 1500, RTT 0.5334 s, p = 1e-3,
// b = 1, T0 = 1 s, Wmax = 51 segments): E[Wu] = 1 + sqrt(8 x 0.999/0.003
// + 1) = 52.62 >= Wmax, so the window branch: Q̂(51) = 0.002997 x (1 +
// 0.997003 x 0.04687) / 0.049738 = 0.06308; segments (999 + 51 + 0.06314)
// = 1050.063 per (0.5334 x (6.375 + 19.588 + 2) + 0.06321) = 14.9788 s,
// times 12,000 bits: 0.84124 Mbit/s. Tolerance 1e-4 relative: the hand
// arithmetic keeps five significant digits.
//
// Limits: as p goes to 0 the model is window-limited, Wmax/RTT, with a
// relative error of order p Wmax² (1e-9 x 51² = 2.6e-6 here: 1e-5 allowed);
// with a window that never binds and T0 -> 0 it is Mathis et al.'s
// sqrt(3/(2bp))/RTT up to terms of order sqrt(p) (1e-3 at p = 1e-6: 1 %
// allowed).
func TestPadhyeFull(t *testing.T) {
	if got, want := PadhyeFull(1500, 0.5334, 1e-3, 1, 1, 51), 0.84124e6; relErr(got, want) > 1e-4 {
		t.Errorf("PadhyeFull(80,000 km row) = %v, want %v (worked by hand)", got, want)
	}
	if got, want := PadhyeFull(1500, 0.5334, 1e-9, 1, 1, 51), WindowRate(51*1500, 0.5334); relErr(got, want) > 1e-5 {
		t.Errorf("PadhyeFull(p = 1e-9) = %v, want the window bound %v", got, want)
	}
	if got, want := PadhyeFull(1500, 0.1, 1e-6, 1, 0, math.Inf(1)), Mathis(1500, 0.1, 1e-6); relErr(got, want) > 0.01 {
		t.Errorf("PadhyeFull(p = 1e-6, no window, T0 = 0) = %v, want Mathis %v", got, want)
	}
}
