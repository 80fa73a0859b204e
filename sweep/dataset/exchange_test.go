package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSwapByRenameFailureKeepsTable: where the file system has no
// RENAME_EXCHANGE (NFS), the table is renamed away before the new state
// is put in its place. When that second rename fails, the table must be
// back where it was, not left inside .merge/ (which the next Merge
// deletes).
func TestSwapByRenameFailureKeepsTable(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "scenarios")
	if err := os.Mkdir(live, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(live, "part-0of1-000001.parquet"), []byte("rows"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The staged directory is missing (its parent is there), so the
	// second rename fails.
	if err := os.Mkdir(filepath.Join(dir, ".merge"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := swapByRename(filepath.Join(dir, ".merge", "scenarios"), live); err == nil {
		t.Fatal("swapByRename of a missing directory succeeded")
	}
	if b, err := os.ReadFile(filepath.Join(live, "part-0of1-000001.parquet")); err != nil || string(b) != "rows" {
		t.Errorf("table after a failed swap: %q, %v; want its part back in place", b, err)
	}
}

// TestMergeAfterKilledRenameSwap: a merge killed between the two renames
// of the swap without RENAME_EXCHANGE leaves the table in
// .merge/<table>.old and no table directory. The next Merge must put the
// table back, not delete .merge/ with every row in it.
func TestMergeAfterKilledRenameSwap(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(12)
	writeRows(t, dir, rows, Options{MaxRows: 5, Meta: testMeta()})
	want := readValues(t, dir, nil)
	if err := os.MkdirAll(filepath.Join(dir, mergeDir, MainTable), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(MainDir(dir), filepath.Join(dir, mergeDir, MainTable+".old")); err != nil {
		t.Fatal(err)
	}
	if err := Merge(dir, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, readValues(t, dir, nil)); diff != "" {
		t.Errorf("rows after Merge (-want +got):\n%s", diff)
	}
	if d, err := Verify(dir, false, nil); err != nil || len(d) != 0 {
		t.Errorf("Verify after Merge = %v, %v; want nothing damaged", d, err)
	}
}

// TestRepairAfterKilledRenameSwap: a resume after such a killed merge
// must count the table's scenarios as done, not run them all again.
func TestRepairAfterKilledRenameSwap(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
	if err := os.MkdirAll(filepath.Join(dir, mergeDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(MainDir(dir), filepath.Join(dir, mergeDir, MainTable+".old")); err != nil {
		t.Fatal(err)
	}
	done, moved, err := Repair(dir)
	if err != nil || len(moved) != 0 {
		t.Fatalf("Repair = %v, %v; want nothing moved", moved, err)
	}
	if n := done.Len(); n != 12 {
		t.Errorf("Repair found %d scenarios done, want 12", n)
	}
}
