package phy

import "math"

// Fibre is one span of standard fibre between two amplifiers. Its fields
// are in the engineering units the optical literature and crosslink's
// sweep specs use (dB/km, ps/(nm km), 1/(W km)); the methods convert them
// to SI.
type Fibre struct {
	Length      float64 // span length, m
	Attenuation float64 // power attenuation, dB/km (SSMF: 0.2)
	Dispersion  float64 // chromatic dispersion D, ps/(nm km) (SSMF: 16.7 at 1550 nm)
	Gamma       float64 // nonlinear coefficient, 1/(W km) (SSMF: 1.27)
	Wavelength  float64 // centre wavelength, m (1550e-9)
}

// SSMF returns an 80 km span of standard single-mode fibre (ITU-T G.652)
// at 1550 nm: 0.2 dB/km, D = 16.7 ps/(nm km), gamma = 1.27 1/(W km), the
// values of the GN-model literature and of Mininet-Optical's fibre spans
// (the emulator behind document 002: 1.27 1/(W km), D = 16.7 ps/(nm km)).
func SSMF() Fibre {
	return Fibre{Length: 80e3, Attenuation: 0.2, Dispersion: 16.7, Gamma: 1.27, Wavelength: 1550e-9}
}

// Loss returns the span loss in dB, attenuation times length.
func (f Fibre) Loss() float64 { return f.Attenuation * f.Length / 1e3 }

// Alpha returns the power attenuation coefficient in 1/m: dB/km divided
// by 10 log10(e) and by 1000 (power falls as exp(-Alpha z)). Poggiolini's
// field coefficient is Alpha/2.
func (f Fibre) Alpha() float64 { return f.Attenuation / (10 * math.Log10E) / 1e3 }

// EffectiveLength returns L_eff = (1 - exp(-Alpha L)) / Alpha in metres,
// the length over which the nonlinearity acts at the launch power
// (Poggiolini 2012 writes it with the field coefficient alpha = Alpha/2:
// (1 - exp(-2 alpha L))/(2 alpha)).
func (f Fibre) EffectiveLength() float64 {
	a := f.Alpha()
	return -math.Expm1(-a*f.Length) / a
}

// AsymptoticLength returns L_eff,a = 1/Alpha in metres, the effective
// length of an infinitely long span (Poggiolini 2012: 1/(2 alpha)).
func (f Fibre) AsymptoticLength() float64 { return 1 / f.Alpha() }

// Beta2 returns the group-velocity dispersion beta2 = -D lambda^2/(2 pi c)
// in s^2/m (the definition of D = -2 pi c beta2 / lambda^2 in Agrawal,
// Nonlinear Fiber Optics, ch. 1). D = 16.7
// ps/(nm km) at 1550 nm gives -21.3 ps^2/km = -2.13e-26 s^2/m.
func (f Fibre) Beta2(k Constants) float64 {
	d := f.Dispersion * 1e-6 // ps/(nm km) = 1e-12 s / (1e-9 m 1e3 m)
	return -d * f.Wavelength * f.Wavelength / (2 * math.Pi * k.LightSpeed)
}

// Comb is a WDM comb of identical channels.
type Comb struct {
	Channels   int     // N_ch
	SymbolRate float64 // R_s, Bd; the channel's noise bandwidth too
	Spacing    float64 // Delta f, Hz; Nyquist WDM when Spacing = SymbolRate
}

// Bandwidth returns the total bandwidth of the comb, B_WDM = N_ch Delta f.
func (c Comb) Bandwidth() float64 { return float64(c.Channels) * c.Spacing }

// NLICoefficient returns eta, the nonlinear interference power that one
// span generates in the signal bandwidth (R_s) of the centre channel, per
// cubed launch power per channel: P_NLI,span = eta P_ch^3, in 1/W^2.
//
// It is the closed-form incoherent GN model of Poggiolini, "The GN model
// of non-linear propagation in uncompensated coherent optical systems",
// J. Lightwave Technol. 30(24), 2012, for a comb of N_ch channels of flat
// (rectangular) spectrum G_ch = P_ch/R_s, spacing Delta f, evaluated at
// the centre of the comb (its worst channel):
//
//	G_NLI = (8/27) gamma^2 G_ch^3 L_eff^2
//	        asinh((pi^2/2) |beta2| L_eff,a R_s^2 N_ch^(2 R_s/Delta f))
//	        / (pi |beta2| L_eff,a)
//
// (the paper's closed-form "asinh" approximation; for Nyquist
// WDM, Delta f = R_s, the argument is (pi^2/2) |beta2| L_eff,a B_WDM^2
// since R_s^2 N_ch^2 = B_WDM^2; the N_ch^(2 R_s/Delta f) factor extends
// it to spaced channels, after Poggiolini et al., IEEE Photon. Technol.
// Lett. 23(11), 2011). The NLI spectrum is taken flat across the
// channel, so P_NLI = G_NLI R_s and
//
//	eta = (8/27) gamma^2 L_eff^2 asinh(...) / (pi |beta2| L_eff,a R_s^2).
//
// Spans add incoherently (epsilon = 0 in the paper's N_s^(1+epsilon)):
// N_s spans give N_s eta P^3. The GN model overestimates NLI slightly
// for low-order formats (its Gaussian-signal assumption); it is the
// conservative standard of planning tools (GNPy, Mininet-Optical).
func NLICoefficient(f Fibre, c Comb, k Constants) float64 {
	b2 := math.Abs(f.Beta2(k))
	la := f.AsymptoticLength()
	leff := f.EffectiveLength()
	gamma := f.Gamma * 1e-3 // 1/(W km) to 1/(W m)
	rs := c.SymbolRate
	arg := math.Pi * math.Pi / 2 * b2 * la * rs * rs *
		math.Pow(float64(c.Channels), 2*rs/c.Spacing)
	return 8.0 / 27 * gamma * gamma * leff * leff * math.Asinh(arg) /
		(math.Pi * b2 * la * rs * rs)
}

// NLICoefficientSum returns eta as NLICoefficient does, but by summing
// the contribution of every channel of the comb to the centre channel:
// the self-channel term psi_0 = asinh((pi^2/2) |beta2| L_eff,a R_s^2) and,
// for a channel n Delta f away, the cross-channel term
//
//	psi_n = asinh(pi^2 |beta2| L_eff,a R_s (n Delta f + R_s/2))
//	      - asinh(pi^2 |beta2| L_eff,a R_s (n Delta f - R_s/2)),
//
// with G_NLI = (8/27) gamma^2 G_ch^3 L_eff^2 sum_n psi_n / (pi |beta2|
// L_eff,a). This is the per-pair closed form of Poggiolini et al., "A
// detailed analytical derivation of the GN model of non-linear
// interference in coherent optical transmission systems",
// arXiv:1209.0394, Eqs. 120 and 123 (the form GNPy and Mininet-Optical
// compute). It is an independent check of the compact formula: both are
// approximations of the same GN integral, and agree to a few tenths of a
// dB for the C-band combs crosslink uses.
func NLICoefficientSum(f Fibre, c Comb, k Constants) float64 {
	b2 := math.Abs(f.Beta2(k))
	la := f.AsymptoticLength()
	leff := f.EffectiveLength()
	gamma := f.Gamma * 1e-3
	rs := c.SymbolRate
	x := math.Pi * math.Pi * b2 * la * rs
	sum := math.Asinh(x * rs / 2)
	// The centre channel of an odd comb has (N-1)/2 neighbours on each
	// side; an even comb has one more on one side.
	lo, hi := (c.Channels-1)/2, c.Channels/2
	for n := 1; n <= hi; n++ {
		df := float64(n) * c.Spacing
		psi := math.Asinh(x*(df+rs/2)) - math.Asinh(x*(df-rs/2))
		if n <= lo {
			psi *= 2
		}
		sum += psi
	}
	return 8.0 / 27 * gamma * gamma * leff * leff * sum / (math.Pi * b2 * la * rs * rs)
}
