package netsim

import "github.com/crosslink-sim/crosslink/engine/des"

// Ends of transmission that follow an arrival. Where a link feeds another
// of the same rate, back to back, its packets arrive at the second link
// exactly as the second ends the transmission of the packet before: the
// arrival event of packet k+1 and the end-of-transmission event of packet
// k fall at one instant. Both were scheduled by the arrival event of
// packet k, one straight after the other: the arrival handler schedules
// the next arrival and then hands packet k to the next link, which, idle,
// starts sending it and schedules the end. Their scheduling orders are
// consecutive, so nothing can run between them (des.Follower), and the
// end needs no queue entry: the next link takes its scheduling order
// (des.Scheduler.Follow) and the first link's arrival handler runs it
// when it is done (des.Scheduler.RunFollower). On a busy bottleneck
// feeding an access link of its rate (tcp-compete's dumbbell, the
// receivers' side), that is one queued event less for every data packet,
// with the same handlers run in the same order at the same instants.
//
// A link's end follows only when nothing took a scheduling order after
// the arrival event (des.Scheduler.Taken), the arrival is at the very
// instant of the end, the end is an ordinary event (not EndsFirst), the
// arriving link has no follower yet, and no late end-of-transmission
// event of the link is waiting to be skipped (lazy.go's skip).

// arrivalMark identifies the arrival event scheduled last: its link, its
// time and the scheduler's Taken count right after it was scheduled.
type arrivalMark struct {
	l     *Link
	at    des.Time
	taken uint64
}

// scheduleArrival schedules the link's arrival event at at and marks it
// as the arrival event scheduled last.
func (l *Link) scheduleArrival(at des.Time) {
	s := l.net.sched
	s.Schedule(at, l, kindArrive, 0)
	l.net.lastArrival = arrivalMark{l: l, at: at, taken: s.Taken()}
}

// followArrival makes the end of the transmission that startNext has just
// started, at end, the follower of the arrival event scheduled last, if it
// can be (see above), and reports whether it did.
func (l *Link) followArrival(end des.Time) bool {
	m := l.net.lastArrival
	s := l.net.sched
	if l.net.noFollow || l.endsFirst || l.lz.skip > 0 || m.l == nil || m.at != end || m.taken != s.Taken() || m.l.following {
		return false
	}
	m.l.follower = s.Follow(end, l, kindTxDone, 0)
	m.l.following = true
	return true
}
