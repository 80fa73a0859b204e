package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/vocab"
)

// inverseSquare is the test model: the power received at distance d from a
// 1 W isotropic source, P = 1/(4 pi d^2), times a seeded fading factor, so
// that rows depend on both the parameters and the seed. mode "panic" panics
// and mode "error" fails; delay makes each scenario take that long.
type inverseSquare struct {
	schema *vocab.Schema
	delay  time.Duration
}

func newInverseSquare(delay time.Duration) *inverseSquare {
	return &inverseSquare{delay: delay, schema: &vocab.Schema{
		Name:    "inverse-square",
		Version: 1,
		Params: []vocab.Param{
			{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(1), Min: 1e-3, Max: 1e12, Doc: "distance to the source"},
			{Name: "mode", Kind: vocab.String, Default: vocab.S("normal"), Choices: []string{"normal", "panic", "error"}},
		},
		Metrics: []vocab.Metric{
			{Name: "power", Kind: vocab.Float, Unit: vocab.Watt, Doc: "received power"},
			{Name: "fades", Kind: vocab.Int, Doc: "draws below 0.1"},
		},
		Tables: []vocab.Table{{Name: "samples", Columns: []vocab.Metric{
			{Name: "k", Kind: vocab.Int},
			{Name: "gain", Kind: vocab.Float},
		}}},
	}}
}

func (m *inverseSquare) Schema() *vocab.Schema { return m.schema }

func (m *inverseSquare) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	switch p.Str("mode") {
	case "panic":
		var table []int
		_ = table[len(p.Str("mode"))] // index out of range
	case "error":
		return vocab.Result{}, errors.New("inverse-square: the source is switched off")
	}
	if m.delay > 0 {
		select {
		case <-time.After(m.delay):
		case <-ctx.Done():
			return vocab.Result{}, ctx.Err()
		}
	}
	d := p.Float("distance")
	rng := rand.New(rand.NewPCG(seed, 1))
	var samples [][]vocab.Value
	fades := 0
	gain := 1.0
	for k := range 3 {
		g := rng.Float64()
		if g < 0.1 {
			fades++
		}
		gain *= 0.5 + g
		samples = append(samples, []vocab.Value{vocab.I(int64(k)), vocab.F(g)})
	}
	return vocab.Result{
		Metrics: []vocab.Value{vocab.F(gain / (4 * math.Pi * d * d)), vocab.I(int64(fades))},
		Tables:  [][][]vocab.Value{samples},
	}, nil
}

// scenarios returns n scenarios of m with distances 1..n m; the modes map
// gives some of them another mode.
func scenarios(m vocab.Model, n int, modes map[int]string) plan.List {
	s := m.Schema()
	l := make(plan.List, n)
	for i := range l {
		mode := "normal"
		if md, ok := modes[i]; ok {
			mode = md
		}
		l[i] = plan.NewScenario(s, []vocab.Value{vocab.F(float64(i + 1)), vocab.S(mode)}, i%2, 42)
	}
	return l
}

// rows reads the dataset table in dir as rows of cells (nil for null),
// without wall_s, sorted by scenario id then content, and fails the test
// if a main-table id appears twice.
func rows(t *testing.T, dir string, main bool) [][]any {
	t.Helper()
	var tbl arrow.Table
	var err error
	switch parent, base := filepath.Split(filepath.Clean(dir)); {
	case main:
		tbl, err = dataset.ReadTable(dir, nil)
	case base == dataset.PointsTable:
		tbl, err = dataset.ReadPoints(parent, nil)
	default:
		tbl, err = dataset.ReadSecond(parent, base, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	out := cells(t, tbl)
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
	if main {
		for i := 1; i < len(out); i++ {
			if out[i][0] == out[i-1][0] {
				t.Errorf("scenario %s appears twice in %s", out[i][0], dir)
			}
		}
	}
	return out
}

func cells(t *testing.T, tbl arrow.Table) [][]any {
	t.Helper()
	out := make([][]any, tbl.NumRows())
	for i := range out {
		out[i] = []any{}
	}
	for c := 0; c < int(tbl.NumCols()); c++ {
		if tbl.Schema().Field(c).Name == dataset.ColWall {
			continue
		}
		r := 0
		for _, ch := range tbl.Column(c).Data().Chunks() {
			for i := 0; i < ch.Len(); i, r = i+1, r+1 {
				var v any
				if !ch.IsNull(i) {
					switch a := ch.(type) {
					case *array.String:
						v = a.Value(i)
					case *array.Int64:
						v = a.Value(i)
					case *array.Uint64:
						v = a.Value(i)
					case *array.Float64:
						v = a.Value(i)
					case *array.Boolean:
						v = a.Value(i)
					default:
						t.Fatalf("column %d has type %s", c, ch.DataType())
					}
				}
				out[r] = append(out[r], v)
			}
		}
	}
	return out
}

// wholeFiles fails the test if dir (or a table under it) holds a
// temporary file or a part that does not read.
func wholeFiles(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".tmp") {
			t.Errorf("temporary file %s left behind", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.ReadIDs(dir); err != nil {
		t.Errorf("reading %s: %v", dir, err)
	}
}
