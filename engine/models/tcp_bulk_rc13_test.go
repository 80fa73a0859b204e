package models

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/closedform"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Document 000 (Rodriguez-Colina et al. 2013), Table 3 as printed: one-way
// delay (s), PER, data rate (bit/s) and goodput (Mbit/s) of one flow.
var rc13Table3 = []struct {
	delay, per, rate, goodput float64
}{
	{0.0533, 1e-12, 1e9, 5.769},
	{0.0533, 1e-12, 4e9, 5.772},
	{0.0833, 1e-8, 1e9, 3.692},
	{0.0833, 1e-8, 4e9, 3.693},
	{0.1667, 1e-4, 1e9, 1.845},
	{0.1667, 1e-4, 4e9, 1.846},
	{0.2667, 1e-3, 1e9, 0.291},
	{0.2667, 1e-3, 4e9, 0.294},
}

// rc13Window is a calibration, not a document value: document 000 does
// not print the window behind Table 3's goodput column, so it is worked
// back from that column. Goodput x RTT with RTT = 2 x delay gives
// 5.769e6 x 0.1066 / 8 = 76,872 B, 3.692e6 x 0.1666 / 8 = 76,886 B and
// 1.845e6 x 0.3334 / 8 = 76,890 B, about 75 KiB in every window-limited
// row. With MSS 1500 (the document's Ethernet MSS) the sender keeps
// floor(76800/1500) = 51 whole segments, 76,500 B, in flight (RFC 9293
// section 3.8.6.2.1), 0.5 % under the document's window.
const rc13Window = 75 * 1024

// rc13FitDelay is the one Table 3 distance (16,000 km, 53.3 ms) the
// calibration check fits the window to; the other window-limited rows are
// held out.
const rc13FitDelay = 0.0533

// Calibration check (document 000 Table 3): the window fitted to the
// 16,000 km rows alone, in whole 1500-byte segments, must be the one
// rc13Window gives (51 segments); with it, the held-out window-limited
// rows (25,000 and 50,000 km, PER <= 1e-4) must come within 1 % of the
// printed goodput, which is what makes the window a calibration that
// predicts, not a number fitted to every row it is tested on. The fitted
// rows are run too (a consistency check of the simulation, not of the
// calibration). The printed delay and PER are used as given (the PER
// column does not follow from Eqs. 1-8, see FSOBER). The bursts of a
// window-limited flow reach the receiver half an RTT apart from the
// integer RTT marks (the first data
// leaves after the handshake's RTT and arrives at 1.5 RTT), so measuring
// from 10 RTT over exactly 30 RTT counts 30 whole windows: no counting
// error beyond the sub-millisecond burst length. At PER 1e-4 a 51-segment
// window loses one segment every 196 RTT on average, so over the 40 RTT
// run the 50,000 km rows stay window-limited (0.2 losses expected); in the
// long run they lose about 6 % to recovery (tab3's full profile shows it).
func TestRC13Table3WindowLimited(t *testing.T) {
	const mss = 1500
	var fit []float64
	for _, row := range rc13Table3 {
		if row.delay == rc13FitDelay {
			fit = append(fit, closedform.BDP(row.goodput*1e6, 2*row.delay))
		}
	}
	if len(fit) != 2 {
		t.Fatalf("%d Table 3 rows at %v s, want 2", len(fit), rc13FitDelay)
	}
	fitted := closedform.WholeSegments((fit[0]+fit[1])/2, mss)
	if used := closedform.WholeSegments(rc13Window, mss); used != fitted {
		t.Errorf("rc13Window keeps %v B in flight, the window fitted to the %v s rows %v B", used, rc13FitDelay, fitted)
	}
	heldOut := 0
	for _, row := range rc13Table3 {
		if row.per > 1e-4 {
			continue
		}
		if row.delay != rc13FitDelay {
			heldOut++
		}
		rtt := 2*row.delay + 1540*8/row.rate + 40*8/row.rate
		r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
			"rate": vocab.F(row.rate), "delay": vocab.F(row.delay), "per": vocab.F(row.per),
			"mss": vocab.I(1500), "window": vocab.I(rc13Window), "window_scaling": vocab.B(true),
			"warmup": vocab.F(10 * rtt), "duration": vocab.F(40 * rtt),
		}, 5)
		got := r.Metrics[tmGoodput].Float() / 1e6
		if d := (got - row.goodput) / row.goodput; math.Abs(d) > 0.01 {
			t.Errorf("goodput(delay %v, rate %g, PER %g) = %.4g Mbit/s, want %.4g (Table 3, 1 %%): %+.2f %%",
				row.delay, row.rate, row.per, got, row.goodput, 100*d)
		} else {
			t.Logf("delay %v rate %g PER %g: %.4f Mbit/s vs Table 3 %.3f (%+.2f %%), held out: %v", row.delay, row.rate, row.per, got, row.goodput, 100*d, row.delay != rc13FitDelay)
		}
	}
	if heldOut != 4 {
		t.Errorf("%d held-out rows checked, want 4 (25,000 and 50,000 km at 1 and 4 Gbit/s)", heldOut)
	}
}

// Acceptance (document 000 Table 3, 80,000 km, PER 1e-3): the row is
// loss-limited; its goodput is set beside Mathis et al. (1997) Eq. (3),
// MSS/RTT sqrt(3/2)/sqrt(p), and Padhye et al. (1998) Eq. (31) with the
// window bound Wmax/RTT (b = 1, T0 = 1 s, the RFC 6298 RTO floor).
// Asserted: at most the window bound W/RTT, and within 25 % of Mathis
// (the tolerance TestBulkLossLimited justifies); the document's printed
// 0.291 Mbit/s is a third of both estimates and is only reported. About
// 1500 RTTs, some 70 loss events.
func TestRC13Table3LossLimited(t *testing.T) {
	const d, p, mss = 0.2667, 1e-3, 1500.0
	rtt := 2*d + 1540*8/1e9 + 40*8/1e9
	r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
		"rate": vocab.F(1e9), "delay": vocab.F(d), "per": vocab.F(p),
		"mss": vocab.I(1500), "window": vocab.I(rc13Window), "window_scaling": vocab.B(true),
		"warmup": vocab.F(10 * rtt), "duration": vocab.F(1500 * rtt),
	}, 5)
	got := r.Metrics[tmGoodput].Float()
	wmax := closedform.WindowRate(closedform.WholeSegments(rc13Window, mss), rtt)
	mathis := closedform.Mathis(mss, rtt, p)
	const b, t0 = 1.0, 1.0
	padhye := math.Min(wmax, closedform.Padhye(mss, rtt, p, b, t0))
	t.Logf("80,000 km, PER 1e-3: goodput %.4g Mbit/s, Mathis %.4g, Padhye %.4g, W/RTT %.4g, document 0.291; %d fast recoveries, %d RTOs",
		got/1e6, mathis/1e6, padhye/1e6, wmax/1e6, r.Metrics[tmFastRecoveries].Int(), r.Metrics[tmRTOs].Int())
	if got > wmax*1.001 {
		t.Errorf("goodput = %.4g bit/s, above the window bound %.4g", got, wmax)
	}
	if math.Abs(got-mathis)/mathis > 0.25 {
		t.Errorf("goodput = %.4g bit/s, want %.4g (Mathis, 25 %%)", got, mathis)
	}
}

// Acceptance: with window scaling on (a 1 GiB buffer, shift 14) and no bit
// errors, one flow over each Table 2 distance fills 90 % of the 1 Gbit/s
// link after slow start, and slow start takes RTT x log2(BDP/MSS) within
// one RTT (each RTT doubles cwnd from one segment, RFC 5681 section 3.1;
// no delayed ACKs, IW 1 as the formula assumes). The time is counted from
// the end of the handshake (one RTT) to the first sample with cwnd >= BDP.
// MSS 12000 (document 000's largest) keeps the packet count small.
func TestRC13SlowStartFillsLink(t *testing.T) {
	const rate, mss = 1e9, 12000
	for _, km := range []float64{16000, 25000, 50000, 80000} {
		rtt := 2*km*1e3/299792458 + (mss+40)*8/rate + 40*8/rate
		bdp := closedform.BDP(rate, rtt)
		n := math.Log2(bdp / mss)
		want := n * rtt
		warm := rtt + want + 2*rtt
		r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
			"rate": vocab.F(rate), "distance": vocab.F(km * 1e3), "mss": vocab.I(mss), "iw": vocab.I(1),
			"window": vocab.I(1 << 30), "window_scaling": vocab.B(true), "sample_interval": vocab.F(rtt / 32),
			"warmup": vocab.F(warm), "duration": vocab.F(warm + 2*rtt),
		}, 1)
		full := math.NaN()
		for _, row := range r.Tables[1] {
			if row[2].Int() >= int64(bdp) {
				full = row[0].Float() - rtt
				break
			}
		}
		g := r.Metrics[tmGoodput].Float()
		t.Logf("%v km: slow start %.3f s vs RTT log2(BDP/MSS) = %.3f s (RTT %.4f, %.1f RTTs); goodput after it %.4g bit/s",
			km, full, want, rtt, n, g)
		if !(math.Abs(full-want) <= rtt) {
			t.Errorf("slow start over %v km = %.4g s, want %.4g s (RTT log2(BDP/MSS), 1 RTT = %.4g s)", km, full, want, rtt)
		}
		if g < 0.9*rate {
			t.Errorf("goodput after slow start over %v km = %.4g bit/s, want >= 90 %% of %g", km, g, rate)
		}
	}
}

// Acceptance (document 000 section 6.2 and Fig. 8): 4 x 1 Gbit/s WDM, one
// flow per wavelength, gives about four times the goodput of one 1 Gbit/s
// channel at every Table 2 distance. With the printed PER of Table 3 (the
// document's own loss inputs) the flows are window-limited up to
// 25,000 km and each wavelength carries the same W/RTT: ratio 4 within
// 2 % over 30 RTT. At PER 1e-4 and 1e-3 every flow loses segments at
// random and the runs last 6000 RTT (about 30 and 300 loss events per
// flow): at 1e-4 the losses cost a flow some 6 % of its goodput,
// evenly enough that the ratio stays within 2 %; at 1e-3 the flows are loss-limited and
// the goodput of one flow over 300 loss events varies by a few percent,
// so 10 %.
//
// Through the cross-layer chain (loss_model fso, detection as document 000
// advises) WDM keeps its four-fold gain where the 1 Gbit/s BER leaves the
// window intact (16,000 to 50,000 km: within 2 %); at 80,000 km the Table 1
// budget gives a BER of 6e-5, a PER of 0.5 for a 1540-byte packet, and
// neither link carries data (reported only).
func TestRC13WDMFourfold(t *testing.T) {
	run := func(km, per float64, ch int64, fso bool, rtts float64) float64 {
		rtt := 2*km*1e3/299792458 + 2*1540*8/1e9
		set := map[string]vocab.Value{
			"rate": vocab.F(1e9), "distance": vocab.F(km * 1e3), "per": vocab.F(per),
			"mss": vocab.I(1500), "window": vocab.I(rc13Window), "window_scaling": vocab.B(true),
			"channels": vocab.I(ch), "flows": vocab.I(ch), "striping": vocab.B(false),
			"warmup": vocab.F(10 * rtt), "duration": vocab.F((10 + rtts) * rtt),
		}
		if fso {
			set["loss_model"] = vocab.S("fso")
		}
		return runModel(t, NewTCPBulk(), set, 9).Metrics[tmGoodput].Float()
	}
	for _, row := range []struct{ km, per float64 }{{16000, 1e-12}, {25000, 1e-8}, {50000, 1e-4}, {80000, 1e-3}} {
		rtts, tol := 30.0, 0.02
		switch {
		case row.per >= 1e-3:
			rtts, tol = 6000, 0.10
		case row.per >= 1e-4:
			rtts, tol = 6000, 0.02
		}
		one, wdm := run(row.km, row.per, 1, false, rtts), run(row.km, row.per, 4, false, rtts)
		t.Logf("Table 3 PER, %v km: 1 Gbps %.4g, 4 x 1 Gbps %.4g bit/s, ratio %.3f", row.km, one, wdm, wdm/one)
		if d := wdm/one/4 - 1; !(math.Abs(d) <= tol) {
			t.Errorf("WDM/single goodput at %v km, PER %g = %.3f, want 4 within %.0f %%", row.km, row.per, wdm/one, 100*tol)
		}
		one, wdm = run(row.km, 0, 1, true, 30), run(row.km, 0, 4, true, 30)
		t.Logf("fso chain, %v km: 1 Gbps %.4g, 4 x 1 Gbps %.4g bit/s", row.km, one, wdm)
		if row.km <= 50000 && !(math.Abs(wdm/one/4-1) <= 0.02) {
			t.Errorf("WDM/single goodput through fso at %v km = %.3f, want 4 within 2 %%", row.km, wdm/one)
		}
	}
}

// Acceptance (document 000 sections 6.1-6.2): a single 4 Gbit/s channel
// has a four times larger electrical bandwidth (Be = 2 x bit rate), so a
// higher BER, and loses more to bit errors where that BER matters. Through
// the chain at each Table 2 distance: where the 4 Gbit/s PER of a full
// segment exceeds 1e-3 (16,000 km direct, 50,000 and 80,000 km coherent)
// its goodput is below the 1 Gbit/s channel's and it loses more packets to
// corruption; where both PERs are under 1e-5 (25,000 km) the two are the
// same within 1 %, since a 75 KiB window, not the rate, sets the goodput
// (the document: "practically the same due to the propagation delay
// dominance"). At 80,000 km both channels are lossy (1 Gbit/s PER about
// 0.5): the 4 Gbit/s one, at PER 1, still has the lower goodput, but it
// spends the run in RTO backoff and so sends fewer segments to corrupt,
// and the corruption counts are not compared there.
func TestRC13FourGbpsLosesMore(t *testing.T) {
	const (
		loses    = iota // 4 Gbit/s PER > 1e-3, 1 Gbit/s PER < 0.1: lower goodput, more corrupted
		same            // both PERs < 1e-5: goodput equal within 1 %
		bothLoss        // 1 Gbit/s PER >= 0.1 too: lower goodput only
	)
	for _, tc := range []struct {
		km     float64
		regime int
	}{{16000, loses}, {25000, same}, {50000, loses}, {80000, bothLoss}} {
		km := tc.km
		rtt := 2 * km * 1e3 / 299792458
		res := map[float64]vocab.Result{}
		for _, rate := range []float64{1e9, 4e9} {
			res[rate] = runModel(t, NewTCPBulk(), map[string]vocab.Value{
				"rate": vocab.F(rate), "distance": vocab.F(km * 1e3), "loss_model": vocab.S("fso"),
				"mss": vocab.I(1500), "window": vocab.I(rc13Window), "window_scaling": vocab.B(true),
				"warmup": vocab.F(10 * rtt), "duration": vocab.F(40 * rtt),
			}, 13)
		}
		one, four := res[1e9].Metrics, res[4e9].Metrics
		t.Logf("%v km: BER %.3g vs %.3g, PER %.3g vs %.3g, goodput %.4g vs %.4g bit/s, corrupted %d vs %d",
			km, one[bmBER].Float(), four[bmBER].Float(), one[bmPERData].Float(), four[bmPERData].Float(),
			one[tmGoodput].Float(), four[tmGoodput].Float(), one[tmDropsCorrupt].Int(), four[tmDropsCorrupt].Int())
		if four[bmBER].Float() <= one[bmBER].Float() {
			t.Errorf("BER at %v km: 4 Gbps %g <= 1 Gbps %g", km, four[bmBER].Float(), one[bmBER].Float())
		}
		p4, p1 := four[bmPERData].Float(), one[bmPERData].Float()
		g4, g1 := four[tmGoodput].Float(), one[tmGoodput].Float()
		switch tc.regime {
		case loses:
			if p4 <= 1e-3 || p1 >= 0.1 {
				t.Errorf("at %v km PER 4 Gbps %g, 1 Gbps %g: want > 1e-3 and < 0.1", km, p4, p1)
			}
			if g4 >= g1 || four[tmDropsCorrupt].Int() <= one[tmDropsCorrupt].Int() {
				t.Errorf("at %v km the 4 Gbps channel (PER %g) does not lose more than 1 Gbps (PER %g)", km, p4, p1)
			}
		case same:
			if p4 >= 1e-5 || p1 >= 1e-5 {
				t.Errorf("at %v km PER 4 Gbps %g, 1 Gbps %g: want both < 1e-5", km, p4, p1)
			}
			if d := g4/g1 - 1; math.Abs(d) > 0.01 {
				t.Errorf("at %v km goodput 4 Gbps / 1 Gbps = %.4f, want 1 within 1 %%", km, 1+d)
			}
		case bothLoss:
			if p1 < 0.1 || p4 <= p1 {
				t.Errorf("at %v km PER 4 Gbps %g, 1 Gbps %g: want 1 Gbps >= 0.1 and 4 Gbps above it", km, p4, p1)
			}
			if g4 >= g1 {
				t.Errorf("at %v km goodput 4 Gbps %g >= 1 Gbps %g", km, g4, g1)
			}
		}
	}
}

// The striping trace (document 000 Fig. 2): packets of every source are
// spread over the wavelengths one per wavelength per time slot, so the
// i-th striped packet is on wavelength i mod 4 in slot i div 4; every
// flow's packets are numbered 1, 2, 3, ... in order; and several sources
// share a slot once their windows overlap. The trace is what was sent:
// the channels' transmitted counts cover it.
func TestRC13StripeTrace(t *testing.T) {
	const n = 200
	r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
		"rate": vocab.F(1e9), "delay": vocab.F(0.001), "channels": vocab.I(4), "flows": vocab.I(3),
		"striping": vocab.B(true), "trace_packets": vocab.I(n), "duration": vocab.F(0.05), "warmup": vocab.F(0.01),
	}, 2)
	rows := r.Tables[2]
	if len(rows) != n {
		t.Fatalf("trace has %d rows, want %d", len(rows), n)
	}
	next := map[int64]int64{}
	mixed := 0
	for i, row := range rows {
		slot, wl, fl, pk := row[0].Int(), row[1].Int(), row[2].Int(), row[3].Int()
		if slot != int64(i/4) || wl != int64(i%4) {
			t.Errorf("packet %d: slot %d wavelength %d, want %d and %d", i, slot, wl, i/4, i%4)
		}
		if fl < 0 || fl > 2 {
			t.Errorf("packet %d: flow %d, want 0..2", i, fl)
		}
		if pk != next[fl]+1 {
			t.Errorf("packet %d: flow %d packet %d, want %d", i, fl, pk, next[fl]+1)
		}
		next[fl] = pk
		if i%4 == 3 && (rows[i-1][2].Int() != fl || rows[i-2][2].Int() != fl || rows[i-3][2].Int() != fl) {
			mixed++
		}
	}
	if len(next) != 3 || mixed == 0 {
		t.Errorf("trace shows flows %v and %d slots shared by several sources; want all 3 flows and some shared slots", next, mixed)
	}
}

// Validation of rc13-fig7's scaling-up curves (document 000 Fig. 7, BER
// 1e-9, PER by Eq. 8, so PER grows in proportion to the packet): with a
// window far above the BDP, packet errors set the goodput, and Mathis et
// al. (1997) Eq. (3), MSS/RTT sqrt(3/2)/sqrt(p), predicts it, so goodput
// grows as sqrt(MSS): 12000 B over 1500 B gives (12000/1500) x
// sqrt(1540/12040) = 2.86 (PER per 40-byte-header packet). Asserted at 53.3 ms, the mean of three
// runs per MSS after a warm-up of more than two loss cycles of the 1500 B
// flow (W/2 = 0.61/sqrt(p) round trips each): each within 25 % of Mathis
// (the tolerance TestBulkLossLimited justifies), and the ratio within
// 15 % of the predicted one (the runs share the random loss pattern that
// sets the constant, so it largely cancels in the ratio).
func TestRC13Fig7MathisMSS(t *testing.T) {
	const d, ber, rate = 0.0533, 1e-9, 1e9
	got := map[float64]float64{}
	for _, mss := range []float64{1500, 12000} {
		p := ber * closedform.WireBits(mss+40)
		rtt := 2*d + (mss+40)*8/rate + 40*8/rate
		cycle := 0.5 * math.Sqrt(1.5/p) * rtt
		sum := 0.0
		for seed := uint64(1); seed <= 3; seed++ {
			r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
				"rate": vocab.F(rate), "delay": vocab.F(d), "ber": vocab.F(ber), "per_formula": vocab.S("worst"),
				"mss": vocab.I(int64(mss)), "window": vocab.I(1 << 30), "window_scaling": vocab.B(true),
				"cca": vocab.S("scalingup"), "sack": vocab.B(true),
				"warmup": vocab.F(3 * cycle), "duration": vocab.F(13 * cycle),
			}, seed)
			sum += r.Metrics[tmGoodput].Float()
		}
		got[mss] = sum / 3
		mathis := closedform.Mathis(mss, rtt, p)
		t.Logf("MSS %v: goodput %.4g Mbit/s, Mathis %.4g (%+.1f %%)", mss, got[mss]/1e6, mathis/1e6, 100*(got[mss]/mathis-1))
		if math.Abs(got[mss]-mathis)/mathis > 0.25 {
			t.Errorf("MSS %v: goodput %.4g bit/s, want %.4g (Mathis, 25 %%)", mss, got[mss], mathis)
		}
	}
	want := 12000.0 / 1500 * math.Sqrt(1540.0/12040)
	if r := got[12000] / got[1500]; math.Abs(r-want)/want > 0.15 {
		t.Errorf("goodput 12000 B / 1500 B = %.3f, want %.3f (sqrt(MSS) law, 15 %%)", r, want)
	} else {
		t.Logf("goodput 12000 B / 1500 B = %.3f, predicted %.3f", r, want)
	}
}

// rc13SpecHost is the host rc13-tab3 and rc13-fig8 set beyond runModel's
// rfcHost: document 000's MSS and window scaling, and none of Linux's
// loss-recovery mechanisms (the document names none).
var rc13SpecHost = map[string]vocab.Value{
	"mss": vocab.I(1500), "window": vocab.I(rc13Window), "window_scaling": vocab.B(true),
	"quick_ack": vocab.B(false), "dsack": vocab.B(false), "undo": vocab.B(false), "frto": vocab.B(false),
	"adaptive_reordering": vocab.B(false), "rto_min_on": vocab.S("rto"),
}

// rc13Mean runs tcp-bulk with the spec host, set on top, over seeds 1 to
// n and returns the mean goodput (bit/s) after a 6 s warm-up.
func rc13Mean(t *testing.T, set map[string]vocab.Value, duration float64, n int) float64 {
	t.Helper()
	var sum float64
	for seed := uint64(1); seed <= uint64(n); seed++ {
		p := map[string]vocab.Value{"warmup": vocab.F(6), "duration": vocab.F(6 + duration)}
		for k, v := range rc13SpecHost {
			p[k] = v
		}
		for k, v := range set {
			p[k] = v
		}
		sum += runModel(t, NewTCPBulk(), p, seed).Metrics[tmGoodput].Float()
	}
	return sum / float64(n)
}

// Document 000, Table 3, 80,000 km: why ours is 0.77 Mbit/s where the
// table prints 0.291 (1 Gbit/s) and 0.294 (4 Gbit/s) at PER 1e-3.
//
// Mechanisms: at the printed PER, every TCP behaviour the document could
// have had, NewReno or Reno recovery (RFC 6582 or RFC 5681 3.2), delayed
// ACKs (RFC 1122 4.2.3.2, b = 2 in Padhye et al.) or a 3 s minimum RTO
// (RFC 1122's initial RTO, so that timeouts weigh three times as much),
// gives at least twice the printed goodput: timeouts would need a first
// RTO of some 450 s (TestRC13EightyKmNeeds), and with a 51-segment window
// every loss leaves enough segments behind it for three duplicate ACKs.
//
// Calibration: the loss that makes Mathis et al. give 0.291 Mbit/s on the
// 1 Gbit/s row, p = 1.5 (8 MSS / (RTT 0.291e6))² = 8.96e-3, 9 x the
// printed PER, fitted to that row alone. Checked on rows it was not fitted
// to: on the 4 Gbit/s row it must give the printed 0.294 within the specs'
// 5 % (the document's 1 and 4 Gbit/s rows differ by 1 %, and the mean of
// three 3000 s runs of ours varies by about 2 %); on the 50,000 km row the
// same 9 x (p = 9e-4) must fall more than 5 % short of the printed 1.845,
// which is the loss-free window bound: no single loss factor fits both
// rows, so the factor explains the 80,000 km row only by being fitted to
// it, and the printed PER and goodput of that row cannot both be what the
// document simulated.
//
// Link budget: Table 1 with Eqs. 1-8 (coherent detection, as the table
// says) gives at 80,000 km a 1 Gbit/s BER whose Eq. 8 PER for a 1500-byte
// packet exceeds 0.3 with either constant set, over 30 x the 9e-3 the row
// needs, and a 4 Gbit/s PER of 1 where the table prints the same goodput
// for both rates: the budget cannot supply the missing loss either.
func TestRC13Table3EightyKm(t *testing.T) {
	const d, per, doc1, doc4 = 0.2667, 1e-3, 0.291e6, 0.294e6
	const runs, dur = 3, 3000.0
	base := map[string]vocab.Value{"rate": vocab.F(1e9), "delay": vocab.F(d), "per": vocab.F(per)}
	with := func(k string, v vocab.Value) map[string]vocab.Value {
		m := map[string]vocab.Value{k: v}
		for bk, bv := range base {
			if _, ok := m[bk]; !ok {
				m[bk] = bv
			}
		}
		return m
	}
	mechanisms := []struct {
		name string
		set  map[string]vocab.Value
	}{
		{"NewReno (the specs)", base},
		{"Reno", with("cca", vocab.S("reno"))},
		{"delayed ACKs", with("delayed_ack", vocab.B(true))},
		{"minimum RTO 3 s", with("min_rto", vocab.F(3))},
	}
	for _, m := range mechanisms {
		got := rc13Mean(t, m.set, dur, runs)
		t.Logf("80,000 km, PER 1e-3, %s: %.4g Mbit/s (Table 3: 0.291)", m.name, got/1e6)
		if got < 2*doc1 {
			t.Errorf("%s at PER 1e-3: %.4g Mbit/s, want at least twice Table 3's 0.291", m.name, got/1e6)
		}
	}

	rtt := 2*d + 1540*8/1e9 + 40*8/1e9
	pCal := 1.5 * math.Pow(8*1500/(rtt*doc1), 2) // the calibration, on the 1 Gbit/s row
	got4 := rc13Mean(t, map[string]vocab.Value{"rate": vocab.F(4e9), "delay": vocab.F(d), "per": vocab.F(pCal)}, dur, runs)
	t.Logf("calibrated loss %.4g (%.3g x the printed PER): 4 Gbit/s row %.4g Mbit/s (Table 3: 0.294)", pCal, pCal/per, got4/1e6)
	if math.Abs(got4-doc4)/doc4 > 0.05 {
		t.Errorf("4 Gbit/s, 80,000 km at the calibrated loss %.4g: %.4g Mbit/s, want Table 3's 0.294 within 5 %%", pCal, got4/1e6)
	}
	const d50, per50, doc50 = 0.1667, 1e-4, 1.845e6
	got50 := rc13Mean(t, map[string]vocab.Value{"rate": vocab.F(1e9), "delay": vocab.F(d50), "per": vocab.F(per50 * pCal / per)}, dur, runs)
	t.Logf("50,000 km at %.3g x its PER: %.4g Mbit/s (Table 3: 1.845)", pCal/per, got50/1e6)
	if got50 > 0.95*doc50 {
		t.Errorf("50,000 km at %.3g x its PER: %.4g Mbit/s, want more than 5 %% below Table 3's 1.845 (the factor would then fit both rows)", pCal/per, got50/1e6)
	}

	for _, k := range []phy.Constants{phy.CODATA(), phy.Paper()} {
		for _, rate := range []float64{1e9, 4e9} {
			l := phy.Table1()
			l.Detection, l.Constants = phy.Coherent, k
			b := l.Budget(80000e3, 2*rate)
			p := phy.PERWorst(phy.BEREq7(b.SNR), phy.WireBits(1500))
			t.Logf("link budget, 80,000 km, coherent, %g Gbit/s, h = %g: BER %.3g, Eq. 8 PER %.3g", rate/1e9, k.Planck, phy.BEREq7(b.SNR), p)
			if p < 0.3 || (rate == 4e9 && p != 1) {
				t.Errorf("link budget PER at 80,000 km, %g Gbit/s = %.3g, want above 0.3 (1 at 4 Gbit/s)", rate/1e9, p)
			}
		}
	}
}
