package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/sweep/spec"
)

// osImageReadings reads specs/data/os-images.csv, document 002's bar
// charts measured in pixels, into plot -> series -> q -> value (the rows
// that are readings, not the relative claims derived from them).
func osImageReadings(t *testing.T) map[string]map[string]map[string]float64 {
	t.Helper()
	f, err := os.Open("specs/data/os-images.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	out := map[string]map[string]map[string]float64{}
	for _, r := range recs[1:] {
		if r[col["relative_plot"]] != "" {
			continue
		}
		x, err := strconv.ParseFloat(r[col["document"]], 64)
		if err != nil {
			t.Fatalf("%v: %v", r, err)
		}
		p, s := r[col["plot"]], r[col["read.series"]]
		if out[p] == nil {
			out[p] = map[string]map[string]float64{}
		}
		if out[p][s] == nil {
			out[p][s] = map[string]float64{}
		}
		out[p][s][r[col["where.queue_bdp_pct"]]] = x
	}
	return out
}

// osImageQueues are the q values (%) document 002's charts show.
var osImageQueues = []string{"100", "95", "90", "85", "80", "75", "70", "65", "60", "55", "50", "45", "40", "35", "30", "25", "20", "15", "10"}

// TestOSImagesJainMatchesBars checks the pixel readings of document 002's
// throughput charts against themselves: Jain's index drawn as a marker
// (read on the right axis) and Jain's index of the five bars (read on the
// left axis; the flows of one algorithm taken as equal, so that Jain's
// index over the ten flows is (sum of bars)^2 / (5 x sum of squares)) are
// two readouts of one run. Tolerance 0.02: a bar is read to +-0.5 Mbit/s
// (two pixel rows of 0.24 Mbit/s), which moves the index by at most
// 0.015 at these shares, and the marker to +-0.0024 (one row). A misread
// marker (the legend's Jain entry taken for it, as once at q = 20 %) is
// off by 0.045.
func TestOSImagesJainMatchesBars(t *testing.T) {
	v := osImageReadings(t)
	for _, plot := range []string{"os-fig2", "os-fig4", "os-fig6", "os-fig8"} {
		for _, q := range osImageQueues {
			var sum, sq float64
			for _, s := range []string{"BBR", "BBRv2", "CUBIC", "BIC", "Reno"} {
				x, ok := v[plot][s][q]
				if !ok {
					t.Fatalf("%s: no %s bar at q = %s %%", plot, s, q)
				}
				sum, sq = sum+x, sq+x*x
			}
			jain, ok := v[plot]["jain"][q]
			if !ok {
				t.Fatalf("%s: no Jain reading at q = %s %%", plot, q)
			}
			if fromBars := sum * sum / (5 * sq); math.Abs(fromBars-jain) > 0.02 {
				t.Errorf("%s, q = %s %%: Jain's index of the bars %.3f, the marker reads %.3f (more than 0.02 apart)", plot, q, fromBars, jain)
			}
		}
	}
}

// TestOSImagesStacks checks that every chart has every algorithm's part
// and the total at every q it shows, and that the parts add up to the
// total: each value is rounded to 0.1, so six roundings allow 0.3.
func TestOSImagesStacks(t *testing.T) {
	v := osImageReadings(t)
	for i := 2; i <= 9; i++ {
		plot := fmt.Sprintf("os-fig%d", i)
		for _, q := range osImageQueues {
			var sum float64
			for _, s := range []string{"BBR", "BBRv2", "CUBIC", "BIC", "Reno"} {
				x, ok := v[plot][s][q]
				if !ok {
					t.Fatalf("%s: no %s part at q = %s %%", plot, s, q)
				}
				sum += x
			}
			total, ok := v[plot]["total"][q]
			if !ok {
				t.Fatalf("%s: no total at q = %s %%", plot, q)
			}
			if math.Abs(sum-total) > 0.3+1e-9 {
				t.Errorf("%s, q = %s %%: the parts add up to %.1f, the stack reads %.1f", plot, q, sum, total)
			}
		}
	}
}

// TestOSImagesClaimsSelectBars checks that every claim of os-fig2 ...
// os-fig9 selects rows the figure's data has: its algorithm is "all" (the
// stack) or the label the plot gives a bar (twinTable writes the label),
// and its q is one the quick profile runs, so that a relabelled bar or a
// misspelt algorithm cannot turn claims into "not computed".
func TestOSImagesClaimsSelectBars(t *testing.T) {
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.ParseFile("specs/os-compete.yaml", reg)
	if err != nil {
		t.Fatal(err)
	}
	quick, err := s.Resolve("quick")
	if err != nil {
		t.Fatal(err)
	}
	runs := map[float64]bool{}
	for _, a := range quick.Grid {
		if a.Name == "queue_bdp" {
			for _, v := range a.Values {
				runs[math.Round(v.Float()*1000)/10] = true
			}
		}
	}
	if len(runs) == 0 {
		t.Fatal("the quick profile has no queue_bdp axis")
	}
	n := 0
	for _, p := range s.Plots {
		labels := map[string]bool{"all": true}
		for _, l := range p.Labels {
			labels[l] = true
		}
		for _, c := range p.Claims {
			n++
			for _, m := range c.Where {
				switch m.Column {
				case "algorithm":
					if !labels[m.Value] {
						t.Errorf("%s: %s: algorithm %q is no bar's label of %s", c.Pos, c.Claim, m.Value, p.ID)
					}
				case "queue_bdp_pct":
					if lo, hi, isRange, _ := spec.MatchRange(m.Value); isRange {
						if !runs[lo] || !runs[hi] {
							t.Errorf("%s: %s: range %s ends at a q the quick profile does not run", c.Pos, c.Claim, m.Value)
						}
					} else if q, err := strconv.ParseFloat(m.Value, 64); err != nil || !runs[q] {
						t.Errorf("%s: %s: q = %s %% is not run by the quick profile", c.Pos, c.Claim, m.Value)
					}
				}
			}
		}
	}
	if n < 8*19*6 {
		t.Errorf("os-fig2 ... os-fig9 have %d claims; want at least the 912 bars and totals of the eight charts", n)
	}
}
