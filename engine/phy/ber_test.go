package phy

import (
	"math"
	"strconv"
	"testing"
)

// relErr returns |got-want|/|want| (|got| when want is 0).
func relErr(got, want float64) float64 {
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

// TestQ checks Q against the standard normal upper tail printed in
// Abramowitz and Stegun, Handbook of Mathematical Functions, Table 26.1
// (P(x) = 1 - Q(x), 15 significant digits) and the tail values of
// Table 26.2; tolerance 1e-13 relative, the last printed digit.
func TestQ(t *testing.T) {
	tests := []struct{ x, want float64 }{
		{0, 0.5},
		{1, 0.158655253931457},
		{2, 0.0227501319481792},
		{3, 1.34989803163009e-3},
		{5, 2.86651571879194e-7},
		{-1, 0.841344746068543},
	}
	for _, tt := range tests {
		if got := Q(tt.x); relErr(got, tt.want) > 1e-13 {
			t.Errorf("Q(%v) = %.15g, want %.15g", tt.x, got, tt.want)
		}
	}
}

// TestEq7IsAsymptoteOfQ checks the reading of Eq. 7 of document 000: it is
// the large-SNR asymptote of the exact OOK form BER = Q(sqrt(SNR)). From
// the asymptotic series Q(x) = phi(x)/x (1 - 1/x^2 + 3/x^4 - ...)
// (Abramowitz and Stegun 26.2.12), Eq7/Q = 1 + 1/SNR - 2/SNR^2 + O(SNR^-3),
// so the ratio minus 1 - 1/SNR stays within 3/SNR^2, and Eq. 7 is always
// the larger (pessimistic) of the two.
func TestEq7IsAsymptoteOfQ(t *testing.T) {
	for _, snr := range []float64{20, 50, 100, 300, 1000} {
		t.Run(strconv.FormatFloat(snr, 'g', -1, 64), func(t *testing.T) {
			e7, q := BEREq7(snr), BERQ(snr)
			ratio := e7 / q
			if d := math.Abs(ratio - 1 - 1/snr); d > 3/(snr*snr) {
				t.Errorf("BEREq7(%v)/BERQ(%v) = %v, want 1+1/SNR = %v within %v", snr, snr, ratio, 1+1/snr, 3/(snr*snr))
			}
			if e7 <= q {
				t.Errorf("BEREq7(%v) = %v <= BERQ = %v, want Eq. 7 above Q", snr, e7, q)
			}
		})
	}
}

// TestBERCap checks that both BER forms stay probabilities: Eq. 7 passes
// 1/2 near SNR = 0.42 and is capped there; no signal gives 1/2.
func TestBERCap(t *testing.T) {
	tests := []struct {
		snr       float64
		e7, qWant float64
	}{
		{0, 0.5, 0.5},
		{0.01, 0.5, Q(0.1)},
		{0.4, 0.5, Q(math.Sqrt(0.4))},
		// Above the cap Eq. 7 is the raw formula.
		{0.5, math.Exp(-0.25) / math.Sqrt(math.Pi), Q(math.Sqrt(0.5))},
	}
	for _, tt := range tests {
		if got := BEREq7(tt.snr); relErr(got, tt.e7) > 1e-15 {
			t.Errorf("BEREq7(%v) = %v, want %v", tt.snr, got, tt.e7)
		}
		if got := BERQ(tt.snr); relErr(got, tt.qWant) > 1e-15 {
			t.Errorf("BERQ(%v) = %v, want %v", tt.snr, got, tt.qWant)
		}
	}
}

// TestWireBits checks Eq. 8's size on the wire: 1500 B x 8 x 66/64 =
// 12375 bits (the document's "mapping ... equal to 1.03125").
func TestWireBits(t *testing.T) {
	if got := WireBits(1500); got != 12375 {
		t.Errorf("WireBits(1500) = %v, want 12375", got)
	}
}

// TestPERWorstVsExact checks that for tiny BER the exact PER
// 1-(1-BER)^n agrees with Eq. 8's linear n BER to first order: their
// ratio is 1 - (n-1) BER/2 + O((n BER)^2), checked to 1e-3 of the
// second-order term (plus 1e-15). The naive float64 formula would miss
// this by 8e-4 at BER 1e-15 (1-1e-15 is stored 9 ulps from 1, 0.08 % off),
// which is why PERExact uses log1p/expm1.
func TestPERWorstVsExact(t *testing.T) {
	const n = 12375 // 1500 B on the wire, Eq. 8
	for _, ber := range []float64{1e-15, 1e-12, 1e-9, 1e-7} {
		t.Run(strconv.FormatFloat(ber, 'g', -1, 64), func(t *testing.T) {
			w, e := PERWorst(ber, n), PERExact(ber, n)
			if w != n*ber {
				t.Errorf("PERWorst(%v, %v) = %v, want %v", ber, n, w, n*ber)
			}
			second := (n - 1) * ber / 2
			ratio := e / w
			if d := math.Abs((1 - ratio) - second); d > 1e-3*second+1e-15 {
				t.Errorf("PERExact/PERWorst at BER %v = %v, want 1 - %v", ber, ratio, second)
			}
		})
	}
}

// TestPERClamp checks that Eq. 8's linear PER is clamped at 1 (a packet
// cannot be lost more than once) while the exact PER approaches 1 from
// below, and both give 0 at BER 0.
func TestPERClamp(t *testing.T) {
	tests := []struct {
		ber, bits    float64
		worst, exact float64
	}{
		{0, 12375, 0, 0},
		{1e-3, 12375, 1, -math.Expm1(12375 * math.Log1p(-1e-3))},
		{0.5, 12375, 1, 1},
		{1, 8, 1, 1},
		{1e-4, 8000, 0.8, 1 - math.Pow(1-1e-4, 8000)}, // naive is accurate to 1e-12 here
	}
	for _, tt := range tests {
		if got := PERWorst(tt.ber, tt.bits); relErr(got, tt.worst) > 1e-15 {
			t.Errorf("PERWorst(%v, %v) = %v, want %v", tt.ber, tt.bits, got, tt.worst)
		}
		if got := PERExact(tt.ber, tt.bits); relErr(got, tt.exact) > 1e-12 {
			t.Errorf("PERExact(%v, %v) = %v, want %v", tt.ber, tt.bits, got, tt.exact)
		}
	}
	if got, want := PER(1e-9, 1500, true), 12375e-9; relErr(got, want) > 1e-15 {
		t.Errorf("PER(1e-9, 1500, worst) = %v, want %v", got, want)
	}
	if got, want := PER(1e-9, 1500, false), PERExact(1e-9, 12375); got != want {
		t.Errorf("PER(1e-9, 1500, exact) = %v, want %v", got, want)
	}
}
