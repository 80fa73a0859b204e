package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// Claim is one statement of a source document that a figure is checked
// against: a number (or range) the document prints or draws, the rows of
// the figure's tidy data (its CSV) that hold ours, and how close ours must
// be. The tolerance is part of the spec, written before ours is known.
type Claim struct {
	Claim  string // the statement, one sentence
	Source string // where the document says it: "Document 000, Table 3"
	// Where selects rows of the figure's data by column value (a CSV
	// column or series key and the value as the CSV prints it), in file
	// order.
	Where []ClaimMatch
	// RelativeTo, when set, makes ours a ratio: the selection of Where
	// divided by the selection of Where with these columns replaced.
	RelativeTo []ClaimMatch
	Y          string   // the data column compared
	Document   *float64 // the document's value; nil for between without one
	Op         string   // approx (default), ge, le or between
	// Rel and Abs are the tolerance: approx holds when |ours - document|
	// is within Rel*|document| or Abs; ge and le allow that much slack.
	Rel, Abs float64
	Bounds   []float64 // between: [lo, hi]
	Agg      string    // mean (default), min or max of the selected rows
	// RelativePlot, when set, takes the reference of a relative claim
	// from that figure's data instead of this one's: where (with
	// relative_to's replacements) selects its rows there.
	RelativePlot string
	// Relative is how ours and its reference combine: ratio (default,
	// ours / reference) or difference (ours - reference).
	Relative string
	// AtMax, when set, makes ours the value of Y in the row, among those
	// Where selects, where this column is largest (the q of a peak).
	AtMax string
	Pos   Position
	// Number is the claim's place in its plot's claims list, from 1, as
	// messages name it ("plot fig claim 2"); the rows of a claims table
	// share their entry's. YPos and AtMaxPos are where Y and AtMax are
	// written, for the messages of checks that know the figure's columns
	// (plots.CheckClaims).
	Number         int
	YPos, AtMaxPos Position
}

// ClaimMatch is one column = value condition of a claim's row selection.
// A Value written lo..hi (two numbers, "55..100") selects the rows whose
// number lies in [lo, hi]. Pos is where Column is written: the key in the
// spec, or the where.<column> heading of a claims table.
type ClaimMatch struct {
	Column, Value string
	Pos           Position
}

// Claim operators and aggregations.
var (
	claimKeys = []string{"claim", "source", "where", "relative_to", "relative_plot", "relative", "at_max", "y", "document", "op", "tol", "bounds", "agg"}
	claimOps  = []string{"approx", "ge", "le", "between"}
	claimAggs = []string{"mean", "min", "max"}
	claimRels = []string{"ratio", "difference"}
	tolKeys   = []string{"rel", "abs"}
)

// claims reads a plot's claims: a list of mappings with claim, source, y
// and either document with op/tol or bounds.
//
// An item of the form {table: file.csv, source: text} stands for the
// rows of that claims table (ClaimsTable) whose plot column is plotID.
func (p *parser) claims(n ast.Node, what, plotID string) []Claim {
	var items []ast.Node
	switch m := p.unwrap(n).(type) {
	case nil, *ast.NullNode:
		return nil
	case *ast.SequenceNode:
		items = m.Values
	default:
		p.errorf(p.pos(n), "%s: claims must be a list of claims, each with claim, source, y and document, not %s", what, describe(m))
		return nil
	}
	var out []Claim
	for i, it := range items {
		c := Claim{Pos: p.pos(it), Op: "approx", Agg: "mean", Number: i + 1}
		cw := fmt.Sprintf("%s claim %d", what, i+1)
		switch p.unwrap(it).(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
		default:
			p.errorf(p.pos(it), "%s must be a mapping with claim, source, y and document, not %s", cw, describe(p.unwrap(it)))
			continue
		}
		if p.isTable(it) {
			out = append(out, p.claimsTable(it, cw, plotID, i+1)...)
			continue
		}
		has := map[string]entry{}
		for _, e := range p.entries(it, cw, "key", claimKeys) {
			has[e.key] = e
			switch e.key {
			case "claim":
				c.Claim = p.text(e)
			case "source":
				c.Source = p.text(e)
			case "where":
				c.Where = p.matches(e, cw)
			case "relative_to":
				c.RelativeTo = p.matches(e, cw)
			case "relative_plot":
				c.RelativePlot = p.text(e)
			case "relative":
				c.Relative = p.text(e)
				if !contains(claimRels, c.Relative) {
					p.errorf(p.pos(e.value), "%s: relative %q is not one of %s%s", cw, c.Relative, strings.Join(claimRels, ", "), suggestOnly(c.Relative, claimRels))
				}
			case "at_max":
				c.AtMax, c.AtMaxPos = p.text(e), p.pos(e.value)
			case "y":
				c.Y, c.YPos = p.text(e), p.pos(e.value)
			case "document":
				if x, ok := p.claimNumber(e.value, cw+": document"); ok {
					c.Document = &x
				}
			case "op":
				c.Op = p.text(e)
				if !contains(claimOps, c.Op) {
					p.errorf(p.pos(e.value), "%s: op %q is not one of %s%s", cw, c.Op, strings.Join(claimOps, ", "), suggestOnly(c.Op, claimOps))
				}
			case "agg":
				c.Agg = p.text(e)
				if !contains(claimAggs, c.Agg) {
					p.errorf(p.pos(e.value), "%s: agg %q is not one of %s%s", cw, c.Agg, strings.Join(claimAggs, ", "), suggestOnly(c.Agg, claimAggs))
				}
			case "tol":
				p.tolerance(e, cw, &c)
			case "bounds":
				c.Bounds = p.bounds(e, cw)
			}
		}
		for _, req := range []string{"claim", "source", "y"} {
			if e, ok := has[req]; !ok {
				p.errorf(c.Pos, "%s needs %q", cw, req)
			} else if strings.TrimSpace(p.text(e)) == "" {
				p.errorf(p.pos(e.value), "%s: %s is empty", cw, req)
			}
		}
		_, hasDoc := has["document"]
		_, hasTol := has["tol"]
		_, hasBounds := has["bounds"]
		switch c.Op {
		case "approx":
			if !hasDoc {
				p.errorf(c.Pos, "%s: op approx needs document (the document's value)", cw)
			}
			if !hasTol {
				p.errorf(c.Pos, "%s: op approx needs tol: {rel: r} or {abs: a}, chosen before looking at ours", cw)
			}
		case "ge", "le":
			if !hasDoc {
				p.errorf(c.Pos, "%s: op %s needs document (the value ours is compared with)", cw, c.Op)
			}
		case "between":
			if !hasBounds {
				p.errorf(c.Pos, "%s: op between needs bounds: [lo, hi]", cw)
			}
		}
		if _, ok := has["relative"]; ok && len(c.RelativeTo) == 0 && c.RelativePlot == "" {
			p.errorf(p.pos(has["relative"].value), "%s: relative applies to a claim with relative_to or relative_plot", cw)
		}
		if hasBounds && c.Op != "between" {
			p.errorf(p.pos(has["bounds"].value), "%s: bounds apply only to op between, not %s", cw, c.Op)
		}
		out = append(out, c)
	}
	return out
}

// matches reads a mapping of column: value, keeping the value as written.
func (p *parser) matches(e entry, what string) []ClaimMatch {
	var out []ClaimMatch
	for _, kv := range p.entries(e.value, what+" "+e.key, "column", nil) {
		v, ok := p.scalar(kv.value)
		if !ok {
			p.errorf(p.pos(kv.value), "%s %s: %s must be a single value as the figure's data prints it, not %s", what, e.key, kv.key, describe(p.unwrap(kv.value)))
			continue
		}
		if lo, hi, isRange, err := MatchRange(v); isRange && err != nil {
			p.errorf(p.pos(kv.value), "%s %s: %s: %v", what, e.key, kv.key, err)
			continue
		} else if isRange && lo > hi {
			p.errorf(p.pos(kv.value), "%s %s: %s: range %s: lo must not exceed hi", what, e.key, kv.key, v)
			continue
		}
		out = append(out, ClaimMatch{Column: kv.key, Value: v, Pos: kv.pos})
	}
	if len(out) == 0 {
		if _, isMap := p.unwrap(e.value).(*ast.MappingNode); isMap || p.unwrap(e.value) == nil {
			p.errorf(p.pos(e.value), "%s: %s selects nothing; write column: value pairs or leave it out", what, e.key)
		}
	}
	return out
}

// claimNumber reads a finite plain number.
// A relative tolerance is a fraction (0.1 for 10 %); every other number is
// in the unit of the compared column.
func (p *parser) claimNumber(n ast.Node, what string) (float64, bool) {
	t, ok := p.scalar(n)
	x, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if !ok || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		unit := "in the unit of the compared column"
		if strings.HasSuffix(what, "tol rel") {
			unit = "a fraction, 0.1 for 10 %"
		}
		p.errorf(p.pos(n), "%s must be a plain number (%s), not %s", what, unit, quoteNode(p, n))
		return 0, false
	}
	return x, true
}

// tolerance reads {rel: r} or {abs: a} (or both: either suffices).
func (p *parser) tolerance(e entry, what string, c *Claim) {
	es := p.entries(e.value, what+" tol", "key", tolKeys)
	if len(es) == 0 {
		p.errorf(p.pos(e.value), "%s: tol must be {rel: r} or {abs: a}", what)
	}
	for _, kv := range es {
		x, ok := p.claimNumber(kv.value, what+": tol "+kv.key)
		if !ok {
			continue
		}
		if x < 0 {
			p.errorf(p.pos(kv.value), "%s: tol %s %g must not be negative", what, kv.key, x)
			continue
		}
		if kv.key == "rel" {
			c.Rel = x
		} else {
			c.Abs = x
		}
	}
}

// bounds reads [lo, hi].
func (p *parser) bounds(e entry, what string) []float64 {
	seq, ok := p.unwrap(e.value).(*ast.SequenceNode)
	if !ok || len(seq.Values) != 2 {
		p.errorf(p.pos(e.value), "%s: bounds must be [lo, hi]", what)
		return nil
	}
	var b [2]float64
	for i, it := range seq.Values {
		x, ok := p.claimNumber(it, what+": bounds")
		if !ok {
			return nil
		}
		b[i] = x
	}
	if b[0] > b[1] {
		p.errorf(p.pos(e.value), "%s: bounds [%g, %g]: lo must not exceed hi", what, b[0], b[1])
		return nil
	}
	return b[:]
}

// MatchRange reads a claim match value written lo..hi. isRange is false
// for any other value (matched as written); err says what is wrong with a
// value that has ".." but not two numbers around it.
func MatchRange(v string) (lo, hi float64, isRange bool, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(v), "..")
	if !ok {
		return 0, 0, false, nil
	}
	lo, errA := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, errB := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if errA != nil || errB != nil || math.IsNaN(lo) || math.IsNaN(hi) {
		return 0, 0, true, fmt.Errorf("range %q must be two numbers, lo..hi", v)
	}
	return lo, hi, true, nil
}
