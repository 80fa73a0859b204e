package sweep

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// TestCorruptPartsInPartitions checks that status lists the parts Repair
// set aside from hive partitions (_corrupt/<table>/<partition>/), not only
// those of an unpartitioned dataset.
func TestCorruptPartsInPartitions(t *testing.T) {
	dir := t.TempDir()
	want := []string{
		filepath.Join(dir, dataset.CorruptDir, "scenarios", "mode=error", "part-0of1-000002.parquet.corrupt"),
		filepath.Join(dir, dataset.CorruptDir, "scenarios", "mode=normal", "part-0of1-000003.parquet.corrupt.1"),
		filepath.Join(dir, dataset.CorruptDir, "scenarios", "part-0of1-000001.parquet.corrupt"),
	}
	for _, p := range want {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := corruptParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("corruptParts(%s) (-want +got):\n%s", dir, diff)
	}
}
