package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
