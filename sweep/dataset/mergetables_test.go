package dataset

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResumeAfterMergeKeepsTableRows: main part n has its second-table
// rows in table part n; a part of failed scenarios has none. After Merge
// the main parts are one merged part, and a table that had a single part
// must not keep that part's writer name: the next Writer of the shard
// takes table parts numbered at or above its main sequence for parts a
// killed run never committed, and removes them.
func TestResumeAfterMergeKeepsTableRows(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(10)
	// Part 1: two failed scenarios (no flows); part 2: two with flows.
	first := []Row{rows[4], rows[9], rows[0], rows[1]}
	writeRows(t, dir, first, Options{MaxRows: 2, Meta: testMeta()})
	if err := Merge(dir, nil); err != nil {
		t.Fatal(err)
	}
	rerun := []Row{rows[2]}
	writeRows(t, dir, rerun, Options{MaxRows: 2, Meta: testMeta()})
	// Parts are read in name order: the rerun's before the merged one.
	if diff := cmp.Diff(wantTable(append(rerun, first...)), secondValues(t, dir, nil)); diff != "" {
		t.Errorf("flows after merge and resume (-want +got):\n%s", diff)
	}
	if d, err := Verify(dir, false, nil); err != nil || len(d) != 0 {
		t.Errorf("Verify = %v, %v; want nothing damaged", d, err)
	}
}

// TestMergeDropsUncommittedTablePart: a run killed between renaming a
// table part and its main part leaves the table part without a main part;
// its scenarios are not done and run again. Merge must not make it part
// of the merged table, or the rerun's table rows appear twice.
func TestMergeDropsUncommittedTablePart(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(10)
	writeRows(t, dir, rows[:4], Options{MaxRows: 4, Meta: testMeta()})
	// What a kill between the renames of part 2 leaves (its rows here a
	// copy of part 1's), with its manifest entry.
	copyFlowsPart(t, dir, 1, 2)
	if err := recordEntry(dir, filepath.Join("flows", "part-0of1-000002.parquet"), -1); err != nil {
		t.Fatal(err)
	}
	if err := Merge(dir, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantTable(rows[:4]), secondValues(t, dir, nil)); diff != "" {
		t.Errorf("flows after Merge (-want +got):\n%s", diff)
	}
}
