package models

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine"
)

// Window-limited goodput (document 000 Fig. 7, "conventional" TCP): with a
// 65535-byte window and no scaling, the sender keeps floor(65535/1460) = 44
// full segments (64240 bytes) in flight (it sends only whole segments,
// RFC 9293 section 3.8.6.2.1), so goodput = 64240 B / RTT with
// RTT = 2d + tx(1500 B) + tx(40 B ACK). Measured over 200 RTTs after
// slow start, deliveries come in one burst per RTT, so counting error is
// at most 1/200: tolerance 1 %.
func TestBulkWindowLimited(t *testing.T) {
	for _, d := range []float64{0.0533, 0.0833, 0.1667, 0.2667} {
		rtt := 2*d + 1500*8/1e9 + 40*8/1e9
		warm := 15 * rtt
		r := runModel(t, NewTCPBulk(), map[string]engine.Value{
			"rate": engine.F(1e9), "delay": engine.F(d), "window": engine.I(65535),
			"duration": engine.F(warm + 200*rtt), "warmup": engine.F(warm),
		}, 7)
		want := 64240 * 8 / rtt
		got := r.Metrics[tmGoodput].Float()
		if math.Abs(got-want)/want > 0.01 {
			t.Errorf("goodput(d %v) = %.4g bit/s, want %.4g (W/RTT, 1 %%)", d, got, want)
		}
	}
}

// Conservation and determinism over random scenarios: every packet offered
// to a link is delivered, dropped or still in flight; the receiving
// application got a contiguous stream (the model fails otherwise); the
// same seed gives the same row.
func TestBulkInvariants(t *testing.T) {
	m := NewTCPBulk()
	for i := range 12 {
		x := float64(i)
		set := map[string]engine.Value{
			"rate":           engine.F([]float64{1e6, 10e6, 100e6}[i%3]),
			"delay":          engine.F(0.005 + 0.02*x),
			"per":            engine.F([]float64{0, 1e-3, 1e-2, 5e-2}[i%4]),
			"window":         engine.I([]int64{16000, 65535, 1 << 20}[i%3]),
			"window_scaling": engine.B(i%2 == 0),
			"sack":           engine.B(i%3 == 1),
			"delayed_ack":    engine.B(i%4 == 2),
			"queue":          engine.I([]int64{0, 20, 100}[i%3]),
			"flows":          engine.I(int64(1 + i%3)),
			"size":           engine.I([]int64{0, 200000}[i%2]),
			"duration":       engine.F(5), "warmup": engine.F(1), "min_rto": engine.F(0.2),
		}
		a := runModel(t, m, set, uint64(100+i))
		b := runModel(t, m, set, uint64(100+i))
		for k := range a.Metrics {
			if !a.Metrics[k].Equal(b.Metrics[k]) && !math.IsNaN(a.Metrics[k].Float()) {
				t.Errorf("scenario %d: metric %s differs between runs: %v vs %v", i, m.Schema().Metrics[k].Name, a.Metrics[k], b.Metrics[k])
			}
		}
		sent, del, drop, fl := a.Metrics[tmPktsSent].Int(), a.Metrics[tmPktsDelivered].Int(), a.Metrics[tmPktsDropped].Int(), a.Metrics[tmPktsInFlight].Int()
		if sent != del+drop+fl {
			t.Errorf("scenario %d: sent %d != delivered %d + dropped %d + in flight %d", i, sent, del, drop, fl)
		}
		if set["size"].Int() > 0 && !math.IsNaN(a.Metrics[tmCompletion].Float()) && a.Metrics[tmBytesDelivered].Int() != int64(set["flows"].Int())*200000 {
			t.Errorf("scenario %d: delivered %d bytes, want %d", i, a.Metrics[tmBytesDelivered].Int(), set["flows"].Int()*200000)
		}
	}
}
