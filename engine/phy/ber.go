package phy

import (
	"math"

	"github.com/crosslink-sim/crosslink/closedform"
)

// Q returns the Gaussian tail probability Q(x) = P(N(0,1) > x) =
// erfc(x/sqrt 2)/2. math.Erfc keeps full relative precision far into the
// tail (Q(40) is about 3.7e-350, which underflows to 0 only there).
func Q(x float64) float64 { return 0.5 * math.Erfc(x/math.Sqrt2) }

// MaxBER is the bit error rate of a receiver that guesses: no formula here
// returns more.
const MaxBER = 0.5

// BERQ returns the bit error rate of on-off keying with a mid-way decision
// threshold and Gaussian noise, BER = Q(sqrt(SNR)) with SNR as in Eq. 1.
// It is the exact form whose large-SNR asymptote is Eq. 7, since
// Q(x) ~ exp(-x^2/2)/(x sqrt(2 pi)).
func BERQ(snr float64) float64 {
	if snr <= 0 {
		return MaxBER
	}
	return Q(math.Sqrt(snr))
}

// BEREq7 returns BER = exp(-SNR/2)/sqrt(2 pi SNR), Eq. 7 of document 000.
// Eq. 7 is the asymptote of BERQ: within 1/SNR of it, relatively, for
// large SNR, but it grows without bound as SNR goes to 0 and passes 1/2
// below SNR = 0.42; the result is capped at MaxBER there, so it is always
// a probability.
func BEREq7(snr float64) float64 {
	if snr <= 0 {
		return MaxBER
	}
	return math.Min(math.Exp(-snr/2)/math.Sqrt(2*math.Pi*snr), MaxBER)
}

// WireBits returns the size on the wire, in bits, of a packet of n bytes
// under 64B/66B line coding: 8 n 66/64 (Eq. 8 of document 000 counts
// 1500 B as 12375 bits). The closed form lives in closedform, which the
// figures share.
func WireBits(n float64) float64 { return closedform.WireBits(n) }

// PERWorst returns the worst-case packet error rate of Eq. 8 of
// document 000, PER = BER x bits, where every bit error hits a different
// packet, for a packet of the given size on the wire in bits (see
// WireBits). The linear form exceeds 1 once BER x bits > 1; it is clamped
// at 1 there.
func PERWorst(ber, bits float64) float64 {
	return math.Min(ber*bits, 1)
}

// PERExact returns the packet error rate when bit errors are independent,
// PER = 1 - (1-BER)^bits. It is computed as -expm1(bits log1p(-BER)) so
// that it keeps full precision for tiny BER, where it agrees with PERWorst
// to first order: PER = bits BER - bits(bits-1)/2 BER^2 + ...
func PERExact(ber, bits float64) float64 {
	if ber >= 1 {
		return 1
	}
	if ber <= 0 {
		return 0
	}
	return -math.Expm1(bits * math.Log1p(-ber))
}

// PER returns the packet error rate of a packet of size bytes on the wire
// (before line coding) at bit error rate ber: worst case (Eq. 8) if worst,
// else exact. It is the mapping a packet-level link draws losses from.
func PER(ber float64, size int, worst bool) float64 {
	bits := WireBits(float64(size))
	if worst {
		return PERWorst(ber, bits)
	}
	return PERExact(ber, bits)
}
