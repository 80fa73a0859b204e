package models

import (
	"context"
	"runtime"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TestLEONetworkMemoryEstimate runs the benchmark's load (100 TCP flows
// among Hypatia's 100 cities, 10 Mbit/s links with 100-packet queues) for
// 4 s over Kuiper K1 and Starlink S1, with the links and samples tables
// every 0.5 s, reads the live heap after a
// collection every simulated half second, and requires the estimate's
// live parts (lnMemory, what Memory adds the runtime to) within a factor
// 2 of the largest reading, either way: the tolerance the estimate is
// asked for, and an estimate of what a refusal protects against, not a
// budget. It also checks the estimate's rate of path changes
// (lnPathChangeRate) against the rate the runs show. The test is not
// parallel: a parallel test's heap would count.
func TestLEONetworkMemoryEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 4 s of two constellations")
	}
	live := func() int64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	for _, shell := range []string{"kuiper-k1", "starlink-s1"} {
		t.Run(shell, func(t *testing.T) {
			const dur = 4.0
			p := NewLEONetwork().Schema().Defaults()
			for k, v := range map[string]vocab.Value{
				"shells": vocab.S(shell), "stations": vocab.S("hypatia-100"), "traffic": vocab.S("random:100"),
				"tcp_flows": vocab.I(1), "duration": vocab.F(dur), "sample_interval": vocab.F(0.5),
			} {
				p = p.With(k, v)
			}
			base := live()
			c, pairs, err := decodeLN(p, 1)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := buildLN(c, pairs, 1)
			if err != nil {
				t.Fatal(err)
			}
			sc.start()
			peak := live() - base
			for s := 0.5; s <= dur; s += 0.5 {
				if err := sc.s.Run(context.Background(), des.Time(des.FromSeconds(s))); err != nil {
					t.Fatal(err)
				}
				peak = max(peak, live()-base)
			}
			est := lnMemory(c, len(pairs))
			ratio := float64(est.live()) / float64(peak)
			t.Logf("estimated live data %.1f MB (%s), largest live heap %.1f MB: %.2fx", float64(est.live())/1e6, est, float64(peak)/1e6, ratio)
			if ratio < 0.5 || ratio > 2 {
				t.Errorf("estimate %.1f MB is %.2fx the live heap %.1f MB, want within a factor 2", float64(est.live())/1e6, ratio, float64(peak)/1e6)
			}
			changes := 0
			for i := range sc.pairs {
				changes += int(sc.pairs[i].changes)
			}
			if rate := float64(changes) / float64(len(sc.pairs)) / dur; rate > lnPathChangeRate {
				t.Errorf("paths changed %.3f times per pair and second, more than the estimate's %.2f", rate, lnPathChangeRate)
			} else {
				t.Logf("paths changed %.3f times per pair and second (the estimate takes %.2f)", rate, lnPathChangeRate)
			}
			runtime.KeepAlive(sc)
		})
	}
}
