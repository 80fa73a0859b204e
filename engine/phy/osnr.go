package phy

import (
	"errors"
	"fmt"
	"math"
)

// Receiver is a coherent (or OOK) optical receiver: it turns the gOSNR
// of a channel into a bit error rate.
type Receiver struct {
	Modulation Modulation
	SymbolRate float64 // R_s, Bd
	// Penalty is the implementation penalty in dB: the SNR the receiver
	// loses to its electronics, equalisation and phase recovery, taken
	// off the ideal SNR before the BER formula.
	Penalty float64
}

// SNR returns the per-symbol SNR (linear) the receiver decides on, for a
// gOSNR (linear) measured in reference bandwidth bRef (Hz): SNRFromOSNR
// less the implementation penalty.
func (r Receiver) SNR(gosnr, bRef float64) float64 {
	return SNRFromOSNR(gosnr, bRef, r.SymbolRate, r.Modulation.Polarisations()) / FromDB(r.Penalty)
}

// BER returns the bit error rate at gOSNR gosnr (linear) in bRef.
func (r Receiver) BER(gosnr, bRef float64) float64 {
	return r.Modulation.BER(r.SNR(gosnr, bRef))
}

// LossPoint is a gOSNR and the packet loss it caused.
type LossPoint struct {
	GOSNR float64 // dB, in the 0.1 nm reference bandwidth
	Loss  float64 // packet loss ratio, 0..1
}

// Document002 returns the three operating points of document 002
// ("On the interplay of congestion and OSNR degradation for TCP over
// optical networks", abstract and Figs. 4-9): gOSNR 19.45, 19.15 and
// 18.95 dB cause "approximately 0.2, 0.5 and 0.8 %" loss of 1500-byte
// packets; at 20 dB and above there is none.
func Document002() []LossPoint {
	return []LossPoint{{19.45, 0.002}, {19.15, 0.005}, {18.95, 0.008}}
}

// FitPenalty returns the implementation penalty (dB) for which r (its
// Penalty ignored) best reproduces the packet losses pts, in the least
// squares sense on log PER:
//
//	minimise sum_i (ln PER(gOSNR_i; penalty) - ln loss_i)^2
//
// where PER is PERExact over bits bits per packet and gOSNR_i is read in
// bRef. The loss of each point is a probability in (0, 1). The search
// scans -20..40 dB in 0.05 dB steps and refines the best bracket by
// golden-section search to 1e-9 dB: the objective is smooth, and the
// scan keeps the search away from the flat regions where PER is 0 or 1.
func FitPenalty(r Receiver, bRef, bits float64, pts []LossPoint) (float64, error) {
	if len(pts) == 0 {
		return 0, errors.New("phy: fit penalty: no points")
	}
	for _, p := range pts {
		if !(p.Loss > 0 && p.Loss < 1) {
			return 0, fmt.Errorf("phy: fit penalty: loss %v at %v dB is not in (0, 1)", p.Loss, p.GOSNR)
		}
	}
	cost := func(pen float64) float64 {
		r.Penalty = pen
		var s float64
		for _, p := range pts {
			per := PERExact(r.BER(FromDB(p.GOSNR), bRef), bits)
			d := math.Log(math.Max(per, math.SmallestNonzeroFloat64)) - math.Log(p.Loss)
			s += d * d
		}
		return s
	}
	const lo, hi, step = -20.0, 40.0, 0.05
	best, bestCost := lo, math.Inf(1)
	for x := lo; x <= hi; x += step {
		if c := cost(x); c < bestCost {
			best, bestCost = x, c
		}
	}
	a, b := best-step, best+step
	phi := (math.Sqrt(5) - 1) / 2
	x1, x2 := b-phi*(b-a), a+phi*(b-a)
	f1, f2 := cost(x1), cost(x2)
	for b-a > 1e-9 {
		if f1 < f2 {
			b, x2, f2 = x2, x1, f1
			x1 = b - phi*(b-a)
			f1 = cost(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + phi*(b-a)
			f2 = cost(x2)
		}
	}
	return (a + b) / 2, nil
}

// Document002Penalty (dB) is a calibration, not a published value: the
// implementation penalty of a 32 GBd DP-QPSK receiver that FitPenalty
// finds for Document002's three loss points (1.193 dB over 1500-byte
// packets in 64B/66B, rounded). Models of document 002's set-up use it as
// their default; TestCalibrationDocument002 shows the fit and
// TestCalibrationDocument002HeldOut checks it against points it was not
// fitted to.
const Document002Penalty = 1.19
