package phy

import (
	"fmt"
	"math"
)

// Terminal is an optical inter-satellite terminal: the link budget of its
// transmitter and receiver (document 000's equations) and the bit rate
// it runs at, with the source of its numbers.
type Terminal struct {
	Name   string
	Link   Link
	Rate   float64 // bit/s
	Source string
}

// Terminal presets. Both take document 000's Table 1 optics (0.9 W at
// 1550 nm, 0.15 m telescopes, efficiencies 0.75, a 500 K detector on
// 50 kOhm, direct detection) and differ in the bit rate, which sets the
// electrical bandwidth Be = 2 x rate (Table 1's convention for OOK) and
// so the thermal noise. 10 Gbit/s is the rate of the Space Development
// Agency's optical terminal standard (SDA, "Optical Communications
// Terminal (OCT) Standard", version 3.1, 2022: 2.5 and 10 Gbit/s modes);
// 100 Gbit/s is the class of link SpaceX reports between Starlink
// satellites (SpaceX, Starlink progress update, 2024: laser links "up to
// 200 Gbps" each), taken at half that rate. The optics stay
// document 000's so that the two presets differ in one thing, the rate.
func TerminalPresets() []Terminal {
	return []Terminal{
		{Name: "oct-10g", Link: Table1(), Rate: 10e9,
			Source: "document 000 Table 1 optics at 10 Gbit/s (SDA OCT Standard v3.1 rate)"},
		{Name: "isl-100g", Link: Table1(), Rate: 100e9,
			Source: "document 000 Table 1 optics at 100 Gbit/s (Starlink-class ISL rate)"},
	}
}

// TerminalNamed returns the preset called name.
func TerminalNamed(name string) (Terminal, error) {
	for _, t := range TerminalPresets() {
		if t.Name == name {
			return t, nil
		}
	}
	return Terminal{}, fmt.Errorf("phy: unknown terminal %q (want oct-10g or isl-100g)", name)
}

// SNR returns the electrical SNR of the terminal's link at distance z (m)
// with no pointing loss.
func (t Terminal) SNR(z float64) float64 { return t.Link.Budget(z, 2*t.Rate).SNR }

// FadedSNR returns the SNR when the received power is multiplied by the
// pointing fade x. Thermal noise does not depend on the signal, so the SNR
// of direct detection scales as x^2 (Eq. 1); shot noise grows with the
// signal, so that of coherent detection scales as x (Eq. 6).
func (t Terminal) FadedSNR(snr, x float64) float64 {
	if t.Link.Detection == Coherent {
		return snr * x
	}
	return snr * x * x
}

// Gain returns the transmit telescope gain (pi D / lambda)^2 (Eq. 4).
func (t Terminal) Gain() float64 { return TelescopeGain(t.Link.ApertureTx, t.Link.Wavelength) }

// MeanPER returns the packet error rate at distance z averaged over the
// pointing fade of j, for a packet of size bytes (exact PER formula).
func (t Terminal) MeanPER(z float64, j Jitter, size int) float64 {
	snr := t.SNR(z)
	bits := WireBits(float64(size))
	return j.MeanOf(func(x float64) float64 { return PERExact(BERQ(t.FadedSNR(snr, x)), bits) })
}

// MeanBER returns the bit error rate at distance z averaged over the fade.
func (t Terminal) MeanBER(z float64, j Jitter) float64 {
	snr := t.SNR(z)
	return j.MeanOf(func(x float64) float64 { return BERQ(t.FadedSNR(snr, x)) })
}

// RangeFor returns the longest distance at which the unfaded BER is at
// most ber, by bisection on the monotone BER(z) between 1 m and 1e9 m
// (0 if even 1 m is worse).
func (t Terminal) RangeFor(ber float64) float64 {
	lo, hi := 1.0, 1e9
	if BERQ(t.SNR(lo)) > ber {
		return 0
	}
	for i := 0; i < 200 && hi-lo > 1e-6*lo; i++ {
		mid := math.Sqrt(lo * hi)
		if BERQ(t.SNR(mid)) <= ber {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
