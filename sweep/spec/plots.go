package spec

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

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
		if pl, ok := p.plot(it, fmt.Sprintf("plot %d", i+1), ids); ok {
			out = append(out, pl)
		}
	}
	return out
}

// plot reads one figure, what naming it in errors until its id is known;
// ids holds the ids of the plots before it.
func (p *parser) plot(it ast.Node, what string, ids map[string]Position) (Plot, bool) {
	pl := Plot{Pos: p.pos(it)}
	switch p.unwrap(it).(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
	default:
		p.errorf(p.pos(it), "%s must be a mapping with id, x and y, not %s", what, describe(p.unwrap(it)))
		return pl, false
	}
	has := map[string]entry{}
	for _, e := range p.entries(it, what, "key", plotKeys) {
		has[e.key] = e
		p.plotKey(&pl, e, what)
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
		pl.Claims = p.claims(e.value, what, pl.ID)
	}
	p.checkPlot(&pl, what, has)
	p.plotColumns(&pl, what, has)
	return pl, true
}

// plotKey reads the value of one key of a plot into pl.
func (p *parser) plotKey(pl *Plot, e entry, what string) {
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

// checkPlot checks what a plot's keys say together: labels name y
// columns, y names one, kind is known (line by default).
func (p *parser) checkPlot(pl *Plot, what string, has map[string]entry) {
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
	if pl.XUnit != "" {
		// Against x's unit, or, with x unknown, against every unit.
		err := units.Known(pl.XUnit)
		if xok {
			_, err = units.Scale(pl.XUnit, xu)
		}
		if err != nil {
			p.errorf(p.pos(has["xunit"].value), "%s: xunit: %s", what, unitMsg(err))
		}
	}
	if pl.YUnit != "" {
		err := units.Known(pl.YUnit) // with no y known, against every unit
		for _, u := range yu {
			if _, err = units.Scale(pl.YUnit, u); err != nil {
				break
			}
		}
		if err != nil {
			p.errorf(p.pos(has["yunit"].value), "%s: yunit: %s", what, unitMsg(err))
		}
	}
	if pl.XLabel == "" && xok {
		pl.XLabel = label(pl.X, pl.XUnit, xu)
	}
	if pl.YLabel == "" && len(yu) == len(pl.Y) && len(yu) > 0 {
		pl.YLabel = label(strings.Join(pl.Y, ", "), pl.YUnit, yu[0])
	}
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
