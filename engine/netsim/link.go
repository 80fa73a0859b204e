package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// LinkConfig describes one direction of a link.
type LinkConfig struct {
	// Name identifies the link in statistics and traces and names its
	// random stream ("link/"+Name), so it must be unique in a Network.
	// Empty means "<from>-><to>" (with a suffix for parallel links).
	Name string
	// Rate is the transmission rate; 0 means infinitely fast (no
	// serialisation delay). The link serialises at a whole number of
	// bit/s, the rate rounded down.
	Rate unit.BitRate
	// Delay is the propagation delay. With none (and no Jitter) a packet
	// reaches the far node in the event that ends its transmission.
	Delay des.Duration
	// Queue is the buffer in front of the transmitter; nil means an
	// unlimited DropTail.
	Queue QueueModel
	// Loss is the per-packet loss process; nil means lossless.
	Loss LossModel
	// Jitter adds to each packet's propagation delay a time drawn
	// uniformly from [0, Jitter) on the link's own stream
	// ("link/"+Name+"/jitter"), without reordering: a packet never arrives
	// before the one transmitted ahead of it. It stands for the variable
	// delays between a transmitter and the next queue that a fixed delay
	// leaves out (a host's interrupt and scheduling latency, a switch's
	// forwarding). 0 means none.
	Jitter des.Duration
	// NetemLimit, when > 0, makes the link behave like Linux netem's
	// delay line in front of a rate shaper, the way a Mininet TCLink with
	// delay and max_queue_size is built (an HTB class at Rate whose leaf
	// qdisc is "netem delay Delay loss L limit NetemLimit"). netem counts
	// against its limit every packet it holds, those still being delayed
	// included (sch_netem.c, netem_enqueue: qlen >= limit drops), and
	// holds a packet from its arrival until the shaper takes it, Delay
	// later at the earliest. A constant delay before a FIFO shaper gives
	// the same departure times as the shaper followed by the delay, which
	// is how the link models it; so a packet counts from the moment it is
	// offered until Delay after its transmission starts, and one offered
	// when NetemLimit packets count is dropped as overflow. The
	// propagation delay thus takes room from the buffer, and a limit below
	// Rate x Delay caps the link at NetemLimit packets per Delay. The loss
	// process acts on arrival, before the limit, as netem's does, so lost
	// packets take no transmission time. The queue's own limit still
	// applies. With Jitter the count runs on to the jittered arrival, so
	// the two are not meant to be combined. The limit counts skbs: the
	// segments of a GSO aggregate (Packet.Skb) count once and are lost
	// together; and a netem with a Delay releases what it admits from its
	// sending socket (Packet.SetOwner), as Linux's orphans it (skb.go).
	NetemLimit int
	// EndsFirst makes each end of transmission come before any other
	// event at the same instant (des.Scheduler.ScheduleFirst): a packet
	// that reaches the link at the very instant a transmission ends finds
	// the transmitter free and the queue without the packet that starts
	// next. Otherwise the two run in the order they were scheduled, which
	// depends on the events before them. With EndsFirst a lazy link
	// (lazy.go) reproduces the order exactly, however busy the links that
	// feed it, so a network of equal-rate links in lockstep (a satellite
	// network's) runs lazy with the eager results.
	EndsFirst bool
	// FrameOverhead is the bytes each packet takes at Rate beyond its
	// Size: the header of a frame that a rate shaper counts and the
	// packet's Size leaves out, as Linux's HTB counts each segment's
	// 14-byte Ethernet header (qdisc_pkt_len, set by qdisc_pkt_len_init
	// for every segment of a GSO skb) against its rate. Queue limits,
	// loss and statistics keep counting Size.
	FrameOverhead unit.Bytes
	// Shaper makes the transmitter a token-bucket shaper, as Linux's HTB
	// shapes each end of a Mininet TCLink (sch_htb.c) in front of a
	// device that sends at once (a veth). The shaper releases a packet
	// whole the moment its bucket holds credit (htb_class_mode: a class
	// sends while its tokens are not negative) and charges its length
	// at Rate to the bucket (htb_charge_class); the bucket refills at
	// Rate up to Burst bytes' worth. So a backlogged shaper releases
	// packets at Rate, each at the start of the time its length takes,
	// and one idle long enough lets Burst bytes' worth go at once (the
	// first packet whatever its size). The packet goes on the wire when
	// it is released: it arrives Delay later, where a transmitter's
	// arrives Delay after its last bit. Transmission times stay exact
	// (Link): a busy period starts Burst's time at Rate before the
	// packet that starts it, or at the end of the last, whichever is
	// later.
	Shaper bool
	// Burst is the shaper's bucket in bytes: an HTB class's cburst (the
	// smaller of its two buckets binds when ceil equals rate). tc sets
	// an unspecified cburst to ceil/hz + mtu (iproute2's q_htb.c, with
	// hz from /proc/net/psched: 10^9 on a host with high-resolution
	// timers), so 1600 bytes. Only with Shaper; 0 releases one packet
	// at a time.
	Burst unit.Bytes
}

// Link is one direction of a point-to-point link: a queue, a transmitter
// that serialises one packet at a time at Rate, and a propagation delay.
//
// Every packet is delayed by the same propagation time, so the packets in
// flight form a FIFO: the link keeps them in an intrusive list and has at
// most one arrival event (for the head) and one end-of-transmission event
// in the scheduler at any time. Behind a DropTail queue the link needs no
// end-of-transmission events at all (lazy.go).
//
// Transmission times are exact: within a busy period (back-to-back
// packets) the last bit of the packet that brings the period's bit count to
// B leaves at start + ceil(B*1e9/Rate) ns, computed in 128-bit integers, so
// rounding never accumulates over a long run.
type Link struct {
	net      *Network
	name     string
	from, to *Node
	rate     unit.BitRate // whole bit/s
	bps      uint64       // rate, for the integer transmission times
	overhead uint64       // LinkConfig.FrameOverhead, bytes per packet
	delay    des.Duration
	queue    Queue
	dropTail *dropTail // queue, when it is a DropTail (most links): read without the interface
	loss     Loss
	rng      *rand.Rand

	// Transmitter.
	tx       *Packet // packet being serialised, nil when idle
	batch    fifo    // the rest of tx's skb, serialised with it (skbBatch)
	startSet bool    // a kindStart event is pending
	// follower: an end of transmission that runs at the end of this
	// link's pending arrival event (follow.go), if following.
	follower  des.Follower
	following bool
	txStart   des.Time // when tx started
	busyStart des.Time // start of the current busy period
	// The bits of the busy period up to and including tx, B, as the
	// quotient and remainder of B*1e9 by the rate: busyNs =
	// floor(B*1e9/rate) and busyRem its remainder, so that
	// ceil(B*1e9/rate) is busyNs, plus one if busyRem > 0. Each packet
	// adds its own quotient and remainder (txBits), which for the usual
	// one or two packet sizes of a link are kept from the last time:
	// the end of every transmission stays exact over any busy period
	// without a 128-bit division per packet.
	busyNs, busyRem uint64
	bitsMemo        [2]bitsDiv
	// txEnd is when the latest transmission ends (or ended):
	// busyStart + ceil(B*1e9/rate) (B below), kept rather than divided
	// again for every packet (txEndPrev).
	txEnd des.Time

	shaper      bool         // LinkConfig.Shaper
	burst       des.Duration // LinkConfig.Burst at Rate
	shaperUntil des.Time     // the shaper's bucket is in credit again (shaper.go)

	netemLimit int       // LinkConfig.NetemLimit
	endsFirst  bool      // LinkConfig.EndsFirst
	netemSkbs  int       // skbs admitted by the netem limit and not yet delivered or dropped
	fates      []skbFate // per flow: the last skb the netem limit decided on

	// Propagation.
	flight     fifo
	jitter     des.Duration
	jrng       *rand.Rand
	lastArrive des.Time // arrival time of the latest packet sent on
	moved      bool     // SetDelay was called: arrivals keep their order by lastArrive

	lz    lazyTx  // the transmitter without events (lazy.go)
	early earlyTx // the transmitter that draws arrivals when it starts (early.go)

	st linkCounters
}

type linkCounters struct {
	sent, transmitted, delivered int64
	// directArrivals counts the deliveries made in an end-of-transmission
	// event (endTx), each an arrival event done without (Network.Events).
	directArrivals uint64
	drops          [NumDropReasons]int64

	sentBytes, transmittedBytes, deliveredBytes unit.Bytes
	dropBytes                                   [NumDropReasons]unit.Bytes

	busy des.Duration

	// Queue occupancy integrals (time-weighted), since time 0.
	qLast          des.Time
	qArea, qAreaB  float64 // packet-ns, byte-ns
	qMax           int
	qMaxB          unit.Bytes
	dequeued       int64
	qDelay, qDelMx des.Duration
}

// Event kinds of a Link.
const (
	kindTxDone = iota
	kindArrive
	kindStart // start transmitting once an skb is queued whole
)

// Name returns the link's name.
func (l *Link) Name() string { return l.name }

// From returns the transmitting node.
func (l *Link) From() *Node { return l.from }

// To returns the receiving node.
func (l *Link) To() *Node { return l.to }

// Rate returns the rate (0: infinite).
func (l *Link) Rate() unit.BitRate { return l.rate }

// Delay returns the propagation delay.
func (l *Link) Delay() des.Duration { return l.delay }

// SetDelay changes the propagation delay of the packets whose
// transmission ends from now on, for a link whose length changes (a
// satellite link moving with its ends). Packets already on the wire keep
// their arrival times, and a packet never arrives before the one
// transmitted ahead of it: after a shorter delay it waits for that one,
// as on a FIFO wire. It refuses a negative delay, and a link with a netem
// limit, whose admission counts the delay it was built with.
func (l *Link) SetDelay(d des.Duration) error {
	if d < 0 {
		return fmt.Errorf("netsim: link %s: negative delay %v", l.name, d)
	}
	if l.netemLimit > 0 {
		return fmt.Errorf("netsim: link %s: the delay of a link with a netem limit is fixed", l.name)
	}
	if l.lz.on {
		// A lazy link replays past ends of transmission with the
		// delay it has when it catches up: end them now, with the
		// delay they had (lazy.go). With EndsFirst it stays lazy while
		// the new delay exceeds the time of every transmission it has
		// had; otherwise it turns eager, as the order of an end and an
		// arrival at one instant could come out otherwise.
		now := l.net.sched.Now()
		l.lazyCatchUp(now, true)
		if !l.endsFirst || d <= 0 || l.lz.maxSeen > lazyMaxBits(d, l.bps) {
			l.lazyEager(now)
		} else {
			l.lz.maxBits = lazyMaxBits(d, l.bps)
		}
	}
	if l.early.on {
		l.earlyOff(l.net.sched.Now())
	}
	if !l.moved {
		// Arrivals so far increase with the fixed delay; the latest is
		// the tail of the wire.
		if t := l.flight.tail; t != nil {
			l.lastArrive = max(l.lastArrive, t.arrive)
		}
		l.moved = true
	}
	l.delay = d
	return nil
}

// SetRate changes the transmission rate for the packets whose
// transmission starts from now on, for a terminal that switches between
// rate modes as its link lengthens (a laser link picking the highest mode
// whose error rate stays acceptable). The packet being serialised keeps
// the end time it was given at its start; the busy period's exact bit
// count restarts at that end, so later packets are timed at the new rate
// without rounding carried over. It refuses a rate that is not a finite
// positive number, and a link built infinitely fast, with a netem limit
// (whose admission counts the rate it was built with) or a shaper (whose
// bucket holds a burst at that rate). The queue keeps
// the rate it was attached with (an AQM's notion of the link's speed).
func (l *Link) SetRate(r unit.BitRate) error {
	bps := wholeBitRate(r)
	if !(r.BitsPerSecond() >= 1) || math.IsInf(r.BitsPerSecond(), 0) {
		return fmt.Errorf("netsim: link %s: rate %g bit/s is not a finite rate of at least 1 bit/s", l.name, r.BitsPerSecond())
	}
	if l.bps == 0 {
		return fmt.Errorf("netsim: link %s: an infinitely fast link keeps its rate", l.name)
	}
	if l.netemLimit > 0 || l.shaper {
		return fmt.Errorf("netsim: link %s: the rate of a link with a netem limit or a shaper is fixed", l.name)
	}
	if bps == l.bps {
		return nil
	}
	if l.lz.on {
		// A lazy link replays past transmissions at the rate it has
		// when it catches up: end them now, at the rate they had, and
		// stay eager (lazy.go).
		l.lazyEager(l.net.sched.Now())
	}
	// The end of the current (or last) transmission at the old rate is
	// where the new period's bit count starts: txEndPrev then still
	// returns it, so a packet that starts right then continues the
	// period, and one that starts later opens a new one.
	l.busyStart, l.busyNs, l.busyRem = l.txEndPrev(), 0, 0 // txEnd stays busyStart + 0
	l.bitsMemo = [2]bitsDiv{}
	l.bps, l.rate = bps, unit.BitRate(bps)
	return nil
}

// Queue returns the link's queue.
func (l *Link) Queue() Queue { return l.queue }

// TransmissionTime returns the serialisation time of size bytes at rate,
// rounded down to a whole bit/s as a link does, rounded up to the
// nanosecond (0 for an infinite rate). Unlike BitRate.TxTime it is exact:
// it is what a link takes.
func TransmissionTime(size unit.Bytes, rate unit.BitRate) des.Duration {
	bps := wholeBitRate(rate)
	if bps == 0 {
		return 0
	}
	return des.Duration(bitTime(uint64(size)*8, bps))
}

// wholeBitRate is r rounded down to a whole number of bit/s, as the
// transmitter's integer arithmetic takes it.
func wholeBitRate(r unit.BitRate) uint64 { return uint64(r.BitsPerSecond()) }

// bitsDiv is a memo of txBits: b*1e9 = q*bps + r.
type bitsDiv struct{ b, q, r uint64 }

// txBits returns the quotient and remainder of b*1e9 by the link's rate,
// from its memo of the last two sizes when b is one of them.
func (l *Link) txBits(b uint64) (q, r uint64) {
	m := &l.bitsMemo
	if m[0].b == b && b != 0 {
		return m[0].q, m[0].r
	}
	if m[1].b == b && b != 0 {
		m[0], m[1] = m[1], m[0]
		return m[0].q, m[0].r
	}
	hi, lo := bits.Mul64(b, 1e9)
	q, r = bits.Div64(hi, lo, l.bps) // panics only if the quotient exceeds 2^64 ns
	m[1] = m[0]
	m[0] = bitsDiv{b, q, r}
	return q, r
}

// bitTime is ceil(b*1e9/bps) in exact integer arithmetic.
func bitTime(b uint64, bps uint64) uint64 {
	hi, lo := bits.Mul64(b, 1e9)
	q, r := bits.Div64(hi, lo, bps) // panics only if the result exceeds 2^64 ns
	if r != 0 {
		q++
	}
	return q
}

// Send offers p to the link's queue at the current time. Links satisfy
// Egress, so a node can route to one directly.
func (l *Link) Send(p *Packet) {
	now := l.net.sched.Now()
	l.st.sent++
	l.st.sentBytes += p.Size
	if l.net.observer != nil {
		l.observe(now, TraceSend, p, 0)
	}
	if l.lz.on || !l.lz.decided {
		l.lazySend(now, p)
	} else if l.early.on && l.net.observer != nil {
		l.earlyOff(now) // traces come out in time order
	}
	if l.netemLimit > 0 && !l.netemAdmit(now, p) {
		return
	}
	l.queueChange(now)
	p.enqueued = now
	l.queue.Enqueue(now, p, l)
	l.queueChanged()
	if l.tx == nil && !l.startSet {
		switch {
		case l.early.on && l.earlyBusy(now):
			l.startAtEnd() // when the transmission in progress ends (early.go)
		case l.shaper && now < l.shaperUntil:
			l.shaperWait(now) // when the bucket is in credit (shaper.go)
		case p.Skb != 0:
			// The rest of the skb comes at this instant: start when it
			// is queued, so that it goes out whole (skbBatch).
			l.startSet = true
			l.net.sched.Schedule(now, l, kindStart, 0)
		default:
			l.startNext(now)
		}
	}
}

// Drop counts a packet dropped at this link and frees it. Queues call it
// through the Dropper interface.
func (l *Link) Drop(now des.Time, p *Packet, reason DropReason) {
	l.st.drops[reason]++
	l.st.dropBytes[reason] += p.Size
	l.netemLeave(p)
	if l.net.observer != nil {
		l.observe(now, TraceDrop, p, reason)
	}
	l.net.Free(p)
}

// startNext starts serialising the next queued packet, if any, with the
// rest of its skb (skbBatch).
func (l *Link) startNext(now des.Time) {
	l.queueChange(now)
	p := l.queue.Dequeue(now, l)
	if p == nil {
		return
	}
	l.skbBatch(now, p)
	// No queueChanged: taking packets out (and an AQM's drops) never
	// raises the queue's maxima.
	l.dequeued(now, p)

	prevEnd := l.txEndPrev()
	switch {
	case l.tx != nil:
	case l.shaper:
		// The bucket's credit is at most burst: a period starts that
		// long before now, unless the last ends later.
		if start := now.Add(-l.burst); start > prevEnd {
			l.busyStart, l.busyNs, l.busyRem = start, 0, 0
		}
	case now != prevEnd:
		// The transmitter was idle: a new busy period starts now.
		l.busyStart, l.busyNs, l.busyRem = now, 0, 0
	}
	l.tx = p
	l.txStart = now
	end := now
	if l.bps > 0 {
		b := (uint64(p.Size) + l.overhead) * 8
		for x := l.batch.head; x != nil; x = x.next {
			b += (uint64(x.Size) + l.overhead) * 8
		}
		q, r := l.txBits(b)
		l.busyNs += q
		if l.busyRem += r; l.busyRem >= l.bps {
			l.busyNs++
			l.busyRem -= l.bps
		}
		ns := l.busyNs
		if l.busyRem > 0 {
			ns++
		}
		end = l.busyStart.Add(des.Duration(ns))
	}
	l.txEnd = end
	if l.net.observer != nil {
		l.observe(now, TraceTransmit, p, 0)
	}
	for b := l.batch.head; b != nil; b = b.next {
		if l.net.observer != nil {
			l.observe(now, TraceTransmit, b, 0)
		}
	}
	if l.shaper {
		l.shaperStarted(now, max(prevEnd, l.busyStart), end)
		return
	}
	if l.lz.on {
		l.lazyStarted(now, end)
		return
	}
	if l.early.on {
		l.earlyStarted(now, end)
		return
	}
	if !l.followArrival(end) {
		l.scheduleEnd(end)
	}
}

// scheduleEnd schedules the end-of-transmission event at end: first at
// its instant with EndsFirst.
func (l *Link) scheduleEnd(end des.Time) { l.schedule(end, kindTxDone) }

// schedule schedules an event of the link at t: first at its instant with
// EndsFirst, so that a transmitter freed at t is free for what arrives then.
func (l *Link) schedule(t des.Time, kind int) {
	if l.endsFirst {
		l.net.sched.ScheduleFirst(t, l, kind, 0)
		return
	}
	l.net.sched.Schedule(t, l, kind, 0)
}

// dequeued counts p's waiting time and notes when its transmission starts.
func (l *Link) dequeued(now des.Time, p *Packet) {
	d := now.Sub(p.enqueued)
	l.st.dequeued++
	l.st.qDelay += d
	l.st.qDelMx = max(l.st.qDelMx, d)
	p.txAt = now
}

// txEndPrev is the end of the previous transmission of the current busy
// period: a packet that starts exactly then continues the period, keeping
// its exact bit count.
//
// It is txEnd, which startNext sets to busyStart + ceil(B*1e9/rate)
// (busyStart itself at an infinite rate, where a transmission ends as it
// starts and so starts the period), and which SetRate leaves unchanged by
// starting the new period there with no bits.
func (l *Link) txEndPrev() des.Time { return l.txEnd }

// Handle implements des.Handler.
func (l *Link) Handle(now des.Time, kind int, arg uint64) {
	switch kind {
	case kindTxDone:
		if l.lz.skip > 0 {
			l.lz.skip-- // ended in a catch-up (lazy.go)
			return
		}
		l.lz.realTx, l.lz.late = false, false
		l.endTx(now)
	case kindStart:
		l.startSet = false
		if l.lz.on {
			l.lazyCatchUp(now, true)
		}
		if l.tx == nil {
			l.startNext(now)
		}
	case kindArrive:
		// A follower attaches only to a link's pending arrival event,
		// and a link has one pending at a time: this event leads the
		// follower the link holds, if any. A follower may attach to the
		// arrival this event schedules; none may to this one, which has
		// started (follow.go).
		lead, f := l.following, l.follower
		l.following = false
		if l.net.lastArrival.l == l {
			l.net.lastArrival.l = nil
		}
		if l.lz.on {
			// A packet arriving now left before now (the delay is
			// positive).
			l.lazyCatchUp(now, false)
		}
		// Packets due at the same instant (an skb's segments, sent
		// together) are delivered by one event, in order.
		for {
			p := l.flight.pop()
			h := l.flight.head
			more := h != nil && h.arrive == now
			if h != nil && !more {
				l.scheduleArrival(h.arrive)
			}
			l.deliver(now, p)
			if !more {
				break
			}
		}
		if lead {
			l.net.sched.RunFollower(f)
		}
	default:
		panic(fmt.Sprintf("bug: netsim: link event kind %d", kind))
	}
}

// endTx ends the transmission of tx (and its batch) at now and starts
// the next.
func (l *Link) endTx(now des.Time) {
	p := l.tx
	l.tx = nil
	l.st.busy += now.Sub(l.txStart)
	arrive := l.arrival(now)
	// A packet that arrives as its transmission ends, with nothing
	// ahead of it on the wire (a link without delay or jitter), is
	// delivered by this event rather than by an arrival event of its
	// own at the same instant: the far node has it the moment its last
	// bit leaves, before the events already due at this instant.
	direct := arrive == now && l.flight.head == nil
	l.txDone(now, p, arrive, direct)
	for b := l.batch.pop(); b != nil; b = l.batch.pop() {
		l.txDone(now, b, arrive, direct)
	}
	l.startNext(now)
	if direct && l.flight.head != nil {
		l.st.directArrivals++ // the arrival event of the skb, done without
		l.deliverDue(now)
	}
}

// arrival is when a packet put on the wire at t reaches the far node:
// the delay later, with the jitter drawn, never before the packet ahead.
func (l *Link) arrival(t des.Time) des.Time {
	arrive := t.Add(l.delay)
	if l.jitter > 0 {
		arrive = max(arrive.Add(des.Duration(l.jrng.Int64N(int64(l.jitter)))), l.lastArrive)
		l.lastArrive = arrive
	} else if l.moved {
		// The delay has changed (SetDelay): a packet never
		// overtakes the one transmitted ahead of it.
		arrive = max(arrive, l.lastArrive)
		l.lastArrive = arrive
	}
	return arrive
}

// deliverDue delivers the packets on the wire, all due now, in order:
// endTx's direct delivery, after the next transmission has started, as
// an arrival event would find the link.
func (l *Link) deliverDue(now des.Time) {
	for p := l.flight.pop(); p != nil; p = l.flight.pop() {
		l.deliver(now, p)
	}
}

// deliver hands p, arrived now, to the far node.
func (l *Link) deliver(now des.Time, p *Packet) {
	l.netemLeave(p)
	l.st.delivered++
	l.st.deliveredBytes += p.Size
	if l.net.observer != nil {
		l.observe(now, TraceDeliver, p, 0)
	}
	l.to.arrive(now, p)
}

// txDone puts a transmitted packet on the wire, to arrive at arrive, and
// schedules its arrival event unless it is delivered directly (endTx).
func (l *Link) txDone(now des.Time, p *Packet, arrive des.Time, direct bool) {
	l.st.transmitted++
	l.st.transmittedBytes += p.Size
	if l.netemLimit == 0 && l.loss != nil && l.loss.Lose(p, l.rng) {
		l.Drop(now, p, DropCorrupt)
		return
	}
	p.arrive = arrive
	if l.flight.head == nil && !direct {
		if l.lz.virtual {
			// A late end of transmission ended in a catch-up: its
			// arrival event is scheduled later than the eager link's.
			l.lz.ties++
		}
		l.scheduleArrival(p.arrive)
	}
	l.flight.push(p)
}

// observe reports to the network's observer. Its callers test that
// there is one first, inline: made several times per packet and hop, the
// call alone cost a few per cent of a run.
func (l *Link) observe(now des.Time, k TraceKind, p *Packet, r DropReason) {
	l.net.observer.Observe(Record{At: now, Kind: k, Link: l, Node: l.from, Packet: p, Reason: r})
}

// queueChange accumulates the occupancy integral up to now; call it before
// the queue changes and queueChanged after.
//
// A second change at the same instant adds nothing (dt = 0 adds exactly
// 0 to the sums), so it returns at once.
func (l *Link) queueChange(now des.Time) {
	if now == l.st.qLast {
		return
	}
	n, b := l.queueLen()
	dt := float64(now.Sub(l.st.qLast))
	l.st.qArea += dt * float64(n)
	l.st.qAreaB += dt * float64(b)
	l.st.qLast = now
}

func (l *Link) queueChanged() {
	n, b := l.queueLen()
	l.st.qMax = max(l.st.qMax, n)
	l.st.qMaxB = max(l.st.qMaxB, b)
}

// queueLen returns the queue's packets and bytes, read directly from a
// DropTail (most links' queue) rather than through the interface.
func (l *Link) queueLen() (int, unit.Bytes) {
	if q := l.dropTail; q != nil {
		return q.q.n, q.bytes
	}
	return l.queue.Len(), l.queue.Bytes()
}

// NumDropReasons is the number of DropReason values, the length of the
// drop arrays of LinkStats.
const NumDropReasons = int(numDropReasons)

// LinkStats is a snapshot of a link's counters.
type LinkStats struct {
	// Sent counts packets offered to the link (entering its queue, or
	// dropped on arrival by a netem limit or its loss).
	Sent      int64
	SentBytes unit.Bytes
	// Transmitted counts packets whose serialisation completed.
	Transmitted      int64
	TransmittedBytes unit.Bytes
	// Delivered counts packets that reached the far node.
	Delivered      int64
	DeliveredBytes unit.Bytes
	// Drops counts drops by DropReason.
	Drops     [NumDropReasons]int64
	DropBytes [NumDropReasons]unit.Bytes
	// Queued and InFlight are the packets now waiting in the queue, and
	// being transmitted or propagating. Conservation:
	// Sent = Delivered + sum(Drops) + Queued + InFlight.
	Queued, InFlight int

	// QueueMean and QueueMeanBytes are the time-weighted mean occupancy of
	// the queue over [0, now]; QueueMax and QueueMaxBytes its maxima.
	QueueMean, QueueMeanBytes float64
	QueueMax                  int
	QueueMaxBytes             unit.Bytes
	// QueueDelayMean and QueueDelayMax are the waiting times of packets
	// that left the queue.
	QueueDelayMean, QueueDelayMax des.Duration

	// Busy is the total transmitting time; Utilisation is Busy/now.
	Busy        des.Duration
	Utilisation float64
}

// Dropped returns the total number of dropped packets.
func (s LinkStats) Dropped() int64 {
	var n int64
	for _, d := range s.Drops {
		n += d
	}
	return n
}

// Stats returns the link's counters at the current time.
func (l *Link) Stats() LinkStats {
	now := l.net.sched.Now()
	if l.lz.on {
		l.lazyCatchUp(now, true)
	}
	l.queueChange(now)
	st := &l.st
	s := LinkStats{
		Sent: st.sent, SentBytes: st.sentBytes,
		Transmitted: st.transmitted, TransmittedBytes: st.transmittedBytes,
		Delivered: st.delivered, DeliveredBytes: st.deliveredBytes,
		Drops: st.drops, DropBytes: st.dropBytes,
		Queued:        l.queue.Len(),
		InFlight:      l.flight.n,
		QueueMax:      st.qMax,
		QueueMaxBytes: st.qMaxB,
		QueueDelayMax: st.qDelMx,
		Busy:          st.busy,
	}
	if l.tx != nil {
		s.InFlight += 1 + l.batch.n
		s.Busy += now.Sub(l.txStart)
	}
	n, b, busy, _ := l.earlyAhead(now)
	s.Transmitted -= n
	s.TransmittedBytes -= b
	s.Busy -= busy
	if now > 0 {
		s.QueueMean = st.qArea / float64(now)
		s.QueueMeanBytes = st.qAreaB / float64(now)
		s.Utilisation = float64(s.Busy) / float64(now)
	}
	if st.dequeued > 0 {
		s.QueueDelayMean = st.qDelay / des.Duration(st.dequeued)
	}
	return s
}
