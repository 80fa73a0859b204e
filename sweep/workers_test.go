package sweep

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

func TestWorkerCount(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	tests := []struct{ asked, toRun, want int }{
		{0, 1000, min(cores, 1000)}, // one per core
		{-4, 1000, min(cores, 1000)},
		{8, 1000, 8},
		{10_000_000, 2, 2}, // no more workers than scenarios to run
		{4, 0, 1},          // everything done: one worker skips through
		{1, 5, 1},
	}
	for _, tt := range tests {
		if got := workerCount(tt.asked, tt.toRun); got != tt.want {
			t.Errorf("workerCount(%d, %d) = %d, want %d", tt.asked, tt.toRun, got, tt.want)
		}
	}
}

// TestOptionsCheckWorkers: -j beyond MaxWorkers, or negative, is refused
// as a mistake of the options, with the bound and the fix in the message.
func TestOptionsCheckWorkers(t *testing.T) {
	tests := []struct {
		workers int
		want    string // "" for accepted
	}{
		{0, ""},
		{1, ""},
		{MaxWorkers, ""},
		{MaxWorkers + 1, "give -j 1024 or less"},
		{10_000_000, "-j 10000000 is more than the 1024 workers"},
		{-1, "cannot be negative"},
	}
	for _, tt := range tests {
		err := Options{Workers: tt.workers}.check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("-j %d: %v, want accepted", tt.workers, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrOptions)):
			t.Errorf("-j %d: %v, want an ErrOptions saying %q", tt.workers, err, tt.want)
		}
	}
	if _, err := RunJobs(context.Background(), nil, Options{Workers: 10_000_000}); !errors.Is(err, ErrOptions) {
		t.Errorf("RunJobs with -j 10000000 = %v, want ErrOptions", err)
	}
}

// goroutineCounter records the most goroutines alive while a scenario ran.
type goroutineCounter struct {
	vocab.Model
	most atomic.Int64
}

func (g *goroutineCounter) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	if n := int64(runtime.NumGoroutine()); n > g.most.Load() {
		g.most.Store(n)
	}
	return g.Model.Run(ctx, p, seed)
}

// TestRunStartsNoIdleWorkers: a sweep of 2 scenarios asked for MaxWorkers
// workers starts 2, not 1024 goroutines that find nothing to do.
func TestRunStartsNoIdleWorkers(t *testing.T) {
	m := &goroutineCounter{Model: newInverseSquare(0)}
	before := runtime.NumGoroutine()
	sum, err := Run(context.Background(), Config{Model: m, Source: scenarios(m, 2, nil), Dir: t.TempDir(), Meta: testMeta(), Workers: MaxWorkers})
	if err != nil || sum.OK != 2 {
		t.Fatalf("Run = %+v, %v; want 2 ok", sum, err)
	}
	// The producer, the consumer, the closer, the writer's flush and 2
	// workers; 16 leaves room for the runtime's own.
	if extra := m.most.Load() - int64(before); extra > 16 {
		t.Errorf("%d goroutines beyond the test's while the sweep ran, want at most 16 for 2 workers", extra)
	}
	// A resume with 2 of 300 scenarios left, quiet (no progress counts the
	// skips), starts 2 workers too.
	dir := t.TempDir()
	if _, err := Run(context.Background(), Config{Model: m, Source: scenarios(m, 298, nil), Dir: dir, Meta: testMeta()}); err != nil {
		t.Fatal(err)
	}
	m.most.Store(0)
	before = runtime.NumGoroutine()
	sum, err = Run(context.Background(), Config{Model: m, Source: scenarios(m, 300, nil), Dir: dir, Meta: testMeta(), Workers: MaxWorkers})
	if err != nil || sum.OK != 2 || sum.Skipped != 298 {
		t.Fatalf("resume = %+v, %v; want 2 ok, 298 skipped", sum, err)
	}
	if extra := m.most.Load() - int64(before); extra > 16 {
		t.Errorf("resume: %d goroutines beyond the test's while the sweep ran, want at most 16 for 2 workers", extra)
	}
	if _, err := Run(context.Background(), Config{Model: m, Source: scenarios(m, 2, nil), Dir: t.TempDir(), Meta: testMeta(), Workers: MaxWorkers + 1}); err == nil {
		t.Errorf("Run with %d workers succeeded, want an error", MaxWorkers+1)
	}
}
