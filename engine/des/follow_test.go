package des

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// step is what a handler of followScript saw: the clock, its kind and the
// key Running reports.
type step struct {
	Now    Time
	Kind   int
	Sched  Time
	Seq    uint64
	Parent uint64
}

// Kinds of followScript's events.
const (
	kStart    = iota // at 0: schedules the leader and its follower
	kLeader          // at 10
	kFollower        // at 10, after the leader
	kBefore          // at 10, scheduled before the leader
	kAfter           // at 10, scheduled after the follower
	kFirst           // ScheduleFirst at 10 by the leader
	kLate            // at 10, scheduled by the leader
	kTimer           // a timer's expiry
	kMove            // moves the timer
	kBetween         // at 10, scheduled between the leader and the follower
)

// followScript schedules an event (the follower) for the instant of the
// event it scheduled just before (the leader), either as a Follower run
// at the end of the leader's handler or as a queued event, and logs what
// every handler sees. Its options make the leader's handler schedule
// events at its own instant, stop the run, or a timer sit in the queue.
type followScript struct {
	s      *Scheduler
	follow bool // Follow and RunFollower, else Schedule
	log    []step

	f     Follower
	timer Timer
	opts  followOpts
}

type followOpts struct {
	first, late, stop bool // what the leader's handler does
	between           bool // an event scheduled between the leader and the follower
	timerAt           Time // a timer armed at 0 for timerAt, moved to timerTo at 5 (0: none)
	timerTo           Time
}

func (c *followScript) Handle(now Time, kind int, arg uint64) {
	sched, seq, parent, _ := c.s.Running()
	c.log = append(c.log, step{now, kind, sched, seq, parent})
	switch kind {
	case kStart:
		if c.opts.timerAt > 0 {
			c.timer.Reset(c.opts.timerAt)
			c.s.Schedule(5, c, kMove, 0)
		}
		c.s.Schedule(10, c, kBefore, 0)
		c.s.Schedule(10, c, kLeader, 0)
		if c.opts.between {
			c.s.Schedule(10, c, kBetween, 0)
		}
		if c.follow {
			c.f = c.s.Follow(10, c, kFollower, 0)
		} else {
			c.s.Schedule(10, c, kFollower, 0)
		}
		c.s.Schedule(10, c, kAfter, 0)
	case kMove:
		c.timer.Reset(c.opts.timerTo)
	case kLeader:
		if c.opts.late {
			c.s.Schedule(now, c, kLate, 0)
		}
		if c.opts.first {
			c.s.ScheduleFirst(now, c, kFirst, 0)
		}
		if c.opts.stop {
			c.s.Stop()
		}
		if c.follow {
			c.s.RunFollower(c.f)
		}
	}
}

// run runs the script to the end, calling Run again after a Stop or an
// exhausted budget (raised by 2), and returns the log, the errors' texts
// and the scheduler's counts.
func (c *followScript) run(budget uint64) ([]step, []string, [2]uint64) {
	c.s = New()
	c.s.MaxEvents = budget
	c.timer.Init(c.s, c, kTimer, 0)
	c.s.Schedule(0, c, kStart, 0)
	var errs []string
	for i := 0; c.s.Pending() > 0 && i < 20; i++ {
		if err := c.s.Run(context.Background(), Forever); err != nil {
			errs = append(errs, err.Error())
			c.s.MaxEvents += 2
		}
	}
	return c.log, errs, [2]uint64{c.s.Processed(), c.s.Handled()}
}

// TestFollowerRunsAsQueued: a follower runs exactly where the queued event
// would, with the same clock and Running key, and so do the events at its
// instant around it, whatever the leader's handler does (an event at its
// instant by Schedule or ScheduleFirst, Stop), with an order taken between
// the two, a budget that runs out at the leader, or a timer at that
// instant. Handled counts it as an event, Processed (the queue's) only
// when it was queued.
func TestFollowerRunsAsQueued(t *testing.T) {
	tests := []struct {
		name   string
		opts   followOpts
		budget uint64
		runs   bool // the follower runs without the queue
	}{
		{name: "alone", runs: true},
		{name: "an event at the instant by the leader", opts: followOpts{late: true}, runs: true},
		{name: "ScheduleFirst by the leader", opts: followOpts{first: true}},
		{name: "both", opts: followOpts{first: true, late: true}},
		{name: "Stop in the leader", opts: followOpts{stop: true}},
		{name: "an event scheduled between", opts: followOpts{between: true}},
		{name: "budget out at the leader", budget: 3},
		{name: "budget out at the follower", budget: 4, runs: true},
		// The timer's entry, left at 10 when it moves to 20, sorts
		// before the leader: it is re-keyed before the leader runs.
		{name: "timer moved later", opts: followOpts{timerAt: 10, timerTo: 20}, runs: true},
		{name: "timer at the instant, armed later", opts: followOpts{timerAt: 15, timerTo: 10}, runs: true},
		{name: "timer due before", opts: followOpts{timerAt: 7, timerTo: 9}, runs: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			queued := &followScript{opts: tc.opts}
			follow := &followScript{opts: tc.opts, follow: true}
			wantLog, wantErrs, wantN := queued.run(tc.budget)
			gotLog, gotErrs, gotN := follow.run(tc.budget)
			if diff := cmp.Diff(wantLog, gotLog); diff != "" {
				t.Errorf("handlers (-queued +follower):\n%s", diff)
			}
			if diff := cmp.Diff(wantErrs, gotErrs); diff != "" {
				t.Errorf("errors (-queued +follower):\n%s", diff)
			}
			ran := gotN[0] < wantN[0]
			if gotN[1] != wantN[1] || wantN[0] != wantN[1] || ran != tc.runs || ran && gotN[0] != wantN[0]-1 {
				t.Errorf("processed/handled: queued %v, follower %v; want the follower run without the queue: %v", wantN, gotN, tc.runs)
			}
			var kinds []string
			for _, s := range gotLog {
				kinds = append(kinds, fmt.Sprint(s.Now, ":", s.Kind))
			}
			t.Log(kinds)
		})
	}
}

// TestRunFollowerOutsideItsLeaderQueues: a follower handed to RunFollower
// from an event other than its leader, or before its time, is queued
// under its key and runs in its place.
func TestRunFollowerOutsideItsLeaderQueues(t *testing.T) {
	s := New()
	r := &recorder{}
	s.Schedule(10, r, 1, 0)
	f := s.Follow(10, r, 2, 0)
	s.Schedule(10, r, 3, 0)
	if got := s.Pending(); got != 3 {
		t.Errorf("Pending() = %d with a follower taken, want 3", got)
	}
	s.RunFollower(f) // outside any handler: queued
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	want := []fired{{10, 1, 0}, {10, 2, 0}, {10, 3, 0}}
	if diff := cmp.Diff(want, r.got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if s.Processed() != 3 || s.Handled() != 3 || s.Pending() != 0 {
		t.Errorf("processed %d, handled %d, pending %d; want 3, 3, 0", s.Processed(), s.Handled(), s.Pending())
	}
}

// runsFollower records its events and hands the follower f to
// RunFollower from the event of kind 1.
type runsFollower struct {
	recorder
	f Follower
}

func (r *runsFollower) Handle(now Time, kind int, arg uint64) {
	r.recorder.Handle(now, kind, arg)
	if kind == 1 {
		r.s.RunFollower(r.f)
	}
}

// TestRunFollowerFromAnotherEventQueues: an event at the follower's
// instant that is not its leader hands it to RunFollower; it is queued
// under its key and runs after its leader, where the queued event would.
func TestRunFollowerFromAnotherEventQueues(t *testing.T) {
	s := New()
	r := &runsFollower{recorder: recorder{s: s}}
	s.Schedule(10, r, 1, 0) // not the leader
	s.Schedule(10, r, 2, 0) // the leader
	r.f = s.Follow(10, r, 3, 0)
	s.Schedule(10, r, 4, 0)
	if err := s.Run(context.Background(), Forever); err != nil {
		t.Fatal(err)
	}
	want := []fired{{10, 1, 0}, {10, 2, 0}, {10, 3, 0}, {10, 4, 0}}
	if diff := cmp.Diff(want, r.got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if s.Processed() != 4 || s.Handled() != 4 {
		t.Errorf("processed %d, handled %d; want 4 and 4 (the follower queued)", s.Processed(), s.Handled())
	}
}
