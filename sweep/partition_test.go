package sweep

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// secondRows is rows for the second table of a dataset, partitions
// included.
func secondRows(t *testing.T, dir, table string) [][]any {
	t.Helper()
	tbl, err := dataset.ReadSecond(dir, table, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	out := cells(t, tbl)
	sort.Slice(out, func(i, j int) bool { return strings.Compare(fmtRow(out[i]), fmtRow(out[j])) < 0 })
	return out
}

func fmtRow(r []any) string { return cmp.Diff(nil, r) }

// TestPartitionedEqualsUnpartitioned: a dataset split by mode holds the
// rows of the unsplit one, second tables included, resumes, merges per
// partition and repairs per partition.
func TestPartitionedEqualsUnpartitioned(t *testing.T) {
	m := newInverseSquare(0)
	src := scenarios(m, 40, map[int]string{5: "error", 17: "error"})
	flat := t.TempDir()
	if _, err := Run(context.Background(), Config{Model: m, Source: src, Dir: flat, Meta: testMeta(), PartRows: 7}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	part := func(n int) Summary {
		t.Helper()
		sum, err := Resume(context.Background(), Config{Model: m, Source: src[:n], Dir: dir, Meta: testMeta(),
			PartRows: 7, Workers: 3, PartitionBy: []string{"mode"}, Partitions: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	part(20)
	if sum := part(40); sum.Skipped != 20 || sum.OK+sum.Failed != 20 {
		t.Errorf("resumed partitioned run: %+v, want 20 skipped and 20 run", sum)
	}
	for _, p := range []string{"scenarios/mode=normal", "scenarios/mode=error", "samples/mode=normal"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("partition directory: %v", err)
		}
	}
	// The error scenarios fail and have no samples: no directory without rows.
	if _, err := os.Stat(filepath.Join(dir, "samples", "mode=error")); !os.IsNotExist(err) {
		t.Errorf("samples/mode=error exists without rows (%v)", err)
	}
	if top, _ := filepath.Glob(filepath.Join(dir, "scenarios", "part-*")); len(top) > 0 {
		t.Errorf("partitioned dataset has parts at the top: %v", top)
	}
	if keys, err := dataset.PartitionKeys(dir); err != nil || !cmp.Equal(keys, []string{"mode"}) {
		t.Errorf("PartitionKeys = %v, %v, want [mode]", keys, err)
	}
	check := func(what string) {
		t.Helper()
		if diff := cmp.Diff(rows(t, flat, true), rows(t, dir, true)); diff != "" {
			t.Errorf("%s: main table (-flat +partitioned):\n%s", what, diff)
		}
		if diff := cmp.Diff(secondRows(t, flat, "samples"), secondRows(t, dir, "samples")); diff != "" {
			t.Errorf("%s: samples (-flat +partitioned):\n%s", what, diff)
		}
	}
	check("run")

	if err := dataset.Merge(dir, nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"mode=normal", "mode=error"} {
		parts, _ := filepath.Glob(filepath.Join(dir, "scenarios", p, "part-*.parquet"))
		if len(parts) != 1 {
			t.Errorf("merged partition %s has %d parts, want 1", p, len(parts))
		}
	}
	check("merged")

	// A damaged part in one partition goes to _corrupt/ under its path,
	// and its scenarios run again.
	bad, _ := filepath.Glob(filepath.Join(dir, "scenarios", "mode=error", "part-*.parquet"))
	if err := os.WriteFile(bad[0], []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum := part(40); sum.Failed != 2 || sum.Skipped != 38 {
		t.Errorf("after damage: %+v, want the 2 error scenarios rerun", sum)
	}
	if c, _ := filepath.Glob(filepath.Join(dir, dataset.CorruptDir, "scenarios", "mode=error", "*.corrupt")); len(c) != 1 {
		t.Errorf("damaged part moved to %v, want one file in _corrupt/scenarios/mode=error", c)
	}
	check("repaired")
}

func TestPartitioning(t *testing.T) {
	m := newInverseSquare(0)
	text := "name: inv\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m]\n  mode: [normal, error]\n"
	j := noisyJob(t, m, text, t.TempDir())
	tests := []struct {
		by   []string
		want string // error text, "" for none
	}{
		{[]string{"mode"}, ""},
		{[]string{"distance"}, "float parameter"},
		{[]string{"mdoe"}, `did you mean "mode"`},
		{[]string{"mode", "mode"}, "twice"},
	}
	for _, tt := range tests {
		keys, n, err := Partitioning(j, tt.by)
		switch {
		case tt.want == "" && (err != nil || n != 2 || !cmp.Equal(keys, []string{"mode"})):
			t.Errorf("Partitioning(%v) = %v, %d, %v; want [mode], 2, nil", tt.by, keys, n, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("Partitioning(%v) error = %v, want one saying %q", tt.by, err, tt.want)
		}
	}

	// An unpartitioned dataset refuses partitions; a partitioned one keeps
	// its keys when none are given and refuses others.
	cfg := j.Config()
	if _, err := Resume(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Partitioning(j, []string{"mode"}); err == nil || !strings.Contains(err.Error(), "unpartitioned") {
		t.Errorf("partitioning a flat dataset: %v, want a refusal", err)
	}
	j.Dir = t.TempDir()
	cfg = j.Config()
	cfg.PartitionBy, cfg.Partitions = []string{"mode"}, 2
	if _, err := Resume(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if keys, _, err := Partitioning(j, nil); err != nil || !cmp.Equal(keys, []string{"mode"}) {
		t.Errorf("Partitioning(nil) on a dataset split by mode = %v, %v; want [mode]", keys, err)
	}
}
