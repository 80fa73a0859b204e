package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// TestBDPLimit checks the limit against document 002's sizing of its
// bottleneck queue, 8.33 x (q/100) x 10 packets for q % of the BDP: the
// BDP of 100 Mbit/s x 10 ms is 125000 bytes, 83.33 packets of 1500 bytes
// (8.33 x 10 is that number rounded to 3 digits). The q values avoid the
// few where the paper's rounded 8.33 and the exact 25/3 round to different
// integers (q = 75: 62.475 against 62.5).
func TestBDPLimit(t *testing.T) {
	if got, want := BDP(100e6, 10*ms), 125000.0; got != want {
		t.Errorf("BDP(100 Mbit/s, 10 ms) = %g, want %g", got, want)
	}
	for _, q := range []float64{10, 20, 25, 50, 100, 150, 200, 300, 500} {
		t.Run(fmt.Sprint("q=", q), func(t *testing.T) {
			got, err := BDPLimit(q/100, 100e6, 10*ms, 1500)
			if err != nil {
				t.Fatal(err)
			}
			wantPkts := int(math.Round(8.33 * (q / 100) * 10))
			wantBytes := unit.Bytes(math.Round(125000 * q / 100))
			if got.Packets != wantPkts || got.Bytes != wantBytes {
				t.Errorf("BDPLimit(%g%%) = %+v, want {Packets:%d Bytes:%d}", q, got, wantPkts, wantBytes)
			}
			if got.DropTail() != (DropTail{Packets: wantPkts}) {
				t.Errorf("DropTail() = %+v", got.DropTail())
			}
		})
	}
}

// TestBDPLimitEdges: at least one packet; invalid inputs are errors;
// large rates do not overflow (10 Tbit/s x 600 ms = 750 GB).
func TestBDPLimitEdges(t *testing.T) {
	got, err := BDPLimit(0.001, 100e6, 10*ms, 1500)
	if err != nil || got != (Limit{Packets: 1, Bytes: 1500}) {
		t.Errorf("BDPLimit(0.1%%) = %+v, %v, want {1 1500}, nil", got, err)
	}
	got, err = BDPLimit(0.5, 10e12, 600*ms, 9000)
	if err != nil || got.Packets != 41666667 {
		t.Errorf("BDPLimit(10 Tbit/s) = %+v, %v, want 41666667 packets", got, err)
	}
	for _, c := range []struct {
		f    float64
		rate unit.BitRate
		rtt  des.Duration
		size unit.Bytes
	}{{0, 1e6, ms, 1500}, {-1, 1e6, ms, 1500}, {math.NaN(), 1e6, ms, 1500}, {1, 0, ms, 1500}, {1, 1e6, 0, 1500}, {1, 1e6, ms, 0}, {1e12, 1e12, des.Second, 1}} {
		if _, err := BDPLimit(c.f, c.rate, c.rtt, c.size); err == nil {
			t.Errorf("BDPLimit(%g, %v, %v, %d) succeeded, want an error", c.f, c.rate, c.rtt, c.size)
		}
	}
}
