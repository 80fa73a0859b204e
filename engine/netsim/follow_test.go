package netsim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// traceEvent is one observer record, by value.
type traceEvent struct {
	At     des.Time
	Kind   TraceKind
	Link   string
	ID     uint64
	Reason DropReason
}

// recordInto returns an observer that appends every record to got.
func recordInto(got *[]traceEvent) Observer {
	return observerFunc(func(x Record) {
		e := traceEvent{At: x.At, Kind: x.Kind, ID: x.Packet.ID, Reason: x.Reason}
		if x.Link != nil {
			e.Link = x.Link.Name()
		}
		*got = append(*got, e)
	})
}

// TestFollowersMatchQueuedEnds runs the differential test's dumbbells with
// ends of transmission following arrivals (follow.go) and with every end
// queued, and requires the same run: with an observer (every link eager),
// the same trace record by record (every enqueue, transmission, delivery
// and drop, in order, at the same nanosecond); without one (links lazy
// or drawing arrivals early where they can), the same deliveries, link
// statistics, Network.Events and same-instant orders taken by default;
// and the followers plus the queued events equal the events of the run
// without followers. The cases put access links at the bottleneck's rate
// and without delay, as tcp-compete's hosts, where the receivers' access
// links end a transmission as the next packet arrives, and draw the rest
// at random from rates that often agree.
func TestFollowersMatchQueuedEnds(t *testing.T) {
	ms := des.Millisecond
	tests := []lazyCase{
		{name: "receivers' access at the bottleneck's rate", access: 100e6, bottle: 100e6, botDelay: 10 * ms, queue: DropTail{Packets: 20},
			flows: 4, window: 30, gap: 200 * des.Microsecond},
		{name: "with skbs", access: 100e6, bottle: 100e6, botDelay: 10 * ms, queue: DropTail{Packets: 20},
			skb: true, flows: 4, window: 30, gap: 200 * des.Microsecond},
		{name: "with jitter and loss", access: 1e9, bottle: 1e9, botDelay: 5 * ms, queue: DropTail{Packets: 30},
			jitter: 12 * des.Microsecond, loss: 0.01, flows: 6, window: 40, gap: 50 * des.Microsecond},
		{name: "access with a short delay", access: 10e6, bottle: 10e6, accDelay: des.Microsecond, botDelay: 4 * ms, queue: DropTail{Packets: 20},
			flows: 6, window: 30, gap: 1200 * des.Microsecond},
		{name: "netem limits", access: 100e6, bottle: 100e6, botDelay: 10 * ms, queue: DropTail{Packets: 1000},
			netem: 40, accNetem: 100, flows: 4, window: 40, gap: 200 * des.Microsecond},
	}
	rng := rand.New(rand.NewPCG(26, 8985))
	rates := []unit.BitRate{10e6, 100e6, 100e6, 1e9}
	delays := []des.Duration{0, 0, des.Microsecond, 5 * ms}
	for i := range 16 {
		r := rates[rng.IntN(len(rates))]
		tc := lazyCase{
			name: fmt.Sprint("random ", i), access: r, bottle: r, accDelay: delays[rng.IntN(len(delays))], botDelay: delays[1+rng.IntN(len(delays)-1)],
			queue: DropTail{Packets: 1 + rng.IntN(60)}, flows: 1 + rng.IntN(6), window: 1 + rng.IntN(40),
			gap: des.Duration(1+rng.IntN(2000)) * des.Microsecond, skb: rng.IntN(3) == 0,
		}
		if rng.IntN(3) == 0 {
			tc.bottle = rates[rng.IntN(len(rates))]
		}
		if rng.IntN(2) == 0 {
			tc.jitter = des.Duration(rng.IntN(200)) * des.Microsecond
		}
		if rng.IntN(2) == 0 {
			tc.loss = []float64{0.001, 0.01, 0.1}[rng.IntN(3)]
		}
		tests = append(tests, tc)
	}
	var followed uint64
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dur := des.Second / 2
			for _, observed := range []bool{true, false} {
				var obs [2][]traceEvent
				var runs [2]lazyRun
				var counts [2]lazyCounts
				for i, noFollow := range []bool{true, false} {
					var o Observer
					if observed {
						o = recordInto(&obs[i])
					}
					runs[i], counts[i] = runLazyCase(t, tc, dur, lazyMove{}, o, noFollow)
				}
				queued, follow := counts[0], counts[1]
				if observed && !slices.Equal(obs[0], obs[1]) {
					k := 0
					for k < min(len(obs[0]), len(obs[1])) && obs[0][k] == obs[1][k] {
						k++
					}
					t.Fatalf("observed: traces differ at record %d of %d/%d", k, len(obs[0]), len(obs[1]))
				}
				if diff := cmp.Diff(runs[0], runs[1]); diff != "" {
					t.Errorf("observed %v: runs differ (-queued +followers):\n%s", observed, diff)
				}
				if queued.followed != 0 || follow.processed+follow.followed != queued.processed {
					t.Errorf("observed %v: queued run %d events and %d followers, run with followers %d and %d",
						observed, queued.processed, queued.followed, follow.processed, follow.followed)
				}
				if follow.ties != queued.ties {
					t.Errorf("observed %v: same-instant orders taken by default: %d with followers, %d without", observed, follow.ties, queued.ties)
				}
				followed += follow.followed
				t.Logf("observed %v: %d events queued, %d of them followers with follow.go", observed, queued.processed, follow.followed)
			}
		})
	}
	if tests[0].access == tests[0].bottle && followed == 0 {
		t.Error("no end of transmission followed an arrival in any case")
	}
}

// TestNoFollowerOfAnArrivalThatRan: an end of transmission due at the
// instant of an arrival event that has already run (Run stopped at that
// instant, and a packet is sent between the two Runs over an infinitely
// fast link) is queued, not attached to the event that ran: the packet
// is delivered, and a later arrival of the first link runs no stale
// follower.
func TestNoFollowerOfAnArrivalThatRan(t *testing.T) {
	for _, again := range []bool{false, true} {
		var got [2][]arrival
		for i, noFollow := range []bool{true, false} {
			s := des.New()
			net := New(s, 1)
			net.noFollow = noFollow
			a, b, x, c := net.AddNode("a"), net.AddNode("b"), net.AddNode("x"), net.AddNode("c")
			if _, err := net.Connect(a, b, LinkConfig{Rate: 1e9, Delay: des.Microsecond}); err != nil {
				t.Fatal(err)
			}
			if _, err := net.Connect(x, c, LinkConfig{}); err != nil { // infinitely fast, no delay
				t.Fatal(err)
			}
			net.ComputeRoutes()
			kb, kc := &sink{net: net, keep: true}, &sink{net: net, keep: true}
			if err := b.Attach(1, kb); err != nil {
				t.Fatal(err)
			}
			if err := c.Attach(2, kc); err != nil {
				t.Fatal(err)
			}
			send := func(from *Node, dst NodeID, f FlowID) {
				p := net.NewPacket()
				p.Flow, p.Dst, p.Size, p.Payload = f, dst, 1500, 1500
				from.Send(p)
			}
			send(a, b.ID(), 1) // ends at 12 us, arrives at 13 us
			if err := s.Run(context.Background(), 13*des.Time(des.Microsecond)); err != nil {
				t.Fatal(err)
			}
			send(x, c.ID(), 2) // at 13 us, the instant of the arrival that ran
			if again {
				send(a, b.ID(), 1) // a's next arrival event
			}
			if err := s.Run(context.Background(), des.Forever); err != nil {
				t.Fatal(err)
			}
			if len(kc.got) != 1 || s.Pending() != 0 {
				t.Errorf("again %v, noFollow %v: c got %d packets, %d events pending; want 1 and 0", again, noFollow, len(kc.got), s.Pending())
			}
			got[i] = append(kb.got, kc.got...)
		}
		if diff := cmp.Diff(got[0], got[1]); diff != "" {
			t.Errorf("again %v: deliveries (-queued +followers):\n%s", again, diff)
		}
	}
}
