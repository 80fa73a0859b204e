package plots

import (
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	// t quantiles from the NIST/SEMATECH e-Handbook of Statistical Methods,
	// Table 1.3.6.7.2 "Critical values of Student's t distribution", upper
	// tail 0.025 (two-sided 95 %), printed to 3 decimals: ν=4: 2.776,
	// ν=1: 12.706, ν=9: 2.262. The tolerance 5e-4 covers that rounding.
	tests := []struct {
		name         string
		xs           []float64
		mean, sd, tq float64
	}{
		// 1..5: mean 3, s² = (4+1+0+1+4)/4 = 2.5.
		{"n=5", []float64{1, 2, 3, 4, 5}, 3, math.Sqrt(2.5), 2.776},
		// 10, 12: mean 11, s² = (1+1)/1 = 2.
		{"n=2", []float64{10, 12}, 11, math.Sqrt(2), 12.706},
		// 0..9: mean 4.5, s² = 82.5/9.
		{"n=10", []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 4.5, math.Sqrt(82.5 / 9), 2.262},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(tt.xs, 0.95)
			n := float64(len(tt.xs))
			half := tt.tq * tt.sd / math.Sqrt(n)
			if got.N != len(tt.xs) || math.Abs(got.Mean-tt.mean) > 1e-12 || math.Abs(got.StdDev-tt.sd) > 1e-12 {
				t.Errorf("Summarize(%v) = n %d mean %g sd %g, want n %d mean %g sd %g",
					tt.xs, got.N, got.Mean, got.StdDev, len(tt.xs), tt.mean, tt.sd)
			}
			tol := 5e-4 * tt.sd / math.Sqrt(n)
			if math.Abs(got.Lo-(tt.mean-half)) > tol || math.Abs(got.Hi-(tt.mean+half)) > tol {
				t.Errorf("Summarize(%v) = [%g, %g], want [%g, %g] ± %g",
					tt.xs, got.Lo, got.Hi, tt.mean-half, tt.mean+half, tol)
			}
		})
	}
	t.Run("n=1", func(t *testing.T) {
		got := Summarize([]float64{7}, 0.95)
		if got != (Summary{N: 1, Mean: 7, Lo: 7, Hi: 7}) {
			t.Errorf("Summarize([7]) = %+v, want a zero-width interval at 7", got)
		}
	})
	t.Run("n=0", func(t *testing.T) {
		if got := Summarize(nil, 0.95); got.N != 0 || !math.IsNaN(got.Mean) {
			t.Errorf("Summarize(nil) = %+v, want N 0 and NaN mean", got)
		}
	})
}
