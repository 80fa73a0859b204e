package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/des"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// NodeID names a node of a Network; ids are dense, in creation order.
type NodeID int32

// FlowID names a flow (a TCP connection, a UDP stream). Both ends of a
// connection use the same FlowID; a node hands an arriving packet to the
// Receiver attached for its flow.
type FlowID int32

// Flags are the TCP header flags (RFC 9293 section 3.1).
type Flags uint8

// TCP header flags.
const (
	FIN Flags = 1 << iota
	SYN
	RST
	PSH
	ACK
	URG
	ECE
	CWR
)

// MaxSACKBlocks is how many SACK blocks a packet carries: 4 fit in the 40
// bytes of TCP option space without timestamps, 3 with them (RFC 2018
// section 3).
const MaxSACKBlocks = 4

// SACKBlock is one SACK option block: the received range [Left, Right) of
// sequence space (RFC 2018 section 3).
type SACKBlock struct {
	Left, Right uint32
}

// Packet is a packet on the wire. It carries sizes, not payload bytes.
// Packets come from the Network's Pool (Network.NewPacket) and go back to
// it (Network.Free) when their last owner is done with them: a link frees
// the packets it drops; the Receiver a packet is delivered to owns it.
type Packet struct {
	// The fields a link and a router read of every packet they pass on
	// come first, in the first 64 bytes: a Packet takes 192 bytes, a size
	// class of Go's allocator whose objects start on a cache line, so a
	// hop touches one line of it.

	// Link-internal bookkeeping.
	next     *Packet  // intrusive list: free list, queue, in-flight FIFO
	enqueued des.Time // when the packet entered a link's queue
	txAt     des.Time // when its transmission started
	arrive   des.Time // when its last bit reaches the far end of a link

	// Size is the size on the wire in bytes (headers included): what the
	// link serialises and what a PER is computed for.
	Size unit.Bytes
	// Skb names the socket buffer the packet travels in when its sender
	// hands the stack aggregates of several segments (GSO/TSO): the
	// segments of one aggregate share the Skb of its first segment, and a
	// netem limit counts and loses them together (see skb.go). 0 means the
	// packet is an skb of its own.
	Skb uint64
	// Flow selects the Receiver at the destination node.
	Flow FlowID
	// Dst selects the route; Src is set by Node.Send.
	Dst NodeID

	free    bool // in the pool: guards against double frees
	skbHead bool // counted as an skb by the netem limit of the link it is on
	// owned: owner is set. Freeing a packet asks this, in the line every
	// hop reads, rather than owner, in the packet's last line, which
	// nothing else reads on delivery: a packet without an owner (all but
	// TCP Small Queues' data) is freed without a cache miss there.
	owned bool

	// ID is unique within a simulation, assigned by the pool in order of
	// allocation; it identifies a packet in traces.
	ID  uint64
	Src NodeID

	// TCP header fields (RFC 9293 section 3.1). Seq and Ack are 32-bit
	// sequence numbers that wrap.
	Seq, Ack uint32
	Flags    Flags
	// Payload is the number of data bytes (0 for a pure ACK).
	Payload unit.Bytes
	// Window is the advertised window field as sent (the receiver scales
	// it by the negotiated shift, RFC 7323 section 2).
	Window uint32

	// TCP options. WScale < 0 means the option is absent (RFC 7323
	// section 2.2); MSS 0 means absent (RFC 9293 section 3.7.1).
	WScale        int8
	SACKPermitted bool
	MSS           uint16
	HasTS         bool
	TSval, TSecr  uint32 // RFC 7323 section 3
	NSACK         int
	SACK          [MaxSACKBlocks]SACKBlock

	// SentAt is when the packet left its origin host (set by Node.Send).
	SentAt des.Time
	// Retransmitted marks a retransmission, for tracing and statistics.
	Retransmitted bool

	// owner, when set (SetOwner), is told once when the packet stops
	// being charged to its sending socket: when a netem qdisc with a
	// delay orphans it or when it is freed (see skb.go).
	owner Owner
}

// SetOwner charges the packet to o, its sending socket, until a netem
// with a delay orphans it or it is freed (skb.go).
func (p *Packet) SetOwner(o Owner) { p.owner, p.owned = o, o != nil }

// IsData reports whether the packet carries payload.
func (p *Packet) IsData() bool { return p.Payload > 0 }

// Pool is a free list of packets owned by one simulation. It is neither
// shared nor locked (unlike sync.Pool), so reuse is deterministic.
type Pool struct {
	free      *Packet
	nextID    uint64
	allocated int // packets ever created
	inUse     int // packets handed out and not yet returned
}

// Get returns a zeroed packet with a fresh ID and WScale -1.
func (p *Pool) Get() *Packet {
	pkt := p.free
	if pkt != nil {
		p.free = pkt.next
		*pkt = Packet{}
	} else {
		pkt = &Packet{}
		p.allocated++
	}
	p.nextID++
	pkt.ID = p.nextID
	pkt.WScale = -1
	p.inUse++
	return pkt
}

// Put returns a packet to the pool. Returning a packet twice is a bug and
// panics.
func (p *Pool) Put(pkt *Packet) {
	if pkt.free {
		panic("bug: netsim: packet freed twice")
	}
	pkt.free = true
	pkt.next = p.free
	p.free = pkt
	p.inUse--
}

// InUse returns the number of packets handed out and not yet returned.
func (p *Pool) InUse() int { return p.inUse }

// Allocated returns the number of packets the pool ever created.
func (p *Pool) Allocated() int { return p.allocated }

// fifo is an intrusive singly linked FIFO of packets.
type fifo struct {
	head, tail *Packet
	n          int
}

func (q *fifo) push(p *Packet) {
	p.next = nil
	if q.tail == nil {
		q.head = p
	} else {
		q.tail.next = p
	}
	q.tail = p
	q.n++
}

func (q *fifo) pop() *Packet {
	p := q.head
	if p == nil {
		return nil
	}
	q.head = p.next
	if q.head == nil {
		q.tail = nil
	}
	p.next = nil
	q.n--
	return p
}
