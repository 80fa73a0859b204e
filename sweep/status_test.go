package sweep

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// brokenWriter fails every write of some bytes, as a closed pipe does
// (an empty write sends nothing and succeeds).
type brokenWriter struct{}

func (brokenWriter) Write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	return 0, errors.New("broken pipe")
}

// TestReportWriteError checks that Report.Write returns the error of its
// writer, so that `crosslink status | head` does not exit 0 on a lost line.
func TestReportWriteError(t *testing.T) {
	r := &Report{Spec: "s", Dir: "out/s", Total: 2, OK: 1, Missing: 1, Failed: map[dataset.Status]int{}}
	if err := r.Write(brokenWriter{}); err == nil {
		t.Errorf("Report.Write(broken writer) = nil, want the write error")
	}
}

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
