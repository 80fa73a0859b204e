package cc

import (
	"math/rand/v2"
	"testing"
)

// The windowed maximum holds a spike for the window and drops it after
// (draft-cardwell-iccrg-bbr-congestion-control-00 section 4.1.1.1: BtlBw is
// the maximum over the last 10 round trips). Exact expectations: the spike
// at t = 2 is returned up to t = 12 (12 - 2 = win, not more) and forgotten
// at t = 13, when the best remaining sample is the newest plateau value.
func TestMaxFilterSpike(t *testing.T) {
	const win = 10
	var f MaxFilter[float64]
	f.Reset(0, 5)
	in := []struct {
		t    int64
		v    float64
		want float64
	}{
		{1, 5, 5}, {2, 9, 9}, {3, 5, 9}, {7, 6, 9}, {12, 5, 9}, {13, 5, 6}, {18, 5, 5},
	}
	for _, tt := range in {
		if got := f.Update(win, tt.t, tt.v); got != tt.want {
			t.Errorf("Update(t=%d, v=%v) = %v, want %v", tt.t, tt.v, got, tt.want)
		}
	}
}

// Against a brute-force window over random input: the estimate is never
// above the true maximum of the last win time units, never below the
// newest sample, and equals the true maximum whenever that maximum is the
// newest sample. The second property bound (estimate at least the maximum
// over the last win/4) follows from the sub-window refresh: a sample
// survives as s[1] or s[2] for at least a quarter window.
func TestFiltersAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const win = 40
	for run := 0; run < 20; run++ {
		var mx MaxFilter[float64]
		var mn MinFilter[float64]
		var ts []int64
		var vs []float64
		now := int64(0)
		for i := 0; i < 500; i++ {
			now += int64(rng.IntN(3))
			v := float64(rng.IntN(100))
			if i == 0 {
				mx.Reset(now, v)
				mn.Reset(now, v)
			}
			gotMax := mx.Update(win, now, v)
			gotMin := mn.Update(win, now, v)
			ts, vs = append(ts, now), append(vs, v)
			trueMax, trueMin := v, v
			quarterMax, quarterMin := v, v
			for j := len(ts) - 1; j >= 0 && now-ts[j] <= win; j-- {
				trueMax, trueMin = max(trueMax, vs[j]), min(trueMin, vs[j])
				if now-ts[j] <= win/4 {
					quarterMax, quarterMin = max(quarterMax, vs[j]), min(quarterMin, vs[j])
				}
			}
			if gotMax > trueMax || gotMax < quarterMax {
				t.Fatalf("run %d step %d: max = %v, want in [%v, %v]", run, i, gotMax, quarterMax, trueMax)
			}
			if gotMin < trueMin || gotMin > quarterMin {
				t.Fatalf("run %d step %d: min = %v, want in [%v, %v]", run, i, gotMin, trueMin, quarterMin)
			}
		}
	}
}
