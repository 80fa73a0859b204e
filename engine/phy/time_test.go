package phy

import (
	"math"
	"strconv"
	"testing"
)

// TestPropagationDelayTable2 checks the one-way delays of Table 2 of
// document 000. With its c = 3e8 m/s (the Paper constants) every delay
// rounds to the printed four decimals; with the exact c they agree within
// 0.2 %: the 0.07 % by which 3e8 overstates c plus up to 0.094 % of
// rounding to four decimals (0.00005/0.0533).
func TestPropagationDelayTable2(t *testing.T) {
	tests := []struct {
		km      float64
		printed string // seconds, as printed in Table 2
	}{
		{16000, "0.0533"},
		{25000, "0.0833"},
		{50000, "0.1667"},
		{80000, "0.2667"},
	}
	for _, tt := range tests {
		t.Run(strconv.FormatFloat(tt.km, 'f', -1, 64)+"km", func(t *testing.T) {
			got := PropagationDelay(tt.km*1e3, Paper())
			if s := strconv.FormatFloat(got, 'f', 4, 64); s != tt.printed {
				t.Errorf("PropagationDelay(%v km, paper) = %v (%s), want %s", tt.km, got, s, tt.printed)
			}
			want, _ := strconv.ParseFloat(tt.printed, 64)
			got = PropagationDelay(tt.km*1e3, CODATA())
			if rel := math.Abs(got-want) / want; rel > 2e-3 {
				t.Errorf("PropagationDelay(%v km, codata) = %v, want %v within 0.2 %%", tt.km, got, want)
			}
		})
	}
}

// TestTransmissionTime checks 8 n / rate: 1500 B take 12 us at 1 Gbps and
// 3 us at 4 Gbps, to 1e-15 relative (rounding of the division).
func TestTransmissionTime(t *testing.T) {
	tests := []struct{ n, rate, want float64 }{
		{1500, 1e9, 12e-6},
		{1500, 4e9, 3e-6},
		{12000, 1e9, 96e-6},
	}
	for _, tt := range tests {
		if got := TransmissionTime(tt.n, tt.rate); math.Abs(got-tt.want) > 1e-15*tt.want {
			t.Errorf("TransmissionTime(%v, %v) = %v, want %v", tt.n, tt.rate, got, tt.want)
		}
	}
}
