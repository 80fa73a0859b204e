package sweep

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
)

// DefaultProgressEvery is how often a sweep whose progress writer is not a
// terminal prints a progress line, whether or not a scenario finished in
// between: a log of an overnight run shows the sweep alive while a long
// scenario runs.
const DefaultProgressEvery = 10 * time.Second

// MaxProgressEvery is the longest interval between progress lines: a log
// reader (or a watchdog) can take a minute without a line as a hung job.
const MaxProgressEvery = time.Minute

// progress reports how many scenarios are done: a live bar on a terminal,
// a time-stamped line every few seconds in a log, nothing when quiet.
type progress interface {
	// update takes the running totals: scenarios run (ok or failed),
	// skipped (already in the dataset) and failed.
	update(ran, skipped, failed int)
	// tick is called about once a second while the sweep runs; a log
	// prints its heartbeat line from here when one is due.
	tick()
	finish()
}

// newProgress reports the progress of total scenarios of which skips are
// already in the dataset: the bar counts only the scenarios to run, and
// the lines' ETA divides only what is left to run by the rate.
func newProgress(w io.Writer, terminal bool, name string, total, skips int, every time.Duration, now func() time.Time) progress {
	switch {
	case w == nil:
		return quiet{}
	case terminal:
		return &bar{b: progressbar.NewOptions(total-skips,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(name),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("scenarios"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionFullWidth(),
			progressbar.OptionClearOnFinish(),
		)}
	}
	if every <= 0 {
		every = DefaultProgressEvery
	}
	every = min(every, MaxProgressEvery)
	t := now()
	return &lines{w: w, name: name, total: total, skips: skips, every: every, now: now, start: t, last: t}
}

type quiet struct{}

func (quiet) update(int, int, int) {}
func (quiet) tick()                {}
func (quiet) finish()              {}

type bar struct {
	b    *progressbar.ProgressBar
	done int
}

func (b *bar) update(ran, _, _ int) {
	if ran > b.done {
		b.b.Add(ran - b.done)
		b.done = ran
	}
}
func (b *bar) tick()   {}
func (b *bar) finish() { b.b.Finish() }

// lines prints, at most and at least once per every,
//
//	2026-12-01T03:04:05Z os-backbone: 16/40 scenarios, 1 failed, 0.25/s, elapsed 1m4s, ETA 1m36s
//
// for logs and batch jobs where a redrawn bar would be noise. The rate
// counts the scenarios run here, not those skipped as already done, and
// the ETA divides only the scenarios left to run by it, so the ETA of a
// resumed sweep is neither flattered nor inflated by its skips.
type lines struct {
	w                    io.Writer
	name                 string
	total                int
	skips                int // scenarios already in the dataset, skipped as reached
	ran, skipped, failed int
	every                time.Duration
	now                  func() time.Time
	start, last          time.Time
}

func (l *lines) update(ran, skipped, failed int) {
	l.ran, l.skipped, l.failed = ran, skipped, failed
	l.tick()
}

func (l *lines) tick() {
	t := l.now()
	if t.Sub(l.last) < l.every {
		return
	}
	l.last = t
	fmt.Fprintln(l.w, l.line(t))
}

func (l *lines) line(t time.Time) string {
	el := t.Sub(l.start)
	done := l.ran + l.skipped
	s := fmt.Sprintf("%s %s: %d/%d scenarios, %d failed", t.Format(time.RFC3339), l.name, done, l.total, l.failed)
	if l.ran == 0 || el <= 0 {
		return s + fmt.Sprintf(", elapsed %s, ETA unknown", el.Round(time.Second))
	}
	rate := float64(l.ran) / el.Seconds()
	left := max(0, l.total-l.skips-l.ran)
	eta := time.Duration(float64(left) / rate * float64(time.Second))
	return s + fmt.Sprintf(", %s/s, elapsed %s, ETA %s", sig2(rate), el.Round(time.Second), eta.Round(time.Second))
}

func (l *lines) finish() {}

// sig2 formats x > 0 to two significant digits without an exponent:
// 240, 2.4, 0.031.
func sig2(x float64) string {
	if !(x > 0) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', 2, 64)
	}
	e := int(math.Floor(math.Log10(x)))
	unit := math.Pow(10, float64(e-1))
	r := math.Round(x/unit) * unit
	if r >= math.Pow(10, float64(e+1)) { // 9.96 rounds to 10: one digit fewer after the point
		e++
	}
	return strconv.FormatFloat(r, 'f', max(0, 1-e), 64)
}
