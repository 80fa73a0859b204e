package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"golang.org/x/sync/errgroup"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Config is one sweep to run.
type Config struct {
	Model   vocab.Model
	Source  plan.Source  // the scenarios (a Plan, a shard of one, a List)
	Dir     string       // out/<spec>: the main table's parts; second tables in Dir/_<table>
	Meta    dataset.Meta // spec name, text and profile; Run fills in the versions and the model
	Shard   string       // part name infix, dataset.DefaultShard when empty
	Workers int          // runtime.GOMAXPROCS(0) when 0
	// FailFast stops the sweep at the first scenario that fails, panics or
	// times out; that scenario's row is still written.
	FailFast bool
	// Timeout bounds one scenario's wall time (status timeout); 0 is none.
	Timeout time.Duration
	// Done holds the ids already in the dataset; nil reads them from Dir.
	// Scenarios present are skipped whatever their status: a failed row
	// stays as it is until a retry is asked for (see Rerun).
	Done *dataset.Done
	// Rerun reports whether a scenario already present with the given
	// status runs again; nil reruns nothing. A rerun appends a newer row,
	// and ReadIDs prefers an ok row, so `--retry-failed` is
	// func(s) bool { return s != dataset.OK }. The workers call it at
	// once: it must be safe for concurrent use.
	Rerun func(dataset.Status) bool

	// PartitionBy names parameters (low-cardinality: string, int or bool)
	// whose values split the dataset into hive partitions,
	// Dir/<column>=<value>/...; see dataset.Partitioned. Partitions is
	// the number of partitions expected (it sizes their parts).
	PartitionBy []string
	Partitions  int

	PartRows int           // rows per part file, dataset.DefaultMaxRows when 0
	PartAge  time.Duration // a part is closed once its oldest row is this old; dataset.DefaultMaxAge when 0

	Progress      io.Writer     // progress and the summary line; nil is quiet
	Terminal      bool          // Progress is a terminal: draw a bar
	ProgressEvery time.Duration // plain progress line interval, DefaultProgressEvery when 0

	Mem memory.Allocator // Arrow memory, memory.DefaultAllocator when nil

	// Slots, when not nil, is shared by sweeps that run at the same time
	// (RunJobs starts a job while the one before it finishes its last
	// scenarios): a worker holds one of its places while it runs a span
	// of scenarios, so that together they run no more scenarios at once
	// than its capacity (per span rather than per scenario: a closed form
	// runs in a microsecond). Nil: Workers is the only bound.
	Slots chan struct{}
	// Drained, when not nil, is called once, when the first worker finds
	// no scenario left to start: from then on this sweep leaves places
	// in Slots free, which the next sweep can take.
	Drained func()

	// shared holds the results of the scenarios that other sweeps of
	// the same RunJobs call also hold (nil: none).
	shared *sharedResults
}

// Summary is the outcome of a sweep.
type Summary struct {
	Name   string
	Total  int // scenarios in the source
	OK     int // run now and ok, and stored
	Failed int // run now and failed, panicked or timed out, and stored
	// FailedBy splits Failed by the rows' status (failed, panic,
	// timeout): a night whose scenarios timed out calls for a longer
	// --timeout, not for a look at the models' errors.
	FailedBy map[dataset.Status]int
	Skipped  int // already in the dataset
	// SkippedFailed counts the skipped scenarios whose row is failed,
	// panic or timeout: what --retry-failed would run again.
	SkippedFailed int
	// Unstored counts the scenarios run now whose rows never reached a
	// part file because writing failed (a full disk, an I/O error): they
	// run again next time.
	Unstored int
	Wall     time.Duration // wall time of Run
	Dir      string
}

// String is the summary line printed at the end of a sweep.
func (s Summary) String() string {
	rate := 0.0
	if sec := s.Wall.Seconds(); sec > 0 {
		rate = float64(s.OK+s.Failed) / sec
	}
	lost := ""
	if s.Unstored > 0 {
		lost = fmt.Sprintf(", %d run but not stored (the write failed; they run again next time)", s.Unstored)
	}
	retry := ""
	if s.SkippedFailed > 0 {
		retry = fmt.Sprintf("; %d of the skipped failed in an earlier run (--retry-failed runs them again)", s.SkippedFailed)
	}
	// Two significant digits, as in the progress lines: a sweep of slow
	// scenarios runs well under one per second, which %.0f printed as 0.
	return fmt.Sprintf("%s: %d scenarios: %d ok, %d failed%s, %d skipped%s in %s (%s/s) -> %s%s",
		s.Name, s.Total, s.OK, s.Failed, FailedKinds(s.FailedBy), s.Skipped, lost, s.Wall.Round(time.Millisecond), sig2(rate), s.Dir, retry)
}

// FailedKinds describes counts of rows that are not ok by status, as
// " (1 panic, 2 timeout)" after the count they add up to, or "" when
// every one is failed, which the count already says.
func FailedKinds(by map[dataset.Status]int) string {
	if len(by) == 0 || len(by) == 1 && by[dataset.Failed] > 0 {
		return ""
	}
	kinds := make([]string, 0, len(by))
	for st, n := range by {
		if n > 0 {
			kinds = append(kinds, fmt.Sprintf("%d %s", n, st))
		}
	}
	slices.Sort(kinds)
	return " (" + strings.Join(kinds, ", ") + ")"
}

// addFailed counts n more rows of status st in sum's Failed.
func (s *Summary) addFailed(st dataset.Status, n int) {
	if n == 0 {
		return
	}
	if s.FailedBy == nil {
		s.FailedBy = map[dataset.Status]int{}
	}
	s.Failed += n
	s.FailedBy[st] += n
}

// span is a run of scenario indices [lo, hi) handed to one worker.
type span struct{ lo, hi int }

// batch is the rows one worker hands to the consumer at once, so that the
// channel costs little per scenario.
type batch struct {
	rows    []dataset.Row
	skipped int
	// skippedFailed counts the skipped scenarios whose row is not ok.
	skippedFailed int
	failure       error // the first failure in the batch, for FailFast
	// vals holds the parameter values of rows (see filler); it is reused
	// once the consumer has copied the rows out.
	vals []vocab.Value
}

// filler is a Source that writes a scenario's parameter values into a
// slice the caller provides (plan.Plan does), which saves allocating them
// for every scenario.
type filler interface {
	AtInto(i int, vals []vocab.Value) plan.Scenario
}

// next returns room for n parameter values after those of the batch's
// rows. Rows keep the slab they were given if a new one is needed.
func (b *batch) next(n int) []vocab.Value {
	if len(b.vals)+n > cap(b.vals) {
		b.vals = make([]vocab.Value, 0, max(2*cap(b.vals), 64*n))
	}
	return b.vals[len(b.vals) : len(b.vals)+n : len(b.vals)+n]
}

const (
	maxSpan    = 256                   // indices per span: big enough to amortize channel costs
	batchDelay = 50 * time.Millisecond // a worker hands over slow rows at least this often
)

// Run runs every scenario of cfg.Source that the dataset in cfg.Dir does not
// have yet and writes the rows. It returns an error if the context was
// cancelled, if FailFast stopped the sweep, or if writing failed; the rows of
// the scenarios that finished are in whole part files in every case, so a
// rerun resumes. Scenarios that fail are rows, not errors.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	start := time.Now()
	s := cfg.Model.Schema()
	sum := Summary{Name: cfg.Meta.SpecName, Total: cfg.Source.Len(), Dir: cfg.Dir}
	if sum.Name == "" {
		sum.Name = s.Name
	}
	if cfg.Workers > MaxWorkers {
		return sum, fmt.Errorf("sweep: %d workers is more than %d (MaxWorkers)", cfg.Workers, MaxWorkers)
	}
	done := cfg.Done
	if done == nil {
		var err error
		if done, err = dataset.ReadIDs(cfg.Dir); err != nil {
			return sum, fmt.Errorf("sweep: resume: %w", err)
		}
	}
	skips := alreadyDone(cfg, done)
	toRun := cfg.Source.Len() - skips
	// Counting the skips reads every scenario's id; without progress to
	// draw it is needed only when the workers asked for could outnumber
	// the scenarios left, at least Len - done.Len().
	if cfg.Progress == nil && workerCount(cfg.Workers, toRun) > cfg.Source.Len()-done.Len() {
		toRun -= countSkips(cfg, done)
	}
	workers := workerCount(cfg.Workers, toRun)
	meta := cfg.Meta
	meta.Version, meta.Model, meta.ModelVersion = Version, s.Name, s.Version
	meta.Started = start
	opts := dataset.Options{Shard: cfg.Shard, MaxRows: cfg.PartRows, MaxAge: cfg.PartAge, Meta: meta, Mem: cfg.Mem}
	var w sink
	var err error
	if len(cfg.PartitionBy) > 0 {
		w, err = dataset.NewPartitioned(cfg.Dir, s, cfg.PartitionBy, cfg.Partitions, opts)
	} else {
		w, err = dataset.NewWriter(cfg.Dir, s, opts)
	}
	if err != nil {
		return sum, fmt.Errorf("sweep: %w", err)
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(runCtx)
	n := cfg.Source.Len()
	size := min(maxSpan, max(1, n/(workers*8)))
	spans := make(chan span, workers*2)
	out := make(chan *batch, workers*2)
	consumerDone := make(chan struct{})
	pool := sync.Pool{New: func() any { return new(batch) }}

	g.Go(func() error {
		defer close(spans)
		for lo := 0; lo < n; lo += size {
			select {
			case spans <- span{lo, min(n, lo+size)}:
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})

	r := &runner{cfg: cfg, schema: s, done: done, cancel: cancel}
	var wg sync.WaitGroup
	var drained sync.Once
	for range workers {
		wg.Add(1)
		g.Go(func() error {
			defer wg.Done()
			for sp := range spans {
				if !r.take(gctx) {
					return nil
				}
				ok := r.work(gctx, sp, &pool, out, consumerDone)
				r.give()
				if !ok {
					return nil
				}
			}
			if cfg.Drained != nil && gctx.Err() == nil {
				drained.Do(cfg.Drained)
			}
			return nil
		})
	}
	go func() { wg.Wait(); close(out) }()

	var failure error
	prog := newProgress(cfg.Progress, cfg.Terminal, sum.Name, n, skips, cfg.ProgressEvery, time.Now)
	g.Go(func() (err error) {
		defer close(consumerDone)
		defer func() {
			// Write what is buffered whatever happened, so that every row
			// of a finished scenario survives an interrupt.
			if cerr := w.Close(); err == nil && cerr != nil {
				err = cerr
			}
		}()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case b, ok := <-out:
				if !ok {
					return nil
				}
				if err := consume(b, w, &sum); err != nil {
					return err
				}
				if b.failure != nil && failure == nil {
					failure = b.failure
				}
				prog.update(sum.OK+sum.Failed, sum.Skipped, sum.Failed)
				b.reset()
				pool.Put(b)
			case <-tick.C:
				if err := w.Tick(); err != nil {
					return err
				}
				prog.tick() // the heartbeat of a log while long scenarios run
			}
		}
	})
	err = g.Wait()
	prog.finish()
	sum.Wall = time.Since(start)
	if err != nil {
		stored(&sum, cfg.Dir, cfg.Source, done)
	}
	if cfg.Progress != nil {
		fmt.Fprintln(cfg.Progress, sum)
	}
	switch {
	case err != nil:
		return sum, fmt.Errorf("sweep: %w", err)
	case cfg.FailFast && failure != nil:
		return sum, fmt.Errorf("sweep: stopped at the first failure (fail-fast): %w", failure)
	case ctx.Err() != nil:
		return sum, fmt.Errorf("sweep: interrupted with %d of %d scenarios in the dataset, rerun to resume: %w",
			inDataset(cfg, done, sum), sum.Total, ctx.Err())
	}
	return sum, nil
}

// inDataset counts the scenarios of cfg.Source that the dataset holds
// after an interrupted run: those run now and those it held before, the
// ones the run had not reached yet included, and failed rows a retry
// (cfg.Rerun) had not reached yet too. It reads the dataset again; if
// that fails, it counts from the summary and the skips.
func inDataset(cfg Config, before *dataset.Done, sum Summary) int {
	after, err := dataset.ReadIDs(cfg.Dir)
	if err != nil {
		return sum.OK + sum.Failed + countSkips(cfg, before)
	}
	k := 0
	for i := range cfg.Source.Len() {
		if _, ok := after.Status(cfg.Source.At(i).ID); ok {
			k++
		}
	}
	return k
}

// MaxWorkers bounds Config.Workers (crosslink run -j). A worker runs one
// scenario at a time on one goroutine and scenarios are CPU-bound, so
// workers beyond the cores add memory (channels sized by the worker count,
// a goroutine stack each) and no speed; 1024 is above the core count of
// any node crosslink runs on, and far below the count (millions) whose
// start-up alone takes seconds and hundreds of megabytes.
const MaxWorkers = 1024

// workerCount is the number of workers to start: asked (GOMAXPROCS when 0
// or less), but no more than there are scenarios to run, and at least one.
func workerCount(asked, toRun int) int {
	if asked <= 0 {
		asked = runtime.GOMAXPROCS(0)
	}
	return max(1, min(asked, toRun))
}

// alreadyDone counts the scenarios of cfg.Source that done holds and that
// will be skipped (Rerun does not send them back), so that the progress of
// a resumed sweep counts only what is left to run: its skips are spread
// over the whole scenario order, and an ETA over every scenario not yet
// reached would count them as work. Without progress it counts nothing.
func alreadyDone(cfg Config, done *dataset.Done) int {
	if cfg.Progress == nil {
		return 0
	}
	return countSkips(cfg, done)
}

// countSkips counts the scenarios of cfg.Source that done holds and that
// will be skipped (Rerun does not send them back).
func countSkips(cfg Config, done *dataset.Done) int {
	if done.Len() == 0 {
		return 0
	}
	k := 0
	for i := range cfg.Source.Len() {
		if st, ok := done.Status(cfg.Source.At(i).ID); ok && (cfg.Rerun == nil || !cfg.Rerun(st)) {
			k++
		}
	}
	return k
}

// stored corrects sum after a failed write: it counts the rows of this
// run's scenarios (src) that are in the dataset's part files now and were
// not before (done), which is what a rerun will skip, and calls the rest
// of the scenarios run now unstored. Only src's ids count: the other
// tasks of a job array add rows to the same dataset meanwhile.
func stored(sum *Summary, dir string, src plan.Source, before *dataset.Done) {
	after, err := dataset.ReadIDs(dir)
	if err != nil {
		return // the error of the run says why; the counts stay as run
	}
	ok, failed := 0, map[dataset.Status]int{}
	for i := range src.Len() {
		id := src.At(i).ID
		st, in := after.Status(id)
		if !in {
			continue
		}
		was, had := before.Status(id)
		switch {
		case st == dataset.OK && (!had || was != dataset.OK):
			ok++
		case st != dataset.OK && !had:
			failed[st]++
		}
	}
	run := sum.OK + sum.Failed
	sum.OK = min(ok, run)
	sum.Failed, sum.FailedBy = 0, nil
	// Clamped to what this run ran, as OK is, in a fixed order of
	// statuses so that the split does not depend on map order.
	for _, st := range []dataset.Status{dataset.Failed, dataset.Panic, dataset.Timeout, dataset.Canceled} {
		sum.addFailed(st, min(failed[st], run-sum.OK-sum.Failed))
	}
	sum.Unstored = run - sum.OK - sum.Failed
}

func (b *batch) reset() {
	clear(b.rows) // drop references to parameter and metric slices
	b.rows = b.rows[:0]
	b.vals = b.vals[:0]
	b.skipped, b.skippedFailed = 0, 0
	b.failure = nil
}

// sink is where the consumer writes rows: a dataset.Writer, or a
// dataset.Partitioned for a hive-partitioned dataset.
type sink interface {
	AppendRows([]dataset.Row) (int, error)
	Tick() error
	Close() error
}

// consume appends a batch's rows to the writers and counts them.
func consume(b *batch, w sink, sum *Summary) error {
	n, err := w.AppendRows(b.rows)
	for i := range b.rows[:n] {
		if b.rows[i].Status == dataset.OK {
			sum.OK++
		} else {
			sum.addFailed(b.rows[i].Status, 1)
		}
	}
	if err != nil {
		return err
	}
	sum.Skipped += b.skipped
	sum.SkippedFailed += b.skippedFailed
	return nil
}

// runner holds what the workers share; it is read-only but for cancel.
type runner struct {
	cfg    Config
	schema *vocab.Schema
	done   *dataset.Done
	cancel context.CancelFunc
}

// work runs the scenarios of sp, handing rows to the consumer in batches.
// It returns false when the sweep is over for this worker (cancelled, or the
// consumer stopped).
func (r *runner) work(ctx context.Context, sp span, pool *sync.Pool, out chan<- *batch, consumerDone <-chan struct{}) bool {
	b := pool.Get().(*batch)
	since := time.Now()
	fill, _ := r.cfg.Source.(filler)
	np := len(r.schema.Params)
	send := func() bool {
		if len(b.rows) == 0 && b.skipped == 0 {
			return true
		}
		select {
		case out <- b:
			b = pool.Get().(*batch)
			return true
		case <-consumerDone:
			return false
		}
	}
	for i := sp.lo; i < sp.hi; i++ {
		if ctx.Err() != nil {
			break
		}
		var sc plan.Scenario
		if fill != nil {
			sc = fill.AtInto(i, b.next(np))
		} else {
			sc = r.cfg.Source.At(i)
		}
		if st, ok := r.done.Status(sc.ID); ok && (r.cfg.Rerun == nil || !r.cfg.Rerun(st)) {
			b.skipped++
			if st != dataset.OK {
				b.skippedFailed++
			}
			continue
		}
		row, now, ok := r.run(ctx, sc)
		if !ok {
			break // abandoned: cancelled mid-scenario; a rerun does it
		}
		b.rows = append(b.rows, row)
		if fill != nil {
			b.vals = b.vals[:len(b.vals)+np] // the row keeps its values
		}
		if row.Status != dataset.OK && b.failure == nil {
			b.failure = fmt.Errorf("scenario %s (%s): %s", sc.ID, row.Status, firstLine(row.Error))
			if r.cfg.FailFast {
				r.cancel()
			}
		}
		if now.Sub(since) >= batchDelay {
			if !send() {
				return false
			}
			since = now
		}
	}
	ok := send()
	if len(b.rows) == 0 && b.skipped == 0 {
		pool.Put(b)
	}
	return ok && ctx.Err() == nil
}

// take waits for a place in the shared Slots (at once without them) for
// the span a worker is about to run; it reports false if ctx ends first.
func (r *runner) take(ctx context.Context) bool {
	if r.cfg.Slots == nil {
		return true
	}
	select {
	case r.cfg.Slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// give frees the place take took.
func (r *runner) give() {
	if r.cfg.Slots != nil {
		<-r.cfg.Slots
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// run runs one scenario and returns its row, second-table rows included,
// and the time it ended. ok is false when the scenario was cut short by
// cancellation of the sweep and must not be written.
func (r *runner) run(ctx context.Context, sc plan.Scenario) (row dataset.Row, end time.Time, ok bool) {
	row = dataset.Row{ID: sc.ID, PointID: sc.PointID, Replicate: sc.Replicate, Seed: sc.Seed, Params: sc.Params.Values()}
	if row.PointID == "" { // a Scenario built by hand
		row.PointID = plan.PointID(r.schema, row.Params)
	}
	sctx := ctx
	if r.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, r.cfg.Timeout)
		defer cancel()
	}
	t0 := time.Now()
	key := sharedKey{r.schema, sc.ID, sc.Seed}
	if res, ok := r.cfg.shared.take(key); ok {
		// Another sweep's result for this very scenario (sharedResults):
		// wall_s is the time of the copy.
		end = time.Now()
		row.WallS = end.Sub(t0).Seconds()
		row.Status, row.Metrics, row.Tables = dataset.OK, res.Metrics, res.Tables
		return row, end, true
	}
	res, panicked, err := call(sctx, r.cfg.Model, sc)
	end = time.Now()
	row.WallS = end.Sub(t0).Seconds()
	switch {
	case panicked != "":
		row.Status, row.Error = dataset.Panic, panicked
	case err != nil && ctx.Err() != nil:
		return row, end, false
	case err != nil && errors.Is(sctx.Err(), context.DeadlineExceeded):
		row.Status, row.Error = dataset.Timeout, fmt.Sprintf("timed out after %s: %v", r.cfg.Timeout, err)
	case err != nil && errors.Is(err, vocab.ErrEventLimit):
		row.Status, row.Error = dataset.Timeout, fmt.Sprintf("simulated-event limit of %d reached: %v", vocab.EventLimit(sctx), err)
	case err != nil:
		row.Status, row.Error = dataset.Failed, err.Error()
	default:
		if msg := r.check(res); msg != "" {
			row.Status, row.Error = dataset.Failed, msg
			break
		}
		row.Status, row.Metrics, row.Tables = dataset.OK, res.Metrics, res.Tables
	}
	r.cfg.shared.computed(key, res, row.Status == dataset.OK)
	return row, end, true
}

// check returns what is wrong with a model's result, or "". A malformed
// result is a bug in the model; it fails that scenario, not the sweep.
func (r *runner) check(res vocab.Result) string {
	s := r.schema
	if len(res.Metrics) != len(s.Metrics) {
		return fmt.Sprintf("sweep: bug in model %s: %d metrics, want %d", s.Name, len(res.Metrics), len(s.Metrics))
	}
	for i, v := range res.Metrics {
		if v.Kind() != s.Metrics[i].Kind && v.Kind() != vocab.Invalid {
			return fmt.Sprintf("sweep: bug in model %s: metric %s is a %s, want %s", s.Name, s.Metrics[i].Name, v.Kind(), s.Metrics[i].Kind)
		}
	}
	if res.Tables != nil && len(res.Tables) != len(s.Tables) {
		return fmt.Sprintf("sweep: bug in model %s: %d tables, want %d", s.Name, len(res.Tables), len(s.Tables))
	}
	for t, rows := range res.Tables {
		cols := s.Tables[t].Columns
		for _, vals := range rows {
			if len(vals) != len(cols) {
				return fmt.Sprintf("sweep: bug in model %s: table %s row of %d values, want %d", s.Name, s.Tables[t].Name, len(vals), len(cols))
			}
			for i, v := range vals {
				if v.Kind() != cols[i].Kind && v.Kind() != vocab.Invalid {
					return fmt.Sprintf("sweep: bug in model %s: table %s column %s is a %s, want %s", s.Name, s.Tables[t].Name, cols[i].Name, v.Kind(), cols[i].Kind)
				}
			}
		}
	}
	return ""
}

// call runs the model, turning a panic into its message and stack. The
// stack lists functions and file:line only (no goroutine number, no
// argument words), so the row is the same whichever worker ran it.
func call(ctx context.Context, m vocab.Model, sc plan.Scenario) (res vocab.Result, panicked string, err error) {
	defer func() {
		if v := recover(); v != nil {
			panicked = panicText(v)
		}
	}()
	res, err = m.Run(ctx, sc.Params, sc.Seed)
	return res, "", err
}

func panicText(v any) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "panic: %v\n", v)
	pcs := make([]uintptr, 64)
	// Skip runtime.Callers, panicText, the deferred closure and gopanic.
	n := runtime.Callers(4, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, "/sweep.call") {
			break // the rest is the worker machinery
		}
		if !strings.HasPrefix(f.Function, "runtime.") {
			fmt.Fprintf(&sb, "%s\n\t%s:%d\n", f.Function, f.File, f.Line)
		}
		if !more {
			break
		}
	}
	return strings.TrimSuffix(sb.String(), "\n")
}
