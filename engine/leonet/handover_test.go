package leonet

import (
	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
)

// TestHandoverGap sends a packet from Manila to Dalian every millisecond
// (0.5 ms past each, so none leaves on a step's instant) for 60 s of a
// moving Kuiper shell with 100 ms steps. With a 5 ms handover gap, every
// step at which Manila's uplink satellite changes leaves Manila without a
// next hop for 5 ms: exactly the 5 packets sent then are dropped there,
// and no other packet is dropped at Manila. Packets dropped elsewhere
// (at a new descent satellite during its own gap) are counted apart; with
// no gap, no packet is dropped anywhere. Exact, counts of packets.
func TestHandoverGap(t *testing.T) {
	a, _ := orbit.City("manila")
	b, _ := orbit.City("dalian")
	for _, c := range []struct {
		name string
		gap  des.Duration
	}{{"no gap", 0}, {"5 ms", 5 * des.Millisecond}} {
		t.Run(c.name, func(t *testing.T) {
			fw := kuiper(t, []orbit.Station{a, b}, nil)
			s := des.New()
			net := netsim.New(s, 1)
			ns := fw.Satellites()
			up, changes := -1, 0
			ln, err := New(net, fw, Config{ISLRate: 1e9, GSLRate: 1e9, Interval: 100 * des.Millisecond, HandoverGap: c.gap,
				AfterStep: func(n *Network, now des.Time) error {
					if u := fw.NextHop(ns, 1); u != up {
						if up >= 0 && u >= 0 {
							changes++
						}
						up = u
					}
					return nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			ln.Start()
			rec := &recorder{net: net}
			if err := ln.Station(1).Attach(1, rec); err != nil {
				t.Fatal(err)
			}
			snd := &sender{net: net, from: ln.Station(0), dst: ln.Station(1).ID(), flow: 1, size: 100}
			const n = 60000
			for k := 0; k < n; k++ {
				s.Schedule(des.Time(k)*des.Time(des.Millisecond)+des.Time(500*des.Microsecond), snd, 0, uint64(k))
			}
			if err := s.Run(context.Background(), des.Time(n+100)*des.Time(des.Millisecond)); err != nil {
				t.Fatal(err)
			}
			atSrc := ln.Station(0).Stats().NoRoute
			var elsewhere int64
			for _, nd := range net.Nodes() {
				elsewhere += nd.Stats().NoRoute
			}
			elsewhere -= atSrc
			t.Logf("%d uplink changes; dropped at Manila %d, elsewhere %d; received %d of %d; %d gaps", changes, atSrc, elsewhere, rec.n, n, ln.HandoverGaps())
			want := int64(changes) * int64(c.gap/des.Millisecond)
			if atSrc != want {
				t.Errorf("dropped at Manila %d, want %d (%d uplink changes x %v)", atSrc, want, changes, c.gap)
			}
			if changes == 0 {
				t.Error("no uplink change in 60 s")
			}
			if c.gap == 0 && (elsewhere != 0 || rec.n != n) {
				t.Errorf("without a gap: %d dropped elsewhere, %d of %d received", elsewhere, rec.n, n)
			}
			if rec.n+atSrc+elsewhere != n {
				t.Errorf("received %d + dropped %d + %d != sent %d", rec.n, atSrc, elsewhere, n)
			}
		})
	}
}
