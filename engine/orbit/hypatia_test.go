package orbit

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"
)

// hypatiaTol is the agreement asked of the path RTTs (issue 16): 0.5 ms at
// every 100 ms step. Both sides move the satellites by SGP4 from the same
// elements; what remains is PyEphem's own frame and Earth model for the
// stations (about 1 km of position), which shows only where a satellite
// crosses the ground-link range limit: the path then switches one 100 ms
// step earlier or later on one side. Such a step is allowed when our RTT
// matches Hypatia's at the neighbouring step, at most maxShifted times per
// pair (0.15 % of the steps).
const (
	hypatiaTol = 0.5e-3 // s
	maxShifted = 3
)

// TestHypatiaRTT compares the path round trips of the router with the ones
// Hypatia's satgenpy produced for Kuiper K1 (testdata/hypatia/README.md
// says how): three city pairs, every 100 ms for 200 s, the same shell
// (mean motion 14.80 rev/day, Hypatia's phasing, SGP4 motion), the same
// epoch (2000-01-01 00:00 UT, so the same Earth rotation angle), stations
// on Hypatia's WGS-72 ellipsoid and its ground-link range limit of
// 1,260 km. A pair with no path is 0 in both.
func TestHypatiaRTT(t *testing.T) {
	f, err := os.Open("testdata/hypatia/kuiper_k1_rtt.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2001 {
		t.Fatalf("%d rows, want a header and 2000 steps", len(recs))
	}
	sh := mustShell(t, "kuiper-k1")
	c, err := NewConstellation(sh, Motion{GMST0: GMSTAt(-0.5), SGP4: true})
	if err != nil {
		t.Fatal(err)
	}
	pairs := [][2]string{{"manila", "dalian"}, {"istanbul", "nairobi"}, {"rio-de-janeiro", "saint-petersburg"}}
	for k, pr := range pairs {
		a, _ := City(pr[0])
		b, _ := City(pr[1])
		r, err := NewRouter(c, WGS72, a, b, sh.Rule(true))
		if err != nil {
			t.Fatal(err)
		}
		n := len(recs) - 1
		times, theirs, ours := make([]float64, n), make([]float64, n), make([]float64, n)
		var p, prev Path
		changes := 0
		for i, rec := range recs[1:] {
			ns, err1 := strconv.ParseInt(rec[0], 10, 64)
			v, err2 := strconv.ParseFloat(rec[k+1], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("row %d: %v %v", i+2, err1, err2)
			}
			if want := int64(i) * 100e6; ns != want {
				t.Fatalf("row %d: time %d ns, want %d", i+2, ns, want)
			}
			times[i], theirs[i] = float64(ns)/1e9, v/1e3
			if r.Route(times[i], &p) {
				ours[i] = 2 * p.Length / LightSpeed
			}
			if i > 0 && !p.Same(&prev) {
				changes++
			}
			prev.CopyFrom(&p)
		}
		near := func(x, y float64) bool { return math.Abs(x-y) <= hypatiaTol && (x == 0) == (y == 0) }
		worst, sum, shifted := 0.0, 0.0, 0
		for i := range ours {
			if near(ours[i], theirs[i]) {
				d := math.Abs(ours[i] - theirs[i])
				worst, sum = math.Max(worst, d), sum+d
				continue
			}
			if (i > 0 && near(ours[i], theirs[i-1])) || (i+1 < n && near(ours[i], theirs[i+1])) {
				shifted++
				t.Logf("%s-%s t=%.1f s: %.3f ms here, %.3f ms in Hypatia, which switches one step apart", pr[0], pr[1], times[i], ours[i]*1e3, theirs[i]*1e3)
				continue
			}
			t.Errorf("%s-%s t=%.1f s: RTT %.3f ms here, %.3f ms in Hypatia", pr[0], pr[1], times[i], ours[i]*1e3, theirs[i]*1e3)
		}
		if shifted > maxShifted {
			t.Errorf("%s-%s: %d steps switch one step apart from Hypatia, want at most %d", pr[0], pr[1], shifted, maxShifted)
		}
		t.Logf("%s-%s: |ours - Hypatia| max %.4f ms, mean %.4f ms over the %d matching steps of %d; %d one-step switch shifts; %d path changes",
			pr[0], pr[1], worst*1e3, sum/float64(n-shifted)*1e3, n-shifted, n, shifted, changes)
	}
}
