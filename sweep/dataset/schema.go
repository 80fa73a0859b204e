package dataset

import (
	"fmt"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Status is the outcome of one scenario, stored in the status column.
type Status string

// The statuses a row can have. The runner writes Canceled for no row: a
// scenario cut short by cancellation is abandoned, so that a rerun does it.
const (
	OK       Status = "ok"
	Failed   Status = "failed"
	Panic    Status = "panic"
	Timeout  Status = "timeout"
	Canceled Status = "canceled"
)

// Names of the columns every main table has, besides parameters and metrics.
const (
	ColID        = "scenario_id"
	ColReplicate = "replicate"
	ColSeed      = "seed"
	ColStatus    = "status"
	ColError     = "error"
	ColWall      = "wall_s"
)

// Row is one row of the main table.
type Row struct {
	ID        string
	Replicate int
	Seed      uint64
	Params    []vocab.Value // aligned with Schema.Params
	Metrics   []vocab.Value // aligned with Schema.Metrics; nil gives nulls
	Status    Status
	Error     string
	WallS     float64
	// Tables[i] holds the scenario's rows of Schema.Tables[i], each
	// aligned with that table's Columns (vocab.Result.Tables).
	Tables [][][]vocab.Value
}

// arrowType maps an engine kind onto its Arrow type.
func arrowType(k vocab.Kind) arrow.DataType {
	switch k {
	case vocab.Float:
		return arrow.PrimitiveTypes.Float64
	case vocab.Int:
		return arrow.PrimitiveTypes.Int64
	case vocab.String:
		return arrow.BinaryTypes.String
	case vocab.Bool:
		return arrow.FixedWidthTypes.Boolean
	}
	panic(fmt.Sprintf("dataset: bug: no Arrow type for kind %s", k))
}

func field(name string, t arrow.DataType, nullable bool, unit vocab.Unit, doc string) arrow.Field {
	return arrow.Field{
		Name:     name,
		Type:     t,
		Nullable: nullable,
		Metadata: arrow.NewMetadata([]string{"doc", "unit"}, []string{doc, string(unit)}),
	}
}

var (
	idField        = field(ColID, arrow.BinaryTypes.String, false, vocab.Dimensionless, "scenario id: 128-bit hash of model, version, parameters and replicate, in hex")
	replicateField = field(ColReplicate, arrow.PrimitiveTypes.Int64, false, vocab.Dimensionless, "replicate number, 0-based")
)

// Schema returns the Arrow schema of the main table of model s.
func Schema(s *vocab.Schema) *arrow.Schema {
	fs := make([]arrow.Field, 0, 3+len(s.Params)+len(s.Metrics)+3)
	fs = append(fs, idField, replicateField,
		field(ColSeed, arrow.PrimitiveTypes.Uint64, false, vocab.Dimensionless, "random seed of the scenario, derived from the spec seed and the scenario id"))
	for _, p := range s.Params {
		fs = append(fs, field(p.Column(), arrowType(p.Kind), false, p.Unit, p.Doc))
	}
	for _, m := range s.Metrics {
		fs = append(fs, field(m.Column(), arrowType(m.Kind), true, m.Unit, m.Doc))
	}
	fs = append(fs,
		field(ColStatus, arrow.BinaryTypes.String, false, vocab.Dimensionless, "ok, failed, panic, timeout or canceled"),
		field(ColError, arrow.BinaryTypes.String, false, vocab.Dimensionless, "error text, empty when ok"),
		field(ColWall, arrow.PrimitiveTypes.Float64, false, vocab.Second, "wall-clock time of the scenario; differs between runs"))
	return arrow.NewSchema(fs, nil)
}

// TableSchema returns the Arrow schema of second table t of model s.
func TableSchema(t vocab.Table) *arrow.Schema {
	fs := make([]arrow.Field, 0, 2+len(t.Columns))
	fs = append(fs, idField, replicateField)
	for _, c := range t.Columns {
		fs = append(fs, field(c.Column(), arrowType(c.Kind), true, c.Unit, c.Doc))
	}
	return arrow.NewSchema(fs, nil)
}

// categorical returns the columns of the main table worth dictionary
// encoding: string parameters (few distinct values each) and status.
func categorical(s *vocab.Schema) []string {
	var cols []string
	for _, p := range s.Params {
		if p.Kind == vocab.String {
			cols = append(cols, p.Column())
		}
	}
	return append(cols, ColStatus)
}

// tableCategorical returns the string columns of a second table, which hold
// names (congestion controller, flow kind) rather than free text.
func tableCategorical(t vocab.Table) []string {
	var cols []string
	for _, c := range t.Columns {
		if c.Kind == vocab.String {
			cols = append(cols, c.Column())
		}
	}
	return cols
}

// tablePrefix starts the directory name of a second table. pyarrow and
// polars skip files and directories whose names start with "_" or "." when
// they read a dataset directory, so out/<spec>/ reads as the main table
// alone even though its second tables live inside it.
const tablePrefix = "_"

// TableDir returns the directory of the second table called table in the
// dataset dir: dir/_<table>.
func TableDir(dir, table string) string {
	return filepath.Join(dir, tablePrefix+table)
}
