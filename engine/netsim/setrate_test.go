package netsim

import (
	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// TestSetRate queues four 1250-byte packets (10,000 bits) on an idle
// 10 Mbit/s link with no delay and changes the rate while they wait: the
// packet being serialised keeps its end, and each later one takes its
// size over the rate in force when it starts. Expected arrival times are
// sums of 10,000 bits / rate, exact to the nanosecond (the link's integer
// arithmetic; these rates divide 1e13 bit-ns evenly).
func TestSetRate(t *testing.T) {
	cases := []struct {
		name string
		at   des.Time     // when the rate changes
		rate unit.BitRate // the new rate
		want []des.Time   // arrival of each packet, ns
	}{
		{"unchanged", 0, 10e6, []des.Time{1e6, 2e6, 3e6, 4e6}},
		// Mid-way through the first packet: it ends at 1 ms, the rest
		// take 0.5 ms each at 20 Mbit/s.
		{"faster mid-packet", 500e3, 20e6, []des.Time{1e6, 1.5e6, 2e6, 2.5e6}},
		// During the second packet: it ends at 2 ms, the rest take 2 ms
		// each at 5 Mbit/s.
		{"slower mid-packet", 1.2e6, 5e6, []des.Time{1e6, 2e6, 4e6, 6e6}},
		// Exactly at the end of the first packet (the change was
		// scheduled first, so it runs first): the second packet starts
		// at the new rate, 10 ms each at 1 Mbit/s.
		{"at a boundary", 1e6, 1e6, []des.Time{1e6, 11e6, 21e6, 31e6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 10e6})
			src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1250, n: 4}
			src.start(0)
			net.sched.Schedule(c.at, handlerFunc(func(des.Time, int, uint64) {
				if err := l.SetRate(c.rate); err != nil {
					t.Fatal(err)
				}
			}), 0, 0)
			if err := net.sched.Run(context.Background(), des.Time(des.Second)); err != nil {
				t.Fatal(err)
			}
			if len(k.got) != len(c.want) {
				t.Fatalf("%d packets arrived, want %d", len(k.got), len(c.want))
			}
			for i, w := range c.want {
				if k.got[i].At != w {
					t.Errorf("packet %d arrived at %d ns, want %d", i+1, k.got[i].At, w)
				}
			}
			if l.Rate() != c.rate {
				t.Errorf("Rate() = %v, want %v", l.Rate(), c.rate)
			}
		})
	}
}

// TestSetRateRefuses: a rate below 1 bit/s, an infinite link and a netem
// link keep theirs, with an error.
func TestSetRateRefuses(t *testing.T) {
	cases := []struct {
		name string
		cfg  LinkConfig
		rate unit.BitRate
	}{
		{"zero rate", LinkConfig{Rate: 1e6}, 0},
		{"infinitely fast link", LinkConfig{}, 1e6},
		{"netem limit", LinkConfig{Rate: 1e6, NetemLimit: 10}, 2e6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, l, _ := twoNodes(t, 1, c.cfg)
			if err := l.SetRate(c.rate); err == nil {
				t.Errorf("SetRate(%v) on %+v: no error", c.rate, c.cfg)
			}
		})
	}
}
