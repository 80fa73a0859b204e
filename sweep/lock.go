package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// Lock keeps other processes from writing the same dataset shard. It is an
// advisory flock(2) on a file in the dataset directory, so the kernel
// releases it when the holder dies however it dies: a lock left by a
// killed run never blocks the next one.
//
// A run of shard i/n (n > 1) holds .lock shared and .lock-<i>of<n>
// exclusively, so the tasks of a job array write one dataset at once while
// a second process of the same shard, or an unsharded run (which holds
// .lock exclusively), is refused. The holder writes its pid, host, shard
// and start time into the file it holds exclusively, for the error message
// of the process it refuses.
type Lock struct {
	files  []*os.File
	shared bool // .lock is held shared: a task of a job array
}

// busyError is LockDir's error when another run holds the lock.
type busyError struct{ msg string }

func (e busyError) Error() string { return e.msg }

// lockWaiting is LockDir that waits while another run holds the lock (a
// merge, or a whole run started meanwhile), trying again every second
// until ctx ends: for a task whose work is done but for a last write.
func lockWaiting(ctx context.Context, dir, infix string) (*Lock, error) {
	for {
		l, err := LockDir(dir, infix, time.Now())
		var busy busyError
		if err == nil || !errors.As(err, &busy) {
			return l, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(time.Second):
		}
	}
}

// lockName is the dataset-wide lock file.
const lockName = dataset.LockFile

// LockDir locks dataset dir for a run of shard infix (dataset.DefaultShard
// or "" for an unsharded run). It creates dir if needed. The error names
// the holder when the lock is taken.
func LockDir(dir, infix string, now time.Time) (*Lock, error) {
	return lockDirAs(dir, infix, lockWhat(infix), now)
}

// lockDirAs is LockDir whose note says the holder is what ("shard 3/4",
// "the whole run", "a merge").
func lockDirAs(dir, infix, what string, now time.Time) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	shared := infix != "" && !strings.HasSuffix(infix, "of1")
	l := &Lock{shared: shared}
	main := filepath.Join(dir, lockName)
	mode := syscall.LOCK_EX
	if shared {
		mode = syscall.LOCK_SH
	}
	f, err := lockFile(main, mode)
	if err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, busyError{fmt.Sprintf("sweep: dataset %s is being written by another run (%s); wait for it or stop it", dir, holders(dir))}
		}
		return nil, fmt.Errorf("sweep: locking %s: %w", dir, err)
	}
	l.files = append(l.files, f)
	own := f
	if shared {
		g, err := lockFile(filepath.Join(dir, lockName+"-"+infix), syscall.LOCK_EX)
		if err != nil {
			l.Unlock()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, busyError{fmt.Sprintf("sweep: %s of dataset %s is being written by another run (%s)", lockWhat(infix), dir, holders(dir))}
			}
			return nil, fmt.Errorf("sweep: locking %s: %w", dir, err)
		}
		l.files = append(l.files, g)
		own = g
	}
	host, _ := os.Hostname()
	info := fmt.Sprintf("pid %d on %s, %s, since %s\n", os.Getpid(), host, what, now.UTC().Format(time.RFC3339))
	// Best effort: the lock works without the note.
	if err := own.Truncate(0); err == nil {
		own.WriteAt([]byte(info), 0)
	}
	return l, nil
}

// lockWhat names what a lock of shard infix covers, as the command line
// writes shards: "shard 3/4", or "the whole run" for an unsharded one.
func lockWhat(infix string) string {
	if infix == "" || strings.HasSuffix(infix, "of1") {
		return "the whole run"
	}
	return "shard " + strings.Replace(infix, "of", "/", 1)
}

// lockProbeWait is how long lockFile retries a lock it finds taken: a
// crosslink status probes the locks (dataset.Leftovers) by taking them for
// a moment, which must not refuse a run that starts then.
const lockProbeWait = 100 * time.Millisecond

// lockFile opens path and flocks it, waiting only for a probe's moment.
func lockFile(path string, mode int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(lockProbeWait)
	for {
		err := syscall.Flock(int(f.Fd()), mode|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			f.Close()
			return nil, err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// holders describes the processes holding locks in dir, read from the
// notes of the lock files that are held now.
func holders(dir string) string {
	names, _ := filepath.Glob(filepath.Join(dir, lockName+"*"))
	sort.Strings(names)
	var out []string
	for _, n := range names {
		if note, held := heldNote(n); held && note != "" {
			out = append(out, note)
		}
	}
	if len(out) == 0 {
		return "holder unknown"
	}
	return strings.Join(out, "; ")
}

// Writer describes the run writing shard sh of dataset dir now, read from
// its lock file's note ("pid 12 on node7, shard 3/4, since ..."), or ""
// when none is: for a shard of an array (sh.N > 1) the holder of its
// .lock-<i>of<n>, otherwise an unsharded run's (or a merge's) exclusive
// .lock.
func Writer(dir string, sh Shard) string {
	name := filepath.Join(dir, lockName)
	if sh.N > 1 {
		name += "-" + sh.Infix()
	}
	note, held := heldNote(name)
	switch {
	case !held:
		return ""
	case note == "":
		return "holder unknown"
	}
	return note
}

// heldNote reports whether some process holds the lock file at path now,
// and the note it wrote there. The probe takes the lock shared for a
// moment, which a run starting then waits out (lockProbeWait).
func heldNote(path string) (note string, held bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return "", false
	}
	b, _ := os.ReadFile(path)
	return strings.TrimSpace(string(b)), true
}

// Unlock releases the lock. The files stay: removing a lock file races with
// a process that has just opened it.
func (l *Lock) Unlock() error {
	var errs []error
	for i := len(l.files) - 1; i >= 0; i-- {
		f := l.files[i]
		errs = append(errs, syscall.Flock(int(f.Fd()), syscall.LOCK_UN), f.Close())
	}
	l.files = nil
	return errors.Join(errs...)
}
