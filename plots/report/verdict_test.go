package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep/spec"
)

// figCSV is the tidy data of a small figure: goodput per rate, channel
// count and distance, two rows per point (as two replicates would give).
const figCSV = `curve,rate_bps,channels,distance_km,goodput_mbps,note
a,1e+09,1,16000,5.7,
a,1e+09,1,16000,5.9,
b,4e+09,1,16000,5.8,
c,1e+09,4,16000,23.2,
a,1e+09,1,80000,0.29,
b,4e+09,1,80000,,
`

func TestVerdictOf(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fig.csv"), []byte(figCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fig2.csv"), []byte("curve,distance_km,goodput_mbps\na,16000,2.9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := func(x float64) *float64 { return &x }
	at := func(kv ...string) []spec.ClaimMatch {
		var ms []spec.ClaimMatch
		for i := 0; i < len(kv); i += 2 {
			ms = append(ms, spec.ClaimMatch{Column: kv[i], Value: kv[i+1]})
		}
		return ms
	}
	tests := []struct {
		name  string
		claim spec.Claim
		ours  float64 // NaN-free expected value; ignored when err
		holds bool
		err   string
		// notComputed: the claim's point is not in the data, which reads
		// "not computed" and is no failure.
		notComputed bool
	}{
		{"mean of replicates within rel", spec.Claim{Where: at("rate_bps", "1e9", "channels", "1", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5.769), Op: "approx", Rel: 0.05, Agg: "mean"}, 5.8, true, "", false},
		{"max of replicates", spec.Claim{Where: at("curve", "a", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5.9), Op: "approx", Abs: 1e-9, Agg: "max"}, 5.9, true, "", false},
		{"min outside abs", spec.Claim{Where: at("curve", "a", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5.9), Op: "approx", Abs: 0.1, Agg: "min"}, 5.7, false, "", false},
		{"ratio to a reference selection", spec.Claim{Where: at("rate_bps", "1e9", "channels", "4", "distance_km", "16000"), RelativeTo: at("rate_bps", "4e9", "channels", "1"), Y: "goodput_mbps", Document: f(4), Op: "approx", Rel: 0.02, Agg: "mean"}, 4, true, "", false},
		{"ge with slack", spec.Claim{Where: at("curve", "b", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5.85), Op: "ge", Abs: 0.1, Agg: "mean"}, 5.8, true, "", false},
		{"le fails", spec.Claim{Where: at("curve", "b", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5), Op: "le", Agg: "mean"}, 5.8, false, "", false},
		{"between", spec.Claim{Where: at("distance_km", "80000"), Y: "goodput_mbps", Op: "between", Bounds: []float64{0.2, 0.3}, Agg: "mean"}, 0.29, true, "", false},
		{"no matching row", spec.Claim{Where: at("distance_km", "1"), Y: "goodput_mbps", Document: f(1), Op: "approx", Rel: 1, Agg: "mean"}, 0, false, "no row of the figure's data has distance_km=1", true},
		{"range selects rows in [lo, hi]", spec.Claim{Where: at("curve", "a", "distance_km", "1000..20000"), Y: "goodput_mbps", Document: f(5.8), Op: "approx", Abs: 1e-9, Agg: "mean"}, 5.8, true, "", false},
		// A text value no row has is a mistake in the claim, not a point
		// the profile skipped: it fails.
		{"misspelt text value", spec.Claim{Where: at("curve", "A", "distance_km", "16000"), Y: "goodput_mbps", Document: f(1), Op: "approx", Rel: 1, Agg: "mean"}, 0, false, `no row of the figure's data has curve=A (its values: "a", "b", "c")`, false},
		{"range selecting nothing", spec.Claim{Where: at("distance_km", "1..10"), Y: "goodput_mbps", Document: f(1), Op: "approx", Rel: 1, Agg: "mean"}, 0, false, "distance_km=1..10", true},
		// at_max: the largest goodput at 16000 km is curve c's 23.2, at 4 channels.
		{"at the largest value of another column", spec.Claim{Where: at("distance_km", "16000"), Y: "channels", AtMax: "goodput_mbps", Document: f(4), Op: "approx", Abs: 1e-9, Agg: "mean"}, 4, true, "", false},
		// difference: curve a at 16000 km (mean 5.8) less curve b there (5.8).
		{"difference to a reference selection", spec.Claim{Where: at("curve", "a", "distance_km", "16000"), RelativeTo: at("curve", "b"), Relative: "difference", Y: "goodput_mbps", Document: f(0), Op: "approx", Abs: 1e-9, Agg: "mean"}, 0, true, "", false},
		// relative_plot: fig2.csv holds goodput 2.9 for curve a at 16000 km; 5.8 - 2.9.
		{"difference to another figure", spec.Claim{Where: at("curve", "a", "distance_km", "16000"), RelativePlot: "fig2", Relative: "difference", Y: "goodput_mbps", Document: f(2.9), Op: "approx", Abs: 1e-9, Agg: "mean"}, 2.9, true, "", false},
		{"ratio to another figure", spec.Claim{Where: at("curve", "a", "distance_km", "16000"), RelativePlot: "fig2", Y: "goodput_mbps", Document: f(2), Op: "approx", Abs: 1e-9, Agg: "mean"}, 2, true, "", false},
		{"another figure not drawn", spec.Claim{Where: at("curve", "a"), RelativePlot: "nofig", Y: "goodput_mbps", Document: f(2), Op: "approx", Abs: 1e-9, Agg: "mean"}, 0, false, "relative_plot nofig: the figure wrote no data file nofig.csv", false},
		{"rows without a number", spec.Claim{Where: at("curve", "b", "distance_km", "80000"), Y: "goodput_mbps", Document: f(1), Op: "approx", Rel: 1, Agg: "mean"}, 0, false, "have no number in goodput_mbps", false},
		{"unknown column", spec.Claim{Y: "throughput", Document: f(1), Op: "approx", Rel: 1, Agg: "mean"}, 0, false, `no column "throughput"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.claim.Claim, tt.claim.Source = tt.name, "test"
			v := VerdictOf("fig", "000", []spec.Claim{tt.claim}, dir, true)
			r := v.Claims[0]
			if tt.err != "" {
				if r.Ours != nil || !strings.Contains(r.Error, tt.err) || r.Holds {
					t.Fatalf("got ours %v, error %q, holds %v; want no value and an error with %q", r.Ours, r.Error, r.Holds, tt.err)
				}
				if r.NotComputed != tt.notComputed {
					t.Errorf("not computed = %v, want %v", r.NotComputed, tt.notComputed)
				}
				want := NotReproduced
				if tt.notComputed {
					want = NotComputed
				}
				why := "no value"
				if tt.notComputed {
					why = "not computed"
				}
				if v.Verdict != want || !strings.Contains(v.Reason, why) || !strings.HasPrefix(r.OursText(), why+": ") {
					t.Errorf("verdict %q (%s), want %s saying why", v.Verdict, v.Reason, want)
				}
				return
			}
			if r.Ours == nil {
				t.Fatalf("no value: %s", r.Error)
			}
			if d := *r.Ours - tt.ours; d > 1e-12 || d < -1e-12 {
				t.Errorf("ours = %g, want %g", *r.Ours, tt.ours)
			}
			if r.Holds != tt.holds {
				t.Errorf("holds = %v, want %v", r.Holds, tt.holds)
			}
		})
	}
}

func TestJudge(t *testing.T) {
	one := 1.0
	hold := ClaimResult{Claim: "a", Holds: true, Ours: &one, DocumentValue: &one, Op: "approx"}
	fail := ClaimResult{Claim: "b", Ours: &one, DocumentValue: &one, Op: "le"}
	skip := ClaimResult{Claim: "c", DocumentValue: &one, Op: "approx", NotComputed: true, Error: "no row"}
	for _, tt := range []struct {
		rs      []ClaimResult
		want    string
		reason  string // a part of the reason; "" for none
		holding string
	}{
		{[]ClaimResult{hold, hold}, Reproduced, "", "2 of 2"},
		{[]ClaimResult{hold, fail}, Partly, "1 of 2 claims fails", "1 of 2"},
		{[]ClaimResult{fail}, NotReproduced, "1 of 1 claims fails", "0 of 1"},
		// Claims about points the profile did not run neither hold nor fail.
		{[]ClaimResult{hold, skip}, Reproduced, "1 of 2 claims not computed", "1 of 1 (1 not computed)"},
		{[]ClaimResult{hold, fail, skip, skip}, Partly, "1 of 2 claims fails", "1 of 2 (2 not computed)"},
		{[]ClaimResult{fail, skip}, NotReproduced, "1 of 1 claims fails", "0 of 1 (1 not computed)"},
		{[]ClaimResult{skip, skip}, NotComputed, "2 of 2 claims not computed", "0 of 0 (2 not computed)"},
		// A reason names the first ten failing claims, then counts the rest.
		{[]ClaimResult{fail, fail, fail, fail, fail, fail, fail, fail, fail, fail, fail, fail, hold}, Partly, "12 of 13 claims fail: b (ours 1, document <= 1); " + strings.Repeat("b (ours 1, document <= 1); ", 9) + "and 2 more (the claims table lists them).", "1 of 13"},
	} {
		got, reason := judge(tt.rs)
		if got != tt.want {
			t.Errorf("judge = %q, want %q", got, tt.want)
		}
		if (tt.reason == "") != (reason == "") || !strings.Contains(reason, tt.reason) {
			t.Errorf("verdict %q has reason %q, want one with %q", got, reason, tt.reason)
		}
		if h := (Verdict{Claims: tt.rs}).Holding(); h != tt.holding {
			t.Errorf("holding %q, want %q", h, tt.holding)
		}
	}
	if v := VerdictOf("x", "000", nil, t.TempDir(), true); v.Verdict != NoPublished {
		t.Errorf("no claims: %q, want %q", v.Verdict, NoPublished)
	}
	if v := VerdictOf("x", "000", nil, t.TempDir(), false); v.Verdict != NotDrawn {
		t.Errorf("not drawn: %q, want %q", v.Verdict, NotDrawn)
	}
}

// TestWriteVerdictsMarkdown checks the generated verdicts file: it names
// the commit, the profile and the command, counts each figure's claims
// that hold, fail and were not computed, and lists the claims of every
// drawn figure with our value or why there is none.
func TestWriteVerdictsMarkdown(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"fig", "mine"} {
		if err := os.WriteFile(filepath.Join(dir, id+".csv"), []byte(figCSV), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := func(x float64) *float64 { return &x }
	claims := []spec.Claim{
		{Claim: "holds", Source: "Document 000, Fig. 8", Where: []spec.ClaimMatch{{Column: "curve", Value: "c"}}, Y: "goodput_mbps", Document: f(23), Op: "approx", Abs: 0.5, Agg: "mean"},
		{Claim: "fails", Source: "Document 000, Fig. 8", Where: []spec.ClaimMatch{{Column: "curve", Value: "b"}}, Y: "goodput_mbps", Document: f(1), Op: "le", Agg: "mean"},
		{Claim: "a point the profile skips", Source: "Document 000, Fig. 8", Where: []spec.ClaimMatch{{Column: "distance_km", Value: "50000"}}, Y: "goodput_mbps", Document: f(1), Op: "approx", Rel: 0.1, Agg: "mean"},
	}
	run := &Run{Spec: "figspec", Profile: "full"}
	r := &Report{Profile: "full", Figures: []*Figure{
		{Entry: Entry{ID: "fig", Document: "000", Figure: "Fig. 8"}, Declared: true, Drawn: true, Run: run, Verdict: VerdictOf("fig", "000", claims, dir, true)},
		{Entry: Entry{ID: "gone", Document: "000", Figure: "Fig. 9"}, Declared: true, Run: run, Verdict: VerdictOf("gone", "000", claims, dir, false)},
	}, Extra: []*Figure{
		{Entry: Entry{ID: "mine"}, Declared: true, Drawn: true, Run: run, Verdict: VerdictOf("mine", "", claims[:1], dir, true)},
	}}
	if v := r.Figures[0].Verdict; v.Hold != 1 || v.Fail != 1 || v.NotComputed != 1 {
		t.Errorf("verdicts.json counts: %d hold, %d fail, %d not computed; want 1, 1, 1", v.Hold, v.Fail, v.NotComputed)
	}
	var b strings.Builder
	if err := r.WriteVerdictsMarkdown(&b, Provenance{Commit: "0123abc+dirty", Command: "`crosslink report -p full --verdicts-md docs/verdicts-full.md`"}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"<!-- Generated by `crosslink report -p full --verdicts-md docs/verdicts-full.md`; do not edit. -->",
		"# Verdicts at the full profile",
		"Computed by crosslink at commit 0123abc+dirty from the datasets of profile full.",
		"1 of the 2 figures and tables of the source documents are drawn: 1 partly; claims: 1 hold, 1 fail, 1 not computed",
		"| [fig](#fig) | document 000, Fig. 8 | partly | 1 | 1 | 1 | figspec | full |",
		"| gone | document 000, Fig. 9 | missing | 0 | 0 | 0 | figspec | full |",
		"**Verdict: partly.** 1 of 2 claims fails: fails (ours 5.8, document <= 1). 1 of 3 claims not computed",
		"| a point the profile skips | Document 000, Fig. 8 | goodput_mbps where distance_km=50000 | 1 within 10 % | not computed: ",
		"| not computed |\n",
		// A figure of no document says so in its row and in its section's
		// heading, which a link from elsewhere lands on.
		"| [mine](#mine) | not a figure of the source documents | reproduced | 1 | 0 | 0 | figspec | full |",
		"\n## mine: not a figure of the source documents\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("verdicts file lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "## gone") {
		t.Errorf("a figure not drawn has a claims section:\n%s", md)
	}
	// Every in-page link has its anchor.
	for _, m := range regexp.MustCompile(`\]\(#([^)]+)\)`).FindAllStringSubmatch(md, -1) {
		if !strings.Contains(md, `<a id="`+m[1]+`"></a>`) {
			t.Errorf("link to #%s has no anchor", m[1])
		}
	}
}
