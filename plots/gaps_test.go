package plots

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/plot/plotter"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

// gapSchema has one float and one integer metric against a float x, the
// shapes of a NaN and of a null in a dataset table (plots reads a null
// float as NaN and keeps a null integer in Column.Null).
func gapSchema() *vocab.Schema {
	return &vocab.Schema{Name: "gaps", Version: 1,
		Params: []vocab.Param{{Name: "x", Kind: vocab.Float, Unit: vocab.Second}},
		Metrics: []vocab.Metric{
			{Name: "f", Kind: vocab.Float},
			{Name: "n", Kind: vocab.Int},
		}}
}

// gapFrame is x = 1..5 with f and n missing at x = 3; at x = 4 one of two
// replicates is missing, which leaves the other to draw.
func gapFrame(t *testing.T) *Frame {
	t.Helper()
	nan := math.NaN()
	x := &Column{Name: "x_s", Kind: vocab.Float, Float: []float64{1, 2, 3, 4, 4, 5}}
	f := &Column{Name: "f", Kind: vocab.Float, Float: []float64{1, 2, nan, 4, nan, 5}}
	n := &Column{Name: "n", Kind: vocab.Int, Int: []int64{1, 2, 0, 4, 0, 5},
		Null: []bool{false, false, true, false, true, false}}
	st := &Column{Name: "status", Kind: vocab.String, Str: []string{"ok", "ok", "ok", "ok", "ok", "ok"}}
	fr, err := NewFrame(x, f, n, st)
	if err != nil {
		t.Fatal(err)
	}
	return fr
}

// TestLineBreaksAtMissing: a curve whose value is missing (NaN, or null)
// at an x is drawn as two lines, one each side, never as one line joining
// its neighbours as though the value were between them; an x where only
// some replicates are missing is drawn from the others; and the data keep
// the x with its note.
func TestLineBreaksAtMissing(t *testing.T) {
	for _, y := range []string{"f", "n"} {
		t.Run(y, func(t *testing.T) {
			def := Def{ID: "gaps", X: "x", Y: []string{y}}
			ld, err := buildCurves(def, gapSchema(), gapFrame(t), units.Scale)
			if err != nil {
				t.Fatal(err)
			}
			if len(ld.Curves) != 1 {
				t.Fatalf("buildCurves: %d curves, want 1", len(ld.Curves))
			}
			cx := drawnXYs(def, ld.Curves[0], 1)
			want := []plotter.XYs{{{X: 1, Y: 1}, {X: 2, Y: 2}}, {{X: 4, Y: 4}, {X: 5, Y: 5}}}
			if diff := cmp.Diff(want, cx.segs); diff != "" {
				t.Errorf("line segments (-want +got):\n%s", diff)
			}
			out, err := Line(Input{Def: def, Schema: gapSchema(), Theme: DefaultTheme(), Scale: units.Scale}, gapFrame(t))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := out.Data.WriteCSV(&b); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), ",3,NaN,NaN,NaN,0,none,"+missingNote) {
				t.Errorf("data: no row of x = 3 with the missing note:\n%s", b.String())
			}
		})
	}
}

// TestNullReadAsMissing writes a dataset whose float and integer metrics
// are null at x = 3 (a value that does not apply) with sweep/dataset and
// reads it back: both are missing, not 0, and their line breaks there.
func TestNullReadAsMissing(t *testing.T) {
	s := gapSchema()
	dir := filepath.Join(t.TempDir(), "gaps")
	w, err := dataset.NewWriter(dir, s, dataset.Options{Meta: dataset.Meta{SpecName: "gaps"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []float64{1, 2, 3, 4} {
		vals := []vocab.Value{vocab.F(x)}
		sc := plan.NewScenario(s, vals, 0, 1)
		m := []vocab.Value{vocab.F(x), vocab.I(int64(x))}
		if x == 3 {
			m = []vocab.Value{{}, {}}
		}
		if err := w.Append(&dataset.Row{ID: sc.ID, Seed: sc.Seed, Params: vals, Status: dataset.OK, Metrics: m}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fr, err := ReadFrame(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, y := range []string{"f", "n"} {
		def := Def{ID: "gaps", X: "x", Y: []string{y}}
		ld, err := buildCurves(def, s, fr, units.Scale)
		if err != nil {
			t.Fatal(err)
		}
		want := []plotter.XYs{{{X: 1, Y: 1}, {X: 2, Y: 2}}, {{X: 4, Y: 4}}}
		if diff := cmp.Diff(want, drawnXYs(def, ld.Curves[0], 1).segs); diff != "" {
			t.Errorf("%s: line segments of a null read back (-want +got):\n%s", y, diff)
		}
	}
}

// TestSplitAt: a line is split between two points exactly when a missing
// x lies strictly between them; a missing x at a point's own x (other
// replicates there have values) does not split it.
func TestSplitAt(t *testing.T) {
	xys := plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 2}, {X: 4, Y: 4}, {X: 5, Y: 5}}
	for _, tc := range []struct {
		name    string
		missing []float64
		want    []plotter.XYs
	}{
		{"none", nil, []plotter.XYs{xys}},
		{"between", []float64{3}, []plotter.XYs{xys[:2], xys[2:]}},
		{"at a point", []float64{2}, []plotter.XYs{xys}},
		{"outside", []float64{0, 6}, []plotter.XYs{xys}},
		{"two gaps", []float64{1.5, 4.5}, []plotter.XYs{xys[:1], xys[1:3], xys[3:]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, splitAt(xys, tc.missing)); diff != "" {
				t.Errorf("splitAt(%v) (-want +got):\n%s", tc.missing, diff)
			}
		})
	}
	if got := splitAt(nil, []float64{1}); got != nil {
		t.Errorf("splitAt(nil) = %v, want nil", got)
	}
}
