package plots

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/closedform"
)

// TestRC13Readings checks the closed forms rc13-tab3's and rc13-fig8's
// cards set beside Table 3's 80,000 km row (1 Gbit/s, MSS 1500, a 76,800 B
// window of 51 whole segments), against values computed from the formulas
// as printed: RTT = 0.5334 + 1540 x 8e-9 + 320e-9 = 0.53341264 s, W/RTT =
// 612,000 / RTT = 1.147329 Mbit/s, Mathis (b = 1) 12,000 / RTT x
// sqrt(1500) = 0.871292 Mbit/s, b = 2 x sqrt(750) = 0.616096 Mbit/s.
// Tolerance 1e-6 relative: a few floating-point operations each.
func TestRC13Readings(t *testing.T) {
	rs := rc13Readings(75*1024, 1500, []rc13Ours{{km: 80000, gbps: 1, goodput: 0.77e6, runs: 3}})
	if len(rs) != len(rc13Tab3Doc) {
		t.Fatalf("%d readings, want one per printed row (%d)", len(rs), len(rc13Tab3Doc))
	}
	var r rc13Reading
	for _, x := range rs {
		if x.km == 80000 && x.gbps == 1 {
			r = x
		}
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"RTT", r.rtt, 0.53341264},
		{"W/RTT", r.window, 1.1473294e6},
		{"Mathis b=1", r.mathis1, 0.8712917e6},
		{"Mathis b=2", r.mathis2, 0.6160963e6},
		{"Padhye Eq. 32", r.padhye32, closedform.PadhyeFull(1500, 0.53341264, 1e-3, 1, 1, 51)},
		{"ours", r.ours, 0.77e6},
		{"document", r.doc, 0.291e6},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want)/tt.want > 1e-6 {
			t.Errorf("80,000 km reading %s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// TestRC13EightyKmNeeds checks what the cards say the 80,000 km row would
// need, at both ends of the range its printed digits allow (0.291 is
// 0.2905 to 0.2915 Mbit/s). Mathis inverts in closed form: p = 1.5 (8 MSS
// / (RTT B))², 8.93e-3 to 9.00e-3 (so 8.9 to 9.0 x the printed PER 1e-3),
// and the MSS at p = 1e-3 is B RTT sqrt(p/1.5) / 8, 500.1 to 501.8 B; the
// bisection must agree to 1e-5 relative (it stops at 1e-6). Asserted at
// both ends, as the card's conclusion: the loss is more than 8 x the
// printed PER, the timeout more than the 60 s RFC 6298 section 2.5 allows
// as the least cap, the MSS under the 536 B default MSS of RFC 9293 section
// 3.7.1 (the document's is 1500 B); and the
// held-out 50,000 km row, given the same loss factor, falls more than the
// specs' 5 % below its printed 1.845 Mbit/s.
func TestRC13EightyKmNeeds(t *testing.T) {
	rs := rc13Readings(75*1024, 1500, nil)
	var r, held rc13Reading
	for _, x := range rs {
		switch {
		case x.km == 80000 && x.gbps == 1:
			r = x
		case x.km == 50000 && x.gbps == 1:
			held = x
		}
	}
	const mss, segs = 1500.0, 51.0
	for _, b := range []float64{0.2905e6, 0.2915e6} {
		p1, p32, t0, m := rc13Needs(r, b, mss, segs)
		wantP := 1.5 * math.Pow(8*mss/(r.rtt*b), 2)
		wantM := b * r.rtt * math.Sqrt(r.per/1.5) / 8
		if math.Abs(p1-wantP)/wantP > 1e-5 || math.Abs(m-wantM)/wantM > 1e-5 {
			t.Errorf("needs(%v bit/s): Mathis p = %v, MSS = %v; want %v, %v", b, p1, m, wantP, wantM)
		}
		if got := closedform.PadhyeFull(mss, r.rtt, p32, 1, rc13T0, segs); math.Abs(got-b)/b > 1e-5 {
			t.Errorf("Eq. 32 at its solved p = %v gives %v bit/s, want %v", p32, got, b)
		}
		if got := closedform.PadhyeFull(mss, r.rtt, r.per, 1, t0, segs); math.Abs(got-b)/b > 1e-5 {
			t.Errorf("Eq. 32 at its solved T0 = %v gives %v bit/s, want %v", t0, got, b)
		}
		if p1 < 8*r.per || p32 < 8*r.per || t0 < 60 || m >= 536 {
			t.Errorf("needs(%v bit/s): p %v (Mathis), %v (Eq. 32), T0 %v s, MSS %v B: the card says > 8 x 1e-3, > 60 s, < 536 B", b, p1, p32, t0, m)
		}
		if got := rc13HeldOut(held, p32/r.per, mss, segs); got > 0.95*held.doc {
			t.Errorf("50,000 km at %v x its PER: Eq. 32 %v bit/s, want below 95 %% of the printed %v", p32/r.per, got, held.doc)
		}
	}
}

// TestRC13FiftyKmLossFree checks the card's reading of the 50,000 km row:
// its printed 1.845 Mbit/s is the window of the 16,000 km row (5.769
// Mbit/s x its RTT) over the 50,000 km RTT, within what the printed digits
// allow (each goodput is +-0.0005: -0.020 % to +0.052 %), so the document's
// run there lost nothing; at the printed PER 1e-4 Eq. 32 is more than 2 %
// below it (the loss costs that much over a long run).
func TestRC13FiftyKmLossFree(t *testing.T) {
	rs := rc13Readings(75*1024, 1500, nil)
	first, r := rs[0], rs[4]
	if first.km != 16000 || r.km != 50000 || r.gbps != 1 {
		t.Fatalf("rows 0 and 4 are %v and %v km, want 16000 and 50000", first.km, r.km)
	}
	implied := first.doc * first.rtt / r.rtt
	lo := (1.8445/(5.7695*first.rtt/r.rtt) - 1)
	hi := (1.8455/(5.7685*first.rtt/r.rtt) - 1)
	if d := r.doc/implied - 1; d < lo || d > hi {
		t.Errorf("50,000 km: printed %v vs the 16,000 km window %v: %+.4f %%, want within [%+.4f, %+.4f] %%", r.doc, implied, 100*d, 100*lo, 100*hi)
	}
	if r.padhye32 > 0.98*r.doc {
		t.Errorf("Eq. 32 at PER 1e-4 = %v bit/s, want more than 2 %% below the printed %v", r.padhye32, r.doc)
	}
}
