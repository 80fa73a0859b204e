package cc_test

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// One flow of each algorithm through a clean 100 Mbit/s, 10 ms one-way
// bottleneck with a BDP-sized buffer (170 packets) delivers at least 90 %
// of the link's payload rate (100 Mbit/s * 1460/1500) over 10-20 s: the
// acceptance criterion of this package's delay- and model-based
// controllers (Cardwell et al. 2016 report full utilisation for BBR;
// Brakmo and Peterson 1995 section 4 for Vegas).
func TestThroughputCleanPath(t *testing.T) {
	for _, name := range []string{"vegas", "bbr", "bbr2"} {
		t.Run(name, func(t *testing.T) {
			f := newFlow(t, link{rate: 100e6, delay: 10 * des.Millisecond, queue: 170}, mustNew(t, name, 3))
			f.run(t, des.Time(10*des.Second))
			got0 := f.app.got
			f.run(t, des.Time(20*des.Second))
			rate := float64(f.app.got-got0) * 8 / 10
			want := 0.9 * 100e6 * mss / wireMSS
			if rate < want {
				t.Errorf("goodput = %.2f Mbit/s, want >= %.2f", rate/1e6, want/1e6)
			}
			t.Logf("goodput %.2f Mbit/s, drops %d", rate/1e6, f.fwd().Stats().Dropped())
		})
	}
}

// BBRv2 bounds inflight when random loss exceeds its 2 % threshold
// (tcp_bbr2.c bbr_loss_thresh; draft-cardwell-iccrg-bbr-congestion-control-02
// section 5.5.10.2), while BBR v1, which has no loss signal beyond
// recovery, keeps its rate (Cardwell et al. 2016: BBR holds its throughput
// under random loss up to about 15 %; Cardwell et al., "BBR v2", IETF 104
// ICCRG, 2019: v2 keeps v1's throughput below its loss threshold and backs
// off above it). Path: 10 Mbit/s, 20 ms one way, 1000-packet buffer,
// Bernoulli loss on the data direction, 20 s. Tolerances: v1 keeps >= 85 %
// of the payload rate at 1 % and 3 % loss (it loses the dropped packets
// and recovery rounds); below the threshold (1 %) v2 stays within 10 % of
// v1; above it (3 %) v2 has set inflight_hi and sends less than v1, at
// most 95 %. The sources give the shape, not a ratio; measured: v2/v1 =
// 0.99 at 1 %, 0.93 at 3 % with the alpha's recovery (no packet
// conservation) and its ACK-aggregation allowance (0.94 and 0.80 before,
// with v1's conservation applied to v2). At 3 % Bernoulli loss about a
// third of the rate samples of a 34-packet flight lose nothing, and
// bbr2_adapt_upper_bounds raises inflight_hi to their tx_in_flight in
// any phase ("to be resilient to random loss"), so inflight_hi does not
// bind; inflight_lo's 0.7 cuts, floored at the round's delivery, do.
func TestBBR2BoundsInflightUnderLoss(t *testing.T) {
	const dur = 20 * des.Second
	payload := 10e6 / 8 * mss / wireMSS
	run := func(c cc.Controller, loss float64) float64 {
		f := newFlow(t, link{rate: 10e6, delay: 20 * des.Millisecond, queue: 1000, loss: loss, seed: 11}, c)
		f.run(t, des.Time(dur))
		return float64(f.app.got) / dur.Seconds()
	}
	for _, loss := range []float64{0.01, 0.03} {
		v1 := run(cc.NewBBR(1), loss)
		if v1 < 0.85*payload {
			t.Errorf("bbr at %.0f %% loss: %.0f B/s, want >= 85 %% of %.0f", loss*100, v1, payload)
		}
		b2 := cc.NewBBR2(1)
		v2 := run(b2, loss)
		t.Logf("loss %.0f %%: bbr %.2f Mbit/s, bbr2 %.2f Mbit/s (%.2f), inflight_hi %.0f, inflight_lo %.0f", loss*100, v1*8/1e6, v2*8/1e6, v2/v1, b2.InflightHi(), b2.InflightLo())
		if loss < 0.02 {
			if v2 < 0.9*v1 {
				t.Errorf("bbr2 at %.0f %% loss sends %.0f B/s, want >= 90 %% of bbr's %.0f (below the loss threshold)", loss*100, v2, v1)
			}
			continue
		}
		if math.IsInf(b2.InflightHi(), 1) {
			t.Errorf("bbr2 at %.0f %% loss: inflight_hi unset, want a bound", loss*100)
		}
		if v2 > 0.95*v1 {
			t.Errorf("bbr2 at %.0f %% loss sends %.0f B/s, want <= 95 %% of bbr's %.0f", loss*100, v2, v1)
		}
	}
}
