package plots

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"github.com/crosslink-sim/crosslink/sweep/ci"
)

// Confidence is the two-sided confidence level of the bands and error bars
// drawn around replicate means.
const Confidence = 0.95

// BootstrapBelow is the replicate count below which a point's interval is
// the percentile bootstrap rather than Student's t. With few runs of a
// skewed quantity (a loss rate, the goodput of a flow that sometimes times
// out) the t interval leaves the physical range, below 0 or above a
// buffer's size; the bootstrap interval stays inside the runs' own range.
// From about 30 runs the two agree (ci.TestBootstrap) and t is cheaper.
const BootstrapBelow = 30

// Interval methods a Summary says it used.
const (
	IntervalNone      = "none"      // one run: no interval
	IntervalBootstrap = "bootstrap" // percentile bootstrap of the mean
	IntervalStudent   = "student-t" // Student-t, clipped to the runs' range
)

// Summary is the mean of the replicates at one point of a curve with its
// confidence interval [Lo, Hi]. With a single replicate Lo and Hi equal
// Mean: one run says nothing about its spread.
type Summary struct {
	N            int
	Mean, Lo, Hi float64
	StdDev       float64 // sample standard deviation (n-1 in the denominator)
	Method       string  // IntervalNone, IntervalBootstrap or IntervalStudent
}

// Summarize returns the mean of xs and its confidence interval at level
// conf: below BootstrapBelow runs the percentile bootstrap of the mean
// (ci.Bootstrap), else the Student-t interval mean ± t_{(1+conf)/2, n-1}
// s/√n (ci.Student) clipped to [min, max] of xs, a range the mean of
// those runs cannot leave. Either way the interval stays inside the
// physical range of the quantity.
func Summarize(xs []float64, conf float64) Summary {
	n := len(xs)
	if n == 0 {
		return Summary{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), StdDev: math.NaN(), Method: IntervalNone}
	}
	if n == 1 {
		return Summary{N: 1, Mean: xs[0], Lo: xs[0], Hi: xs[0], Method: IntervalNone}
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	if n < BootstrapBelow {
		lo, hi := ci.Bootstrap(xs, conf)
		return Summary{N: n, Mean: mean, Lo: lo, Hi: hi, StdDev: sd, Method: IntervalBootstrap}
	}
	_, _, half := ci.Student(xs, conf)
	return Summary{N: n, Mean: mean, StdDev: sd, Method: IntervalStudent,
		Lo: math.Max(mean-half, floats.Min(xs)), Hi: math.Min(mean+half, floats.Max(xs))}
}
