package models

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/closedform"
	"github.com/crosslink-sim/crosslink/vocab"
	"github.com/google/go-cmp/cmp"
)

// constantSet is one set of physical constants, written out here rather
// than taken from engine/phy.
type constantSet struct {
	name        string
	h, kB, c, q float64
}

var (
	// CODATA 2018, exact in the SI since 2019.
	codata = constantSet{"codata", 6.62607015e-34, 1.380649e-23, 299792458, 1.602176634e-19}
	// Table 1 of document 000 as printed (h and kB with their typos).
	paper = constantSet{"paper", 6.26e-34, 1.386504e-23, 3e8, 1.6e-19}
)

// reference is the document's section 4 evaluated directly, for the
// Table 1 link (PT 0.9 W, 1550 nm, 0.15 m apertures, all efficiencies
// 0.75 as fractions, T 500 K, R 50 kOhm) and MTU 1500 B. The reading of
// each equation:
//
//	Eq. 2  Res = q eta lambda / (h c)                        A/W
//	Eq. 4  GT = GR = (pi D / lambda)^2, D the aperture diameter
//	Eq. 3  PR = PT etaT etaR GT GR (lambda / (4 pi z))^2     Friis, W
//	       Be = 2 x bit rate                                 OOK, Table 1
//	Eq. 5  i^2 = 4 kB T Be / R                               direct: thermal noise only
//	Eq. 6  i^2 = 2 q Res PR Be                               coherent: shot noise only
//	Eq. 1  SNR = (Res PR)^2 / i^2
//	Eq. 7  BER = exp(-SNR/2) / sqrt(2 pi SNR), capped at 1/2 (it is an
//	       asymptote that passes 1/2 below SNR 0.42)
//	Q form BER = Q(sqrt(SNR)) = erfc(sqrt(SNR/2))/2          exact OOK, mid threshold
//	Eq. 8  PER = 8 x BER x MTU x 66/64, the worst case, capped at 1
//	exact  PER = 1 - (1-BER)^n, n = 8 x MTU x 66/64 bits on the wire
type reference struct {
	ber7, berQ, perWorst7, perExact7, perWorstQ, perExactQ, delay, txTime float64
}

func closedForm(k constantSet, coherent bool, rate, z float64) reference {
	const pt, eta, etaT, etaR, d, lambda, temp, r, mtu = 0.9, 0.75, 0.75, 0.75, 0.15, 1550e-9, 500, 50e3, 1500
	res := k.q * eta * lambda / (k.h * k.c)
	g := (math.Pi * d / lambda) * (math.Pi * d / lambda)
	pr := pt * etaT * etaR * g * g * (lambda / (4 * math.Pi * z)) * (lambda / (4 * math.Pi * z))
	be := 2 * rate
	var noise float64
	if coherent {
		noise = 2 * k.q * res * pr * be
	} else {
		noise = 4 * k.kB * temp * be / r
	}
	snr := (res * pr) * (res * pr) / noise
	ber7 := math.Min(math.Exp(-snr/2)/math.Sqrt(2*math.Pi*snr), 0.5)
	berQ := 0.5 * math.Erfc(math.Sqrt(snr/2))
	n := closedform.WireBits(mtu)
	return reference{
		ber7: ber7, berQ: berQ,
		perWorst7: math.Min(n*ber7, 1), perExact7: perBinomial(ber7, n),
		perWorstQ: math.Min(n*berQ, 1), perExactQ: perBinomial(berQ, n),
		delay:  z / k.c,
		txTime: 8 * mtu / rate,
	}
}

// perBinomial returns 1-(1-p)^n. For n p < 1/2 it sums the binomial
// series n p - C(n,2) p^2 + C(n,3) p^3 - ..., whose terms shrink by at
// least half each step, so it keeps full precision for tiny p where the
// direct form would round 1-p; otherwise the direct form is exact enough
// (the result is above 0.39, its error near 1e-12 relative).
func perBinomial(p, n float64) float64 {
	if n*p >= 0.5 {
		return 1 - math.Pow(1-p, n)
	}
	sum, term := 0.0, 1.0
	for k := 0.0; k < n; k++ {
		term *= (n - k) / (k + 1) * p
		if math.Mod(k, 2) == 0 {
			sum += term
		} else {
			sum -= term
		}
		if term < 1e-18*sum {
			break
		}
	}
	return sum
}

// TestFSOBERClosedForm is the acceptance check of fso-ber: BER (Eq. 7 and
// Q form, and the ber metric for either choice) and PER (worst case and
// exact) match closedForm to 1e-9 relative at 16,000, 25,000, 50,000 and
// 80,000 km (Table 2) for direct and coherent detection at 1 and 4 Gbps
// and both constant sets; the one-way delay and transmission time too.
// 1e-9 leaves room for exp(-SNR/2) amplifying the last-bit differences of
// SNR (up to SNR 400 here: about 1e-13).
func TestFSOBERClosedForm(t *testing.T) {
	m := NewFSOBER()
	s := m.Schema()
	col := map[string]int{}
	for i, mt := range s.Metrics {
		col[mt.Column()] = i
	}
	for _, k := range []constantSet{codata, paper} {
		for _, det := range []string{"direct", "coherent"} {
			for _, rate := range []float64{1e9, 4e9} {
				for _, km := range []float64{16000, 25000, 50000, 80000} {
					for _, formula := range []string{"eq7", "q"} {
						name := fmt.Sprintf("%s/%s/%gGbps/%gkm/%s", k.name, det, rate/1e9, km, formula)
						t.Run(name, func(t *testing.T) {
							p := s.Defaults().
								With("constants", vocab.S(k.name)).
								With("detection", vocab.S(det)).
								With("bit_rate", vocab.F(rate)).
								With("distance", vocab.F(km*1e3)).
								With("ber_formula", vocab.S(formula))
							res, err := m.Run(context.Background(), p, 0)
							if err != nil {
								t.Fatal(err)
							}
							ref := closedForm(k, det == "coherent", rate, km*1e3)
							ber, perW, perE := ref.ber7, ref.perWorst7, ref.perExact7
							if formula == "q" {
								ber, perW, perE = ref.berQ, ref.perWorstQ, ref.perExactQ
							}
							want := map[string]float64{
								"ber": ber, "ber_eq7": ref.ber7, "ber_q": ref.berQ,
								"per_worst": perW, "per_exact": perE,
								"one_way_delay_s": ref.delay, "transmission_time_s": ref.txTime,
							}
							for _, c := range []string{"ber", "ber_eq7", "ber_q", "per_worst", "per_exact", "one_way_delay_s", "transmission_time_s"} {
								got := res.Metrics[col[c]].Float()
								if rel := math.Abs(got-want[c]) / want[c]; !(rel <= 1e-9) {
									t.Errorf("%s = %.12g, want %.12g (relative error %.2g)", c, got, want[c], rel)
								}
							}
						})
					}
				}
			}
		}
	}
}

// TestFSOBERSchema checks the column names a reader of the Parquet files
// sees, and that the positions Run reads parameters from match the schema.
func TestFSOBERSchema(t *testing.T) {
	s := NewFSOBER().Schema()
	var cols []string
	for _, p := range s.Params {
		cols = append(cols, p.Column())
	}
	for _, m := range s.Metrics {
		cols = append(cols, m.Column())
	}
	want := []string{
		"distance_m", "bit_rate_bps", "detection", "power_w", "wavelength_m",
		"aperture_tx_m", "aperture_rx_m", "optics_efficiency_tx", "optics_efficiency_rx",
		"quantum_efficiency", "temperature_k", "load_resistance_ohm", "mtu_bytes",
		"bandwidth_factor", "constants", "ber_formula",
		"received_power_w", "received_power_dbm", "responsivity_a_per_w", "noise_equivalent_power_w",
		"electrical_bandwidth_hz", "snr", "snr_db", "ber", "ber_eq7", "ber_q", "wire_size_bits",
		"per_worst", "per_exact", "one_way_delay_s", "transmission_time_s",
	}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("fso-ber columns (-want +got):\n%s", diff)
	}
	idx := map[string]int{
		"distance": fbDistance, "bit_rate": fbBitRate, "detection": fbDetection, "power": fbPower,
		"wavelength": fbWavelength, "aperture_tx": fbApertureTx, "aperture_rx": fbApertureRx,
		"optics_efficiency_tx": fbEfficiencyTx, "optics_efficiency_rx": fbEfficiencyRx,
		"quantum_efficiency": fbQuantumEfficiency, "temperature": fbTemperature,
		"load_resistance": fbLoadResistance, "mtu": fbMTU, "bandwidth_factor": fbBandwidthFactor,
		"constants": fbConstants, "ber_formula": fbBERFormula,
	}
	for name, i := range idx {
		if got := s.ParamIndex(name); got != i {
			t.Errorf("ParamIndex(%q) = %d, want %d", name, got, i)
		}
	}
}

// TestFSOBERDefaults checks a few metrics of the default scenario (Table 1,
// direct detection, 1 Gbps, 16,000 km) against values worked by hand:
// responsivity 0.75 x 1.55 um / 1.239841984 um eV = 0.93762 A/W,
// Be = 2 GHz, 12375 bits on the wire, 12 us to send 1500 B at 1 Gbps,
// and SNR = (PR/NEP)^2 by the definition of NEP.
func TestFSOBERDefaults(t *testing.T) {
	m := NewFSOBER()
	res, err := m.Run(context.Background(), m.Schema().Defaults(), 1)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Metrics
	checks := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"responsivity", got[fbResponsivity].Float(), 0.75 * 1.55 / 1.239841984, 1e-9},
		{"electrical_bandwidth", got[fbElectricalBandwidth].Float(), 2e9, 0},
		{"wire_size", got[fbWireSize].Float(), 12375, 0},
		{"transmission_time", got[fbTransmissionTime].Float(), 12e-6, 1e-15},
		{"snr", got[fbSNR].Float(), math.Pow(got[fbReceivedPower].Float()/got[fbNoiseEquivalentPower].Float(), 2), 1e-12},
		{"received_power_dbm", got[fbReceivedPowerDBm].Float(), 10*math.Log10(got[fbReceivedPower].Float()) + 30, 1e-12},
		{"snr_db", got[fbSNRdB].Float(), 10 * math.Log10(got[fbSNR].Float()), 1e-12},
	}
	for _, c := range checks {
		if rel := math.Abs(c.got-c.want) / math.Abs(c.want); !(rel <= c.tol) {
			t.Errorf("%s = %v, want %v (tolerance %v)", c.name, c.got, c.want, c.tol)
		}
	}
}

// TestFSOBERForeignSchema checks that parameters bound to another copy of
// the schema (fields in another order) give the same row, and that
// parameters of another model are refused.
func TestFSOBERForeignSchema(t *testing.T) {
	m := NewFSOBER()
	own := m.Schema().Defaults().With("distance", vocab.F(30e6)).With("detection", vocab.S("coherent"))
	want, err := m.Run(context.Background(), own, 0)
	if err != nil {
		t.Fatal(err)
	}
	other := fsoBERSchema()
	for i, j := 0, len(other.Params)-1; i < j; i, j = i+1, j-1 {
		other.Params[i], other.Params[j] = other.Params[j], other.Params[i]
	}
	p := other.Defaults().With("distance", vocab.F(30e6)).With("detection", vocab.S("coherent"))
	got, err := m.Run(context.Background(), p, 0)
	if err != nil {
		t.Fatal(err)
	}
	eq := cmp.Comparer(func(a, b vocab.Value) bool { return a.Equal(b) })
	if diff := cmp.Diff(want.Metrics, got.Metrics, eq); diff != "" {
		t.Errorf("Run with reordered schema (-want +got):\n%s", diff)
	}
	stranger := &vocab.Schema{Name: "other", Version: 1}
	if _, err := m.Run(context.Background(), vocab.NewParams(stranger, nil), 0); err == nil {
		t.Errorf("Run with another model's parameters succeeded, want an error")
	}
}

func TestRegistry(t *testing.T) {
	r, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Lookup("fso-ber"); !ok {
		t.Errorf("Registry().Lookup(fso-ber) found nothing; names %v", r.Names())
	}
	var _ vocab.CostEstimator = NewFSOBER() // sweep balances shards with it
}

// BenchmarkFSOBERRun measures one scenario of fso-ber, cycling over the
// Table 2 distances, both detections and both rates.
func BenchmarkFSOBERRun(b *testing.B) {
	m := NewFSOBER()
	var ps []vocab.Params
	for _, det := range []string{"direct", "coherent"} {
		for _, rate := range []float64{1e9, 4e9} {
			for _, km := range []float64{16000, 25000, 50000, 80000} {
				ps = append(ps, m.Schema().Defaults().
					With("detection", vocab.S(det)).With("bit_rate", vocab.F(rate)).With("distance", vocab.F(km*1e3)))
			}
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := m.Run(ctx, ps[i%len(ps)], 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scenarios/s")
}
