package des

// Timer is a cancellable, reschedulable event, meant to be embedded in its
// owner (a retransmission timer inside a TCP endpoint, the transmitter of
// a link). A Timer holds its own queue entry, so Reset and Stop never
// allocate, and the queue holds at most one entry per timer, however
// often it is re-armed.
//
// A timer re-armed on every acknowledgement mostly moves later. Moving
// its entry down the heap each time would cost O(log n) per ACK; instead
// Reset to a later expiry only records the new expiry and the scheduling
// order it takes now, and Stop only marks the timer stopped. The entry
// stays at its old key, which is never later than the timer's, and when
// it reaches the top of the heap the scheduler gives it the timer's key
// (or drops it if the timer is stopped) before any handler runs, so
// handlers run in exactly the order an eager re-keying would give. Linux
// (mod_timer on a timer wheel, whose expiry is re-checked when the wheel
// reaches it) and ns-3 (which cancels lazily) avoid the same cost. Reset
// to an earlier expiry sifts the entry up at once.
//
// The zero Timer is unusable; call Init once before use.
type Timer struct {
	s *Scheduler
	e event
	// The timer's state; e's key may lag behind at and seq.
	armed  bool
	at     Time
	seq    uint64
	sched  Time
	parent uint64
}

// Init binds the timer to a scheduler and to the handler call it makes
// when it fires: h.Handle(now, kind, arg).
func (t *Timer) Init(s *Scheduler, h Handler, kind int, arg uint64) {
	if t.s != nil && t.armed {
		panic("bug: des: Init of a pending timer")
	}
	if t.s != nil && t.e.index >= 0 {
		// The entry of a stopped timer: take it out before reusing it.
		t.s.timers.removeAt(t.e.index)
		t.s.stale--
	}
	t.s = s
	t.e = event{h: h, kind: kind, arg: arg, index: -1, timer: t}
	t.armed = false
}

// Reset arms the timer to fire at time at, replacing any pending
// expiry. A reset timer runs after events already scheduled for the same
// time, as if it had been scheduled anew.
func (t *Timer) Reset(at Time) {
	s := t.s
	if s == nil {
		panic("bug: des: Reset of a timer without Init")
	}
	if at < s.now {
		panic("bug: des: timer reset into the past")
	}
	if t.e.timer != t {
		// The Timer was copied after Init; its entry would point to the
		// original.
		panic("bug: des: Reset of a copied timer")
	}
	wasArmed := t.armed
	t.armed, t.at, t.seq, t.sched, t.parent = true, at, s.seq|ordinary, s.now, s.parentSeq()
	s.seq++
	switch {
	case t.e.index < 0:
		t.e.at, t.e.seq, t.e.sched, t.e.parent = at, t.seq, t.sched, t.parent
		s.timers.insert(&t.e)
	case at < t.e.at:
		// Earlier than its entry: move the entry up now.
		t.e.at, t.e.seq, t.e.sched, t.e.parent = at, t.seq, t.sched, t.parent
		s.timers.up(t.e.index)
		if !wasArmed {
			s.stale--
		}
	default:
		// At or after its entry: the entry's key stays a lower bound,
		// fixed when it reaches the top (Scheduler.Run).
		if !wasArmed {
			s.stale--
		}
	}
}

// ResetAfter is Reset(Now()+d).
func (t *Timer) ResetAfter(d Duration) { t.Reset(t.s.now.Add(d)) }

// Stop cancels the timer and reports whether it was pending. The entry
// stays in the queue until it reaches the top or the timer is reset.
func (t *Timer) Stop() bool {
	if !t.Pending() {
		return false
	}
	t.armed = false
	t.s.stale++
	return true
}

// Pending reports whether the timer is armed.
func (t *Timer) Pending() bool { return t.s != nil && t.armed }

// When returns the expiry of a pending timer (meaningless otherwise).
func (t *Timer) When() Time { return t.at }
