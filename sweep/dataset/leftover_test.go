package dataset

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// leave creates files as a run or merge killed before publishing them
// leaves them: a part being written in .tmp/ (named as writePart names
// it), a table being built in .merge/.
func leave(t *testing.T, dir string, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, 4096), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// flock holds the lock of path in mode until the test ends.
func flock(t *testing.T, path string, mode int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), mode|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
}

func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	got, err := Leftovers(dir)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

var (
	mergedTmp = filepath.Join(tmpDir, "part-merged-000001.parquet.3F2A9C.tmp")
	shard0Tmp = filepath.Join(tmpDir, "part-0of2-000004.parquet.77AB10.tmp")
	shard1Tmp = filepath.Join(tmpDir, "part-1of2-000002.parquet.json.0C0FFE.tmp")
	stageFile = filepath.Join(mergeDir, MainTable, "part-0of1-000001.parquet")
)

// TestLeftoversReported: Leftovers finds the temporary files a killed
// merge or run left, which no reader lists and nothing removed, unless their writer may still be running: the lock held
// exclusively (a run or merge) hides all, a job array's task (the lock
// shared, its shard's exclusively) hides its shard's.
func TestLeftoversReported(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(6), Options{Meta: testMeta()})
	if got := leftovers(t, dir); len(got) != 0 {
		t.Fatalf("a clean dataset: %v", got)
	}
	if d, err := Verify(dir, false, nil); err != nil || len(d) != 0 {
		t.Fatalf("Verify = %+v, %v; want nothing", d, err)
	}
	leave(t, dir, mergedTmp, shard0Tmp, shard1Tmp, stageFile)
	all := []string{stageFile, shard0Tmp, shard1Tmp, mergedTmp} // in path order
	if diff := cmp.Diff(all, leftovers(t, dir)); diff != "" {
		t.Errorf("no lock held (-want +got):\n%s", diff)
	}

	t.Run("exclusive", func(t *testing.T) {
		flock(t, filepath.Join(dir, LockFile), syscall.LOCK_EX)
		if got := leftovers(t, dir); len(got) != 0 {
			t.Errorf("lock held exclusively: %v reported, want none (they may be the holder's)", got)
		}
	})
	t.Run("task", func(t *testing.T) {
		flock(t, filepath.Join(dir, LockFile), syscall.LOCK_SH)
		flock(t, filepath.Join(dir, LockFile+"-1of2"), syscall.LOCK_EX)
		want := []string{stageFile, shard0Tmp, mergedTmp}
		if diff := cmp.Diff(want, leftovers(t, dir)); diff != "" {
			t.Errorf("task 1of2 running (-want +got):\n%s", diff)
		}
		flock(t, filepath.Join(dir, ".lock-supersede"), syscall.LOCK_EX)
		if got := leftovers(t, dir); len(got) != 0 {
			t.Errorf("a task superseding rows: %v reported, want none (it rewrites parts of any shard)", got)
		}
	})
}

// TestRemoveTemporary: a merge, or an unsharded run, holding the lock
// exclusively removes every leftover; a task of a job array removes its
// own shard's and leaves the other tasks' files and a merged part's (a
// task's Supersede may be rewriting it). The tables are untouched.
func TestRemoveTemporary(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(9)
	writeRows(t, dir, rows, Options{MaxRows: 4, Meta: testMeta()})
	want := readValues(t, dir, nil)
	leave(t, dir, mergedTmp, shard0Tmp, shard1Tmp, stageFile)
	if err := RemoveTemporary(dir, "1of2"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{stageFile, shard0Tmp, mergedTmp}, leftovers(t, dir)); diff != "" {
		t.Errorf("after task 1of2's clean-up (-want +got):\n%s", diff)
	}
	if err := Merge(dir, nil); err != nil {
		t.Fatal(err)
	}
	if got := leftovers(t, dir); len(got) != 0 {
		t.Errorf("after a merge: %v left", got)
	}
	if diff := cmp.Diff(want, readValues(t, dir, nil)); diff != "" {
		t.Errorf("rows after the clean-up and merge (-before +after):\n%s", diff)
	}
}

// TestShardCleanupWaitsForSupersede: a task of a job array removing its
// own shard's temporary files waits while another task's Supersede holds
// the turn, since Supersede writes a rewritten part of that shard under
// .tmp/ by the part's name (the cleanup would take it for its own killed
// writer's, and the Supersede's rename would fail); once the turn is
// released, the cleanup goes on.
func TestShardCleanupWaitsForSupersede(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cleanup func(dir string) error
	}{
		{"RemoveTemporary", func(dir string) error { return RemoveTemporary(dir, "0of2") }},
		{"NewWriter's cleanTmp", func(dir string) error { return cleanTmp(dir, "0of2") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			leave(t, dir, shard0Tmp)
			turn, err := supersedeTurn(dir, syscall.LOCK_EX)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- tc.cleanup(dir) }()
			select {
			case err := <-done:
				turn()
				t.Fatalf("cleanup returned (%v) while a Supersede held the turn", err)
			case <-time.After(200 * time.Millisecond):
			}
			if _, err := os.Stat(filepath.Join(dir, shard0Tmp)); err != nil {
				t.Errorf("the Supersede's temporary file went while it held the turn: %v", err)
			}
			turn()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, shard0Tmp)); !os.IsNotExist(err) {
				t.Errorf("after the turn: %s still there (%v), want it removed as a killed writer's", shard0Tmp, err)
			}
		})
	}
}
