package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// Receiver takes packets addressed to its node and flow. It owns the
// packet from then on: it must return it to the pool (Network.Free) or
// reuse it (for example turn it into an ACK and Send it back).
type Receiver interface {
	Receive(now des.Time, p *Packet)
}

// Egress is where a node sends packets towards a destination: a Link, or
// a set of parallel links (Stripe, FlowChannels).
type Egress interface {
	Send(p *Packet)
}

// Node is a host or a router. Packets addressed to it go to the Receiver
// attached for their flow; others are forwarded along its static routes.
type Node struct {
	net       *Network
	id        NodeID
	name      string
	routes    []Egress // by destination NodeID, from routeBase on
	routeBase NodeID   // the lowest destination with a slot in routes
	receivers map[FlowID]Receiver
	// last is the receiver of the flow that last arrived (lastOK), so a
	// host with one connection finds it without a map lookup per packet;
	// Attach and Detach forget it.
	lastFlow FlowID
	last     Receiver
	lastOK   bool
	deflt    Receiver
	out      []*Link // links leaving this node, in creation order

	received      int64
	receivedBytes unit.Bytes
	noRoute       int64
}

// ID returns the node's id.
func (n *Node) ID() NodeID { return n.id }

// Name returns the node's name.
func (n *Node) Name() string { return n.name }

// Attach registers r to receive the packets of flow addressed to this
// node.
func (n *Node) Attach(flow FlowID, r Receiver) error {
	if _, ok := n.receivers[flow]; ok {
		return fmt.Errorf("netsim: node %s: flow %d already has a receiver", n.name, flow)
	}
	n.receivers[flow] = r
	n.lastOK = false
	return nil
}

// Detach removes the receiver of flow.
func (n *Node) Detach(flow FlowID) {
	delete(n.receivers, flow)
	n.lastOK = false
}

// SetDefault sets the receiver for packets of flows with no attached
// receiver (a listening server that accepts new connections).
func (n *Node) SetDefault(r Receiver) { n.deflt = r }

// SetRoute makes the node send packets for dst through e. Routes set by
// hand take precedence over Network.ComputeRoutes.
//
// A node keeps a slot for each destination from the lowest to the highest
// it has a route to, so that a network whose routes lead to a few nodes
// (a constellation's ground stations, numbered after its satellites)
// keeps a few slots per node rather than one per node of the network.
func (n *Node) SetRoute(dst *Node, e Egress) {
	id := dst.id
	switch {
	case e == nil && n.Route(id) == nil:
		return // nothing to clear
	case len(n.routes) == 0:
		n.routeBase = id
	case id < n.routeBase:
		grown := make([]Egress, int(n.routeBase-id)+len(n.routes))
		copy(grown[n.routeBase-id:], n.routes)
		n.routes, n.routeBase = grown, id
	}
	for int(id-n.routeBase) >= len(n.routes) {
		n.routes = append(n.routes, nil)
	}
	n.routes[id-n.routeBase] = e
}

// Route returns the egress towards dst, or nil.
func (n *Node) Route(dst NodeID) Egress {
	i := int(dst) - int(n.routeBase)
	if i < 0 || i >= len(n.routes) {
		return nil
	}
	return n.routes[i]
}

// Send originates p at this node: it sets p.Src and p.SentAt and forwards
// the packet along the route to p.Dst. The network owns p from then on.
func (n *Node) Send(p *Packet) {
	p.Src = n.id
	p.SentAt = n.net.sched.Now()
	n.forward(p)
}

func (n *Node) forward(p *Packet) {
	e := n.Route(p.Dst)
	if e == nil || p.Dst == n.id {
		n.drop(p)
		return
	}
	e.Send(p)
}

func (n *Node) drop(p *Packet) {
	n.noRoute++
	if o := n.net.observer; o != nil {
		o.Observe(Record{At: n.net.sched.Now(), Kind: TraceDrop, Node: n, Packet: p, Reason: DropNoRoute})
	}
	n.net.Free(p)
}

// arrive takes a packet from an incoming link.
func (n *Node) arrive(now des.Time, p *Packet) {
	if p.Dst != n.id {
		n.forward(p)
		return
	}
	var r Receiver
	if n.lastOK && n.lastFlow == p.Flow {
		r = n.last
	} else {
		r = n.receivers[p.Flow]
		n.lastFlow, n.last, n.lastOK = p.Flow, r, true
	}
	if r == nil {
		r = n.deflt
	}
	if r == nil {
		n.drop(p)
		return
	}
	n.received++
	n.receivedBytes += p.Size
	r.Receive(now, p)
}

// NodeStats are a node's counters.
type NodeStats struct {
	// Received counts packets handed to the node's receivers.
	Received      int64
	ReceivedBytes unit.Bytes
	// NoRoute counts packets dropped for lack of a route or a receiver.
	NoRoute int64
}

// Stats returns the node's counters.
func (n *Node) Stats() NodeStats {
	return NodeStats{Received: n.received, ReceivedBytes: n.receivedBytes, NoRoute: n.noRoute}
}
