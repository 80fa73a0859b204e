package ci

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestT checks the t quantiles against a printed table (NIST/SEMATECH
// e-Handbook of Statistical Methods, Sect. 1.3.6.7.2, upper critical
// values of Student's t, alpha = 0.025), to the table's three decimals.
func TestT(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want float64
	}{{2, 12.706}, {3, 4.303}, {5, 2.776}, {10, 2.262}, {30, 2.045}, {101, 1.984}} {
		if got := T(0.95, tt.n); math.Abs(got-tt.want) > 5e-4 {
			t.Errorf("T(0.95, %d) = %.4f, want %.3f", tt.n, got, tt.want)
		}
	}
}

func TestStudent(t *testing.T) {
	// x = 1..5: mean 3, s = sqrt(2.5), half = 2.776 * s / sqrt(5).
	mean, sd, half := Student([]float64{1, 2, 3, 4, 5}, 0.95)
	if mean != 3 || math.Abs(sd-math.Sqrt(2.5)) > 1e-12 || math.Abs(half-2.776*math.Sqrt(2.5)/math.Sqrt(5)) > 1e-3 {
		t.Errorf("Student(1..5) = %g, %g, %g", mean, sd, half)
	}
	if _, _, half := Student([]float64{7}, 0.95); !math.IsInf(half, 1) {
		t.Errorf("one value: half %g, want +Inf", half)
	}
}

// TestBootstrap checks that the interval stays inside the data (two runs
// of a loss rate, where a t interval goes below 0), covers the mean, is
// reproducible, and for a large sample has the width the theory gives.
//
// For n = 200 values the resampled means are close to normal (the
// Edgeworth term is O(1/n): the sample below, a sine, has excess kurtosis
// -1.5, which moves the 97.5 % point by 0.03 %), with the plug-in standard
// deviation s sqrt((n-1)/n) / sqrt(n) (Efron & Tibshirani 1993, Sect. 5.2
// and 13.3). So the expected ratio of the bootstrap width to the t width
// is z_{0.975} sqrt((n-1)/n) / t_{0.975, n-1} = 0.991. What remains is the
// Monte Carlo error of the two percentiles of B resamples: the 2.5 and
// 97.5 % order statistics of B normal draws have variances q(1-q)/(B f²)
// and covariance q²/(B f²), q = 0.025, f = phi(z_q)/sigma (the asymptotic
// distribution of sample quantiles, e.g. Efron & Tibshirani Sect. 19.3),
// so the width has a relative standard deviation of
// sqrt(2q(1-q) - 2q²) / (2 z_q phi(z_q) sqrt(B)) = 2.1 % at B = 2000. The
// tolerance is three of those (6.4 %): a correct bootstrap falls outside
// it with probability 0.3 % whatever its seed, while one that took the 5
// and 95 % points (a ratio of 0.84) fails.
func TestBootstrap(t *testing.T) {
	x := []float64{0.1, 3.9}
	lo, hi := Bootstrap(x, 0.95)
	if lo < 0.1 || hi > 3.9 || lo > 2 || hi < 2 {
		t.Errorf("Bootstrap(%v) = [%g, %g], want inside the data around the mean 2", x, lo, hi)
	}
	if mean, _, half := Student(x, 0.95); mean-half >= 0 {
		t.Fatalf("t interval %g ± %g does not leave the physical range: the case is not tested", mean, half)
	}
	if lo2, hi2 := Bootstrap(x, 0.95); lo2 != lo || hi2 != hi {
		t.Errorf("not reproducible: [%g, %g] then [%g, %g]", lo, hi, lo2, hi2)
	}
	// 200 values of a smooth, symmetric sequence.
	var y []float64
	for i := range 200 {
		y = append(y, 10+math.Sin(float64(i)*1.7)*3)
	}
	n := float64(len(y))
	mean, _, half := Student(y, 0.95)
	lo, hi = Bootstrap(y, 0.95)
	const q = 0.025
	std := distuv.UnitNormal
	z := std.Quantile(1 - q)
	want := z * math.Sqrt((n-1)/n) / T(0.95, len(y))
	tol := 3 * math.Sqrt(2*q*(1-q)-2*q*q) / (2 * z * std.Prob(z) * math.Sqrt(Resamples))
	ratio := (hi - lo) / (2 * half)
	t.Logf("n %v: bootstrap width / t width = %.4f, want %.4f ± %.4f", n, ratio, want, tol)
	if math.Abs(ratio-want) > tol || lo > mean || hi < mean {
		t.Errorf("large sample: bootstrap [%g, %g], t %g ± %g: width ratio %.4f, want %.4f ± %.4f (3 Monte Carlo sd)", lo, hi, mean, half, ratio, want, tol)
	}
}
