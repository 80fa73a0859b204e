package models

import (
	"context"
	"runtime"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TestLEONetworkMemoryEstimate runs the benchmark's load (100 TCP flows
// among Hypatia's 100 cities, 10 Mbit/s links with 100-packet queues, no
// sampled tables) for 4 s over Kuiper K1 and Starlink S1, reads the live
// heap after a collection every simulated half second, and requires the
// estimate's live parts (lnMemory, what Memory adds the runtime to)
// within a factor 2 of the largest reading, either way: the tolerance the
// estimate is asked for, and an estimate of what a refusal protects
// against, not a budget. The same load with both sampled tables every
// 0.5 s checks the table rows the estimate takes: as many samples rows
// exactly, and for the paths and links tables no fewer rows than the run
// writes, and at most 6 times as many: they are upper figures, not fits
// (the paths' change rate, lnPathChangeRate, leaves 3x over the highest
// rate measured; the busy links leave out that pairs share links, which
// here makes about 4x to 5x), and 6x flags one that drifted further.
// The test is not parallel: a parallel test's heap would count.
func TestLEONetworkMemoryEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 4 s of two constellations twice")
	}
	live := func() int64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	const dur = 4.0
	params := func(shell string, sample float64) vocab.Params {
		p := NewLEONetwork().Schema().Defaults()
		for k, v := range map[string]vocab.Value{
			"shells": vocab.S(shell), "stations": vocab.S("hypatia-100"), "traffic": vocab.S("random:100"),
			"tcp_flows": vocab.I(1), "duration": vocab.F(dur), "sample_interval": vocab.F(sample),
		} {
			p = p.With(k, v)
		}
		return p
	}
	for _, shell := range []string{"kuiper-k1", "starlink-s1"} {
		t.Run(shell, func(t *testing.T) {
			base := live()
			c, pairs, err := decodeLN(params(shell, 0), 1)
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
			runtime.KeepAlive(sc)

			p := params(shell, 0.5)
			r, err := NewLEONetwork().Run(context.Background(), p, 1)
			if err != nil {
				t.Fatal(err)
			}
			c, pairs, _ = decodeLN(p, 1)
			est = lnMemory(c, len(pairs))
			if got, want := len(r.Tables[3]), int(dur/0.5)*len(pairs); got != want {
				t.Errorf("%d samples rows, want %d (intervals x pairs)", got, want)
			}
			for _, tb := range []struct {
				name string
				rows int
				est  float64
			}{{"paths", len(r.Tables[2]), est.pathRows}, {"links", len(r.Tables[1]), est.linkRows}} {
				t.Logf("%s table: %d rows, estimated %.0f (%.2fx)", tb.name, tb.rows, tb.est, tb.est/float64(tb.rows))
				if tb.est < float64(tb.rows) || tb.est > 6*float64(tb.rows) {
					t.Errorf("%s table: %d rows, estimated %.0f: want from 1 to 6 times as many", tb.name, tb.rows, tb.est)
				}
			}
		})
	}
}
