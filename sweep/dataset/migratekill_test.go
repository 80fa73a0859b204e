package dataset

import (
	"os"
	"path/filepath"
	"testing"
)

// toFormerLayout puts the dataset dir back into the former layout (main
// parts beside the lock file, second tables in _<table>/, no manifest).
func toFormerLayout(t *testing.T, dir string) {
	t.Helper()
	for _, m := range []struct{ from, to string }{{MainTable, "."}, {"flows", "_flows"}} {
		ps, _ := ownParts(filepath.Join(dir, m.from))
		os.MkdirAll(filepath.Join(dir, m.to), 0o755)
		for _, p := range ps {
			if err := os.Rename(p, filepath.Join(dir, m.to, filepath.Base(p))); err != nil {
				t.Fatal(err)
			}
		}
		os.Remove(filepath.Join(dir, m.from))
	}
	os.RemoveAll(filepath.Join(dir, ManifestDir))
	if err := os.WriteFile(filepath.Join(dir, ".lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMigrateKilledAfterRename: a migration killed after renaming a part
// into its table and before recording it in the manifest left a part the
// manifest does not know. The next Migrate and Repair must keep it (its
// scenarios are done), not move it to _corrupt/ as a stray file.
func TestMigrateKilledAfterRename(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
	toFormerLayout(t, dir)
	// The kill: part 1 of flows renamed, no entry.
	if err := os.MkdirAll(filepath.Join(dir, "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "_flows", "part-0of1-000001.parquet"), filepath.Join(dir, "flows", "part-0of1-000001.parquet")); err != nil {
		t.Fatal(err)
	}
	if _, err := Migrate(dir); err != nil {
		t.Fatal(err)
	}
	done, moved, err := Repair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 0 {
		t.Errorf("Repair after the finished migration moved %+v, want nothing", moved)
	}
	if done.Len() != 12 {
		t.Errorf("Repair found %d scenarios done, want 12", done.Len())
	}
}

// TestMigrateConcurrentTasks: the tasks of a job array (shared lock) each
// migrate the dataset when they start; a part another task moved first
// is no error.
func TestMigrateConcurrentTasks(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
	toFormerLayout(t, dir)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			_, err := Migrate(dir)
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if d, err := Verify(dir, true, nil); err != nil || len(d) != 0 {
		t.Errorf("Verify after the migrations = %v, %v; want nothing damaged", d, err)
	}
	if got := len(readValues(t, dir, nil)); got != 12 {
		t.Errorf("%d rows after the migrations, want 12", got)
	}
}
