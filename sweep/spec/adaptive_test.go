package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAdaptiveReplicates(t *testing.T) {
	text := `name: adaptive
model: fso-ber
replicates: {min: 3, max: 30, until: {metric: ber, ci95_rel: 0.05}}
profiles:
  quick: {replicates: 2}
  tight:
    replicates: {min: 5, max: 50, until: {metric: received_power_dbm, ci95_rel: 1%}}
`
	s, err := Parse("adaptive.yaml", []byte(text), registry(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		profile    string
		replicates int
		adaptive   *Adaptive
	}{
		{"", 30, &Adaptive{Min: 3, Max: 30, Metric: "ber", CI95Rel: 0.05}},
		{"quick", 2, nil},
		{"tight", 50, &Adaptive{Min: 5, Max: 50, Metric: "received_power_dbm", CI95Rel: 0.01}},
	}
	for _, tt := range tests {
		r, err := s.Resolve(tt.profile)
		if err != nil {
			t.Fatal(err)
		}
		if r.Replicates != tt.replicates {
			t.Errorf("Resolve(%q).Replicates = %d, want %d", tt.profile, r.Replicates, tt.replicates)
		}
		if diff := cmp.Diff(tt.adaptive, r.Adaptive, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Pos" }, cmp.Ignore())); diff != "" {
			t.Errorf("Resolve(%q).Adaptive (-want +got):\n%s", tt.profile, diff)
		}
		if got, want := r.Size(), float64(tt.replicates); got != want {
			t.Errorf("Resolve(%q).Size() = %g, want %g (the maximum)", tt.profile, got, want)
		}
	}
}
