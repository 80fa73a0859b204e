package sweep

import (
	"context"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
)

// TestResumeModesFollowUmask: the dataset directory, its lock files and
// every part Resume writes get the modes os.Mkdir and os.Create would give
// under the umask (0777 and 0666 less it), so that with umask 002 a group
// shares the dataset.
func TestResumeModesFollowUmask(t *testing.T) {
	const umask = 0o002
	m := newInverseSquare(0)
	dir := filepath.Join(t.TempDir(), "out", "unit-test")
	old := syscall.Umask(umask)
	_, err := Resume(context.Background(), Config{Model: m, Source: scenarios(m, 4, nil), Dir: dir, Meta: testMeta()}, nil)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o666 &^ umask)
		if e.IsDir() {
			want = 0o777 &^ umask
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s has mode %03o, want %03o", p, fi.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
