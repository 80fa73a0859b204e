package plots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

// CheckClaims checks the column names of the claims of s's generic
// figures against the header of the data they are compared with, before
// anything runs: a misspelt column would otherwise surface only in the
// report, as a claim that fails, and read as a failed reproduction. The
// names are each claim's y, at_max and where keys, and relative_to's keys
// where the reference is taken; with relative_plot naming another generic
// figure of s, that figure's data must also have y, at_max and the where
// keys, and relative_to's keys are looked up there. Figures registered
// with their own Draw build their header as they draw, so their claims
// are left to the report. s is resolved at a profile; schema is its
// model's.
func (r *Registry) CheckClaims(s *spec.Spec, schema *vocab.Schema) spec.ErrorList {
	heads := map[string][]dataColumn{}
	for _, p := range s.Plots {
		if cols, ok := r.genericColumns(DefOf(p), schema); ok {
			heads[p.ID] = cols
		}
	}
	var errs spec.ErrorList
	for _, p := range s.Plots {
		own, ok := heads[p.ID]
		if !ok {
			continue
		}
		for _, c := range p.Claims {
			errs = append(errs, checkClaim(p.ID, c, own, heads, schema)...)
		}
	}
	return errs.Sorted()
}

// genericColumns returns the columns of the data the generic line figure
// of d writes, or false when d is not one: a registered Draw makes the
// figure (its columns are known only as it draws), it is a table (which
// always has one), or d does not resolve (the drawing reports that).
func (r *Registry) genericColumns(d Def, schema *vocab.Schema) ([]dataColumn, bool) {
	if f, ok := r.figs[d.ID]; (ok && f.Draw != nil) || d.kind() != KindLine {
		return nil, false
	}
	ld, err := resolveLine(d, schema)
	if err != nil {
		return nil, false
	}
	return lineColumns(d, ld), true
}

// claimName is one column name a claim uses, with the key that names it
// and where it is written.
type claimName struct {
	key, name string
	pos       spec.Position
}

// checkClaim checks the names of claim c of plot id against own, its
// figure's columns, and, with a relative_plot among heads, against that
// figure's columns; a name missing from own is reported once, for own.
func checkClaim(id string, c spec.Claim, own []dataColumn, heads map[string][]dataColumn, schema *vocab.Schema) spec.ErrorList {
	used := []claimName{{"y", c.Y, c.YPos}}
	if c.AtMax != "" {
		used = append(used, claimName{"at_max", c.AtMax, c.AtMaxPos})
	}
	for _, m := range c.Where {
		used = append(used, claimName{"where", m.Column, m.Pos})
	}
	var rel []claimName
	for _, m := range c.RelativeTo {
		rel = append(rel, claimName{"relative_to", m.Column, m.Pos})
	}
	what := fmt.Sprintf("plot %s claim %d", id, c.Number)
	if c.RelativePlot == "" || c.RelativePlot == id {
		return missingNames(what, "the figure", slices.Concat(used, rel), own, schema)
	}
	errs := missingNames(what, "the figure", used, own, schema)
	other, ok := heads[c.RelativePlot]
	if !ok {
		return errs // not generic, or not of this spec: the report reads its data
	}
	var both []claimName
	for _, n := range used {
		if hasColumn(own, n.name) {
			both = append(both, n)
		}
	}
	return append(errs, missingNames(what, "relative_plot "+c.RelativePlot, slices.Concat(both, rel), other, schema)...)
}

// missingNames returns an error for each of names that is not one of
// cols, the columns of the data of fig ("the figure", "relative_plot b").
func missingNames(what, fig string, names []claimName, cols []dataColumn, schema *vocab.Schema) spec.ErrorList {
	var errs spec.ErrorList
	for _, n := range names {
		if !hasColumn(cols, n.name) {
			errs = append(errs, &spec.Error{Pos: n.pos, Msg: fmt.Sprintf("%s: %s %q %s", what, n.key, n.name, notAColumn(n.name, fig, cols, schema))})
		}
	}
	return errs
}

// hasColumn reports whether name is one of cols.
func hasColumn(cols []dataColumn, name string) bool {
	return slices.ContainsFunc(cols, func(c dataColumn) bool { return c.name == name })
}

// notAColumn says why name is not a column of fig's data (cols) and what
// to write instead: the column of the plot quantity name is, by its spec
// name or its dataset column (the data spells columns with their display
// unit: goodput_mbps for goodput, queue_bdp_pct for queue_bdp_frac), a
// column within a typing
// mistake, or, for a parameter or metric of the model that fig does not
// plot, that the data holds only its series, x and y.
func notAColumn(name, fig string, cols []dataColumn, schema *vocab.Schema) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		if q := c.quantity; q.Name != "" && (q.Name == name || q.Column == name) {
			return fmt.Sprintf("is %s's %s (its data names columns with their display unit)", fig, c.name)
		}
		names[i] = c.name
	}
	list := " (columns: " + strings.Join(names, ", ") + ")"
	if hint := units.DidYouMean(name, names); hint != "" {
		return "is not a column of " + fig + "'s data" + hint + list
	}
	if modelNames(schema)[name] {
		return fmt.Sprintf("is a parameter or metric of %s but not a column of %s's data, which holds only its series, x and y%s", schema.Name, fig, list)
	}
	return "is not a column of " + fig + "'s data" + list
}

// modelNames is the set of the names and columns of schema's parameters
// and metrics, of every table.
func modelNames(schema *vocab.Schema) map[string]bool {
	out := map[string]bool{}
	for _, p := range schema.Params {
		out[p.Name], out[p.Column()] = true, true
	}
	ms := slices.Clone(schema.Metrics)
	for _, t := range schema.Tables {
		ms = append(ms, t.Columns...)
	}
	for _, m := range ms {
		out[m.Name], out[m.Column()] = true, true
	}
	return out
}
