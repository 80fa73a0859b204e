// Package ci computes the confidence intervals crosslink reports for the
// mean of replicate runs: the Student-t interval (the adaptive replicate
// rule of package sweep and large samples in figures) and, for the few
// replicates figures usually have, a percentile bootstrap that cannot
// leave the range of the data (a loss rate never gets a band below 0).
// Both use gonum: the t quantile from distuv.StudentsT, the percentiles
// from stat.Quantile.
package ci

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// T returns the quantile of Student's t distribution with n-1 degrees of
// freedom for a two-sided interval at level conf: t_{(1+conf)/2, n-1}.
// n must be at least 2.
func T(conf float64, n int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile((1 + conf) / 2)
}

// Student returns the mean of x, its sample standard deviation and the
// half-width of the Student-t interval at level conf: t s / sqrt(n).
// With fewer than two values the half-width is +Inf (one run says nothing
// of the spread) and the deviation NaN.
func Student(x []float64, conf float64) (mean, sd, half float64) {
	switch len(x) {
	case 0:
		return math.NaN(), math.NaN(), math.Inf(1)
	case 1:
		return x[0], math.NaN(), math.Inf(1)
	}
	mean, sd = stat.MeanStdDev(x, nil)
	return mean, sd, T(conf, len(x)) * sd / math.Sqrt(float64(len(x)))
}

// Resamples is the number of bootstrap resamples of Bootstrap: enough that
// the 2.5 and 97.5 % percentiles move by well under the interval's own
// uncertainty (Efron & Tibshirani 1993, Sect. 19.3 suggest 1000 or more
// for percentile intervals).
const Resamples = 2000

// Bootstrap returns the percentile bootstrap interval at level conf of
// the mean of x (Efron & Tibshirani 1993, Ch. 13): the (1-conf)/2 and
// (1+conf)/2 quantiles of the means of Resamples resamples of x with
// replacement. Every resampled mean lies between min(x) and max(x), so the
// interval does too. The resampling uses a fixed seed: the same x gives
// the same interval, as a figure must.
func Bootstrap(x []float64, conf float64) (lo, hi float64) {
	switch len(x) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return x[0], x[0]
	}
	r := rand.New(rand.NewPCG(0x63726f73, 0x736c696e)) // fixed: "cros", "slin"
	means := make([]float64, Resamples)
	n := len(x)
	for i := range means {
		s := 0.0
		for range n {
			s += x[r.IntN(n)]
		}
		means[i] = s / float64(n)
	}
	sort.Float64s(means)
	lo = stat.Quantile((1-conf)/2, stat.Empirical, means, nil)
	hi = stat.Quantile((1+conf)/2, stat.Empirical, means, nil)
	return lo, hi
}
