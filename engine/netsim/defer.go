package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// Deferred arrivals. A router whose every outgoing link is lazy (lazy.go)
// needs no event for a packet arriving on an incoming link U that feeds
// those links alone: what the arrival does (route the packet, offer it to
// an outgoing link D) changes nothing but D, and D's first output (the
// packet's arrival at D's far end) comes at least D's delay later. So U
// keeps its packets on the wire past their arrival times, and the router
// hands them on in order, each at its own time, when it must (Node.pull):
// before any of its outgoing links is touched (a packet offered, an
// event of its own, its statistics or queue read), or at the latest the
// least delay of those links after the earliest of them arrived (U's
// pull event, a des.Timer pushed later at every pull, so that it runs
// only when nothing else came first). A packet handed on late is offered
// to D with the clock set back to its arrival time (Network.now), and D,
// lazy, works out what it did then: its queue, the start and end of its
// transmission and its arrival at the far end, which comes after the
// pull. The events D (or U, caught up as its own arrival events would
// have) would have scheduled meanwhile are scheduled once the pull is
// over, with des.Scheduler.ScheduleLate, in the place among the events
// at their instant that they would have had: the end of a transmission
// that may find the wire empty (pullSettle) and the arrival that ends
// such a transmission schedules (Link.txDone). NewDumbbell marks its
// bottleneck as such a U (Link.deferrable): traffic crosses a dumbbell
// from side to side. On tcp-compete's probe dumbbell (engine/tcp's
// BenchmarkProbeCubic: 10 Gbit/s access links of 1 ms) this does away
// with the bottleneck's arrival at the far router for each data packet
// and the reverse bottleneck's for each ACK: two events of six.
//
// A router defers the arrivals of one incoming link only: two would have
// to be merged in time order. A packet of an skb (Packet.Skb), one owned
// by its socket (Packet.SetOwner) or one that some outgoing link sends in
// no less than its delay ends the deferral for good, before it is sent on
// U: D would start an skb with an event at its arrival time, the owner of
// a packet D drops must hear of it then, and a lazy link turns eager for
// such a packet (lazy.go). So does anything that may route packets
// elsewhere or make a link eager: a receiver attached to the router, a
// route changed, a link added, an observer installed (traces come out in
// time order), an outgoing link that turns eager, U's delay changing. U
// then schedules the arrival event of the packet at the head of its wire,
// in the place the eager link's had (deferOff).
//
// Same-instant order. A packet arriving at the very instant the running
// event runs is handed on first if its arrival event would have been
// scheduled earlier than the running one (arrivedBy); an end of D's
// transmission at the very instant a packet is handed on came first if
// it was scheduled earlier than that packet's arrival event, and not if
// both were scheduled at one instant by U's arrival event for the packet
// before (which schedules the next arrival, then hands its packet on)
// or by an end of transmission that came after it (pullTie). Other ties
// are counted (lazyTx.ties) and the arrival is taken to come last. The
// differential tests (defer_test.go, and lazy_test.go's, which run with
// deferred arrivals wherever a case allows them) require the eager
// network's deliveries and statistics to the nanosecond.
type deferTx struct {
	decided bool
	on      bool
	// pull is the deadline of the packet at the head of the wire, the
	// pull event: a timer, pushed later each time the node pulls (an
	// O(1) des.Timer.Reset), so it runs only when nothing else touched
	// the node's outgoing links in time.
	pull des.Timer
	// minDelay is the least delay of the router's outgoing links: a
	// packet handed on that much after its arrival still reaches the far
	// end of any of them after the pull.
	minDelay des.Duration
	// maxSize is the largest packet every one of those links sends in
	// less than its delay: a larger one would turn a link eager while
	// the router hands packets on late, so it ends the deferral.
	maxSize unit.Bytes
	// prevArrive is the arrival time of the last packet handed on: the
	// instant at which the eager link scheduled the next packet's
	// arrival event, if that packet was on the wire by then.
	prevArrive des.Time
	// handed counts the packets handed on without an event (each an
	// arrival event of the eager link) and pulls the pull events run;
	// Network.Events counts the one for the other.
	handed, pulls uint64
}

// pullState is what a router handing packets on (Node.pull) tells the
// links it touches.
type pullState struct {
	active bool // a pull is under way: ends of transmission are settled after it
	// virtual: a packet is being handed on, at at; its arrival event
	// would have been scheduled at sched, and chained says that it was
	// scheduled by the arrival event of the packet before, at that
	// packet's arrival time.
	virtual bool
	at      des.Time
	sched   des.Time
	chained bool
	touched []*Link // links that started a transmission during the pull
	offs    []*Link // deferrals to end once the pull is over (Link.Send)
}

// now returns the time the network's links act at: the clock, or the
// arrival time of the packet a router is handing on late.
func (n *Network) now() des.Time {
	if n.pl.virtual {
		return n.pl.at
	}
	return n.sched.Now()
}

// deferDecide decides, when the link is offered its first packet,
// whether its far node takes its arrivals without events.
func (l *Link) deferDecide() {
	l.df.decided = true
	if !l.lz.decided {
		l.lazyDecide()
	}
	n := l.to
	if !l.deferrable || l.net.noDefer || l.net.observer != nil || !l.lz.on || l.jitter > 0 || l.endsFirst || l.netemLimit > 0 || l.moved ||
		n.deferred != nil || !n.deferOK() {
		return
	}
	l.df.on = true
	l.df.pull.Init(l.net.sched, l, kindPull, 0)
	n.deferred = l
	l.df.minDelay, l.df.maxSize = n.out[0].delay, n.out[0].deferMaxSize()
	for _, d := range n.out[1:] {
		l.df.minDelay = min(l.df.minDelay, d.delay)
		l.df.maxSize = min(l.df.maxSize, d.deferMaxSize())
	}
}

// deferMaxSize is the largest packet size the link sends in less than
// its delay (lazyMaxBits), frame overhead included.
func (l *Link) deferMaxSize() unit.Bytes {
	return unit.Bytes(l.lz.maxBits/8) - unit.Bytes(l.overhead)
}

// deferCheck ends the deferral before a packet it cannot take goes on
// the link (see the top of the file), once the pull under way, if any,
// is over.
func (l *Link) deferCheck(now des.Time, p *Packet) {
	if !l.df.decided {
		l.deferDecide()
	}
	if !l.df.on || p.Skb == 0 && !p.owned && p.Size <= l.df.maxSize {
		return
	}
	if pl := &l.net.pl; pl.active {
		pl.offs = append(pl.offs, l)
		return
	}
	l.deferOff(now)
}

// deferOK reports whether the node can take an incoming link's arrivals
// without events: it has no receiver, and every link it may send on is
// one of its outgoing links that is lazy for any packet (deferTarget).
func (n *Node) deferOK() bool {
	if len(n.receivers) > 0 || n.deflt != nil || len(n.out) == 0 {
		return false
	}
	for _, d := range n.out {
		if !d.deferTarget() {
			return false
		}
	}
	for _, e := range n.routes {
		if d, ok := e.(*Link); e != nil && (!ok || d.from != n) {
			return false
		}
	}
	return true
}

// deferTarget reports whether a router can hand the link packets late:
// it is lazy, without jitter, netem limit or EndsFirst, and sends at
// least a header in less than its delay.
func (l *Link) deferTarget() bool {
	if !l.lz.decided {
		l.lazyDecide()
	}
	return l.lz.on && l.jitter == 0 && l.netemLimit == 0 && !l.endsFirst && l.deferMaxSize() >= minPacketBytes
}

// deferOff ends the deferral for good: the packets due by now are handed
// on, and the packet at the head of the wire gets its arrival event.
func (l *Link) deferOff(now des.Time) {
	if !l.df.on {
		return
	}
	if l.net.pl.active {
		panic("bug: netsim: deferral ended during a pull")
	}
	l.to.pull(now)
	l.df.on = false
	l.df.pull.Stop()
	l.to.deferred = nil
	if h := l.flight.head; h != nil {
		sched, _ := l.arrivalScheduled(h)
		l.net.sched.ScheduleLate(h.arrive, sched, l, kindArrive, 0)
	}
}

// deferOffAt ends the deferral of the node's incoming link, if any.
func (n *Node) deferOffAt(now des.Time) {
	if u := n.deferred; u != nil {
		u.deferOff(now)
	}
}

// deferPush puts a deferred link's transmitted packet on the wire and
// makes sure the pull event is pending.
func (l *Link) deferPush(p *Packet) {
	l.flight.push(p)
	if !l.df.pull.Pending() {
		l.df.pull.Reset(l.flight.head.arrive.Add(l.df.minDelay))
	}
}

// pullEvent runs the pull event: the node hands on what is due.
func (l *Link) pullEvent(now des.Time) {
	l.df.pulls++
	l.to.pull(now)
	if h := l.flight.head; h != nil && l.df.on && !l.df.pull.Pending() {
		l.df.pull.Reset(h.arrive.Add(l.df.minDelay))
	}
}

// pull hands on, in order and each at its arrival time, the packets of
// the node's deferred incoming link due by now (arrivedBy), after
// catching that link's transmitter up; then the outgoing links that
// started transmissions catch up to now and schedule the ends of
// transmission an eager link would have an event for.
func (n *Node) pull(now des.Time) {
	if n.deferred != nil {
		n.pullDue(now)
	}
}

// pullDue is pull for a node that defers.
func (n *Node) pullDue(now des.Time) {
	u, pl := n.deferred, &n.net.pl
	if pl.active {
		return
	}
	h := u.flight.head
	due := h != nil && h.arrive <= now
	// The eager link's arrival events catch its transmitter up: catch
	// it up before handing on, and whenever a transmission over by now
	// may have put a packet due by now on the wire (lazy.go).
	catchUp := u.lz.on && u.tx != nil && u.lz.end <= now && (due || u.lz.end.Add(u.delay) <= now)
	if !due && !catchUp {
		return
	}
	pl.active = true
	if catchUp {
		u.lazyCatchUp(now, true)
	}
	for p := u.flight.head; p != nil && (p.arrive < now || p.arrive == now && u.arrivedBy(p)); p = u.flight.head {
		u.flight.pop()
		pl.virtual, pl.at = true, p.arrive
		pl.sched, pl.chained = u.arrivalScheduled(p)
		u.df.prevArrive = p.arrive
		u.df.handed++
		u.deliver(p.arrive, p)
	}
	pl.virtual = false
	if h := u.flight.head; h != nil {
		u.df.pull.Reset(h.arrive.Add(u.df.minDelay)) // later: O(1)
	} else {
		u.df.pull.Stop()
	}
	for i, d := range pl.touched {
		d.pullSettle(now)
		pl.touched[i] = nil
	}
	pl.touched = pl.touched[:0]
	pl.active = false
	for i, o := range pl.offs {
		o.deferOff(now)
		pl.offs[i] = nil
	}
	pl.offs = pl.offs[:0]
}

// arrivalScheduled returns when the eager link scheduled the arrival
// event of p, the packet at the head of its wire: at the end of p's
// transmission, or, if p was on the wire by then (chained), at the
// arrival of the packet before, whose handler schedules the next.
func (l *Link) arrivalScheduled(p *Packet) (sched des.Time, chained bool) {
	sent := p.arrive.Add(-l.delay)
	if sent < l.df.prevArrive {
		return l.df.prevArrive, true
	}
	return sent, false
}

// arrivedBy reports whether p, due now, arrived before the running event
// ran: whether its arrival event would have been scheduled first.
// Outside a handler everything due by now has arrived; an event of
// ScheduleFirst runs before any arrival at its instant.
func (l *Link) arrivedBy(p *Packet) bool {
	sched, seq, _, ok := l.net.sched.Running()
	if !ok {
		return true
	}
	if des.IsFirst(seq) {
		return false
	}
	if sk, _ := l.arrivalScheduled(p); sk != sched {
		return sk < sched
	}
	l.lz.ties++
	return false
}

// pullStarted notes a transmission a link started during a pull (a
// packet handed on, or the next one at the end of another): the decision
// whether its end needs an event waits for pullSettle.
func (l *Link) pullStarted() {
	pl := &l.net.pl
	if !l.lz.pulled {
		l.lz.pulled = true
		pl.touched = append(pl.touched, l)
	}
}

// pullOrder notes, for a transmission that starts at now, whether its
// end event would have been scheduled after a deferred arrival event at
// now (pullTie): if the packet handed on at now started it (the arrival
// handler schedules the next arrival before it hands its packet on), or
// the end of the transmission before, at now, came after that arrival.
func (l *Link) pullOrder(now des.Time) {
	l.lz.pulledAt = -1
	if l.net.pl.virtual && !l.lz.virtual || l.lz.virtual && l.lz.afterAt == now {
		l.lz.pulledAt = now
	}
}

// pullSettle brings a link that started transmissions during a pull up
// to now and schedules the end of its current transmission if it may
// find the wire empty, as lazyStarted does in a handler: late, as the
// eager link scheduled it when the transmission started.
func (l *Link) pullSettle(now des.Time) {
	if l.tx != nil && l.lz.end <= now {
		// Only the current transmission can be over: each started
		// when the one before ended.
		l.lazyCatchUp(now, true)
	}
	l.lz.pulled = false
	if l.tx == nil || l.lz.realTx {
		return
	}
	if t := l.flight.tail; t == nil || t.arrive <= l.lz.end {
		// Scheduled as the eager link did, when the transmission
		// started; still late for lazyCatchUp, which may end it first.
		l.lz.realTx, l.lz.late = true, true
		l.net.sched.ScheduleLate(l.lz.end, l.lz.sched, l, kindTxDone, 0)
	}
}

// pullTie answers lazyDoneAt for a link a router is handing a packet to
// late: whether the end of transmission due at the packet's arrival
// came before it (see the top of this file).
func (l *Link) pullTie() bool {
	pl := &l.net.pl
	switch {
	case l.lz.sched != pl.sched:
		if l.lz.sched < pl.sched {
			return true
		}
	case l.lz.pulledAt == pl.sched && pl.chained:
		// Both scheduled at one instant, the arrival first.
	default:
		l.lz.ties++
	}
	l.lz.afterAt = pl.at // the end comes after the arrival at this instant
	return false
}

// DeferredArrivals returns how many packets routers have handed on
// without an arrival event (see above): a count for diagnostics.
func (n *Network) DeferredArrivals() uint64 {
	var h uint64
	for _, l := range n.links {
		h += l.df.handed
	}
	return h
}
