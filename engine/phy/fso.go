package phy

import (
	"fmt"
	"math"
)

// Detection is the optical detection scheme of a receiver. It selects the
// noise term of Eq. 1 of document 000.
type Detection uint8

const (
	// Direct detection (intensity modulation, p-i-n photodiode): thermal
	// noise of the load resistor dominates (Eq. 5).
	Direct Detection = iota + 1
	// Coherent detection: shot noise dominates (Eq. 6), which lets the
	// receiver work close to the quantum limit.
	Coherent
)

func (d Detection) String() string {
	switch d {
	case Direct:
		return "direct"
	case Coherent:
		return "coherent"
	}
	return fmt.Sprintf("Detection(%d)", uint8(d))
}

// ParseDetection returns the scheme called s: "direct" or "coherent".
func ParseDetection(s string) (Detection, error) {
	switch s {
	case "direct":
		return Direct, nil
	case "coherent":
		return Coherent, nil
	}
	return 0, fmt.Errorf("phy: unknown detection %q (want direct or coherent)", s)
}

// Responsivity returns the photodetector responsivity in A/W,
// Res = q_e eta lambda / (h c) (Eq. 2), for quantum efficiency eta and
// wavelength lambda in metres.
func Responsivity(eta, lambda float64, k Constants) float64 {
	return k.ElementaryCharge * eta * lambda / (k.Planck * k.LightSpeed)
}

// TelescopeGain returns the gain of a circular telescope aperture of
// diameter d at wavelength lambda, G = (pi d / lambda)^2 (Eq. 4; the
// extracted text prints "pi A / lambda^2", the aperture-diameter form is
// the standard one and the one meant).
func TelescopeGain(d, lambda float64) float64 {
	g := math.Pi * d / lambda
	return g * g
}

// FreeSpaceLoss returns the Friis free-space path factor (lambda/(4 pi z))^2
// of Eq. 3 for distance z in metres.
func FreeSpaceLoss(lambda, z float64) float64 {
	l := lambda / (4 * math.Pi * z)
	return l * l
}

// ReceivedPower returns the received optical power in watts (Eq. 3, Friis):
// PR = PT etaT etaR GT GR (lambda / (4 pi z))^2.
func ReceivedPower(pt, etaT, etaR, gT, gR, lambda, z float64) float64 {
	return pt * etaT * etaR * gT * gR * FreeSpaceLoss(lambda, z)
}

// ThermalNoise returns the mean-square thermal noise current in A^2,
// i^2 = 4 kB T Be / R (Eq. 5), the dominant noise of direct detection, for
// temperature t in kelvin, electrical bandwidth be in hertz and load
// resistance r in ohms.
func ThermalNoise(t, be, r float64, k Constants) float64 {
	return 4 * k.Boltzmann * t * be / r
}

// ShotNoise returns the mean-square shot noise current in A^2,
// i^2 = 2 q_e Res PR Be (Eq. 6), the dominant noise of coherent detection.
func ShotNoise(res, pr, be float64, k Constants) float64 {
	return 2 * k.ElementaryCharge * res * pr * be
}

// SNR returns the electrical signal-to-noise ratio (Res PR)^2 / i_n^2
// (Eq. 1). It is 0 when there is no signal, whatever the noise.
func SNR(res, pr, noiseSq float64) float64 {
	s := res * pr
	if s == 0 {
		return 0
	}
	return s * s / noiseSq
}

// Link is an FSO inter-satellite link: a transmitter, a receiver and the
// constants they are computed with. The zero value is not useful; start
// from Table1.
type Link struct {
	Power             float64 // PT, W
	Wavelength        float64 // lambda, m
	ApertureTx        float64 // transmitter telescope diameter, m
	ApertureRx        float64 // receiver telescope diameter, m
	EfficiencyTx      float64 // etaT, optics efficiency of the transmitter, 0..1
	EfficiencyRx      float64 // etaR, optics efficiency of the receiver, 0..1
	QuantumEfficiency float64 // eta of the p-i-n photodetector, 0..1
	Temperature       float64 // T of the detector, K
	LoadResistance    float64 // R of the front end, ohms
	Detection         Detection
	Constants         Constants
}

// Table1 returns the link of Table 1 of document 000 with direct detection
// and CODATA constants: 0.9 W at 1550 nm, 0.15 m apertures, efficiencies
// 0.75 (the table's "0.75 %" is a typo: 0.75 % would put every curve
// orders of magnitude away from its Fig. 6), a 500 K detector on 50 kOhm.
func Table1() Link {
	return Link{
		Power:             0.9,
		Wavelength:        1550e-9,
		ApertureTx:        0.15,
		ApertureRx:        0.15,
		EfficiencyTx:      0.75,
		EfficiencyRx:      0.75,
		QuantumEfficiency: 0.75,
		Temperature:       500,
		LoadResistance:    50e3,
		Detection:         Direct,
		Constants:         CODATA(),
	}
}

// Budget is the link budget at one distance and electrical bandwidth.
type Budget struct {
	Responsivity  float64 // A/W, Eq. 2
	ReceivedPower float64 // W, Eq. 3
	NoiseSq       float64 // mean-square noise current, A^2, Eq. 5 or 6
	SNR           float64 // linear, Eq. 1
}

// NoiseEquivalentPower returns the optical power in watts whose
// photocurrent equals the RMS noise current, sqrt(i_n^2)/Res, so that
// SNR = (PR/NEP)^2. It is +Inf for a detector with no responsivity.
func (b Budget) NoiseEquivalentPower() float64 {
	if b.Responsivity == 0 {
		return math.Inf(1)
	}
	return math.Sqrt(b.NoiseSq) / b.Responsivity
}

// Budget returns the link budget at distance z (m) for electrical
// bandwidth be (Hz; Be = 2 x bit rate for OOK, Table 1). The noise is the
// dominant term of the link's detection scheme only, as in document 000:
// thermal for direct detection, shot for coherent.
func (l Link) Budget(z, be float64) Budget {
	res := Responsivity(l.QuantumEfficiency, l.Wavelength, l.Constants)
	pr := ReceivedPower(l.Power, l.EfficiencyTx, l.EfficiencyRx,
		TelescopeGain(l.ApertureTx, l.Wavelength), TelescopeGain(l.ApertureRx, l.Wavelength),
		l.Wavelength, z)
	var n float64
	switch l.Detection {
	case Direct:
		n = ThermalNoise(l.Temperature, be, l.LoadResistance, l.Constants)
	case Coherent:
		n = ShotNoise(res, pr, be, l.Constants)
	default:
		panic(fmt.Sprintf("phy: bug: link with detection %v", l.Detection))
	}
	return Budget{Responsivity: res, ReceivedPower: pr, NoiseSq: n, SNR: SNR(res, pr, n)}
}

// DBm returns a power in watts as dBm (-Inf for 0 W).
func DBm(w float64) float64 { return 10*math.Log10(w) + 30 }

// DB returns a linear power ratio in decibels (-Inf for 0).
func DB(x float64) float64 { return 10 * math.Log10(x) }
