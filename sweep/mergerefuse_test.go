package sweep

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// TestMergeRefusesNonDataset: merge given a directory that no run wrote
// (an empty one, one of other files such as /etc) fails, saying the
// directory holds no dataset, and writes nothing there: no lock file, no
// table, no temporary directory.
func TestMergeRefusesNonDataset(t *testing.T) {
	for name, files := range map[string][]string{
		"empty":  nil,
		"config": {"passwd", "hosts", "ssl/openssl.cnf"},
	} {
		dir := t.TempDir()
		for _, f := range files {
			p := filepath.Join(dir, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		before := listTree(t, dir)
		err := Merge(dir)
		if err == nil || !strings.Contains(err.Error(), "holds no crosslink dataset") {
			t.Errorf("%s: Merge = %v, want an error saying it holds no dataset", name, err)
		}
		if diff := cmp.Diff(before, listTree(t, dir)); diff != "" {
			t.Errorf("%s: Merge changed the directory (-before +after):\n%s", name, diff)
		}
	}
}

// TestMergeBeforeFirstPart: merge of a dataset whose run is under way
// (it holds the lock) but has written no part yet says so, rather than
// that the directory is no dataset; the lock file a dead run left says
// nothing of a run. Either way nothing changes.
func TestMergeBeforeFirstPart(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, dataset.LockFile)
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	before := listTree(t, dir)
	if err := Merge(dir); err == nil || !strings.Contains(err.Error(), "holds no crosslink dataset") {
		t.Errorf("Merge beside a dead run's lock file = %v, want no dataset", err)
	}
	f, err := os.Open(lock)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if err := Merge(dir); err == nil || !strings.Contains(err.Error(), "holds no part yet: a run is writing it") {
		t.Errorf("Merge while a run holds the lock = %v, want an error saying it has written no part yet", err)
	}
	if diff := cmp.Diff(before, listTree(t, dir)); diff != "" {
		t.Errorf("Merge changed the directory (-before +after):\n%s", diff)
	}
}

// listTree returns the paths under dir, relative to it.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMergeRefusesTableDir: merge given a table of a dataset, or one of
// its partitions, instead of the dataset fails, naming the dataset, and
// changes nothing; taken for a dataset of the former layout, the table
// would have been migrated into a dataset of its own inside the real one.
func TestMergeRefusesTableDir(t *testing.T) {
	m := newInverseSquare(0)
	j := noisyJob(t, m, "name: inv\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m]\n  mode: [normal, error]\n", t.TempDir())
	if _, err := RunJobs(context.Background(), []*Job{j}, Options{Warn: io.Discard, PartitionBy: []string{"mode"}}); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(j.Dir)
	if err != nil {
		t.Fatal(err)
	}
	before := listTree(t, j.Dir)
	for _, sub := range []string{dataset.MainTable, filepath.Join(dataset.MainTable, "mode=normal")} {
		err := Merge(filepath.Join(j.Dir, sub))
		if want := "is inside the dataset " + root; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Merge(<dataset>/%s) = %v, want an error saying it %s", sub, err, want)
		}
	}
	// A symbolic link to the table, from outside the dataset.
	link := filepath.Join(t.TempDir(), "tbl")
	if err := os.Symlink(filepath.Join(root, dataset.MainTable), link); err != nil {
		t.Fatal(err)
	}
	if err := Merge(link); err == nil || !strings.Contains(err.Error(), "is inside the dataset "+root) {
		t.Errorf("Merge(a link to <dataset>/scenarios) = %v, want it refused as inside %s", err, root)
	}
	if diff := cmp.Diff(before, listTree(t, j.Dir)); diff != "" {
		t.Errorf("Merge of a table changed the dataset (-before +after):\n%s", diff)
	}
	if err := Merge(j.Dir); err != nil {
		t.Errorf("Merge(the dataset): %v", err)
	}
}
