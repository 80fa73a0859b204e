package sweep

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestLockWaiting: the last write of a task whose work is done waits
// while another run holds the dataset, and gives up only when told to.
func TestLockWaiting(t *testing.T) {
	dir := t.TempDir()
	held, err := LockDir(dir, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := lockWaiting(ctx, dir, "1of3"); err == nil || !strings.Contains(err.Error(), "being written by another run") {
		t.Errorf("lockWaiting with the dataset held until the context ended: %v, want the holder named", err)
	}
	time.AfterFunc(300*time.Millisecond, func() { held.Unlock() })
	l, err := lockWaiting(context.Background(), dir, "1of3")
	if err != nil {
		t.Fatalf("lockWaiting after the holder let go: %v", err)
	}
	l.Unlock()
}
