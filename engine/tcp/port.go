package tcp

import "github.com/crosslink-sim/crosslink/engine/netsim"

// NodePort attaches an endpoint to a host node of a netsim network.
type NodePort struct {
	Net  *netsim.Network
	Node *netsim.Node
}

// NewPacket implements Port.
func (p NodePort) NewPacket() *netsim.Packet { return p.Net.NewPacket() }

// Send implements Port: the node routes the packet (and sets Src, SentAt).
func (p NodePort) Send(pk *netsim.Packet) { p.Node.Send(pk) }

// Free implements Port.
func (p NodePort) Free(pk *netsim.Packet) { p.Net.Free(pk) }
