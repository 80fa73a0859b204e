package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testPoints returns the points of testRows(n), one per row.
func testPoints(n int) []Point {
	pts := make([]Point, n)
	for i, r := range testRows(n) {
		pts[i] = Point{ID: fmt.Sprintf("p%02d", i), Params: r.Params, Metric: "ber", Needed: 3, OK: 3, Mean: 1, CI95Rel: 0.01, Met: true}
	}
	return pts
}

// writeSplit writes the points of shard i of n at the base settings:
// every n-th point from i.
func writeSplit(t *testing.T, dir string, pts []Point, i, n int) error {
	t.Helper()
	return writeSplitAt(t, dir, "", pts, i, n)
}

// started orders the runs of the points tests: each run starts a second
// after the one before, however coarse the file system's times.
var started atomic.Int64

// writeSplitAt is writeSplit at profile.
func writeSplitAt(t *testing.T, dir, profile string, pts []Point, i, n int) error {
	t.Helper()
	var mine []Point
	for k := i; k < len(pts); k += n {
		mine = append(mine, pts[k])
	}
	meta := testMeta()
	meta.Profile = profile
	meta.Started = time.Unix(1.8e9+started.Add(1), 0)
	return WritePoints(dir, testSchema(), mine, Options{Shard: fmt.Sprintf("%dof%d", i, n), Meta: meta})
}

// pointIDs reads the point_id column of the points table, sorted.
func pointIDs(t *testing.T, dir string) []string {
	t.Helper()
	tbl, err := ReadPoints(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	var ids []string
	for _, row := range tableValues(t, tbl) {
		ids = append(ids, row[0].(string))
	}
	slices.Sort(ids)
	return ids
}

// TestPointsOfAnotherSplit: a split's parts replace another split's only
// once all of them are written, so the table never lacks a point, and
// holds each point once when a split is complete.
func TestPointsOfAnotherSplit(t *testing.T) {
	pts := testPoints(8)
	var all []string
	for _, p := range pts {
		all = append(all, p.ID)
	}
	dir := t.TempDir()
	step := func(i, n int, wantRows int) {
		t.Helper()
		if err := writeSplit(t, dir, pts, i, n); err != nil {
			t.Fatal(err)
		}
		ids := pointIDs(t, dir)
		if len(ids) != wantRows || !slices.Equal(slices.Compact(slices.Clone(ids)), all) {
			t.Errorf("after shard %d/%d: %d rows %v, want %d rows covering all 8 points", i, n, len(ids), ids, wantRows)
		}
		// The state status reports: the split just written, complete
		// exactly when each point has one row.
		if st, err := PointsState(dir, ""); err != nil || st.N != n || st.Complete() != (wantRows == 8) {
			t.Errorf("after shard %d/%d: PointsState %+v (%v), want split %d, complete %t", i, n, st, err, n, wantRows == 8)
		}
	}
	if st, err := PointsState(dir, ""); err != nil || st.N != 0 || st.Complete() {
		t.Errorf("no points table: PointsState %+v (%v), want none", st, err)
	}
	step(0, 1, 8)   // a whole run
	step(0, 3, 8+3) // an array of 3, one task done: both splits
	step(1, 3, 8+6)
	step(2, 3, 8)   // the split is complete: the whole run's part goes
	step(1, 2, 8+4) // another array, its second task first
	step(0, 2, 8)   // complete
	step(0, 1, 8)   // a whole run again: complete at once
	if ps, _ := os.ReadDir(PointsDir(dir)); len(ps) != 1 {
		t.Errorf("points table holds %d files, want the whole run's one", len(ps))
	}
}

// TestPointsWritersTakeTurns: the tasks of two arrays split different
// ways finish at the same moment. Without turns, one removed the other's
// part between its rename and its manifest entry's, which failed the
// write and left a part the manifest does not list.
func TestPointsWritersTakeTurns(t *testing.T) {
	pts := testPoints(6)
	for round := range 20 {
		dir := t.TempDir()
		for i := range 2 { // a complete split of 2 already there
			if err := writeSplit(t, dir, pts, i, 2); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		errs := make([]error, 5)
		for k, s := range [][2]int{{0, 3}, {1, 3}, {2, 3}, {0, 2}, {1, 2}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[k] = writeSplit(t, dir, pts, s[0], s[1])
			}()
		}
		wg.Wait()
		for k, err := range errs {
			if err != nil {
				t.Fatalf("round %d: writer %d: %v", round, k, err)
			}
		}
		strays, err := Strays(dir)
		if err != nil || len(strays) > 0 {
			t.Fatalf("round %d: strays %v (%v)", round, strays, err)
		}
		damage, err := Verify(dir, false, nil)
		if err != nil || len(damage) > 0 {
			t.Fatalf("round %d: damage %v (%v)", round, damage, err)
		}
		// One split or both (one removed its parts before the other
		// split's last task wrote again): never a point missing.
		if ids := slices.Compact(pointIDs(t, dir)); len(ids) != 6 {
			t.Errorf("round %d: points %v, want all 6", round, ids)
		}
		if _, err := os.Stat(filepath.Join(dir, pointsLock)); err != nil {
			t.Errorf("round %d: %v", round, err)
		}
	}
}

// TestPointsOfEachProfile: the runs of two profiles of one spec (a quick
// run for figures, the base run on a cluster) keep their own parts: one
// completing its split removes none of the other's, and each profile's
// state counts its own parts. A part of a profile's run named the former
// way (without the profile) goes when that profile's split is complete.
func TestPointsOfEachProfile(t *testing.T) {
	pts := testPoints(6)
	dir := t.TempDir()
	for i := range 3 {
		if err := writeSplitAt(t, dir, "", pts, i, 3); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeSplitAt(t, dir, "quick", pts[:2], 0, 1); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		profile string
		want    PointsSplit
	}{{"", PointsSplit{N: 3}}, {"quick", PointsSplit{N: 1}}, {"full", PointsSplit{}}} {
		if st, err := PointsState(dir, tt.profile); err != nil || !slices.Equal(st.Missing, tt.want.Missing) || st.N != tt.want.N || st.Others != tt.want.Others {
			t.Errorf("profile %q: PointsState %+v (%v), want %+v", tt.profile, st, err, tt.want)
		}
	}
	if ids := pointIDs(t, dir); len(ids) != 6+2 {
		t.Errorf("points table: %d rows, want 6 base and 2 quick", len(ids))
	}

	// A part a quick run wrote under the base name, as before profiles
	// were in the names: counted as quick's, not as base's, and removed
	// when quick's split is complete.
	legacy := filepath.Join(PointsDir(dir), "part-0of1.parquet")
	if err := os.Rename(filepath.Join(PointsDir(dir), "part-quick-0of1.parquet"), legacy); err != nil {
		t.Fatal(err)
	}
	if err := recordEntry(dir, filepath.Join(PointsTable, "part-0of1.parquet"), -1); err != nil {
		t.Fatal(err)
	}
	dropEntry(dir, filepath.Join(PointsTable, "part-quick-0of1.parquet"))
	// Both base's status and quick's count it among the other parts.
	if st, _ := PointsState(dir, ""); st.N != 3 || st.Others != 1 || len(st.Missing) != 0 {
		t.Errorf("base with quick's former part: %+v, want base's split of 3 and 1 other part", st)
	}
	if st, _ := PointsState(dir, "quick"); st.N != 1 || st.Others != 1 || !slices.Equal(st.Missing, []int{0}) {
		t.Errorf("quick with only its former part: %+v, want {N:1 Missing:[0] Others:1}", st)
	}
	if err := writeSplitAt(t, dir, "quick", pts[:2], 0, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(legacy); !os.IsNotExist(err) {
		t.Errorf("quick's former part is still there (%v)", err)
	}
	if st, _ := PointsState(dir, "quick"); !st.Complete() {
		t.Errorf("quick rewritten: %+v, want complete", st)
	}
	if st, _ := PointsState(dir, ""); !st.Complete() {
		t.Errorf("base once quick's former part went: %+v, want complete", st)
	}
	if damage, err := Verify(dir, false, nil); err != nil || len(damage) > 0 {
		t.Errorf("damage %v (%v)", damage, err)
	}
}

// TestPointsLatestByRunStart: the latest split is the one whose run
// started last, whatever the files' times say (a copy, or a merge,
// reorders those); and names WritePoints does not give are left out.
func TestPointsLatestByRunStart(t *testing.T) {
	pts := testPoints(6)
	dir := t.TempDir()
	if err := writeSplit(t, dir, pts, 0, 1); err != nil {
		t.Fatal(err)
	}
	if err := writeSplit(t, dir, pts, 0, 3); err != nil {
		t.Fatal(err)
	}
	// The whole run's file made the newest.
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(PointsDir(dir), "part-0of1.parquet"), future, future); err != nil {
		t.Fatal(err)
	}
	// Files of other names: Verify reports them; they count for nothing.
	for _, n := range []string{"part-00of3.parquet", "part-+1of3.parquet", "part-0of1-bak.parquet", "part-3of3.parquet"} {
		if err := os.WriteFile(filepath.Join(PointsDir(dir), n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := PointsState(dir, "")
	if err != nil || st.N != 3 || !slices.Equal(st.Missing, []int{1, 2}) || st.Others != 1 {
		t.Errorf("PointsState %+v (%v), want the split of 3 started last, shards 1 and 2 missing, 1 other part", st, err)
	}
}

// TestParseShardInfix: the infixes pointsPartName writes parse back to
// their shard, and no other spelling of a shard does, so that one shard
// has one part name.
func TestParseShardInfix(t *testing.T) {
	for _, c := range []struct {
		in   string
		i, n int
		ok   bool
	}{
		{"0of1", 0, 1, true},
		{"2of3", 2, 3, true},
		{"15of16", 15, 16, true},
		{"3of3", 0, 0, false},  // i must be below n
		{"0of0", 0, 0, false},  // no split has no shard
		{"00of3", 0, 0, false}, // leading zero: another spelling of 0of3
		{"+1of3", 0, 0, false},
		{"1of+3", 0, 0, false},
		{"-1of3", 0, 0, false},
		{"1of", 0, 0, false},
		{"of3", 0, 0, false},
		{"1-3", 0, 0, false},
		{"quick", 0, 0, false},
	} {
		i, n, ok := parseShardInfix(c.in)
		if i != c.i || n != c.n || ok != c.ok {
			t.Errorf("parseShardInfix(%q) = %d, %d, %v; want %d, %d, %v", c.in, i, n, ok, c.i, c.n, c.ok)
		}
	}
}
