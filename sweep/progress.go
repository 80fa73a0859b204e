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
		return newBar(w, name, total, skips, now)
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

// bar is the live bar of a terminal:
//
//	40% |████████            | os-compete: 16/40 scenarios, 1 failed, 0.25/s, elapsed 1m4s, ETA 1m36s
//
// progressbar draws the bar and its percentage only; the counts, rate
// and times are ours, from the injected clock, for the same reasons as
// the lines': the rate counts scenarios completed here (never skipped ones,
// nor the instant of the first completion), and the ETA divides the
// scenarios left to run by it. It redraws on every tick (about once a
// second) so that elapsed and ETA move while a long scenario runs, and at
// most every barRedraw on completions so that a fast closed-form sweep
// does not spend its time writing to the terminal. The display is all it
// touches: rows never depend on it.
type bar struct {
	b           *progressbar.ProgressBar
	name        string
	toRun       int // scenarios to run: the total less those already in the dataset
	skips       int
	ran, failed int
	now         func() time.Time
	start, last time.Time
}

// barRedraw is the shortest interval between two redraws caused by
// completions: ten frames a second read as live.
const barRedraw = 100 * time.Millisecond

// barWidth is the bar's width in columns where the terminal has room;
// progressbar narrows it (down to nothing) on a narrower terminal before
// the text after it wraps.
const barWidth = 20

func newBar(w io.Writer, name string, total, skips int, now func() time.Time) *bar {
	t := now()
	b := &bar{name: name, toRun: total - skips, skips: skips, now: now, start: t, last: t}
	b.b = progressbar.NewOptions(max(1, b.toRun),
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(b.text(t)),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionSetWidth(barWidth),
		progressbar.OptionClearOnFinish(),
	)
	_ = b.b.RenderBlank() // the first frame, 0/N, before any scenario ends
	return b
}

func (b *bar) update(ran, _, failed int) {
	if ran == b.ran && failed == b.failed {
		return
	}
	b.ran, b.failed = ran, failed
	if t := b.now(); t.Sub(b.last) >= barRedraw && ran < b.toRun { // the last one: finish clears the line
		b.draw(t)
	}
}

func (b *bar) tick() { b.draw(b.now()) }

// draw renders the text (Describe renders) and the count (Set renders
// only when the percentage changes).
func (b *bar) draw(t time.Time) {
	b.last = t
	b.b.Describe(b.text(t))
	if b.ran < b.toRun { // at max progressbar finishes and clears the line: finish does that
		_ = b.b.Set(b.ran)
	}
}

func (b *bar) finish() { _ = b.b.Finish() }

func (b *bar) text(t time.Time) string {
	s := fmt.Sprintf("%s: %d/%d scenarios", b.name, b.ran, b.toRun)
	if b.skips > 0 {
		s += fmt.Sprintf(" (%d already done)", b.skips)
	}
	return s + fmt.Sprintf(", %d failed, ", b.failed) + rateETA(t.Sub(b.start), b.ran, b.toRun-b.ran)
}

// rateETA reads "0.25/s, elapsed 1m4s, ETA 1m36s" for ran scenarios
// completed in el with left still to run, and "elapsed 1m4s, ETA unknown"
// before the first completes.
func rateETA(el time.Duration, ran, left int) string {
	if ran == 0 || el <= 0 {
		return fmt.Sprintf("elapsed %s, ETA unknown", el.Round(time.Second))
	}
	rate := float64(ran) / el.Seconds()
	eta := time.Duration(float64(max(0, left)) / rate * float64(time.Second))
	return fmt.Sprintf("%s/s, elapsed %s, ETA %s", sig2(rate), el.Round(time.Second), eta.Round(time.Second))
}

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
	return s + ", " + rateETA(el, l.ran, l.total-l.skips-l.ran)
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
