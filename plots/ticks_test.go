package plots

import (
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
