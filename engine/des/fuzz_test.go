package des

import (
	"context"
	"slices"
	"testing"
)

// oracleEntry is a pending event in the reference model: a plain slice
// searched linearly for the minimum (time, seq).
type oracleEntry struct {
	at    Time
	seq   uint64
	kind  int
	arg   uint64
	timer int // timer index, or -1 for a one-shot event
}

// kindChain is a one-shot event whose handler (chainer) schedules another
// one-shot event, of kind 1 and argument arg+1, at its own time plus
// arg%2: half of them at the instant they run, which the scheduler may
// hand over without the heap (Scheduler.due).
const kindChain = 7

// chainer is the recorder, whose kindChain events schedule a follow-up.
type chainer struct{ *recorder }

func (c chainer) Handle(now Time, kind int, arg uint64) {
	c.recorder.Handle(now, kind, arg)
	if kind == kindChain {
		c.s.Schedule(now+Time(arg%2), c, 1, arg+1)
	}
}

// FuzzQueue drives the scheduler with a random sequence of operations
// (schedule a one-shot event, one that schedules another when it runs,
// reset or stop one of four timers, step one event) and checks every
// handled event, and every Pending/Stop answer, against a sorted-slice
// oracle.
func FuzzQueue(f *testing.F) {
	f.Add([]byte{0, 5, 0, 5, 1, 3, 2, 3, 3, 3, 3})
	f.Add([]byte{1, 0, 9, 1, 1, 9, 1, 0, 2, 2, 0, 3, 3, 3})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 3, 1, 2, 0, 3, 3, 2, 2, 3})
	f.Add([]byte{4, 0, 0, 0, 3, 0, 3, 0, 4, 1, 1, 0, 3, 0, 3, 0, 3, 0})
	f.Add([]byte{4, 2, 4, 2, 3, 0, 0, 0, 3, 0, 3, 0, 3, 0, 3, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		s := New()
		r := &recorder{s: s, stop: true}
		c := chainer{r}
		const nTimers = 4
		var timers [nTimers]Timer
		for i := range timers {
			timers[i].Init(s, r, 100+i, uint64(i))
		}
		var oracle []oracleEntry
		var seq uint64
		var nextArg uint64 = 1000
		removeTimer := func(i int) bool {
			for j, e := range oracle {
				if e.timer == i {
					oracle = slices.Delete(oracle, j, j+1)
					return true
				}
			}
			return false
		}
		for k := 0; k+1 < len(ops); k += 2 {
			op, v := ops[k]%5, ops[k+1]
			switch op {
			case 4: // a chain event at now + v%8, with an even or odd argument
				at := s.Now() + Time(v%8)
				arg := nextArg + uint64(v/8%2)
				s.Schedule(at, c, kindChain, arg)
				oracle = append(oracle, oracleEntry{at, seq, kindChain, arg, -1})
				seq++
				nextArg += 2
			case 0: // one-shot at now + v%8 (small deltas force ties)
				at := s.Now() + Time(v%8)
				s.Schedule(at, r, 1, nextArg)
				oracle = append(oracle, oracleEntry{at, seq, 1, nextArg, -1})
				seq++
				nextArg++
			case 1: // reset timer v%4 to now + v/4%8
				i := int(v % nTimers)
				at := s.Now() + Time(v/nTimers%8)
				timers[i].Reset(at)
				removeTimer(i)
				oracle = append(oracle, oracleEntry{at, seq, 100 + i, uint64(i), i})
				seq++
			case 2: // stop timer v%4
				i := int(v % nTimers)
				got := timers[i].Stop()
				if want := removeTimer(i); got != want {
					t.Fatalf("op %d: Stop(timer %d) = %v, want %v", k/2, i, got, want)
				}
			case 3: // step one event
				if len(oracle) == 0 {
					if s.Pending() != 0 {
						t.Fatalf("op %d: Pending() = %d, want 0", k/2, s.Pending())
					}
					continue
				}
				m := 0
				for j, e := range oracle {
					if e.at < oracle[m].at || e.at == oracle[m].at && e.seq < oracle[m].seq {
						m = j
					}
				}
				want := oracle[m]
				oracle = slices.Delete(oracle, m, m+1)
				r.got = r.got[:0]
				if err := s.Run(context.Background(), Forever); err != nil {
					t.Fatal(err)
				}
				if len(r.got) != 1 {
					t.Fatalf("op %d: step handled %d events, want 1", k/2, len(r.got))
				}
				if g := r.got[0]; g != (fired{want.at, want.kind, want.arg}) {
					t.Fatalf("op %d: step handled %+v, want %+v", k/2, g, want)
				}
				if want.kind == kindChain {
					oracle = append(oracle, oracleEntry{want.at + Time(want.arg%2), seq, 1, want.arg + 1, -1})
					seq++
				}
			}
			if got, want := s.Pending(), len(oracle); got != want {
				t.Fatalf("op %d: Pending() = %d, want %d", k/2, got, want)
			}
			for i := range timers {
				inOracle := slices.ContainsFunc(oracle, func(e oracleEntry) bool { return e.timer == i })
				if timers[i].Pending() != inOracle {
					t.Fatalf("op %d: timer %d Pending() = %v, want %v", k/2, i, timers[i].Pending(), inOracle)
				}
			}
		}
	})
}
