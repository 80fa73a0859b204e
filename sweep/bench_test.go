package sweep

import (
	"context"
	"flag"
	"testing"

	"github.com/crosslink-sim/crosslink/engine"
	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/sweep/plan"
)

var benchScenarios = flag.Int("sweep.scenarios", 100_000, "scenarios per sweep in BenchmarkSweepFSOBER (the acceptance figure is for 1000000)")

// grid is a lazily expanded Source: scenario i is computed from i alone
// (mixed-radix digits over the axes, defaults elsewhere), so a
// million-scenario grid never sits in memory.
type grid struct {
	schema *engine.Schema
	axes   []axis
	reps   int
	seed   uint64
	n      int
}

type axis struct {
	param int
	vals  []engine.Value
}

func newGrid(s *engine.Schema, reps int, seed uint64, axes ...axis) *grid {
	n := reps
	for _, a := range axes {
		n *= len(a.vals)
	}
	return &grid{schema: s, axes: axes, reps: reps, seed: seed, n: n}
}

func (g *grid) Len() int { return g.n }

func (g *grid) At(i int) plan.Scenario {
	vals := make([]engine.Value, len(g.schema.Params))
	for j, p := range g.schema.Params {
		vals[j] = p.Default
	}
	rep := i % g.reps
	i /= g.reps
	for _, a := range g.axes {
		vals[a.param] = a.vals[i%len(a.vals)]
		i /= len(a.vals)
	}
	return plan.NewScenario(g.schema, vals, rep, g.seed)
}

// fsoGrid returns an fso-ber grid of about n scenarios: distance (n/8
// values from 1,000 to 80,000 km) by bit rate (1, 2.5, 4, 10 Gbps) by
// detection.
func fsoGrid(m engine.Model, n int) *grid {
	s := m.Schema()
	nd := max(1, n/8)
	dist := make([]engine.Value, nd)
	for i := range dist {
		dist[i] = engine.F(1e6 + 79e6*float64(i)/float64(max(1, nd-1)))
	}
	return newGrid(s, 1, 1,
		axis{s.ParamIndex("distance"), dist},
		axis{s.ParamIndex("bit_rate"), []engine.Value{engine.F(1e9), engine.F(2.5e9), engine.F(4e9), engine.F(10e9)}},
		axis{s.ParamIndex("detection"), []engine.Value{engine.S("direct"), engine.S("coherent")}},
	)
}

// BenchmarkSweepFSOBER runs an fso-ber grid end to end (expand, run, write
// Parquet) with 2 workers. The acceptance figure is for
// -sweep.scenarios=1000000: at least 250,000 scenarios/s, and a peak RSS
// under 300 MB (run the test binary under /usr/bin/time -v).
func BenchmarkSweepFSOBER(b *testing.B) {
	m := models.NewFSOBER()
	src := fsoGrid(m, *benchScenarios)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		dir := b.TempDir()
		sum, err := Run(context.Background(), Config{Model: m, Source: src, Dir: dir, Meta: testMeta(), Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		if sum.OK != src.Len() {
			b.Fatalf("%d ok of %d", sum.OK, src.Len())
		}
	}
	b.ReportMetric(float64(src.Len())*float64(b.N)/b.Elapsed().Seconds(), "scenarios/s")
	b.ReportMetric(float64(src.Len()), "scenarios/op")
}
