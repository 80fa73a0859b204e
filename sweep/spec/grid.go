package spec

import (
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

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

// step reads a range's step: a difference of two values of prm. For a
// level in dBm that difference is a ratio, written in dB ("2dB"); "2dBm"
// is read the same way, as a spec may write it. Every other unit's
// difference is in the unit itself.
func (p *parser) step(prm vocab.Param, f entry, what string, ok *bool) float64 {
	text, isScalar := p.scalar(f.value)
	if !isScalar {
		p.errorf(p.pos(f.value), "%s: step takes one value, not %s", what, describe(p.unwrap(f.value)))
		*ok = false
		return 0
	}
	if prm.Unit == vocab.DBm {
		if x, err := units.Parse(text, vocab.Decibel); err == nil {
			return x
		}
		if !strings.HasSuffix(strings.TrimSpace(text), "dBm") {
			p.errorf(p.pos(f.value), "%s: the step of a range of levels is their difference in dB, e.g. 2dB, not %q", what, text)
			*ok = false
			return 0
		}
	}
	x, good := p.number(prm, text, p.pos(f.value))
	*ok = *ok && good
	return x
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
		st := p.step(prm, step, what, &ok)
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
		// A step that overshoots to would end the axis short of it
		// without a word: {from: 1W, to: 2W, step: 0.3W} stops at 1.9W.
		if rest := (to-from)/st - (c - 1); rest > 1e-6 && !p.lim.Recorded {
			last := round15(from + (c-1)*st)
			p.errorf(p.pos(step.value), "%s: step %s from %s does not reach %s (the last value would be %s); set to: %s, or a step that divides the range, or give points",
				what, units.Format(st, prm.Unit), units.Format(from, prm.Unit), units.Format(to, prm.Unit), units.Format(last, prm.Unit), units.Format(last, prm.Unit))
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
				return logPoint(from, to, k, count)
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
		if err := check(r.prm, v); err != nil {
			p.errorf(r.pos, "%s: %v", r.what, err)
			return false
		}
		prev = v
	}
	return true
}

// logPoint is point k of count on a log scale from from to to, rounded to
// 15 digits.
//
// Over whole decades (to is from shifted by d of them) the exponent k d /
// (count-1) is split in whole numbers, k d = q (count-1) + r, so that a
// point q whole decades from from is from shifted by them, the value
// typed out: 1e-9 to 1e-3 in 4 points gives 1e-7, where exp(log(from) +
// ...) gave 9.99999999999999e-08 (an error of about ten units in the last
// place, on the 15th digit of a number just below a power of ten). The
// points between take 10^(r/(count-1)), an exponent below 1 with the
// relative error of one rounding, so they miss the true value by a few
// units in the last place at most. Other ranges keep exp(log(from) + ...),
// and with it the values (and scenario ids) they always had.
func logPoint(from, to float64, k, count int) float64 {
	d := math.Round(math.Log10(to / from))
	if d < 1 || d > 300 || round15(from*math.Pow10(int(d))) != to {
		return round15(math.Exp(math.Log(from) + float64(k)*(math.Log(to)-math.Log(from))/float64(count-1)))
	}
	n := int64(count - 1)
	q, r := int64(k)*int64(d)/n, int64(k)*int64(d)%n
	x := from * math.Pow10(int(q))
	if r != 0 {
		x *= math.Pow(10, float64(r)/float64(n))
	}
	return round15(x)
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
