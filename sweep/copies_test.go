package sweep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// TestResumeSetsCopiesAside: a part copied under another name with its
// manifest entry is reported by Verify (crosslink status) naming both
// parts, and the next run moves the copy aside, says so, and leaves each
// scenario in the files once, without rerunning any.
func TestResumeSetsCopiesAside(t *testing.T) {
	m := newInverseSquare(0)
	dir := t.TempDir()
	cfg := Config{Model: m, Source: scenarios(m, 9, nil), Dir: dir, Meta: testMeta(), PartRows: 4}
	if _, err := Resume(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	orig := filepath.Join(dataset.MainTable, "part-0of1-000001.parquet")
	cp := filepath.Join(dataset.MainTable, "part-0of1-000007.parquet")
	for _, p := range [][2]string{
		{orig, cp},
		{filepath.Join(dataset.ManifestDir, orig+".json"), filepath.Join(dataset.ManifestDir, cp+".json")},
	} {
		b, err := os.ReadFile(filepath.Join(dir, p[0]))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p[1]), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := dataset.Verify(dir, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 1 || d[0].Path != filepath.Join(dir, cp) || !strings.Contains(d[0].Reason, orig) {
		t.Errorf("Verify = %+v, want %s damaged as a copy of %s", d, cp, orig)
	}
	var warn strings.Builder
	sum, err := Resume(context.Background(), cfg, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != 9 || sum.OK != 0 {
		t.Errorf("run after the copy: %+v, want 9 skipped and nothing rerun", sum)
	}
	if !strings.Contains(warn.String(), "repeats the rows of "+orig) {
		t.Errorf("warnings %q, want the copy named", warn.String())
	}
	ps, err := dataset.Parts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || ps[2] != filepath.Join(dir, dataset.MainTable, "part-0of1-000003.parquet") {
		t.Errorf("parts after the run: %v, want the 3 written, not the copy", ps)
	}
}
