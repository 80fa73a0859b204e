package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// flowSource sends n packets of size bytes, one every gap, cycling over
// flows 1..flows.
type flowSource struct {
	net     *Network
	from    *Node
	dst     NodeID
	flows   int
	size    unit.Bytes
	gap     des.Duration
	n, sent int
}

func (s *flowSource) Handle(now des.Time, kind int, arg uint64) {
	p := s.net.NewPacket()
	p.Flow, p.Dst, p.Size, p.Payload = FlowID(1+s.sent%s.flows), s.dst, s.size, s.size
	s.sent++
	s.from.Send(p)
	if s.sent < s.n {
		s.net.sched.Schedule(now.Add(s.gap), s, 0, 0)
	}
}

// BenchmarkAQM pushes b.N packets of 1500 bytes from 16 flows through one
// 1 Gbit/s link (12 µs per packet) offered every 11 µs, 9 % over the line
// rate, so that every discipline holds a queue and drops. In steady state
// nothing is allocated per packet.
//
// The traffic ignores drops, so CoDel's drop rate, which grows with the
// square root of its count, would take seconds of virtual time to match
// the 9 % excess: the hard limits (1000 packets for CoDel, 1000 for
// FQ-CoDel here instead of its 10240) decide the steady state, and the
// drop metrics are split by reason.
func BenchmarkAQM(b *testing.B) {
	for _, bc := range []struct {
		name string
		q    QueueModel
	}{
		{"droptail", DropTail{Packets: 100}},
		{"red", RED{MinTh: 20, MaxTh: 60, Gentle: true, LimitPackets: 200}},
		{"codel", CoDel{}},
		{"fq_codel", FQCoDel{Limit: 1000}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			net := New(des.New(), 1)
			a, dst := net.AddNode("a"), net.AddNode("b")
			l, err := net.Connect(a, dst, LinkConfig{Rate: 1e9, Delay: des.Millisecond, Queue: bc.q})
			if err != nil {
				b.Fatal(err)
			}
			net.ComputeRoutes()
			k := &sink{net: net}
			for f := FlowID(1); f <= 16; f++ {
				if err := dst.Attach(f, k); err != nil {
					b.Fatal(err)
				}
			}
			n := b.N + 20000
			src := &flowSource{net: net, from: a, dst: dst.ID(), flows: 16, size: 1500, gap: 11 * des.Microsecond, n: n}
			s := net.Scheduler()
			s.Schedule(0, src, 0, 0)
			// Warm up for 20000 packets (220 ms): queues, pools and the
			// heap reach their steady size and CoDel its dropping state.
			if err := s.Run(context.Background(), des.Time(220*des.Millisecond)); err != nil {
				b.Fatal(err)
			}
			st0 := l.Stats()
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
			st := l.Stats()
			b.ReportMetric(float64(st.Drops[DropAQM]-st0.Drops[DropAQM])/float64(b.N), "aqm-drops/pkt")
			b.ReportMetric(float64(st.Drops[DropOverflow]-st0.Drops[DropOverflow])/float64(b.N), "overflow-drops/pkt")
			if net.Pool().InUse() != 0 {
				b.Fatalf("pool InUse = %d at the end", net.Pool().InUse())
			}
		})
	}
}
