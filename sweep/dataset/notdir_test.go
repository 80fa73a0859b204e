package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDatasetIsAFile checks that a dataset path naming a file (a stray
// download, a mistyped --out) is reported as such by the readers and by
// PartitionKeys, which a run calls first, rather than as ReadDir's bare
// "not a directory".
func TestDatasetIsAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "is a file, not a dataset directory"
	calls := []struct {
		name string
		f    func() error
	}{
		{"ReadIDs", func() error { _, err := ReadIDs(path); return err }},
		{"PartitionKeys", func() error { _, err := PartitionKeys(path); return err }},
		{"Merge", func() error { return Merge(path, nil) }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			if err := c.f(); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s(%s) = %v, want an error containing %q", c.name, path, err, want)
			}
		})
	}
}
