package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math/rand/v2"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// DropReason says why a packet was dropped.
type DropReason uint8

// Drop reasons.
const (
	// DropOverflow: the queue in front of a link was full (tail drop), or
	// a link's netem limit was reached (LinkConfig.NetemLimit).
	DropOverflow DropReason = iota
	// DropAQM: an active queue manager (RED, CoDel) chose to drop.
	DropAQM
	// DropCorrupt: the link's loss process hit the packet (bit errors,
	// a fixed loss probability, a drop list).
	DropCorrupt
	// DropNoRoute: a node had no route to the destination or no receiver
	// for the flow.
	DropNoRoute
	numDropReasons
)

var dropReasonNames = [numDropReasons]string{"overflow", "aqm", "corrupt", "noroute"}

func (r DropReason) String() string {
	if r < numDropReasons {
		return dropReasonNames[r]
	}
	return fmt.Sprintf("DropReason(%d)", uint8(r))
}

// Dropper takes packets a queue discards. The link passes itself; the
// dropper counts the drop by reason and frees the packet.
type Dropper interface {
	Drop(now des.Time, p *Packet, reason DropReason)
}

// Queue is the buffer in front of a link's transmitter. Enqueue either
// keeps p or hands it (or another packet it evicts, as FQ-CoDel does) to
// drop; Dequeue returns the next packet to transmit, or nil when empty,
// and may drop packets at the head on the way (as CoDel does). A queue
// belongs to exactly one link.
type Queue interface {
	Enqueue(now des.Time, p *Packet, drop Dropper)
	Dequeue(now des.Time, drop Dropper) *Packet
	// Len and Bytes are the current occupancy.
	Len() int
	Bytes() unit.Bytes
}

// QueueModel configures a kind of queue; NewQueue makes a fresh, empty
// instance for one link. A model is a plain value, so one LinkConfig can
// describe many links.
type QueueModel interface {
	NewQueue() Queue
}

// DropTail is a FIFO that drops arriving packets that do not fit. A limit
// of 0 means unlimited; with both limits set, a packet must fit both.
type DropTail struct {
	Packets int        // limit in packets
	Bytes   unit.Bytes // limit in bytes
}

// NewQueue implements QueueModel.
func (d DropTail) NewQueue() Queue { return &dropTail{limit: d} }

type dropTail struct {
	limit DropTail
	q     fifo
	bytes unit.Bytes
}

func (q *dropTail) Enqueue(now des.Time, p *Packet, drop Dropper) {
	if q.limit.Packets > 0 && q.q.n+1 > q.limit.Packets ||
		q.limit.Bytes > 0 && q.bytes+p.Size > q.limit.Bytes {
		drop.Drop(now, p, DropOverflow)
		return
	}
	q.q.push(p)
	q.bytes += p.Size
}

func (q *dropTail) Dequeue(now des.Time, drop Dropper) *Packet {
	p := q.q.pop()
	if p != nil {
		q.bytes -= p.Size
	}
	return p
}

// peek implements peeker.
func (q *dropTail) peek() *Packet { return q.q.head }

func (q *dropTail) Len() int          { return q.q.n }
func (q *dropTail) Bytes() unit.Bytes { return q.bytes }

// LinkInfo is what a queue may learn about the link it serves when the
// link is built: RED needs the rate to age its average over idle periods
// and a random stream to draw its drops from; FQ-CoDel perturbs its flow
// hash with a draw from the stream.
type LinkInfo struct {
	// Name is the link's name.
	Name string
	// Rate is the link's rate (0: infinitely fast).
	Rate unit.BitRate
	// Rand is the queue's own random stream, "queue/<link name>" of the
	// network's streams: distinct from the link's loss stream, so a queue
	// discipline never shifts the loss pattern.
	Rand *rand.Rand
}

// Attacher is implemented by queues that need LinkInfo. Network.Connect
// calls Attach once, right after QueueModel.NewQueue and before any packet
// arrives; queues that do not implement it cost nothing.
type Attacher interface {
	Attach(info LinkInfo)
}

// Validator is implemented by queue models whose parameters can be
// invalid; Network.Connect refuses a link whose queue model fails Validate,
// so NewQueue may treat a bad parameter as a bug.
type Validator interface {
	Validate() error
}

// pktQueue is a FIFO of packets with its byte count.
type pktQueue struct {
	q     fifo
	bytes unit.Bytes
}

func (q *pktQueue) push(p *Packet) {
	q.q.push(p)
	q.bytes += p.Size
}

func (q *pktQueue) pop() *Packet {
	p := q.q.pop()
	if p != nil {
		q.bytes -= p.Size
	}
	return p
}
