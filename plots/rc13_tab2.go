package plots

import (
	"context"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot/vg"
)

// rc13Tab2Doc is document 000's Table 2 as printed: ISL distance (km) and
// one-way propagation delay (s), to four decimals.
var rc13Tab2Doc = []struct {
	km    float64
	delay string
}{
	{16000, "0.0533"},
	{25000, "0.0833"},
	{50000, "0.1667"},
	{80000, "0.2667"},
}

func rc13Tab2() Figure {
	return Figure{
		ID:      "rc13-tab2",
		Caption: "Document 000, Table 2: ISL distances and corresponding one-way propagation delays",
		Draw:    drawRC13Tab2,
	}
}

// drawRC13Tab2 sets the one-way delay of each simulated distance beside
// the document's printed value. The spec's plots entry may name the
// quantities (x: distance, y: [one_way_delay], the defaults).
func drawRC13Tab2(ctx context.Context, in Input) (*Output, error) {
	d := in.Def
	if d.X == "" {
		d.X = "distance"
	}
	if len(d.Y) == 0 {
		d.Y = []string{"one_way_delay"}
	}
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	rows, notes, err := pairs(d, in, fr)
	if err != nil {
		return nil, err
	}
	cmp := Comparison{Keys: []string{"distance (km)"}, Quantities: []string{"one-way delay (s)"}, Digits: 4}
	t := &Table{
		Title:   orDefault(d.Title, "ISL distance and one-way propagation delay"),
		Caption: d.Caption,
		Header:  cmp.Header(),
		Notes:   notes,
		theme:   in.Theme,
	}
	doc := map[float64]string{}
	for _, r := range rc13Tab2Doc {
		doc[r.km] = r.delay
	}
	seen := map[float64]bool{}
	for _, r := range rows {
		km := r.x / 1000
		key := formatNumber(km)
		seen[km] = true
		printed, ok := doc[km]
		if !ok {
			t.AddRow(key, "-", formatNumber(roundSig(r.y, cmp.Digits)), "-")
			continue
		}
		var v float64
		if _, err := fmt.Sscan(printed, &v); err != nil {
			panic("plots: bug: document value " + printed)
		}
		t.AddRow(cmp.Row([]string{key}, []string{printed}, []float64{v}, []float64{r.y})...)
	}
	for _, r := range rc13Tab2Doc {
		if !seen[r.km] {
			t.Notes = append(t.Notes, fmt.Sprintf("the document's %s km is not in the dataset", formatNumber(r.km)))
		}
	}
	t.Notes = append(t.Notes,
		"document: values as printed in Table 2 of document 000 (four decimals)",
		"difference: (ours - document) / document")
	return &Output{Art: t, Width: 16 * vg.Centimeter, Height: 7 * vg.Centimeter, Data: t, Markdown: true, Notes: notes}, nil
}

// pair is one (x, y) of a table in base units, y averaged over rows.
type pair struct{ x, y float64 }

// pairs returns, for each distinct X of the selected rows, the mean of Y,
// sorted by X. The rows sharing an X must agree on Y to 1e-9 relative: a
// table has one value per key, and a disagreement means the spec varies
// something the table does not show.
func pairs(d Def, in Input, fr *Frame) ([]pair, []string, error) {
	xq, err := Lookup(in.Schema, d.Table, d.X)
	if err != nil {
		return nil, nil, err
	}
	yq, err := Lookup(in.Schema, d.Table, d.Y[0])
	if err != nil {
		return nil, nil, err
	}
	fr, notes, err := selectRows(d, in.Schema, fr)
	if err != nil {
		return nil, nil, err
	}
	xc, err := fr.Col(xq.Column)
	if err != nil {
		return nil, nil, err
	}
	yc, err := fr.Col(yq.Column)
	if err != nil {
		return nil, nil, err
	}
	ys := map[float64][]float64{}
	for i := 0; i < fr.Len(); i++ {
		x, okx := xc.Numeric(i)
		y, oky := yc.Numeric(i)
		if !okx || !oky {
			return nil, nil, fmt.Errorf("plots: figure %s: %s and %s must be numbers", d.ID, d.X, d.Y[0])
		}
		ys[x] = append(ys[x], y)
	}
	var out []pair
	for x, v := range ys {
		lo, hi := v[0], v[0]
		for _, y := range v {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
		if hi-lo > 1e-9*math.Abs(hi) {
			return nil, nil, fmt.Errorf("plots: figure %s: %s = %g has %s from %g to %g; a table shows one value per key (narrow it with where)",
				d.ID, d.X, x, d.Y[0], lo, hi)
		}
		out = append(out, pair{x, Summarize(v, Confidence).Mean})
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("plots: figure %s: no rows to tabulate", d.ID)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].x < out[j].x })
	return out, notes, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
