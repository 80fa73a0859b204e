package plots

import (
	"fmt"
	"sort"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Def is one figure as a spec's plots entry declares it. Names are spec
// names (a parameter or metric of the model's schema: "distance", "ber"),
// not Parquet columns.
type Def struct {
	ID, Title, Caption string
	Kind               string // "line" (default) or "table"
	Table              string // "" for the main table, else a second table's name
	X                  string
	Y                  []string // several Y draw several curves
	Series             []string // parameters whose value combinations make one curve each
	Where              []Where  // keep only rows with these parameter values
	XUnit, YUnit       string   // display units ("km", "ms", "Mbps"); "" keeps the base unit
	XLabel, YLabel     string   // default: name and unit
	LogX, LogY         bool
	XLim, YLim         []float64         // [min, max] in display units; nil: from the data
	Labels             map[string]string // legend text per y name
}

// Where keeps the rows whose parameter Name equals Value.
type Where struct {
	Name  string
	Value vocab.Value
}

// Kinds of figure a Def can ask for.
const (
	KindLine  = "line"
	KindTable = "table"
)

// kind returns d.Kind with the default filled in.
func (d Def) kind() string {
	if d.Kind == "" {
		return KindLine
	}
	return d.Kind
}

// Quantity is a spec name resolved against a schema: its column, unit and
// kind, and whether it is a parameter (present in every table through the
// scenario) or a column of one table.
type Quantity struct {
	Name, Column string
	Unit         vocab.Unit
	Kind         vocab.Kind
	Param        bool
}

// lookupCol resolves name as Lookup does and returns its column of f.
func lookupCol(s *vocab.Schema, table, name string, f *Frame) (Quantity, *Column, error) {
	q, err := Lookup(s, table, name)
	if err != nil {
		return Quantity{}, nil, err
	}
	c, err := f.Col(q.Column)
	return q, c, err
}

// numericCol returns the main-table quantity name of f as float64s, for
// the figures that compute on whole columns (a null of a Float column is
// NaN); a column that is not a number is an error naming figure in.
func numericCol(in Input, f *Frame, name string) ([]float64, error) {
	_, c, err := lookupCol(in.Schema, "", name, f)
	if err != nil {
		return nil, err
	}
	out := make([]float64, f.Len())
	for i := range out {
		v, ok := c.Numeric(i)
		if !ok {
			return nil, fmt.Errorf("plots: figure %s: column %s is not numeric", in.Def.ID, c.Name)
		}
		out[i] = v
	}
	return out, nil
}

// Lookup resolves name in the schema s for the table called table ("" for
// the main table): a parameter, or a metric of that table.
func Lookup(s *vocab.Schema, table, name string) (Quantity, error) {
	for _, p := range s.Params {
		if p.Name == name {
			return Quantity{Name: name, Column: p.Column(), Unit: p.Unit, Kind: p.Kind, Param: true}, nil
		}
	}
	var cols []vocab.Metric
	if table == "" {
		cols = s.Metrics
	} else {
		found := false
		for _, t := range s.Tables {
			if t.Name == table {
				cols, found = t.Columns, true
			}
		}
		if !found {
			var names []string
			for _, t := range s.Tables {
				names = append(names, t.Name)
			}
			return Quantity{}, fmt.Errorf("plots: model %s has no table %q (tables: %q)", s.Name, table, names)
		}
	}
	for _, m := range cols {
		if m.Is(name) { // the spec names a metric by column when two share a name
			return Quantity{Name: name, Column: m.Column(), Unit: m.Unit, Kind: m.Kind}, nil
		}
	}
	var names []string
	for _, p := range s.Params {
		names = append(names, p.Name)
	}
	for _, m := range cols {
		names = append(names, m.Name)
	}
	sort.Strings(names)
	return Quantity{}, fmt.Errorf("plots: model %s has no parameter or metric %q%s", s.Name, name, units.DidYouMean(name, names))
}

// axisLabel returns the label of an axis showing qs in display unit
// display: the explicit label if given, else "name (unit)".
func axisLabel(explicit string, qs []Quantity, display string) string {
	if explicit != "" {
		return explicit
	}
	names := make([]string, len(qs))
	for i, q := range qs {
		names[i] = strings.ReplaceAll(q.Name, "_", " ")
	}
	l := strings.Join(names, ", ")
	u := display
	if u == "" && len(qs) > 0 {
		u = shownUnit("", qs[0].Unit)
	}
	if u != "" {
		l += " (" + u + ")"
	}
	return l
}

// shownUnit is the unit a figure shows base in when the spec names display:
// display if given, else percent for a fraction (a loss of 0.002 reads as
// 0.2 %, as the documents print it), else the base unit itself.
func shownUnit(display string, base vocab.Unit) string {
	switch {
	case display != "":
		return display
	case base == vocab.Fraction:
		return "%"
	}
	return string(base)
}
