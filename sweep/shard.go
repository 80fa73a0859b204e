package sweep

import (
	"cmp"
	"container/heap"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Shard is share I (0-based) of N of a plan's scenarios.
type Shard struct{ I, N int }

// Whole is the single shard of an unsharded run.
var Whole = Shard{0, 1}

// ParseShard reads "i/n" (0 <= i < n).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("sweep: shard %q: want i/n, as in 0/4, or auto", s)
	}
	sh := Shard{i, n}
	return sh, sh.check()
}

func (s Shard) check() error {
	if s.N < 1 || s.I < 0 || s.I >= s.N {
		return fmt.Errorf("sweep: shard %d/%d: want 0 <= i < n", s.I, s.N)
	}
	return nil
}

// Fits checks s against a plan of n scenarios: a shard count above n
// would leave shards with nothing to run (and the cost-balanced split keeps
// one load per shard, so 0/99999999999 would exhaust memory).
func (s Shard) Fits(n int) error { return s.fits(n, "scenario") }

// fits is Fits for a plan of n units, scenarios or (adaptive replicates)
// points.
func (s Shard) fits(n int, unit string) error {
	if err := s.check(); err != nil {
		return err
	}
	if s.N > max(n, 1) {
		return fmt.Errorf("sweep: shard %s: the plan has %s, so it splits into at most %s", s, Count(n, unit), Count(max(n, 1), "shard"))
	}
	return nil
}

// TaskShards returns the shard of each job that task s runs when one
// process is given several specs with --shard s, and for a job it runs
// none of a shard that Runs calls none. A job is split by its scenarios,
// or by its points when it has adaptive replicates (see Adaptive). A job
// with k units, fewer than s.N, splits into k shards instead: tasks 0 to
// k-1 run shard i/k of it, the parts a run of that spec alone with
// --shard i/k writes, and tasks k and above have none of it. So one job
// array can run specs of any sizes, and `crosslink status` finds each
// dataset's shards complete. The run is refused only when s.N exceeds
// every job's units, as Fits refuses one spec: such a task would run
// nothing at all.
func TaskShards(jobs []*Job, s Shard) ([]Shard, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, nil
	}
	var largest *Job
	most := 0
	for _, j := range jobs {
		if n := j.shardUnits(); largest == nil || n > most {
			largest, most = j, n
		}
	}
	if len(jobs) == 1 {
		if err := s.fits(most, largest.shardUnit()); err != nil {
			return nil, err
		}
	} else if s.N > max(most, 1) {
		return nil, fmt.Errorf("sweep: shard %s: the largest of the %d specs, %s, has %s, so they split into at most %s", s, len(jobs), largest.Spec.Name, Count(most, largest.shardUnit()), Count(max(most, 1), "shard"))
	}
	shards := make([]Shard, len(jobs))
	for i, j := range jobs {
		// None: not the zero Shard, which Options reads as Whole, but
		// one every check refuses, so that a caller who runs it without
		// asking Runs gets an error rather than the whole job.
		shards[i] = Shard{I: -1}
		if k := min(s.N, max(j.shardUnits(), 1)); s.I < k {
			shards[i] = Shard{s.I, k}
		}
	}
	return shards, nil
}

// ShardUnits returns what a shard of the job splits, and its name in the
// singular: its scenarios ("scenario"), or its points ("point") when it
// has adaptive replicates, whose count per point the run decides. A job
// splits into at most that many shards.
func (j *Job) ShardUnits() (n int, unit string) { return j.shardUnits(), j.shardUnit() }

// Runs reports whether the shard runs a share of its job: false for the
// shard TaskShards gives a job that a task runs none of.
func (s Shard) Runs() bool { return s.N > 0 }

// shardUnits is what a shard of the job splits: its scenarios, or its
// points when it has adaptive replicates.
func (j *Job) shardUnits() int {
	if j.Spec.Adaptive != nil {
		return j.Plan.Points()
	}
	return j.Plan.Len()
}

// shardUnit names what shardUnits counts, in the singular.
func (j *Job) shardUnit() string {
	if j.Spec.Adaptive != nil {
		return "point"
	}
	return "scenario"
}

// Count is n of unit, in the plural unless n is 1: "1 shard", "3 shards".
func Count(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// String returns "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Infix returns the part-file infix of the shard's parts, "<i>of<n>".
func (s Shard) Infix() string { return fmt.Sprintf("%dof%d", s.I, s.N) }

// Environment variables read by AutoShard. The scripts `crosslink slurm`
// writes set ShardCountEnv and ShardOffsetEnv, so that an array split into
// chunks (MaxArraySize) and a resubmission of some task ids still name
// the right shards.
const (
	ShardCountEnv  = "CROSSLINK_SHARD_COUNT"
	ShardOffsetEnv = "CROSSLINK_SHARD_OFFSET"
)

// AutoShard finds the shard of this process from a scheduler's
// environment:
//
//   - Slurm job arrays: SLURM_ARRAY_TASK_ID. When CROSSLINK_SHARD_COUNT is
//     set (the scripts of `crosslink slurm`), the shard is the task id plus
//     CROSSLINK_SHARD_OFFSET, of that count; otherwise the task id less
//     SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT, which fits any
//     contiguous array such as --array=1-10.
//   - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX, of count (the --shard-count
//     flag) or else CROSSLINK_SHARD_COUNT (set it to the Job's completions).
//
// count, when positive, overrides the count from the environment.
func AutoShard(getenv func(string) string, count int) (Shard, error) {
	num := func(name string) (int, bool, error) {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, true, fmt.Errorf("sweep: shard auto: %s=%q is not a number", name, v)
		}
		return n, true, nil
	}
	explicit, haveExplicit, err := num(ShardCountEnv)
	if err != nil {
		return Shard{}, err
	}
	if count > 0 {
		explicit, haveExplicit = count, true
	}
	if id, ok, err := num("SLURM_ARRAY_TASK_ID"); err != nil {
		return Shard{}, err
	} else if ok {
		var sh Shard
		if haveExplicit {
			off, _, err := num(ShardOffsetEnv)
			if err != nil {
				return Shard{}, err
			}
			sh = Shard{id + off, explicit}
		} else {
			lo, _, err := num("SLURM_ARRAY_TASK_MIN")
			if err != nil {
				return Shard{}, err
			}
			n, ok, err := num("SLURM_ARRAY_TASK_COUNT")
			if err != nil {
				return Shard{}, err
			}
			if !ok {
				return Shard{}, fmt.Errorf("sweep: shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor %s", ShardCountEnv)
			}
			sh = Shard{id - lo, n}
		}
		if err := sh.check(); err != nil {
			return Shard{}, fmt.Errorf("sweep: shard auto from Slurm: %w", err)
		}
		return sh, nil
	}
	if idx, ok, err := num("JOB_COMPLETION_INDEX"); err != nil {
		return Shard{}, err
	} else if ok {
		if !haveExplicit {
			return Shard{}, fmt.Errorf("sweep: shard auto: JOB_COMPLETION_INDEX is set but the shard count is not: pass --shard-count or set %s to the Job's completions", ShardCountEnv)
		}
		sh := Shard{idx, explicit}
		if err := sh.check(); err != nil {
			return Shard{}, fmt.Errorf("sweep: shard auto from JOB_COMPLETION_INDEX: %w", err)
		}
		return sh, nil
	}
	return Shard{}, fmt.Errorf("sweep: shard auto: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set (not in a Slurm job array or a Kubernetes Indexed Job); pass --shard i/n")
}

// Of returns the scenarios of src that belong to shard s, in src's order.
// Every shard count partitions src: the shards are disjoint and their
// union is src, and the assignment depends only on src, m and s, so
// processes that never talk to each other agree on it.
//
// When m estimates costs (vocab.CostEstimator), scenarios are dealt by
// longest processing time first: sorted by cost, largest first (ties by
// id), each goes to the shard with the least total cost so far (ties to
// the lowest index). That keeps the long runs from piling up in one shard;
// its makespan is within 4/3 of the best (Graham 1969). Otherwise shard i
// takes every n-th scenario from i, which balances counts exactly and
// needs no pass over the plan.
func Of(src plan.Source, m vocab.Model, s Shard) (plan.Source, error) {
	if err := s.Fits(src.Len()); err != nil {
		return nil, err
	}
	if s.N == 1 {
		return src, nil
	}
	est, ok := m.(vocab.CostEstimator)
	if !ok {
		return strided{src, s}, nil
	}
	return subset{src, lpt(src, est, s)}, nil
}

// strided is every N-th scenario of src from I.
type strided struct {
	src plan.Source
	s   Shard
}

func (x strided) Len() int {
	n := x.src.Len()
	if x.s.I >= n {
		return 0
	}
	return (n - x.s.I + x.s.N - 1) / x.s.N
}

func (x strided) At(i int) plan.Scenario { return x.src.At(x.s.I + i*x.s.N) }

// subset is the scenarios of src at the given indices.
type subset struct {
	src plan.Source
	idx []int32
}

func (x subset) Len() int               { return len(x.idx) }
func (x subset) At(i int) plan.Scenario { return x.src.At(int(x.idx[i])) }

// job is one scenario awaiting its shard in lpt.
type job struct {
	cost float64
	id   string
	i    int32
}

// lpt returns the indices of src that shard s gets under longest
// processing time first, in increasing order.
func lpt(src plan.Source, est vocab.CostEstimator, s Shard) []int32 {
	n := src.Len()
	jobs := make([]job, n)
	for i := range n {
		sc := src.At(i)
		jobs[i] = job{costOf(est, sc.Params), sc.ID, int32(i)}
	}
	slices.SortFunc(jobs, func(a, b job) int {
		if c := cmp.Compare(b.cost, a.cost); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	var mine []int32
	deal(n, func(k int) float64 { return jobs[k].cost }, s, func(k int) { mine = append(mine, jobs[k].i) })
	slices.Sort(mine)
	return mine
}

// costOf is est's cost of a scenario, 0 when negative or NaN: such a
// scenario is treated as free, but deterministically.
func costOf(est vocab.CostEstimator, p vocab.Params) float64 {
	c := est.Cost(p)
	if !(c >= 0) {
		return 0
	}
	return c
}

// deal deals n scenarios whose costs, largest first, are cost(0),
// cost(1), ...: each goes to the shard with the least total cost so far
// (see loads). It calls mine(k) for each k that shard s gets. Which shard
// gets the k-th depends on the costs alone, not on which scenario has
// them, so ShardLen can count a shard from the sorted costs.
func deal(n int, cost func(k int) float64, s Shard, mine func(k int)) {
	h := make(loads, s.N)
	for i := range h {
		h[i] = load{shard: i}
	}
	for k := range n {
		if h[0].shard == s.I {
			mine(k)
		}
		h[0].total += cost(k)
		h[0].count++
		heap.Fix(&h, 0)
	}
}

// ShardLen returns Of(src, m, s).Len() without holding the shard: for a
// model with cost estimates it sorts the costs alone (8 bytes a scenario,
// where Of holds each scenario's id), otherwise it is arithmetic.
// run --dry-run --shard counts a shard of a sweep that has no data yet
// with it.
func ShardLen(src plan.Source, m vocab.Model, s Shard) (int, error) {
	if err := s.Fits(src.Len()); err != nil {
		return 0, err
	}
	est, ok := m.(vocab.CostEstimator)
	if !ok || s.N == 1 {
		return strided{src, s}.Len(), nil
	}
	costs := make([]float64, src.Len())
	for i := range costs {
		costs[i] = costOf(est, src.At(i).Params)
	}
	slices.SortFunc(costs, func(a, b float64) int { return cmp.Compare(b, a) })
	n := 0
	deal(len(costs), func(k int) float64 { return costs[k] }, s, func(int) { n++ })
	return n, nil
}

// load is one shard's total so far; loads is a min-heap of them ordered by
// (total, count, shard), so that zero-cost scenarios still spread evenly.
type load struct {
	total float64
	count int
	shard int
}

type loads []load

func (h loads) Len() int { return len(h) }
func (h loads) Less(a, b int) bool {
	if h[a].total != h[b].total {
		return h[a].total < h[b].total
	}
	if h[a].count != h[b].count {
		return h[a].count < h[b].count
	}
	return h[a].shard < h[b].shard
}
func (h loads) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *loads) Push(x any)   { *h = append(*h, x.(load)) }
func (h *loads) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
