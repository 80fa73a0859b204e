package sweep

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// TestMergeBeforeFirstPart: merge of a dataset whose run has started
// (its lock file is there) but written no part yet says so, rather than
// that the directory is no dataset, and changes nothing.
func TestMergeBeforeFirstPart(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, dataset.LockFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	before := listTree(t, dir)
	err := Merge(dir)
	if err == nil || !strings.Contains(err.Error(), "holds no part yet: a run started it") {
		t.Errorf("Merge = %v, want an error saying the run has written no part yet", err)
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
