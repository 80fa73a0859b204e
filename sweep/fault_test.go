package sweep

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/vocab"
)

// faultDirEnv names the dataset of the child in TestKillTwenty.
const faultDirEnv = "CROSSLINK_SWEEP_FAULT_DIR"

// twentyScenarios is the size of TestKillTwenty's sweep. Each kill lands
// 10 to 20 rows after the previous one plus however far the child got
// while the parent polled, often 50 rows on a loaded machine, so the
// sweep must hold far more than 20 x 50 rows for every kill to come
// before the child finishes.
const twentyScenarios = 3000

// twentySweep is the sweep of TestKillTwenty: twentyScenarios scenarios
// of 1 ms on two workers, 10 rows a part, a panicking and a failing
// scenario among them.
func twentySweep(dir string, delay time.Duration) Config {
	m := newInverseSquare(delay)
	return Config{Model: m, Source: scenarios(m, twentyScenarios, map[int]string{77: "panic", 401: "error"}),
		Dir: dir, Meta: testMeta(), Workers: 2, PartRows: 10}
}

// TestKillTwentyChild is the child side of TestKillTwenty: a guarded sweep
// (lock, repair, run) that the parent kills.
func TestKillTwentyChild(t *testing.T) {
	dir := os.Getenv(faultDirEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestKillTwenty")
	}
	cfg := twentySweep(dir, time.Millisecond)
	if _, err := Resume(context.Background(), cfg, os.Stderr); err != nil {
		t.Fatal(err)
	}
}

// TestKillTwenty kills a sweep with SIGKILL at 20 seeded random moments,
// resuming it each time (each resume also meets the lock the killed run
// held, which the kernel released), then finishes it and expects the
// dataset of an uninterrupted run: no row lost, none duplicated, the same
// values (wall_s aside), second table included.
func TestKillTwenty(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 child processes")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(20, 1))
	killed := 0
	for k := range 20 {
		before, err := dataset.ReadIDs(dir)
		if err != nil {
			t.Fatalf("kill %d: dataset unreadable: %v", k, err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillTwentyChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), faultDirEnv+"="+dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill once the child has committed one or two parts more, then a
		// random 0-15 ms later: mid-scenario, mid-part or mid-write.
		target := before.Len() + 10*(1+rng.IntN(2))
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
			if d, err := dataset.ReadIDs(dir); err == nil && d.Len() >= target {
				break
			}
			select {
			case <-exited:
			case <-time.After(time.Millisecond):
				continue
			}
			break
		}
		time.Sleep(time.Duration(rng.IntN(15_000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if ok && ws.Exited() && ws.ExitStatus() == 0 {
			t.Logf("kill %d: the child finished first", k)
			continue
		}
		if !ok || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("kill %d: child failed by itself: %v\n%s", k, cmd.ProcessState, stderr.String())
		}
		killed++
		after, err := dataset.ReadIDs(dir)
		if err != nil {
			t.Fatalf("kill %d: the killed run left an unreadable dataset: %v", k, err)
		}
		if after.Len() < before.Len() {
			t.Fatalf("kill %d: rows went from %d to %d", k, before.Len(), after.Len())
		}
		t.Logf("kill %d: %d of %d scenarios on disk", k, after.Len(), twentyScenarios)
	}
	if killed != 20 {
		t.Errorf("%d of 20 children were killed mid-sweep; make the sweep slower", killed)
	}
	if _, err := Resume(context.Background(), twentySweep(dir, 0), os.Stderr); err != nil {
		t.Fatal(err)
	}
	wholeFiles(t, dir)
	full := t.TempDir()
	if _, err := Run(context.Background(), twentySweep(full, 0)); err != nil {
		t.Fatal(err)
	}
	want, got := rows(t, full, true), rows(t, dir, true)
	if len(got) != twentyScenarios {
		t.Errorf("resumed dataset has %d rows, want %d (0 lost, 0 duplicated)", len(got), twentyScenarios)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dataset after 20 kills (-uninterrupted +killed and resumed):\n%s", diff)
	}
	wantS, gotS := rows(t, dataset.TableDir(full, "samples"), false), rows(t, dataset.TableDir(dir, "samples"), false)
	if diff := cmp.Diff(wantS, gotS); diff != "" {
		t.Errorf("samples after 20 kills (-uninterrupted +killed and resumed):\n%s", diff)
	}
	t.Logf("%d kills; final dataset: %d rows (want %d), %d sample rows (want %d), values identical: %v",
		killed, len(got), twentyScenarios, len(gotS), len(wantS), cmp.Equal(want, got) && cmp.Equal(wantS, gotS))
}

// mountTmpfs mounts a tmpfs of size bytes (options appended) at dir and
// unmounts it at cleanup; it skips the test when not root or not allowed.
func mountTmpfs(t *testing.T, dir string, flags uintptr, size int) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, "size="+strconv.Itoa(size)); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmounting %s: %v", dir, err)
		}
	})
}

// TestDiskFull fills a small tmpfs during a sweep: Run must fail with an
// error that says so, and leave only whole part files (no temporary file,
// no part that does not read).
func TestDiskFull(t *testing.T) {
	root := t.TempDir()
	mountTmpfs(t, root, 0, 256<<10)
	dir := filepath.Join(root, "ds")
	m := newInverseSquare(0)
	cfg := Config{Model: m, Source: scenarios(m, 30000, nil), Dir: dir, Meta: testMeta(), Workers: 2, PartRows: 2000}
	sum, runErr := Resume(context.Background(), cfg, os.Stderr)
	err := runErr
	if err == nil {
		t.Fatal("a sweep on a full disk succeeded; make it bigger than the tmpfs")
	}
	if !strings.Contains(err.Error(), "no space left on device") {
		t.Errorf("error = %v, want it to say no space left on device", err)
	}
	t.Logf("disk full: %v", err)
	wholeFiles(t, dir)
	done, err := dataset.ReadIDs(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d whole rows kept of 30000; summary: %s", done.Len(), sum)
	// The summary counts what is stored, not what ran.
	if sum.OK+sum.Failed != done.Len() || sum.Unstored == 0 || strings.Contains(runErr.Error(), "unknown error type") {
		t.Errorf("summary %+v: want ok+failed = %d stored rows and the rest unstored; error %v", sum, done.Len(), runErr)
	}
}

// TestReadOnlyDir expects a sweep into a read-only directory to fail at
// once, saying so.
func TestReadOnlyDir(t *testing.T) {
	root := t.TempDir()
	if os.Geteuid() == 0 {
		mountTmpfs(t, root, syscall.MS_RDONLY, 1<<20) // root ignores mode bits
	} else {
		if err := os.Chmod(root, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(root, 0o755) })
	}
	m := newInverseSquare(0)
	for _, dir := range []string{root, filepath.Join(root, "new")} {
		cfg := Config{Model: m, Source: scenarios(m, 10, nil), Dir: dir, Meta: testMeta()}
		sum, err := Resume(context.Background(), cfg, os.Stderr)
		if err == nil {
			t.Fatalf("Resume into read-only %s succeeded", dir)
		}
		if !strings.Contains(err.Error(), "read-only") {
			t.Errorf("Resume(%s) = %v, want it to say read-only", dir, err)
		}
		if sum.OK+sum.Failed != 0 {
			t.Errorf("Resume(%s) ran %d scenarios before failing, want 0", dir, sum.OK+sum.Failed)
		}
	}
}

// TestCorruptPart truncates one part and scribbles over another's footer:
// the resume reports both, moves them (and their second-table parts) to
// _corrupt/, reruns their scenarios and ends with the full dataset.
func TestCorruptPart(t *testing.T) {
	m := newInverseSquare(0)
	sweep := func(dir string) Config {
		return Config{Model: m, Source: scenarios(m, 100, nil), Dir: dir, Meta: testMeta(), Workers: 1, PartRows: 20}
	}
	dir, full := t.TempDir(), t.TempDir()
	for _, d := range []string{dir, full} {
		if _, err := Run(context.Background(), sweep(d)); err != nil {
			t.Fatal(err)
		}
	}
	parts, _ := dataset.Parts(dir)
	if len(parts) != 5 {
		t.Fatalf("%d parts, want 5", len(parts))
	}
	fi, _ := os.Stat(parts[1])
	if err := os.Truncate(parts[1], fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(parts[3])
	copy(b[len(b)-40:], bytes.Repeat([]byte{0xff}, 32))
	if err := os.WriteFile(parts[3], b, 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	sum, err := Resume(context.Background(), sweep(dir), &warn)
	if err != nil {
		t.Fatal(err)
	}
	if sum.OK != 40 || sum.Skipped != 60 {
		t.Errorf("resume summary %+v, want 40 rerun and 60 skipped", sum)
	}
	for _, p := range []string{parts[1], parts[3]} {
		if !strings.Contains(warn.String(), p) {
			t.Errorf("warnings %q do not name %s", warn.String(), p)
		}
		name := filepath.Base(p)
		for _, moved := range []string{filepath.Join(dir, dataset.CorruptDir, dataset.MainTable, name+".corrupt"), filepath.Join(dir, dataset.CorruptDir, "samples", name+".corrupt")} {
			if _, err := os.Stat(moved); err != nil {
				t.Errorf("%s not moved aside: %v", moved, err)
			}
		}
	}
	wholeFiles(t, dir)
	if diff := cmp.Diff(rows(t, full, true), rows(t, dir, true)); diff != "" {
		t.Errorf("dataset after repair (-clean +repaired):\n%s", diff)
	}
	if diff := cmp.Diff(rows(t, dataset.TableDir(full, "samples"), false), rows(t, dataset.TableDir(dir, "samples"), false)); diff != "" {
		t.Errorf("samples after repair (-clean +repaired):\n%s", diff)
	}
	if err := dataset.Merge(dir, nil); err != nil {
		t.Fatalf("Merge with a _corrupt/ directory: %v", err)
	}
	if diff := cmp.Diff(rows(t, full, true), rows(t, dir, true)); diff != "" {
		t.Errorf("merged dataset after repair (-clean +repaired):\n%s", diff)
	}
}

// hang is a test model that never ends on its own: mode "sleep" waits for
// its context, mode "events" runs a discrete-event loop that always has a
// next event, and mode "quick" returns at once.
type hang struct{ schema *vocab.Schema }

func newHang() *hang {
	return &hang{&vocab.Schema{
		Name: "hang", Version: 1,
		Params: []vocab.Param{
			{Name: "mode", Kind: vocab.String, Default: vocab.S("quick"), Choices: []string{"quick", "sleep", "events"}},
		},
		Metrics: []vocab.Metric{{Name: "events", Kind: vocab.Int}},
	}}
}

func (m *hang) Schema() *vocab.Schema { return m.schema }

type ticker struct{ s *des.Scheduler }

func (k ticker) Handle(now des.Time, kind int, arg uint64) { k.s.After(1, k, 0, 0) }

func (m *hang) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	switch p.Str("mode") {
	case "sleep":
		<-ctx.Done()
		return vocab.Result{}, ctx.Err()
	case "events":
		s := des.New()
		s.After(1, ticker{s}, 0, 0)
		if err := s.Run(ctx, des.Forever); err != nil {
			return vocab.Result{}, err
		}
	}
	return vocab.Result{Metrics: []vocab.Value{vocab.I(0)}}, nil
}

// TestNeverEnds runs a model that never ends under a wall-clock timeout
// and under a simulated-event limit: both scenarios get status timeout and
// the sweep goes on.
func TestNeverEnds(t *testing.T) {
	m := newHang()
	s := m.Schema()
	src := plan.List{
		plan.NewScenario(s, []vocab.Value{vocab.S("quick")}, 0, 1),
		plan.NewScenario(s, []vocab.Value{vocab.S("sleep")}, 0, 1),
		plan.NewScenario(s, []vocab.Value{vocab.S("events")}, 0, 1),
	}
	dir := t.TempDir()
	ctx := vocab.WithEventLimit(context.Background(), 100_000)
	// The wall-clock limit is generous for the event loop (100k events take
	// ~5 ms) so that only the limit that is meant to fires.
	sum, err := Resume(ctx, Config{Model: m, Source: src, Dir: dir, Meta: testMeta(), Workers: 3, Timeout: 300 * time.Millisecond}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if sum.OK != 1 || sum.Failed != 2 {
		t.Errorf("summary %+v, want 1 ok and 2 timed out", sum)
	}
	got := map[string][2]string{}
	for _, r := range rows(t, dir, true) {
		got[r[0].(string)] = [2]string{r[len(r)-2].(string), r[len(r)-1].(string)}
	}
	tests := []struct {
		sc     plan.Scenario
		status string
		errHas string
	}{
		{src[0], "ok", ""},
		{src[1], "timeout", "timed out after 300ms"},
		{src[2], "timeout", "simulated-event limit of 100000 reached"},
	}
	for _, tt := range tests {
		r := got[tt.sc.ID]
		if r[0] != tt.status || !strings.Contains(r[1], tt.errHas) {
			t.Errorf("%s: status, error = %q, %q; want %q and an error containing %q", tt.sc.Params.Str("mode"), r[0], r[1], tt.status, tt.errHas)
		}
	}
}

// flaky fails the scenarios whose distance is in broken; a second instance
// with broken empty stands for the fixed model (or cluster) of a retry.
type flaky struct {
	*inverseSquare
	broken map[float64]bool
}

func (m flaky) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	if m.broken[p.Float("distance")] {
		return vocab.Result{}, errors.New("flaky: node lost")
	}
	return m.inverseSquare.Run(ctx, p, seed)
}

// TestRetryFailed reruns only the failed scenarios and expects one row
// per scenario afterwards, in ReadTable and in the part files themselves.
func TestRetryFailed(t *testing.T) {
	base := newInverseSquare(0)
	src := scenarios(base, 50, map[int]string{9: "panic"})
	dir, full := t.TempDir(), t.TempDir()
	cfg := func(d string, broken map[float64]bool) Config {
		return Config{Model: flaky{base, broken}, Source: src, Dir: d, Meta: testMeta(), Workers: 2, PartRows: 7}
	}
	sum, err := Resume(context.Background(), cfg(dir, map[float64]bool{3: true, 17: true, 44: true}), os.Stderr)
	if err != nil || sum.Failed != 4 {
		t.Fatalf("first run: %+v, %v; want 4 failed", sum, err)
	}
	retry := cfg(dir, nil)
	retry.Rerun = func(s dataset.Status) bool { return s != dataset.OK }
	sum, err = Resume(context.Background(), retry, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if sum.OK != 3 || sum.Failed != 1 || sum.Skipped != 46 {
		t.Errorf("retry: %+v, want 3 ok (fixed), 1 failed (the panic again), 46 skipped", sum)
	}
	if _, err := Run(context.Background(), cfg(full, nil)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rows(t, full, true), rows(t, dir, true)); diff != "" {
		t.Errorf("after --retry-failed (-clean run +retried):\n%s", diff)
	}
	if raw, ids := diskRows(t, dir); raw != 50 || ids != 50 {
		t.Errorf("part files hold %d rows (%d ids), want 50: superseded rows left on disk", raw, ids)
	}
}

// diskRows counts the rows of the main table's part files in dir as they
// are on disk, superseded ones included (as pandas or DuckDB read the
// directory; ReadTable drops them), and the ids among them.
func diskRows(t *testing.T, dir string) (raw, ids int) {
	t.Helper()
	raw, ids, err := diskRowsNow(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	return raw, ids
}

// diskRowsNow is diskRows for a directory that a run may be changing: a
// part removed between the listing and its reading (every row of it
// superseded) is an error to retry on, as for any reader of the directory.
func diskRowsNow(t *testing.T, dir string) (raw, ids int, err error) {
	t.Helper()
	parts, err := dataset.Parts(dir)
	if err != nil {
		return 0, 0, err
	}
	seen := map[string]bool{}
	for _, p := range parts {
		tmp := t.TempDir()
		if err := os.Mkdir(filepath.Join(tmp, dataset.MainTable), 0o755); err != nil {
			t.Fatal(err)
		}
		// The link is the part as it was: later renames leave it whole.
		if err := os.Link(p, filepath.Join(tmp, dataset.MainTable, filepath.Base(p))); err != nil {
			return 0, 0, err
		}
		for _, r := range rows(t, tmp, true) {
			raw++
			seen[r[0].(string)] = true
		}
	}
	return raw, len(seen), nil
}

// TestRetryCutShort: a retry killed before its end leaves the rows it
// superseded on disk, beside the rows that replace them. The dataset's
// ids count them (Repeated, which status reports), and the next run of
// any kind removes them before it starts, so that other readers see one
// row per scenario again.
func TestRetryCutShort(t *testing.T) {
	base := newInverseSquare(0)
	src := scenarios(base, 20, nil)
	broken := map[float64]bool{3: true, 8: true, 15: true}
	dir := t.TempDir()
	cfg := Config{Model: flaky{base, broken}, Source: src, Dir: dir, Meta: testMeta(), Workers: 2}
	if sum, err := Resume(context.Background(), cfg, os.Stderr); err != nil || sum.Failed != 3 {
		t.Fatalf("first run: %+v, %v; want 3 failed", sum, err)
	}
	// The retry's rows without its end: a Run of the failed scenarios
	// that does not know them done and supersedes nothing (no Rerun).
	fixed := cfg
	fixed.Model = flaky{base, nil}
	fixed.Source = plan.List{src[2], src[7], src[14]}
	fixed.Done = dataset.NewDone()
	if _, err := Run(context.Background(), fixed); err != nil {
		t.Fatal(err)
	}
	if raw, ids := diskRows(t, dir); raw != 23 || ids != 20 {
		t.Fatalf("after the cut-short retry: %d rows of %d ids on disk, want 23 of 20", raw, ids)
	}
	d, err := dataset.ReadIDs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.Repeated() != 3 || d.Count(dataset.OK) != 20 {
		t.Errorf("ids: %d repeated, %d ok; want 3 repeated and all 20 ok", d.Repeated(), d.Count(dataset.OK))
	}
	plain := cfg
	plain.Model = flaky{base, nil}
	sum, err := Resume(context.Background(), plain, os.Stderr)
	if err != nil || sum.Skipped != 20 {
		t.Fatalf("plain run after it: %+v, %v; want all 20 skipped", sum, err)
	}
	if raw, ids := diskRows(t, dir); raw != 20 || ids != 20 {
		t.Errorf("after the next run: %d rows of %d ids on disk, want 20: superseded rows left for other readers", raw, ids)
	}
}

// gated is the fixed model of a retry whose scenario at distance wait
// runs only once release is closed, and fails when its context ends.
type gated struct {
	*inverseSquare
	wait    float64
	release <-chan struct{}
}

func (m gated) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	if p.Float("distance") == m.wait {
		select {
		case <-m.release:
		case <-ctx.Done():
			return vocab.Result{}, ctx.Err()
		}
	}
	return m.inverseSquare.Run(ctx, p, seed)
}

// TestRetryInterrupted: a retry stopped by an interrupt (Ctrl-C, or the
// SIGTERM Slurm sends at a task's time limit) removes the rows its new
// rows supersede before it returns, as one that ends does.
func TestRetryInterrupted(t *testing.T) {
	base := newInverseSquare(0)
	src := scenarios(base, 6, nil)
	broken := map[float64]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true}
	dir := t.TempDir()
	cfg := Config{Model: flaky{base, broken}, Source: src, Dir: dir, Meta: testMeta(), Workers: 1, PartRows: 1}
	if sum, err := Resume(context.Background(), cfg, os.Stderr); err != nil || sum.Failed != 6 {
		t.Fatalf("first run: %+v, %v; want 6 failed", sum, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	retry := cfg
	// One worker: scenarios 1-5 are rerun, then the one at distance 6
	// waits for the interrupt.
	retry.Model = gated{base, 6, nil} // a nil release: only the interrupt ends its wait
	retry.Rerun = func(s dataset.Status) bool { return s != dataset.OK }
	done := make(chan error, 1)
	go func() {
		_, err := Resume(ctx, retry, os.Stderr)
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if d, err := dataset.ReadIDs(dir); err == nil && d.Count(dataset.OK) == 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the retry did not rerun scenarios 1-5 within 20 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted retry: %v, want context.Canceled", err)
	}
	if raw, ids := diskRows(t, dir); raw != 6 || ids != 6 {
		t.Errorf("after the interrupted retry: %d rows of %d ids on disk, want 6: superseded rows left for other readers", raw, ids)
	}
}

// TestWriter: status names the run writing a shard, or an unsharded run
// writing the dataset, from the lock it holds, and nobody once it has let
// go; an array task (which holds .lock shared) is no unsharded writer.
func TestWriter(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	sh := Shard{1, 4}
	if w := Writer(dir, sh); w != "" {
		t.Errorf("Writer of a dataset nobody locked = %q, want none", w)
	}
	l, err := LockDir(dir, sh.Infix(), now)
	if err != nil {
		t.Fatal(err)
	}
	want := "pid " + strconv.Itoa(os.Getpid())
	if w := Writer(dir, sh); !strings.Contains(w, want) || !strings.Contains(w, "shard 1/4") {
		t.Errorf("Writer of the locked shard = %q, want its holder (%s, shard 1/4)", w, want)
	}
	if w := Writer(dir, Shard{2, 4}); w != "" {
		t.Errorf("Writer of another shard = %q, want none", w)
	}
	if w := Writer(dir, Shard{}); w != "" {
		t.Errorf("unsharded Writer beside an array task = %q, want none", w)
	}
	l.Unlock()
	if w := Writer(dir, sh); w != "" {
		t.Errorf("Writer after the unlock = %q, want none", w)
	}
	l, err = LockDir(dir, "", now)
	if err != nil {
		t.Fatal(err)
	}
	if w := Writer(dir, Shard{}); !strings.Contains(w, want) || !strings.Contains(w, "the whole run") {
		t.Errorf("Writer of an unsharded run = %q, want its holder", w)
	}
	l.Unlock()
	l, err = lockDirAs(dir, "", "a merge", now)
	if err != nil {
		t.Fatal(err)
	}
	if w := Writer(dir, Shard{}); !strings.Contains(w, "a merge") {
		t.Errorf("Writer of a merge = %q, want it called a merge", w)
	}
	l.Unlock()
}

// TestLock checks who may write a dataset at once: the shards of one array
// together, but never two processes of one shard, nor an unsharded run
// beside a sharded one; and a lock is free again once released.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	a, err := LockDir(dir, "0of4", now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LockDir(dir, "1of4", now)
	if err != nil {
		t.Fatalf("a second shard was refused: %v", err)
	}
	for _, infix := range []string{"0of4", "", "0of1"} {
		_, err := LockDir(dir, infix, now)
		if err == nil {
			t.Fatalf("LockDir(%q) beside shards 0of4 and 1of4 succeeded", infix)
		}
		want := "pid " + strconv.Itoa(os.Getpid())
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "2025-01-02T03:04:05Z") {
			t.Errorf("LockDir(%q) = %v, want the holder named (%s, start time)", infix, err, want)
		}
	}
	a.Unlock()
	b.Unlock()
	c, err := LockDir(dir, "", now)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	if _, err := LockDir(dir, "2of4", now); err == nil || !strings.Contains(err.Error(), "the whole run, since") {
		t.Errorf("a shard beside an unsharded run: %v, want refused, naming the holder", err)
	}
	c.Unlock()
}
