package des

import (
	"math"
	"time"
)

// Time is a point in virtual time: nanoseconds since the start of the
// simulation. It is an integer so that event order never depends on
// floating-point rounding.
type Time int64

// Duration is a span of virtual time in nanoseconds.
type Duration int64

// Units of Duration.
const (
	Nanosecond  Duration = 1
	Microsecond          = 1000 * Nanosecond
	Millisecond          = 1000 * Microsecond
	Second               = 1000 * Millisecond
)

// Forever is the largest representable time; Run(ctx, Forever) runs until
// the event queue is empty or Stop is called.
const Forever Time = math.MaxInt64

// Add returns t+d.
func (t Time) Add(d Duration) Time { return t + Time(d) }

// Sub returns the duration t-u.
func (t Time) Sub(u Time) Duration { return Duration(t - u) }

// Seconds returns t in seconds since the start of the simulation.
func (t Time) Seconds() float64 { return float64(t) / 1e9 }

// String formats t as a duration since the start, e.g. "1.5s".
func (t Time) String() string {
	if t == Forever {
		return "forever"
	}
	return time.Duration(t).String()
}

// Seconds returns d in seconds.
func (d Duration) Seconds() float64 { return float64(d) / 1e9 }

// String formats d like time.Duration, e.g. "250ms".
func (d Duration) String() string { return time.Duration(d).String() }

// FromSeconds converts seconds to a Duration, rounded to the nearest
// nanosecond. Values beyond the int64 range saturate.
func FromSeconds(s float64) Duration {
	ns := math.Round(s * 1e9)
	switch {
	case ns >= math.MaxInt64:
		return Duration(math.MaxInt64)
	case ns <= math.MinInt64:
		return Duration(math.MinInt64)
	}
	return Duration(ns)
}
