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
