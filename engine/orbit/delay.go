package orbit

import "math"

// Delay returns the propagation time over distance d at speed c, in
// seconds.
func Delay(d, c float64) float64 { return d / c }

// DelayNanos returns the propagation time over d at speed c in whole
// nanoseconds, rounded to the nearest, for links that run on virtual time.
func DelayNanos(d, c float64) int64 { return int64(math.Round(d / c * 1e9)) }
