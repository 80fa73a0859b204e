package netsim

import (
	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// BenchmarkLinkChain pushes b.N packets of 1500 bytes through a path of
// three 1 Gbit/s hops with 1 ms of delay each and a 1e-3 Bernoulli loss on
// the middle hop, paced at the line rate so that queues stay short. In
// steady state nothing is allocated: packets come from the pool, events
// from the scheduler's free list.
func BenchmarkLinkChain(b *testing.B) {
	net := New(des.New(), 1)
	c := LinkConfig{Rate: 1e9, Delay: des.Millisecond, Queue: DropTail{Packets: 100}}
	lossy := c
	lossy.Loss = Bernoulli{P: 1e-3}
	p, err := NewPath(net, []Hop{{c, c}, {lossy, c}, {c, c}})
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Receiver.Attach(1, &sink{net: net}); err != nil {
		b.Fatal(err)
	}
	src := &source{net: net, from: p.Sender, dst: p.Receiver.ID(), flow: 1, size: 1500, n: b.N, gap: 12 * des.Microsecond}
	src.start(0)
	s := net.Scheduler()
	// Warm up: fill the pipe so pools and the heap reach their steady size.
	if err := s.Run(context.Background(), des.Time(10*des.Millisecond)); err != nil {
		b.Fatal(err)
	}
	ev0 := s.Processed()
	b.ReportAllocs()
	b.ResetTimer()
	if err := s.Run(context.Background(), des.Forever); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "pkts/s")
	b.ReportMetric(float64(s.Processed()-ev0)/sec, "events/s")
	b.ReportMetric(float64(s.Processed()-ev0)/float64(b.N), "events/pkt")
}
