package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// TestRepairMovesDeepDamage: a part damaged inside a column's pages whose
// manifest entry was rewritten to match (a "repair" by hand, a copy
// recorded again) passes the hash check; Verify with deep decoding finds
// it, and so must Repair, or crosslink run keeps a part that status calls
// damaged and its readers fail on.
func TestRepairMovesDeepDamage(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
	ps, _ := Parts(dir)
	// Damage the pages of the metric column ber, which Repair's reading
	// of the scenario_id and status columns does not touch.
	rdr, err := file.OpenParquetFile(ps[1], false)
	if err != nil {
		t.Fatal(err)
	}
	rg := rdr.MetaData().RowGroup(0)
	cc, err := rg.ColumnChunk(rdr.MetaData().Schema.ColumnIndexByName("ber"))
	if err != nil {
		t.Fatal(err)
	}
	off, size := cc.DataPageOffset(), cc.TotalCompressedSize()
	rdr.Close()
	b, err := os.ReadFile(ps[1])
	if err != nil {
		t.Fatal(err)
	}
	for i := off + size/2; i < off+size; i++ {
		b[i] ^= 0x5a
	}
	if err := os.WriteFile(ps[1], b, 0o644); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(dir, ps[1])
	if err := recordEntry(dir, rel, 5); err != nil {
		t.Fatal(err)
	}
	if d, err := Verify(dir, false, nil); err != nil || len(d) != 0 {
		t.Fatalf("the hash check = %+v, %v; want the rewritten entry to pass it", d, err)
	}
	if d, err := Verify(dir, true, nil); err != nil || len(d) != 1 || d[0].Path != ps[1] {
		t.Fatalf("deep Verify = %+v, %v; want %s damaged (the test's damage must break a page)", d, err, ps[1])
	}
	done, moved, err := Repair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 2 || moved[len(moved)-1].Path != ps[1] {
		t.Errorf("Repair moved %+v, want %s and its flows part", moved, ps[1])
	}
	if done.Len() != 7 {
		t.Errorf("after Repair %d ids, want 7 (parts 1 and 3)", done.Len())
	}
	if d, err := Verify(dir, true, nil); err != nil || len(d) != 0 {
		t.Errorf("deep Verify after Repair = %+v, %v; want nothing", d, err)
	}
}
