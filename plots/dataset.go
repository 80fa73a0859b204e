package plots

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/vocab"
)

// ReadFrame reads the dataset table in dir (every part file) into a
// Frame. Columns of types a figure never draws (the uint64 seed) are left
// out; nulls become NaN, a null integer is marked in Column.Null, and a
// null string or bool is "" or false. The nulls of failed scenarios' rows
// are dropped with the rows, by their status, before drawing; any other is
// a value that does not apply, which a line leaves as a gap.
func ReadFrame(dir string) (*Frame, error) {
	tbl, err := dataset.ReadTable(dir, nil)
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	defer tbl.Release()
	return frameOf(tbl)
}

// readSecond reads a second table of the dataset dir, across its hive
// partitions if it has any, into a Frame.
func readSecond(dir, table string) (*Frame, error) {
	tbl, err := dataset.ReadSecond(dir, table, nil)
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	defer tbl.Release()
	return frameOf(tbl)
}

func frameOf(tbl arrow.Table) (*Frame, error) {
	var cols []*Column
	for i := 0; i < int(tbl.NumCols()); i++ {
		f := tbl.Schema().Field(i)
		c := &Column{Name: f.Name}
		for _, chunk := range tbl.Column(i).Data().Chunks() {
			if d, ok := chunk.(*array.Dictionary); ok {
				if err := appendDict(c, d); err != nil {
					return nil, err
				}
				continue
			}
			switch a := chunk.(type) {
			case *array.Float64:
				c.Kind = vocab.Float
				for j := 0; j < a.Len(); j++ {
					v := a.Value(j)
					if a.IsNull(j) {
						v = math.NaN()
					}
					c.Float = append(c.Float, v)
				}
			case *array.Int64:
				c.Kind = vocab.Int
				if a.NullN() > 0 && c.Null == nil {
					c.Null = make([]bool, len(c.Int), len(c.Int)+a.Len())
				}
				for j := 0; j < a.Len(); j++ {
					v := a.Value(j)
					if a.IsNull(j) {
						v = 0 // the slot of a null holds any number
					}
					c.Int = append(c.Int, v)
					if c.Null != nil {
						c.Null = append(c.Null, a.IsNull(j))
					}
				}
			case *array.String:
				c.Kind = vocab.String
				for j := 0; j < a.Len(); j++ {
					c.Str = append(c.Str, a.Value(j))
				}
			case *array.Boolean:
				c.Kind = vocab.Bool
				for j := 0; j < a.Len(); j++ {
					c.Bool = append(c.Bool, a.Value(j))
				}
			default:
				c.Kind = vocab.Invalid // not drawable: skipped below
			}
		}
		if c.Kind == vocab.Invalid {
			if tbl.NumRows() > 0 {
				continue
			}
			c.Kind = kindOf(f.Type)
			if c.Kind == vocab.Invalid {
				continue
			}
		}
		cols = append(cols, c)
	}
	byScenario(cols)
	return NewFrame(cols...)
}

// byScenario puts the rows of cols in scenario_id order, keeping the order
// of a scenario's own rows (a second table's samples). A dataset's parts
// hold rows in the order the workers finished them, so without it a
// figure that draws rows in turn (points at the same x, notes per row)
// would depend on the worker count and timing, and a scenario is a pure
// function of its parameters and seed: so must its figure be.
func byScenario(cols []*Column) {
	var ids []string
	for _, c := range cols {
		if c.Name == "scenario_id" && c.Kind == vocab.String {
			ids = c.Str
		}
	}
	if ids == nil {
		return
	}
	perm := make([]int, len(ids))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool { return ids[perm[a]] < ids[perm[b]] })
	for _, c := range cols {
		switch c.Kind {
		case vocab.Float:
			c.Float = permute(c.Float, perm)
		case vocab.Int:
			c.Int = permute(c.Int, perm)
			c.Null = permute(c.Null, perm) // nil stays nil: no null in the column
		case vocab.String:
			c.Str = permute(c.Str, perm)
		case vocab.Bool:
			c.Bool = permute(c.Bool, perm)
		}
	}
}

// permute returns xs[perm[0]], xs[perm[1]], ...
func permute[T any](xs []T, perm []int) []T {
	if len(xs) != len(perm) {
		return xs
	}
	out := make([]T, len(xs))
	for i, j := range perm {
		out[i] = xs[j]
	}
	return out
}

// kindOf is the column kind of an Arrow type, for empty tables.
func kindOf(t arrow.DataType) vocab.Kind {
	switch t.ID() {
	case arrow.FLOAT64:
		return vocab.Float
	case arrow.INT64:
		return vocab.Int
	case arrow.STRING, arrow.DICTIONARY:
		return vocab.String
	case arrow.BOOL:
		return vocab.Bool
	}
	return vocab.Invalid
}

// appendDict appends a dictionary-encoded string chunk to c.
func appendDict(c *Column, d *array.Dictionary) error {
	dict, ok := d.Dictionary().(*array.String)
	if !ok {
		return fmt.Errorf("plots: column %s: dictionary of %s, want strings", c.Name, d.Dictionary().DataType())
	}
	c.Kind = vocab.String
	for j := 0; j < d.Len(); j++ {
		if d.IsNull(j) {
			c.Str = append(c.Str, "")
			continue
		}
		c.Str = append(c.Str, dict.Value(d.GetValueIndex(j)))
	}
	return nil
}

// DatasetSource returns the Source of a spec whose dataset is dir
// (out/<name>/): its main table and second tables in dir/<table>/
// (dataset.TableDir; in each partition of a partitioned dataset),
// each restricted to the scenarios of scenarios, the spec's plan at the
// chosen profile.
func DatasetSource(name, dir string, s *vocab.Schema, defs []Def, scenarios plan.Source) *Source {
	return &Source{
		Name: name, Schema: s, Plots: defs,
		Load: func(ctx context.Context, table string) (*Frame, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var f *Frame
			var err error
			if table == "" {
				f, err = ReadFrame(dir)
			} else {
				f, err = readSecond(dir, table)
			}
			if err != nil {
				return nil, err
			}
			return KeepScenarios(f, scenarios)
		},
	}
}

// DatasetDigest identifies the rows of a dataset's main table f: a hash of
// its scenario ids (each a hash of model, version, parameters and
// replicate) with their statuses, in id order. Rows are a pure function of
// those, so two frames with one digest hold the same results but for their
// wall-clock times; a dataset run again at another model version, on
// another grid or with failures retried has another digest. A frame
// without the columns (not a crosslink dataset) has none: "".
func DatasetDigest(f *Frame) string {
	ids, err := f.Col(dataset.ColID)
	if err != nil {
		return ""
	}
	st, err := f.Col(dataset.ColStatus)
	if err != nil {
		return ""
	}
	rows := make([]string, f.Len())
	for i := range rows {
		rows[i] = ids.Value(i).Str() + "\t" + st.Value(i).Str() + "\n"
	}
	sort.Strings(rows)
	h := sha256.New()
	for _, r := range rows {
		h.Write([]byte(r))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
