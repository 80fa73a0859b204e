package models

import (
	"context"
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
	"github.com/google/go-cmp/cmp"
)

func runOO(t *testing.T, p vocab.Params) []vocab.Value {
	t.Helper()
	res, err := NewOpticalOSNR().Run(context.Background(), p, 0)
	if err != nil {
		t.Fatal(err)
	}
	return res.Metrics
}

// TestOpticalOSNRDocument002 checks the calibrated defaults against the
// three operating points document 002 prints (abstract: gOSNR 19.45 /
// 19.15 / 18.95 dB "causing approximately 0.2, 0.5 and 0.8 % of packet
// losses"; tolerance 10 % relative, the document's "approximately") and,
// through the model in mode gosnr, against the textbook chain computed
// here without the model's code: SNR = OSNR x 12.5 GHz / 32 GBd less the
// 1.19 dB penalty (phy.Document002Penalty, a calibration fitted to those
// three points, so the document's numbers are the outside check and the
// chain checks the model computes what it says), DP-QPSK BER =
// erfc(sqrt(SNR/2))/2 (Proakis, Digital Communications, QPSK with
// Es/N0 = SNR), PER = 1 - (1 - BER)^12375 for 1500 bytes in 64B/66B
// (1500 x 8 x 66/64 bits). Tolerance 1e-9 relative: float rounding of
// pow, erfc and log1p. At 20 dB the loss must stay below a sixth of the
// 0.2 % point ("none" in the document's set-up).
func TestOpticalOSNRDocument002(t *testing.T) {
	s := NewOpticalOSNR().Schema()
	base := s.Defaults().With("mode", vocab.S("gosnr"))
	chain := func(gosnrDB float64) float64 {
		snr := math.Pow(10, (gosnrDB+10*math.Log10(12.5/32)-1.19)/10)
		ber := math.Erfc(math.Sqrt(snr/2)) / 2
		return -math.Expm1(12375 * math.Log1p(-ber))
	}
	for _, tt := range []struct {
		gosnr, doc float64
	}{
		{19.45, 0.002},
		{19.15, 0.005},
		{18.95, 0.008},
		{20, 0},
	} {
		got := runOO(t, base.With("given_gosnr", vocab.F(tt.gosnr)))
		per := got[ooPER].Float()
		if want := chain(tt.gosnr); math.Abs(per-want) > 1e-9*want {
			t.Errorf("per(gosnr %v dB) = %.10g, want the closed form's %.10g", tt.gosnr, per, want)
		}
		if tt.doc > 0 && math.Abs(per-tt.doc) > 0.1*tt.doc {
			t.Errorf("per(gosnr %v dB) = %.4g, want document's %v within 10 %%", tt.gosnr, per, tt.doc)
		}
		if tt.doc == 0 && per > 0.002/6 {
			t.Errorf("per(gosnr %v dB) = %.3g, want about none (< %.3g)", tt.gosnr, per, 0.002/6)
		}
		if g := got[ooGOSNRdB].Float(); math.Abs(g-tt.gosnr) > 1e-12 {
			t.Errorf("gosnr metric = %v, want the parameter %v", g, tt.gosnr)
		}
		// SNR = gOSNR + 10 log10(12.5/32) - 1.19 dB.
		if snr := got[ooSNR].Float(); math.Abs(snr-(tt.gosnr-4.0823997-1.19)) > 1e-6 {
			t.Errorf("snr(gosnr %v dB) = %v dB, want %v", tt.gosnr, snr, tt.gosnr-4.0823997-1.19)
		}
		for _, i := range []int{ooASEPower, ooNLIPower, ooOSNRASE, ooOptimumLaunchPower, ooPeakGOSNR} {
			if got[i].Kind() != vocab.Invalid {
				t.Errorf("%s in mode gosnr = %v, want null (not applicable)", s.Metrics[i].Name, got[i])
			}
		}
	}
	// The same gOSNR given in the signal bandwidth is 4.08 dB lower.
	a := runOO(t, base.With("given_gosnr", vocab.F(19.45)))
	b := runOO(t, base.With("given_gosnr", vocab.F(19.45-4.0823997)).With("gosnr_reference", vocab.S("signal")))
	if math.Abs(a[ooPER].Float()-b[ooPER].Float()) > 1e-6*a[ooPER].Float() {
		t.Errorf("per at 19.45 dB (0.1 nm) = %v, at 15.37 dB (signal) = %v, want equal", a[ooPER].Float(), b[ooPER].Float())
	}
}

// TestOpticalOSNRLink checks mode link on the default line (20 x 80 km
// SSMF, NF 5.5 dB, 90 x 32 GBd / 50 GHz, 0 dBm) against the hand
// calculation of engine/phy's TestGNStandardCase: ASE in 0.1 nm
// 20 x 3.548134 x 1.281578e-19 J x 39.81072 x 12.5e9 Hz = 4.525692e-6 W,
// NLI 20 x 1050.985 x (1e-3)^3 x 12.5/32 = 8.210820e-6 W, so gOSNR =
// 1e-3 / 1.273651e-5 = 18.9494 dB; ASE alone 23.4434 dB; optimum
// -1.8658 dBm, peak 19.8165 dB. Tolerance 1e-3 dB, 1e-5 relative.
func TestOpticalOSNRLink(t *testing.T) {
	got := runOO(t, NewOpticalOSNR().Schema().Defaults())
	checks := []struct {
		name      string
		got, want float64
		tol       float64 // absolute
	}{
		{"ase_power_w", got[ooASEPower].Float(), 4.525692e-6, 1e-5 * 4.525692e-6},
		{"nli_power_w", got[ooNLIPower].Float(), 8.210820e-6, 1e-5 * 8.210820e-6},
		{"gosnr_db", got[ooGOSNRdB].Float(), 18.9494, 1e-3},
		{"gosnr_signal_bw_db", got[ooGOSNRSignal].Float(), 18.9494 - 4.0824, 1e-3},
		{"osnr_ase_only_db", got[ooOSNRASE].Float(), 23.4434, 1e-3},
		{"optimum_launch_power_dbm", got[ooOptimumLaunchPower].Float(), -1.8658, 1e-3},
		{"peak_gosnr_db", got[ooPeakGOSNR].Float(), 19.8165, 1e-3},
	}
	for _, c := range checks {
		if !(math.Abs(c.got-c.want) <= c.tol) {
			t.Errorf("%s = %.7g, want %.7g", c.name, c.got, c.want)
		}
	}
	// The default line sits at document 002's worst point: about 0.8 % loss.
	if per := got[ooPER].Float(); math.Abs(per-0.008) > 0.1*0.008 {
		t.Errorf("per of the default line = %.4g, want about 0.008", per)
	}
}

// TestOpticalOSNRMonotonic checks the directions a reader expects: loss
// grows with the span count and the noise figure, and falls as the
// launch power rises towards the optimum; BER grows from DP-QPSK to
// DP-16QAM at the same gOSNR.
func TestOpticalOSNRMonotonic(t *testing.T) {
	d := NewOpticalOSNR().Schema().Defaults()
	prev := 0.0
	for n := int64(10); n <= 30; n++ {
		per := runOO(t, d.With("spans", vocab.I(n)))[ooPER].Float()
		if !(per > prev) {
			t.Errorf("per(%d spans) = %v, want above %v", n, per, prev)
		}
		prev = per
	}
	prev = 0
	for _, nf := range []float64{4, 4.5, 5, 5.5, 6, 7} {
		per := runOO(t, d.With("noise_figure", vocab.F(nf)))[ooPER].Float()
		if !(per > prev) {
			t.Errorf("per(NF %v dB) = %v, want above %v", nf, per, prev)
		}
		prev = per
	}
	prev = 1
	for _, dbm := range []float64{-8, -6, -4, -2} {
		per := runOO(t, d.With("launch_power", vocab.F(dbm)))[ooPER].Float()
		if !(per < prev) {
			t.Errorf("per(%v dBm) = %v, want below %v", dbm, per, prev)
		}
		prev = per
	}
	g := d.With("mode", vocab.S("gosnr")).With("given_gosnr", vocab.F(25))
	q := runOO(t, g)[ooBER].Float()
	qam := runOO(t, g.With("modulation", vocab.S("dp-16qam")))[ooBER].Float()
	if !(qam > q) {
		t.Errorf("ber(dp-16qam) = %v, want above ber(dp-qpsk) = %v at 25 dB", qam, q)
	}
}

func TestOpticalOSNRErrors(t *testing.T) {
	m := NewOpticalOSNR()
	p := m.Schema().Defaults().With("symbol_rate", vocab.F(60e9))
	if _, err := m.Run(context.Background(), p, 0); err == nil {
		t.Errorf("Run with symbol_rate 60 GBd on a 50 GHz grid succeeded, want an error")
	}
	stranger := &vocab.Schema{Name: "other", Version: 1}
	if _, err := m.Run(context.Background(), vocab.NewParams(stranger, nil), 0); err == nil {
		t.Errorf("Run with another model's parameters succeeded, want an error")
	}
	// A reordered copy of the schema gives the same row.
	other := opticalOSNRSchema()
	for i, j := 0, len(other.Params)-1; i < j; i, j = i+1, j-1 {
		other.Params[i], other.Params[j] = other.Params[j], other.Params[i]
	}
	want := runOO(t, m.Schema().Defaults().With("spans", vocab.I(7)))
	got := runOO(t, other.Defaults().With("spans", vocab.I(7)))
	eq := cmp.Comparer(func(a, b vocab.Value) bool { return a.Equal(b) })
	if diff := cmp.Diff(want, got, eq); diff != "" {
		t.Errorf("Run with reordered schema (-want +got):\n%s", diff)
	}
}

// TestOpticalOSNRSchema checks the column names readers of the Parquet
// files see, and that the model is registered.
func TestOpticalOSNRSchema(t *testing.T) {
	s := NewOpticalOSNR().Schema()
	var cols []string
	for _, p := range s.Params {
		cols = append(cols, p.Column())
	}
	for _, m := range s.Metrics {
		cols = append(cols, m.Column())
	}
	want := []string{
		"mode", "given_gosnr_db", "gosnr_reference", "spans", "span_length_m", "attenuation_db_per_km",
		"noise_figure_db", "gain_db", "launch_power_dbm", "channels", "channel_spacing_hz",
		"symbol_rate_hz", "gamma_per_w_km", "dispersion_ps_per_nm_km", "wavelength_m",
		"modulation", "penalty_db", "mtu_bytes", "line_code",
		"ase_power_w", "nli_power_w", "gosnr_db", "gosnr_signal_bw_db", "osnr_ase_only_db",
		"snr_db", "ber", "per", "optimum_launch_power_dbm", "peak_gosnr_db",
	}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("optical-osnr columns (-want +got):\n%s", diff)
	}
	r, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Lookup("optical-osnr"); !ok {
		t.Errorf("Registry().Lookup(optical-osnr) found nothing")
	}
	var _ vocab.CostEstimator = NewOpticalOSNR()
}

// BenchmarkOpticalOSNRRun measures one scenario in each mode.
func BenchmarkOpticalOSNRRun(b *testing.B) {
	m := NewOpticalOSNR()
	d := m.Schema().Defaults()
	ps := []vocab.Params{d, d.With("spans", vocab.I(5)), d.With("mode", vocab.S("gosnr"))}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := m.Run(ctx, ps[i%len(ps)], 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scenarios/s")
}
