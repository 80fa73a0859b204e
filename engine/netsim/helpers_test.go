package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// sink records the packets delivered to it and frees them.
type sink struct {
	net  *Network
	got  []arrival
	keep bool // record arrivals
}

type arrival struct {
	At   des.Time
	ID   uint64
	Seq  uint32
	Size unit.Bytes
}

func (s *sink) Receive(now des.Time, p *Packet) {
	if s.keep {
		s.got = append(s.got, arrival{now, p.ID, p.Seq, p.Size})
	}
	s.net.Free(p)
}

// source sends n packets of a given size from a node, one every gap (all
// at once when gap is 0), numbering them by Seq from 1 and marking them
// as data.
type source struct {
	net      *Network
	from     *Node
	dst      NodeID
	flow     FlowID
	size     unit.Bytes
	gap      des.Duration
	n, sent  int
	sizeFunc func(i int) unit.Bytes // optional, overrides size
}

func (s *source) Handle(now des.Time, kind int, arg uint64) {
	for s.sent < s.n {
		p := s.net.NewPacket()
		s.sent++
		p.Flow, p.Dst, p.Seq = s.flow, s.dst, uint32(s.sent)
		p.Size = s.size
		if s.sizeFunc != nil {
			p.Size = s.sizeFunc(s.sent)
		}
		p.Payload = p.Size
		s.from.Send(p)
		if s.gap > 0 {
			if s.sent < s.n {
				s.net.sched.Schedule(now.Add(s.gap), s, 0, 0)
			}
			return
		}
	}
}

func (s *source) start(at des.Time) { s.net.sched.Schedule(at, s, 0, 0) }

// twoNodes returns a network with a single link a->b and routes.
func twoNodes(t testing.TB, seed uint64, cfg LinkConfig) (*Network, *Node, *Node, *Link, *sink) {
	t.Helper()
	net := New(des.New(), seed)
	a, b := net.AddNode("a"), net.AddNode("b")
	l, err := net.Connect(a, b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	net.ComputeRoutes()
	k := &sink{net: net, keep: true}
	if err := b.Attach(1, k); err != nil {
		t.Fatal(err)
	}
	return net, a, b, l, k
}

func run(t testing.TB, net *Network, until des.Time) {
	t.Helper()
	if err := net.Scheduler().Run(context.Background(), until); err != nil {
		t.Fatal(err)
	}
}
