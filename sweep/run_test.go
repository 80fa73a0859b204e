package sweep

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/vocab"
)

func testMeta() dataset.Meta {
	return dataset.Meta{SpecName: "unit-test", Spec: "name: unit-test\nmodel: inverse-square\n", Profile: "quick"}
}

func TestWorkerCountDoesNotChangeRows(t *testing.T) {
	m := newInverseSquare(0)
	src := scenarios(m, 300, map[int]string{7: "panic", 100: "error", 200: "panic"})
	var main, samples [][][]any
	for _, workers := range []int{1, 8} {
		dir := t.TempDir()
		sum, err := Run(context.Background(), Config{Model: m, Source: src, Dir: dir, Meta: testMeta(), Workers: workers, PartRows: 37})
		if err != nil {
			t.Fatalf("workers %d: %v", workers, err)
		}
		if sum.OK != 297 || sum.Failed != 3 || sum.Skipped != 0 {
			t.Errorf("workers %d: summary %+v, want 297 ok, 3 failed", workers, sum)
		}
		main = append(main, rows(t, dir, true))
		samples = append(samples, rows(t, dataset.TableDir(dir, "samples"), false))
	}
	if len(main[0]) != 300 || len(samples[0]) != 297*3 {
		t.Fatalf("%d rows and %d samples, want 300 and %d", len(main[0]), len(samples[0]), 297*3)
	}
	if diff := cmp.Diff(main[0], main[1]); diff != "" {
		t.Errorf("rows with 1 worker (-) and 8 workers (+):\n%s", diff)
	}
	if diff := cmp.Diff(samples[0], samples[1]); diff != "" {
		t.Errorf("samples with 1 worker (-) and 8 workers (+):\n%s", diff)
	}
}

// TestRowValues checks one row against the test model's closed form,
// computed here rather than by calling the model: at distance d = 2 m,
// P = gain / (4 pi d^2) with gain = prod_k (0.5 + g_k) over the three
// draws g_k of the scenario's seeded stream (PCG(seed, 1)), and fades the
// number of draws below 0.1. The row must carry exactly these values, so a
// sweep that wrote another scenario's metrics, or the right ones under the
// wrong seed, fails.
func TestRowValues(t *testing.T) {
	m := newInverseSquare(0)
	src := scenarios(m, 2, nil)
	dir := t.TempDir()
	if _, err := Run(context.Background(), Config{Model: m, Source: src, Dir: dir, Meta: testMeta()}); err != nil {
		t.Fatal(err)
	}
	const d = 2.0
	rng := rand.New(rand.NewPCG(src[1].Seed, 1))
	gain, fades := 1.0, int64(0)
	for range 3 {
		g := rng.Float64()
		if g < 0.1 {
			fades++
		}
		gain *= 0.5 + g
	}
	power := gain / (4 * math.Pi * d * d)
	if src[1].Params.Float("distance") != d {
		t.Fatalf("scenario 1 is at %v m, want %v m", src[1].Params.Float("distance"), d)
	}
	want := []any{src[1].ID, plan.PointID(m.Schema(), src[1].Params.Values()), int64(1), src[1].Seed, d, "normal", power, fades, "ok", ""}
	got := rows(t, dir, true)
	for _, r := range got {
		if r[0] == src[1].ID {
			if diff := cmp.Diff(want, r); diff != "" {
				t.Errorf("row (-want +got):\n%s", diff)
			}
			return
		}
	}
	t.Errorf("no row for %s in %v", src[1].ID, got)
}

func TestPanicIsARow(t *testing.T) {
	m := newInverseSquare(0)
	src := scenarios(m, 20, map[int]string{3: "panic", 4: "error"})
	dir := t.TempDir()
	sum, err := Run(context.Background(), Config{Model: m, Source: src, Dir: dir, Meta: testMeta(), Workers: 2})
	if err != nil {
		t.Fatalf("Run() = %v, want the sweep to go on past a panic", err)
	}
	if sum.OK != 18 || sum.Failed != 2 {
		t.Errorf("summary %+v, want 18 ok and 2 failed", sum)
	}
	if want := map[dataset.Status]int{dataset.Panic: 1, dataset.Failed: 1}; !maps.Equal(sum.FailedBy, want) {
		t.Errorf("summary's failed by status = %v, want %v", sum.FailedBy, want)
	}
	if line := sum.String(); !strings.Contains(line, "18 ok, 2 failed (1 failed, 1 panic), 0 skipped") {
		t.Errorf("summary line %q, want it to split the 2 failed into 1 failed and 1 panic", line)
	}
	byID := map[string][]any{}
	for _, r := range rows(t, dir, true) {
		byID[r[0].(string)] = r
	}
	tests := []struct {
		i      int
		status string
		errHas []string
	}{
		{3, "panic", []string{"panic: runtime error: index out of range", "(*inverseSquare).Run", "helpers_test.go:"}},
		{4, "failed", []string{"inverse-square: the source is switched off"}},
		{5, "ok", nil},
	}
	for _, tt := range tests {
		r := byID[src[tt.i].ID]
		if r == nil {
			t.Errorf("scenario %d: no row", tt.i)
			continue
		}
		status, errText := r[8].(string), r[9].(string)
		if status != tt.status {
			t.Errorf("scenario %d: status = %q, want %q", tt.i, status, tt.status)
		}
		for _, s := range tt.errHas {
			if !strings.Contains(errText, s) {
				t.Errorf("scenario %d: error = %q, want it to contain %q", tt.i, errText, s)
			}
		}
		if tt.status != "ok" && (r[6] != nil || r[7] != nil) {
			t.Errorf("scenario %d: metrics = %v, %v, want nulls", tt.i, r[6], r[7])
		}
		if strings.Contains(errText, "goroutine") {
			t.Errorf("scenario %d: error names a goroutine, which depends on the worker: %q", tt.i, errText)
		}
	}
}

func TestFailFast(t *testing.T) {
	m := newInverseSquare(0)
	src := scenarios(m, 100, map[int]string{10: "error"})
	dir := t.TempDir()
	sum, err := Run(context.Background(), Config{Model: m, Source: src, Dir: dir, Meta: testMeta(), Workers: 1, FailFast: true})
	if err == nil || !strings.Contains(err.Error(), "fail-fast") || !strings.Contains(err.Error(), src[10].ID) {
		t.Fatalf("Run() = %v, want a fail-fast error naming %s", err, src[10].ID)
	}
	// One worker runs in index order, so it stops right after scenario 10.
	if sum.OK != 10 || sum.Failed != 1 {
		t.Errorf("summary %+v, want 10 ok and 1 failed", sum)
	}
	got := rows(t, dir, true)
	if len(got) != 11 {
		t.Errorf("%d rows, want 11", len(got))
	}
	found := false
	for _, r := range got {
		if r[0] == src[10].ID && r[8] == "failed" {
			found = true
		}
	}
	if !found {
		t.Errorf("the failed scenario's row is missing")
	}
	wholeFiles(t, dir)
}

func TestResume(t *testing.T) {
	m := newInverseSquare(0)
	src := scenarios(m, 120, map[int]string{30: "error"})
	full := t.TempDir()
	if _, err := Run(context.Background(), Config{Model: m, Source: src, Dir: full, Meta: testMeta()}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	steps := []struct {
		n                   int
		ok, failed, skipped int
		skippedFailed       int
	}{
		{50, 49, 1, 0, 0},   // first half, with the failure
		{120, 70, 0, 50, 1}, // the rest; the failed row stays as it is
		{120, 0, 0, 120, 1}, // nothing left
	}
	for i, s := range steps {
		sum, err := Run(context.Background(), Config{Model: m, Source: src[:s.n], Dir: dir, Meta: testMeta(), Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if sum.OK != s.ok || sum.Failed != s.failed || sum.Skipped != s.skipped || sum.SkippedFailed != s.skippedFailed {
			t.Errorf("run %d: summary %+v, want %d ok, %d failed, %d skipped of which %d failed before", i, sum, s.ok, s.failed, s.skipped, s.skippedFailed)
		}
	}
	if diff := cmp.Diff(rows(t, full, true), rows(t, dir, true)); diff != "" {
		t.Errorf("resumed dataset (-uninterrupted +resumed):\n%s", diff)
	}
	if diff := cmp.Diff(rows(t, dataset.TableDir(full, "samples"), false), rows(t, dataset.TableDir(dir, "samples"), false)); diff != "" {
		t.Errorf("resumed samples (-uninterrupted +resumed):\n%s", diff)
	}

	// A retry reruns only the failed scenario; the model now succeeds for
	// it, and ReadIDs prefers the ok row.
	fixed := scenarios(m, 120, nil)
	fixed[30] = src[30]
	fixed[30].Params = fixed[30].Params.With("mode", vocab.S("normal"))
	sum, err := Run(context.Background(), Config{Model: m, Source: fixed, Dir: dir, Meta: testMeta(),
		Rerun: func(s dataset.Status) bool { return s != dataset.OK }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.OK != 1 || sum.Skipped != 119 {
		t.Errorf("retry summary %+v, want 1 ok and 119 skipped", sum)
	}
	done, err := dataset.ReadIDs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := done.Status(src[30].ID); st != dataset.OK {
		t.Errorf("status of the retried scenario = %q, want ok", st)
	}
}

// cancelAfter wraps a model and cancels the sweep once n scenarios have
// started, as a SIGINT would.
type cancelAfter struct {
	vocab.Model
	n      int64
	seen   atomic.Int64
	cancel context.CancelFunc
}

func (c *cancelAfter) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	if c.seen.Add(1) == c.n {
		c.cancel()
	}
	return c.Model.Run(ctx, p, seed)
}

func TestCancelLeavesWholeFiles(t *testing.T) {
	m := newInverseSquare(time.Millisecond)
	src := scenarios(m, 200, nil)
	full := t.TempDir()
	if _, err := Run(context.Background(), Config{Model: newInverseSquare(0), Source: src, Dir: full, Meta: testMeta()}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &cancelAfter{Model: m, n: 60, cancel: cancel}
	sum, err := Run(ctx, Config{Model: c, Source: src, Dir: dir, Meta: testMeta(), Workers: 4, PartRows: 16})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run() = %v, want context.Canceled", err)
	}
	if sum.OK == 0 || sum.OK >= 200 {
		t.Errorf("cancelled run wrote %d rows, want some but not all", sum.OK)
	}
	wholeFiles(t, dir)
	partial := rows(t, dir, true)
	if len(partial) != sum.OK {
		t.Errorf("dataset has %d rows, summary says %d ok", len(partial), sum.OK)
	}
	// Every row of the cancelled run is a row of the full run: nothing
	// abandoned mid-scenario was written.
	want := map[string][]any{}
	for _, r := range rows(t, full, true) {
		want[r[0].(string)] = r
	}
	for _, r := range partial {
		if diff := cmp.Diff(want[r[0].(string)], r); diff != "" {
			t.Errorf("row of the cancelled run (-full +cancelled):\n%s", diff)
		}
	}
	sum2, err := Run(context.Background(), Config{Model: m, Source: src, Dir: dir, Meta: testMeta(), Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if sum2.Skipped != sum.OK || sum2.OK != 200-sum.OK {
		t.Errorf("rerun summary %+v, want %d skipped and %d ok", sum2, sum.OK, 200-sum.OK)
	}
	if diff := cmp.Diff(rows(t, full, true), rows(t, dir, true)); diff != "" {
		t.Errorf("resumed dataset (-uninterrupted +resumed):\n%s", diff)
	}
}

// TestSummaryString: the summary's rate has two significant digits, so a
// sweep of slow scenarios does not read (0/s), and its failed count is
// split by status unless every one is failed.
func TestSummaryString(t *testing.T) {
	tests := []struct {
		s    Summary
		want string
	}{
		{Summary{Name: "slow", Total: 3, OK: 2, Failed: 1, Wall: 2 * time.Minute, Dir: "out/slow"},
			"slow: 3 scenarios: 2 ok, 1 failed, 0 skipped in 2m0s (0.025/s) -> out/slow"},
		{Summary{Name: "fast", Total: 12345, OK: 12345, Wall: time.Second, Dir: "d"},
			"fast: 12345 scenarios: 12345 ok, 0 failed, 0 skipped in 1s (12000/s) -> d"},
		{Summary{Name: "done", Total: 5, Skipped: 5, Wall: time.Millisecond, Dir: "d"},
			"done: 5 scenarios: 0 ok, 0 failed, 5 skipped in 1ms (0/s) -> d"},
		{Summary{Name: "none", Dir: "d"},
			"none: 0 scenarios: 0 ok, 0 failed, 0 skipped in 0s (0/s) -> d"},
		{Summary{Name: "again", Total: 8, Skipped: 8, SkippedFailed: 2, Wall: time.Millisecond, Dir: "d"},
			"again: 8 scenarios: 0 ok, 0 failed, 8 skipped in 1ms (0/s) -> d; 2 of the skipped failed in an earlier run (--retry-failed runs them again)"},
		{Summary{Name: "slow", Total: 3, OK: 1, Failed: 2, FailedBy: map[dataset.Status]int{dataset.Failed: 2}, Wall: time.Second, Dir: "d"},
			"slow: 3 scenarios: 1 ok, 2 failed, 0 skipped in 1s (3.0/s) -> d"},
		{Summary{Name: "night", Total: 9, OK: 5, Failed: 4, FailedBy: map[dataset.Status]int{dataset.Timeout: 2, dataset.Panic: 1, dataset.Failed: 1}, Wall: time.Second, Dir: "d"},
			"night: 9 scenarios: 5 ok, 4 failed (1 failed, 1 panic, 2 timeout), 0 skipped in 1s (9.0/s) -> d"},
		{Summary{Name: "limit", Total: 3, Failed: 3, FailedBy: map[dataset.Status]int{dataset.Timeout: 3}, Wall: time.Second, Dir: "d"},
			"limit: 3 scenarios: 0 ok, 3 failed (3 timeout), 0 skipped in 1s (3.0/s) -> d"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("summary of %s = %q, want %q", tt.s.Name, got, tt.want)
		}
	}
}

func TestSummaryLine(t *testing.T) {
	var buf bytes.Buffer
	m := newInverseSquare(0)
	dir := t.TempDir()
	if _, err := Run(context.Background(), Config{Model: m, Source: scenarios(m, 10, nil), Dir: dir, Meta: testMeta(), Progress: &buf}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "unit-test: 10 scenarios: 10 ok, 0 failed, 0 skipped in "; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "-> "+dir+"\n") {
		t.Errorf("summary = %q, want %q... -> %s", got, want, dir)
	}
}

// cancelling is inverseSquare that cancels the run when its k-th scenario
// starts (that one is abandoned, as a cut-short scenario is).
type cancelling struct {
	*inverseSquare
	k, n   int
	cancel context.CancelFunc
}

func (m *cancelling) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	if m.n++; m.n == m.k {
		m.cancel()
		<-ctx.Done()
		return vocab.Result{}, ctx.Err()
	}
	return m.inverseSquare.Run(ctx, p, seed)
}

// TestInterruptedCountsWhatIsStored: the error of an interrupted resume
// counts the scenarios in the dataset, those found done that the run had
// not reached yet included (it counted only the skips reached).
func TestInterruptedCountsWhatIsStored(t *testing.T) {
	base := newInverseSquare(0)
	src := scenarios(base, 30, nil)
	dir := t.TempDir()
	if _, err := Run(context.Background(), Config{Model: base, Source: src[20:], Dir: dir, Meta: testMeta()}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &cancelling{inverseSquare: base, k: 5, cancel: cancel}
	_, err := Run(ctx, Config{Model: m, Source: src, Dir: dir, Meta: testMeta(), Workers: 1})
	// Scenarios 0-3 run and stored, 4 abandoned, 20-29 there before.
	if want := "interrupted with 14 of 30 scenarios in the dataset"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("interrupted resume: %v; want %q", err, want)
	}
	done, err := dataset.ReadIDs(dir)
	if err != nil || done.Len() != 14 {
		t.Errorf("dataset holds %d scenarios (%v), want 14", done.Len(), err)
	}

	// With --retry-failed the failed rows not reached yet are in the
	// dataset too (the count used to leave them out: 4 of 30).
	dir = t.TempDir()
	if _, err := Run(context.Background(), Config{Model: failing{base}, Source: src[20:], Dir: dir, Meta: testMeta()}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	m = &cancelling{inverseSquare: base, k: 5, cancel: cancel}
	_, err = Run(ctx, Config{Model: m, Source: src, Dir: dir, Meta: testMeta(), Workers: 1,
		Rerun: func(s dataset.Status) bool { return s != dataset.OK }})
	if want := "interrupted with 14 of 30 scenarios in the dataset"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("interrupted retry: %v; want %q", err, want)
	}
}

// failing is a model whose every scenario fails with an error.
type failing struct{ *inverseSquare }

func (failing) Run(context.Context, vocab.Params, uint64) (vocab.Result, error) {
	return vocab.Result{}, errors.New("no result")
}
