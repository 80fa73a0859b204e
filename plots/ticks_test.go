package plots

import (
	"strconv"
	"testing"

	"gonum.org/v1/plot"
)

// TestTickLabels checks that every ticker labels at least MinTickLabels
// ticks inside the range, on the ranges that had one or two labels
// before: a log axis over one or two decades, a linear axis from 0 to 27.
func TestTickLabels(t *testing.T) {
	for _, tt := range []struct {
		name     string
		tk       plot.Ticker
		min, max float64
	}{
		{"log 4030..80000", decades{}, 4030, 80000},
		{"log 22.5..398", decades{}, 22.5, 398},
		{"log 13..1432", decades{}, 13.3, 1432},
		{"log 30..90", decades{}, 30, 90},
		{"log 1e-50..1", decades{}, 1e-50, 1},
		{"linear 0..27", linear{}, 0, 27.1},
		{"linear 0..1", linear{}, 0, 1},
		{"linear 0.5..0.52", linear{}, 0.5, 0.52},
		{"linear -3..1000", linear{}, -3, 1000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			for _, tk := range tt.tk.Ticks(tt.min, tt.max) {
				if tk.Label != "" && tk.Value >= tt.min && tk.Value <= tt.max {
					n++
				}
			}
			if n < MinTickLabels || n > 12 {
				t.Errorf("%d labelled ticks in [%g, %g], want %d to 12", n, tt.min, tt.max, MinTickLabels)
			}
		})
	}
}

// TestLinearRoundSteps checks that linear labels multiples of a 1-2-5
// step, on ranges where gonum's default ticks (Talbot et al.'s
// algorithm, whose nice numbers include 2.5) labelled 2.5, 12.5, 22.5.
func TestLinearRoundSteps(t *testing.T) {
	for _, r := range [][2]float64{
		{0, 25.3}, {2.1, 24.7}, {0, 27.1}, {0, 1}, {0.5, 0.52}, {-3, 1000}, {0, 6.2}, {0, 0.026}, {-40, -3}, {1e6, 1.7e6}, {0, 300},
	} {
		var vs []float64
		for _, tk := range (linear{}).Ticks(r[0], r[1]) {
			if tk.Label == "" {
				continue
			}
			v, err := strconv.ParseFloat(tk.Label, 64)
			if err != nil || tk.Label == "-0" {
				t.Fatalf("[%g, %g]: label %q: %v", r[0], r[1], tk.Label, err)
			}
			vs = append(vs, v)
		}
		if !roundStep(vs) || len(vs) < MinTickLabels || len(vs) > 8 {
			t.Errorf("[%g, %g]: labels %v, want 3 to 8 consecutive multiples of a 1-2-5 step", r[0], r[1], vs)
		}
	}
	for _, tt := range []struct {
		vs   []float64
		want bool
	}{
		{[]float64{2.5, 12.5, 22.5}, false},
		{[]float64{0, 2.5, 5}, false},
		{[]float64{0, 5, 10, 15}, true},
		{[]float64{0.1, 0.2, 0.3}, true},
		{[]float64{0, 20, 40, 60}, true},
		{[]float64{0, 3, 6}, false},
		{[]float64{0, 10, 30}, false},
	} {
		if got := roundStep(tt.vs); got != tt.want {
			t.Errorf("roundStep(%v) = %v, want %v", tt.vs, got, tt.want)
		}
	}
}
