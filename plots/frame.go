package plots

import (
	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Column is one named, typed column of a Frame. Exactly one of the slices
// matching Kind is set; its length is the frame's row count. A null is
// NaN in a Float column; in an Int column, which has no such value, Null
// marks it (nil when there is none), so that a null count is not read as
// 0.
type Column struct {
	Name  string
	Kind  vocab.Kind
	Float []float64
	Int   []int64
	Null  []bool // Int only: which rows are null
	Str   []string
	Bool  []bool
}

// null reports whether row i of an Int column is null.
func (c *Column) null(i int) bool { return c.Null != nil && c.Null[i] }

// Len returns the number of values in c.
func (c *Column) Len() int {
	switch c.Kind {
	case vocab.Float:
		return len(c.Float)
	case vocab.Int:
		return len(c.Int)
	case vocab.String:
		return len(c.Str)
	case vocab.Bool:
		return len(c.Bool)
	}
	return 0
}

// Value returns row i of c as an vocab.Value; a null integer is 0 (Numeric
// tells it apart).
func (c *Column) Value(i int) vocab.Value {
	switch c.Kind {
	case vocab.Float:
		return vocab.F(c.Float[i])
	case vocab.Int:
		return vocab.I(c.Int[i])
	case vocab.String:
		return vocab.S(c.Str[i])
	case vocab.Bool:
		return vocab.B(c.Bool[i])
	}
	panic(fmt.Sprintf("plots: bug: column %q has no kind", c.Name))
}

// Numeric returns row i of a Float or Int column as float64.
func (c *Column) Numeric(i int) (float64, bool) {
	switch c.Kind {
	case vocab.Float:
		return c.Float[i], true
	case vocab.Int:
		if c.null(i) {
			return math.NaN(), true
		}
		return float64(c.Int[i]), true
	}
	return 0, false
}

// Frame is a small in-memory table of named typed columns: the rows of one
// dataset table as the figures see them. It is read-only once built.
type Frame struct {
	cols  []*Column
	index map[string]int
	rows  int
}

// NewFrame returns a frame of the given columns. They must have distinct
// names and equal lengths.
func NewFrame(cols ...*Column) (*Frame, error) {
	f := &Frame{index: make(map[string]int, len(cols))}
	for i, c := range cols {
		if _, dup := f.index[c.Name]; dup {
			return nil, fmt.Errorf("plots: frame: two columns are called %q", c.Name)
		}
		if c.Kind == vocab.Invalid {
			return nil, fmt.Errorf("plots: frame: column %q has no kind", c.Name)
		}
		if i == 0 {
			f.rows = c.Len()
		} else if c.Len() != f.rows {
			return nil, fmt.Errorf("plots: frame: column %q has %d rows, want %d", c.Name, c.Len(), f.rows)
		}
		f.index[c.Name] = i
	}
	f.cols = cols
	return f, nil
}

// Len returns the number of rows.
func (f *Frame) Len() int { return f.rows }

// Names returns the column names in frame order.
func (f *Frame) Names() []string {
	names := make([]string, len(f.cols))
	for i, c := range f.cols {
		names[i] = c.Name
	}
	return names
}

// Col returns the column called name.
func (f *Frame) Col(name string) (*Column, error) {
	i, ok := f.index[name]
	if !ok {
		return nil, fmt.Errorf("plots: no column %q (have %q)", name, f.Names())
	}
	return f.cols[i], nil
}

// Filter returns a frame of the rows for which keep is true.
func (f *Frame) Filter(keep func(row int) bool) *Frame {
	var rows []int
	for i := 0; i < f.rows; i++ {
		if keep(i) {
			rows = append(rows, i)
		}
	}
	out := &Frame{index: f.index, rows: len(rows), cols: make([]*Column, len(f.cols))}
	for j, c := range f.cols {
		n := &Column{Name: c.Name, Kind: c.Kind}
		for _, i := range rows {
			switch c.Kind {
			case vocab.Float:
				n.Float = append(n.Float, c.Float[i])
			case vocab.Int:
				n.Int = append(n.Int, c.Int[i])
				if c.Null != nil {
					n.Null = append(n.Null, c.Null[i])
				}
			case vocab.String:
				n.Str = append(n.Str, c.Str[i])
			case vocab.Bool:
				n.Bool = append(n.Bool, c.Bool[i])
			}
		}
		out.cols[j] = n
	}
	return out
}

// ScenarioColumn is the column every dataset table keys its rows by.
const ScenarioColumn = "scenario_id"

// KeepScenarios returns the rows of f whose scenario_id is one of the
// scenarios of src. A dataset directory can hold rows of several profiles
// of a spec, or of axis values since removed from it; the plan at the
// chosen profile says which of them a figure may draw.
func KeepScenarios(f *Frame, src plan.Source) (*Frame, error) {
	c, err := f.Col(ScenarioColumn)
	if err != nil {
		return nil, err
	}
	if c.Kind != vocab.String {
		return nil, fmt.Errorf("plots: column %s is %s, want string", ScenarioColumn, c.Kind)
	}
	ids := make(map[string]struct{}, src.Len())
	for i := 0; i < src.Len(); i++ {
		ids[src.At(i).ID] = struct{}{}
	}
	return f.Filter(func(i int) bool {
		_, ok := ids[c.Str[i]]
		return ok
	}), nil
}

// compareValues orders two values of the same kind: numbers numerically,
// strings lexically, false before true. It gives curves and table rows an
// order that does not depend on the order rows were written in.
func compareValues(a, b vocab.Value) int {
	switch a.Kind() {
	case vocab.Float, vocab.Int:
		x, y := a.Float(), b.Float()
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case vocab.String:
		switch {
		case a.Str() < b.Str():
			return -1
		case a.Str() > b.Str():
			return 1
		}
		return 0
	case vocab.Bool:
		x, y := a.Bool(), b.Bool()
		switch {
		case !x && y:
			return -1
		case x && !y:
			return 1
		}
		return 0
	}
	return 0
}

// JoinParams returns f, rows of a second table, with every parameter
// column of main (and its status) added, matched by scenario id, so that a
// figure of the table can use parameters as series or filters. Rows whose
// scenario is not in main are dropped.
func JoinParams(f, main *Frame, s *vocab.Schema) (*Frame, error) {
	ids, err := main.Col(ScenarioColumn)
	if err != nil {
		return nil, err
	}
	row := make(map[string]int, ids.Len())
	for i, id := range ids.Str {
		row[id] = i
	}
	fid, err := f.Col(ScenarioColumn)
	if err != nil {
		return nil, err
	}
	keep := f.Filter(func(i int) bool { _, ok := row[fid.Str[i]]; return ok })
	kid, _ := keep.Col(ScenarioColumn)
	var cols []*Column
	for _, n := range keep.Names() {
		c, _ := keep.Col(n)
		cols = append(cols, c)
	}
	names := []string{"status"}
	for _, p := range s.Params {
		names = append(names, p.Column())
	}
	for _, n := range names {
		src, err := main.Col(n)
		if err != nil {
			continue // a column the dataset does not have (no status in a test frame)
		}
		if _, err := keep.Col(n); err == nil { // already there
			continue
		}
		c := &Column{Name: n, Kind: src.Kind}
		for _, id := range kid.Str {
			i := row[id]
			switch src.Kind {
			case vocab.Float:
				c.Float = append(c.Float, src.Float[i])
			case vocab.Int:
				c.Int = append(c.Int, src.Int[i])
				if src.Null != nil {
					c.Null = append(c.Null, src.Null[i])
				}
			case vocab.String:
				c.Str = append(c.Str, src.Str[i])
			case vocab.Bool:
				c.Bool = append(c.Bool, src.Bool[i])
			}
		}
		cols = append(cols, c)
	}
	return NewFrame(cols...)
}
