package phy

import (
	"fmt"
	"math"
	"testing"
)

// TestResponsivity checks Eq. 2 against the photodetector rule of thumb
// Res = eta lambda[um] / 1.239841984, where hc/q_e = 1.239841984 um eV is
// the CODATA 2018 value (exact to the digits given). Tolerance 1e-9.
func TestResponsivity(t *testing.T) {
	for _, lambda := range []float64{850e-9, 1310e-9, 1550e-9} {
		got := Responsivity(0.75, lambda, CODATA())
		want := 0.75 * lambda * 1e6 / 1.239841984
		if relErr(got, want) > 1e-9 {
			t.Errorf("Responsivity(0.75, %v, codata) = %v, want %v", lambda, got, want)
		}
	}
}

// TestTelescopeGain checks Eq. 4 for the Table 1 aperture: a 0.15 m
// telescope at 1550 nm has a gain of 109.66 dB (20 log10(pi 0.15 /
// 1.55e-6) = 20 log10(304025.1) = 109.6582), to 1e-4 dB.
func TestTelescopeGain(t *testing.T) {
	if got := DB(TelescopeGain(0.15, 1550e-9)); math.Abs(got-109.6582) > 1e-4 {
		t.Errorf("DB(TelescopeGain(0.15, 1550 nm)) = %v dB, want 109.6582", got)
	}
}

// closedForm writes out section 4 of document 000 directly, with none of
// the package's functions, for the Table 1 link:
//
//	Res = q eta lambda / (h c)                     Eq. 2
//	G = (pi D / lambda)^2                          Eq. 4, D = 0.15 m
//	PR = PT etaT etaR GT GR (lambda/(4 pi z))^2   Eq. 3 (Friis)
//	i^2 = 4 kB T Be / R (direct)                   Eq. 5
//	i^2 = 2 q Res PR Be (coherent)                 Eq. 6
//	SNR = (Res PR)^2 / i^2                         Eq. 1
//	Be = 2 x bit rate (OOK)
//
// and returns the SNR.
func closedForm(k Constants, coherent bool, rate, z float64) float64 {
	const pt, eta, etaT, etaR, d, lambda, temp, r = 0.9, 0.75, 0.75, 0.75, 0.15, 1550e-9, 500, 50e3
	res := k.ElementaryCharge * eta * lambda / (k.Planck * k.LightSpeed)
	g := math.Pow(math.Pi*d/lambda, 2)
	pr := pt * etaT * etaR * g * g * math.Pow(lambda/(4*math.Pi*z), 2)
	be := 2 * rate
	noise := 4 * k.Boltzmann * temp * be / r
	if coherent {
		noise = 2 * k.ElementaryCharge * res * pr * be
	}
	return math.Pow(res*pr, 2) / noise
}

// TestBudgetClosedForm checks Link.Budget against closedForm at the
// distances of Table 2, for direct and coherent detection at 1 and 4 Gbps
// and both constant sets, to 1e-12 relative (a few roundings apart).
func TestBudgetClosedForm(t *testing.T) {
	for _, kn := range []string{"codata", "paper"} {
		k, err := ConstantsNamed(kn)
		if err != nil {
			t.Fatal(err)
		}
		for _, det := range []Detection{Direct, Coherent} {
			for _, rate := range []float64{1e9, 4e9} {
				for _, km := range []float64{16000, 25000, 50000, 80000} {
					name := fmt.Sprintf("%s/%v/%gGbps/%gkm", kn, det, rate/1e9, km)
					t.Run(name, func(t *testing.T) {
						l := Table1()
						l.Constants, l.Detection = k, det
						got := l.Budget(km*1e3, 2*rate).SNR
						want := closedForm(k, det == Coherent, rate, km*1e3)
						if relErr(got, want) > 1e-12 {
							t.Errorf("SNR = %v, want %v", got, want)
						}
					})
				}
			}
		}
	}
}

// ber returns the BER of link l at distance z for bit rate rate with the
// BER form f.
func ber(l Link, f func(float64) float64, rate, z float64) float64 {
	return f(l.Budget(z, 2*rate).SNR)
}

// TestMonotonic checks the shape of Fig. 6 of document 000 over
// 10,000-100,000 km: BER grows with distance and with bit rate (the
// document: "in both cases ... the BER is higher for transmissions at
// 4 Gbps"), and coherent detection beats direct detection at the same
// distance ("direct detection results in a higher BER than coherent
// detection"). The last holds beyond about 6,000 km for Table 1, where
// the received photocurrent is too small for thermal noise to be beaten
// by shot noise, so the check starts at 10,000 km. Comparisons are
// strict wherever the BER is below its cap of 1/2.
func TestMonotonic(t *testing.T) {
	for _, kn := range []string{"codata", "paper"} {
		k, _ := ConstantsNamed(kn)
		for _, form := range []struct {
			name string
			f    func(float64) float64
		}{{"eq7", BEREq7}, {"q", BERQ}} {
			t.Run(kn+"/"+form.name, func(t *testing.T) {
				direct, coherent := Table1(), Table1()
				direct.Constants, coherent.Constants = k, k
				coherent.Detection = Coherent
				for _, l := range []Link{direct, coherent} {
					for _, rate := range []float64{1e9, 4e9} {
						prev := 0.0
						for km := 10000.0; km <= 100000; km += 1000 {
							b := ber(l, form.f, rate, km*1e3)
							if b < prev || (b == prev && b < MaxBER) {
								t.Errorf("%v %g bit/s: BER(%g km) = %v, not above BER(%g km) = %v", l.Detection, rate, km, b, km-1000, prev)
							}
							prev = b
						}
					}
				}
				for km := 10000.0; km <= 100000; km += 1000 {
					for _, l := range []Link{direct, coherent} {
						b1, b4 := ber(l, form.f, 1e9, km*1e3), ber(l, form.f, 4e9, km*1e3)
						if b4 < b1 || (b4 == b1 && b1 < MaxBER) {
							t.Errorf("%v at %g km: BER(4 Gbps) = %v, not above BER(1 Gbps) = %v", l.Detection, km, b4, b1)
						}
					}
					for _, rate := range []float64{1e9, 4e9} {
						bd, bc := ber(direct, form.f, rate, km*1e3), ber(coherent, form.f, rate, km*1e3)
						if bc > bd || (bc == bd && bd < MaxBER) {
							t.Errorf("%g bit/s at %g km: coherent BER = %v, not below direct BER = %v", rate, km, bc, bd)
						}
					}
				}
			})
		}
	}
}

// TestDocumentClaims checks section 6.1 of document 000: "the use of
// direct detection is suggested for distances below 20,000 km and
// coherent detection for distances above 20,000 km". Reading "usable" as
// BER <= 1e-9 (the BER its section 6.2 uses), at 1 Gbps: direct detection
// is usable at 15,000 km and not at 20,000 km, while coherent detection is
// still usable from 20,000 to 50,000 km and is not at 80,000 km (where the
// document's TCP runs "include the BER effect").
func TestDocumentClaims(t *testing.T) {
	const usable = 1e-9
	for _, kn := range []string{"codata", "paper"} {
		k, _ := ConstantsNamed(kn)
		direct, coherent := Table1(), Table1()
		direct.Constants, coherent.Constants = k, k
		coherent.Detection = Coherent
		for _, f := range []func(float64) float64{BEREq7, BERQ} {
			checks := []struct {
				l      Link
				km     float64
				usable bool
			}{
				{direct, 15000, true},
				{direct, 20000, false},
				{coherent, 20000, true},
				{coherent, 50000, true},
				{coherent, 80000, false},
			}
			for _, c := range checks {
				b := ber(c.l, f, 1e9, c.km*1e3)
				if (b <= usable) != c.usable {
					t.Errorf("%s %v at %g km, 1 Gbps: BER = %v, want usable (<= %v) = %v", kn, c.l.Detection, c.km, b, usable, c.usable)
				}
			}
		}
	}
}

func TestParse(t *testing.T) {
	for _, s := range []string{"direct", "coherent"} {
		d, err := ParseDetection(s)
		if err != nil || d.String() != s {
			t.Errorf("ParseDetection(%q) = %v, %v, want %s", s, d, err, s)
		}
	}
	if _, err := ParseDetection("heterodyne"); err == nil {
		t.Errorf("ParseDetection(heterodyne) succeeded, want an error")
	}
	if _, err := ConstantsNamed("si"); err == nil {
		t.Errorf("ConstantsNamed(si) succeeded, want an error")
	}
}
