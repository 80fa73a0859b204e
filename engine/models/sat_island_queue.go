package models

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
)

// meterBucket is the width of the occupancy histogram of a metered queue:
// one full-size packet, so percentiles are exact to within a packet.
const meterBucket = 1500

// meteredModel wraps a queue model so that the model can see, from From
// on, the TCP payload bytes offered to and dropped by the queue (document
// 004's "percentage of TCP payload bytes that doesn't make it onto the
// link") and the time the queue spends at each occupancy (for its mean and
// 95th percentile). Drops at dequeue (CoDel's) count like tail drops: both
// are payload that never reaches the link.
type meteredModel struct {
	inner netsim.QueueModel
	from  des.Time
	out   **meteredQueue // receives the queue NewQueue makes
}

func (m meteredModel) NewQueue() netsim.Queue {
	q := &meteredQueue{inner: m.inner.NewQueue(), from: m.from, last: m.from}
	q.drop.q = q
	*m.out = q
	return q
}

// Validate passes the inner model's check on.
func (m meteredModel) Validate() error {
	if v, ok := m.inner.(netsim.Validator); ok {
		return v.Validate()
	}
	return nil
}

type meteredQueue struct {
	inner netsim.Queue
	from  des.Time
	drop  meterDropper

	offered, dropped         int64 // payload bytes from From on
	offeredPkts, droppedPkts int64 // packets (all sizes) from From on

	last des.Time
	hist []float64 // ns spent with occupancy in [i*meterBucket, (i+1)*meterBucket)
	area float64   // byte-ns
}

type meterDropper struct {
	q    *meteredQueue
	next netsim.Dropper
}

func (d *meterDropper) Drop(now des.Time, p *netsim.Packet, reason netsim.DropReason) {
	if now >= d.q.from {
		d.q.dropped += int64(p.Payload)
		d.q.droppedPkts++
	}
	d.next.Drop(now, p, reason)
}

// Attach passes the link's description to queues that want it.
func (q *meteredQueue) Attach(info netsim.LinkInfo) {
	if a, ok := q.inner.(netsim.Attacher); ok {
		a.Attach(info)
	}
}

// account adds the time since the last change at the current occupancy.
func (q *meteredQueue) account(now des.Time) {
	if now <= q.last {
		return
	}
	bytes := q.inner.Bytes()
	b := int(bytes / meterBucket) // histogram bucket
	for len(q.hist) <= b {
		q.hist = append(q.hist, 0)
	}
	dt := float64(now.Sub(q.last))
	q.hist[b] += dt
	q.area += dt * float64(bytes)
	q.last = now
}

func (q *meteredQueue) Enqueue(now des.Time, p *netsim.Packet, drop netsim.Dropper) {
	q.account(now)
	if now >= q.from {
		q.offered += int64(p.Payload)
		q.offeredPkts++
	}
	q.drop.next = drop
	q.inner.Enqueue(now, p, &q.drop)
}

func (q *meteredQueue) Dequeue(now des.Time, drop netsim.Dropper) *netsim.Packet {
	q.account(now)
	q.drop.next = drop
	return q.inner.Dequeue(now, &q.drop)
}

func (q *meteredQueue) Len() int          { return q.inner.Len() }
func (q *meteredQueue) Bytes() unit.Bytes { return q.inner.Bytes() }

// occupancy returns the time-weighted mean and 95th percentile of the
// queue's bytes over [From, now]; the percentile is the upper edge of its
// histogram bucket, capped at the largest occupancy seen.
func (q *meteredQueue) occupancy(now des.Time) (mean, p95 float64) {
	q.account(now)
	var total float64
	for _, t := range q.hist {
		total += t
	}
	if total == 0 {
		return 0, 0
	}
	var acc float64
	for i, t := range q.hist {
		acc += t
		if acc >= 0.95*total {
			p95 = float64(i+1) * meterBucket
			break
		}
	}
	return q.area / total, p95
}

// lossFrac is the fraction of offered payload bytes dropped.
func (q *meteredQueue) lossFrac() float64 {
	if q.offered == 0 {
		return 0
	}
	return float64(q.dropped) / float64(q.offered)
}
