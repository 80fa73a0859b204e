package des

// Timer is a cancellable, reschedulable event, meant to be embedded in its
// owner (a retransmission timer inside a TCP endpoint, the transmitter of
// a link). A Timer holds its own queue entry, so Reset and Stop never
// allocate: Reset moves the entry within the heap by its index (sift up or
// down, like container/heap's Fix) and Stop removes it. The queue therefore
// never holds stale timer entries, which keeps it small when a timer is
// re-armed on every acknowledgement.
//
// The zero Timer is unusable; call Init once before use.
type Timer struct {
	s *Scheduler
	e event
}

// Init binds the timer to a scheduler and to the handler call it makes
// when it fires: h.Handle(now, kind, arg).
func (t *Timer) Init(s *Scheduler, h Handler, kind int, arg uint64) {
	if t.s != nil && t.e.index >= 0 {
		panic("bug: des: Init of a pending timer")
	}
	t.s = s
	t.e = event{h: h, kind: kind, arg: arg, index: -1}
}

// Reset arms the timer to fire at time at, replacing any pending
// expiry. A reset timer runs after events already scheduled for the same
// time, as if it had been scheduled anew.
func (t *Timer) Reset(at Time) {
	s := t.s
	if s == nil {
		panic("bug: des: Reset of a timer without Init")
	}
	if t.e.index < 0 {
		s.push(&t.e, at)
		return
	}
	if at < s.now {
		panic("bug: des: timer reset into the past")
	}
	t.e.at = at
	t.e.seq = s.seq
	s.seq++
	s.fix(&t.e)
}

// ResetAfter is Reset(Now()+d).
func (t *Timer) ResetAfter(d Duration) { t.Reset(t.s.now.Add(d)) }

// Stop cancels the timer and reports whether it was pending.
func (t *Timer) Stop() bool {
	if !t.Pending() {
		return false
	}
	t.s.removeAt(t.e.index)
	return true
}

// Pending reports whether the timer is armed.
func (t *Timer) Pending() bool { return t.s != nil && t.e.index >= 0 }

// When returns the expiry of a pending timer (meaningless otherwise).
func (t *Timer) When() Time { return t.e.at }
