package phy

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Random pointing jitter of an optical transmitter.
//
// The far-field main lobe of a transmit telescope of gain G is close to a
// Gaussian beam, so a pointing error theta (rad) off the receiver
// multiplies the received power by
//
//	L(theta) = exp(-G theta^2)
//
// (Arnon and Kopeika, "Laser satellite communication network: vibration
// effect and possible solutions", Proc. IEEE 85(10), 1646-1661, 1997,
// section II; Toyoshima et al., "Optimum divergence angle of a Gaussian
// beam wave in the presence of random jitter", JOSA A 19(3), 567-571,
// 2002, eq. 2, in the divergence form G = 8/theta_div^2). With the
// azimuth and elevation errors independent zero-mean Gaussians of
// standard deviation sigma, theta is Rayleigh distributed and the fade
// L has the Beta(beta, 1) law both papers use:
//
//	P(L <= x) = x^beta,   f(x) = beta x^(beta-1),   beta = 1 / (2 G sigma^2),
//
// since P(theta^2 >= s) = exp(-s / (2 sigma^2)). Its mean is
// beta/(beta+1): a jitter of 1 microradian on a 0.15 m, 1550 nm telescope
// (G = 9.2e10, beta = 5.4) loses 16 % of the power on average and more
// than half of it 2.4 % of the time.
type Jitter struct {
	Sigma float64 // standard deviation of each axis's pointing error, rad
	Gain  float64 // transmit telescope gain G, linear
}

// Beta returns the exponent of the fade law, 1/(2 G sigma^2) (+Inf
// without jitter: no fade).
func (j Jitter) Beta() float64 {
	if j.Sigma == 0 {
		return math.Inf(1)
	}
	return 1 / (2 * j.Gain * j.Sigma * j.Sigma)
}

// Validate reports a jitter that is not a distribution.
func (j Jitter) Validate() error {
	if j.Sigma < 0 || math.IsNaN(j.Sigma) || j.Gain <= 0 {
		return fmt.Errorf("phy: pointing jitter sigma %g rad with gain %g (want sigma >= 0, gain > 0)", j.Sigma, j.Gain)
	}
	return nil
}

// Loss returns the power factor exp(-G theta^2) of a pointing error theta.
func (j Jitter) Loss(theta float64) float64 { return math.Exp(-j.Gain * theta * theta) }

// FadeCDF returns P(L <= x) = x^beta for x in [0, 1].
func (j Jitter) FadeCDF(x float64) float64 {
	if x >= 1 {
		return 1
	}
	if x <= 0 {
		return 0
	}
	return math.Pow(x, j.Beta())
}

// MeanFade returns E[L] = beta/(beta+1).
func (j Jitter) MeanFade() float64 {
	b := j.Beta()
	if math.IsInf(b, 1) {
		return 1
	}
	return b / (b + 1)
}

// Draw returns one fade: the power factor of a pointing error drawn from
// the Rayleigh law, theta = sigma sqrt(-2 ln U), so L = U^(1/beta).
func (j Jitter) Draw(rng *rand.Rand) float64 {
	if j.Sigma == 0 {
		return 1
	}
	u := 1 - rng.Float64() // (0, 1]
	return math.Pow(u, 1/j.Beta())
}

// MeanOf returns E[f(L)] over the fade law for a function f of the power
// factor, such as a PER. With y = L^beta uniform on [0, 1] it is the
// integral of f(y^(1/beta)) dy; with y = exp(-s) it is the integral over
// s >= 0 of f(exp(-s/beta)) exp(-s) ds, taken by Simpson's rule with 32
// steps per decade of y down to y = 1e-30 (the rest adds at most
// 1e-30 max f). A PER changes over decades of y, which even steps in y
// would need millions of points to resolve.
func (j Jitter) MeanOf(f func(x float64) float64) float64 {
	if j.Sigma == 0 {
		return f(1)
	}
	inv := 1 / j.Beta()
	const steps = 32 * 30 // even
	h := 30 * math.Ln10 / steps
	g := func(s float64) float64 { return f(math.Exp(-s*inv)) * math.Exp(-s) }
	sum := g(0) + g(steps*h)
	for k := 1; k < steps; k++ {
		w := 2.0
		if k%2 == 1 {
			w = 4
		}
		sum += w * g(float64(k)*h)
	}
	return sum * h / 3
}
