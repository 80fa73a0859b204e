package report

import (
	"math"
	"testing"
)

// TestNum: four significant digits of the number as written in full,
// rounded half away from zero, so that two floats one ulp apart around a
// decimal half (8 x 1e-9 x 1500 x 66/64, Eq. (8) of document 000, computed
// in two orders) print alike.
func TestNum(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{1.2375e-05, "1.238e-05"},
		{1.2375000000000001e-05, "1.238e-05"},
		{8 * 1e-9 * 1500 * 66 / 64, "1.238e-05"},
		{-1.2375e-05, "-1.238e-05"},
		{0.291, "0.291"},
		{12345, "1.235e+04"},
		{0.12344999, "0.1234"},
		{99.995, "100"},
		{9999.5, "1e+04"},
		{2, "2"},
		{0, "0"},
		{math.Inf(-1), "-Inf"},
		{math.NaN(), "NaN"},
		{math.MaxFloat64, "1.798e+308"},
	} {
		if got := num(tc.x); got != tc.want {
			t.Errorf("num(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}
