package sweep

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
)

// fakeClock is the injected clock of the progress tests: time moves only
// when the test says.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *fakeClock                   { return &fakeClock{time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)} }

func TestProgressLines(t *testing.T) {
	var buf bytes.Buffer
	c := newClock()
	p := newProgress(&buf, false, "rc13-fig6", 5000, 300, 5*time.Second, c.now)
	for _, step := range []struct {
		after                time.Duration
		ran, skipped, failed int
	}{{time.Second, 100, 100, 0}, {2500 * time.Millisecond, 500, 200, 3}, {1500 * time.Millisecond, 900, 300, 7}, {time.Second, 1600, 300, 9}} {
		c.advance(step.after)
		p.update(step.ran, step.skipped, step.failed)
	}
	// 900 scenarios run in 5 s is 180/s; of 5000, 300 were already done and
	// 900 ran: 3800 left take 21.1 s, shown as 21s.
	want := "2026-12-01T03:00:05Z rc13-fig6: 1200/5000 scenarios, 7 failed, 180/s, elapsed 5s, ETA 21s\n"
	if got := buf.String(); got != want {
		t.Errorf("progress output = %q, want %q", got, want)
	}
	if newProgress(nil, false, "x", 1, 0, 0, c.now) != (quiet{}) {
		t.Errorf("a nil writer does not give quiet progress")
	}
}

// TestProgressResumedETA resumes a sweep of 100 scenarios of which 90 are
// already done, their skips spread over the scenario order: after 5 runs
// in 10 s (0.5/s) and 45 skips reached, 5 are left to run, 10 s, not the
// 110 s that counting the 50 scenarios not yet reached would give.
func TestProgressResumedETA(t *testing.T) {
	var buf bytes.Buffer
	c := newClock()
	p := newProgress(&buf, false, "sp-fig1", 100, 90, 10*time.Second, c.now)
	c.advance(10 * time.Second)
	p.update(5, 45, 0)
	want := "2026-12-01T03:00:10Z sp-fig1: 50/100 scenarios, 0 failed, 0.50/s, elapsed 10s, ETA 10s\n"
	if got := buf.String(); got != want {
		t.Errorf("progress output = %q, want %q", got, want)
	}
}

// TestHeartbeat runs a simulated 30-minute sweep whose scenarios each take
// 7 minutes, ticking the clock once a second as the runner does: the log
// must have a line at least every minute though scenarios finish far
// apart, and no two lines closer than the interval.
func TestHeartbeat(t *testing.T) {
	for _, every := range []time.Duration{0, 5 * time.Second, 10 * time.Minute} {
		var buf bytes.Buffer
		c := newClock()
		start := c.t
		p := newProgress(&buf, false, "os-backbone", 4, 0, every, c.now)
		ran := 0
		for s := 1; s <= 30*60; s++ {
			c.advance(time.Second)
			if s%(7*60) == 0 {
				ran++
				p.update(ran, 0, 0)
			}
			p.tick()
		}
		out := strings.Split(strings.TrimSpace(buf.String()), "\n")
		prev := start
		wantGap := DefaultProgressEvery
		if every > 0 {
			wantGap = min(every, MaxProgressEvery)
		}
		for _, line := range out {
			stamp, _, _ := strings.Cut(line, " ")
			ts, err := time.Parse(time.RFC3339, stamp)
			if err != nil {
				t.Fatalf("line %q: no RFC 3339 time stamp: %v", line, err)
			}
			if gap := ts.Sub(prev); gap > time.Minute || gap < wantGap {
				t.Errorf("every %v: line %q comes %v after the previous, want %v to 1m", every, line, gap, wantGap)
			}
			prev = ts
		}
		if end := start.Add(30 * time.Minute); end.Sub(prev) > time.Minute {
			t.Errorf("every %v: last line at %v, %v before the end", every, prev, end.Sub(prev))
		}
		last := out[len(out)-1]
		if want := "os-backbone: 4/4 scenarios, 0 failed, 0.0022/s, elapsed 30m0s, ETA 0s"; !strings.HasSuffix(last, want) {
			t.Errorf("every %v: last line %q, want it to end %q", every, last, want)
		}
	}
}

func TestProgressBeforeFirstScenario(t *testing.T) {
	var buf bytes.Buffer
	c := newClock()
	p := newProgress(&buf, false, "slow", 3, 0, time.Minute, c.now)
	c.advance(time.Minute)
	p.tick()
	want := "2026-12-01T03:01:00Z slow: 0/3 scenarios, 0 failed, elapsed 1m0s, ETA unknown\n"
	if got := buf.String(); got != want {
		t.Errorf("heartbeat before any scenario = %q, want %q", got, want)
	}
}

func TestSig2(t *testing.T) {
	tests := []struct {
		x    float64
		want string
	}{
		{240, "240"}, {2.44, "2.4"}, {0.03125, "0.031"}, {12345, "12000"}, {9.96, "10"}, {0.999, "1.0"}, {1, "1.0"}, {0.0022222, "0.0022"}, {99.5, "100"},
	}
	for _, tt := range tests {
		if got := sig2(tt.x); got != tt.want {
			t.Errorf("sig2(%v) = %q, want %q", tt.x, got, tt.want)
		}
	}
}

// TestAlreadyDone counts the skips a resumed run will make: scenarios in
// the dataset, less those Rerun sends back (failed ones under
// --retry-failed), and ids of other profiles not at all.
func TestAlreadyDone(t *testing.T) {
	src := plan.List{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	done := dataset.NewDone()
	done.Add("a", dataset.OK)
	done.Add("b", dataset.Failed)
	done.Add("x", dataset.OK) // another profile's scenario
	var buf bytes.Buffer
	for _, tc := range []struct {
		name  string
		rerun func(dataset.Status) bool
		want  int
	}{
		{"resume", nil, 2},
		{"retry failed", func(st dataset.Status) bool { return st == dataset.Failed }, 1},
	} {
		cfg := Config{Source: src, Progress: &buf, Rerun: tc.rerun}
		if got := alreadyDone(cfg, done); got != tc.want {
			t.Errorf("%s: alreadyDone = %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := alreadyDone(Config{Source: src}, done); got != 0 {
		t.Errorf("without progress output alreadyDone = %d, want 0 (not counted)", got)
	}
}

// lastFrame is what a terminal line shows after out is written to it: a
// carriage return moves to the first column, every other character
// overwrites the one under the cursor.
func lastFrame(out string) string {
	var line []rune
	col := 0
	for _, r := range out {
		switch {
		case r == '\r':
			col = 0
		case col < len(line):
			line[col] = r
			col++
		default:
			line = append(line, r)
			col++
		}
	}
	return strings.TrimSpace(string(line))
}

// TestProgressBar drives the terminal bar with an injected writer and a
// fake clock through a 50 s sweep of 3 scenarios: the first frame before
// any completion, a completion after 2 s (rate 1/2 s, not the instant since
// the bar's first frame), redraws while nothing completes (elapsed must
// move with the runner's once-a-second tick), a failure, and the ETA of
// the scenarios left at the rate so far.
func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	c := newClock()
	p := newProgress(&buf, true, "os-compete", 3, 0, 0, c.now)
	// The bar is barWidth (20) columns: 33 % of it is 6, 66 % is 13.
	steps := []struct {
		after       time.Duration
		ran, failed int
		tick        bool
		want        string
	}{
		{0, 0, 0, false, "0% |                    |  os-compete: 0/3 scenarios, 0 failed, elapsed 0s, ETA unknown"},
		{2 * time.Second, 1, 0, false, "33% |██████              |  os-compete: 1/3 scenarios, 0 failed, 0.50/s, elapsed 2s, ETA 4s"},
		// 22 s without a completion: the ticks redraw; 1 in 24 s leaves 2 for 48 s.
		{22 * time.Second, 1, 0, true, "33% |██████              |  os-compete: 1/3 scenarios, 0 failed, 0.042/s, elapsed 24s, ETA 48s"},
		{26 * time.Second, 2, 1, false, "66% |█████████████       |  os-compete: 2/3 scenarios, 1 failed, 0.040/s, elapsed 50s, ETA 25s"},
		// Two completions within barRedraw: the second waits for the tick.
		{10 * time.Millisecond, 2, 2, false, "66% |█████████████       |  os-compete: 2/3 scenarios, 1 failed, 0.040/s, elapsed 50s, ETA 25s"},
		{990 * time.Millisecond, 2, 2, true, "66% |█████████████       |  os-compete: 2/3 scenarios, 2 failed, 0.039/s, elapsed 51s, ETA 26s"},
	}
	for i, st := range steps {
		c.advance(st.after)
		if i > 0 {
			p.update(st.ran, 0, st.failed)
		}
		if st.tick {
			p.tick()
		}
		if got := lastFrame(buf.String()); got != st.want {
			t.Errorf("step %d (%v later, %d ran, %d failed): frame\n%q\nwant\n%q", i, st.after, st.ran, st.failed, got, st.want)
		}
	}
	p.update(3, 0, 2)
	p.finish()
	if got := lastFrame(buf.String()); got != "" {
		t.Errorf("after finish the line shows %q, want it cleared", got)
	}
}

// TestProgressBarResumed: a resumed sweep's bar counts only the scenarios
// to run and says how many were already done.
func TestProgressBarResumed(t *testing.T) {
	var buf bytes.Buffer
	c := newClock()
	p := newProgress(&buf, true, "sp-fig1", 100, 90, 0, c.now)
	c.advance(10 * time.Second)
	p.update(5, 45, 0)
	want := "sp-fig1: 5/10 scenarios (90 already done), 0 failed, 0.50/s, elapsed 10s, ETA 10s"
	if got := lastFrame(buf.String()); !strings.HasSuffix(got, want) {
		t.Errorf("frame %q, want it to end %q", got, want)
	}
}
