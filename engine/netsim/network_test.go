package netsim

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/google/go-cmp/cmp"
)

// lossPattern returns the Seqs of the packets link "x" lost, with or
// without another lossy link "y" created before it and carrying traffic.
func lossPattern(t *testing.T, seed uint64, extra bool) []uint32 {
	t.Helper()
	net := New(des.New(), seed)
	a, b := net.AddNode("a"), net.AddNode("b")
	if extra {
		c := net.AddNode("c")
		if _, err := net.Connect(a, c, LinkConfig{Name: "y", Rate: 1e6, Loss: Bernoulli{P: 0.3}}); err != nil {
			t.Fatal(err)
		}
		net.ComputeRoutes()
		src := &source{net: net, from: a, dst: c.ID(), flow: 2, size: 500, n: 300, gap: 100 * des.Microsecond}
		src.start(0)
	}
	if _, err := net.Connect(a, b, LinkConfig{Name: "x", Rate: 1e6, Loss: Bernoulli{P: 0.1}}); err != nil {
		t.Fatal(err)
	}
	net.ComputeRoutes()
	var lost []uint32
	net.SetObserver(observerFunc(func(r Record) {
		if r.Kind == TraceDrop && r.Link != nil && r.Link.Name() == "x" {
			lost = append(lost, r.Packet.Seq)
		}
	}))
	k := &sink{net: net}
	if err := b.Attach(1, k); err != nil {
		t.Fatal(err)
	}
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: 500, gap: 37 * des.Microsecond}
	src.start(5)
	run(t, net, des.Forever)
	return lost
}

type observerFunc func(Record)

func (f observerFunc) Observe(r Record) { f(r) }

func TestIndependentStreams(t *testing.T) {
	alone := lossPattern(t, 99, false)
	with := lossPattern(t, 99, true)
	if len(alone) < 20 {
		t.Fatalf("only %d losses at P=0.1 over 500 packets: test is not sensitive", len(alone))
	}
	if diff := cmp.Diff(alone, with); diff != "" {
		t.Errorf("link x's losses changed when link y was added (-alone +with):\n%s", diff)
	}
	if other := lossPattern(t, 100, false); cmp.Equal(alone, other) {
		t.Errorf("seeds 99 and 100 gave the same loss pattern")
	}
}

// traceHash runs a lossy dumbbell with traffic both ways and hashes every
// trace record.
func traceHash(t *testing.T, seed uint64) (uint64, int) {
	t.Helper()
	net := New(des.New(), seed)
	access := Hop{Forward: LinkConfig{Rate: 100e6, Delay: des.Millisecond}, Reverse: LinkConfig{Rate: 100e6, Delay: des.Millisecond}}
	d, err := NewDumbbell(net, DumbbellConfig{
		N: 3, SenderAccess: access, ReceiverAccess: access,
		Bottleneck: Hop{
			Forward: LinkConfig{Rate: 10e6, Delay: 20 * des.Millisecond, Queue: DropTail{Packets: 10}, Loss: Bernoulli{P: 0.01}},
			Reverse: LinkConfig{Rate: 10e6, Delay: 20 * des.Millisecond, Loss: GilbertElliott{PGoodToBad: 0.01, PBadToGood: 0.3, LossBad: 1}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	n := 0
	net.SetObserver(observerFunc(func(r Record) {
		name := ""
		if r.Link != nil {
			name = r.Link.Name()
		}
		fmt.Fprintf(h, "%d %v %s %d %d %v\n", r.At, r.Kind, name, r.Packet.ID, r.Packet.Seq, r.Reason)
		n++
	}))
	for i := range 3 {
		f := FlowID(i + 1)
		if err := d.Receivers[i].Attach(f, &sink{net: net}); err != nil {
			t.Fatal(err)
		}
		if err := d.Senders[i].Attach(f, &sink{net: net}); err != nil {
			t.Fatal(err)
		}
		(&source{net: net, from: d.Senders[i], dst: d.Receivers[i].ID(), flow: f, size: 1500, n: 400, gap: 500 * des.Microsecond}).start(des.Time(i))
		(&source{net: net, from: d.Receivers[i], dst: d.Senders[i].ID(), flow: f, size: 60, n: 400, gap: 500 * des.Microsecond}).start(des.Time(i))
	}
	run(t, net, des.Forever)
	return h.Sum64(), n
}

func TestDeterminism(t *testing.T) {
	h1, n1 := traceHash(t, 5)
	h2, n2 := traceHash(t, 5)
	if h1 != h2 || n1 != n2 {
		t.Errorf("same seed: traces differ (%x, %d records vs %x, %d)", h1, n1, h2, n2)
	}
	if h3, _ := traceHash(t, 6); h3 == h1 {
		t.Errorf("seeds 5 and 6 gave the same trace")
	}
}

func TestDumbbell(t *testing.T) {
	net := New(des.New(), 1)
	d, err := NewDumbbell(net, DumbbellConfig{
		N: 2,
		PerSender: func(i int) Hop {
			c := LinkConfig{Rate: 1e9, Delay: des.Duration(i+1) * des.Millisecond}
			return Hop{c, c}
		},
		ReceiverAccess: Hop{LinkConfig{Rate: 1e9}, LinkConfig{Rate: 1e9}},
		Bottleneck:     Hop{LinkConfig{Rate: 100e6, Delay: 10 * des.Millisecond}, LinkConfig{Rate: 100e6, Delay: 10 * des.Millisecond}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var sinks []*sink
	for i := range 2 {
		k := &sink{net: net, keep: true}
		sinks = append(sinks, k)
		if err := d.Receivers[i].Attach(1, k); err != nil {
			t.Fatal(err)
		}
	}
	// One 1000-byte packet per pair, sent at different times so they do
	// not meet in the bottleneck queue: pair i arrives after 8 µs (access,
	// 1 Gbit/s) + (i+1) ms + 80 µs (bottleneck, 100 Mbit/s) + 10 ms + 8 µs
	// (receiver access) + 0 propagation.
	for i := range 2 {
		(&source{net: net, from: d.Senders[i], dst: d.Receivers[i].ID(), flow: 1, size: 1000, n: 1}).start(des.Time(i) * des.Time(des.Second))
	}
	run(t, net, des.Forever)
	for i, k := range sinks {
		want := des.Time(i)*des.Time(des.Second) + des.Time(8000+(i+1)*1e6+80000+10e6+8000)
		if len(k.got) != 1 || k.got[0].At != want {
			t.Errorf("pair %d: arrivals %+v, want one at %d", i, k.got, want)
		}
	}
	if got := d.Bottleneck.Stats().Delivered; got != 2 {
		t.Errorf("bottleneck delivered %d, want 2", got)
	}
	if got := d.BottleneckReverse.Stats().Sent; got != 0 {
		t.Errorf("reverse bottleneck carried %d packets, want 0", got)
	}
}

func TestParallel(t *testing.T) {
	chans := make([]LinkConfig, 4)
	for i := range chans {
		chans[i] = LinkConfig{Rate: 1e9, Delay: des.Millisecond}
	}
	t.Run("stripe", func(t *testing.T) {
		net := New(des.New(), 1)
		p, err := NewParallel(net, chans, LinkConfig{Rate: 1e9}, StripePackets)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.B.Attach(1, &sink{net: net}); err != nil {
			t.Fatal(err)
		}
		(&source{net: net, from: p.A, dst: p.B.ID(), flow: 1, size: 1500, n: 10}).start(0)
		run(t, net, des.Forever)
		var got []int64
		for _, c := range p.Channels {
			got = append(got, c.Stats().Delivered)
		}
		if want := []int64{3, 3, 2, 2}; !cmp.Equal(got, want) {
			t.Errorf("packets per channel = %v, want %v", got, want)
		}
	})
	t.Run("bind", func(t *testing.T) {
		net := New(des.New(), 1)
		p, err := NewParallel(net, chans, LinkConfig{Rate: 1e9}, BindFlows)
		if err != nil {
			t.Fatal(err)
		}
		fc := p.Egress.(*FlowChannels)
		if err := fc.Bind(6, 0); err != nil {
			t.Fatal(err)
		}
		for f := FlowID(5); f <= 7; f++ {
			if err := p.B.Attach(f, &sink{net: net}); err != nil {
				t.Fatal(err)
			}
			(&source{net: net, from: p.A, dst: p.B.ID(), flow: f, size: 1500, n: int(f)}).start(0)
		}
		run(t, net, des.Forever)
		var got []int64
		for _, c := range p.Channels {
			got = append(got, c.Stats().Delivered)
		}
		// Flow 5 -> 5 mod 4 = channel 1, flow 6 bound to channel 0, flow 7
		// -> channel 3.
		if want := []int64{6, 5, 0, 7}; !cmp.Equal(got, want) {
			t.Errorf("packets per channel = %v, want %v", got, want)
		}
	})
}

func TestNoRoute(t *testing.T) {
	net := New(des.New(), 1)
	a, b := net.AddNode("a"), net.AddNode("b")
	c := net.AddNode("c")
	if _, err := net.Connect(a, b, LinkConfig{Rate: 1e9}); err != nil {
		t.Fatal(err)
	}
	net.ComputeRoutes()
	(&source{net: net, from: a, dst: c.ID(), flow: 1, size: 100, n: 2}).start(0) // unreachable
	(&source{net: net, from: a, dst: b.ID(), flow: 9, size: 100, n: 3}).start(0) // no receiver
	run(t, net, des.Forever)
	if got := a.Stats().NoRoute; got != 2 {
		t.Errorf("a: NoRoute = %d, want 2", got)
	}
	if got := b.Stats().NoRoute; got != 3 {
		t.Errorf("b: NoRoute = %d, want 3", got)
	}
	if got := net.Pool().InUse(); got != 0 {
		t.Errorf("pool InUse = %d, want 0", got)
	}
}

// TestNodeReceivers checks which receiver a node hands each packet to as
// flows are attached and detached between packets (the node remembers the
// receiver of the last flow that arrived): the one attached to the
// packet's flow, else the default, else none (counted as no route).
func TestNodeReceivers(t *testing.T) {
	net, a, b, _, k1 := twoNodes(t, 1, LinkConfig{Rate: 1e6, Delay: des.Millisecond})
	k2 := &sink{net: net, keep: true}
	k3 := &sink{net: net, keep: true}
	dflt := &sink{net: net, keep: true}
	steps := []struct {
		do   func() error
		flow FlowID
		want *sink // nil: dropped
	}{
		{nil, 1, k1},
		{nil, 1, k1},
		{func() error { return b.Attach(2, k2) }, 2, k2},
		{nil, 2, k2},
		{nil, 1, k1},
		{func() error { b.Detach(1); return nil }, 1, nil},
		{func() error { b.SetDefault(dflt); return nil }, 1, dflt},
		{func() error { return b.Attach(1, k3) }, 1, k3},
		{nil, 2, k2},
		{func() error { b.Detach(2); return nil }, 2, dflt},
		{nil, 1, k3},
	}
	count := func(k *sink) int { return len(k.got) }
	for i, st := range steps {
		if st.do != nil {
			if err := st.do(); err != nil {
				t.Fatal(err)
			}
		}
		before := map[*sink]int{k1: count(k1), k2: count(k2), k3: count(k3), dflt: count(dflt)}
		noRoute := b.Stats().NoRoute
		p := net.NewPacket()
		p.Flow, p.Dst, p.Size = st.flow, b.ID(), 100
		a.Send(p)
		run(t, net, des.Forever)
		for k, n := range before {
			want := n
			if k == st.want {
				want++
			}
			if got := count(k); got != want {
				t.Errorf("step %d (flow %d): a receiver holds %d packets, want %d", i, st.flow, got, want)
			}
		}
		if got, want := b.Stats().NoRoute-noRoute, int64(0); st.want == nil && got != 1 || st.want != nil && got != want {
			t.Errorf("step %d (flow %d): %d packets without a receiver", i, st.flow, got)
		}
	}
}
