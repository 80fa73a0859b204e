package models

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/closedform"
	"github.com/crosslink-sim/crosslink/vocab"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
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
		r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
			"rate": vocab.F(1e9), "delay": vocab.F(d), "window": vocab.I(65535),
			"duration": vocab.F(warm + 200*rtt), "warmup": vocab.F(warm),
		}, 7)
		want := closedform.WindowRate(closedform.WholeSegments(65535, 1460), rtt)
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
		set := map[string]vocab.Value{
			"rate":           vocab.F([]float64{1e6, 10e6, 100e6}[i%3]),
			"delay":          vocab.F(0.005 + 0.02*x),
			"per":            vocab.F([]float64{0, 1e-3, 1e-2, 5e-2}[i%4]),
			"window":         vocab.I([]int64{16000, 65535, 1 << 20}[i%3]),
			"window_scaling": vocab.B(i%2 == 0),
			"sack":           vocab.B(i%3 == 1),
			"delayed_ack":    vocab.B(i%4 == 2),
			"queue":          vocab.I([]int64{0, 20, 100}[i%3]),
			"flows":          vocab.I(int64(1 + i%3)),
			"size":           vocab.I([]int64{0, 200000}[i%2]),
			"duration":       vocab.F(5), "warmup": vocab.F(1), "min_rto": vocab.F(0.2),
		}
		a := runModel(t, m, set, uint64(100+i))
		b := runModel(t, m, set, uint64(100+i))
		for k := range a.Metrics {
			// Equal holds NaN equal to NaN, so a NaN in one run and a
			// number in the other is a difference.
			if !a.Metrics[k].Equal(b.Metrics[k]) {
				t.Errorf("scenario %d: metric %s differs between runs: %v vs %v", i, m.Schema().Metrics[k].Name, a.Metrics[k], b.Metrics[k])
			}
		}
		sent, del, drop, fl := a.Metrics[tmPktsSent].Int(), a.Metrics[tmPktsDelivered].Int(), a.Metrics[tmPktsDropped].Int(), a.Metrics[tmPktsInFlight].Int()
		if sent != del+drop+fl {
			t.Errorf("scenario %d: sent %d != delivered %d + dropped %d + in flight %d", i, sent, del, drop, fl)
		}
		if set["size"].Int() > 0 && !math.IsNaN(orNaN(a.Metrics[tmCompletion])) && a.Metrics[tmBytesDelivered].Int() != int64(set["flows"].Int())*200000 {
			t.Errorf("scenario %d: delivered %d bytes, want %d", i, a.Metrics[tmBytesDelivered].Int(), set["flows"].Int()*200000)
		}
	}
}

// Loss-limited goodput of one NewReno flow (no SACK, no delayed ACKs, a
// 64 MiB window, the 1 Gbit/s link far from saturated) against
// Mathis, Semke, Mahdavi, Ott, "The macroscopic behavior of the TCP
// congestion avoidance algorithm", CCR 27(3), 1997, Eq. (3):
// BW = MSS/RTT * C/sqrt(p) with C = sqrt(3/2) (one ACK per segment).
// Tolerance 25 %, as the model is an approximation (Mathis et al. report C
// between 0.87 and 1.31 depending on ACK and loss pattern; random loss
// gives the larger constant). Each run lasts long enough for about 60 loss
// events.
func TestBulkLossLimited(t *testing.T) {
	const mss = 1460.0
	for _, p := range []float64{1e-4, 1e-3, 1e-2} {
		for _, rtt := range []float64{0.020, 0.120, 0.560} {
			mathis := closedform.Mathis(mss, rtt, p)
			warm, dur := lossLimitedRun(p, rtt, 60)
			minRTO := 1.0 // RFC 6298 section 2.4
			if p >= 1e-2 {
				minRTO = 0.2 // Linux's floor: T0 matters at this loss rate
			}
			r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
				"rate": vocab.F(1e9), "delay": vocab.F(rtt / 2), "window": vocab.I(64 << 20),
				"window_scaling": vocab.B(true), "per": vocab.F(p), "min_rto": vocab.F(minRTO),
				"duration": vocab.F(warm + dur), "warmup": vocab.F(warm),
			}, 11)
			got := r.Metrics[tmGoodput].Float()
			t.Logf("p %g rtt %g: goodput %.4g, Mathis %.4g (%+.1f %%), RTOs %d, fast recoveries %d",
				p, rtt, got, mathis, 100*(got/mathis-1), r.Metrics[tmRTOs].Int(), r.Metrics[tmFastRecoveries].Int())
			if math.Abs(got-mathis)/mathis > 0.25 {
				t.Errorf("goodput(p %g, rtt %g) = %.4g bit/s, want %.4g (Mathis, 25 %%)", p, rtt, got, mathis)
			}
		}
	}
}

// lossLimitedRun returns a warm-up of 20 RTTs and a run long enough for
// about events loss events at Mathis's packet rate.
func lossLimitedRun(p, rtt float64, events int) (warm, dur float64) {
	pktRate := math.Sqrt(1.5) / math.Sqrt(p) / rtt
	return 20 * rtt, float64(events) / p / pktRate
}

// At p = 1e-2, where timeouts matter, goodput against Padhye, Firoiu,
// Towsley, Kurose, "Modeling TCP throughput: a simple model and its
// empirical validation", SIGCOMM 1998, Eq. (31):
//
//	B(p) = MSS / (RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1 + 32 p^2))
//
// with b = 1 (no delayed ACKs) and T0 "the duration of the first timeout
// in a sequence", measured from the sender (the t0 metric: how long the
// timer ran before each first expiry; RFC 6298's RTO with a 200 ms floor,
// Linux's minimum, though Linux floors the variance term instead). The
// Wmax/RTT cap of Eq. (31) is left out: the 64 MiB window never binds.
// Tolerance 25 %.
//
// The model is of the TCP Reno of 1998, which had no RFC 3042 limited
// transmit: its timeout term counts the windows in which fewer than three
// duplicate ACKs come back (its section 2.2), the very timeouts limited
// transmit was designed to remove (RFC 3042 section 1). So the senders
// here run without it, both as Reno (RFC 5681 recovery, the variant the
// paper models) and NewReno (RFC 6582, which recovers several losses of a
// window without a timeout and so runs above the model where T0/RTT is
// large). The share of loss indications that are timeouts, which Eq.
// (31) puts at min(1, 3 sqrt(3bp/8)) = 18 %, is logged. With limited
// transmit on as well, NewReno at RTT 20 ms (T0/RTT = 10) runs about 30 %
// above Eq. (31) while within 10 % of Mathis; that run is logged as a
// reference. Each point is the mean of 6 seeds of about 180 loss events
// each (single runs spread by about +-8 %).
func TestBulkPadhye(t *testing.T) {
	const mss, p, b, seeds = 1460.0, 1e-2, 1.0, 6
	for _, tc := range []struct {
		cca     string
		limited bool
		assert  bool
	}{
		{"reno", false, true},
		{"newreno", false, true},
		{"newreno", true, false},
	} {
		for _, rtt := range []float64{0.020, 0.120, 0.560} {
			warm, dur := lossLimitedRun(p, rtt, 180)
			var got, t0 []float64
			var episodes, recoveries int64
			for seed := uint64(1); seed <= seeds; seed++ {
				r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
					"rate": vocab.F(1e9), "delay": vocab.F(rtt / 2), "window": vocab.I(64 << 20),
					"window_scaling": vocab.B(true), "per": vocab.F(p), "min_rto": vocab.F(0.2),
					"duration": vocab.F(warm + dur), "warmup": vocab.F(warm),
					"cca": vocab.S(tc.cca), "limited_transmit": vocab.B(tc.limited),
				}, seed)
				got = append(got, r.Metrics[tmGoodput].Float())
				if v := orNaN(r.Metrics[tmT0]); !math.IsNaN(v) {
					t0 = append(t0, v)
				}
				episodes += r.Metrics[tmRTOEpisodes].Int()
				recoveries += r.Metrics[tmFastRecoveries].Int()
			}
			if len(t0) == 0 {
				t.Fatalf("%s, rtt %g: no timeout in %d runs, so no T0", tc.cca, rtt, seeds)
			}
			mean, T0 := stat.Mean(got, nil), stat.Mean(t0, nil)
			share := float64(episodes) / float64(episodes+recoveries)
			padhye := closedform.Padhye(mss, rtt, p, b, T0)
			t.Logf("%s, limited transmit %v, rtt %g: goodput %.4g (%d seeds, %.4g..%.4g), Padhye %.4g (%+.1f %%, T0 %.3g s), timeouts %.1f %% of loss indications",
				tc.cca, tc.limited, rtt, mean, seeds, floats.Min(got), floats.Max(got), padhye, 100*(mean/padhye-1), T0, 100*share)
			if tc.assert && math.Abs(mean-padhye)/padhye > 0.25 {
				t.Errorf("%s goodput(rtt %g) = %.4g bit/s, want %.4g (Padhye Eq. 31 with T0 %.3g s, 25 %%)", tc.cca, rtt, mean, padhye, T0)
			}
		}
	}
}

// TestBulkSsthreshNull: the time series stores the infinite initial
// ssthresh (RFC 5681 section 3.1 sets it arbitrarily high) and the unset
// one before the connection opens as null, not as a number avg() would
// count, and a real threshold once a loss set one.
func TestBulkSsthreshNull(t *testing.T) {
	m := NewTCPBulk()
	ts := -1
	for i, tb := range m.Schema().Tables {
		if tb.Name == "timeseries" {
			ts = i
		}
	}
	if ts < 0 {
		t.Fatal("tcp-bulk has no timeseries table")
	}
	r := runModel(t, m, map[string]vocab.Value{
		"rate": vocab.F(10e6), "delay": vocab.F(0.01), "per": vocab.F(1e-2), "window": vocab.I(1 << 20),
		"window_scaling": vocab.B(true), "duration": vocab.F(3), "warmup": vocab.F(0), "sample_interval": vocab.F(0.05),
	}, 3)
	rows := r.Tables[ts]
	if len(rows) == 0 {
		t.Fatal("no time series rows")
	}
	nulls, set := 0, 0
	for _, row := range rows {
		switch {
		case row[3].Kind() == vocab.Invalid:
			nulls++
		case row[3].Int() < 2*1460: // RFC 5681 equation (4): at least 2 SMSS
			t.Errorf("ssthresh at t = %v is %d, want a threshold (>= 2 SMSS) or null", row[0].Float(), row[3].Int())
		default:
			set++
		}
	}
	if nulls == 0 || set == 0 {
		t.Errorf("%d null and %d set ssthresh samples, want both (slow start, then loss at 1 %%)", nulls, set)
	}
}
