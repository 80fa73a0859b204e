package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// The transmitter that draws arrivals early. A link without propagation
// delay but with jitter (a host's outgoing link in tcp-compete) cannot be
// lazy (lazy.go): a packet there often arrives before the next one ends,
// so most ends of transmission would have to keep their events. But
// behind a DropTail queue, without a loss process (but a netem limit's,
// drawn when a packet is offered) or an observer, what its
// end-of-transmission event does is known when the
// transmission starts: the end time, the jitter draw (the next on the
// link's jitter stream, in transmission order either way) and so the
// arrival, max(end + jitter, the previous arrival). Such a link puts the
// packet on the wire when its transmission starts, with that arrival,
// and has an event at the end only when a packet waits to be sent next
// (kindStart). Stats takes out of Transmitted and Busy what the
// transmission in progress has not done yet.
//
// Same-instant order. A packet offered at the very instant the
// transmission before it ends finds the transmitter free, as with
// LinkConfig.EndsFirst, and an arrival due at the same instant as other
// events comes before those scheduled after its transmission started: an
// eager link's order there followed how the events were scheduled. Away
// from such ties the link delivers the eager link's packets at the same
// times with the same statistics (TestLazyLinkMatchesEager's host-link
// cases); with EndsFirst the start that stands for an end comes first at
// its instant and Network.Events counts the eager link's events too
// (TestLazyLinkEndsFirstMatchesEager). Links in lockstep, whose arrivals
// tie all the time, can come out otherwise.
//
// The link decides at its first packet (lazySend) and draws late again,
// for good, when an observer appears (traces come out in time order) or
// its delay changes (SetDelay): a transmission then in progress keeps the
// arrival it drew.
type earlyTx struct {
	on bool
	// The transmission in progress, counted in the link's counters when
	// it started: it ends at until.
	until   des.Time
	n       int64
	bytes   unit.Bytes
	counted bool // its end is an event done without (no kindStart at until)
	skbHead bool // it starts an skb that a netem limit counts (netemHeld)
	// ended counts the ends of transmission done without an event, as
	// Network.Events counts them (those due by now).
	ended uint64
}

// earlyFits reports whether the link can draw arrivals early from its
// first packet on.
func (l *Link) earlyFits() bool {
	// A netem limit draws its losses when a packet is offered; any
	// other loss process at the end of a transmission.
	return !l.shaper && l.dropTail != nil && l.bps > 0 && l.delay == 0 && l.jitter > 0 && (l.loss == nil || l.netemLimit > 0) &&
		l.net.observer == nil && !l.moved
}

// earlyStarted puts the transmission that startNext just started (tx and
// its batch, ending at end) on the wire, with the arrival its end would
// give it, and schedules the start of the next if a packet waits.
func (l *Link) earlyStarted(now, end des.Time) {
	p := l.tx
	l.tx = nil
	l.st.busy += end.Sub(now)
	arrive := max(end.Add(des.Duration(l.jrng.Int64N(int64(l.jitter)))), l.lastArrive)
	l.lastArrive = arrive
	l.early.until, l.early.n, l.early.bytes, l.early.skbHead = end, 1, p.Size, p.skbHead
	l.txDone(now, p, arrive, false)
	for b := l.batch.pop(); b != nil; b = l.batch.pop() {
		l.early.n++
		l.early.bytes += b.Size
		l.txDone(now, b, arrive, false)
	}
	if waiting, _ := l.queueLen(); waiting == 0 {
		l.early.counted = true
		l.early.ended++
		return
	}
	l.early.counted = false
	l.startAtEnd()
}

// startAtEnd schedules the start of the next transmission at the end of
// the one in progress: that event stands for the end-of-transmission
// event, no longer done without.
func (l *Link) startAtEnd() {
	if l.early.counted {
		l.early.counted = false
		l.early.ended--
	}
	l.startSet = true
	l.schedule(l.early.until, kindStart)
}

// earlyBusy reports whether the transmitter is still sending at now.
func (l *Link) earlyBusy(now des.Time) bool { return now < l.early.until }

// earlyOff makes the link draw arrivals at the ends of transmission from
// now on. A transmission in progress keeps its arrival; the next starts
// when it ends.
func (l *Link) earlyOff(now des.Time) {
	l.early.on = false
	if l.earlyBusy(now) && !l.startSet {
		l.startAtEnd()
	}
}

// earlyAhead returns what the link's counters hold of the transmission in
// progress at now and has not happened yet: its packets and bytes
// (Transmitted), the rest of its time (Busy) and its end (Events).
func (l *Link) earlyAhead(now des.Time) (n int64, bytes unit.Bytes, busy des.Duration, ends uint64) {
	if !l.earlyBusy(now) {
		return 0, 0, 0, 0
	}
	if l.early.counted {
		ends = 1
	}
	return l.early.n, l.early.bytes, l.early.until.Sub(now), ends
}
