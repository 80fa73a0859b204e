package netsim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// TestDeferredArrivalsMatchEager is the differential test of deferred
// arrivals (defer.go) over dumbbells whose routers can take the
// bottleneck's arrivals without events: access links lazy for a whole
// skb (a 64 KiB skb takes less than their delay). Against the eager
// network, with every arrival an event, the receivers must get the same
// packets at the same instants and every link must count the same; the
// cases that keep the deferral to the end must hand packets on late,
// and those that end it (skbs, delays that move, an observer installed
// during the run) must still match.
func TestDeferredArrivalsMatchEager(t *testing.T) {
	ms := des.Millisecond
	tests := []struct {
		tc lazyCase
		mv lazyMove
		// atEnd is how many links are still deferred at the end: both
		// bottleneck directions, or the reverse only where the
		// senders send skbs, or none where the delays move.
		atEnd int
	}{
		// The probe's dumbbell, scaled down: 10 Gbit/s access links of
		// 1 ms, a 1 Gbit/s bottleneck of 25 ms.
		{tc: lazyCase{name: "probe", access: 10e9, bottle: 1e9, accDelay: ms, botDelay: 25 * ms, queue: DropTail{Packets: 100},
			flows: 10, window: 60, gap: 100 * des.Microsecond, lazy: true}, atEnd: 2},
		{tc: lazyCase{name: "lossy bottleneck", access: 10e9, bottle: 1e9, accDelay: ms, botDelay: 5 * ms, queue: DropTail{Packets: 30},
			loss: 0.01, flows: 6, window: 40, gap: 50 * des.Microsecond, lazy: true}, atEnd: 2},
		{tc: lazyCase{name: "odd rates, byte limit", access: 777_777_777, bottle: 33_333_333, accDelay: 1500 * des.Microsecond, botDelay: 7 * ms,
			queue: DropTail{Bytes: 30_000}, loss: 0.002, flows: 5, window: 15, gap: 3 * ms, lazy: true}, atEnd: 2},
		// Access links as fast as the bottleneck: the router's next
		// link ends a transmission as the next packet arrives.
		{tc: lazyCase{name: "lockstep 1G/1G", access: 1e9, bottle: 1e9, accDelay: 2 * ms, botDelay: 5 * ms, queue: DropTail{Packets: 20},
			flows: 4, window: 30, gap: 20 * des.Microsecond, lazy: true}, atEnd: 2},
		// Idle spells: few packets, far apart.
		{tc: lazyCase{name: "sparse", access: 10e9, bottle: 100e6, accDelay: 3 * ms, botDelay: 11 * ms, queue: DropTail{Packets: 5},
			flows: 2, window: 1, gap: 7 * ms, lazy: true}, atEnd: 2},
		{tc: lazyCase{name: "skbs end it", access: 10e9, bottle: 1e9, accDelay: ms, botDelay: 5 * ms, queue: DropTail{Packets: 30},
			skb: true, flows: 6, window: 40, gap: 50 * des.Microsecond, lazy: true}, atEnd: 1},
		{tc: lazyCase{name: "moving delays end it", access: 10e9, bottle: 1e9, accDelay: ms, botDelay: 5 * ms, queue: DropTail{Packets: 30},
			flows: 6, window: 40, gap: 50 * des.Microsecond}, mv: lazyMove{move: 300 * ms, minMove: 2 * ms, maxMove: 9 * ms}},
	}
	for _, c := range tests {
		t.Run(c.tc.name, func(t *testing.T) {
			checkLazy(t, c.tc, des.Second, c.mv)
			_, n := runLazyCase(t, c.tc, des.Second, c.mv, nil, false)
			if n.deferred != c.atEnd || n.handed == 0 {
				t.Errorf("%d links deferred at the end, %d packets handed on late: want %d and some", n.deferred, n.handed, c.atEnd)
			}
		})
	}
	rng := rand.New(rand.NewPCG(57, 8985))
	access := []struct {
		rate  unit.BitRate
		delay des.Duration
	}{{1e9, des.Millisecond}, {1e9, 3 * ms}, {10e9, 100 * des.Microsecond}, {10e9, des.Millisecond}, {100e6, 6 * ms}, {2_488_320_000, 1700 * des.Microsecond}}
	rates := []unit.BitRate{10e6, 33_333_333, 100e6, 1e9, 10e9}
	delays := []des.Duration{100 * des.Microsecond, 1500 * des.Microsecond, 5 * ms, 25 * ms}
	for i := range 32 {
		a := access[rng.IntN(len(access))]
		tc := lazyCase{
			name: fmt.Sprint("random ", i), access: a.rate, accDelay: a.delay,
			bottle: rates[rng.IntN(len(rates))], botDelay: delays[rng.IntN(len(delays))],
			queue: DropTail{Packets: 1 + rng.IntN(60)}, flows: 1 + rng.IntN(8), window: 1 + rng.IntN(40),
			gap: des.Duration(1+rng.IntN(2000)) * des.Microsecond,
		}
		if rng.IntN(2) == 0 {
			tc.loss = []float64{0.001, 0.01, 0.1}[rng.IntN(3)]
		}
		t.Run(tc.name, func(t *testing.T) {
			checkLazy(t, tc, des.Second/2)
			// With every link lazy, both routers defer.
			if r, n := runLazyCase(t, tc, des.Second/2, lazyMove{}, nil, false); n.lazy == len(r.Links) && (n.deferred != 2 || n.handed == 0) {
				t.Errorf("every link lazy, %d deferred, %d packets handed on late: want 2 and some", n.deferred, n.handed)
			}
		})
	}
}

// TestDeferredArrivalsObserverEndsIt installs an observer halfway
// through a run with deferred arrivals: the packets due are handed on,
// the rest arrive with events, and the run matches the eager one (whose
// observer is there from the start; the event that installs it runs in
// both).
func TestDeferredArrivalsObserverEndsIt(t *testing.T) {
	tc := lazyCase{name: "probe", access: 10e9, bottle: 1e9, accDelay: des.Millisecond, botDelay: 5 * des.Millisecond,
		queue: DropTail{Packets: 30}, flows: 6, window: 40, gap: 50 * des.Microsecond}
	mv := lazyMove{observeAt: 400 * des.Millisecond}
	checkLazy(t, tc, des.Second, mv)
	if _, n := runLazyCase(t, tc, des.Second, mv, nil, false); n.deferred != 0 || n.handed == 0 {
		t.Fatalf("%d links deferred at the end, %d packets handed on late: want none and some", n.deferred, n.handed)
	}
}

// TestDeferredArrivalsSaveEvents checks on the probe's dumbbell that the
// deferral does away with the bottleneck's
// arrival events: each packet, data or ACK, crosses three links and so
// takes three arrival events, of which the deferral leaves two. The
// scheduler must run at most 0.7 of the events it runs without (2/3,
// plus the pull events and ends of transmission that remain; a packet
// the bottleneck drops takes one arrival event either way).
func TestDeferredArrivalsSaveEvents(t *testing.T) {
	tc := lazyCase{name: "probe", access: 10e9, bottle: 1e9, accDelay: des.Millisecond, botDelay: 25 * des.Millisecond,
		queue: DropTail{Packets: 1000}, flows: 10, window: 40, gap: des.Second}
	var events [2]uint64
	for i, noDefer := range []bool{false, true} {
		_, n := runLazyCase(t, tc, des.Second, lazyMove{noDefer: noDefer}, nil, false)
		events[i] = n.processed
	}
	ratio := float64(events[0]) / float64(events[1])
	t.Logf("events: %d deferred, %d not: %.3f", events[0], events[1], ratio)
	if ratio > 0.7 {
		t.Errorf("deferral runs %.3f of the events, want at most 0.7", ratio)
	}
}
