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

// FuzzQueue drives the scheduler with a random sequence of operations
// (schedule a one-shot event, reset or stop one of four timers, step one
// event) and checks every handled event, and every Pending/Stop answer,
// against a sorted-slice oracle.
func FuzzQueue(f *testing.F) {
	f.Add([]byte{0, 5, 0, 5, 1, 3, 2, 3, 3, 3, 3})
	f.Add([]byte{1, 0, 9, 1, 1, 9, 1, 0, 2, 2, 0, 3, 3, 3})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 3, 1, 2, 0, 3, 3, 2, 2, 3})
	f.Fuzz(func(t *testing.T, ops []byte) {
		s := New()
		r := &recorder{s: s, stop: true}
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
			op, v := ops[k]%4, ops[k+1]
			switch op {
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
