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
	ColPoint     = "point_id"
	ColReplicate = "replicate"
	ColSeed      = "seed"
	ColStatus    = "status"
	ColError     = "error"
	ColWall      = "wall_s"
)

// Row is one row of the main table.
type Row struct {
	ID        string
	PointID   string // plan.PointID: the scenario id without the replicate
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
	pointIDField   = field(ColPoint, arrow.BinaryTypes.String, false, vocab.Dimensionless, "point id: 128-bit hash of model, version and parameters (the scenario id without the replicate), in hex; joins the main table, its replicates and the points table")
	replicateField = field(ColReplicate, arrow.PrimitiveTypes.Int64, false, vocab.Dimensionless, "replicate number, 0-based")
)

// Schema returns the Arrow schema of the main table of model s.
func Schema(s *vocab.Schema) *arrow.Schema {
	fs := make([]arrow.Field, 0, 4+len(s.Params)+len(s.Metrics)+3)
	fs = append(fs, idField, pointIDField, replicateField,
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
		field(ColWall, arrow.PrimitiveTypes.Float64, false, vocab.Second, "wall-clock time of the scenario, or of the copy of its result that another spec of the same run computed; differs between runs"))
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

// MainTable is the directory name of the main table of a dataset:
// out/<spec>/scenarios/. Every table of a dataset, the main one and each
// second table, is a directory of its own directly under the dataset
// directory, holding nothing but its Parquet parts (in hive partitions for
// a partitioned dataset), so that pyarrow, pandas, polars and DuckDB read
// each as exactly that table with no options. Everything else a dataset
// holds (locks, the manifest, set-aside parts, temporary files) lives in
// names starting with "_" or "." beside the tables, never inside one.
const MainTable = "scenarios"

// MainDir returns the main table's directory of the dataset dir.
func MainDir(dir string) string { return filepath.Join(dir, MainTable) }

// TableDir returns the directory of the second table called table in the
// dataset dir: dir/<table>.
func TableDir(dir, table string) string {
	return filepath.Join(dir, table)
}

// tmpDir is where parts are written before they are renamed into their
// table: outside every table, so that no reader lists a half-written file.
const tmpDir = ".tmp"

// leaf is a directory of main parts, rel below the main table of the
// dataset root ("" or a hive partition path such as "cca=cubic"); the
// second-table parts a main part commits are at the same rel below each
// table's directory.
type leaf struct{ root, rel string }

func (l leaf) main() string            { return filepath.Join(MainDir(l.root), l.rel) }
func (l leaf) table(t string) string   { return filepath.Join(TableDir(l.root, t), l.rel) }
func (l leaf) relMain(n string) string { return filepath.Join(MainTable, l.rel, n) }
func (l leaf) relTable(t, n string) string {
	return filepath.Join(t, l.rel, n)
}
