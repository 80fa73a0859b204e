package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/google/go-cmp/cmp"
)

const ms = des.Millisecond

// codelStep is CoDel's state right after a dequeue that dropped packets.
type codelStep struct {
	At       des.Time // when the drop happened (a dequeue instant)
	Count    int
	DropNext des.Time
	Dropping bool
}

// codelRun drives a CoDel queue in front of an 8 Mbit/s link with
// 1000-byte packets (exactly 1 ms each): a burst of burst packets at t=0,
// then one packet every 1 ms at t = 0.5 ms, 1.5 ms, ..., so that the queue
// standing behind the burst stays constant, plus extra packets at
// extraAt. It returns CoDel's state after every dequeue that dropped, and
// the link.
func codelRun(t *testing.T, cfg CoDel, burst, extra int, extraAt des.Time, until des.Time) ([]codelStep, *Link) {
	t.Helper()
	net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 8e6, Queue: cfg})
	k.keep = false
	cq := l.Queue().(*codelQueue)
	var steps []codelStep
	dropped := false
	net.SetObserver(observerFunc(func(r Record) {
		switch r.Kind {
		case TraceDrop:
			if r.Reason != DropAQM {
				t.Errorf("drop at %v with reason %v, want aqm", r.At, r.Reason)
			}
			dropped = true
		case TraceTransmit:
			// The transmit record follows the Dequeue that dropped.
			if dropped {
				v := cq.v
				steps = append(steps, codelStep{r.At, v.count, v.dropNext, v.dropping})
				dropped = false
			}
		}
	}))
	(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: burst}).start(0)
	n := int(until / des.Time(ms))
	(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: n, gap: ms}).start(des.Time(ms / 2))
	if extra > 0 {
		(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: extra}).start(extraAt)
	}
	run(t, net, until)
	return steps, l
}

// TestCoDelControlLaw follows RFC 8289's state machine on a hand-computed
// case. A burst of 10 packets gives a standing queue whose sojourn time is
// 9.5 ms (the queue empties at the link rate and refills at it). The
// packet dequeued at 5 ms is the first at or above the 5 ms target, so the
// first drop is due one interval later, at 105 ms (RFC 8289 section 5.6).
// Each drop shortens the standing queue by one packet (1 ms); the next
// drops are due at drop_next + 100 ms/sqrt(count) (section 5.5):
// 205 ms, 205 + 70.710678 = 275.710678 ms, + 57.735026 = 333.445704 ms,
// + 50 = 383.445704 ms, each taken at the first dequeue (every whole
// millisecond) at or after it. After the 5th drop the sojourn time is
// 4.5 ms: CoDel leaves the dropping state and drops nothing more.
//
// Three extra packets at 500.25 ms push the sojourn time to 7.5 ms; the
// packet dequeued at 506 ms (5.75 ms) is the first above target, so
// dropping resumes at 606 ms, and since the last episode ended less than
// 16 intervals ago with 4 drops more than it started with, count restarts
// at 4 (section 5.5): next drops at 606 + 50 = 656 ms and at
// 656 + 44.721359 = 700.721359 ms (taken at 701 ms), after which the
// sojourn time is 4.5 ms again. Times are exact to the nanosecond
// (control law truncated to the nanosecond).
func TestCoDelControlLaw(t *testing.T) {
	steps, l := codelRun(t, CoDel{}, 10, 3, des.Time(500*ms+ms/4), des.Time(2000*ms))
	want := []codelStep{
		{105_000_000, 1, 205_000_000, true},
		{205_000_000, 2, 275_710_678, true},
		{276_000_000, 3, 333_445_704, true},
		{334_000_000, 4, 383_445_704, true},
		{384_000_000, 5, 383_445_704, false},
		{606_000_000, 4, 656_000_000, true},
		{656_000_000, 5, 700_721_359, true},
		{701_000_000, 6, 700_721_359, false},
	}
	if diff := cmp.Diff(want, steps); diff != "" {
		t.Errorf("CoDel drops (-want +got):\n%s", diff)
	}
	if got := l.Stats().Drops[DropAQM]; got != int64(len(want)) {
		t.Errorf("aqm drops = %d, want %d", got, len(want))
	}
}

// TestCoDelNoDrop checks the two conditions under which CoDel must not
// drop (RFC 8289 sections 4.2 and 5.6): a standing queue below target, and
// a queue that holds no more than one MTU even when its sojourn time is far
// above target. The last case lowers the MTU to show the second test is
// the one that protects the queue.
func TestCoDelNoDrop(t *testing.T) {
	t.Run("below target", func(t *testing.T) {
		// A 5-packet burst: standing sojourn 4.5 ms < 5 ms for 2 s.
		steps, l := codelRun(t, CoDel{}, 5, 0, 0, des.Time(2000*ms))
		if len(steps) != 0 || l.Stats().Dropped() != 0 {
			t.Errorf("drops = %v, want none", steps)
		}
		if got, want := l.Stats().QueueDelayMax, 4500*des.Microsecond; got != want {
			t.Errorf("max sojourn = %v, want %v", got, want)
		}
	})
	// At 100 kbit/s a 1000-byte packet takes 80 ms. Two packets at t=0
	// and one every 80 ms from 40 ms keep exactly one packet (1000 B)
	// behind the one being dequeued, with a sojourn time of 120 ms.
	for _, tt := range []struct {
		name string
		mtu  unit.Bytes
		drop bool
	}{{"one mtu", 0, false}, {"mtu 500", 500, true}} {
		t.Run(tt.name, func(t *testing.T) {
			net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 1e5, Queue: CoDel{MTU: tt.mtu}})
			k.keep = false
			(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: 2}).start(0)
			(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: 50, gap: 80 * ms}).start(des.Time(40 * ms))
			run(t, net, des.Forever)
			st := l.Stats()
			if got := st.Drops[DropAQM] > 0; got != tt.drop {
				t.Errorf("dropped = %v (%d), want %v; max sojourn %v", got, st.Drops[DropAQM], tt.drop, st.QueueDelayMax)
			}
			if st.QueueDelayMax < 100*ms && !tt.drop {
				t.Errorf("max sojourn %v: the case does not exercise the MTU rule", st.QueueDelayMax)
			}
		})
	}
}

// TestCoDelLimit checks the hard limit: with 4 packets queued behind the
// transmitter, further arrivals are tail-dropped as overflow.
func TestCoDelLimit(t *testing.T) {
	net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 8e6, Queue: CoDel{Limit: 4}})
	(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: 10}).start(0)
	run(t, net, des.Forever)
	st := l.Stats()
	if got, want := st.Drops[DropOverflow], int64(5); got != want {
		t.Errorf("overflow drops = %d, want %d", got, want)
	}
	if got, want := len(k.got), 5; got != want {
		t.Errorf("delivered = %d, want %d", got, want)
	}
}

// TestControlLaw checks interval/sqrt(count) to the nanosecond against
// values computed by hand (100 ms / sqrt(n), truncated).
func TestControlLaw(t *testing.T) {
	for _, tt := range []struct {
		count int
		want  des.Duration
	}{{1, 100_000_000}, {2, 70_710_678}, {3, 57_735_026}, {4, 50_000_000}, {5, 44_721_359}, {100, 10_000_000}} {
		if got := controlLaw(1000, 100*ms, tt.count).Sub(1000); got != tt.want {
			t.Errorf("controlLaw(count %d) - t = %d, want %d", tt.count, got, tt.want)
		}
	}
}
