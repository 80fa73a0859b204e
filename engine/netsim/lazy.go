package netsim

import (
	"math"
	"math/bits"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// The lazy transmitter. Behind a DropTail queue a link's transmitter is a
// pure function of the arrivals: a packet the queue accepts is sent, the
// queue never drops from its head, and each transmission starts when the
// previous one ends or when the packet arrives, whichever is later. So
// the end-of-transmission event, one per packet, does nothing that could
// not be done later, at the link's next interaction, with the clock set
// back to when it would have run: the link keeps the end time of the
// packet being sent (lazyTx.end) and, whenever it is touched (a packet
// offered, an arrival due, its statistics read), first ends every
// transmission that is over (lazyCatchUp), in order and each at its own
// time, through the same code the event would have run (endTx). The
// queue's occupancy integrals, waiting times, busy time, the loss and
// jitter draws (in transmission order, on the same streams) and the
// arrival times all come out the same.
//
// The arrival events stay as they were, one per packet: the arrival of
// the head of the flight schedules the next one's. Only the
// end-of-transmission event of a packet that finds the flight empty
// scheduled an arrival event itself; so a transmission that may end with
// nothing in flight (the last packet in flight arrives before it ends,
// which on a link whose delay exceeds the transmission time means after
// an idle spell) keeps its event, scheduled as before. Each ends the
// transmissions before it, so their events are the ones done without.
// Such a transmission starts in a handler (the link was idle, or its
// predecessor's event ran) as long as the delay exceeds the transmission
// time of every packet (of a whole skb, taken as lazyMaxBytes): a link is
// lazy only while it does. Losses can still empty the flight behind a
// transmission that started in a catch-up; its event is then scheduled
// late, and the link orders it itself (lazyTx.late).
//
// Same-instant order. A packet offered at exactly the instant a
// transmission ends sees the queue with or without the packet that
// starts next, depending on which of the two events the scheduler would
// have run first: events at one instant run in scheduling order. The
// end-of-transmission event would have been scheduled when its packet's
// transmission started; des.Scheduler.Running tells when the running
// event was scheduled and by which event, and lazyDoneAt works out the
// order from these (des.Scheduler.Reserve keeps the order of an event
// done without when it would have been scheduled in a handler).
//
// A link is lazy when its queue is a DropTail, it has a finite rate and a
// propagation delay, and no observer is installed when its first packet
// arrives (traces must come out in time order). It turns eager for good
// (lazyEager) when an observer appears, when a packet (or an skb, taken as
// 64 KiB) takes longer to send than the delay, or when its loss process,
// drawn at the end of a transmission, could lose a packet whose sending
// socket waits to be told (Packet.SetOwner): the owner must hear of the loss
// at the instant it happens.
//
// A netem limit (a Mininet TCLink) changes none of this. Its admission,
// losses included, happens when a packet is offered, after the catch-up;
// what it counts is the packets offered and not yet delivered, less those
// in flight whose transmission began a delay ago (netemHeld), and the
// flight is the eager link's once the catch-up has ended every
// transmission due (one that began a delay ago, shorter than the delay,
// has ended before now); deliveries keep their events.
//
// A link whose ends of transmission come first at their instant
// (LinkConfig.EndsFirst) stays lazy when its delay changes (SetDelay, a
// satellite link moving with its ends): the transmissions over by the
// change end first, with the delay they had (lazyCatchUp; one ending at
// that very instant came before the change), and those ending later take
// the new delay, as they would at their eager events. A new delay no
// longer than the time of the largest transmission the link has had
// (maxSeen) turns it eager. Any other link turns eager at its first
// change of delay: which of an end and an arrival at one instant comes
// first depends there on how they were scheduled, which a lazy link
// cannot always work out (ties) in a network of equal-rate links in
// lockstep.
type lazyTx struct {
	decided bool // on has been decided, at the first packet
	on      bool // the transmitter is lazy
	virtual bool // lazyCatchUp is replaying ends of transmission
	realTx  bool // the current transmission's end has its event
	// late: that event was scheduled in a catch-up, later than the
	// eager link would have, so it does not order itself among
	// simultaneous events: lazyCatchUp may end the transmission first,
	// and the event, when it comes, is skipped (skip counts those).
	late bool
	skip int

	end   des.Time // when the packet being sent (Link.tx) will have left
	sched des.Time // when its end-of-transmission event would have been scheduled
	seq   uint64   // and its scheduling order, if seqOK
	seqOK bool     // seq is known: the transmission started in a handler, not in lazyCatchUp

	// Recent answers of lazyDoneAt: whether the transmission ending at
	// at ended before the event of scheduling order seq ran.
	known [4]tieAnswer
	next  int

	// ties counts same-instant orders lazyDoneAt could not work out
	// (the running event is then taken to run first) and other
	// departures from the eager order (a switch to eager, an arrival
	// event scheduled in a catch-up); the differential test requires
	// none.
	ties int64

	ended uint64 // transmissions ended in a catch-up: events done without

	// maxBits is the largest transmission, in bits, that takes less than
	// the delay at the link's rate (lazyFits), fixed when the link
	// decides to be lazy and, with EndsFirst, when its delay changes:
	// otherwise, while it is lazy, its rate and delay do not change
	// (SetRate and SetDelay turn it eager).
	maxBits uint64
	// maxSeen is the largest transmission offered so far, bits (an skb
	// as lazyMaxBytes): a new delay (SetDelay) must exceed its time too.
	maxSeen uint64
}

// lazyMaxBytes is the largest transmission (a whole GSO skb, 64 KiB, with
// headers to spare) whose time a lazy link's delay must exceed.
const lazyMaxBytes = 65536 + 1024

// minPacketBytes is the least Size of a packet of an skb: its IPv4 and
// TCP headers.
const minPacketBytes = 40

type tieAnswer struct {
	at   des.Time
	seq  uint64
	done bool
	ok   bool
}

// lazySend decides, at the first packet, whether the link is lazy, and
// catches up before p is offered.
func (l *Link) lazySend(now des.Time, p *Packet) {
	if !l.lz.decided {
		l.lz.decided = true
		_, dropTail := l.queue.(*dropTail)
		l.lz.on = !l.shaper && dropTail && l.bps > 0 && l.delay > 0 && l.net.observer == nil && (!l.moved || l.endsFirst)
		if !l.lz.on {
			l.early.on = l.earlyFits() // early.go
			return
		}
		l.lz.maxBits = lazyMaxBits(l.delay, l.bps)
	}
	size := uint64(p.Size) + l.overhead
	if p.Skb != 0 {
		// The whole skb is sent as one, each of its packets (at most
		// one per 40 header bytes) with its frame overhead.
		size = lazyMaxBytes + lazyMaxBytes/minPacketBytes*l.overhead
	}
	l.lz.maxSeen = max(l.lz.maxSeen, size*8)
	if l.net.observer != nil || l.loss != nil && l.netemLimit == 0 && p.owned || size*8 > l.lz.maxBits {
		l.lazyEager(now)
		return
	}
	l.lazyCatchUp(now, true)
}

// lazyMaxBits returns the largest number of bits b whose transmission
// time at bps, ceil(b*1e9/bps) ns (bitTime), is shorter than delay (at
// least 1 ns): ceil(x) < delay exactly when x <= delay-1, so b is
// floor((delay-1)*bps/1e9), computed in 128 bits (saturating at the
// largest uint64). A link compares each packet with it instead of
// dividing.
func lazyMaxBits(delay des.Duration, bps uint64) uint64 {
	hi, lo := bits.Mul64(uint64(delay-1), bps)
	if hi >= 1e9 {
		return math.MaxUint64 // the quotient does not fit in 64 bits
	}
	q, _ := bits.Div64(hi, lo, 1e9)
	return q
}

// lazyEager turns the link eager for good: it ends the transmissions that
// are over and schedules the end of the current one, now rather than
// when it started (counted in ties, but with EndsFirst, whose ends come
// first at their instant however late they were scheduled).
func (l *Link) lazyEager(now des.Time) {
	l.lazyCatchUp(now, true)
	l.lz.on = false
	if l.tx != nil && !l.lz.realTx {
		if !l.endsFirst && (l.lz.sched != now || !l.lz.seqOK) {
			l.lz.ties++
		}
		l.lz.realTx = true
		l.scheduleEnd(l.lz.end)
	}
}

// lazyCatchUp ends, each at its own time, every transmission that is over
// by now: those ending before now, and, if atNow, one ending at now whose
// event would already have run (lazyDoneAt).
func (l *Link) lazyCatchUp(now des.Time, atNow bool) {
	for l.tx != nil && (!l.lz.realTx || l.lz.late) {
		end := l.lz.end
		if end > now || end == now && (!atNow || !l.lazyDoneAt()) {
			return
		}
		if l.lz.realTx {
			// Its event, scheduled late, will count itself.
			l.lz.realTx, l.lz.late = false, false
			l.lz.skip++
		} else {
			l.lz.ended++
		}
		l.lz.virtual = true
		l.endTx(end)
		l.lz.virtual = false
	}
}

// lazyDoneAt reports whether the end-of-transmission event due now would
// have run before the running event. Outside a handler (a model reading
// statistics after Run), everything due by now has run.
//
// Both events were scheduled at some instant: if at different instants,
// the earlier one runs first. If at the same instant, the one whose
// scheduling event ran first: for a transmission started in a handler
// the link reserved its order; for one started when the previous ended
// (a busy link), its scheduling event is that previous end, and the
// running event's is one that ran at that instant too. In a busy link
// fed by a steady flow, the two chains keep in step for as long as the
// flow lasts, each scheduling the next at the same instant; the link
// remembers its recent answers, so the question for the scheduling
// events has been answered when they ran, if the earlier event offered
// a packet to this link then. Otherwise ties counts it, and the running
// event is taken to have been scheduled first.
func (l *Link) lazyDoneAt() bool {
	sched, seq, parent, ok := l.net.sched.Running()
	if !ok {
		return true
	}
	if l.endsFirst {
		// The end came before every ordinary event at this instant.
		// Only an ordinary event's handler offers a packet, delivers
		// one or moves the link; were the running event another end
		// (which touches only its own link), the two would commute.
		if des.IsFirst(seq) {
			l.lz.ties++
		}
		return true
	}
	done := false
	switch {
	case sched != l.lz.sched:
		done = l.lz.sched < sched
	case l.lz.seqOK:
		done = l.lz.seq < seq
	case parent == des.NoParent:
		// Scheduled between two calls of Run, after every event due
		// by then had run, the end of transmission's predecessor
		// included. (Before the first Run nothing has been sent.)
		done = true
	default:
		found := false
		for _, a := range l.lz.known {
			if a.ok && a.at == sched && a.seq == parent {
				done, found = a.done, true
				break
			}
		}
		if !found {
			l.lz.ties++
		}
	}
	l.lz.known[l.lz.next] = tieAnswer{at: l.net.sched.Now(), seq: seq, done: done, ok: true}
	l.lz.next = (l.lz.next + 1) % len(l.lz.known)
	return done
}

// lazyStarted notes a transmission that started at now and ends at end,
// and schedules its end-of-transmission event if it may find the flight
// empty, as the eager link would have at this point.
func (l *Link) lazyStarted(now, end des.Time) {
	l.lz.end, l.lz.sched, l.lz.seqOK = end, now, false
	if t := l.flight.tail; t == nil || t.arrive <= end {
		l.lz.late = l.lz.virtual
		l.lz.realTx = true
		l.scheduleEnd(end)
		return
	}
	if !l.lz.virtual {
		l.lz.seq, l.lz.seqOK = l.net.sched.Reserve(), true
	}
}

// Events returns the number of events the simulation has handled: those
// the scheduler ran, followers included (follow.go), the ends of
// transmission due by now that lazy links
// handled without an event, and the arrivals that links without delay
// made in their end-of-transmission event (each would have been one
// event of an eager link with an arrival event per packet). It is the
// count such a network's scheduler would give, so a model's events
// metric does not depend on how links run.
func (n *Network) Events() uint64 {
	now := n.sched.Now()
	e := n.sched.Handled()
	for _, l := range n.links {
		if l.lz.on {
			l.lazyCatchUp(now, true)
		}
		_, _, _, ahead := l.earlyAhead(now)
		e += l.lz.ended + l.st.directArrivals + l.early.ended - ahead
	}
	return e
}
