package unit

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// The conversions against hand computations:
//   - 1500 B at 10 Mbit/s: 12000 bit / 1e7 bit/s = 1.2 ms;
//   - 1460 B at 1 Gbit/s: 11680 ns;
//   - 1 B at 3 bit/s: 8/3 s = 2.666666666 s, truncated to the ns;
//   - 25 ms at 1 Gbit/s: 1e9 * 0.025 / 8 = 3,125,000 B (the BDP of a
//     1 Gbit/s, 25 ms path);
//   - 64 KiB over 100 ms: 65536 * 8 / 0.1 = 5,242,880 bit/s;
//   - 1.25e6 B/s is 10 Mbit/s.
//
// Tolerance: exact (the values are representable, or the truncation is
// the stated one), except the two quotients, within 1 ulp-scale 1e-12
// relative.
func TestConversions(t *testing.T) {
	if got, want := (10 * Mbps).TxTime(1500), 1200*des.Microsecond; got != want {
		t.Errorf("TxTime(1500 B at 10 Mbit/s) = %v, want %v", got, want)
	}
	if got, want := Gbps.TxTime(1460), 11680*des.Nanosecond; got != want {
		t.Errorf("TxTime(1460 B at 1 Gbit/s) = %v, want %v", got, want)
	}
	if got, want := (3 * BitPerSecond).TxTime(1), des.Duration(2666666666); got != want {
		t.Errorf("TxTime(1 B at 3 bit/s) = %d ns, want %d (truncated)", got, want)
	}
	if got, want := Gbps.BytesIn(25*des.Millisecond), 3125000.0; got != want {
		t.Errorf("BytesIn(25 ms at 1 Gbit/s) = %v, want %v", got, want)
	}
	if got, want := RateOf(64*KiB, 100*des.Millisecond), 5242880*BitPerSecond; math.Abs(float64(got-want)) > 1e-12*float64(want) {
		t.Errorf("RateOf(64 KiB, 100 ms) = %v, want %v", got, want)
	}
	if got, want := BytesPerSecond(1.25e6), 10*Mbps; got != want {
		t.Errorf("BytesPerSecond(1.25e6) = %v, want %v", got, want)
	}
	if got, want := (10 * Mbps).BytesPerSecond(), 1.25e6; got != want {
		t.Errorf("(10 Mbit/s).BytesPerSecond() = %v, want %v", got, want)
	}
	if got := (10 * Mbps).BitsPerSecond(); got != 1e7 {
		t.Errorf("(10 Mbit/s).BitsPerSecond() = %v, want 1e7", got)
	}
}

// A rate held in bit/s gives bit for bit what the same rate in bytes/s
// gave with the formulas the engine used before it had these types: the
// pacing gap n*1e9/rate, the delivery rate n*1e9/interval and the bytes
// gain*bw*rtt/1e9 (the scaling by 8 is exact in binary floating point).
// Checked over values that are not round, where a different order of
// operations would round differently.
func TestBytesPerSecondFormulasAgree(t *testing.T) {
	for _, n := range []Bytes{1, 1448, 1460, 65535, 123457, 9_999_991} {
		for _, bps := range []float64{1, 3, 1234567.891, 1.25e8, 2.885 * 12345.678, 9.87654321e9} {
			r := BytesPerSecond(bps)
			if got, want := r.TxTime(n), des.Duration(float64(n)*1e9/bps); got != want {
				t.Errorf("TxTime(%d B at %v B/s) = %d, want %d", n, bps, got, want)
			}
			d := des.Duration(int64(bps)%999_999_937 + 1)
			if got, want := RateOf(n, d).BytesPerSecond(), float64(n)*1e9/float64(d); got != want {
				t.Errorf("RateOf(%d B, %d ns) = %v B/s, want %v", n, d, got, want)
			}
			gain := 1.25
			if got, want := r.Scale(gain).BytesIn(d), gain*bps*float64(d)/1e9; got != want {
				t.Errorf("BytesIn(%v B/s x %v, %d ns) = %v, want %v", bps, gain, d, got, want)
			}
		}
	}
}
