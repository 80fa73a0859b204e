package netsim_test

import (
	"context"
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
)

// printer is a Receiver that prints what it gets and frees it.
type printer struct{ net *netsim.Network }

func (r printer) Receive(now des.Time, p *netsim.Packet) {
	fmt.Printf("%v: packet %d, %d bytes, sent at %v\n", now, p.ID, p.Size, p.SentAt)
	r.net.Free(p)
}

// A 1500-byte packet on a 1 Gbit/s link with 10 ms of propagation delay
// arrives after 12 µs of serialisation (1500*8 bits / 1e9 bit/s) plus
// 10 ms.
func Example() {
	s := des.New()
	net := netsim.New(s, 1)
	a, b := net.AddNode("a"), net.AddNode("b")
	if _, err := net.Connect(a, b, netsim.LinkConfig{Rate: 1e9, Delay: 10 * des.Millisecond}); err != nil {
		panic(err)
	}
	net.ComputeRoutes()
	if err := b.Attach(7, printer{net}); err != nil {
		panic(err)
	}
	for range 2 {
		p := net.NewPacket()
		p.Flow, p.Dst, p.Size = 7, b.ID(), 1500
		a.Send(p)
	}
	if err := s.Run(context.Background(), des.Forever); err != nil {
		panic(err)
	}
	// Output:
	// 10.012ms: packet 1, 1500 bytes, sent at 0s
	// 10.024ms: packet 2, 1500 bytes, sent at 0s
}
