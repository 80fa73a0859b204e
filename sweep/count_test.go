package sweep

import (
	"errors"
	"strings"
	"testing"
)

// TestCounts checks the counts of run --dry-run: a plain spec's shard
// holds its share of the scenarios, an adaptive spec's shard (sharded by
// points) the whole plan, and a shard that does not fit is ErrOptions.
func TestCounts(t *testing.T) {
	// 4 sigmas x 2 groups = 8 points; 3 replicates, or 3..12 adaptive.
	fixed := strings.Replace(noisySpec, "replicates: {min: 3, max: 12, until: {metric: y, ci95_rel: 0.05}}", "replicates: 3", 1)
	tests := []struct {
		name    string
		text    string
		shard   Shard
		n       int
		missing int  // of an empty dataset
		options bool // ErrOptions wanted
	}{
		{"whole", fixed, Whole, 24, 24, false},
		{"a shard of a fixed spec", fixed, Shard{I: 1, N: 4}, 6, 6, false},
		{"more shards than scenarios", fixed, Shard{I: 0, N: 25}, 0, 0, true},
		// An adaptive plan holds up to 12 replicates a point; the first
		// round, 3 a point, is what an empty dataset misses.
		{"adaptive whole", noisySpec, Whole, 8 * 12, 8 * 3, false},
		{"a shard of an adaptive spec: its points' whole plan", noisySpec, Shard{I: 0, N: 8}, 8 * 12, 8 * 3, false},
		{"more shards than points", noisySpec, Shard{I: 0, N: 9}, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := noisyJob(t, newNoisy(), tt.text, t.TempDir())
			n, missing, err := j.Counts(tt.shard)
			if tt.options {
				if !errors.Is(err, ErrOptions) {
					t.Errorf("Counts(%s) = %d, %d, %v; want ErrOptions", tt.shard, n, missing, err)
				}
				return
			}
			if err != nil || n != tt.n || missing != tt.missing {
				t.Errorf("Counts(%s) = %d, %d, %v; want %d, %d", tt.shard, n, missing, err, tt.n, tt.missing)
			}
		})
	}
}
