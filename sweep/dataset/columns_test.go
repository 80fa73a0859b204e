package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestPartColumnsAsRecord: a part written column by column, each column
// released once encoded (pending.write), is byte for byte the file that
// pqarrow's FileWriter.Write makes of the same columns as one record (how
// parts were written before), for the main table and a second table,
// with nulls, dictionaries and failed rows; and no Arrow memory is left
// held. The reference is arrow-go's own Write, so the test fails if an
// arrow-go upgrade makes the two differ.
func TestPartColumnsAsRecord(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	w, err := NewWriter(dir, testSchema(), Options{MaxRows: 1000, Meta: testMeta(), Mem: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.AppendRows(testRows(777)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*parts{w.tables[0].p, w.p} {
		q := p.cut()
		for _, c := range q.cols {
			c.Retain()
		}
		rec := array.NewRecordBatch(p.schema, q.cols, q.rows)
		for _, c := range q.cols {
			c.Release()
		}
		if err := q.write(); err != nil {
			t.Fatal(err)
		}
		ref := filepath.Join(p.rel, "reference.parquet")
		err := writeFile(p.root, ref, rec, p.props, p.kv, mem)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(p.root, p.rel, q.name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(p.root, ref))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) < 1000 || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes written column by column, %d by FileWriter.Write, want the same bytes", filepath.Join(p.rel, q.name), len(got), len(want))
		}
	}
}
