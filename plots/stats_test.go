package plots

import (
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	// Large samples get Student's t: 0..39 has mean 19.5 and s² = 40·41/12 (the
	// variance of 0..n-1 is n(n+1)/12); t_{0.975, 39} = 2.023 from the
	// NIST/SEMATECH e-Handbook, Table 1.3.6.7.2, to its 3 decimals.
	var big []float64
	for i := range 40 {
		big = append(big, float64(i))
	}
	got := Summarize(big, 0.95)
	half := 2.023 * math.Sqrt(40*41/12.0) / math.Sqrt(40)
	if got.Method != IntervalStudent || got.Mean != 19.5 || math.Abs(got.StdDev-math.Sqrt(40*41/12.0)) > 1e-12 ||
		math.Abs(got.Lo-(19.5-half)) > 1e-3 || math.Abs(got.Hi-(19.5+half)) > 1e-3 {
		t.Errorf("Summarize(0..39) = %+v, want student-t 19.5 ± %.4f", got, half)
	}
	// Small samples get the bootstrap, inside the runs' range even where
	// the t interval (11 ± 12.706 s/√2) would reach below 0.
	for _, xs := range [][]float64{{10, 12}, {0.1, 3.9, 0.2}, {1, 2, 3, 4, 5}} {
		got := Summarize(xs, 0.95)
		lo, hi := xs[0], xs[0]
		for _, x := range xs {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if got.Method != IntervalBootstrap || got.Lo < lo || got.Hi > hi || got.Lo > got.Mean || got.Hi < got.Mean {
			t.Errorf("Summarize(%v) = %+v, want a bootstrap interval around the mean inside [%g, %g]", xs, got, lo, hi)
		}
	}
	t.Run("n=1", func(t *testing.T) {
		got := Summarize([]float64{7}, 0.95)
		if got != (Summary{N: 1, Mean: 7, Lo: 7, Hi: 7, Method: IntervalNone}) {
			t.Errorf("Summarize([7]) = %+v, want a zero-width interval at 7", got)
		}
	})
	t.Run("n=0", func(t *testing.T) {
		if got := Summarize(nil, 0.95); got.N != 0 || !math.IsNaN(got.Mean) {
			t.Errorf("Summarize(nil) = %+v, want N 0 and NaN mean", got)
		}
	})
}
