package sweep

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"gonum.org/v1/gonum/stat"

	"github.com/crosslink-sim/crosslink/sweep/ci"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// CI95 returns the mean of x and the half-width of its Student-t 95 %
// confidence interval relative to |mean|: t(0.975, n-1) s / sqrt(n) /
// |mean|. The relative width is 0 when the interval has no width (every
// value equal), +Inf with fewer than two values or a zero mean.
func CI95(x []float64) (mean, rel float64) {
	if len(x) == 0 {
		return math.NaN(), math.Inf(1)
	}
	if len(x) < 2 {
		return x[0], math.Inf(1)
	}
	mean, _, half := ci.Student(x, 0.95)
	switch {
	case half == 0:
		return mean, 0
	case mean == 0:
		return mean, math.Inf(1)
	}
	return mean, half / math.Abs(mean)
}

// nextCount is the replicate count a point that has not met the rule runs
// to next, from n run: the count that would meet the target if the
// standard deviation held (Stein's two-stage estimate, (t s / (rel
// |mean|))^2), at least n+1 and at most 2n (so that one noisy estimate
// cannot jump to the maximum) and the maximum. It depends only on the
// values, so the replicates that exist at the end depend only on the data.
func nextCount(x []float64, n int, a *spec.Adaptive) int {
	hi := min(a.Max, 2*n)
	if len(x) < 2 {
		return hi
	}
	mean, sd := stat.MeanStdDev(x, nil)
	if mean == 0 || math.IsNaN(sd) {
		return hi
	}
	t := ci.T(0.95, len(x))
	est := math.Pow(t*sd/(a.CI95Rel*math.Abs(mean)), 2)
	want := n + 1
	if est > float64(want) {
		want = int(min(math.Ceil(est), float64(hi)))
	}
	return min(max(want, n+1), hi)
}

// Adaptive runs the scenarios of job j under its adaptive replicate rule
// (j.Spec.Adaptive), in rounds: replicates 0..min-1 of every point, then,
// for each point whose metric's interval is still too wide, more
// replicates (see nextCount), until every point meets the target or has
// run the maximum. Each round is a Resume of cfg with the round's
// scenarios as its source, so rows already in the dataset are skipped and
// an interrupted run continues where it stopped: the decisions are taken
// again from the rows of replicates 0..n-1 of each point, which are the
// same rows whatever the order they were written in.
//
// With shard s, this process owns the points s deals it (by the cost of
// their first replicate when the model estimates costs, else every N-th)
// and runs every round of those points; no shard waits for another. At
// the end it writes its part of the points table (dataset.WritePoints):
// each point's parameters, replicates run and the interval reached.
func Adaptive(ctx context.Context, j *Job, cfg Config, s Shard, warn io.Writer) (Summary, error) {
	a := j.Spec.Adaptive
	if a == nil {
		return Summary{}, fmt.Errorf("sweep: bug: spec %s has no adaptive replicates", j.Spec.Name)
	}
	p := j.Plan
	start := time.Now()
	sum := Summary{Name: j.Spec.Name, Dir: cfg.Dir}
	pts, err := pointsOf(p, j.Model, s)
	if err != nil {
		return sum, err
	}
	count := make([]int, len(pts)) // replicates to run, per point of pts
	ran := make([]int, len(pts))   // replicates the rounds so far asked for
	for k := range count {
		count[k] = min(a.Min, p.Replicates())
	}
	active := make([]int, len(pts)) // positions in pts still adding replicates
	for k := range active {
		active[k] = k
	}
	results := make([]dataset.Point, len(pts))
	for round := 1; len(active) > 0; round++ {
		var idx []int32
		for _, k := range active {
			for r := ran[k]; r < count[k]; r++ {
				idx = append(idx, int32(p.Index(pts[k], r)))
			}
			ran[k] = count[k]
		}
		slices.Sort(idx)
		if cfg.Progress != nil && round > 1 {
			fmt.Fprintf(cfg.Progress, "%s: adaptive round %d: %d points need more replicates, %d scenarios\n", j.Spec.Name, round, len(active), len(idx))
		}
		rc := cfg
		rc.Source = subset{p, idx}
		rs, err := Resume(ctx, rc, warn)
		sum.Total += rs.Total
		sum.OK += rs.OK
		for st, n := range rs.FailedBy {
			sum.addFailed(st, n)
		}
		sum.Skipped += rs.Skipped
		sum.SkippedFailed += rs.SkippedFailed
		if err != nil {
			sum.Wall = time.Since(start)
			return sum, err
		}
		vals, err := metricValues(cfg.Dir, a.Metric)
		if err != nil {
			return sum, err
		}
		next := active[:0]
		for _, k := range active {
			var x []float64
			for r := range count[k] {
				if v, ok := vals[p.At(p.Index(pts[k], r)).ID]; ok {
					x = append(x, v)
				}
			}
			mean, rel := CI95(x)
			met := rel <= a.CI95Rel
			if met || count[k] >= a.Max {
				results[k] = dataset.Point{Metric: a.Metric, Needed: count[k], OK: len(x), Mean: mean, CI95Rel: rel, Met: met}
				continue
			}
			count[k] = nextCount(x, count[k], a)
			next = append(next, k)
		}
		active = next
	}
	for k, pt := range pts {
		results[k].Params = p.At(p.Index(pt, 0)).Params.Values()
		results[k].ID = plan.PointID(j.Model.Schema(), results[k].Params)
	}
	s0 := j.Model.Schema()
	meta := cfg.Meta
	meta.Version, meta.Model, meta.ModelVersion = Version, s0.Name, s0.Version
	meta.Started = start
	opts := dataset.Options{Shard: cfg.Shard, Meta: meta, Mem: cfg.Mem}
	// Under the dataset's lock, as the rounds wrote: a whole run or a
	// merge that locked it meanwhile would remove the part being written
	// as a killed run's leftover. One holding it now is waited for: the
	// rounds are done, and failing here would leave the part to a rerun.
	lock, err := lockWaiting(ctx, cfg.Dir, cfg.Shard)
	if err != nil {
		return sum, err
	}
	defer lock.Unlock()
	if err := dataset.WritePoints(cfg.Dir, s0, results, opts); err != nil {
		return sum, fmt.Errorf("sweep: %w", err)
	}
	sum.Wall = time.Since(start)
	return sum, nil
}

// pointsOf returns the points (indices < p.Points()) that shard s owns.
// Replicate 0 of point k is scenario k of the plan, so the points are
// dealt as Of deals those scenarios.
func pointsOf(p *plan.Plan, m vocab.Model, s Shard) ([]int, error) {
	if err := s.fits(p.Points(), "points"); err != nil {
		return nil, err
	}
	first := subset{p, nil}
	for k := range p.Points() {
		first.idx = append(first.idx, int32(k))
	}
	var out []int
	if est, ok := m.(vocab.CostEstimator); ok && s.N > 1 {
		for _, k := range lpt(first, est, s) {
			out = append(out, int(k))
		}
		return out, nil
	}
	for k := s.I; k < p.Points(); k += s.N {
		out = append(out, k)
	}
	return out, nil
}

// metricValues returns the metric column of the ok rows of the dataset in
// dir, by scenario id.
func metricValues(dir, column string) (map[string]float64, error) {
	tbl, err := dataset.ReadTable(dir, nil)
	if err != nil {
		return nil, fmt.Errorf("sweep: adaptive replicates: %w", err)
	}
	defer tbl.Release()
	sc := tbl.Schema()
	find := func(name string) (int, error) {
		idx := sc.FieldIndices(name)
		if len(idx) != 1 {
			return 0, fmt.Errorf("sweep: adaptive replicates: %s has no column %s", dir, name)
		}
		return idx[0], nil
	}
	ci, err := find(dataset.ColID)
	if err != nil {
		return nil, err
	}
	si, err := find(dataset.ColStatus)
	if err != nil {
		return nil, err
	}
	mi, err := find(column)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	ids, sts, ms := tbl.Column(ci).Data().Chunks(), tbl.Column(si).Data().Chunks(), tbl.Column(mi).Data().Chunks()
	for c := range ids {
		id, ok1 := ids[c].(*array.String)
		st, ok2 := sts[c].(*array.String)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("sweep: adaptive replicates: %s: unexpected column types", dir)
		}
		for i := 0; i < id.Len(); i++ {
			if dataset.Status(st.Value(i)) != dataset.OK || ms[c].IsNull(i) {
				continue
			}
			var v float64
			switch m := ms[c].(type) {
			case *array.Float64:
				v = m.Value(i)
			case *array.Int64:
				v = float64(m.Value(i))
			default:
				return nil, fmt.Errorf("sweep: adaptive replicates: metric %s is a %s column, want a number", column, ms[c].DataType())
			}
			if !math.IsNaN(v) {
				out[id.Value(i)] = v
			}
		}
	}
	return out, nil
}

// AdaptiveScenarios returns the scenarios an adaptive job asks for given
// the rows its dataset holds now: replicates 0..n-1 of each point, where n
// is where the rule stopped, or, for a point still running, the count of
// its current round. It runs nothing; status and --dry-run compare the
// dataset with it.
func AdaptiveScenarios(j *Job) (plan.Source, error) {
	a, p := j.Spec.Adaptive, j.Plan
	done, err := dataset.ReadIDs(j.Dir)
	if err != nil {
		return nil, err
	}
	var vals map[string]float64
	if done.Len() > 0 {
		if vals, err = metricValues(j.Dir, a.Metric); err != nil {
			return nil, err
		}
	}
	var idx []int32
	for pt := range p.Points() {
		n := min(a.Min, p.Replicates())
		for {
			var x []float64
			complete := true
			for r := range n {
				id := p.At(p.Index(pt, r)).ID
				if _, ok := done.Status(id); !ok {
					complete = false
				}
				if v, ok := vals[id]; ok {
					x = append(x, v)
				}
			}
			if !complete || n >= a.Max {
				break
			}
			if _, rel := CI95(x); rel <= a.CI95Rel {
				break
			}
			n = nextCount(x, n, a)
		}
		for r := range n {
			idx = append(idx, int32(p.Index(pt, r)))
		}
	}
	slices.Sort(idx)
	return subset{p, idx}, nil
}
