package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/sweep"
)

// TestExpandAdaptive checks that expand states an adaptive spec's count as
// points times the replicate range (the replicates run depend on the
// results), not as a fixed number of scenarios.
func TestExpandAdaptive(t *testing.T) {
	const text = `name: adaptive-expand
model: fso-ber
seed: 1
replicates: {min: 3, max: 12, until: {metric: ber, ci95_rel: 0.05}}
grid:
  distance: [1km, 2km, 3km, 4km]
  bit_rate: [1Gbps, 10Gbps]
`
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "adaptive-expand.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := sweep.Load(path, reg, "", false, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	// 4 distances x 2 bit rates = 8 points; 8 x 3 = 24 to 8 x 12 = 96 scenarios.
	want := "8 points x 3..12 replicates (adaptive: until the 95 % interval of ber is within 0.05 of the mean): 24..96 scenarios"
	if err := expand(&out, j, 1); err != nil || !strings.Contains(out.String(), want) {
		t.Errorf("expand: %v\n%s\nwant it to say %s", err, out.String(), want)
	}
}
