package dataset

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
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

// LockFile is the dataset-wide lock file of the runs and merges of a
// dataset (see sweep.LockDir); a run of shard i/n of a job array holds it
// shared and LockFile-<i>of<n> exclusively, an unsharded run or a merge
// holds it exclusively. Leftovers reads the locks to tell the temporary
// files of a live writer from those a killed one left.
const LockFile = ".lock"

// RemoveTemporary removes what killed writers left in dir/.tmp (parts and
// manifest entries being written) and dir/.merge. The caller holds dir's
// lock: exclusively when shard is "" (an unsharded run, a merge), and then
// everything goes, .merge/ too (after putting back a table a killed swap
// left there, see restoreSwapped); shared when shard names the caller's
// shard of a job array, and then only that shard's files go (as NewWriter
// removes them), once no other task's Supersede is rewriting a part (of
// any shard, a merged part included) under .tmp/.
func RemoveTemporary(dir, shard string) error {
	if shard == "" {
		if err := restoreSwapped(dir); err != nil {
			return err
		}
		if err := os.RemoveAll(filepath.Join(dir, mergeDir)); err != nil {
			return fmt.Errorf("dataset: removing a killed merge's files: %w", err)
		}
	}
	if shard != "" {
		// A running Supersede may be rewriting a part of this shard.
		release, err := supersedeTurn(dir, syscall.LOCK_SH)
		if err != nil {
			return err
		}
		defer release()
	}
	ents, err := readDir(filepath.Join(dir, tmpDir))
	if err != nil {
		return err
	}
	for _, e := range ents {
		n := e.Name()
		if shard != "" && tmpShard(n) != shard {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, tmpDir, n)); err != nil {
			return fmt.Errorf("dataset: removing a leftover temporary file: %w", err)
		}
	}
	return nil
}

// tmpShard returns the shard infix of a temporary file's name
// (part-<shard>-<seq>.parquet...), or "" for a name of no part.
func tmpShard(name string) string {
	rest, ok := strings.CutPrefix(name, "part-")
	if !ok {
		return ""
	}
	shard, _, ok := strings.Cut(rest, "-")
	if !ok {
		return ""
	}
	return shard
}

// Leftovers returns the temporary files of the dataset dir (relative to
// dir, in .tmp/ and .merge/) that no live writer owns: those a run or a
// merge killed before it published them left behind, up to a whole table
// for a merge. A file is live while its writer holds the dataset's lock:
// with the lock held exclusively (an unsharded run or a merge) every
// temporary file may be live and none is returned; with it held shared
// (tasks of a job array), the files of the shards whose lock is held are
// live, and every file while a task supersedes rows (it rewrites parts of
// any shard under .lock-supersede). The locks are probed without waiting, and a run that finds one
// probed waits for it (sweep.LockDir). They are no damage of the tables
// (no reader lists them), so Verify leaves them out; crosslink status is
// the place to list them, with the next run or merge as the fix.
func Leftovers(dir string) ([]string, error) {
	var out []string
	for _, sub := range []string{tmpDir, mergeDir} {
		err := filepath.WalkDir(filepath.Join(dir, sub), func(p string, e os.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					return nil
				}
				return err
			}
			if !e.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, rel)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	main := probeLock(filepath.Join(dir, LockFile))
	if main == heldExclusive || (main == heldShared && probeLock(filepath.Join(dir, supersedeTurnFile)) != free) {
		return nil, nil
	}
	live := map[string]bool{}
	stale := out[:0]
	for _, rel := range out {
		sh := tmpShard(filepath.Base(rel))
		if main == heldShared && sh != "" && sh != MergedShard && filepath.Dir(rel) == tmpDir {
			held, seen := live[sh]
			if !seen {
				held = probeLock(filepath.Join(dir, LockFile+"-"+sh)) != free
				live[sh] = held
			}
			if held {
				continue
			}
		}
		stale = append(stale, rel)
	}
	sort.Strings(stale)
	return stale, nil
}

// lockState is what probeLock finds.
type lockState int

const (
	free lockState = iota
	heldShared
	heldExclusive
)

// probeLock tells whether the flock(2) on path is held, and how, by
// trying to take it without waiting and releasing it at once. A missing
// file is free: no run ever locked the dataset.
func probeLock(path string) lockState {
	f, err := os.Open(path)
	if err != nil {
		return free
	}
	defer f.Close()
	fd := int(f.Fd())
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		syscall.Flock(fd, syscall.LOCK_UN)
		return free
	}
	if syscall.Flock(fd, syscall.LOCK_SH|syscall.LOCK_NB) == nil {
		syscall.Flock(fd, syscall.LOCK_UN)
		return heldShared
	}
	return heldExclusive
}
