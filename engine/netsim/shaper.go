package netsim

import "github.com/crosslink-sim/crosslink/engine/des"

// A shaper link (LinkConfig.Shaper) releases each packet whole when its
// bucket holds credit. startNext times the release as a transmission
// that may begin before now (by up to the bucket's depth) and so may end
// before now too; shaperStarted then puts the packets on the wire at
// once, and the transmitter stays held until that end, when the bucket is
// back in credit. It has no end-of-transmission event: the start event
// of the next packet (kindStart) stands for it, scheduled only when a
// packet waits.

// shaperStarted puts tx and its batch, released now, on the wire, and
// holds the transmitter until end, the bucket's return to credit; slot is
// when the release's transmission time began.
func (l *Link) shaperStarted(now, slot, end des.Time) {
	p := l.tx
	l.tx = nil
	l.st.busy += end.Sub(slot)
	l.shaperUntil = end
	arrive := l.arrival(now)
	l.txDone(now, p, arrive, false)
	for b := l.batch.pop(); b != nil; b = l.batch.pop() {
		l.txDone(now, b, arrive, false)
	}
	if waiting, _ := l.queueLen(); waiting > 0 {
		l.shaperWait(now)
	}
}

// shaperWait schedules the release of the next packet when the bucket is
// in credit again: now, if it still is (a burst).
func (l *Link) shaperWait(now des.Time) {
	l.startSet = true
	l.schedule(max(l.shaperUntil, now), kindStart)
}
