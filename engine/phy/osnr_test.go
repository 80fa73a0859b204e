package phy

import (
	"math"
	"testing"
)

// TestCalibrationDocument002 fits the one free parameter of the
// gOSNR-to-loss chain, the implementation penalty, to the three points of
// document 002 (gOSNR 19.45 / 19.15 / 18.95 dB in 0.1 nm give about
// 0.2 / 0.5 / 0.8 % loss of 1500-byte packets, none at >= 20 dB), for a
// 32 GBd DP-QPSK receiver, SNR = gOSNR x 12.5/32 (Essiambre et al.
// 2010), Gray-QPSK BER, and exact PER over 1500 B in 64B/66B (12375 bits).
//
// The least-squares fit on ln PER gives a penalty of 1.193 dB (1.204 dB
// with plain 8-bit bytes), a typical implementation penalty of a 32 GBd
// coherent receiver. The resulting losses, against the document:
//
//	gOSNR      document   fitted (1.193 dB)   error
//	19.45 dB   0.2 %      0.1955 %            -2.3 %
//	19.15 dB   0.5 %      0.4825 %            -3.5 %
//	18.95 dB   0.8 %      0.8520 %            +6.5 %
//	20.00 dB   "none"     0.0316 %
//	21.00 dB              0.0006 %
//
// One smooth curve cannot pass through all three points (their spacing
// in log loss is not exactly that of a Gaussian tail), so the test
// accepts 10 % relative error per point, the precision of the
// document's "approximately". It also checks the document's point, that
// loss is steep in gOSNR: 0.5 dB from 19.45 to 18.95 dB multiplies it by
// about 4 (document: 4, model 4.36, accepted 3..6), and 0.55 dB above
// 19.45 dB it is below a sixth of the 0.2 % point.
//
// The fitted curve's shape is that of any Gaussian BER near 1e-7, so
// DP-16QAM or OOK fit the three points as well, with other penalties;
// the test checks that every format's fit meets the same 10 %, so the
// choice of DP-QPSK rests on the plausibility of its 1.2 dB penalty, not
// on the fit (DP-16QAM would need -5.7 dB, a gain, impossible).
func TestCalibrationDocument002(t *testing.T) {
	pts := Document002()
	bits := LineBits(1500, true)
	rx := Receiver{Modulation: DPQPSK, SymbolRate: 32e9}
	pen, err := FitPenalty(rx, RefBandwidth, bits, pts)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pen-1.193) > 0.001 {
		t.Errorf("FitPenalty(dp-qpsk, 0.1 nm, 12375 bits) = %.4f dB, want 1.193", pen)
	}
	rx.Penalty = pen
	loss := func(gosnrDB float64) float64 {
		return PERExact(rx.BER(FromDB(gosnrDB), RefBandwidth), bits)
	}
	want := []float64{0.001955, 0.004825, 0.008520} // the table above
	for i, p := range pts {
		got := loss(p.GOSNR)
		if relErr(got, want[i]) > 1e-3 {
			t.Errorf("loss(%v dB) = %.5g, want %.5g", p.GOSNR, got, want[i])
		}
		if relErr(got, p.Loss) > 0.10 {
			t.Errorf("loss(%v dB) = %.5g, want document's %v within 10 %%", p.GOSNR, got, p.Loss)
		}
	}
	if r := loss(18.95) / loss(19.45); r < 3 || r > 6 {
		t.Errorf("loss(18.95 dB)/loss(19.45 dB) = %.3g, want about 4 (3..6)", r)
	}
	if l := loss(20); l > 0.002/6 {
		t.Errorf("loss(20 dB) = %.3g, want below %.3g (a sixth of the 19.45 dB point)", l, 0.002/6)
	}
	prev := 1.0
	for g := 15.0; g <= 22; g += 0.05 {
		l := loss(g)
		if !(l < prev) {
			t.Errorf("loss(%.2f dB) = %v, want below loss(%.2f dB) = %v", g, l, g-0.05, prev)
		}
		prev = l
	}

	for _, m := range []Modulation{OOK, DPQPSK, DP16QAM} {
		r := Receiver{Modulation: m, SymbolRate: 32e9}
		p, err := FitPenalty(r, RefBandwidth, bits, pts)
		if err != nil {
			t.Fatal(err)
		}
		r.Penalty = p
		for _, pt := range pts {
			if got := PERExact(r.BER(FromDB(pt.GOSNR), RefBandwidth), bits); relErr(got, pt.Loss) > 0.10 {
				t.Errorf("%v (penalty %.3f dB): loss(%v dB) = %.4g, want %v within 10 %%", m, p, pt.GOSNR, got, pt.Loss)
			}
		}
	}
}

// TestFitPenaltyRecovers checks the fit on synthetic points made with a
// known penalty: it must return that penalty to 1e-6 dB.
func TestFitPenaltyRecovers(t *testing.T) {
	for _, want := range []float64{-2, 0, 1.5, 4} {
		rx := Receiver{Modulation: DP16QAM, SymbolRate: 64e9, Penalty: want}
		var pts []LossPoint
		for _, g := range []float64{28.5, 29, 29.5} {
			g += want // keep the losses between 1e-7 and 1e-1
			pts = append(pts, LossPoint{g, PERExact(rx.BER(FromDB(g), RefBandwidth), 12000)})
		}
		got, err := FitPenalty(rx, RefBandwidth, 12000, pts)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("FitPenalty(points made with %v dB) = %v", want, got)
		}
	}
	if _, err := FitPenalty(Receiver{Modulation: OOK, SymbolRate: 1e9}, RefBandwidth, 1, []LossPoint{{20, 0}}); err == nil {
		t.Errorf("FitPenalty with a zero loss succeeded, want an error")
	}
}

// TestCalibrationDocument002HeldOut checks the penalty calibration
// against points it was not fitted to. Leave one out: the penalty fitted
// to two of document 002's three points predicts the third within 15 %
// (the 10 % the in-sample fit needs, widened because one fewer point pins
// the curve; the document's values are "approximately"); and the
// document's fourth statement, which no fit uses, "no loss at 20 dB and
// above", holds for every one of the three fits as loss(20 dB) below a
// sixth of the 0.2 % point. Document002Penalty itself is the full fit,
// rounded to 0.01 dB.
func TestCalibrationDocument002HeldOut(t *testing.T) {
	pts := Document002()
	bits := LineBits(1500, true)
	rx := Receiver{Modulation: DPQPSK, SymbolRate: 32e9}
	full, err := FitPenalty(rx, RefBandwidth, bits, pts)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(full-Document002Penalty) > 0.005 {
		t.Errorf("Document002Penalty = %v dB, the fit to all three points %.4f dB", Document002Penalty, full)
	}
	for i, out := range pts {
		var in []LossPoint
		in = append(in, pts[:i]...)
		in = append(in, pts[i+1:]...)
		pen, err := FitPenalty(rx, RefBandwidth, bits, in)
		if err != nil {
			t.Fatal(err)
		}
		r := rx
		r.Penalty = pen
		got := PERExact(r.BER(FromDB(out.GOSNR), RefBandwidth), bits)
		at20 := PERExact(r.BER(FromDB(20), RefBandwidth), bits)
		t.Logf("without %v dB: penalty %.4f dB, predicts %.5g (document %v, %+.1f %%); loss(20 dB) %.3g",
			out.GOSNR, pen, got, out.Loss, 100*(got/out.Loss-1), at20)
		if relErr(got, out.Loss) > 0.15 {
			t.Errorf("penalty fitted without the %v dB point predicts its loss %.5g, want the document's %v within 15 %%", out.GOSNR, got, out.Loss)
		}
		if at20 > 0.002/6 {
			t.Errorf("penalty fitted without the %v dB point: loss(20 dB) = %.3g, want below %.3g", out.GOSNR, at20, 0.002/6)
		}
	}
}
