package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

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
//
// A scenario that more than one job holds (the same model, parameters and
// seed) runs once: the jobs that reach it later take its result
// (sharedResults).
//
// The jobs run in their order, and a job starts as soon as the one before
// it has no scenario left to start, so that the workers its last scenarios
// leave idle run the next job's first ones instead of waiting: a spec's
// pool ends on one long scenario as often as not. The jobs share
// o.Workers places, so no more scenarios run at once than asked. Rows do
// not depend on it (a scenario is a function of its parameters and seed),
// and each job's progress lines are held until the jobs before it have
// written theirs, so the log reads job by job. An adaptive job starts the
// next one only when its last round is over.
func RunJobs(ctx context.Context, jobs []*Job, o Options) (failed int, err error) {
	if err := o.check(); err != nil {
		return 0, err
	}
	if o.MaxEvents > 0 {
		ctx = vocab.WithEventLimit(ctx, o.MaxEvents)
	}
	slots := make(chan struct{}, workerCount(o.Workers, math.MaxInt))
	g, gctx := errgroup.WithContext(ctx)
	var nfailed atomic.Int64
	before := make(chan struct{}) // closed when the jobs so far have written all they write
	close(before)
	shards, err := TaskShards(jobs, o.whole())
	if err != nil {
		return 0, optionsError{err}
	}
	var stop error // why no further job started
	var configs []Config
	var run []*Job        // the jobs this shard has a share of, with their configs
	var runShards []Shard // and their shards
	for i, j := range jobs {
		if !shards[i].Runs() {
			fmt.Fprintf(o.Warn, "%s: shard %s has none of it (%s, so at most %s)\n", j.Spec.Name, o.Shard, Count(j.shardUnits(), j.shardUnit()), Count(max(j.shardUnits(), 1), "shard"))
			continue
		}
		jo := o
		jo.Shard = shards[i]
		cfg, err := jo.config(j)
		if err != nil {
			stop = err
			break
		}
		configs = append(configs, cfg)
		run = append(run, j)
		runShards = append(runShards, shards[i])
	}
	jobs, shards = run, runShards
	shared := newSharedResults(jobs[:len(configs)], configs)
	for i, cfg := range configs {
		j := jobs[i]
		if err := checkOwner(j); err != nil {
			stop = err
			break
		}
		cfg.Slots = slots
		cfg.shared = shared
		next := make(chan struct{})
		var once sync.Once
		cfg.Drained = func() { once.Do(func() { close(next) }) }
		held, prev := heldAfter(cfg.Progress, before), before
		if held != nil {
			cfg.Progress = held
		}
		written := make(chan struct{})
		before = written
		g.Go(func() error {
			defer close(written)
			defer func() { <-prev; held.release() }()
			defer cfg.Drained()
			var sum Summary
			var err error
			if j.Spec.Adaptive != nil {
				cfg.Drained = nil // each round drains; the next job waits for the last
				sum, err = Adaptive(gctx, j, cfg, shards[i], o.Warn)
			} else {
				sum, err = Resume(gctx, cfg, o.Warn)
			}
			nfailed.Add(int64(sum.Failed))
			return err
		})
		select {
		case <-next:
		case <-gctx.Done():
		}
		if gctx.Err() != nil {
			break
		}
	}
	err = g.Wait()
	if err == nil {
		err = stop
	}
	if n := shared.Taken(); n > 0 && o.Progress != nil {
		fmt.Fprintf(o.Progress, "%d scenarios that more than one spec holds (same model, parameters and seed) ran once: the other specs took their results\n", n)
	}
	return int(nfailed.Load()), err
}

// heldWriter passes a job's progress to w once the jobs before it have
// written theirs, and holds it until then.
type heldWriter struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte
	open bool
}

// heldAfter returns a writer to w that holds what it is given until
// before is closed; nil when w is nil (a quiet run).
func heldAfter(w io.Writer, before <-chan struct{}) *heldWriter {
	if w == nil {
		return nil
	}
	h := &heldWriter{w: w}
	go func() { <-before; h.release() }()
	return h
}

func (h *heldWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.open {
		return h.w.Write(p)
	}
	h.buf = append(h.buf, p...)
	return len(p), nil
}

// release writes what was held and passes what comes after straight on.
// A nil writer has nothing to release.
func (h *heldWriter) release() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.open {
		h.open = true
		h.w.Write(h.buf) // progress: a lost line is no reason to stop a sweep
		h.buf = nil
	}
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
