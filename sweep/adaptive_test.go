package sweep

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// noisy is the adaptive-replicates test model: y = 10 + sigma * N(0, 1),
// one normal draw from the scenario's seed, so the spread of y over the
// replicates of a point is known in advance. After cancelAt runs (when
// set) it cancels the sweep, as an interrupt would.
type noisy struct {
	schema   *vocab.Schema
	runs     atomic.Int64
	cancelAt int64
	cancel   context.CancelFunc
}

func newNoisy() *noisy {
	return &noisy{schema: &vocab.Schema{
		Name:    "noisy",
		Version: 1,
		Params: []vocab.Param{
			{Name: "sigma", Kind: vocab.Float, Default: vocab.F(1), Min: 0, Max: 1000, Doc: "standard deviation of y"},
			{Name: "group", Kind: vocab.String, Default: vocab.S("a"), Choices: []string{"a", "b"}, Doc: "a label that changes nothing"},
		},
		Metrics: []vocab.Metric{
			{Name: "y", Kind: vocab.Float, Doc: "10 plus normal noise"},
			{Name: "label", Kind: vocab.String, Doc: "the group again"},
		},
	}}
}

func (m *noisy) Schema() *vocab.Schema { return m.schema }

func (m *noisy) Run(_ context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	if n := m.runs.Add(1); m.cancel != nil && n == m.cancelAt {
		m.cancel()
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	y := 10 + p.Float("sigma")*rng.NormFloat64()
	return vocab.Result{Metrics: []vocab.Value{vocab.F(y), vocab.S(p.Str("group"))}}, nil
}

const noisySpec = `name: noisy
model: noisy
seed: 7
replicates: {min: 3, max: 12, until: {metric: y, ci95_rel: 0.05}}
grid:
  sigma: [0, 0.01, 0.3, 50]
  group: [a, b]
`

// noisyJob parses text for m and expands it into a job writing to dir.
func noisyJob(t *testing.T, m vocab.Model, text, dir string) *Job {
	t.Helper()
	reg, err := vocab.NewRegistry(m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse("noisy.yaml", []byte(text), reg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.New(s, m)
	if err != nil {
		t.Fatal(err)
	}
	return &Job{Spec: s, Model: m, Plan: p, Dir: dir}
}

func runAdaptive(t *testing.T, ctx context.Context, m vocab.Model, dir string, workers int, s Shard) (Summary, error) {
	t.Helper()
	j := noisyJob(t, m, noisySpec, dir)
	cfg := j.Config()
	cfg.Workers = workers
	if s != Whole {
		cfg.Shard = s.Infix()
	}
	return Adaptive(ctx, j, cfg, s, nil)
}

// TestCI95 checks the interval against Student's t quantiles printed in
// statistics tables (t(0.975, 2) = 4.303, t(0.975, 4) = 2.776); tolerance
// 1e-3 relative, the tables' precision.
func TestCI95(t *testing.T) {
	tests := []struct {
		x        []float64
		mean     float64
		rel      float64
		infinite bool
	}{
		{x: []float64{1, 2, 3}, mean: 2, rel: 4.303 * 1 / math.Sqrt(3) / 2},
		{x: []float64{8, 9, 10, 11, 12}, mean: 10, rel: 2.776 * math.Sqrt(2.5) / math.Sqrt(5) / 10},
		{x: []float64{5, 5, 5}, mean: 5, rel: 0},
		{x: []float64{5}, mean: 5, infinite: true},
		{x: []float64{-1, 1}, mean: 0, infinite: true},
	}
	for _, tt := range tests {
		mean, rel := CI95(tt.x)
		if mean != tt.mean {
			t.Errorf("CI95(%v) mean = %g, want %g", tt.x, mean, tt.mean)
		}
		switch {
		case tt.infinite && !math.IsInf(rel, 1):
			t.Errorf("CI95(%v) rel = %g, want +Inf", tt.x, rel)
		case !tt.infinite && math.Abs(rel-tt.rel) > 1e-3*tt.rel:
			t.Errorf("CI95(%v) rel = %g, want %g", tt.x, rel, tt.rel)
		}
	}
}

// pointCounts returns, per sigma and group, the replicate numbers in the
// main table of dir, and each one's y.
func pointCounts(t *testing.T, dir string) map[[2]string][]float64 {
	t.Helper()
	out := map[[2]string][]float64{}
	type rep struct {
		key [2]string
		r   int64
		y   float64
	}
	var reps []rep
	for _, row := range rows(t, dir, true) {
		// scenario_id, point_id, replicate, seed, sigma, group, y, label, status, error
		reps = append(reps, rep{[2]string{ftoa(row[4].(float64)), row[5].(string)}, row[2].(int64), row[6].(float64)})
	}
	sort.Slice(reps, func(i, j int) bool { return reps[i].r < reps[j].r })
	for _, r := range reps {
		if int64(len(out[r.key])) != r.r {
			t.Errorf("point %v: replicate %d present without all before it", r.key, r.r)
		}
		out[r.key] = append(out[r.key], r.y)
	}
	return out
}

func ftoa(x float64) string { return vocab.F(x).Canonical() }

func TestAdaptiveStopsWhereTheIntervalIsNarrow(t *testing.T) {
	dir := t.TempDir()
	j := noisyJob(t, newNoisy(), noisySpec, dir)
	if src, err := AdaptiveScenarios(j); err != nil || src.Len() != 3*8 {
		t.Errorf("AdaptiveScenarios before the run: %v scenarios, %v; want the minimum 3 x 8 points", src, err)
	}
	if _, err := runAdaptive(t, context.Background(), newNoisy(), dir, 4, Whole); err != nil {
		t.Fatal(err)
	}
	if n, err := j.Missing(); n != 0 || err != nil {
		t.Errorf("Missing() after the run = %d, %v; want 0", n, err)
	}
	got := pointCounts(t, dir)
	if len(got) != 8 {
		t.Fatalf("%d points in the dataset, want 8", len(got))
	}
	if src, err := AdaptiveScenarios(j); err != nil || src.Len() != len(rows(t, dir, true)) {
		t.Errorf("AdaptiveScenarios after the run: %v, %v; want the %d rows", src, err, len(rows(t, dir, true)))
	}
	for key, ys := range got {
		n := len(ys)
		_, rel := CI95(ys)
		switch key[0] {
		case ftoa(0), ftoa(0.01):
			// sigma 0 gives an interval of no width; sigma 0.01 one of
			// about t(0.975,2) 0.01/sqrt(3)/10 = 0.0025 relative.
			if n != 3 {
				t.Errorf("sigma %s group %s ran %d replicates, want the minimum 3", key[0], key[1], n)
			}
		case ftoa(50):
			// Needs about (1.96 50 / 0.5)^2 = 38000 replicates: capped.
			if n != 12 {
				t.Errorf("sigma 50 group %s ran %d replicates, want the maximum 12", key[1], n)
			}
		case ftoa(0.3):
			// t(0.975,2) 0.3/sqrt(3)/10 = 0.075 > 0.05 at 3; more needed.
			if n <= 3 || n > 12 {
				t.Errorf("sigma 0.3 group %s ran %d replicates, want 4..12", key[1], n)
			}
		}
		if n < 12 && rel > 0.05 {
			t.Errorf("point %v stopped at %d replicates with ci95_rel %g > 0.05", key, n, rel)
		}
		if n > 3 {
			if _, rel3 := CI95(ys[:3]); rel3 <= 0.05 {
				t.Errorf("point %v went past the minimum although ci95_rel was %g at 3", key, rel3)
			}
		}
	}

	// The points table says the same.
	tbl, err := dataset.ReadPoints(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	idx := func(name string) int { return tbl.Schema().FieldIndices(name)[0] }
	if tbl.NumRows() != 8 {
		t.Fatalf("points table has %d rows, want 8", tbl.NumRows())
	}
	sig := tbl.Column(idx("sigma")).Data().Chunk(0).(*array.Float64)
	grp := tbl.Column(idx("group")).Data().Chunk(0).(*array.String)
	need := tbl.Column(idx(dataset.ColReplicatesNeeded)).Data().Chunk(0).(*array.Int64)
	met := tbl.Column(idx(dataset.ColTargetMet)).Data().Chunk(0).(*array.Boolean)
	for i := 0; i < int(tbl.NumRows()); i++ {
		key := [2]string{ftoa(sig.Value(i)), grp.Value(i)}
		if int(need.Value(i)) != len(got[key]) {
			t.Errorf("points table: %v needed %d, the main table has %d", key, need.Value(i), len(got[key]))
		}
		if wantMet := key[0] != ftoa(50); met.Value(i) != wantMet {
			t.Errorf("points table: %v target_met = %v, want %v", key, met.Value(i), wantMet)
		}
	}
}

// TestAdaptiveIsDeterministic: worker count, sharding and interrupts do
// not change which replicates exist or their rows.
func TestAdaptiveIsDeterministic(t *testing.T) {
	ref := t.TempDir()
	if _, err := runAdaptive(t, context.Background(), newNoisy(), ref, 1, Whole); err != nil {
		t.Fatal(err)
	}
	want := rows(t, ref, true)

	t.Run("workers", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := runAdaptive(t, context.Background(), newNoisy(), dir, 4, Whole); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, rows(t, dir, true)); diff != "" {
			t.Errorf("4 workers vs 1 (-1 +4):\n%s", diff)
		}
	})
	t.Run("shards", func(t *testing.T) {
		dir := t.TempDir()
		for i := range 3 {
			if _, err := runAdaptive(t, context.Background(), newNoisy(), dir, 2, Shard{i, 3}); err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff(want, rows(t, dir, true)); diff != "" {
			t.Errorf("3 shards vs whole (-whole +shards):\n%s", diff)
		}
		if diff := cmp.Diff(rows(t, dataset.PointsDir(ref), false), rows(t, dataset.PointsDir(dir), false)); diff != "" {
			t.Errorf("points tables (-whole +shards):\n%s", diff)
		}
	})
	// A dataset run one way and then another (whole, then in shards, or
	// the reverse) lists each point once: the points parts of the earlier
	// split go.
	for _, order := range [][]Shard{{Whole, {0, 3}, {1, 3}, {2, 3}}, {{0, 2}, {1, 2}, Whole}, {{0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}}} {
		t.Run(fmt.Sprint("split ", order), func(t *testing.T) {
			dir := t.TempDir()
			for _, s := range order {
				if _, err := runAdaptive(t, context.Background(), newNoisy(), dir, 2, s); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(rows(t, dataset.PointsDir(ref), false), rows(t, dataset.PointsDir(dir), false)); diff != "" {
				t.Errorf("points tables (-whole +%v):\n%s", order, diff)
			}
			if diff := cmp.Diff(want, rows(t, dir, true)); diff != "" {
				t.Errorf("scenarios (-whole +%v):\n%s", order, diff)
			}
		})
	}
	// Status counts the points table: a split whose shards have not all
	// written their part leaves the dataset incomplete, though every
	// scenario is there.
	t.Run("status", func(t *testing.T) {
		dir := t.TempDir()
		check := func(wantComplete bool, want dataset.PointsSplit) {
			t.Helper()
			r, err := Check(noisyJob(t, newNoisy(), noisySpec, dir), 0, false)
			if err != nil {
				t.Fatal(err)
			}
			if r.Complete() != wantComplete || r.Points == nil || !cmp.Equal(*r.Points, want, cmpopts.EquateEmpty()) {
				t.Errorf("status: complete %t, points %+v; want %t, %+v", r.Complete(), r.Points, wantComplete, want)
			}
		}
		if _, err := runAdaptive(t, context.Background(), newNoisy(), dir, 2, Whole); err != nil {
			t.Fatal(err)
		}
		check(true, dataset.PointsSplit{N: 1})
		for i := range 2 {
			if _, err := runAdaptive(t, context.Background(), newNoisy(), dir, 2, Shard{i, 3}); err != nil {
				t.Fatal(err)
			}
		}
		check(false, dataset.PointsSplit{N: 3, Missing: []int{2}, Others: 1})
		if _, err := runAdaptive(t, context.Background(), newNoisy(), dir, 2, Shard{2, 3}); err != nil {
			t.Fatal(err)
		}
		check(true, dataset.PointsSplit{N: 3})
	})
	// Round 1 runs 24 scenarios: an interrupt at run 10 is in round 1, at
	// run 30 in a later round.
	for _, cut := range []int64{10, 30} {
		t.Run("interrupt", func(t *testing.T) {
			dir := t.TempDir()
			m := newNoisy()
			ctx, cancel := context.WithCancel(context.Background())
			m.cancelAt, m.cancel = cut, cancel
			if _, err := runAdaptive(t, ctx, m, dir, 2, Whole); err == nil {
				t.Fatalf("interrupted at run %d: no error", cut)
			}
			if _, err := os.Stat(filepath.Join(dataset.PointsDir(dir))); err == nil {
				t.Errorf("interrupted run wrote the points table")
			}
			if _, err := runAdaptive(t, context.Background(), newNoisy(), dir, 2, Whole); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, rows(t, dir, true)); diff != "" {
				t.Errorf("interrupted at run %d and resumed (-uninterrupted +resumed):\n%s", cut, diff)
			}
			// A third run finds nothing to do.
			sum, err := runAdaptive(t, context.Background(), newNoisy(), dir, 2, Whole)
			if err != nil {
				t.Fatal(err)
			}
			if sum.OK+sum.Failed != 0 {
				t.Errorf("complete dataset: rerun ran %d scenarios, want 0", sum.OK+sum.Failed)
			}
		})
	}
}
