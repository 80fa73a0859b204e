package dataset

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// File and directory modes of what a dataset writer creates, before the
// umask: what os.Create and os.Mkdir (and touch(1), mkdir(1)) use, so that
// a umask of 002 lets a group share a dataset and 077 keeps it private.
const (
	fileMode = 0o666
	dirMode  = 0o777
)

// createTemp creates a new file in dir named by pattern, whose last "*"
// is replaced by a random string, as os.CreateTemp does, but with the mode
// fileMode less the umask rather than os.CreateTemp's 0600: the file is
// renamed into the dataset as it is, and keeps the mode it was created with.
func createTemp(dir, pattern string) (*os.File, error) {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for range 10000 {
		name := filepath.Join(dir, prefix+rand.Text()[:12]+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, &os.PathError{Op: "createtemp", Path: filepath.Join(dir, pattern), Err: os.ErrExist}
}
