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
	damageFlowsPart(t, dir)
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

// TestRepairInterruptedKeepsDamagedTablePart: a damaged flows part takes
// its healthy main part to _corrupt/. When Repair stops between the two
// moves (here the main part's destination cannot be made; a kill does the
// same), the next Repair must still rerun the main part's scenarios:
// counting them done would leave them without their flows rows for good.
func TestRepairInterruptedKeepsDamagedTablePart(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
	damageFlowsPart(t, dir)
	// A file where _corrupt/scenarios/ would go.
	blocker := filepath.Join(dir, CorruptDir, MainTable)
	if err := os.MkdirAll(filepath.Dir(blocker), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Repair(dir); err == nil {
		t.Fatal("Repair succeeded with _corrupt/scenarios a file")
	}
	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	done, _, err := Repair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if done.Len() != 7 {
		t.Errorf("Repair found %d scenarios done, want 7 (parts 1 and 3; part 2's flows rows are damaged)", done.Len())
	}
}

// damageFlowsPart flips one byte in the middle of the flows table's second
// part, so that its hash no longer matches the manifest.
func damageFlowsPart(t *testing.T, dir string) {
	t.Helper()
	p := filepath.Join(TableDir(dir, "flows"), "part-0of1-000002.parquet")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
