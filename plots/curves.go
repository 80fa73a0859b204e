package plots

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Scaler returns the factor a value stored in base unit is divided by to
// show it in the display unit ("km" of vocab.Meter gives 1000).
type Scaler func(display string, base vocab.Unit) (float64, error)

// Curve is one line of a figure: the replicate summaries of one Y quantity
// for one combination of series values, in display units, sorted by X.
type Curve struct {
	Label  string
	Y      string        // the Y quantity's name
	Series []vocab.Value // aligned with Def.Series
	Points []Point
}

// Point is one X of a curve. Note says why it is not drawn (empty if it is).
type Point struct {
	X float64
	Summary
	Note string
}

// drawn reports whether p is drawn.
func (p Point) drawn() bool { return p.Note == "" }

// lineData is a Def resolved against a schema and a frame: the curves
// and what the axes show.
type lineData struct {
	X              Quantity
	Y              []Quantity
	Series         []Quantity
	XLabel, YLabel string
	Curves         []Curve
	Notes          []string          // rows left out, and why
	Labels         map[string]string // legend text per y name (Def.Labels)
	problems       []string          // drawing defects linePlot found (lineProblems)
}

// statusOK is the status of a scenario that ran to completion; other rows
// (failed, timeout, ...) carry null metrics and are left out of figures.
const statusOK = "ok"

// buildCurves groups the rows of f into curves as d asks: filtered by
// d.Where, one curve per Y and per combination of d.Series values, the
// replicates at each X reduced to their mean and confidence interval, and
// every value shown in the display units d names.
func buildCurves(d Def, s *vocab.Schema, f *Frame, scale Scaler) (*lineData, error) {
	ld, err := resolveLine(d, s)
	if err != nil {
		return nil, err
	}
	xf, err := factor(scale, d.XUnit, ld.X.Unit)
	if err != nil {
		return nil, fmt.Errorf("plots: figure %s: x unit: %w", d.ID, err)
	}
	yf, err := factor(scale, d.YUnit, ld.Y[0].Unit)
	if err != nil {
		return nil, fmt.Errorf("plots: figure %s: y unit: %w", d.ID, err)
	}
	f, notes, err := selectRows(d, s, f)
	if err != nil {
		return nil, err
	}
	ld.Notes = append(ld.Notes, notes...)
	gs, nan, err := groupRows(d, ld, f)
	if err != nil {
		return nil, err
	}
	if nan > 0 {
		ld.Notes = append(ld.Notes, fmt.Sprintf("%d values are NaN or null and not drawn", nan))
	}
	for _, g := range gs {
		ld.Curves = append(ld.Curves, g.curve(d, ld, xf, yf))
	}
	ld.Notes = append(ld.Notes, skippedNotes(ld.Curves)...)
	if len(ld.Curves) == 0 {
		return nil, fmt.Errorf("plots: figure %s: no rows to draw", d.ID)
	}
	if allNonPositive(ld.Curves) {
		return nil, fmt.Errorf("plots: figure %s: every point is <= 0 on a log axis", d.ID)
	}
	return ld, nil
}

// resolveLine resolves the x, y and series names of d against s, with the
// axis labels.
func resolveLine(d Def, s *vocab.Schema) (*lineData, error) {
	ld := &lineData{Labels: d.Labels}
	var err error
	if d.X == "" || len(d.Y) == 0 {
		return nil, fmt.Errorf("plots: figure %s needs x and y", d.ID)
	}
	if ld.X, err = numericQuantity(d, s, "x", d.X); err != nil {
		return nil, err
	}
	for _, y := range d.Y {
		q, err := numericQuantity(d, s, "y", y)
		if err != nil {
			return nil, err
		}
		if len(ld.Y) > 0 && q.Unit != ld.Y[0].Unit {
			return nil, fmt.Errorf("plots: figure %s: y = %s is in %q but %s is in %q; one axis shows one unit",
				d.ID, y, q.Unit, ld.Y[0].Name, ld.Y[0].Unit)
		}
		ld.Y = append(ld.Y, q)
	}
	for _, n := range d.Series {
		q, err := Lookup(s, d.Table, n)
		if err != nil {
			return nil, fmt.Errorf("plots: figure %s: series: %w", d.ID, err)
		}
		ld.Series = append(ld.Series, q)
	}
	ld.XLabel = axisLabel(d.XLabel, []Quantity{ld.X}, d.XUnit)
	ld.YLabel = axisLabel(d.YLabel, ld.Y, d.YUnit)
	return ld, nil
}

// numericQuantity resolves name for axis (x or y) and wants a number.
func numericQuantity(d Def, s *vocab.Schema, axis, name string) (Quantity, error) {
	q, err := Lookup(s, d.Table, name)
	if err != nil {
		return Quantity{}, fmt.Errorf("plots: figure %s: %s: %w", d.ID, axis, err)
	}
	if q.Kind != vocab.Float && q.Kind != vocab.Int {
		return Quantity{}, fmt.Errorf("plots: figure %s: %s = %s is a %s, want a number", d.ID, axis, name, q.Kind)
	}
	return q, nil
}

// curveGroup is the rows of one curve: its series values, its y, and the
// replicate values at each x; an x whose every value is missing (NaN or
// null) has none.
type curveGroup struct {
	series []vocab.Value
	y      int
	xs     map[float64][]float64
}

// groupRows groups the rows of f by curve (series values and y) and x,
// in the curves' order (series values, then y), and counts NaN and null
// values. A missing y keeps its x in its curve, with no value, so that the
// line breaks there; a curve with no value at all is not drawn.
// Keys are canonical strings; the order of curves and points is fixed by
// sorting, never by map iteration.
func groupRows(d Def, ld *lineData, f *Frame) ([]*curveGroup, int, error) {
	xc, err := f.Col(ld.X.Column)
	if err != nil {
		return nil, 0, fmt.Errorf("plots: figure %s: %w", d.ID, err)
	}
	ycs, err := columnsOf(d, f, ld.Y)
	if err != nil {
		return nil, 0, err
	}
	scs, err := columnsOf(d, f, ld.Series)
	if err != nil {
		return nil, 0, err
	}
	groups := map[string]*curveGroup{}
	missing := map[string][]float64{} // the x of missing values, per curve
	nan := 0
	for i := 0; i < f.Len(); i++ {
		vals := make([]vocab.Value, len(scs))
		var key strings.Builder
		for j, c := range scs {
			vals[j] = c.Value(i)
			key.WriteString(vals[j].Canonical())
			key.WriteByte(0)
		}
		x, _ := xc.Numeric(i)
		for k, c := range ycs {
			gk := key.String() + fmt.Sprint(k)
			y, _ := c.Numeric(i)
			if math.IsNaN(y) || math.IsNaN(x) {
				nan++
				if !math.IsNaN(x) {
					missing[gk] = append(missing[gk], x)
				}
				continue
			}
			g := groups[gk]
			if g == nil {
				g = &curveGroup{series: vals, y: k, xs: map[float64][]float64{}}
				groups[gk] = g
			}
			g.xs[x] = append(g.xs[x], y)
		}
	}
	gs := make([]*curveGroup, 0, len(groups))
	for gk, g := range groups {
		for _, x := range missing[gk] {
			if _, ok := g.xs[x]; !ok {
				g.xs[x] = nil
			}
		}
		gs = append(gs, g)
	}
	sort.Slice(gs, func(a, b int) bool {
		for j := range gs[a].series {
			if c := compareValues(gs[a].series[j], gs[b].series[j]); c != 0 {
				return c < 0
			}
		}
		return gs[a].y < gs[b].y
	})
	return gs, nan, nil
}

// columnsOf returns the columns of f that hold qs.
func columnsOf(d Def, f *Frame, qs []Quantity) ([]*Column, error) {
	var cs []*Column
	for _, q := range qs {
		c, err := f.Col(q.Column)
		if err != nil {
			return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// curve summarises the group's replicates at each x, in display units
// (x divided by xf, y by yf), sorted by x, each point noted with why it
// is not drawn where it is not.
func (g *curveGroup) curve(d Def, ld *lineData, xf, yf float64) Curve {
	c := Curve{Y: ld.Y[g.y].Name, Series: g.series, Label: curveLabel(ld, g.series, g.y)}
	xs := make([]float64, 0, len(g.xs))
	for x := range g.xs {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	for _, x := range xs {
		sm := Summarize(g.xs[x], Confidence)
		sm.Mean /= yf
		sm.Lo /= yf
		sm.Hi /= yf
		sm.StdDev /= yf
		p := Point{X: scaled(x, xf), Summary: sm}
		p.Note = outOfFigure(d, p)
		if sm.N == 0 {
			p.Note = missingNote
		}
		c.Points = append(c.Points, p)
	}
	return c
}

// gapNote marks a point whose value stands for no value (the leo-path
// model's RTT of 0 while there is no path): kept in the figure's data as
// written, drawn as a gap in the line, never as a value.
const gapNote = "no path: a gap in the line (the data keep the model's 0)"

// missingNote marks an x at which every value of a curve is missing: NaN
// or null, a value that does not apply (an unfinished transfer's
// completion time). The line breaks there rather than join the points
// either side as though the value lay between them.
const missingNote = "no value (NaN or null): a gap in the line"

// gap reports whether p is a gap of its curve (gapNote, missingNote).
func (p Point) gap() bool { return p.Note == gapNote || p.Note == missingNote }

// outOfFigure says why a point cannot be drawn on d's axes, or "".
func outOfFigure(d Def, p Point) string {
	switch {
	case d.LogX && p.X <= 0:
		return "x <= 0 on a log axis"
	case d.LogY && p.Mean <= 0:
		return "y <= 0 on a log axis"
	case len(d.XLim) == 2 && (p.X < d.XLim[0] || p.X > d.XLim[1]):
		return "x outside the figure's x range"
	case len(d.YLim) == 2 && (p.Mean < d.YLim[0] || p.Mean > d.YLim[1]):
		return "y outside the figure's y range"
	}
	return ""
}

// skippedNotes counts the points not drawn, by reason, in the order the
// reasons first appear.
func skippedNotes(cs []Curve) []string {
	why := map[string]int{}
	var reasons []string
	for _, c := range cs {
		for _, p := range c.Points {
			if !p.drawn() {
				if why[p.Note] == 0 {
					reasons = append(reasons, p.Note)
				}
				why[p.Note]++
			}
		}
	}
	var notes []string
	for _, r := range reasons {
		notes = append(notes, fmt.Sprintf("%d points are not drawn: %s", why[r], r))
	}
	return notes
}

// allNonPositive reports whether every point of cs that has a value is
// <= 0 on a log axis.
func allNonPositive(cs []Curve) bool {
	n := 0
	for _, c := range cs {
		for _, p := range c.Points {
			if p.Note == "y <= 0 on a log axis" || p.Note == "x <= 0 on a log axis" {
				n++
			}
		}
	}
	return n == countValued(cs)
}

// countValued is the number of points of cs that have a value (not a
// missingNote gap).
func countValued(cs []Curve) int {
	n := 0
	for _, c := range cs {
		for _, p := range c.Points {
			if p.Note != missingNote {
				n++
			}
		}
	}
	return n
}

// scaled is x shown in a display unit of factor f, rounded to 15
// significant digits so that a parameter typed in that unit reads back as
// typed: 0.009 (stored for "0.9%") over 0.01 is 0.8999999999999999 in
// binary, and the figure's data should say 0.9.
func scaled(x, f float64) float64 {
	if f == 1 {
		return x
	}
	return roundSig(x/f, 15)
}

// factor returns the display factor of unit display for base; "" keeps
// the base unit (percent for a fraction: shownUnit).
func factor(scale Scaler, display string, base vocab.Unit) (float64, error) {
	display = shownUnit(display, base)
	if display == string(base) {
		return 1, nil
	}
	if scale == nil {
		return 0, fmt.Errorf("plots: no unit scaler to show %s in %q", base, display)
	}
	f, err := scale(display, base)
	if err != nil {
		return 0, err
	}
	if !(f > 0) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("plots: bug: scale of %q for %s is %g", display, base, f)
	}
	return f, nil
}

// selectRows keeps the rows of scenarios that completed and match d.Where.
func selectRows(d Def, s *vocab.Schema, f *Frame) (*Frame, []string, error) {
	var notes []string
	if st, err := f.Col("status"); err == nil && st.Kind == vocab.String {
		failed := 0
		for _, v := range st.Str {
			if v != statusOK {
				failed++
			}
		}
		if failed > 0 {
			notes = append(notes, fmt.Sprintf("%d rows of failed scenarios are not drawn", failed))
			f = f.Filter(func(i int) bool { return st.Str[i] == statusOK })
		}
	}
	for _, w := range d.Where {
		q, err := Lookup(s, d.Table, w.Name)
		if err != nil {
			return nil, nil, fmt.Errorf("plots: figure %s: where: %w", d.ID, err)
		}
		c, err := f.Col(q.Column)
		if err != nil {
			return nil, nil, fmt.Errorf("plots: figure %s: where: %w", d.ID, err)
		}
		f = f.Filter(func(i int) bool { return sameValue(c.Value(i), w.Value) })
	}
	return f, notes, nil
}

// sameValue compares a cell with a wanted value; an Int cell matches a
// Float value of the same number, since specs write 1500 and 1500.0 alike.
func sameValue(cell, want vocab.Value) bool {
	num := func(k vocab.Kind) bool { return k == vocab.Float || k == vocab.Int }
	if num(cell.Kind()) && num(want.Kind()) {
		return cell.Float() == want.Float()
	}
	return cell.Equal(want)
}

// curveLabel names a curve in the legend: the Y name when there are
// several, then "param value unit" for each series parameter.
func curveLabel(ld *lineData, series []vocab.Value, y int) string {
	var parts []string
	yName := strings.ReplaceAll(ld.Y[y].Name, "_", " ")
	if text, ok := ld.Labels[ld.Y[y].Name]; ok {
		yName = text
	}
	if len(ld.Y) > 1 {
		parts = append(parts, yName)
	}
	for j, v := range series {
		parts = append(parts, legendPart(ld.Series[j], v))
	}
	if len(parts) == 0 {
		return yName
	}
	return strings.Join(parts, ", ")
}
