package phy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestJitterFadeLaw draws Rayleigh pointing errors through Loss and checks
// the empirical distribution of the fade against the closed form
// P(L <= x) = x^beta (Arnon and Kopeika 1997). 200,000 draws: the
// Kolmogorov-Smirnov distance of a correct sampler stays below
// 1.63/sqrt(n) = 0.0036 with probability 0.99.
func TestJitterFadeLaw(t *testing.T) {
	l := Table1()
	j := Jitter{Sigma: 1e-6, Gain: TelescopeGain(l.ApertureTx, l.Wavelength)}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 200000
	xs := make([]float64, n)
	for i := range xs {
		// Independent Gaussian axes, not Draw: the law is checked from
		// its definition.
		theta := math.Hypot(j.Sigma*rng.NormFloat64(), j.Sigma*rng.NormFloat64())
		xs[i] = j.Loss(theta)
	}
	for _, x := range []float64{0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99} {
		c := 0
		for _, v := range xs {
			if v <= x {
				c++
			}
		}
		if d := math.Abs(float64(c)/n - j.FadeCDF(x)); d > 1.63/math.Sqrt(n) {
			t.Errorf("P(L <= %g) = %.5f, closed form %.5f", x, float64(c)/n, j.FadeCDF(x))
		}
	}
	// Draw must follow the same law.
	sum := 0.0
	for i := 0; i < n; i++ {
		sum += j.Draw(rng)
	}
	// Var(L) < 1/4, so the mean of n draws is within 3 x 0.5/sqrt(n).
	if d := math.Abs(sum/n - j.MeanFade()); d > 1.5/math.Sqrt(n) {
		t.Errorf("mean of Draw = %.5f, beta/(beta+1) = %.5f", sum/n, j.MeanFade())
	}
	// The numbers in the package comment: beta 5.4, mean loss 16 %,
	// half the power lost 2.4 % of the time.
	if b := j.Beta(); math.Abs(b-5.41) > 0.01 {
		t.Errorf("beta = %.3f, want 5.41", b)
	}
	if m := j.MeanFade(); math.Abs(1-m-0.156) > 0.001 {
		t.Errorf("mean loss = %.3f, want 0.156", 1-m)
	}
}

// TestJitterMeanOf checks the quadrature against the moments of the
// Beta(beta, 1) law, E[L^k] = beta/(beta+k), and against a step function
// whose mean is the CDF itself, to 1e-3 relative.
func TestJitterMeanOf(t *testing.T) {
	for _, sigma := range []float64{0.2e-6, 1e-6, 3e-6} {
		j := Jitter{Sigma: sigma, Gain: 9.24e10}
		b := j.Beta()
		for _, k := range []float64{1, 2, 0.5} {
			got := j.MeanOf(func(x float64) float64 { return math.Pow(x, k) })
			if want := b / (b + k); math.Abs(got-want) > 1e-3*want {
				t.Errorf("sigma %g: E[L^%g] = %.6f, want %.6f", sigma, k, got, want)
			}
		}
		// E[1{L <= 0.5}] = 0.5^beta, a discontinuous integrand: the
		// trapezoid is off by at most one interval, 1/8 decade.
		got := j.MeanOf(func(x float64) float64 {
			if x <= 0.5 {
				return 1
			}
			return 0
		})
		if want := j.FadeCDF(0.5); math.Abs(got-want) > 0.3*want+1e-30 {
			t.Errorf("sigma %g: P(L <= 0.5) by quadrature %.4g, closed form %.4g", sigma, got, want)
		}
	}
	if got := (Jitter{Gain: 1}).MeanOf(func(x float64) float64 { return x }); got != 1 {
		t.Errorf("no jitter: E[L] = %g, want 1", got)
	}
}

// TestTerminalRange checks the presets' budgets against document 000's
// equations evaluated by hand: with Table 1 optics at 5,000 km the
// received power is 2.63e-6 W (Eq. 3) and the thermal noise at
// Be = 20 GHz is 1.10e-14 A^2 (Eq. 5), an SNR of 5.5e2; at 100 Gbit/s the
// noise is ten times larger. More rate, less range: under thermal noise
// SNR goes as 1/(z^4 Be), so the distance at a given BER scales as
// Be^(-1/4) and the 10 Gbit/s terminal reaches 10^(1/4) = 1.778 times
// farther than the 100 Gbit/s one.
func TestTerminalRange(t *testing.T) {
	t10, _ := TerminalNamed("oct-10g")
	t100, _ := TerminalNamed("isl-100g")
	b := t10.Link.Budget(5000e3, 2*t10.Rate)
	if math.Abs(b.ReceivedPower-2.63e-6) > 0.01e-6 {
		t.Errorf("received power at 5000 km = %.4g W, want 2.63e-6", b.ReceivedPower)
	}
	if math.Abs(b.NoiseSq-1.105e-14) > 0.01e-14 {
		t.Errorf("thermal noise = %.4g A^2, want 1.105e-14", b.NoiseSq)
	}
	r10, r100 := t10.RangeFor(1e-12), t100.RangeFor(1e-12)
	if ratio := r10 / r100; math.Abs(ratio-math.Pow(10, 0.25)) > 1e-4 {
		t.Errorf("range ratio 10G/100G at BER 1e-12 = %.5f, want 10^(1/4) = 1.77828", ratio)
	}
	if _, err := TerminalNamed("x"); err == nil {
		t.Error("TerminalNamed(x): no error")
	}
}
