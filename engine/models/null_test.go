package models

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// orNaN is a metric's float, NaN where it is null (not applicable), for
// tests that compare with NaN-aware arithmetic.
func orNaN(v vocab.Value) float64 {
	if v.Kind() == vocab.Invalid {
		return math.NaN()
	}
	return v.Float()
}

func TestNaNull(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		null bool
	}{{math.NaN(), true}, {0, false}, {math.Inf(1), false}, {-2.5, false}} {
		v := naNull(tc.x)
		if got := v.Kind() == vocab.Invalid; got != tc.null {
			t.Errorf("naNull(%v) null = %v, want %v", tc.x, got, tc.null)
		}
		if !tc.null && v.Float() != tc.x {
			t.Errorf("naNull(%v) = %v", tc.x, v)
		}
	}
}
