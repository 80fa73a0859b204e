package sweep

import (
	"context"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TestRunJobs: failed scenarios are counted, not errors; a retry reruns
// exactly them; a shard runs its share; options that do not fit the spec
// are ErrOptions with the underlying message unchanged.
func TestRunJobs(t *testing.T) {
	m := newInverseSquare(0)
	text := "name: inv\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m, 3m]\n  mode: [normal, error]\n"
	j := noisyJob(t, m, text, t.TempDir())
	ctx := context.Background()

	failed, err := RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard})
	if err != nil || failed != 3 {
		t.Fatalf("RunJobs = %d, %v; want 3 failed (the error mode), nil", failed, err)
	}
	if failed, err = RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard}); err != nil || failed != 0 {
		t.Errorf("second RunJobs = %d, %v; want nothing run", failed, err)
	}
	if failed, err = RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard, RetryFailed: true}); err != nil || failed != 3 {
		t.Errorf("RunJobs with RetryFailed = %d, %v; want the 3 failed ones rerun", failed, err)
	}
	if got := len(rows(t, j.Dir, true)); got != 6 {
		t.Errorf("dataset has %d rows after the retry, want 6 (one per scenario)", got)
	}

	// Shard 0/2 of a fresh dataset runs a share: together with 1/2 the six
	// scenarios, each once.
	j.Dir = t.TempDir()
	total := 0
	for i := range 2 {
		sh, err := ParseShard([]string{"0/2", "1/2"}[i])
		if err != nil {
			t.Fatal(err)
		}
		f, err := RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard, Shard: sh})
		if err != nil {
			t.Fatal(err)
		}
		total += f
	}
	if total != 3 {
		t.Errorf("failed over both shards = %d, want 3", total)
	}
	st, ok := 0, 0
	for _, r := range rows(t, j.Dir, true) {
		st++
		for _, c := range r {
			if c == string(dataset.OK) {
				ok++
			}
		}
	}
	if st != 6 || ok != 3 {
		t.Errorf("sharded dataset: %d rows, %d ok; want 6 and 3", st, ok)
	}

	_, err = RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard, PartitionBy: []string{"mdoe"}})
	if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), `did you mean "mode"`) || strings.Contains(err.Error(), ErrOptions.Error()) {
		t.Errorf("RunJobs with a misspelt partition column: %v; want ErrOptions with Partitioning's own text", err)
	}
}

// overlapModel is inverse-square with a hook that runs first in every
// scenario, counting the scenarios running at once over every job.
type overlapModel struct {
	*inverseSquare
	running, most *atomic.Int32
	hook          func(vocab.Params)
}

func (m overlapModel) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	n := m.running.Add(1)
	defer m.running.Add(-1)
	for {
		if old := m.most.Load(); n <= old || m.most.CompareAndSwap(old, n) {
			break
		}
	}
	m.hook(p)
	return m.inverseSquare.Run(ctx, p, seed)
}

// TestRunJobsOverlap: the second job starts while the first one's last
// scenario still runs, on the place its idle worker left, never with more
// scenarios at once than the workers asked for; and the second job's
// progress comes after the first job's summary although it ends first.
func TestRunJobsOverlap(t *testing.T) {
	var running, most atomic.Int32
	var progress lockedBuilder
	bRan := make(chan struct{}, 4)
	overlapped := make(chan bool, 1)
	a := overlapModel{newInverseSquare(0), &running, &most, func(p vocab.Params) {
		if p.Float("distance") != 3 {
			return
		}
		// The last scenario of a waits for b's four, then gives b's
		// summary a second to be written out of turn.
		for range 4 {
			select {
			case <-bRan:
			case <-time.After(20 * time.Second):
				overlapped <- false
				return
			}
		}
		overlapped <- true
		for end := time.Now().Add(time.Second); time.Now().Before(end) && !strings.Contains(progress.String(), "b: 4 scenarios"); {
			time.Sleep(10 * time.Millisecond)
		}
	}}
	b := overlapModel{newInverseSquare(0), &running, &most, func(vocab.Params) { bRan <- struct{}{} }}
	ja := noisyJob(t, a, "name: a\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m, 3m]\n", t.TempDir())
	jb := noisyJob(t, b, "name: b\nmodel: inverse-square\ngrid:\n  distance: [4m, 5m, 6m, 7m]\n", t.TempDir())

	failed, err := RunJobs(context.Background(), []*Job{ja, jb}, Options{Workers: 2, Progress: &progress, Warn: io.Discard})
	if err != nil || failed != 0 {
		t.Fatalf("RunJobs = %d, %v; want 0, nil", failed, err)
	}
	if !<-overlapped {
		t.Error("job b did not run while job a's last scenario ran with a worker idle")
	}
	if got := most.Load(); got > 2 {
		t.Errorf("%d scenarios ran at once over both jobs; want at most the 2 workers", got)
	}
	if got := len(rows(t, ja.Dir, true)) + len(rows(t, jb.Dir, true)); got != 7 {
		t.Errorf("%d rows; want 7, one per scenario", got)
	}
	out := progress.String()
	endA := strings.Index(out, "a: 3 scenarios: 3 ok")
	firstB := strings.Index(out, "b: ")
	if endA < 0 || firstB < endA {
		t.Errorf("job b's progress does not come after job a's summary:\n%s", out)
	}
}

// lockedBuilder is a strings.Builder that goroutines can share.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunJobsStopsAtAnError: a job that cannot start stops the ones after
// it, and the error is that job's, after the jobs before it have ended
// whole.
func TestRunJobsStopsAtAnError(t *testing.T) {
	m := newInverseSquare(0)
	ja := noisyJob(t, m, "name: a\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m, 3m]\n", t.TempDir())
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	// b's dataset directory would be inside a file: it cannot be created.
	jb := noisyJob(t, m, "name: b\nmodel: inverse-square\ngrid:\n  distance: [4m]\n", filepath.Join(file, "b"))
	jc := noisyJob(t, m, "name: c\nmodel: inverse-square\ngrid:\n  distance: [5m]\n", filepath.Join(t.TempDir(), "c"))
	_, err := RunJobs(context.Background(), []*Job{ja, jb, jc}, Options{Workers: 2, Warn: io.Discard})
	if err == nil || !strings.Contains(err.Error(), jb.Dir) {
		t.Fatalf("RunJobs = %v; want job b's error about %s", err, jb.Dir)
	}
	if got := len(rows(t, ja.Dir, true)); got != 3 {
		t.Errorf("job a has %d rows; want its 3", got)
	}
	if _, err := os.Stat(jc.Dir); err == nil {
		t.Errorf("job c started after job b failed (%s exists)", jc.Dir)
	}
}

// TestRunJobsInterruptedWhileOverlapping: cancelled while the second job
// runs beside the first one's last scenario, both stop with the
// interruption as the error, and a rerun completes both, each scenario
// once.
func TestRunJobsInterruptedWhileOverlapping(t *testing.T) {
	var running, most atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	bStarted := make(chan struct{})
	var once sync.Once
	a := overlapModel{newInverseSquare(0), &running, &most, func(p vocab.Params) {
		if p.Float("distance") == 3 {
			select {
			case <-bStarted:
			case <-time.After(20 * time.Second):
			}
		}
	}}
	b := overlapModel{newInverseSquare(0), &running, &most, func(vocab.Params) {
		once.Do(func() { close(bStarted); cancel() })
	}}
	ja := noisyJob(t, a, "name: a\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m, 3m]\n", t.TempDir())
	jb := noisyJob(t, b, "name: b\nmodel: inverse-square\ngrid:\n  distance: [4m, 5m, 6m, 7m]\n", t.TempDir())
	_, err := RunJobs(ctx, []*Job{ja, jb}, Options{Workers: 2, Warn: io.Discard})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("RunJobs = %v; want the interruption", err)
	}
	if _, err := RunJobs(context.Background(), []*Job{ja, jb}, Options{Workers: 2, Warn: io.Discard}); err != nil {
		t.Fatal(err)
	}
	if na, nb := len(rows(t, ja.Dir, true)), len(rows(t, jb.Dir, true)); na != 3 || nb != 4 {
		t.Errorf("after the rerun a has %d rows and b %d; want 3 and 4", na, nb)
	}
}

// countingModel is inverse-square counting its runs by distance; its
// schema is the inner model's, so two jobs of one countingModel run one
// model, as two specs of one registered model do.
type countingModel struct {
	*inverseSquare
	mu   *sync.Mutex
	runs map[float64]int
}

func (m countingModel) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	m.mu.Lock()
	m.runs[p.Float("distance")]++
	m.mu.Unlock()
	return m.inverseSquare.Run(ctx, p, seed)
}

// TestRunJobsShared: a scenario that two jobs hold (same model,
// parameters, replicate and seed) runs once, and both datasets hold the
// rows, second table included, that each job gives when it runs alone.
// A job with another seed shares nothing.
func TestRunJobsShared(t *testing.T) {
	m := countingModel{newInverseSquare(0), &sync.Mutex{}, map[float64]int{}}
	const (
		textA = "name: a\nmodel: inverse-square\nseed: 7\nreplicates: 2\ngrid:\n  distance: [1m, 2m, 3m]\n"
		textB = "name: b\nmodel: inverse-square\nseed: 7\nreplicates: 2\ngrid:\n  distance: [2m, 3m, 4m]\n"
		textC = "name: c\nmodel: inverse-square\nseed: 8\nreplicates: 2\ngrid:\n  distance: [2m]\n"
	)
	a, b, c := noisyJob(t, m, textA, t.TempDir()), noisyJob(t, m, textB, t.TempDir()), noisyJob(t, m, textC, t.TempDir())
	var progress strings.Builder
	// One worker: a's scenarios are over before b's start, so b takes
	// the four it shares with a.
	failed, err := RunJobs(context.Background(), []*Job{a, b, c}, Options{Workers: 1, Warn: io.Discard, Progress: &progress})
	if err != nil || failed != 0 {
		t.Fatalf("RunJobs = %d, %v", failed, err)
	}
	want := map[float64]int{1: 2, 2: 2 + 2, 3: 2, 4: 2} // two replicates each; c's seed differs
	if !maps.Equal(m.runs, want) {
		t.Errorf("runs by distance %v, want %v", m.runs, want)
	}
	if !strings.Contains(progress.String(), "4 scenarios that more than one spec holds (same model, parameters and seed) ran once") {
		t.Errorf("progress does not say that 4 scenarios ran once:\n%s", progress.String())
	}
	for _, j := range []*Job{a, b, c} {
		alone := noisyJob(t, newInverseSquare(0), string(j.Spec.Text), t.TempDir())
		if _, err := RunJobs(context.Background(), []*Job{alone}, Options{Warn: io.Discard}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(rows(t, alone.Dir, true), rows(t, j.Dir, true)); diff != "" {
			t.Errorf("%s (-alone +with the others):\n%s", j.Spec.Name, diff)
		}
		if diff := cmp.Diff(rows(t, dataset.TableDir(alone.Dir, "samples"), false), rows(t, dataset.TableDir(j.Dir, "samples"), false)); diff != "" {
			t.Errorf("%s samples (-alone +with the others):\n%s", j.Spec.Name, diff)
		}
	}
}
