package tcp

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// sackAck is an ACK the receiver sent: when, and its SACK blocks in
// segment numbers.
type sackAck struct {
	at     des.Time
	blocks [][2]int
}

// sackCompressRig is a receiver (the pair's server) after its handshake
// over a wire of the given one-way delay, fed data segments by hand, with
// every ACK it sends recorded.
type sackCompressRig struct {
	t    *testing.T
	pr   *pair
	iss  seqnum.Value
	una  seqnum.Value
	acks []sackAck
}

const rigMSS = 1000

func newSACKCompressRig(t *testing.T, compress bool, delay des.Duration) *sackCompressRig {
	t.Helper()
	cfg := baseConfig()
	cfg.DelayedACK = true
	cfg.SACKCompression = compress
	pr := newPair(t, cfg, 1e9, delay, newReno)
	g := &sackCompressRig{t: t, pr: pr}
	pr.w.drop = func(dir int, p *netsim.Packet) bool {
		if dir == 1 && pr.server.state == stateEstablished && p.Payload == 0 {
			a := sackAck{at: pr.w.s.Now()}
			for _, b := range p.SACK[:p.NSACK] {
				a.blocks = append(a.blocks, [2]int{g.segOf(b.Left), g.segOf(b.Right)})
			}
			g.acks = append(g.acks, a)
		}
		return false
	}
	pr.client.Connect(0)
	g.run(10 * delay)
	if pr.server.state != stateEstablished {
		t.Fatal("handshake did not complete")
	}
	g.iss, g.una = pr.client.snd.iss, pr.server.snd.nxt
	g.acks = nil
	return g
}

func (g *sackCompressRig) segOf(seq uint32) int {
	return int(seqnum.Value(seq)-g.iss-1) / rigMSS
}

// seg puts data segment i of the stream on the receiver at time at.
func (g *sackCompressRig) seg(at des.Time, i int) { g.skb(at, i, 1, 0) }

// skb puts segments [from, from+n) on the receiver at time at as the
// aggregate id (0: each its own).
func (g *sackCompressRig) skb(at des.Time, from, n int, id uint64) {
	g.pr.w.s.Schedule(at, feed(func(now des.Time) {
		for i := from; i < from+n; i++ {
			p := g.pr.w.pool.Get()
			p.Flow, p.Src, p.Dst = 1, 0, 1
			p.Seq = uint32(g.iss + 1 + seqnum.Value(i*rigMSS))
			p.Ack = uint32(g.una)
			p.Flags = netsim.ACK
			p.Payload = rigMSS
			p.Size = rigMSS + 40
			p.Window = 65535
			p.Skb = id
			g.pr.server.Receive(now, p)
		}
	}), 0, 0)
}

func (g *sackCompressRig) run(until des.Duration) {
	g.t.Helper()
	if err := g.pr.w.s.Run(context.Background(), des.Time(until)); err != nil {
		g.t.Fatal(err)
	}
}

func us(x float64) des.Time { return des.Time(x * float64(des.Microsecond)) }

// TestSACKCompression: a Linux 5.13 receiver holding out-of-order data
// acknowledges the first three segments at one RCV.NXT at once, then holds
// its ACKs (__tcp_ack_snd_check) until the 45th is due (tcp_comp_sack_nr
// 44 held), the timer of min(1 ms, SRTT/20) expires
// (tcp_compressed_ack_kick), a block would fall behind the first two of
// the report (tcp_sack_new_ofo_skb, TCP_SACK_BLOCKS_EXPECTED) or RCV.NXT
// moves. Every count is exact: the segments are put on the receiver by
// hand after a handshake over a 10 ms (SRTT 20 ms: 1 ms timer) or 1 ms
// (SRTT 2 ms: 100 µs timer) path. Without compression every segment out
// of order is acknowledged (RFC 5681 section 4.2).
func TestSACKCompression(t *testing.T) {
	const start = 100 * des.Millisecond
	at := func(x float64) des.Time { return des.Time(start) + us(x) }
	cases := []struct {
		name     string
		compress bool
		gro      bool // the receiver takes aggregates whole (Host.GRO)
		delay    des.Duration
		feed     func(g *sackCompressRig) // segments; 0 and 1 in order first
		until    float64                  // µs after start
		want     []float64                // ACK times, µs after start
		blocks   map[int][][2]int         // SACK blocks of some of them
	}{{
		// Segment 2 lost; 3..59 arrive 10 µs apart from 100 µs. ACKs
		// for 3, 4, 5 at once; 6..49 held (44); 50 sends; 51 held
		// again until its timer, 1 ms later; 52..59 wait with it.
		name: "44 held, then the timer", compress: true, delay: 10 * des.Millisecond,
		feed: func(g *sackCompressRig) {
			for i := 3; i < 60; i++ {
				g.seg(at(100+10*float64(i-3)), i)
			}
		},
		until: 3000,
		want:  []float64{100, 110, 120, 570, 580 + 1000},
	}, {
		name: "without compression each one", compress: false, delay: 10 * des.Millisecond,
		feed: func(g *sackCompressRig) {
			for i := 3; i < 8; i++ {
				g.seg(at(100+10*float64(i-3)), i)
			}
		},
		until: 3000,
		want:  []float64{100, 110, 120, 130, 140},
	}, {
		// SRTT 2 ms: the held ACK of segment 6 goes 100 µs later.
		name: "short RTT: SRTT/20", compress: true, delay: des.Millisecond,
		feed: func(g *sackCompressRig) {
			for i := 3; i < 8; i++ {
				g.seg(at(100+10*float64(i-3)), i)
			}
		},
		until: 3000,
		want:  []float64{100, 110, 120, 130 + 100},
	}, {
		// After three ACKs at once, segment 7 is held; 9 starts a
		// second block, 11 a third behind two: the held ACK goes at
		// once, before 11 joins the report, then 11's is held.
		name: "a third block sends the held ACK", compress: true, delay: 10 * des.Millisecond,
		feed: func(g *sackCompressRig) {
			for i, s := range []int{3, 4, 5, 6, 7, 9, 11} {
				g.seg(at(100+10*float64(i)), s)
			}
		},
		until:  3000,
		want:   []float64{100, 110, 120, 160, 160 + 1000},
		blocks: map[int][][2]int{3: {{9, 10}, {3, 8}}, 4: {{11, 12}, {9, 10}, {3, 8}}},
	}, {
		// The hole filled in part, by one segment: RCV.NXT moves, so
		// three more go at once (the partial fill is the first of
		// them), then the next is held.
		name: "a partial fill restarts the count", compress: true, delay: 10 * des.Millisecond,
		feed: func(g *sackCompressRig) {
			for i, s := range []int{4, 6, 7, 8, 2, 9, 10, 11} {
				g.seg(at(100+10*float64(i)), s)
			}
		},
		until: 3000,
		want:  []float64{100, 110, 120, 140, 150, 160, 170 + 1000},
	}, {
		// GRO: the rule runs once per aggregate. Two-segment skbs beyond
		// the hole at 2: three ACKs at once, then the fourth skb's is
		// held until the timer; the fifth waits with it.
		name: "one decision per aggregate", compress: true, delay: 10 * des.Millisecond, gro: true,
		feed: func(g *sackCompressRig) {
			for i := range 5 {
				g.skb(at(100+10*float64(i)), 3+2*i, 2, uint64(100+i))
			}
		},
		until: 3000,
		want:  []float64{100, 110, 120, 130 + 1000},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newSACKCompressRig(t, c.compress, c.delay)
			if c.gro {
				g.pr.server.SetHost(Host{GRO: true})
			}
			// Segments 0 and 1 in order: quick-ACK mode is off, so they
			// are acknowledged together (the second full frame).
			g.seg(at(0), 0)
			g.seg(at(10), 1)
			g.run(start + des.Duration(us(50)))
			if len(g.acks) != 1 {
				t.Fatalf("%d ACKs of the two in-order segments, want 1", len(g.acks))
			}
			g.acks = nil
			c.feed(g)
			g.run(start + des.Duration(us(c.until)))
			var got []float64
			for _, a := range g.acks {
				got = append(got, float64(a.at-des.Time(start))/float64(des.Microsecond))
			}
			if len(got) != len(c.want) {
				t.Fatalf("ACKs at %v µs, want %v", got, c.want)
			}
			// The handshake's segments take 0.4 µs each way at 1 Gbit/s,
			// so SRTT/20 is 0.04 µs above its nominal value.
			const tol = 0.1
			for i := range got {
				if math.Abs(got[i]-c.want[i]) > tol {
					t.Fatalf("ACKs at %v µs, want %v", got, c.want)
				}
			}
			for i, want := range c.blocks {
				if got := g.acks[i].blocks; !reflect.DeepEqual(got, want) {
					t.Errorf("ACK %d carries SACK blocks %v, want %v", i, got, want)
				}
			}
		})
	}
}
