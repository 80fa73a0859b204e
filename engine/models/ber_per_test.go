package models

import (
	"context"
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestBERPER checks the model against values worked by hand from Eq. 8 of
// document 000 (PER = 8 x BER x MTU x 66/64) and from 1-(1-BER)^n written
// as its binomial series to the third term, whose remainder (n BER)^4/24 is
// below 1e-12 relative for n BER < 1e-4.
func TestBERPER(t *testing.T) {
	m := NewBERPER()
	tests := []struct {
		ber       float64
		mtu       int64
		code      string
		bits      float64
		worst     float64
		exactTol  float64
		exactWant float64
	}{
		// 1500 B under 64B/66B is 12375 bits (8 x 1500 x 1.03125).
		{1e-9, 1500, "64b66b", 12375, 12375e-9, 1e-12, series(12375, 1e-9)},
		{1e-12, 9000, "64b66b", 74250, 74250e-12, 1e-12, series(74250, 1e-12)},
		{1e-9, 1500, "none", 12000, 12000e-9, 1e-12, series(12000, 1e-9)},
		// Past BER x bits = 1 the linear form is clamped; the exact one is
		// 1-(1-1e-3)^12375 = 1 - exp(12375 ln(0.999)) = 0.99999579...
		{1e-3, 1500, "64b66b", 12375, 1, 1e-9, -math.Expm1(12375 * math.Log1p(-1e-3))},
	}
	for _, tt := range tests {
		p := m.Schema().Defaults().
			With("ber", vocab.F(tt.ber)).
			With("mtu", vocab.I(tt.mtu)).
			With("line_code", vocab.S(tt.code))
		res, err := m.Run(context.Background(), p, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := res.Metrics
		if got[bpWireSize].Float() != tt.bits {
			t.Errorf("wire_size(%d B, %s) = %g, want %g", tt.mtu, tt.code, got[bpWireSize].Float(), tt.bits)
		}
		if w := got[bpPERWorst].Float(); math.Abs(w-tt.worst) > 1e-12*tt.worst {
			t.Errorf("per_worst(%g, %d B) = %.15g, want %.15g", tt.ber, tt.mtu, w, tt.worst)
		}
		if e := got[bpPERExact].Float(); math.Abs(e-tt.exactWant) > tt.exactTol*tt.exactWant {
			t.Errorf("per_exact(%g, %d B) = %.15g, want %.15g", tt.ber, tt.mtu, e, tt.exactWant)
		}
	}
}

// series is 1-(1-p)^n to three terms: n p - C(n,2) p^2 + C(n,3) p^3.
func series(n, p float64) float64 {
	return n*p - n*(n-1)/2*p*p + n*(n-1)*(n-2)/6*p*p*p
}
