package sweep

import (
	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// TestStoredCountsOwnScenariosOnly: after a failed write, the summary
// counts as stored the rows of this run's scenarios that reached the
// dataset. In a job array the other tasks add rows to the same dataset
// meanwhile; those must not count as this task's.
func TestStoredCountsOwnScenariosOnly(t *testing.T) {
	dir := t.TempDir()
	m := newInverseSquare(0)
	all := scenarios(m, 20, nil)
	// Another task's rows (shard 1of2), and three of this task's.
	for _, c := range []struct {
		shard string
		src   []int
	}{{"1of2", []int{10, 20}}, {"0of2", []int{0, 3}}} {
		cfg := Config{Model: m, Source: all[c.src[0]:c.src[1]], Dir: dir, Meta: testMeta(), Shard: c.shard, Workers: 1}
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
	}
	// This task ran five scenarios ok; the write of the last two failed.
	sum := Summary{OK: 5}
	stored(&sum, dir, all[:10], dataset.NewDone())
	if sum.OK != 3 || sum.Failed != 0 || sum.Unstored != 2 {
		t.Errorf("summary after the failed write: %d ok, %d failed, %d unstored; want 3, 0, 2", sum.OK, sum.Failed, sum.Unstored)
	}
}
