package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// Resume runs cfg as Run does, with what an unattended sweep needs around
// it: it locks the dataset shard (LockDir), so a second process cannot
// write it; removes the temporary files killed runs and merges left
// (dataset.RemoveTemporary); moves the parts of an older model version to
// Dir/_stale (dataset.SetAside), and unreadable and copied parts to
// Dir/_corrupt (dataset.Repair), reporting each on warn (nil: io.Discard),
// so their scenarios run again; and, when cfg.Rerun is set
// (--retry-failed), rewrites the parts holding rows that the rerun
// superseded, so the files hold one row per scenario. cfg.Done is
// replaced by what the readable parts hold. An error from the limit on
// open files names that cause and its fix (openFiles).
func Resume(ctx context.Context, cfg Config, warn io.Writer) (Summary, error) {
	sum, err := resume(ctx, cfg, warn)
	return sum, openFiles(cfg.Dir, err)
}

func resume(ctx context.Context, cfg Config, warn io.Writer) (Summary, error) {
	if warn == nil {
		warn = io.Discard
	}
	sum := Summary{Name: cfg.Meta.SpecName, Total: cfg.Source.Len(), Dir: cfg.Dir}
	if err := writable(cfg.Dir); err != nil {
		return sum, err
	}
	lock, err := LockDir(cfg.Dir, cfg.Shard, time.Now())
	if err != nil {
		return sum, err
	}
	defer lock.Unlock()
	// What killed runs and merges left in .tmp/ and .merge/: all of it
	// under the exclusive lock, only this task's under a job
	// array's shared one.
	own := ""
	if lock.shared {
		own = cfg.Shard
	}
	if err := dataset.RemoveTemporary(cfg.Dir, own); err != nil {
		return sum, fmt.Errorf("sweep: %w", err)
	}
	if n, err := dataset.Migrate(cfg.Dir); err != nil {
		return sum, fmt.Errorf("sweep: moving %s into the present dataset layout: %w", cfg.Dir, err)
	} else if n > 0 {
		fmt.Fprintf(warn, "crosslink: moved %d parts of %s into the present layout (one directory per table)\n", n, cfg.Dir)
	}
	stale, err := dataset.SetAside(cfg.Dir, cfg.Model.Schema())
	for _, m := range stale {
		fmt.Fprintf(warn, "crosslink: %s was %s; moved to %s, and the scenarios run anew under this version\n", m.Path, m.Reason, m.To)
	}
	switch {
	case errors.Is(err, dataset.ErrNewerVersion):
		return sum, fmt.Errorf("sweep: %w", err)
	case err != nil:
		return sum, fmt.Errorf("sweep: setting aside %s's older parts: %w", cfg.Dir, err)
	}
	done, moved, err := dataset.Repair(cfg.Dir)
	for _, m := range moved {
		if m.Copy != "" {
			fmt.Fprintf(warn, "crosslink: %s repeats the rows of %s (a copy of a part); moved to %s, so that each scenario is in the table once\n", m.Path, m.Copy, m.To)
			continue
		}
		if m.With != "" {
			fmt.Fprintf(warn, "crosslink: %s goes with %s, which is unreadable; moved to %s with it\n", m.Path, m.With, m.To)
			continue
		}
		if m.Stray {
			fmt.Fprintf(warn, "crosslink: %s is %s; moved to %s (not a part, so the dataset never held rows of it and loses none)\n", m.Path, m.Reason, m.To)
			continue
		}
		fmt.Fprintf(warn, "crosslink: %s is unreadable (%s); moved to %s, its scenarios run again\n", m.Path, m.Reason, m.To)
	}
	if err != nil {
		return sum, fmt.Errorf("sweep: checking %s: %w", cfg.Dir, err)
	}
	cfg.Done = done
	if cfg.Rerun != nil || done.Repeated() > 0 {
		// A retry killed before its end left superseded rows behind:
		// whatever this run is, other readers should not see them.
		if _, err := dataset.Supersede(cfg.Dir, cfg.Mem); err != nil {
			return sum, fmt.Errorf("sweep: %w", err)
		}
	}
	sum, err = Run(ctx, cfg)
	if cfg.Rerun != nil && sum.OK+sum.Failed > 0 {
		// Also after an interrupt (Ctrl-C, or the SIGTERM Slurm sends at
		// a task's time limit): the rows it wrote are on disk, beside
		// those they supersede. Only a SIGKILL leaves them to the next
		// run or merge.
		if _, serr := dataset.Supersede(cfg.Dir, cfg.Mem); serr != nil && err == nil {
			err = fmt.Errorf("sweep: %w", serr)
		}
	}
	return sum, err
}

// Merge compacts the dataset in dir (dataset.Merge) under its lock, after
// moving a dataset of the former layout into the present one. A directory
// that holds no dataset is refused before anything is written in it (the
// lock file included).
func Merge(dir string) error {
	if err := dataset.Holds(dir); err != nil {
		return fmt.Errorf("sweep: merge: %w", err)
	}
	lock, err := lockDirAs(dir, "", "a merge", time.Now())
	if err != nil {
		return openFiles(dir, err)
	}
	defer lock.Unlock()
	if _, err := dataset.Migrate(dir); err != nil {
		return openFiles(dir, fmt.Errorf("sweep: moving %s into the present dataset layout: %w", dir, err))
	}
	return openFiles(dir, dataset.Merge(dir, nil))
}

// openFiles rewords an error caused by the limit on open files (EMFILE, or
// the system's table, ENFILE), whatever step hit it, as that cause and its
// fix: the step's own words (a migration, a lock) would send the user the
// wrong way. Other errors are returned as they are.
func openFiles(dir string, err error) error {
	if err == nil || (!errors.Is(err, syscall.EMFILE) && !errors.Is(err, syscall.ENFILE)) {
		return err
	}
	var msg string
	if errors.Is(err, syscall.EMFILE) {
		limit := "its limit"
		var rl syscall.Rlimit
		if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) == nil {
			limit = fmt.Sprintf("its limit of %d", rl.Cur)
		}
		msg = fmt.Sprintf("too many open files: crosslink reached %s (ulimit -n); raise it, for example with ulimit -n 1024, and run again", limit)
	} else {
		msg = "too many open files in the system (the kernel's file table, fs.file-max, is full); close other programs' files or raise fs.file-max, and run again"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg += fmt.Sprintf(" (%s %s)", pe.Op, pe.Path)
	}
	return fmt.Errorf("sweep: %s: %s%w", dir, msg, hidden{err})
}

// hidden keeps an error for errors.Is and errors.As without its text.
type hidden struct{ err error }

func (h hidden) Error() string { return "" }
func (h hidden) Unwrap() error { return h.err }

// writable checks that dir can take new files, creating it if needed, so
// that a read-only output directory fails before any scenario runs.
func writable(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("sweep: cannot create the dataset directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		if errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS) {
			return fmt.Errorf("sweep: dataset directory %s is read-only: %w", dir, err)
		}
		return fmt.Errorf("sweep: dataset directory %s: %w", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
