package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// CoDel is the Controlled Delay queue discipline of RFC 8289: a FIFO that
// measures each packet's sojourn time (from enqueue to dequeue) and, once
// the sojourn time has stayed at or above Target for a whole Interval,
// drops packets at the head at a rate that grows with the square root of
// the number of drops (the control law of RFC 8289 section 3.3), until the
// sojourn time falls below Target again.
//
// Drops happen at dequeue and count as DropAQM; packets refused because the
// queue already holds Limit packets count as DropOverflow (RFC 8289
// section 4.1 leaves the hard limit to the implementation; Linux's codel
// tail-drops at 1000 packets by default).
//
// The zero value of every field selects its default.
type CoDel struct {
	// Target is the acceptable standing queue delay; default 5 ms (RFC
	// 8289 section 4.4).
	Target des.Duration
	// Interval is the window over which the sojourn time must stay above
	// Target before dropping starts, on the order of a worst-case RTT;
	// default 100 ms (RFC 8289 section 4.3).
	Interval des.Duration
	// MTU is the "maximum packet size" (MAXPACKET) of RFC 8289 section
	// 5.3, used for non-starvation (section 4.2): CoDel does
	// not drop while the queue holds at most MTU bytes, since a single
	// packet's worth of queue is not a standing queue. Default 1500 bytes.
	MTU unit.Bytes
	// Limit is the hard limit in packets; default 1000.
	Limit int
}

// Defaults of CoDel.
const (
	DefaultCoDelTarget   = 5 * des.Millisecond   // RFC 8289 section 4.4
	DefaultCoDelInterval = 100 * des.Millisecond // RFC 8289 section 4.3
	DefaultCoDelMTU      = 1500
	DefaultCoDelLimit    = 1000 // Linux sch_codel
)

// Validate implements Validator.
func (c CoDel) Validate() error {
	if c.Target < 0 || c.Interval < 0 || c.MTU < 0 || c.Limit < 0 {
		return fmt.Errorf("netsim: codel: negative parameter in %+v", c)
	}
	return nil
}

func (c CoDel) params() codelParams {
	p := codelParams{target: c.Target, interval: c.Interval, mtu: c.MTU}
	if p.target == 0 {
		p.target = DefaultCoDelTarget
	}
	if p.interval == 0 {
		p.interval = DefaultCoDelInterval
	}
	if p.mtu == 0 {
		p.mtu = DefaultCoDelMTU
	}
	return p
}

// NewQueue implements QueueModel.
func (c CoDel) NewQueue() Queue {
	if err := c.Validate(); err != nil {
		panic("bug: " + err.Error())
	}
	limit := c.Limit
	if limit == 0 {
		limit = DefaultCoDelLimit
	}
	return &codelQueue{prm: c.params(), limit: limit}
}

// codelParams are the constants of RFC 8289 section 5.3.
type codelParams struct {
	target, interval des.Duration
	mtu              unit.Bytes
}

// codelVars is the per-queue state of RFC 8289 section 5.2 (the variables
// first_above_time_, drop_next_, count_, lastcount_ and dropping_ of its
// pseudocode). FQ-CoDel keeps one per flow queue.
type codelVars struct {
	// firstAbove is when the sojourn time will have been above target for
	// an interval; 0 means it is below target (as in RFC 8289 section
	// 5.6; no real deadline is 0 because it is now+interval > 0).
	firstAbove des.Time
	// dropNext is when the next drop is due while dropping.
	dropNext des.Time
	// count is the number of drops since dropping started (with the
	// carry-over of section 5.5); lastCount its value when the previous
	// dropping state was entered.
	count, lastCount int
	dropping         bool
}

// controlLaw returns t + interval/sqrt(count) (RFC 8289 section 3.3 and
// the control_law helper of section 5.6), truncated to the nanosecond.
func controlLaw(t des.Time, interval des.Duration, count int) des.Time {
	return t.Add(des.Duration(float64(interval) / math.Sqrt(float64(count))))
}

// doDequeue pops the head of q and decides whether it may be dropped: the
// dodequeue helper of RFC 8289 section 5.6. okToDrop is true once the
// sojourn time has been at or above target for at least interval and the
// queue still holds more than one MTU after this packet.
func (v *codelVars) doDequeue(now des.Time, prm *codelParams, q *pktQueue) (p *Packet, okToDrop bool) {
	p = q.pop()
	if p == nil {
		// The queue is empty: it cannot be a standing queue.
		v.firstAbove = 0
		return nil, false
	}
	sojourn := now.Sub(p.enqueued)
	if sojourn < prm.target || q.bytes <= prm.mtu {
		// Went (or stayed) below target, or too little left to be a
		// standing queue.
		v.firstAbove = 0
		return p, false
	}
	if v.firstAbove == 0 {
		// Just went above target: allow dropping if it stays above for
		// an interval.
		v.firstAbove = now.Add(prm.interval)
		return p, false
	}
	return p, now >= v.firstAbove
}

// dequeue is the CoDel dequeue routine of RFC 8289 section 5.5: it returns
// the next packet to send, dropping packets at the head through drop (as
// DropAQM) when the state machine says so.
func (v *codelVars) dequeue(now des.Time, prm *codelParams, q *pktQueue, drop Dropper) *Packet {
	p, ok := v.doDequeue(now, prm, q)
	if p == nil {
		v.dropping = false
		return nil
	}
	if v.dropping {
		if !ok {
			// Sojourn time below target: leave the dropping state.
			v.dropping = false
		}
		// Drop as many packets as the control law says are due; each
		// drop brings the next one closer (interval/sqrt(count)).
		for v.dropping && now >= v.dropNext {
			drop.Drop(now, p, DropAQM)
			v.count++
			p, ok = v.doDequeue(now, prm, q)
			if !ok {
				v.dropping = false
			} else {
				v.dropNext = controlLaw(v.dropNext, prm.interval, v.count)
			}
		}
		return p
	}
	if ok {
		// Enter the dropping state: drop this packet and schedule the
		// next drop.
		drop.Drop(now, p, DropAQM)
		p, _ = v.doDequeue(now, prm, q)
		v.dropping = true
		// If we were dropping recently (within 16 intervals of the last
		// scheduled drop), start from the drop rate that controlled the
		// queue last time rather than from 1 (RFC 8289 section 5.5).
		delta := v.count - v.lastCount
		v.count = 1
		if delta > 1 && now.Sub(v.dropNext) < 16*prm.interval {
			v.count = delta
		}
		v.dropNext = controlLaw(now, prm.interval, v.count)
		v.lastCount = v.count
	}
	return p
}

type codelQueue struct {
	prm   codelParams
	limit int
	q     pktQueue
	v     codelVars
}

// Enqueue timestamps p (RFC 8289 section 5.4) and tail-drops it when the
// queue already holds limit packets.
func (q *codelQueue) Enqueue(now des.Time, p *Packet, drop Dropper) {
	if q.q.q.n >= q.limit {
		drop.Drop(now, p, DropOverflow)
		return
	}
	p.enqueued = now
	q.q.push(p)
}

// Dequeue implements Queue (RFC 8289 section 5.5).
func (q *codelQueue) Dequeue(now des.Time, drop Dropper) *Packet {
	return q.v.dequeue(now, &q.prm, &q.q, drop)
}

func (q *codelQueue) Len() int          { return q.q.q.n }
func (q *codelQueue) Bytes() unit.Bytes { return q.q.bytes }
