package sweep

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// DefaultProgressEvery is how often a sweep whose progress writer is not a
// terminal prints a progress line.
const DefaultProgressEvery = 5 * time.Second

// progress reports how many scenarios are done: a live bar on a terminal,
// a plain line every few seconds in a log, nothing when quiet.
type progress interface {
	add(n int)
	finish()
}

func newProgress(w io.Writer, terminal bool, name string, total int, every time.Duration, now func() time.Time) progress {
	switch {
	case w == nil:
		return quiet{}
	case terminal:
		return &bar{progressbar.NewOptions(total,
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
	t := now()
	return &lines{w: w, name: name, total: total, every: every, now: now, start: t, last: t}
}

type quiet struct{}

func (quiet) add(int) {}
func (quiet) finish() {}

type bar struct{ b *progressbar.ProgressBar }

func (b *bar) add(n int) { b.b.Add(n) }
func (b *bar) finish()   { b.b.Finish() }

// lines prints "name: done/total scenarios, rate/s, ETA d" at most once per
// every, for logs and batch jobs where a redrawn bar would be noise.
type lines struct {
	w           io.Writer
	name        string
	total, done int
	every       time.Duration
	now         func() time.Time
	start, last time.Time
}

func (l *lines) add(n int) {
	l.done += n
	t := l.now()
	if t.Sub(l.last) < l.every {
		return
	}
	l.last = t
	fmt.Fprintln(l.w, l.line(t))
}

func (l *lines) line(t time.Time) string {
	el := t.Sub(l.start).Seconds()
	if el <= 0 || l.done == 0 {
		return fmt.Sprintf("%s: %d/%d scenarios", l.name, l.done, l.total)
	}
	rate := float64(l.done) / el
	eta := time.Duration(float64(l.total-l.done) / rate * float64(time.Second))
	return fmt.Sprintf("%s: %d/%d scenarios, %.0f/s, ETA %s", l.name, l.done, l.total, rate, eta.Round(time.Second))
}

func (l *lines) finish() {}
