package sweep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenFileLimitMessage: a run that hits the limit on open files, at
// whichever step (the writability probe, the lock, the layout check, the
// writer), says that cause and the fix (ulimit -n), not the words of the
// step ("moving into the present dataset layout" for a fresh directory).
// The limit is set from the descriptors open now, so each step in turn is
// the first to fail; a limit high enough lets the run succeed.
func TestOpenFileLimitMessage(t *testing.T) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		t.Skip(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl)
	m := newInverseSquare(0)
	src := scenarios(m, 3, nil)
	failures := 0
	for extra := range 12 {
		dir := filepath.Join(t.TempDir(), "out", "unit-test")
		// A new descriptor takes the lowest free number, and must be
		// below the limit.
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		lowest := f.Fd()
		f.Close()
		low := rl
		low.Cur = uint64(lowest) + uint64(extra)
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
			t.Skip(err)
		}
		_, err = Resume(context.Background(), Config{Model: m, Source: src, Dir: dir, Meta: testMeta(), Workers: 1}, nil)
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl)
		if err == nil {
			continue
		}
		failures++
		msg := err.Error()
		if !strings.Contains(msg, "too many open files") || !strings.Contains(msg, "ulimit -n") || strings.Contains(msg, "layout") {
			t.Errorf("limit of %d descriptors: %q; want the cause (too many open files) and the fix (ulimit -n), no word of a layout", low.Cur, msg)
		}
	}
	if failures == 0 {
		t.Errorf("no limit made the run fail: the test set no limit low enough")
	}
}
