package dataset

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFileModesFollowUmask: every file and directory a writer, a merge
// and the manifest create has the mode os.Create and os.Mkdir would give
// under the umask (0666 and 0777 less the umask), so that a group can share
// a dataset; os.CreateTemp's 0600 would survive the rename into the table.
func TestFileModesFollowUmask(t *testing.T) {
	for _, umask := range []int{0o002, 0o022, 0o077} {
		old := syscall.Umask(umask)
		dir := t.TempDir()
		writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
		if err := Merge(dir, nil); err != nil {
			syscall.Umask(old)
			t.Fatal(err)
		}
		writeRows(t, dir, testRows(14)[12:], Options{Meta: testMeta()})
		syscall.Umask(old)
		wantFile, wantDir := fs.FileMode(0o666&^umask), fs.FileMode(0o777&^umask)
		n := 0
		err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, err := e.Info()
			if err != nil {
				return err
			}
			want := wantFile
			if e.IsDir() {
				want = wantDir
			}
			if p != dir && fi.Mode().Perm() != want {
				t.Errorf("umask %03o: %s has mode %03o, want %03o", umask, p, fi.Mode().Perm(), want)
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n < 8 { // parts, tables, manifest entries and their directories
			t.Errorf("umask %03o: walked only %d files", umask, n)
		}
	}
}
