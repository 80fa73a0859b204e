package report

import (
	"os"
	"path/filepath"
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
	}{
		{"mean of replicates within rel", spec.Claim{Where: at("rate_bps", "1e9", "channels", "1", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5.769), Op: "approx", Rel: 0.05, Agg: "mean"}, 5.8, true, ""},
		{"max of replicates", spec.Claim{Where: at("curve", "a", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5.9), Op: "approx", Abs: 1e-9, Agg: "max"}, 5.9, true, ""},
		{"min outside abs", spec.Claim{Where: at("curve", "a", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5.9), Op: "approx", Abs: 0.1, Agg: "min"}, 5.7, false, ""},
		{"ratio to a reference selection", spec.Claim{Where: at("rate_bps", "1e9", "channels", "4", "distance_km", "16000"), RelativeTo: at("rate_bps", "4e9", "channels", "1"), Y: "goodput_mbps", Document: f(4), Op: "approx", Rel: 0.02, Agg: "mean"}, 4, true, ""},
		{"ge with slack", spec.Claim{Where: at("curve", "b", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5.85), Op: "ge", Abs: 0.1, Agg: "mean"}, 5.8, true, ""},
		{"le fails", spec.Claim{Where: at("curve", "b", "distance_km", "16000"), Y: "goodput_mbps", Document: f(5), Op: "le", Agg: "mean"}, 5.8, false, ""},
		{"between", spec.Claim{Where: at("distance_km", "80000"), Y: "goodput_mbps", Op: "between", Bounds: []float64{0.2, 0.3}, Agg: "mean"}, 0.29, true, ""},
		{"no matching row", spec.Claim{Where: at("distance_km", "1"), Y: "goodput_mbps", Document: f(1), Op: "approx", Rel: 1, Agg: "mean"}, 0, false, "no row of the figure's data has distance_km=1"},
		{"rows without a number", spec.Claim{Where: at("curve", "b", "distance_km", "80000"), Y: "goodput_mbps", Document: f(1), Op: "approx", Rel: 1, Agg: "mean"}, 0, false, "have no number in goodput_mbps"},
		{"unknown column", spec.Claim{Y: "throughput", Document: f(1), Op: "approx", Rel: 1, Agg: "mean"}, 0, false, `no column "throughput"`},
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
				if v.Verdict != NotReproduced || !strings.Contains(v.Reason, "not computed") {
					t.Errorf("verdict %q (%s), want not reproduced saying why", v.Verdict, v.Reason)
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
	for _, tt := range []struct {
		rs   []ClaimResult
		want string
	}{
		{[]ClaimResult{hold, hold}, Reproduced},
		{[]ClaimResult{hold, fail}, Partly},
		{[]ClaimResult{fail}, NotReproduced},
	} {
		got, reason := judge(tt.rs)
		if got != tt.want {
			t.Errorf("judge = %q, want %q", got, tt.want)
		}
		if (got == Reproduced) != (reason == "") {
			t.Errorf("verdict %q has reason %q; only a failing verdict has one", got, reason)
		}
	}
	if v := VerdictOf("x", "000", nil, t.TempDir(), true); v.Verdict != NoPublished {
		t.Errorf("no claims: %q, want %q", v.Verdict, NoPublished)
	}
	if v := VerdictOf("x", "000", nil, t.TempDir(), false); v.Verdict != NotDrawn {
		t.Errorf("not drawn: %q, want %q", v.Verdict, NotDrawn)
	}
}
