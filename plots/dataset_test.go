package plots

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/vocab"
	"github.com/google/go-cmp/cmp"
)

// TestDatasetSource writes a dataset with sweep/dataset, holding the rows
// of two profiles of a spec, and draws it for one profile's plan: only
// that plan's scenarios may reach the figure.
func TestDatasetSource(t *testing.T) {
	s := testSchema()
	dir := filepath.Join(t.TempDir(), "rc13-tab2")
	w, err := dataset.NewWriter(dir, s, dataset.Options{Meta: dataset.Meta{SpecName: "rc13-tab2"}})
	if err != nil {
		t.Fatal(err)
	}
	var quick plan.List
	for _, km := range []float64{16000, 25000, 50000, 80000, 100000} {
		vals := []vocab.Value{vocab.F(km * 1000), vocab.F(1e9), vocab.S("direct"), vocab.I(1500)}
		sc := plan.NewScenario(s, vals, 0, 1)
		if km != 100000 { // 100000 km is in the "full" profile only
			quick = append(quick, sc)
		}
		r := &dataset.Row{
			ID: sc.ID, Seed: sc.Seed, Params: vals, Status: dataset.OK,
			Metrics: []vocab.Value{vocab.F(1e-9), vocab.F(km * 1000 / 299792458), vocab.F(1e-6)},
		}
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src := DatasetSource("rc13-tab2", dir, s, []Def{{ID: "rc13-tab2", Kind: KindTable}}, quick)
	out := t.TempDir()
	if err := Draw(context.Background(), NewRegistry(), out, nil, []*Source{src}); err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(filepath.Join(out, "rc13-tab2.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if len(lines) != 5 || strings.Contains(string(csv), "100000") {
		t.Errorf("rc13-tab2.csv = \n%s\nwant a header and the 4 distances of the plan, not 100000 km", csv)
	}
}

// TestDrawGoesOnPastAMissingDataset draws two specs, one of which has no
// dataset yet: the other's figure must still be drawn, and the error must
// name the figure that was not.
func TestDrawGoesOnPastAMissingDataset(t *testing.T) {
	s := testSchema()
	root := t.TempDir()
	dir := filepath.Join(root, "rc13-tab2")
	w, err := dataset.NewWriter(dir, s, dataset.Options{Meta: dataset.Meta{SpecName: "rc13-tab2"}})
	if err != nil {
		t.Fatal(err)
	}
	vals := []vocab.Value{vocab.F(16e6), vocab.F(1e9), vocab.S("direct"), vocab.I(1500)}
	sc := plan.NewScenario(s, vals, 0, 1)
	r := &dataset.Row{ID: sc.ID, Seed: sc.Seed, Params: vals, Status: dataset.OK,
		Metrics: []vocab.Value{vocab.F(1e-9), vocab.F(16e6 / 299792458), vocab.F(1e-6)}}
	if err := w.Append(r); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	present := DatasetSource("rc13-tab2", dir, s, []Def{{ID: "rc13-tab2", Kind: KindTable}}, plan.List{sc})
	absent := DatasetSource("aaa-absent", filepath.Join(root, "aaa-absent"), s, []Def{{ID: "aaa-absent", Kind: KindTable}}, plan.List{sc})
	out := t.TempDir()
	errDraw := Draw(context.Background(), NewRegistry(), out, nil, []*Source{absent, present})
	if errDraw == nil || !strings.Contains(errDraw.Error(), "figure aaa-absent") {
		t.Errorf("Draw error = %v, want one naming figure aaa-absent", errDraw)
	}
	if _, err := os.Stat(filepath.Join(out, "rc13-tab2.csv")); err != nil {
		t.Errorf("rc13-tab2 was not drawn after aaa-absent failed (%v): %v", errDraw, err)
	}
}

// TestByScenario checks that a frame's rows come in scenario_id order
// whatever order the workers wrote them in, a scenario's own rows (a
// second table's samples) keeping theirs, and that a frame without
// scenario ids is left as read.
func TestByScenario(t *testing.T) {
	cols := func(ids ...string) []*Column {
		c := []*Column{
			{Name: "x", Kind: vocab.Float, Float: []float64{1, 2, 3, 4}},
			{Name: "n", Kind: vocab.Int, Int: []int64{1, 2, 3, 4}},
			{Name: "ok", Kind: vocab.Bool, Bool: []bool{true, false, true, false}},
		}
		if ids != nil {
			c = append(c, &Column{Name: "scenario_id", Kind: vocab.String, Str: ids})
		}
		return c
	}
	got := cols("b", "a", "b", "a")
	byScenario(got)
	want := []*Column{
		{Name: "x", Kind: vocab.Float, Float: []float64{2, 4, 1, 3}},
		{Name: "n", Kind: vocab.Int, Int: []int64{2, 4, 1, 3}},
		{Name: "ok", Kind: vocab.Bool, Bool: []bool{false, false, true, true}},
		{Name: "scenario_id", Kind: vocab.String, Str: []string{"a", "a", "b", "b"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("byScenario (-want +got):\n%s", diff)
	}
	got = cols()
	byScenario(got)
	if diff := cmp.Diff(cols(), got); diff != "" {
		t.Errorf("byScenario without scenario_id changed the rows (-want +got):\n%s", diff)
	}
}
