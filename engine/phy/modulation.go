package phy

import (
	"fmt"
	"math"
)

// Modulation is the modulation format of an optical channel. It fixes the
// number of polarisations the signal occupies (which the OSNR to SNR
// conversion needs) and the SNR to BER mapping.
type Modulation uint8

const (
	// OOK is on-off keying on one polarisation, 1 bit per symbol.
	OOK Modulation = iota + 1
	// DPQPSK is dual-polarisation QPSK with Gray coding, 4 bits per symbol
	// (2 per polarisation), coherent detection.
	DPQPSK
	// DP16QAM is dual-polarisation square 16-QAM with Gray coding, 8 bits
	// per symbol (4 per polarisation), coherent detection.
	DP16QAM
)

func (m Modulation) String() string {
	switch m {
	case OOK:
		return "ook"
	case DPQPSK:
		return "dp-qpsk"
	case DP16QAM:
		return "dp-16qam"
	}
	return fmt.Sprintf("Modulation(%d)", uint8(m))
}

// ParseModulation returns the format called s: "ook", "dp-qpsk" or
// "dp-16qam".
func ParseModulation(s string) (Modulation, error) {
	switch s {
	case "ook":
		return OOK, nil
	case "dp-qpsk":
		return DPQPSK, nil
	case "dp-16qam":
		return DP16QAM, nil
	}
	return 0, fmt.Errorf("phy: unknown modulation %q (want ook, dp-qpsk or dp-16qam)", s)
}

// Polarisations returns the number of polarisations the format carries
// data on: 1 for OOK, 2 for the dual-polarisation formats.
func (m Modulation) Polarisations() int {
	if m == OOK {
		return 1
	}
	return 2
}

// BitsPerSymbol returns the bits carried per symbol over all polarisations.
func (m Modulation) BitsPerSymbol() int {
	switch m {
	case OOK:
		return 1
	case DPQPSK:
		return 4
	case DP16QAM:
		return 8
	}
	panic(fmt.Sprintf("phy: bug: bits per symbol of %v", m))
}

// BER returns the bit error rate of the format at the per-symbol SNR snr
// (linear, Es/N0 of one polarisation, additive white Gaussian noise):
//
//	OOK      BER = Q(sqrt(SNR))                    unipolar levels 0 and sqrt(2 Es),
//	                                               mid-way threshold: d/(2 sigma) = sqrt(Es/N0)
//	DP-QPSK  BER = Q(sqrt(SNR)) = erfc(sqrt(SNR/2))/2
//	                                               Gray QPSK is two BPSK rails of Es/2 each
//	                                               (Proakis and Salehi, Digital Communications,
//	                                               5th ed., antipodal signalling: Pb = Q(sqrt(2 Eb/N0)),
//	                                               Eb/N0 = SNR/2)
//	DP-16QAM BER = 3/8 erfc(sqrt(SNR/10))          nearest-neighbour approximation for Gray
//	                                               square 16-QAM: symbol error 3/2 erfc(sqrt(Es/(10 N0)))
//	                                               (ibid., square M-QAM, M = 16), one bit error per
//	                                               symbol error, 4 bits per symbol
//
// OOK and QPSK share a formula in SNR; they differ in how an OSNR maps to
// SNR (SNRFromOSNR: one polarisation or two) and in the bits a symbol
// carries. Each result is capped at MaxBER.
func (m Modulation) BER(snr float64) float64 {
	if !(snr > 0) {
		return MaxBER
	}
	switch m {
	case OOK, DPQPSK:
		return BERQ(snr)
	case DP16QAM:
		return math.Min(0.375*math.Erfc(math.Sqrt(snr/10)), MaxBER)
	}
	panic(fmt.Sprintf("phy: bug: BER of %v", m))
}

// RefBandwidth is the reference optical bandwidth of OSNR, 0.1 nm, by
// convention 12.5 GHz (0.1 nm at 1550 nm is c 0.1 nm / lambda^2 =
// 12.48 GHz; ITU-T G.697 Appendix and the OSNR literature round it).
const RefBandwidth = 12.5e9

// SNRFromOSNR returns the per-symbol SNR (linear) of a signal of symbol
// rate rs (Bd) on pol polarisations whose OSNR (linear) is measured in
// reference bandwidth bRef (Hz), noise counted in both polarisations:
//
//	SNR = (2 / pol) OSNR bRef / rs
//
// Essiambre et al., "Capacity limits of optical fiber networks", J.
// Lightwave Technol. 28(4), 2010: OSNR = p Rs SNR / (2 Bref),
// with p the number of polarisations the signal occupies. A
// dual-polarisation signal sees all the noise (p = 2: SNR = OSNR Bref/Rs);
// a single-polarisation one sees half of it. With bRef = rs (an OSNR
// already referred to the signal bandwidth) a dual-polarisation SNR is
// the OSNR itself.
func SNRFromOSNR(osnr, bRef, rs float64, pol int) float64 {
	return 2 / float64(pol) * osnr * bRef / rs
}

// FromDB returns the linear ratio of x decibels.
func FromDB(x float64) float64 { return math.Pow(10, x/10) }

// LineBits returns the bits on the wire of a packet of size bytes: 8 size
// with plain coding, 8 size 66/64 with 64B/66B (WireBits).
func LineBits(size float64, code64b66b bool) float64 {
	if code64b66b {
		return WireBits(size)
	}
	return 8 * size
}
