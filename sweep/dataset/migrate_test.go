package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMigrate puts a dataset back into the former layout (main parts
// beside the lock file, second tables in _<table>/, no manifest) and
// expects Migrate to move it into the present one with every row, a
// manifest that verifies and no former directory left.
func TestMigrate(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(12)
	writeRows(t, dir, rows, Options{MaxRows: 5, Meta: testMeta()})
	wantMain, wantFlows := readValues(t, dir, nil), secondValues(t, dir, nil)
	toFormerLayout(t, dir)
	if !NeedsMigration(dir) {
		t.Fatal("NeedsMigration = false for the former layout")
	}
	n, err := Migrate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 {
		t.Errorf("Migrate moved %d parts, want 6 (3 main, 3 flows)", n)
	}
	if NeedsMigration(dir) {
		t.Error("NeedsMigration = true after Migrate")
	}
	if diff := cmp.Diff(wantMain, readValues(t, dir, nil)); diff != "" {
		t.Errorf("main table after Migrate (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantFlows, secondValues(t, dir, nil)); diff != "" {
		t.Errorf("flows after Migrate (-want +got):\n%s", diff)
	}
	if d, err := Verify(dir, true, nil); err != nil || len(d) != 0 {
		t.Errorf("Verify after Migrate = %v, %v; want nothing damaged", d, err)
	}
	for _, gone := range []string{"_flows", "part-0of1-000001.parquet"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still there after Migrate (%v)", gone, err)
		}
	}
	if n, err := Migrate(dir); n != 0 || err != nil {
		t.Errorf("second Migrate = %d, %v; want 0, nil", n, err)
	}
}

// TestVerify flips 64 bytes in the middle of a part, as a failing disk
// would, and drops a stray file into a table: Verify names both, and
// Repair moves both aside and returns the ids of the other parts only.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(12)
	writeRows(t, dir, rows, Options{MaxRows: 5, Meta: testMeta()})
	if d, err := Verify(dir, true, nil); err != nil || len(d) != 0 {
		t.Fatalf("Verify of a clean dataset = %v, %v", d, err)
	}
	ps, _ := Parts(dir)
	b, err := os.ReadFile(ps[1])
	if err != nil {
		t.Fatal(err)
	}
	for i := range 64 {
		b[len(b)/2-32+i] ^= 0xff
	}
	if err := os.WriteFile(ps[1], b, 0o644); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(dir, "flows", "zz.parquet")
	if err := os.WriteFile(stray, []byte("not ours"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Verify(dir, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 2 || d[0].Path != stray || d[1].Path != ps[1] {
		t.Errorf("Verify = %+v, want %s (stray) and %s (damaged)", d, stray, ps[1])
	}
	done, moved, err := Repair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 3 { // the damaged part, its flows part, the stray
		t.Errorf("Repair moved %+v, want the damaged part, its flows part and the stray file", moved)
	}
	if done.Len() != 7 {
		t.Errorf("after Repair %d ids, want 7 (parts 1 and 3)", done.Len())
	}
	if d, err := Verify(dir, true, nil); err != nil || len(d) != 0 {
		t.Errorf("Verify after Repair = %v, %v; want nothing", d, err)
	}
}
