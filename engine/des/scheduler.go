package des

import (
	"context"
	"fmt"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Handler receives events. kind and arg are whatever the code that
// scheduled the event passed: a handler that owns several timers tells them
// apart by kind, and arg carries a small value (an index, a sequence
// number) without allocating. Handlers are usually long-lived objects (a
// link, a TCP endpoint), so scheduling an event stores a pointer that
// already exists and allocates nothing.
type Handler interface {
	Handle(now Time, kind int, arg uint64)
}

// ErrMaxEvents is returned (wrapped) by Run when the scheduler has
// processed its MaxEvents budget: a guard against scenarios that never
// terminate, such as a timer that keeps rescheduling itself. It is the
// contract's vocab.ErrEventLimit, so the sweep recognises it without
// importing the scheduler.
var ErrMaxEvents = vocab.ErrEventLimit

// ctxCheckEvery is how many events Run processes between two looks at its
// context. Checking a context takes a lock; every 1024 events it costs
// nothing measurable and still stops a run within microseconds of wall time.
const ctxCheckEvery = 1024

// event is one entry of the queue. One-shot events come from a free list
// owned by the Scheduler; timer events live inside their Timer.
type event struct {
	at     Time
	seq    uint64
	sched  Time   // when it was scheduled (the clock when seq was taken)
	parent uint64 // the scheduling order of the event that scheduled it (Running)
	h      Handler
	kind   int
	arg    uint64
	index  int // position in the heap, -1 when not queued
	pooled bool
	next   *event // free-list link
	// timer is the Timer that owns this entry (nil for a one-shot event):
	// its key may lag behind the timer's expiry, or the timer may have
	// been stopped (Timer.Reset, Timer.Stop).
	timer *Timer
}

// before orders events by (time, sequence number): events at the same time
// run in the order they were scheduled.
func (e *event) before(o *event) bool {
	if e.at != o.at {
		return e.at < o.at
	}
	return e.seq < o.seq
}

// Scheduler is a discrete-event scheduler: a virtual clock and a queue of
// pending events ordered by (time, scheduling order). It is single-threaded
// and deterministic.
//
// The queue is two 4-ary min-heaps of event pointers, one for one-shot
// events and one for timers, and the next event is the earlier of their
// two tops: the same order as one heap, but the links' one-shot events,
// most of a network's, sift through a heap without the many timers that
// wait far ahead (a retransmission timer per connection), and a timer
// that fires sifts through the timers only. Each event knows its index in
// its heap, so a Timer moved earlier is sifted up in place. A Timer moved
// later, or stopped, leaves its entry where it is and the entry is put
// right when it reaches the top (see Timer): the queue holds at most one
// entry per timer, and handlers run in exactly the order of (expiry,
// scheduling order) all the same. A one-shot event stays at the top of
// its heap while its handler runs, and the first event the handler puts
// in the heap takes its place (hole): one sift down, where removing the
// one and inserting the other take a sift each (the hold operation of a
// pending-event set). Keys are unique, so the order is the same.
type Scheduler struct {
	now    Time
	seq    uint64
	heap   eventHeap // one-shot events
	timers eventHeap // timers' entries (Timer)
	free   *event
	stale  int    // entries of stopped timers still in timers
	due    *event // runs next, without a heap operation (see Schedule)
	// hole: heap[0] is an event that has run (or is running), taken
	// but not yet removed. The first event put in the heap after it
	// takes its place (insert); if none is, it is removed when the
	// heap's top is next read (fillHole). An event of the due-now
	// shortcut may run in between and fill it. A link's arrival
	// handler schedules the next packet's arrival before anything
	// else, so most arrivals leave so.
	hole      bool
	processed uint64 // events taken from the queue and run
	followed  uint64 // followers run straight after their leader (RunFollower)
	// outstanding counts the followers taken (Follow) and not yet run
	// or queued (RunFollower): pending events all the same.
	outstanding int
	budget      uint64 // Run's MaxEvents budget, 0: none
	// running is the event whose handler is running (running.h nil
	// outside Run): its key and when it was scheduled, for Running.
	running event
	stopped bool

	// MaxEvents, when non-zero, bounds the total number of events the
	// scheduler processes over all calls to Run; reaching it makes Run
	// return an error wrapping ErrMaxEvents. When zero, the budget of
	// Run's context applies (WithMaxEvents).
	MaxEvents uint64
}

// New returns a scheduler at time 0 with an empty queue.
func New() *Scheduler { return &Scheduler{} }

// Now returns the current virtual time.
func (s *Scheduler) Now() Time { return s.now }

// Processed returns the number of events taken from the queue and run so
// far: the events the queue ordered, without the followers that ran
// straight after the event they follow (RunFollower).
func (s *Scheduler) Processed() uint64 { return s.processed }

// Handled returns the number of events run so far, followers included:
// what Processed would be if every follower had been scheduled as an
// event of its own. It changes between any two handlers, so it numbers
// them.
func (s *Scheduler) Handled() uint64 { return s.processed + s.followed }

// Pending returns the number of events in the queue (stopped timers not
// counted).
func (s *Scheduler) Pending() int {
	n := len(s.heap) + len(s.timers) - s.stale + s.outstanding
	if s.hole {
		n--
	}
	if s.due != nil {
		n++
	}
	return n
}

// Schedule arranges for h.Handle(at, kind, arg) to run at time at. Times in
// the past are a bug in the caller and panic. Schedule allocates only while
// the queue grows beyond its largest size so far.
func (s *Scheduler) Schedule(at Time, h Handler, kind int, arg uint64) {
	e := s.newEvent(h, kind, arg)
	if at == s.now && s.due == nil && s.heapAfter(at) && s.timers.after(at) {
		// Nothing else is due now, and whatever is scheduled for now
		// from here on comes later in scheduling order: e runs next.
		// A handler that passes a packet on at once (a link without
		// delay) schedules such events; they skip the heap.
		s.stamp(e, at)
		s.due = e
		return
	}
	s.push(e, at)
}

// After is Schedule(Now()+d, ...).
func (s *Scheduler) After(d Duration, h Handler, kind int, arg uint64) {
	s.Schedule(s.now.Add(d), h, kind, arg)
}

// Stop makes the running Run return nil after the current event.
func (s *Scheduler) Stop() { s.stopped = true }

// Run processes events in order until the next event is later than until,
// the queue is empty, Stop is called, the context is cancelled (checked
// every 1024 events) or the MaxEvents budget is exhausted. Unless stopped
// early or until is Forever, the clock then reads until, so that rates
// measured over [0, until] use the right denominator.
func (s *Scheduler) Run(ctx context.Context, until Time) error {
	if until < s.now {
		return fmt.Errorf("des: run until %v, before now %v", until, s.now)
	}
	s.stopped = false
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("des: run cancelled at %v: %w", s.now, err)
	}
	s.budget = s.MaxEvents
	if s.budget == 0 {
		s.budget = MaxEventsOf(ctx)
	}
	var n uint64
	for {
		e, q := s.due, (*eventHeap)(nil)
		if e == nil {
			s.fillHole()
			q = s.next()
			if q == nil || (*q)[0].at > until {
				break
			}
			e = (*q)[0]
		}
		if t := e.timer; t != nil && (!t.armed || t.at != e.at || t.seq != e.seq) {
			// A timer stopped, or moved later, since its entry was
			// placed: drop the entry, or give it the timer's key and let
			// it sink to its place. Neither is an event.
			if !t.armed {
				q.removeAt(0)
				s.stale--
			} else {
				e.at, e.seq, e.sched, e.parent = t.at, t.seq, t.sched, t.parent
				q.down(0)
			}
			continue
		}
		if s.budget > 0 && s.Handled() >= s.budget {
			return fmt.Errorf("des: %w: %d events processed, now %v, %d pending", ErrMaxEvents, s.Handled(), s.now, s.Pending())
		}
		n++
		if n%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("des: run cancelled at %v after %d events: %w", s.now, s.Handled(), err)
			}
		}
		switch {
		case e == s.due:
			s.due = nil
		case q == &s.heap:
			s.hole = true // filled by the next insertion, or when the top is next read
			e.index = -1
		default:
			q.removeAt(0)
		}
		s.now = e.at
		h, kind, arg := e.h, e.kind, e.arg
		if e.timer != nil {
			e.timer.armed = false
		}
		if e.pooled {
			// Recycle before calling the handler so that the handler's own
			// Schedule reuses this entry.
			e.h = nil
			e.next = s.free
			s.free = e
		}
		s.processed++
		s.running.at, s.running.seq, s.running.sched, s.running.parent, s.running.h = e.at, e.seq, e.sched, e.parent, h
		h.Handle(s.now, kind, arg)
		s.running.h = nil
		if s.stopped {
			return nil
		}
	}
	if until != Forever {
		s.now = until
	}
	return nil
}

func (s *Scheduler) push(e *event, at Time) {
	if at < s.now {
		panic(fmt.Sprintf("bug: des: event scheduled at %v, before now %v", at, s.now))
	}
	s.stamp(e, at)
	s.insert(e)
}

// insert adds e, stamped, to the one-shot heap: in the place of the
// event that ran if it is still there (hole).
func (s *Scheduler) insert(e *event) {
	if !s.hole {
		s.heap.insert(e)
		return
	}
	s.hole = false
	s.heap[0] = e
	s.heap.down(0) // sets e.index
}

// fillHole removes the event that ran from the top of the heap if no
// insertion has taken its place: before anything reads the top.
func (s *Scheduler) fillHole() {
	if s.hole {
		s.hole = false
		s.heap.removeAt(0)
	}
}

// heapAfter reports whether every event in the one-shot heap comes after
// time at, but for the event that ran, still at the top (hole): then the
// earliest of the others is one of the top's children.
func (s *Scheduler) heapAfter(at Time) bool {
	if !s.hole {
		return s.heap.after(at)
	}
	for _, e := range s.heap[1:min(len(s.heap), 1+arity)] {
		if e.at <= at {
			return false
		}
	}
	return true
}

// next returns the heap whose top runs first, nil if both are empty.
// The hole must have been filled.
func (s *Scheduler) next() *eventHeap {
	switch {
	case len(s.timers) == 0:
		if len(s.heap) == 0 {
			return nil
		}
		return &s.heap
	case len(s.heap) == 0 || s.timers[0].before(s.heap[0]):
		return &s.timers
	}
	return &s.heap
}

// stamp gives e its time and takes its scheduling order, ordinary.
func (s *Scheduler) stamp(e *event, at Time) {
	e.at = at
	e.seq = s.seq | ordinary
	e.sched = s.now
	e.parent = s.parentSeq()
	s.seq++
}

// NoParent is Running's parent for an event scheduled outside a handler.
const NoParent = ^uint64(0)

// parentSeq is the scheduling order of the running event, or NoParent.
func (s *Scheduler) parentSeq() uint64 {
	if s.running.h == nil {
		return NoParent
	}
	return s.running.seq
}

// Reserve takes the scheduling order an event scheduled now would get,
// without scheduling one. A component that works out in advance what an
// event would have done (a link's transmitter, netsim/lazy.go) reserves
// the order of the event it does without, and compares it with
// Running's to tell which of two events at the same instant runs first.
func (s *Scheduler) Reserve() uint64 {
	q := s.seq | ordinary
	s.seq++
	return q
}

// newEvent takes an event from the free list (or allocates one while the
// queue grows beyond its largest size so far) and sets its handler.
func (s *Scheduler) newEvent(h Handler, kind int, arg uint64) *event {
	e := s.free
	if e != nil {
		s.free = e.next
		e.next = nil
	} else {
		e = &event{pooled: true}
	}
	e.h, e.kind, e.arg = h, kind, arg
	return e
}

// ScheduleFirst is Schedule for an event that runs before every event
// scheduled by Schedule (or a Timer) for the same instant, whenever either
// was scheduled; among themselves such events run in scheduling order. A
// link's end of transmission can so come before any arrival at the same
// instant, an order that does not depend on how the two were scheduled
// (netsim.LinkConfig.EndsFirst), which a link that does without its
// end-of-transmission events can reproduce exactly.
func (s *Scheduler) ScheduleFirst(at Time, h Handler, kind int, arg uint64) {
	e := s.newEvent(h, kind, arg)
	if at < s.now {
		panic(fmt.Sprintf("bug: des: event scheduled at %v, before now %v", at, s.now))
	}
	if d := s.due; d != nil && at == d.at {
		// The event due next (Schedule's shortcut) is ordinary: it
		// goes back to the heap, behind this one.
		s.due = nil
		s.insert(d)
	}
	s.stamp(e, at)
	e.seq &^= ordinary
	s.insert(e)
}

// ordinary is set in the scheduling order of every event but those of
// ScheduleFirst, which sort before them at one instant.
const ordinary = 1 << 63

// IsFirst reports whether seq, a scheduling order as Running gives it, is
// that of an event of ScheduleFirst.
func IsFirst(seq uint64) bool { return seq&ordinary == 0 }

// Running describes the event whose handler is running: when it was
// scheduled, its scheduling order, and the scheduling order of the event
// whose handler scheduled it (NoParent if it was scheduled outside a
// handler); ok is false outside a handler. Events with equal times run
// in scheduling order; an event scheduled at an earlier time was
// scheduled before (has a smaller order than) one scheduled later, and
// of two scheduled at one instant by different handlers, the one whose
// handler ran first.
func (s *Scheduler) Running() (sched Time, seq, parent uint64, ok bool) {
	return s.running.sched, s.running.seq, s.running.parent, s.running.h != nil
}

// eventHeap is a 4-ary min-heap of events by (time, scheduling order).
type eventHeap []*event

// after reports whether every event in the heap comes after time at.
func (q eventHeap) after(at Time) bool { return len(q) == 0 || q[0].at > at }

// insert adds e to the heap with the key it holds.
func (q *eventHeap) insert(e *event) {
	e.index = len(*q)
	*q = append(*q, e)
	q.up(e.index)
}

// removeAt removes the event at heap index i.
func (q *eventHeap) removeAt(i int) {
	h := *q
	n := len(h) - 1
	e := h[i]
	if i != n {
		h[i] = h[n]
		h[i].index = i
	}
	h[n] = nil
	*q = h[:n]
	if i != n {
		if !q.down(i) {
			q.up(i)
		}
	}
	e.index = -1
}

// A 4-ary heap: children of i are 4i+1..4i+4. Shallower than a binary heap,
// and the four children of a node are adjacent in memory.
const arity = 4

func (q eventHeap) up(i int) {
	h := q
	e := h[i]
	for i > 0 {
		p := (i - 1) / arity
		if !e.before(h[p]) {
			break
		}
		h[i] = h[p]
		h[i].index = i
		i = p
	}
	h[i] = e
	e.index = i
}

// down sifts the element at i towards the leaves and reports whether it
// moved.
func (q eventHeap) down(i0 int) bool {
	h := q
	n := len(h)
	i := i0
	e := h[i]
	for {
		c := arity*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+arity, n)
		for j := c + 1; j < end; j++ {
			if h[j].before(h[m]) {
				m = j
			}
		}
		if !h[m].before(e) {
			break
		}
		h[i] = h[m]
		h[i].index = i
		i = m
	}
	h[i] = e
	e.index = i
	return i > i0
}
