package netsim

import "github.com/crosslink-sim/crosslink/engine/des"

// Ends of transmission that follow an arrival. Where a link U feeds
// another, D, of the same rate, back to back, its packets reach D exactly
// as D ends the transmission of the packet before: the arrival event of
// packet k+1 and D's end-of-transmission event of packet k fall at one
// instant. The arrival handler of packet k schedules the arrival of k+1
// and hands k to D. If D is idle, it starts sending k at once and
// schedules k's end. If D is busy, its end of packet k-1, which runs
// straight after that handler (the same coincidence a packet earlier),
// starts k and schedules k's end. Either way nothing takes a scheduling
// order between the arrival of k+1 and the end of k, so nothing can run
// between the two but an event of ScheduleFirst (des.Follower), and the
// end needs no queue entry: D takes its scheduling order
// (des.Scheduler.Follow) and U's arrival handler runs it when it is done
// (des.Scheduler.RunFollower). On a busy bottleneck feeding access links
// of its rate (tcp-compete's dumbbell, the receivers' side), most data
// packets' ends on the access link run so, with the same handlers in the
// same order at the same instants.
//
// A link's end follows only an arrival event that is still pending:
// nothing took a scheduling order after it was scheduled
// (des.Scheduler.Taken), it has not started (its handler clears its
// mark), and the arriving link holds no follower yet; and only an
// ordinary end (not EndsFirst) due at the very instant of the arrival, of
// a link that has no late end-of-transmission event waiting to be
// skipped (lazy.go's skip).

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
