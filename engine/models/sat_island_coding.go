package models

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
)

// blockCoder is a systematic block code over the satellite hop, the
// "parity packets" of WAN accelerators and the coding approach document
// 004's author mentions: the encoder at the gateway sends every packet
// bound for the island unchanged and, after k of them (or coding_timeout
// after a block's first packet, for a partial block of n < k), m parity
// packets as large as the block's largest packet. The parity packets queue
// at the satellite input like any other, so the code costs m/k (more for
// partial blocks) of the link. A maximum-distance-separable code (Reed-
// Solomon) rebuilds the block from any n of its n+m packets, so the
// decoder at the island end of the hop recovers up to m packets per block
// lost at the input queue, once enough packets of the block have arrived.
//
// The decoder sits on a terminal node at the island end of the satellite
// link: every packet arriving there passes through it on its way to the
// island router. Recovered packets are exact copies of the lost ones
// (headers only: packets carry sizes, not bytes), sent on after the packet
// that completed the block.
type blockCoder struct {
	net       *netsim.Network
	sat       *netsim.Link // gateway to terminal
	out       *netsim.Link // terminal to island router
	gw, term  *netsim.Node
	k, m      int
	timeout   des.Duration
	from      des.Time
	ring      []codeBlock
	next      uint64 // number of the next block
	open      *codeBlock
	timer     des.Timer
	where     map[uint64]uint64 // packet ID -> block number<<16 | index
	parFlow   netsim.FlowID
	recovered int64
	// recoveredPayload is the TCP payload of the recovered packets.
	recoveredPayload int64
	// dataBytes and parityBytes count what the encoder sent from `from` on.
	dataBytes, parityBytes int64
	ready                  *codeBlock // the block an arrival just made decodable
}

// codeBlock is one block: the n packets sent and the parity ids.
type codeBlock struct {
	num     uint64
	n       int
	saved   []netsim.Packet // copies of the n data packets
	ids     []uint64        // ids of the n data and m parity packets
	arrived []bool
	got     int
	closed  bool // parity sent: n is final
	decoded bool
	size    unit.Bytes // largest packet
}

// codeRing is how many blocks are tracked at once; a block still
// undecoded when its slot is reused is lost for good. 4096 blocks of 10
// packets is more than a GEO hop at 1 Gbit/s holds in flight.
const codeRing = 4096

// parityFlow is the flow id of parity packets (exchanges use positive ids).
const parityFlow netsim.FlowID = -1

func newBlockCoder(net *netsim.Network, k, m int, timeout des.Duration, from des.Time) *blockCoder {
	b := &blockCoder{net: net, k: k, m: m, timeout: timeout, from: from, ring: make([]codeBlock, codeRing),
		where: map[uint64]uint64{}, parFlow: parityFlow}
	for i := range b.ring {
		b.ring[i].num = ^uint64(0)
	}
	return b
}

// install puts the encoder on the gateway's routes over sat and the
// decoder on every route of term (the node sat delivers to) and on term's
// parity flow.
func (b *blockCoder) install(gw, term *netsim.Node, sat, out *netsim.Link) error {
	b.gw, b.term, b.sat, b.out = gw, term, sat, out
	b.timer.Init(b.net.Scheduler(), b, 0, 0)
	for _, n := range b.net.Nodes() {
		if gw.Route(n.ID()) == netsim.Egress(sat) {
			gw.SetRoute(n, (*encoder)(b))
		}
		if n != term {
			term.SetRoute(n, (*decoder)(b))
		}
	}
	if err := term.Attach(b.parFlow, (*decoder)(b)); err != nil {
		return fmt.Errorf("models: coding: %w", err)
	}
	return nil
}

// encoder is the gateway side of the coder.
type encoder blockCoder

// Send implements netsim.Egress: code p into the open block and send it.
func (e *encoder) Send(p *netsim.Packet) {
	b := (*blockCoder)(e)
	now := b.net.Now()
	if b.open == nil {
		b.open = b.slot(b.next)
		b.next++
		b.timer.Reset(now.Add(b.timeout))
	}
	blk := b.open
	idx := blk.n
	blk.saved[idx] = *p
	blk.ids[idx] = p.ID
	blk.n++
	blk.size = max(blk.size, p.Size)
	b.where[p.ID] = blk.num<<16 | uint64(idx)
	if now >= b.from {
		b.dataBytes += int64(p.Size)
	}
	b.sat.Send(p)
	if blk.n == b.k {
		b.close(now)
	}
}

// slot returns the ring slot for block num, forgetting the block it held.
func (b *blockCoder) slot(num uint64) *codeBlock {
	blk := &b.ring[num%codeRing]
	if blk.num != ^uint64(0) {
		b.forget(blk)
	}
	if blk.saved == nil {
		blk.saved = make([]netsim.Packet, b.k)
		blk.ids = make([]uint64, b.k+b.m)
		blk.arrived = make([]bool, b.k+b.m)
	}
	blk.num, blk.n, blk.got, blk.size = num, 0, 0, 0
	blk.closed, blk.decoded = false, false
	clear(blk.arrived)
	return blk
}

// forget drops the ids of a block's packets that never arrived.
func (b *blockCoder) forget(blk *codeBlock) {
	for i := 0; i < blk.n; i++ {
		if !blk.arrived[i] {
			delete(b.where, blk.ids[i])
		}
	}
	if blk.closed {
		for j := 0; j < b.m; j++ {
			if !blk.arrived[b.k+j] {
				delete(b.where, blk.ids[b.k+j])
			}
		}
	}
}

// close sends the open block's parity.
func (b *blockCoder) close(now des.Time) {
	blk := b.open
	b.open = nil
	b.timer.Stop()
	blk.closed = true
	for j := 0; j < b.m; j++ {
		p := b.net.NewPacket()
		p.Size = blk.size
		p.Flow = b.parFlow
		p.Src, p.Dst = b.gw.ID(), b.term.ID()
		p.SentAt = now
		blk.ids[b.k+j] = p.ID
		b.where[p.ID] = blk.num<<16 | uint64(b.k+j)
		if now >= b.from {
			b.parityBytes += int64(p.Size)
		}
		b.sat.Send(p)
	}
}

// Handle implements des.Handler: the open block's timeout.
func (b *blockCoder) Handle(now des.Time, kind int, arg uint64) {
	if b.open != nil {
		b.close(now)
	}
}

// decoder is the island side of the coder.
type decoder blockCoder

// Send implements netsim.Egress for packets passing the terminal.
func (d *decoder) Send(p *netsim.Packet) {
	b := (*blockCoder)(d)
	b.arrive(p)
	b.out.Send(p)
	b.tryDecode()
}

// Receive implements netsim.Receiver for parity packets.
func (d *decoder) Receive(now des.Time, p *netsim.Packet) {
	b := (*blockCoder)(d)
	b.arrive(p)
	b.net.Free(p)
	b.tryDecode()
}

func (b *blockCoder) arrive(p *netsim.Packet) {
	v, ok := b.where[p.ID]
	if !ok {
		return
	}
	delete(b.where, p.ID)
	blk := &b.ring[(v>>16)%codeRing]
	if blk.num != v>>16 {
		return
	}
	blk.arrived[v&0xffff] = true
	blk.got++
	if blk.closed && !blk.decoded && blk.got >= blk.n {
		b.ready = blk
	}
}

// tryDecode rebuilds the missing packets of a block that has n arrivals.
func (b *blockCoder) tryDecode() {
	blk := b.ready
	if blk == nil {
		return
	}
	b.ready = nil
	blk.decoded = true
	now := b.net.Now()
	for i := 0; i < blk.n; i++ {
		if blk.arrived[i] {
			continue
		}
		delete(b.where, blk.ids[i])
		blk.arrived[i] = true
		p := b.net.NewPacket()
		id := p.ID
		*p = blk.saved[i]
		p.ID = id
		if now >= b.from {
			b.recovered++
			b.recoveredPayload += int64(p.Payload)
		}
		b.out.Send(p)
	}
	for j := 0; j < b.m; j++ { // parity still in flight is no longer needed
		if !blk.arrived[b.k+j] {
			delete(b.where, blk.ids[b.k+j])
			blk.arrived[b.k+j] = true
		}
	}
}
