package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestReadFailureReleasesTable: a part whose scenario_id column is not a
// string (no crosslink writer makes one, a hand-made file does) fails the
// read, and the table read so far is released.
func TestReadFailureReleasesTable(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{
		{Name: ColID, Type: arrow.PrimitiveTypes.Int64},
		{Name: ColStatus, Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 1}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"ok", "failed"}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	p := filepath.Join(t.TempDir(), "part-0of1-000001.parquet")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	fw, err := pqarrow.NewFileWriter(sc, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	tbl, err := readParts([]string{p}, mem)
	if err == nil {
		tbl.Release()
		t.Fatal("reading a part with an int64 scenario_id succeeded")
	}
}
