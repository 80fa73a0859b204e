package des

import "fmt"

// A Follower is an event that runs straight after another one, its
// leader, without entering the queue.
//
// Two events at one instant whose scheduling orders are consecutive run
// one after the other: every scheduling order is taken once, in
// increasing order, so no event queued before the first starts sorts
// between them, and an event scheduled once it has started takes a later
// order than both, unless it is an event of ScheduleFirst for that
// instant. A component that schedules an event for the instant of the
// event it scheduled just before (netsim: a link's end of transmission at
// the instant of the arrival event that another link has just scheduled)
// can take the event's scheduling order without queueing it (Follow) and
// have the leader's handler run it at its end (RunFollower). The follower
// runs under its own key, as Running reports it, and what it schedules
// takes the orders it would have taken; so handlers run in exactly the
// order, and see exactly the clock and keys, that the two queued events
// would have given. Where something does come between (an event of
// ScheduleFirst the leader's handler schedules for its own instant, Stop,
// an exhausted budget) or RunFollower is called from an event other than
// the leader, RunFollower queues the follower under its key instead.
//
// Processed does not count followers that ran without the queue and
// Handled does: the count the queued events would have given.
type Follower struct {
	at     Time
	seq    uint64
	sched  Time
	parent uint64
	h      Handler
	kind   int
	arg    uint64
}

// Taken returns how many scheduling orders have been taken: by Schedule,
// ScheduleFirst, Reserve, Follow and Timer.Reset, one each. A caller
// that reads it right after scheduling an event and again later knows
// whether anything took an order in between.
func (s *Scheduler) Taken() uint64 { return s.seq }

// Follow takes the scheduling order that Schedule(at, h, kind, arg)
// would take now and returns the event, to be run by RunFollower, not
// queued. Its leader is the event that took the order just before, by
// Schedule (Taken tells its caller that nothing took one since), due at
// at and not yet started; its caller makes sure of that, and that the
// leader's handler calls RunFollower (else the follower is lost).
func (s *Scheduler) Follow(at Time, h Handler, kind int, arg uint64) Follower {
	if at < s.now {
		panic(fmt.Sprintf("bug: des: follower at %v, before now %v", at, s.now))
	}
	s.outstanding++
	return Follower{at: at, seq: s.Reserve(), sched: s.now, parent: s.parentSeq(), h: h, kind: kind, arg: arg}
}

// RunFollower runs f at the end of its leader's handler: straight away
// when nothing else can come first, or else by queueing it under the key
// it took (and the queue runs it in its place). Called from another
// handler, or with a leader that is not an ordinary event (ScheduleFirst,
// Reserve), it queues it.
func (s *Scheduler) RunFollower(f Follower) {
	s.outstanding--
	// The leader took the order before the follower's (Follow).
	if f.at != s.now || s.running.h == nil || s.running.seq != f.seq-1 || s.stopped ||
		s.budget > 0 && s.Handled() >= s.budget || !s.nothingBefore(f.at, f.seq) {
		s.queueFollower(f)
		return
	}
	leader := s.running
	s.running = event{at: f.at, seq: f.seq, sched: f.sched, parent: f.parent, h: f.h}
	s.followed++
	f.h.Handle(s.now, f.kind, f.arg)
	s.running = leader
}

// nothingBefore reports whether no queued event sorts before the key
// (at, seq) of the running event's follower. Only an event of
// ScheduleFirst can: every timer entry and the event due next by
// Schedule's shortcut sorted after the leader when it started, or were
// scheduled since with later orders, and the follower's order is the
// one after the leader's.
func (s *Scheduler) nothingBefore(at Time, seq uint64) bool {
	key := event{at: at, seq: seq}
	s.fillHole()
	return len(s.heap) == 0 || !s.heap[0].before(&key)
}

// queueFollower queues f under the key Follow gave it. The event due
// next by Schedule's shortcut, if any, goes back to the heap, which
// orders the two.
func (s *Scheduler) queueFollower(f Follower) {
	if f.at < s.now {
		panic(fmt.Sprintf("bug: des: follower at %v, before now %v", f.at, s.now))
	}
	if d := s.due; d != nil {
		s.due = nil
		s.insert(d)
	}
	e := s.newEvent(f.h, f.kind, f.arg)
	e.at, e.seq, e.sched, e.parent = f.at, f.seq, f.sched, f.parent
	s.insert(e)
}
