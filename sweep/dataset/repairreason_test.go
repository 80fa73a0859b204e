package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepairSaysWhyTablePartFailed: a damaged second-table part takes its
// main part to _corrupt/; the warning for both must say what is wrong
// with the table part.
func TestRepairSaysWhyTablePartFailed(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
	p := filepath.Join(TableDir(dir, "flows"), "part-0of1-000002.parquet")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, moved, err := Repair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 2 {
		t.Fatalf("Repair moved %+v, want the flows part and its main part", moved)
	}
	for _, m := range moved {
		if !strings.Contains(m.Reason, "differs from the manifest") {
			t.Errorf("reason for %s = %q, want the manifest mismatch", m.Path, m.Reason)
		}
	}
}
