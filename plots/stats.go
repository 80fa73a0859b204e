package plots

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the two-sided confidence level of the bands and error bars
// drawn around replicate means.
const Confidence = 0.95

// Summary is the mean of the replicates at one point of a curve with its
// Student-t confidence interval [Lo, Hi]. With a single replicate Lo and Hi
// equal Mean: one run says nothing about its spread.
type Summary struct {
	N            int
	Mean, Lo, Hi float64
	StdDev       float64 // sample standard deviation (n-1 in the denominator)
}

// Summarize returns the mean of xs and its confidence interval at level
// conf, from the t distribution with n-1 degrees of freedom:
// mean ± t_{(1+conf)/2, n-1} · s/√n.
func Summarize(xs []float64, conf float64) Summary {
	n := len(xs)
	if n == 0 {
		return Summary{Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), StdDev: math.NaN()}
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	if n == 1 {
		return Summary{N: 1, Mean: mean, Lo: mean, Hi: mean}
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile((1 + conf) / 2)
	half := t * sd / math.Sqrt(float64(n))
	return Summary{N: n, Mean: mean, Lo: mean - half, Hi: mean + half, StdDev: sd}
}
