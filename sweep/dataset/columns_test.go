package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// TestFlushLandsInOrder: a part is published while the next one is
// encoded, but never before the parts flushed ahead of it. Part 2 cannot
// be renamed into place (a directory holds its name): parts 3 to 5,
// encoded after it, must not land either, the writer must say why, and no
// temporary file may stay behind.
func TestFlushLandsInOrder(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	w, err := NewWriter(dir, testSchema(), Options{MaxRows: 10, Meta: testMeta(), Mem: mem})
	if err != nil {
		t.Fatal(err)
	}
	trap := filepath.Join(MainDir(dir), partName(DefaultShard, 2), "x")
	if err := os.MkdirAll(trap, 0o755); err != nil {
		t.Fatal(err)
	}
	_, appendErr := w.AppendRows(testRows(50))
	closeErr := w.Close()
	if appendErr == nil && closeErr == nil {
		t.Fatal("AppendRows and Close succeeded with part 2's name taken, want an error")
	}
	for _, err := range []error{appendErr, closeErr} {
		if err != nil && !strings.Contains(err.Error(), partName(DefaultShard, 2)) {
			t.Errorf("error %q, want it to name %s", err, partName(DefaultShard, 2))
		}
	}
	for seq := 1; seq <= 5; seq++ {
		fi, err := os.Stat(filepath.Join(MainDir(dir), partName(DefaultShard, seq)))
		landed := err == nil && !fi.IsDir()
		if want := seq == 1; landed != want {
			t.Errorf("part %d landed: %v, want %v", seq, landed, want)
		}
	}
	tmps, err := os.ReadDir(filepath.Join(dir, tmpDir))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range tmps {
		t.Errorf("%s left in %s", e.Name(), tmpDir)
	}
}
