package dataset

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// TestIDColumnsWithoutStatistics: the parts a Writer makes, and those
// Merge rewrites, carry row-group statistics for every column but the
// two id columns (noIDStats), whose random hex values give a minimum and
// maximum that prune nothing.
func TestIDColumnsWithoutStatistics(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
	check := func(stage string) {
		t.Helper()
		ps, err := Parts(dir)
		if err != nil || len(ps) == 0 {
			t.Fatalf("%s: parts %v, %v", stage, ps, err)
		}
		for _, p := range ps {
			rdr, err := file.OpenParquetFile(p, false)
			if err != nil {
				t.Fatal(err)
			}
			md := rdr.MetaData()
			for i := range md.Schema.NumColumns() {
				name := md.Schema.Column(i).Name()
				cc, err := md.RowGroup(0).ColumnChunk(i)
				if err != nil {
					t.Fatal(err)
				}
				set, err := cc.StatsSet()
				if err != nil {
					t.Fatal(err)
				}
				if want := name != ColID && name != ColPoint; set != want {
					t.Errorf("%s: %s: column %s has statistics %v, want %v", stage, p, name, set, want)
				}
			}
			rdr.Close()
		}
	}
	check("written")
	if err := Merge(dir, memory.NewGoAllocator()); err != nil {
		t.Fatal(err)
	}
	check("merged")
}
