package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// FQCoDel is the FlowQueue-CoDel scheduler of RFC 8290: packets are hashed
// by flow into Flows queues, each managed by its own CoDel instance (RFC
// 8289), and the queues are served by deficit round robin with a Quantum
// of bytes, with priority for "new" queues (those that have just become
// active) over "old" ones, so sparse flows see almost no queueing delay.
//
// When the total number of queued packets exceeds Limit, packets are
// dropped from the head of the queue with the most bytes (RFC 8290
// section 4.1), counted as DropOverflow; CoDel's drops count as DropAQM.
//
// The zero value of every field selects its default, those of Linux's
// fq_codel, which RFC 8290 section 5.2 lists.
type FQCoDel struct {
	// Flows is the number of queues; default 1024 (RFC 8290 section 5.2.5).
	Flows int
	// Quantum is the DRR quantum in bytes; default 1514 (RFC 8290 section
	// 5.2.4: an Ethernet MTU plus its 14-byte header).
	Quantum unit.Bytes
	// Limit is the total packet limit; default 10240 (RFC 8290 section
	// 5.2.3).
	Limit int
	// Target, Interval and MTU parameterise each queue's CoDel, with
	// CoDel's defaults (5 ms, 100 ms, 1500 bytes; RFC 8290 sections 5.2.1
	// and 5.2.2).
	// The MTU test uses the queue's own bytes, as a CoDel instance per
	// queue does (Linux uses the whole backlog).
	Target, Interval des.Duration
	MTU              unit.Bytes
	// BatchDrop, on overflow, drops from the fattest queue until half of
	// its bytes or 64 packets are gone, instead of one packet (Linux's
	// fq_codel_drop, which RFC 8290 section 4.1 mentions as an
	// optimisation for overload).
	BatchDrop bool
}

// Defaults of FQCoDel.
const (
	DefaultFQCoDelFlows   = 1024
	DefaultFQCoDelQuantum = 1514
	DefaultFQCoDelLimit   = 10240
	fqBatchMax            = 64
)

// Validate implements Validator.
func (f FQCoDel) Validate() error {
	if f.Flows < 0 || f.Quantum < 0 || f.Limit < 0 || f.Target < 0 || f.Interval < 0 || f.MTU < 0 {
		return fmt.Errorf("netsim: fq_codel: negative parameter in %+v", f)
	}
	return nil
}

// NewQueue implements QueueModel.
func (f FQCoDel) NewQueue() Queue {
	if err := f.Validate(); err != nil {
		panic("bug: " + err.Error())
	}
	if f.Flows == 0 {
		f.Flows = DefaultFQCoDelFlows
	}
	if f.Quantum == 0 {
		f.Quantum = DefaultFQCoDelQuantum
	}
	if f.Limit == 0 {
		f.Limit = DefaultFQCoDelLimit
	}
	return &fqQueue{
		cfg:   f,
		prm:   CoDel{Target: f.Target, Interval: f.Interval, MTU: f.MTU}.params(),
		flows: make([]fqFlow, f.Flows),
	}
}

// fqFlow is one queue of FQ-CoDel with its DRR deficit and CoDel state.
type fqFlow struct {
	q       pktQueue
	deficit unit.Bytes
	codel   codelVars
	next    *fqFlow // in newFlows or oldFlows
	listed  bool    // in one of the lists
}

// flowList is an intrusive FIFO list of flows.
type flowList struct{ head, tail *fqFlow }

func (l *flowList) empty() bool { return l.head == nil }

func (l *flowList) push(f *fqFlow) {
	f.next = nil
	if l.tail == nil {
		l.head = f
	} else {
		l.tail.next = f
	}
	l.tail = f
}

func (l *flowList) pop() *fqFlow {
	f := l.head
	l.head = f.next
	if l.head == nil {
		l.tail = nil
	}
	f.next = nil
	return f
}

type fqQueue struct {
	cfg   FQCoDel
	prm   codelParams
	flows []fqFlow
	// perturb salts the flow hash (drawn from the queue's stream), as
	// Linux salts its hash with a random value per qdisc.
	perturb            uint64
	newFlows, oldFlows flowList
	n                  int
	bytes              unit.Bytes
}

// Attach implements Attacher: draw the hash perturbation from the queue's
// random stream, so the flow-to-queue mapping (and its collisions) depends
// on the scenario seed, deterministically.
func (q *fqQueue) Attach(info LinkInfo) {
	q.perturb = info.Rand.Uint64()
}

// index maps a flow to its queue (RFC 8290 section 4.1: a hash of the
// flow identifier, here the FlowID, salted by perturb), by the splitmix64
// finaliser and a multiply-shift onto [0, Flows).
func (q *fqQueue) index(flow FlowID) int {
	z := uint64(uint32(flow)) ^ q.perturb
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return int((z >> 32) * uint64(len(q.flows)) >> 32)
}

// Enqueue implements Queue: RFC 8290 section 4.1.
func (q *fqQueue) Enqueue(now des.Time, p *Packet, drop Dropper) {
	f := &q.flows[q.index(p.Flow)]
	p.enqueued = now // CoDel's timestamp
	f.q.push(p)
	q.n++
	q.bytes += p.Size
	if !f.listed {
		// A queue that is in neither list becomes a new queue with a
		// full quantum of credit.
		f.listed = true
		f.deficit = q.cfg.Quantum
		q.newFlows.push(f)
	}
	if q.n > q.cfg.Limit {
		q.dropFattest(now, drop)
	}
}

// dropFattest drops from the head of the queue with the largest byte
// count (RFC 8290 section 4.1), once or, with BatchDrop, until half of
// that queue's bytes or 64 packets are gone. Only listed queues can hold
// packets, so only they are scanned, in list order (ties go to the first).
func (q *fqQueue) dropFattest(now des.Time, drop Dropper) {
	var fat *fqFlow
	for _, l := range [2]*flowList{&q.newFlows, &q.oldFlows} {
		for f := l.head; f != nil; f = f.next {
			if fat == nil || f.q.bytes > fat.q.bytes {
				fat = f
			}
		}
	}
	if fat == nil || fat.q.q.n == 0 {
		panic("bug: netsim: fq_codel over its limit with no backlog")
	}
	threshold, dropped := fat.q.bytes/2, unit.Bytes(0)
	for i := 0; i < fqBatchMax && fat.q.q.n > 0; i++ {
		p := fat.q.pop()
		q.n--
		q.bytes -= p.Size
		dropped += p.Size
		drop.Drop(now, p, DropOverflow)
		if !q.cfg.BatchDrop || dropped >= threshold {
			break
		}
	}
}

// Dequeue implements Queue: the scheduler of RFC 8290 section 4.2.
func (q *fqQueue) Dequeue(now des.Time, drop Dropper) *Packet {
	for {
		list := &q.newFlows
		if list.empty() {
			list = &q.oldFlows
			if list.empty() {
				return nil
			}
		}
		f := list.head
		if f.deficit <= 0 {
			// This queue has used up its quantum: give it another and
			// send it to the back of the old queues.
			f.deficit += q.cfg.Quantum
			q.oldFlows.push(list.pop())
			continue
		}
		n0, b0 := f.q.q.n, f.q.bytes
		p := f.codel.dequeue(now, &q.prm, &f.q, drop)
		q.n -= n0 - f.q.q.n
		q.bytes -= b0 - f.q.bytes
		if p == nil {
			// The queue is empty. A new queue goes to the back of the
			// old queues, so that a flow cannot keep its priority by
			// emptying and refilling; an old one leaves the lists and
			// comes back as new with its next packet (RFC 8290 section
			// 4.2).
			list.pop()
			if list == &q.newFlows {
				q.oldFlows.push(f)
			} else {
				f.listed = false
			}
			continue
		}
		f.deficit -= p.Size
		return p
	}
}

func (q *fqQueue) Len() int          { return q.n }
func (q *fqQueue) Bytes() unit.Bytes { return q.bytes }
