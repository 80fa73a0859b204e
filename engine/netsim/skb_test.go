package netsim

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// owner counts releases by packet id.
type owner struct {
	released map[uint64]int
	at       map[uint64]des.Time
}

func (o *owner) Release(now des.Time, p *Packet) {
	o.released[p.ID]++
	o.at[p.ID] = now
}

// sendSkbs offers, at time 0, skbs of the given sizes (segments of 1000
// bytes) back to back, each segment owned by o, and returns the ids of
// each skb's segments.
func sendSkbs(net *Network, from *Node, dst NodeID, o Owner, sizes []int) [][]uint64 {
	var ids [][]uint64
	for _, n := range sizes {
		var skb uint64
		var seg []uint64
		for range n {
			p := net.NewPacket()
			p.Flow, p.Dst, p.Size, p.Payload = 1, dst, 1000, 960
			if skb == 0 {
				skb = p.ID
			}
			p.Skb = skb
			p.SetOwner(o)
			seg = append(seg, p.ID)
			from.Send(p)
		}
		ids = append(ids, seg)
	}
	return ids
}

// TestNetemCountsSkbs: netem's limit counts skbs, not segments
// (sch_netem.c, netem_enqueue: sch->q.qlen counts the skbs queued and
// delayed), so a limit of 2 admits two aggregates of 4 segments and drops
// the third whole; a segmented stream of the same 12 packets (no Skb)
// gets 2 packets through.
func TestNetemCountsSkbs(t *testing.T) {
	tests := []struct {
		name      string
		sizes     []int
		delivered int64
		dropped   int64
	}{
		{"three aggregates of 4", []int{4, 4, 4}, 8, 4},
		{"twelve single segments", []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 2, 10},
		{"an aggregate, then singles", []int{6, 1, 1}, 7, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			net, a, b, l, _ := twoNodes(t, 1, LinkConfig{Rate: 1e9, Delay: 10 * des.Millisecond, NetemLimit: 2})
			o := &owner{released: map[uint64]int{}, at: map[uint64]des.Time{}}
			ids := sendSkbs(net, a, b.ID(), o, tt.sizes)
			run(t, net, des.Forever)
			st := l.Stats()
			if st.Delivered != tt.delivered || st.Drops[DropOverflow] != tt.dropped {
				t.Errorf("delivered %d, dropped %d; want %d, %d", st.Delivered, st.Drops[DropOverflow], tt.delivered, tt.dropped)
			}
			// Every segment is released once: on admission by the
			// delaying netem (at time 0) or when dropped and freed.
			for _, seg := range ids {
				for _, id := range seg {
					if o.released[id] != 1 || o.at[id] != 0 {
						t.Errorf("packet %d released %d times, last at %v; want once at 0", id, o.released[id], o.at[id])
					}
				}
			}
		})
	}
}

// TestNetemLosesSkbsWhole: netem's loss_event decides per skb, so with
// loss 0.5 every aggregate of 5 segments is delivered or lost whole, and
// about half of 2,000 aggregates are lost (1,000 +- 3 sigma = 67).
func TestNetemLosesSkbsWhole(t *testing.T) {
	net, a, b, l, k := twoNodes(t, 3, LinkConfig{Rate: 1e9, Delay: des.Millisecond, NetemLimit: 100000, Loss: Bernoulli{P: 0.5}})
	o := &owner{released: map[uint64]int{}, at: map[uint64]des.Time{}}
	sizes := make([]int, 2000)
	for i := range sizes {
		sizes[i] = 5
	}
	ids := sendSkbs(net, a, b.ID(), o, sizes)
	run(t, net, des.Forever)
	got := map[uint64]bool{}
	for _, r := range k.got {
		got[r.ID] = true
	}
	lost := 0
	for _, seg := range ids {
		n := 0
		for _, id := range seg {
			if got[id] {
				n++
			}
		}
		if n != 0 && n != len(seg) {
			t.Fatalf("an aggregate of %d segments lost %d: want all or none", len(seg), len(seg)-n)
		}
		if n == 0 {
			lost++
		}
	}
	if lost < 1000-67 || lost > 1000+67 {
		t.Errorf("%d of 2000 aggregates lost, want 1000 +- 67", lost)
	}
	if d := l.Stats().Drops[DropCorrupt]; d != int64(5*lost) {
		t.Errorf("%d segments counted lost, want %d", d, 5*lost)
	}
}

// TestSkbBatched: a link sends an skb's segments as one unit (HTB
// dequeues the aggregate whole) and delivers them together, after the
// aggregate's transmission time: 4 segments of 1000 bytes at 8 Mbit/s
// arrive together at 4 ms + delay.
func TestSkbBatched(t *testing.T) {
	net, a, b, _, k := twoNodes(t, 1, LinkConfig{Rate: 8e6, Delay: des.Millisecond})
	sendSkbs(net, a, b.ID(), &owner{released: map[uint64]int{}, at: map[uint64]des.Time{}}, []int{4, 1})
	run(t, net, des.Forever)
	want := []des.Time{5e6, 5e6, 5e6, 5e6, 6e6}
	if len(k.got) != len(want) {
		t.Fatalf("%d arrivals, want %d", len(k.got), len(want))
	}
	for i, r := range k.got {
		if r.At != want[i] {
			t.Errorf("segment %d arrived at %v, want %v", i, r.At, want[i])
		}
	}
}
