package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// checkNoNaN scans every float column of every table of every dataset in
// out (the main table and each second table) and fails on a NaN: a value
// that does not apply is NULL (DESIGN.md, Rows), which DuckDB's avg() and
// polars' mean() skip, where a NaN makes the whole aggregate NaN.
func checkNoNaN(t *testing.T, out string) {
	t.Helper()
	specs, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	scanned := 0
	for _, s := range specs {
		dir := filepath.Join(out, s.Name())
		if !s.IsDir() || s.Name() == "figures" {
			continue
		}
		tables := []string{""} // the main table
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			n := e.Name()
			// Second tables are the directories beside the main one;
			// manifests, set-aside parts and temporary files start with _ or .
			if e.IsDir() && n != dataset.MainTable && !strings.HasPrefix(n, "_") && !strings.HasPrefix(n, ".") {
				tables = append(tables, n)
			}
		}
		for _, name := range tables {
			var tbl arrow.Table
			if name == "" {
				tbl, err = dataset.ReadTable(dir, nil)
			} else {
				tbl, err = dataset.ReadSecond(dir, name, nil)
			}
			if err != nil {
				t.Fatalf("%s %s: %v", s.Name(), name, err)
			}
			for c := range int(tbl.NumCols()) {
				if n := nanCount(tbl.Column(c)); n > 0 {
					t.Errorf("%s %s: column %s holds %d NaN of %d rows; a value that does not apply is NULL",
						s.Name(), name, tbl.Schema().Field(c).Name, n, tbl.NumRows())
				}
			}
			scanned++
			tbl.Release()
		}
	}
	if scanned == 0 {
		t.Errorf("no table scanned in %s", out)
	}
}

// nanCount counts the NaN values of a float64 column (NULLs are not NaN).
func nanCount(col *arrow.Column) int {
	n := 0
	for _, ch := range col.Data().Chunks() {
		f, ok := ch.(*array.Float64)
		if !ok {
			return 0
		}
		for i := range f.Len() {
			if f.IsValid(i) && math.IsNaN(f.Value(i)) {
				n++
			}
		}
	}
	return n
}
