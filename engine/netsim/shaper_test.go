package netsim

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// TestShaperReleaseTimes checks a shaper link's arrivals against HTB's
// rules worked by hand (sch_htb.c: a class sends while its tokens are not
// negative, htb_class_mode; each skb's length at the rate is charged to
// them, htb_charge_class; they refill at the rate up to the bucket). At
// 100 Mbit/s a 1500-byte packet takes 120 us and a 1600-byte bucket 128
// us; the delay is 10 ms.
func TestShaperReleaseTimes(t *testing.T) {
	const us = des.Microsecond
	ms10 := des.Time(10 * des.Millisecond)
	at := func(d des.Duration) des.Time { return ms10.Add(d) }
	tests := []struct {
		name  string
		burst unit.Bytes
		gap   des.Duration // between the packets' sends; 0: all at once
		n     int
		want  []des.Time
	}{
		{
			// Full bucket: 128 us of credit. The first packet leaves
			// (8 us left), so does the second (-112 us); the third
			// waits until the bucket is back to 0.
			name: "burst 1600, three at once", burst: 1600, n: 3,
			want: []des.Time{at(0), at(0), at(112 * us)},
		},
		{
			// No bucket: one packet per 120 us, each at the start of
			// its transmission time, 120 us ahead of a transmitter.
			name: "burst 0, three at once", burst: 0, n: 3,
			want: []des.Time{at(0), at(120 * us), at(240 * us)},
		},
		{
			// 15000 bytes (1200 us): ten packets leave at once (1200 us
			// of charges leave the tokens at 0), the eleventh too (a
			// class at exactly 0 sends), the twelfth 120 us later.
			name: "burst 15000, twelve at once", burst: 15000, n: 12,
			want: []des.Time{at(0), at(0), at(0), at(0), at(0), at(0), at(0), at(0), at(0), at(0), at(0), at(120 * us)},
		},
		{
			// Packets 100 us apart, slower than the 120 us each takes:
			// the bucket drains 20 us per packet from 128 us, so the
			// first seven leave as they come (128 - 7x20 = -12 after
			// the seventh), and the eighth waits 12 us.
			name: "burst 1600, paced faster than the rate", burst: 1600, gap: 100 * us, n: 8,
			want: []des.Time{at(0), at(100 * us), at(200 * us), at(300 * us), at(400 * us), at(500 * us), at(600 * us), at(712 * us)},
		},
		{
			// 200 us apart, slower than the rate: the bucket refills
			// between packets and none waits.
			name: "burst 1600, paced slower than the rate", burst: 1600, gap: 200 * us, n: 4,
			want: []des.Time{at(0), at(200 * us), at(400 * us), at(600 * us)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 100e6, Delay: 10 * des.Millisecond, Shaper: true, Burst: tc.burst})
			src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, gap: tc.gap, n: tc.n}
			src.start(0)
			run(t, net, des.Time(des.Second))
			if len(k.got) != len(tc.want) {
				t.Fatalf("%d arrivals, want %d", len(k.got), len(tc.want))
			}
			for i, g := range k.got {
				if g.At != tc.want[i] || g.Seq != uint32(i+1) {
					t.Errorf("packet %d (seq %d) arrived at %v, want %v", i+1, g.Seq, g.At, tc.want[i])
				}
			}
			if st := l.Stats(); st.Delivered != int64(tc.n) {
				t.Errorf("delivered %d, want %d", st.Delivered, tc.n)
			}
		})
	}
}

// TestShaperLongRunRate checks that a backlogged shaper releases packets
// at exactly its rate over a long busy period, whatever its bucket: the
// last of n packets sent at once leaves when the bucket has paid for the
// n-1 before it, (n-1) x 120 us less the bucket's 128 us.
func TestShaperLongRunRate(t *testing.T) {
	const n = 100000
	net, a, b, _, k := twoNodes(t, 1, LinkConfig{Rate: 100e6, Shaper: true, Burst: 1600})
	k.keep = true
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, n: n}
	src.start(0)
	run(t, net, des.Time(60*des.Second))
	want := des.Time((n-1)*120*des.Microsecond - 128*des.Microsecond)
	if got := k.got[len(k.got)-1].At; got != want {
		t.Errorf("last packet at %v, want %v", got, want)
	}
}

// TestShaperConfigErrors checks that a burst needs a shaper and a shaper
// a rate.
func TestShaperConfigErrors(t *testing.T) {
	for _, cfg := range []LinkConfig{
		{Rate: 100e6, Burst: 1600},
		{Shaper: true, Burst: 1600},
		{Rate: 100e6, Shaper: true, Burst: -1},
	} {
		net := New(des.New(), 1)
		if _, err := net.Connect(net.AddNode("a"), net.AddNode("b"), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
