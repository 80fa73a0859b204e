// Package des is crosslink's discrete-event core: a virtual clock in
// integer nanoseconds, a queue of events ordered by (time, scheduling
// order), cancellable timers, and per-component random streams.
//
// A scenario is single-threaded and deterministic: no wall clock, no map
// iteration, no goroutines. Events scheduled for the same instant run in the
// order they were scheduled (ns-3 breaks ties the same way, by a unique
// event id), except that those of ScheduleFirst run before all others at
// their instant (a link's end of transmission before any arrival, in a
// network whose links are in lockstep).
//
// A Timer re-armed later (a retransmission timer on every ACK) or stopped
// leaves its queue entry in place until the entry reaches the head of the
// queue, where it is re-keyed or dropped before any handler runs, so
// handlers still run in (time, scheduling order) and no re-arm costs a
// heap operation. Reserve and Running let a component that skips events
// (netsim's links) work out where a skipped event would have run among
// simultaneous ones.
//
// An event scheduled for the current instant while nothing else is due
// then (a packet passed on by a link without delay) runs next without
// entering the heap at all. Timers and one-shot events keep separate
// heaps, whose tops are compared for the next event: the order is one
// heap's, and a network's one-shot events (its links') do not sift
// through the timers that wait far ahead. A one-shot event stays at the
// top of its heap while its handler runs, and the first event the handler
// schedules takes its place with one sift down, where removing the one
// and inserting the other would sift twice (the hold operation of a
// pending-event set): a link's arrival handler schedules the next
// packet's arrival before anything else.
//
// An event scheduled for the instant of the event scheduled just before it
// runs straight after it (nothing else between but an event of
// ScheduleFirst the first schedules for its own instant), so it can do
// without the queue too: Follow takes its scheduling order and the first
// event's handler runs it (RunFollower), under its own key (follow.go).
//
// Handlers are objects, not closures: Schedule(at, h, kind, arg) stores an
// interface value that already exists plus two integers, and the queue
// recycles its entries, so the steady state allocates nothing.
//
// Typical use inside an object that owns a timer:
//
//	type endpoint struct {
//		rto des.Timer
//	}
//
//	const kindRTO = 1
//
//	func (e *endpoint) Handle(now des.Time, kind int, arg uint64) {
//		switch kind {
//		case kindRTO:
//			// retransmit, back off, e.rto.ResetAfter(...)
//		}
//	}
//
//	s := des.New()
//	e := &endpoint{}
//	e.rto.Init(s, e, kindRTO, 0)
//	e.rto.ResetAfter(des.Second)        // arm; Reset again on every ACK
//	s.After(10*des.Millisecond, e, 2, 0) // one-shot event
//	err := s.Run(ctx, des.Time(60*des.Second))
//
// Random streams: des.NewStreams(seed).New("link/bottleneck") returns a
// *rand.Rand (PCG from math/rand/v2) that depends only on the scenario seed
// and the name.
package des
