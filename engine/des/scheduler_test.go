package des

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recorder logs every event it handles as (time, arg).
type recorder struct {
	got []fired
	s   *Scheduler
	// stop makes each event call Stop, so Run handles one event per call.
	stop bool
}

type fired struct {
	At   Time
	Kind int
	Arg  uint64
}

func (r *recorder) Handle(now Time, kind int, arg uint64) {
	r.got = append(r.got, fired{now, kind, arg})
	if r.stop {
		r.s.Stop()
	}
}

func TestOrderByTimeThenInsertion(t *testing.T) {
	s := New()
	r := &recorder{}
	// Scheduled out of time order, with ties at t=5 and t=7.
	in := []fired{{7, 0, 1}, {5, 0, 2}, {5, 0, 3}, {1, 0, 4}, {7, 0, 5}, {5, 0, 6}, {0, 0, 7}}
	for _, f := range in {
		s.Schedule(f.At, r, f.Kind, f.Arg)
	}
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	want := []fired{{0, 0, 7}, {1, 0, 4}, {5, 0, 2}, {5, 0, 3}, {5, 0, 6}, {7, 0, 1}, {7, 0, 5}}
	if diff := cmp.Diff(want, r.got); diff != "" {
		t.Errorf("event order (-want +got):\n%s", diff)
	}
	if got := s.Processed(); got != 7 {
		t.Errorf("Processed() = %d, want 7", got)
	}
}

// chain schedules a follow-up at the same instant: it must run after events
// already queued for that instant.
type chain struct {
	r *recorder
	s *Scheduler
}

func (c *chain) Handle(now Time, kind int, arg uint64) {
	c.r.Handle(now, kind, arg)
	if kind == 0 {
		c.s.Schedule(now, c, 1, arg)
	}
}

func TestSameTimeScheduledDuringRunRunsLast(t *testing.T) {
	s := New()
	r := &recorder{}
	c := &chain{r: r, s: s}
	s.Schedule(10, c, 0, 1)
	s.Schedule(10, r, 0, 2)
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	want := []fired{{10, 0, 1}, {10, 0, 2}, {10, 1, 1}}
	if diff := cmp.Diff(want, r.got); diff != "" {
		t.Errorf("event order (-want +got):\n%s", diff)
	}
}

func TestRunUntil(t *testing.T) {
	s := New()
	r := &recorder{}
	for _, at := range []Time{10, 20, 30} {
		s.Schedule(at, r, 0, uint64(at))
	}
	if err := s.Run(context.Background(), 20); err != nil {
		t.Fatal(err)
	}
	if got, want := len(r.got), 2; got != want {
		t.Errorf("events by t=20: %d, want %d", got, want)
	}
	if got, want := s.Now(), Time(20); got != want {
		t.Errorf("Now() after Run(20) = %v, want %v", got, want)
	}
	if err := s.Run(context.Background(), 25); err != nil {
		t.Fatal(err)
	}
	if got, want := s.Now(), Time(25); got != want {
		t.Errorf("Now() after Run(25) = %v, want %v", got, want)
	}
	if err := s.Run(context.Background(), 5); err == nil {
		t.Errorf("Run(5) at now=25: no error, want one")
	}
}

func TestTimer(t *testing.T) {
	tests := []struct {
		name string
		ops  func(s *Scheduler, a, b *Timer)
		want []fired
	}{
		{"fires", func(s *Scheduler, a, b *Timer) { a.Reset(10) }, []fired{{10, 1, 0}}},
		{"stop", func(s *Scheduler, a, b *Timer) {
			a.Reset(10)
			if !a.Stop() {
				t.Error("Stop() of a pending timer = false, want true")
			}
			if a.Stop() {
				t.Error("second Stop() = true, want false")
			}
		}, nil},
		{"reset later", func(s *Scheduler, a, b *Timer) { a.Reset(10); b.Reset(15); a.Reset(20) },
			[]fired{{15, 2, 0}, {20, 1, 0}}},
		{"reset earlier", func(s *Scheduler, a, b *Timer) { a.Reset(30); b.Reset(15); a.Reset(5) },
			[]fired{{5, 1, 0}, {15, 2, 0}}},
		// A reset timer counts as newly scheduled: it runs after b at the same time.
		{"reset ties", func(s *Scheduler, a, b *Timer) { a.Reset(10); b.Reset(10); a.Reset(10) },
			[]fired{{10, 2, 0}, {10, 1, 0}}},
		{"stop then reset", func(s *Scheduler, a, b *Timer) { a.Reset(10); a.Stop(); a.Reset(12) },
			[]fired{{12, 1, 0}}},
		// Moved later, a's entry stays at 10 and is re-keyed when it
		// reaches the top: it still runs after the one-shot scheduled
		// before its last Reset and before the one scheduled after.
		{"reset later past one-shots", func(s *Scheduler, a, b *Timer) {
			a.Reset(10)
			s.Schedule(20, b.e.h, 3, 1)
			a.Reset(15)
			a.Reset(20)
			s.Schedule(20, b.e.h, 3, 2)
		}, []fired{{20, 3, 1}, {20, 1, 0}, {20, 3, 2}}},
		// A stopped entry left in the queue is neither run nor counted.
		{"stop then reset earlier", func(s *Scheduler, a, b *Timer) {
			a.Reset(10)
			a.Stop()
			if n := s.Pending(); n != 0 {
				t.Errorf("Pending() with a stopped timer = %d, want 0", n)
			}
			a.Reset(4)
			b.Reset(4)
		}, []fired{{4, 1, 0}, {4, 2, 0}}},
		{"stop then reset later", func(s *Scheduler, a, b *Timer) {
			a.Reset(10)
			b.Reset(12)
			a.Stop()
			a.Reset(12)
			if n := s.Pending(); n != 2 {
				t.Errorf("Pending() = %d, want 2", n)
			}
		}, []fired{{12, 2, 0}, {12, 1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New()
			r := &recorder{}
			var a, b Timer
			a.Init(s, r, 1, 0)
			b.Init(s, r, 2, 0)
			tt.ops(s, &a, &b)
			if err := s.Run(context.Background(), Forever); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, r.got); diff != "" {
				t.Errorf("fired (-want +got):\n%s", diff)
			}
			if a.Pending() || b.Pending() {
				t.Errorf("timers pending after the queue drained")
			}
		})
	}
}

// rearm reschedules itself forever: a runaway scenario.
type rearm struct{ s *Scheduler }

func (r *rearm) Handle(now Time, kind int, arg uint64) { r.s.Schedule(now+1, r, 0, 0) }

// TestMaxEventsSkipsStoppedTimers: a stopped timer's entry, still in the
// queue, is not an event, so it neither uses the budget nor trips it.
func TestMaxEventsSkipsStoppedTimers(t *testing.T) {
	s := New()
	s.MaxEvents = 1
	r := &recorder{}
	var a Timer
	a.Init(s, r, 1, 0)
	a.Reset(5)
	a.Stop()
	s.Schedule(7, r, 2, 0)
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatalf("Run: %v, want nil (one event within a budget of one)", err)
	}
	if got := s.Processed(); got != 1 {
		t.Errorf("Processed() = %d, want 1", got)
	}
}

func TestMaxEvents(t *testing.T) {
	s := New()
	s.MaxEvents = 5000
	s.Schedule(0, &rearm{s}, 0, 0)
	err := s.Run(context.Background(), Forever)
	if !errors.Is(err, ErrMaxEvents) {
		t.Fatalf("Run of a runaway loop = %v, want ErrMaxEvents", err)
	}
	if got := s.Processed(); got != 5000 {
		t.Errorf("Processed() = %d, want 5000", got)
	}
}

// canceller cancels the context from inside the simulation after n events.
type canceller struct {
	s      *Scheduler
	n      int
	cancel context.CancelFunc
}

func (c *canceller) Handle(now Time, kind int, arg uint64) {
	c.n--
	if c.n == 0 {
		c.cancel()
	}
	c.s.Schedule(now+1, c, 0, 0)
}

func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := New()
	s.Schedule(0, &canceller{s: s, n: 10, cancel: cancel}, 0, 0)
	err := s.Run(ctx, Forever)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel = %v, want context.Canceled", err)
	}
	// The context is polled every ctxCheckEvery events, so the run stops
	// within one polling period of the cancellation.
	if got := s.Processed(); got < 10 || got > ctxCheckEvery {
		t.Errorf("Processed() = %d, want in [10, %d]", got, ctxCheckEvery)
	}
	if err := s.Run(ctx, Forever); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestStop(t *testing.T) {
	s := New()
	r := &recorder{s: s, stop: true}
	s.Schedule(1, r, 0, 0)
	s.Schedule(2, r, 0, 0)
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	if got, want := len(r.got), 1; got != want {
		t.Errorf("events before Stop took effect: %d, want %d", got, want)
	}
	if got, want := s.Now(), Time(1); got != want {
		t.Errorf("Now() after Stop = %v, want %v", got, want)
	}
}

func TestSchedulePastPanics(t *testing.T) {
	s := New()
	s.Schedule(10, &recorder{}, 0, 0)
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Schedule(5) at now=10 did not panic")
		}
	}()
	s.Schedule(5, &recorder{}, 0, 0)
}

func TestTimeConversions(t *testing.T) {
	tests := []struct {
		in   float64
		want Duration
	}{
		{0.25, 250 * Millisecond},
		{1e-9, 1},
		{0.0533, 53300 * Microsecond},
		{-2, -2 * Second},
	}
	for _, tt := range tests {
		if got := FromSeconds(tt.in); got != tt.want {
			t.Errorf("FromSeconds(%v) = %d, want %d", tt.in, got, tt.want)
		}
	}
	if got, want := Time(1500*Millisecond).String(), "1.5s"; got != want {
		t.Errorf("Time(1.5s).String() = %q, want %q", got, want)
	}
	if got, want := Time(3).Add(4).Sub(2), Duration(5); got != want {
		t.Errorf("Time(3).Add(4).Sub(2) = %d, want %d", got, want)
	}
}

// TestScheduleFirst: at one instant, events of ScheduleFirst run before
// every other event (one-shot or timer) whenever either was scheduled,
// in their own scheduling order; at different instants time decides; and
// Running tells the two classes apart (IsFirst).
func TestScheduleFirst(t *testing.T) {
	s := New()
	r := &recorder{}
	var tm Timer
	tm.Init(s, r, 2, 9)
	s.Schedule(5, r, 0, 1)
	tm.Reset(5)
	s.ScheduleFirst(5, r, 1, 2)
	s.Schedule(5, r, 0, 3)
	s.ScheduleFirst(5, r, 1, 4)
	s.ScheduleFirst(6, r, 1, 5)
	s.Schedule(4, r, 0, 6)
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	want := []fired{{4, 0, 6}, {5, 1, 2}, {5, 1, 4}, {5, 0, 1}, {5, 2, 9}, {5, 0, 3}, {6, 1, 5}}
	if diff := cmp.Diff(want, r.got); diff != "" {
		t.Errorf("event order (-want +got):\n%s", diff)
	}
	var first []bool
	probe := handlerFunc(func(now Time, kind int, arg uint64) {
		_, seq, _, _ := s.Running()
		first = append(first, IsFirst(seq))
	})
	s.Schedule(10, probe, 0, 0)
	s.ScheduleFirst(10, probe, 0, 0)
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bool{true, false}, first); diff != "" {
		t.Errorf("IsFirst of the running events (-want +got):\n%s", diff)
	}
	// An ordinary event a handler schedules for its own instant with
	// nothing else due then runs next without the heap (Schedule's
	// shortcut); one of ScheduleFirst for that instant still runs first.
	r.got = nil
	s.Schedule(20, handlerFunc(func(now Time, kind int, arg uint64) {
		s.Schedule(now, r, 0, 1)
		s.ScheduleFirst(now, r, 1, 2)
	}), 0, 0)
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]fired{{20, 1, 2}, {20, 0, 1}}, r.got); diff != "" {
		t.Errorf("a first event behind a due-now one (-want +got):\n%s", diff)
	}
}

type handlerFunc func(now Time, kind int, arg uint64)

func (f handlerFunc) Handle(now Time, kind int, arg uint64) { f(now, kind, arg) }

// scripted handles its events by arg: it records each with the queue's
// Pending count as its handler starts, then runs the action given for
// its arg, if any.
type scripted struct {
	s       *Scheduler
	got     []fired
	pending []int
	act     map[uint64]func()
}

func (h *scripted) Handle(now Time, kind int, arg uint64) {
	h.got = append(h.got, fired{now, kind, arg})
	h.pending = append(h.pending, h.s.Pending())
	if a := h.act[arg]; a != nil {
		a()
	}
}

// TestRunningEventLeavesHeap covers the running event's place in the heap
// (Scheduler.hole), which the first event its handler schedules takes:
// whichever way a handler schedules (none, one at its own instant that
// skips the heap, ScheduleFirst, a queued follower), the order is by
// (time, scheduling order) and the running event is never pending.
func TestRunningEventLeavesHeap(t *testing.T) {
	s := New()
	h := &scripted{s: s}
	h.act = map[uint64]func(){
		1: func() { s.Schedule(1, h, 0, 10); s.Schedule(5, h, 0, 11) },
		2: func() { s.ScheduleFirst(2, h, 0, 20); s.Schedule(2, h, 0, 21) },
		3: func() {
			f := s.Follow(3, h, 0, 30)
			s.Schedule(3, h, 0, 31) // takes a scheduling order: the follower is queued
			s.RunFollower(f)
		},
		31: func() { s.Schedule(4, h, 0, 40) },
		// 41 runs next without the heap, while 40 is still at its
		// top; 41's handler fills 40's place.
		40: func() { s.Schedule(4, h, 0, 41) },
		41: func() { s.Schedule(6, h, 0, 60) },
	}
	for _, arg := range []uint64{3, 1, 2} {
		s.Schedule(Time(arg), h, 0, arg)
	}
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	want := []fired{{1, 0, 1}, {1, 0, 10}, {2, 0, 2}, {2, 0, 20}, {2, 0, 21}, {3, 0, 3}, {3, 0, 30}, {3, 0, 31}, {4, 0, 40}, {4, 0, 41}, {5, 0, 11}, {6, 0, 60}}
	if diff := cmp.Diff(want, h.got); diff != "" {
		t.Errorf("event order (-want +got):\n%s", diff)
	}
	// Pending as each handler starts: the events scheduled and not yet
	// run, the running one excluded.
	wantPending := []int{2, 3, 2, 3, 2, 1, 2, 1, 1, 1, 1, 0}
	if diff := cmp.Diff(wantPending, h.pending); diff != "" {
		t.Errorf("Pending at each handler's start (-want +got):\n%s", diff)
	}
	if n := s.Pending(); n != 0 {
		t.Errorf("Pending() after the run = %d, want 0", n)
	}
}
