package spec

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

func sortStrings(s []string) { sort.Strings(s) }

// value reads one value of prm: a scalar with the parameter's unit, of its
// kind, inside its range and choices.
func (p *parser) value(prm vocab.Param, n ast.Node) (vocab.Value, bool) {
	pos := p.pos(n)
	if !p.spend(pos) {
		return vocab.Value{}, false
	}
	node := p.unwrap(n)
	text, ok := p.scalar(node)
	if !ok {
		switch node.(type) {
		case nil, *ast.NullNode:
			p.errorf(pos, "%s has no value", prm.Name)
		default:
			p.errorf(pos, "%s takes one value, not %s", prm.Name, describe(node))
		}
		return vocab.Value{}, false
	}
	var v vocab.Value
	switch prm.Kind {
	case vocab.Bool:
		b, isBool := node.(*ast.BoolNode)
		if !isBool {
			p.errorf(pos, "%s must be true or false, not %q", prm.Name, text)
			return v, false
		}
		v = vocab.B(b.Value)
	case vocab.String:
		v = vocab.S(text)
		if len(prm.Choices) > 0 && !contains(prm.Choices, text) {
			p.errorf(pos, "%s: %q is not one of %s%s", prm.Name, text, strings.Join(prm.Choices, ", "), suggestOnly(text, prm.Choices))
			return v, false
		}
	case vocab.Float, vocab.Int:
		if _, isBool := node.(*ast.BoolNode); isBool {
			p.errorf(pos, "%s must be a number, not %s", prm.Name, text)
			return v, false
		}
		x, ok := p.number(prm, text, pos)
		if !ok {
			return v, false
		}
		v = vocab.F(x)
		if prm.Kind == vocab.Int {
			v = vocab.I(int64(x))
		}
	default:
		p.errorf(pos, "%s has kind %s, which specs cannot set", prm.Name, prm.Kind)
		return v, false
	}
	if err := prm.Check(v); err != nil {
		p.errorf(pos, "%s", err)
		return v, false
	}
	return v, true
}

// number reads a quantity of prm's unit; for an Int parameter it must be
// a whole number.
func (p *parser) number(prm vocab.Param, text string, pos Position) (float64, bool) {
	if prm.Kind == vocab.Int && prm.Unit == vocab.Dimensionless {
		if n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64); err == nil {
			return float64(n), true
		}
	}
	x, err := units.Parse(text, prm.Unit)
	if err != nil {
		var ue *units.Error
		if errors.As(err, &ue) {
			p.errorf(pos, "%s: %s", prm.Name, ue.Msg)
		} else {
			p.errorf(pos, "%s: %v", prm.Name, err)
		}
		return 0, false
	}
	if prm.Kind == vocab.Int && (x != math.Trunc(x) || math.Abs(x) >= 1<<63) {
		what := "whole number"
		if prm.Unit != vocab.Dimensionless {
			what += " of " + string(prm.Unit)
		}
		p.errorf(pos, "%s: %q is not a %s", prm.Name, text, what)
		return 0, false
	}
	return x, true
}

// grid reads the axes: each a list of values or a range.
func (p *parser) grid(n ast.Node) []Axis {
	es := p.entries(n, "grid", "parameter", p.paramNames())
	if len(es) == 0 && len(p.unwrapEntries(n)) == 0 {
		p.errorf(p.pos(n), "grid has no axes; remove it or add one")
	}
	var out []Axis
	for _, e := range es {
		prm, ok := p.param(e.key)
		if !ok {
			continue
		}
		axis := Axis{Name: e.key, Pos: e.pos}
		switch m := p.unwrap(e.value).(type) {
		case nil, *ast.NullNode:
			p.errorf(e.pos, "grid axis %s is empty", e.key)
			continue
		case *ast.SequenceNode:
			if len(m.Values) == 0 {
				p.errorf(e.pos, "grid axis %s is empty", e.key)
				continue
			}
			seen := map[string]bool{}
			bad := false
			for _, item := range m.Values {
				v, ok := p.value(prm, item)
				if !ok {
					bad = true
					continue
				}
				if seen[v.Canonical()] {
					p.errorf(p.pos(item), "grid axis %s lists %s twice", e.key, display(v, prm.Unit))
					bad = true
					continue
				}
				seen[v.Canonical()] = true
				axis.Values = append(axis.Values, v)
			}
			if bad {
				continue
			}
		case *ast.MappingNode, *ast.MappingValueNode:
			r, ok := p.rangeAxis(prm, e)
			if !ok {
				continue
			}
			axis.Range = r
		default:
			p.errorf(p.pos(e.value), "grid axis %s must be a list [a, b, ...] or a range {from, to, step or points}, not %s; a single value belongs in params", e.key, describe(m))
			continue
		}
		out = append(out, axis)
	}
	return out
}

// unwrapEntries returns the raw pairs of a mapping node, for telling an
// empty mapping from one whose keys were all rejected.
func (p *parser) unwrapEntries(n ast.Node) []*ast.MappingValueNode {
	switch m := p.unwrap(n).(type) {
	case *ast.MappingNode:
		return m.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}
	}
	return nil
}

func display(v vocab.Value, u vocab.Unit) string {
	if v.Kind() == vocab.Float || (v.Kind() == vocab.Int && u != vocab.Dimensionless) {
		return units.Format(v.Float(), u)
	}
	return v.String()
}

// rangeAxis reads {from, to, step} or {from, to, points, scale} and
// returns its length and generator; values are made (and checked, see
// checkRange) only after the scenario count is checked, so that an absurd
// grid costs no memory.
// Generated floats are rounded to 15 significant digits, so a range gives
// the same values (and scenario ids) as the equivalent list: 0.1 + 2*0.1
// is 0.3, not 0.30000000000000004.
func (p *parser) rangeAxis(prm vocab.Param, e entry) (*Range, bool) {
	what := "grid axis " + e.key
	fs := map[string]entry{}
	for _, f := range p.entries(e.value, what, "key", rangeKeys) {
		fs[f.key] = f
	}
	if prm.Kind != vocab.Float && prm.Kind != vocab.Int {
		p.errorf(e.pos, "%s is a %s; a range {from, to, ...} needs a number, so list the values", what, prm.Kind)
		return nil, false
	}
	ok := true
	num := func(key string) float64 {
		f, has := fs[key]
		if !has {
			p.errorf(e.pos, "%s: range needs %q", what, key)
			ok = false
			return 0
		}
		text, isScalar := p.scalar(f.value)
		if !isScalar {
			p.errorf(p.pos(f.value), "%s: %s takes one value, not %s", what, key, describe(p.unwrap(f.value)))
			ok = false
			return 0
		}
		x, good := p.number(prm, text, p.pos(f.value))
		ok = ok && good
		return x
	}
	from, to := num("from"), num("to")
	step, hasStep := fs["step"]
	points, hasPoints := fs["points"]
	scale := "linear"
	if f, has := fs["scale"]; has {
		scale = p.text(f)
		if !contains(scales, scale) {
			p.errorf(p.pos(f.value), "%s: scale %q is not linear or log%s", what, scale, suggestOnly(scale, scales))
			ok = false
		}
	}
	switch {
	case hasStep && hasPoints:
		p.errorf(e.pos, "%s: give step or points, not both", what)
		return nil, false
	case !hasStep && !hasPoints:
		p.errorf(e.pos, "%s: range needs step or points", what)
		return nil, false
	}
	if !ok {
		return nil, false
	}
	if from > to {
		p.errorf(e.pos, "%s: from %s is above to %s", what, units.Format(from, prm.Unit), units.Format(to, prm.Unit))
		return nil, false
	}
	var count int
	var at func(k int) float64
	if hasStep {
		if scale == "log" {
			p.errorf(p.pos(step.value), "%s: a log scale takes points, not step", what)
			return nil, false
		}
		st := num("step")
		if !ok {
			return nil, false
		}
		if !(st > 0) {
			p.errorf(p.pos(step.value), "%s: step must be above zero", what)
			return nil, false
		}
		c := math.Floor((to-from)/st+1e-9) + 1
		if c > MaxAxis {
			p.errorf(p.pos(step.value), "%s: range has %.0f values, more than the limit of %d per axis", what, c, MaxAxis)
			return nil, false
		}
		count = int(c)
		at = func(k int) float64 { return round15(from + float64(k)*st) }
	} else {
		text, _ := p.scalar(points.value)
		np, err := strconv.ParseInt(text, 10, 64)
		switch {
		case err != nil || np < 1:
			p.errorf(p.pos(points.value), "%s: points must be a whole number of at least 1, not %s", what, quoteNode(p, points.value))
			return nil, false
		case np > MaxAxis:
			p.errorf(p.pos(points.value), "%s: %d points is more than the limit of %d per axis", what, np, MaxAxis)
			return nil, false
		case np == 1 && from != to:
			p.errorf(p.pos(points.value), "%s: 1 point cannot reach from %s to %s; use at least 2", what, units.Format(from, prm.Unit), units.Format(to, prm.Unit))
			return nil, false
		case scale == "log" && !(from > 0):
			p.errorf(e.pos, "%s: a log scale needs from and to above zero", what)
			return nil, false
		}
		count = int(np)
		at = func(k int) float64 {
			switch {
			case k == 0:
				return from
			case k == count-1:
				return to
			case scale == "log":
				return round15(math.Exp(math.Log(from) + float64(k)*(math.Log(to)-math.Log(from))/float64(count-1)))
			}
			return round15(from + float64(k)*(to-from)/float64(count-1))
		}
	}
	return &Range{n: count, at: at, prm: prm, what: what, pos: e.pos}, true
}

// Range is a range axis: its length and the function that makes its k-th
// value, so that the axis can be counted, and read one value at a time,
// without holding its values (see Limits.LazyRanges).
type Range struct {
	n    int
	at   func(k int) float64
	prm  vocab.Param // the axis' parameter: the kind and bounds of its values
	what string      // "grid axis NAME", for errors
	pos  Position
}

// Len returns the number of values.
func (r *Range) Len() int { return r.n }

// At returns value k, 0 <= k < Len().
func (r *Range) At(k int) vocab.Value {
	x := r.at(k)
	if r.prm.Kind == vocab.Int {
		return vocab.I(int64(math.Round(x)))
	}
	return vocab.F(x)
}

// values makes all the values.
func (r *Range) values() []vocab.Value {
	vals := make([]vocab.Value, r.n)
	for k := range vals {
		vals[k] = r.At(k)
	}
	return vals
}

// checkRange checks every value of r against its parameter, one at a time:
// a range whose values round to the same whole number, or leave the
// parameter's bounds, is refused. The values never decrease, so a repeat
// is next to its twin and needs no set of the values seen.
func (p *parser) checkRange(r *Range) bool {
	var prev vocab.Value
	for k := range r.n {
		v := r.At(k)
		if k > 0 && prev == v {
			p.errorf(r.pos, "%s: the range gives %s twice once rounded to whole numbers; use fewer points", r.what, display(v, r.prm.Unit))
			return false
		}
		if err := r.prm.Check(v); err != nil {
			p.errorf(r.pos, "%s: %v", r.what, err)
			return false
		}
		prev = v
	}
	return true
}

// round15 rounds x to 15 significant decimal digits, removing the noise of
// repeated float steps while keeping every value a float64 can tell apart
// at the precision anyone types.
func round15(x float64) float64 {
	y, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64)
	if err != nil {
		return x
	}
	return y
}

// plots reads the figures.
func (p *parser) plots(n ast.Node) []Plot {
	var items []ast.Node
	switch m := p.unwrap(n).(type) {
	case nil, *ast.NullNode:
		return nil
	case *ast.SequenceNode:
		items = m.Values
	default:
		p.errorf(p.pos(n), "plots must be a list of plots, each with id, x and y, not %s", describe(m))
		return nil
	}
	var out []Plot
	ids := map[string]Position{}
	for i, it := range items {
		pl := Plot{Pos: p.pos(it)}
		what := fmt.Sprintf("plot %d", i+1)
		switch p.unwrap(it).(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
		default:
			p.errorf(p.pos(it), "%s must be a mapping with id, x and y, not %s", what, describe(p.unwrap(it)))
			continue
		}
		has := map[string]entry{}
		for _, e := range p.entries(it, what, "key", plotKeys) {
			has[e.key] = e
			switch e.key {
			case "id":
				pl.ID = p.text(e)
			case "title":
				pl.Title = p.text(e)
			case "caption":
				pl.Caption = p.text(e)
			case "kind":
				pl.Kind = p.text(e)
			case "table":
				pl.Table = p.text(e)
			case "x":
				pl.X = p.text(e)
			case "y":
				pl.Y = p.names(e)
			case "series":
				pl.Series = p.names(e)
			case "where":
				pl.Where = p.settings(e.value, what+" where")
			case "xunit":
				pl.XUnit = p.text(e)
			case "yunit":
				pl.YUnit = p.text(e)
			case "xlabel":
				pl.XLabel = p.text(e)
			case "ylabel":
				pl.YLabel = p.text(e)
			case "logx":
				pl.LogX = p.flag(e)
			case "logy":
				pl.LogY = p.flag(e)
			case "xlim":
				pl.XLim = p.limits(e)
			case "ylim":
				pl.YLim = p.limits(e)
			case "labels":
				pl.Labels = p.labels(e)
			}
		}
		for _, req := range []string{"id", "x", "y"} {
			if _, ok := has[req]; !ok {
				p.errorf(pl.Pos, "%s needs %q", what, req)
			}
		}
		if e, ok := has["id"]; ok && p.checkName(p.pos(e.value), "plot id", pl.ID, "names the figure files", false) {
			if first, dup := ids[pl.ID]; dup {
				p.errorf(p.pos(e.value), "duplicate plot id %q (first at %d:%d)", pl.ID, first.Line, first.Column)
			} else {
				ids[pl.ID] = p.pos(e.value)
			}
			what = "plot " + pl.ID
		}
		if e, ok := has["claims"]; ok {
			pl.Claims = p.claims(e.value, what)
		}
		if e, ok := has["labels"]; ok {
			names := make([]string, 0, len(pl.Labels))
			for name := range pl.Labels {
				names = append(names, name)
			}
			sortStrings(names)
			for _, name := range names {
				if !contains(pl.Y, name) {
					p.errorf(p.pos(e.value), "%s: labels names %q, which is not one of y %q%s", what, name, pl.Y, suggestOnly(name, pl.Y))
				}
			}
		}
		if e, ok := has["y"]; ok && len(pl.Y) == 0 {
			p.errorf(p.pos(e.value), "%s: y names no column", what)
		}
		switch pl.Kind {
		case "":
			pl.Kind = "line"
		case "line", "table":
		default:
			p.errorf(p.pos(has["kind"].value), "%s: kind %q is not line or table%s", what, pl.Kind, suggestOnly(pl.Kind, plotKinds))
		}
		p.plotColumns(&pl, what, has)
		out = append(out, pl)
	}
	return out
}

// names reads a name or a list of names.
func (p *parser) names(e entry) []string {
	if s, ok := p.unwrap(e.value).(*ast.SequenceNode); ok {
		var out []string
		for _, item := range s.Values {
			t, ok := p.scalar(item)
			if !ok {
				p.errorf(p.pos(item), "%s must list names, not %s", e.key, describe(p.unwrap(item)))
				continue
			}
			out = append(out, t)
		}
		return out
	}
	t, ok := p.scalar(e.value)
	if !ok {
		p.errorf(p.pos(e.value), "%s must be a name or a list of names, not %s", e.key, describe(p.unwrap(e.value)))
		return nil
	}
	return []string{t}
}

// limits reads an axis range [min, max] of plain numbers in the display
// unit.
func (p *parser) limits(e entry) []float64 {
	seq, ok := p.unwrap(e.value).(*ast.SequenceNode)
	if !ok || len(seq.Values) != 2 {
		p.errorf(p.pos(e.value), "%s must be [min, max] in the axis' display unit, e.g. [1e-12, 1]", e.key)
		return nil
	}
	var lim [2]float64
	for i, item := range seq.Values {
		t, _ := p.scalar(item)
		x, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			p.errorf(p.pos(item), "%s: %q is not a number (write it in the axis' display unit, without the unit)", e.key, t)
			return nil
		}
		lim[i] = x
	}
	if lim[0] >= lim[1] {
		p.errorf(p.pos(e.value), "%s: min %g must be below max %g", e.key, lim[0], lim[1])
		return nil
	}
	return lim[:]
}

// labels reads a mapping from y names to legend texts.
func (p *parser) labels(e entry) map[string]string {
	out := map[string]string{}
	for _, kv := range p.entries(e.value, "labels", "y name", nil) {
		out[kv.key] = p.text(kv)
	}
	return out
}

func (p *parser) flag(e entry) bool {
	b, ok := p.unwrap(e.value).(*ast.BoolNode)
	if !ok {
		p.errorf(p.pos(e.value), "%s must be true or false, not %s", e.key, quoteNode(p, e.value))
		return false
	}
	return b.Value
}

// plotColumns checks that x, y and series name parameters or columns of
// the plotted table, that the display units fit them, and fills the
// default axis labels.
func (p *parser) plotColumns(pl *Plot, what string, has map[string]entry) {
	if p.schema == nil {
		return
	}
	// cols maps every name a plot may use to its unit; a metric name two
	// metrics share maps to nothing, and the message points at the columns.
	type col struct {
		unit      vocab.Unit
		ambiguous []string
	}
	cols := map[string]col{}
	for _, prm := range p.schema.Params {
		cols[prm.Name] = col{unit: prm.Unit}
		cols[prm.Column()] = col{unit: prm.Unit}
	}
	metrics := p.schema.Metrics
	if pl.Table != "" {
		metrics = nil
		var tables []string
		for _, t := range p.schema.Tables {
			tables = append(tables, t.Name)
			if t.Name == pl.Table {
				metrics = t.Columns
			}
		}
		if metrics == nil {
			p.errorf(p.pos(has["table"].value), "%s: model %s has no table %q%s", what, p.schema.Name, pl.Table, suggest(pl.Table, tables))
			return
		}
	}
	byName := map[string][]string{}
	for _, m := range metrics {
		byName[m.Name] = append(byName[m.Name], m.Column())
		cols[m.Column()] = col{unit: m.Unit}
	}
	for _, m := range metrics {
		if cs := byName[m.Name]; len(cs) > 1 {
			cols[m.Name] = col{ambiguous: cs}
		} else {
			cols[m.Name] = col{unit: m.Unit}
		}
	}
	names := make([]string, 0, len(cols))
	for n := range cols {
		names = append(names, n)
	}
	sort.Strings(names)
	lookup := func(key, name string) (vocab.Unit, bool) {
		c, ok := cols[name]
		pos := p.pos(has[key].value)
		switch {
		case !ok:
			where := "parameter or metric"
			if pl.Table != "" {
				where = "parameter or column of table " + pl.Table
			}
			p.errorf(pos, "%s: %s %q is not a %s of %s%s", what, key, name, where, p.schema.Name, suggestOnly(name, names))
			return "", false
		case len(c.ambiguous) > 0:
			p.errorf(pos, "%s: %s %q names several columns; write one of %s", what, key, name, strings.Join(c.ambiguous, ", "))
			return "", false
		}
		return c.unit, true
	}
	var xu vocab.Unit
	xok := false
	if pl.X != "" {
		xu, xok = lookup("x", pl.X)
	}
	var yu []vocab.Unit
	for _, y := range pl.Y {
		if u, ok := lookup("y", y); ok {
			yu = append(yu, u)
		}
	}
	for _, s := range pl.Series {
		lookup("series", s)
	}
	if xok && pl.XUnit != "" {
		if _, err := units.Scale(pl.XUnit, xu); err != nil {
			p.errorf(p.pos(has["xunit"].value), "%s: xunit: %s", what, unitMsg(err))
		}
	}
	if pl.YUnit != "" {
		for _, u := range yu {
			if _, err := units.Scale(pl.YUnit, u); err != nil {
				p.errorf(p.pos(has["yunit"].value), "%s: yunit: %s", what, unitMsg(err))
				break
			}
		}
	}
	if pl.XLabel == "" && xok {
		pl.XLabel = label(pl.X, pl.XUnit, xu)
	}
	if pl.YLabel == "" && len(yu) == len(pl.Y) && len(yu) > 0 {
		pl.YLabel = label(strings.Join(pl.Y, ", "), pl.YUnit, yu[0])
	}
}

func unitMsg(err error) string {
	var ue *units.Error
	if errors.As(err, &ue) {
		return ue.Msg
	}
	return err.Error()
}

// label is the default axis label: the name and the display unit,
// "distance (km)". A fraction is shown in percent (plots.shownUnit), so
// its label says %, not "fraction".
func label(name, display string, base vocab.Unit) string {
	u := display
	if u == "" {
		u = string(base)
		if base == vocab.Fraction {
			u = "%"
		}
	}
	if u == "" {
		return strings.ReplaceAll(name, "_", " ")
	}
	return strings.ReplaceAll(name, "_", " ") + " (" + u + ")"
}
