package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Options are the choices of a run that its specs do not hold: the
// command-line knobs of `crosslink run` and `crosslink figures`.
type Options struct {
	Workers  int           // scenarios at once; GOMAXPROCS when 0
	FailFast bool          // stop at the first failing scenario
	Timeout  time.Duration // wall-clock limit of one scenario; 0: none
	// MaxEvents is the simulated-event limit of one scenario (0: none),
	// passed to the models' schedulers through the context
	// (vocab.WithEventLimit).
	MaxEvents uint64
	// Shard selects this task's share of every job; Whole, or the zero
	// Shard, runs all of it.
	Shard Shard
	// RetryFailed reruns scenarios whose row is failed, panic or
	// timeout; the new row replaces the old.
	RetryFailed bool
	// PartitionBy hive-partitions each dataset by these parameters.
	PartitionBy []string
	// Progress receives progress and summary lines (nil: quiet);
	// Terminal says it is a terminal, where a bar is drawn.
	Progress io.Writer
	Terminal bool
	// Warn receives notes that are not progress (a stale part set
	// aside, an adaptive stop); it must not be nil.
	Warn io.Writer
}

// ErrOptions is wrapped by RunJobs' error when the options do not fit a
// job (a partition column the model lacks, a shard of an empty plan): a
// mistake of the command line, not a failed scenario.
var ErrOptions = errors.New("options do not fit the spec")

// optionsError wraps an error as ErrOptions without changing its text.
type optionsError struct{ err error }

func (e optionsError) Error() string   { return e.err.Error() }
func (e optionsError) Unwrap() []error { return []error{ErrOptions, e.err} }

// RunJobs runs the scenarios of each job that its dataset does not hold
// yet (or, with RetryFailed, holds as failed), the adaptive ones by
// rounds, and returns how many scenarios failed. It stops at the first
// error that is not a failed scenario.
func RunJobs(ctx context.Context, jobs []*Job, o Options) (failed int, err error) {
	if err := o.check(); err != nil {
		return 0, err
	}
	if o.MaxEvents > 0 {
		ctx = vocab.WithEventLimit(ctx, o.MaxEvents)
	}
	for _, j := range jobs {
		cfg, err := o.config(j)
		if err != nil {
			return failed, err
		}
		if err := checkOwner(j); err != nil {
			return failed, err
		}
		var sum Summary
		if j.Spec.Adaptive != nil {
			sum, err = Adaptive(ctx, j, cfg, o.whole(), o.Warn)
		} else {
			sum, err = Resume(ctx, cfg, o.Warn)
		}
		failed += sum.Failed
		if err != nil {
			return failed, err
		}
	}
	return failed, nil
}

// check refuses options no job can run with, before any job starts.
func (o Options) check() error {
	switch {
	case o.Workers < 0:
		return optionsError{fmt.Errorf("sweep: -j %d: the number of workers cannot be negative (0 or no -j: one per core, %d here)", o.Workers, runtime.GOMAXPROCS(0))}
	case o.Workers > MaxWorkers:
		return optionsError{fmt.Errorf("sweep: -j %d is more than the %d workers crosslink starts at most: a worker runs one CPU-bound scenario, so more workers than cores (%d here) add memory and no speed; give -j %d or less (0 or no -j: one per core)", o.Workers, MaxWorkers, runtime.GOMAXPROCS(0), MaxWorkers)}
	}
	return nil
}

// whole is o.Shard with the zero Shard read as Whole.
func (o Options) whole() Shard {
	if o.Shard == (Shard{}) {
		return Whole
	}
	return o.Shard
}

// config is j's run configuration under the options.
func (o Options) config(j *Job) (Config, error) {
	o.Shard = o.whole()
	cfg := j.Config()
	cfg.Workers = o.Workers
	cfg.FailFast = o.FailFast
	cfg.Timeout = o.Timeout
	var err error
	if cfg.PartitionBy, cfg.Partitions, err = Partitioning(j, o.PartitionBy); err != nil {
		return cfg, optionsError{err}
	}
	if o.Shard != Whole {
		// An adaptive spec's scenarios are not known before its rounds
		// run; Adaptive takes the shard and splits each round.
		if j.Spec.Adaptive == nil {
			if cfg.Source, err = Of(j.Plan, j.Model, o.Shard); err != nil {
				return cfg, optionsError{err}
			}
		}
		cfg.Shard = o.Shard.Infix()
		cfg.Meta.SpecName = j.Spec.Name
	}
	if o.RetryFailed {
		cfg.Rerun = func(s dataset.Status) bool { return s != dataset.OK }
	}
	cfg.Progress, cfg.Terminal = o.Progress, o.Terminal
	return cfg, nil
}
