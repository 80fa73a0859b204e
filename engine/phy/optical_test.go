package phy

import (
	"fmt"
	"math"
	"testing"
)

// TestOSNRRuleOfThumb checks the linear-regime OSNR against the
// engineering rule
//
//	OSNR[0.1 nm] = 58 + P_ch[dBm] - L_span[dB] - NF[dB] - 10 log10(N)
//
// (e.g. Essiambre et al., J. Lightwave Technol. 28(4), 2010; Gumaste and
// Antony, DWDM Network Designs and Engineering Solutions, Ch. 5), where
// 58 dB is -10 log10(h nu 12.5 GHz / 1 mW) = 57.95 dB at 1550 nm. The
// rule and the model must agree within 0.1 dB (the rule's rounding of
// 57.95 to 58 is 0.05 dB of it).
func TestOSNRRuleOfThumb(t *testing.T) {
	for _, tt := range []struct {
		spans         int
		km, nf, power float64 // span length, noise figure dB, launch dBm
	}{
		{1, 80, 5.5, 0}, {10, 80, 5.5, 0}, {20, 80, 5.5, 1}, {5, 100, 5, -2}, {40, 60, 6, 3},
	} {
		t.Run(fmt.Sprintf("%dx%gkm/NF%g/%gdBm", tt.spans, tt.km, tt.nf, tt.power), func(t *testing.T) {
			l := StandardLink(tt.spans)
			l.Fibre.Length = tt.km * 1e3
			l.NoiseFigure = tt.nf
			o := l.OSNR(1e-3 * FromDB(tt.power))
			want := 58 + tt.power - 0.2*tt.km - tt.nf - 10*math.Log10(float64(tt.spans))
			if got := DB(o.OSNRASE); math.Abs(got-want) > 0.1 {
				t.Errorf("OSNR (ASE only) = %.3f dB, want rule of thumb %.3f dB within 0.1", got, want)
			}
		})
	}
}

// spanBySpan propagates one channel through l span by span, the way a
// link emulator does: at each span input the span adds eta P^3 of NLI
// (referred to its input), then signal and noises are attenuated by the
// span loss, amplified by G, and the amplifier adds NF h nu G B of ASE.
// It returns gOSNR in bandwidth b (Hz) at the receiver.
func spanBySpan(l AmplifiedLink, p, b float64) float64 {
	eta := NLICoefficient(l.Fibre, l.Comb, l.Constants)
	a, g := math.Pow(10, l.Fibre.Loss()/10), math.Pow(10, l.AmplifierGain()/10)
	nf := math.Pow(10, l.NoiseFigure/10)
	hnu := l.Constants.Planck * l.Constants.LightSpeed / l.Fibre.Wavelength
	sig, ase, nli := p, 0.0, 0.0
	for range l.Spans {
		nli += eta * sig * sig * sig * b / l.Comb.SymbolRate
		sig, ase, nli = sig/a*g, ase/a*g+nf*hnu*g*b, nli/a*g
	}
	return sig / (ase + nli)
}

// TestOSNRSpanBySpan checks the closed accumulation of AmplifiedLink.OSNR
// against span-by-span propagation, for transparent spans and for
// amplifiers with 0.5 dB too much or too little gain (the channel power
// then drifts along the link), to 1e-12 relative.
func TestOSNRSpanBySpan(t *testing.T) {
	for _, extra := range []float64{0, 0.5, -0.5, 2} {
		for _, n := range []int{1, 7, 25} {
			for _, dbm := range []float64{-4, 0, 3} {
				t.Run(fmt.Sprintf("gain%+g/%dspans/%gdBm", extra, n, dbm), func(t *testing.T) {
					l := StandardLink(n)
					if extra != 0 {
						l.Gain = l.Fibre.Loss() + extra
					}
					p := 1e-3 * FromDB(dbm)
					o := l.OSNR(p)
					if want := spanBySpan(l, p, RefBandwidth); relErr(o.GOSNR, want) > 1e-12 {
						t.Errorf("GOSNR = %.15g, want span by span %.15g", o.GOSNR, want)
					}
					if want := spanBySpan(l, p, l.Comb.SymbolRate); relErr(o.GOSNRSignal, want) > 1e-12 {
						t.Errorf("GOSNRSignal = %.15g, want span by span %.15g", o.GOSNRSignal, want)
					}
				})
			}
		}
	}
}

// TestOSNRShape checks the shape of gOSNR against launch power and span
// count: it rises 1 dB per dB in the linear regime, peaks at the optimum
// launch power, falls 2 dB per dB deep in the nonlinear regime (P/P^3),
// falls with every added span, and the peak drops by 10 log10(2) =
// 3.0103 dB when the span count doubles (both noises grow as N). The
// signal-bandwidth gOSNR is the 0.1 nm one times 12.5 GHz / 32 GHz
// (-4.0824 dB) exactly.
func TestOSNRShape(t *testing.T) {
	l := StandardLink(10)
	popt := l.OSNR(1e-3).OptimumLaunchPower
	peak := l.OSNR(popt).GOSNR
	for _, d := range []float64{-3, -1, -0.1, 0.1, 1, 3} {
		if g := l.OSNR(popt * FromDB(d)).GOSNR; !(g < peak) {
			t.Errorf("gOSNR(P_opt %+g dB) = %v, want below the peak %v", d, g, peak)
		}
	}
	lin := DB(l.OSNR(1e-6).GOSNR) - DB(l.OSNR(1e-7).GOSNR)
	if math.Abs(lin-10) > 0.01 {
		t.Errorf("gOSNR rise from -40 to -30 dBm = %.4f dB, want 10", lin)
	}
	nl := DB(l.OSNR(1).GOSNR) - DB(l.OSNR(0.1).GOSNR)
	if math.Abs(nl+20) > 0.01 {
		t.Errorf("gOSNR change from 20 to 30 dBm = %.4f dB, want -20", nl)
	}
	prev := math.Inf(1)
	for n := 1; n <= 40; n++ {
		o := StandardLink(n).OSNR(1e-3)
		if !(o.GOSNR < prev) {
			t.Errorf("gOSNR(%d spans) = %v, want below %v", n, o.GOSNR, prev)
		}
		prev = o.GOSNR
		if r := DB(o.GOSNRSignal / o.GOSNR); math.Abs(r-DB(12.5/32)) > 1e-12 {
			t.Errorf("GOSNRSignal/GOSNR = %v dB, want %v", r, DB(12.5/32))
		}
	}
	for _, n := range []int{1, 5, 10, 20} {
		d := DB(StandardLink(n).OSNR(1e-3).PeakGOSNR) - DB(StandardLink(2*n).OSNR(1e-3).PeakGOSNR)
		if math.Abs(d-10*math.Log10(2)) > 1e-9 {
			t.Errorf("peak gOSNR(%d) - peak gOSNR(%d) = %v dB, want 3.0103", n, 2*n, d)
		}
	}
}

// BenchmarkOSNR measures the closed-form budget of one link.
func BenchmarkOSNR(b *testing.B) {
	l := StandardLink(20)
	b.ReportAllocs()
	var s float64
	for b.Loop() {
		s += l.OSNR(1e-3).GOSNR
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "links/s")
	_ = s
}
