package phy

import (
	"math"
)

// ASEPower returns the amplified spontaneous emission power, in W, that
// one optical amplifier of noise figure nf (linear) and gain g (linear)
// adds at its output in optical bandwidth b (Hz, both polarisations), at
// optical frequency nu (Hz):
//
//	P_ASE = NF h nu G B
//
// This is the high-gain form of P_ASE = 2 n_sp h nu (G - 1) B with
// NF = 2 n_sp (Agrawal, Fiber-Optic Communication Systems, 4th ed.,
// 2010, on amplifier noise; Essiambre et al., J. Lightwave Technol. 28(4),
// 2010),
// the form behind the "58 dB" OSNR rule of thumb and the one
// Mininet-Optical uses (after Gumaste and Antony, DWDM Network Designs and
// Engineering Solutions, Ch. 5). For a 16 dB gain it exceeds the exact
// form by 10 log10(G/(G-1)) = 0.11 dB.
func ASEPower(nf, g, nu, b float64, k Constants) float64 {
	return nf * k.Planck * nu * g * b
}

// AmplifiedLink is a chain of identical spans of fibre, each followed by
// an amplifier, carrying a WDM comb: the optical line between two
// transceivers.
type AmplifiedLink struct {
	Spans       int     // N_s, number of spans (and of amplifiers)
	Fibre       Fibre   // every span
	NoiseFigure float64 // amplifier noise figure, dB
	// Gain is the amplifier gain in dB. 0 means "equal to the span loss",
	// the usual transparent setting; a different gain makes the channel
	// power grow or shrink from span to span.
	Gain      float64
	Comb      Comb
	Constants Constants
}

// StandardLink returns n spans of SSMF (80 km, 0.2 dB/km, 16 dB loss)
// with 5.5 dB noise-figure amplifiers that compensate the span loss,
// carrying 90 channels of 32 GBd on a 50 GHz grid (4.5 THz, the C band):
// the reference link of the GN-model literature and Mininet-Optical's
// defaults (5.5 dB noise figure, 90 channels, 32 GBd, 50 GHz).
func StandardLink(n int) AmplifiedLink {
	return AmplifiedLink{
		Spans:       n,
		Fibre:       SSMF(),
		NoiseFigure: 5.5,
		Comb:        Comb{Channels: 90, SymbolRate: 32e9, Spacing: 50e9},
		Constants:   CODATA(),
	}
}

// AmplifierGain returns the amplifier gain in dB: Gain, or the span loss
// when Gain is 0.
func (l AmplifiedLink) AmplifierGain() float64 {
	if l.Gain == 0 {
		return l.Fibre.Loss()
	}
	return l.Gain
}

// Frequency returns the optical carrier frequency c/lambda in Hz.
func (l AmplifiedLink) Frequency() float64 { return l.Constants.LightSpeed / l.Fibre.Wavelength }

// noise is the link's noise, referred to the transmitter: a channel
// launched at P into the first span reaches the receiver with
// P_ASE(B) = ase B and P_NLI = nli P^3 beside it (both divided by the net
// gain of the whole chain), so that gOSNR = P / (ase B + nli P^3)
// whatever the gain.
type noise struct {
	ase float64 // ASE power spectral density referred to the input, W/Hz
	nli float64 // NLI in the signal bandwidth per P^3, referred to the input, 1/W^2
}

// noise sums the contributions of each span. With r = G/A the net gain of
// one span (A the span loss, linear), the channel enters span j
// (j = 1..N) with P r^(j-1); the span adds eta (P r^(j-1))^3 of NLI, which
// the amplifier after it and the N-j spans beyond multiply by r^(N-j+1);
// amplifier j adds NF h nu G B, multiplied by r^(N-j). Dividing by the
// signal's own net gain r^N refers both to the input:
//
//	ase = NF h nu G sum_j r^-j
//	nli = eta sum_j r^(2(j-1))
//
// For r = 1 this is P_ASE = N NF h nu G B and P_NLI = N eta P^3, the
// incoherent GN model's accumulation.
func (l AmplifiedLink) noise() noise {
	g := FromDB(l.AmplifierGain())
	r := g / FromDB(l.Fibre.Loss())
	perAmp := ASEPower(FromDB(l.NoiseFigure), g, l.Frequency(), 1, l.Constants)
	eta := NLICoefficient(l.Fibre, l.Comb, l.Constants)
	n := float64(l.Spans)
	if r == 1 {
		return noise{ase: n * perAmp, nli: n * eta}
	}
	var sa, sn float64
	rj := 1.0 // r^(j-1)
	for j := 0; j < l.Spans; j++ {
		sn += rj * rj
		rj *= r
		sa += 1 / rj
	}
	return noise{ase: perAmp * sa, nli: eta * sn}
}

// OSNR is the noise budget of one channel at the receiver.
type OSNR struct {
	LaunchPower float64 // P_ch into the first span, W
	ASE         float64 // accumulated ASE in the 0.1 nm reference bandwidth, W (referred to the launch)
	NLI         float64 // accumulated NLI in the 0.1 nm reference bandwidth, W (referred to the launch)
	// GOSNR is the generalised OSNR P_ch/(P_ASE + P_NLI) in the 0.1 nm
	// reference bandwidth (12.5 GHz), linear.
	GOSNR float64
	// GOSNRSignal is the same ratio with noise counted in the signal
	// bandwidth R_s, linear: gOSNR scaled by 12.5 GHz/R_s. It is what
	// Mininet-Optical reports as gOSNR (its amplifiers count ASE in
	// 32 GHz) and, for a dual-polarisation signal, the SNR.
	GOSNRSignal float64
	// OSNRASE is the OSNR with ASE alone in 0.1 nm, linear: the linear
	// regime's OSNR.
	OSNRASE float64
	// OptimumLaunchPower is the launch power that maximises gOSNR, W.
	OptimumLaunchPower float64
	// PeakGOSNR is gOSNR at OptimumLaunchPower in 0.1 nm, linear.
	PeakGOSNR float64
}

// OSNR returns the noise budget of the centre channel launched at p watts
// per channel. With P_ASE = a B and P_NLI = e P^3 (both accumulated over
// the spans and referred to the launch),
//
//	gOSNR(P) = P / (a B + e P^3)
//
// is largest where its derivative vanishes: a B = 2 e P^3, so
//
//	P_opt = (a B / (2 e))^(1/3),  gOSNR_max = P_opt / (3/2 a B)
//
// (Poggiolini 2012, the optimum-power result of the incoherent GN model:
// at the optimum P_NLI = P_ASE/2, the "1/3 NLI" rule). P_opt does not
// depend on B, since both noises scale with it.
func (l AmplifiedLink) OSNR(p float64) OSNR {
	nz := l.noise()
	rs := l.Comb.SymbolRate
	aseRef := nz.ase * RefBandwidth
	// NLI is flat over the channel (NLICoefficient), so its power in
	// 12.5 GHz is P_NLI(R_s) 12.5 GHz / R_s.
	nliSig := nz.nli * p * p * p
	nliRef := nliSig * RefBandwidth / rs
	popt := math.Cbrt(nz.ase * rs / (2 * nz.nli))
	return OSNR{
		LaunchPower:        p,
		ASE:                aseRef,
		NLI:                nliRef,
		GOSNR:              p / (aseRef + nliRef),
		GOSNRSignal:        p / (nz.ase*rs + nliSig),
		OSNRASE:            p / aseRef,
		OptimumLaunchPower: popt,
		PeakGOSNR:          popt / (1.5 * aseRef),
	}
}
