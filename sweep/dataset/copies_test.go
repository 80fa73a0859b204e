package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// copyPart copies a part and its manifest entry under a new name, as a
// user copying files by hand (cp part-...-000001.parquet part-...-000009.parquet)
// would; the copy verifies like any part.
func copyPart(t *testing.T, dir, table, from, to string) {
	t.Helper()
	for _, p := range [][2]string{
		{filepath.Join(dir, table, from), filepath.Join(dir, table, to)},
		{entryPath(dir, filepath.Join(table, from)), entryPath(dir, filepath.Join(table, to))},
	} {
		b, err := os.ReadFile(p[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p[1], b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fileRows counts the rows of every part of the main table, as DuckDB's
// read_parquet('scenarios/**/*.parquet') does: no row is dropped.
func fileRows(t *testing.T, dir string) int64 {
	t.Helper()
	ps, err := Parts(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, p := range ps {
		r, err := file.OpenParquetFile(p, false)
		if err != nil {
			t.Fatal(err)
		}
		n += r.NumRows()
		r.Close()
	}
	return n
}

// TestCopiedPart: a part copied with its manifest entry passes the hash
// check, and readers would read its rows twice. Verify (status) reports
// the copy as damage naming both parts; Repair (run) moves it, and its
// second-table part, aside, so each scenario is in the table once.
func TestCopiedPart(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
	copyPart(t, dir, MainTable, "part-0of1-000001.parquet", "part-0of1-000009.parquet")
	copyPart(t, dir, "flows", "part-0of1-000001.parquet", "part-0of1-000009.parquet")
	if n := fileRows(t, dir); n != 17 {
		t.Fatalf("%d rows in the files, want 17 (12 and the copy's 5)", n)
	}
	d, err := Verify(dir, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, MainTable, "part-0of1-000009.parquet")
	if len(d) != 1 || d[0].Path != copyPath || !strings.Contains(d[0].Reason, filepath.Join(MainTable, "part-0of1-000001.parquet")) {
		t.Fatalf("Verify = %+v, want %s damaged, naming part-0of1-000001.parquet", d, copyPath)
	}
	done, moved, err := Repair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 2 || moved[1].Path != copyPath {
		t.Errorf("Repair moved %+v, want the copy and its flows part", moved)
	}
	if done.Len() != 12 {
		t.Errorf("after Repair %d ids, want 12", done.Len())
	}
	if n := fileRows(t, dir); n != 12 {
		t.Errorf("after Repair %d rows in the files, want 12", n)
	}
	if d, err := Verify(dir, true, nil); err != nil || len(d) != 0 {
		t.Errorf("Verify after Repair = %+v, %v; want nothing", d, err)
	}
}

// TestRetriedRowsAreNoCopy: the rows a --retry-failed run supersedes (a
// failed row, then the scenario's ok row in a later part) are not a copy:
// Supersede drops them, and Repair must not move the part holding the
// new rows.
func TestRetriedRowsAreNoCopy(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(10)
	writeRows(t, dir, rows, Options{Meta: testMeta()})
	retry := testRows(10)[4:5] // failed in the first run
	retry[0].Status, retry[0].Error = OK, ""
	retry[0].Metrics = testRows(10)[3].Metrics
	writeRows(t, dir, retry, Options{Meta: testMeta()})
	// A failed row retried and failed again.
	again := testRows(10)[9:10]
	again[0].WallS = 7
	writeRows(t, dir, again, Options{Meta: testMeta()})
	if d, err := Verify(dir, true, nil); err != nil || len(d) != 0 {
		t.Errorf("Verify = %+v, %v; want nothing", d, err)
	}
	if _, moved, err := Repair(dir); err != nil || len(moved) != 0 {
		t.Errorf("Repair moved %+v, %v; want nothing", moved, err)
	}
}
