package dataset

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/vocab"
)

// testSchema has a parameter and a metric of every kind and a second table.
func testSchema() *vocab.Schema {
	return &vocab.Schema{
		Name:    "test-model",
		Version: 3,
		Params: []vocab.Param{
			{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(1), Doc: "link length"},
			{Name: "packets", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(1)},
			{Name: "cc", Kind: vocab.String, Default: vocab.S("cubic")},
			{Name: "sack", Kind: vocab.Bool, Default: vocab.B(true)},
		},
		Metrics: []vocab.Metric{
			{Name: "ber", Kind: vocab.Float, Doc: "bit error ratio"},
			{Name: "delivered", Kind: vocab.Int, Unit: vocab.Packet},
			{Name: "phase", Kind: vocab.String},
			{Name: "stalled", Kind: vocab.Bool},
		},
		Tables: []vocab.Table{{Name: "flows", Columns: []vocab.Metric{
			{Name: "flow", Kind: vocab.Int},
			{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond},
		}}},
	}
}

// testRows returns n rows; every fifth failed (null metrics), every
// seventh has a null float metric of its own and every eleventh null int,
// string and bool metrics.
func testRows(n int) []Row {
	rows := make([]Row, n)
	ccs := []string{"reno", "cubic", "bbr"}
	for i := range rows {
		id := fmt.Sprintf("%032x", uint64(i)*0x9e3779b97f4a7c15)
		r := Row{
			ID:        id,
			Replicate: i % 3,
			Seed:      uint64(i) * 0xdeadbeefcafef00d, // above 2^63 for many i
			Params:    []vocab.Value{vocab.F(float64(i) * 1e3), vocab.I(int64(i)), vocab.S(ccs[i%3]), vocab.B(i%2 == 0)},
			Status:    OK,
			WallS:     float64(i) * 1e-6,
		}
		switch {
		case i%5 == 4:
			r.Status, r.Error = Failed, fmt.Sprintf("model: scenario %d diverged", i)
		default:
			r.Metrics = []vocab.Value{vocab.F(math.Pow(10, -float64(i%12))), vocab.I(int64(i * 2)), vocab.S("steady"), vocab.B(i%3 == 0)}
			if i%7 == 6 {
				r.Metrics[0] = vocab.Value{}
			}
			if i%11 == 10 {
				r.Metrics[1], r.Metrics[2], r.Metrics[3] = vocab.Value{}, vocab.Value{}, vocab.Value{}
			}
			r.Tables = [][][]vocab.Value{{
				{vocab.I(0), vocab.F(float64(i))},
				{vocab.I(1), {}},
			}}
		}
		rows[i] = r
	}
	return rows
}

// tableValues returns the cells of tbl row by row: nil for null, else
// float64, int64, uint64, string or bool.
func tableValues(t *testing.T, tbl arrow.Table) [][]any {
	t.Helper()
	out := make([][]any, tbl.NumRows())
	for i := range out {
		out[i] = make([]any, tbl.NumCols())
	}
	for c := 0; c < int(tbl.NumCols()); c++ {
		r := 0
		for _, ch := range tbl.Column(c).Data().Chunks() {
			for i := 0; i < ch.Len(); i, r = i+1, r+1 {
				if ch.IsNull(i) {
					continue
				}
				switch a := ch.(type) {
				case *array.String:
					out[r][c] = a.Value(i)
				case *array.Int64:
					out[r][c] = a.Value(i)
				case *array.Uint64:
					out[r][c] = a.Value(i)
				case *array.Float64:
					out[r][c] = a.Value(i)
				case *array.Boolean:
					out[r][c] = a.Value(i)
				default:
					t.Fatalf("column %d has type %s", c, ch.DataType())
				}
			}
		}
	}
	return out
}

// wantValues is what rows should read back as, in tableValues' form.
func wantValues(rows []Row) [][]any {
	var out [][]any
	for _, r := range rows {
		v := []any{r.ID, r.PointID, int64(r.Replicate), r.Seed}
		for _, p := range r.Params {
			v = append(v, cell(p))
		}
		if r.Metrics == nil {
			v = append(v, nil, nil, nil, nil)
		}
		for _, m := range r.Metrics {
			v = append(v, cell(m))
		}
		out = append(out, append(v, string(r.Status), r.Error, r.WallS))
	}
	return out
}

func cell(v vocab.Value) any {
	switch v.Kind() {
	case vocab.Float:
		return v.Float()
	case vocab.Int:
		return v.Int()
	case vocab.String:
		return v.Str()
	case vocab.Bool:
		return v.Bool()
	}
	return nil
}

func testMeta() Meta {
	return Meta{SpecName: "unit-test", Spec: "name: unit-test\nmodel: test-model\n", Version: "0.0.1-test", Model: "test-model", ModelVersion: 3, Profile: "quick"}
}

func writeRows(t *testing.T, dir string, rows []Row, opts Options) *Writer {
	t.Helper()
	return writeRowsOf(t, dir, testSchema(), rows, opts)
}

// writeRowsOf is writeRows with the schema s.
func writeRowsOf(t *testing.T, dir string, s *vocab.Schema, rows []Row, opts Options) *Writer {
	t.Helper()
	w, err := NewWriter(dir, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if err := w.Append(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestWriteRead(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	rows := testRows(25)
	w := writeRows(t, dir, rows, Options{MaxRows: 10, Meta: testMeta(), Mem: mem})

	wantFiles := []string{"part-0of1-000001.parquet", "part-0of1-000002.parquet", "part-0of1-000003.parquet"}
	if diff := cmp.Diff(wantFiles, w.Files()); diff != "" {
		t.Errorf("Files() (-want +got):\n%s", diff)
	}
	tbl, err := ReadTable(dir, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if diff := cmp.Diff(wantValues(rows), tableValues(t, tbl)); diff != "" {
		t.Errorf("ReadTable values (-want +got):\n%s", diff)
	}

	var names []string
	for _, f := range tbl.Schema().Fields() {
		names = append(names, f.Name+":"+f.Type.String())
	}
	wantNames := []string{"scenario_id:utf8", "point_id:utf8", "replicate:int64", "seed:uint64",
		"distance_m:float64", "packets_pkts:int64", "cc:utf8", "sack:bool",
		"ber:float64", "delivered_pkts:int64", "phase:utf8", "stalled:bool",
		"status:utf8", "error:utf8", "wall_s:float64"}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
	f := tbl.Schema().Field(4)
	if unit, _ := f.Metadata.GetValue("unit"); unit != "m" {
		t.Errorf("distance_m unit = %q, want %q", unit, "m")
	}
	if doc, _ := f.Metadata.GetValue("doc"); doc != "link length" {
		t.Errorf("distance_m doc = %q, want %q", doc, "link length")
	}

	md, err := ReadMeta(dir)
	if err != nil {
		t.Fatal(err)
	}
	wantMeta := map[string]string{
		KeyGoVersion: runtime.Version(), KeyModel: "test-model", KeyModelVersion: "3",
		KeyProfile: "quick", KeySpec: testMeta().Spec, KeySpecName: "unit-test",
		// sha256 of the spec text, computed independently with coreutils'
		// sha256sum.
		KeySpecSHA256: "d3456add2852247ababd057c4d7b8580776b8a7c30f5aebfe689527f9f521872",
		KeyTable:      "", KeyVersion: "0.0.1-test",
		KeyModule: ReadBuild().Module, KeyRevision: ReadBuild().Revision,
	}
	if diff := cmp.Diff(wantMeta, md); diff != "" {
		t.Errorf("ReadMeta (-want +got):\n%s", diff)
	}
	kv, err := fileMeta(filepath.Join(MainDir(dir), wantFiles[0]))
	if err != nil {
		t.Fatal(err)
	}
	if !sort.SliceIsSorted(kv, func(i, j int) bool { return kv[i][0] < kv[j][0] }) {
		t.Errorf("key-value metadata is not in sorted key order: %q", kv)
	}

	done, err := ReadIDs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := done.Len(), len(rows); got != want {
		t.Errorf("ReadIDs().Len() = %d, want %d", got, want)
	}
	for _, r := range rows {
		if st, ok := done.Status(r.ID); !ok || st != r.Status {
			t.Errorf("ReadIDs().Status(%s) = %q, %v, want %q, true", r.ID, st, ok, r.Status)
		}
	}
}

func TestPartsResumeNumbering(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(12)
	writeRows(t, dir, rows[:5], Options{MaxRows: 4, Meta: testMeta()})
	// A killed run leaves a temporary file; readers skip it and the next
	// writer of the shard removes it.
	tmp := filepath.Join(dir, tmpDir, "part-0of1-000003.parquet.123.tmp")
	if err := os.WriteFile(tmp, []byte("PAR1 torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	if paths, err := Parts(dir); err != nil || len(paths) != 2 {
		t.Fatalf("Parts() = %q, %v, want 2 parts", paths, err)
	}
	w := writeRows(t, dir, rows[5:], Options{MaxRows: 4, Meta: testMeta()})
	if diff := cmp.Diff([]string{"part-0of1-000003.parquet", "part-0of1-000004.parquet"}, w.Files()); diff != "" {
		t.Errorf("second run Files() (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("leftover %s still exists (err %v)", tmp, err)
	}
	tbl, err := ReadTable(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if diff := cmp.Diff(wantValues(rows), tableValues(t, tbl)); diff != "" {
		t.Errorf("values after two runs (-want +got):\n%s", diff)
	}
}

func TestTickClosesOldPart(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	w, err := NewWriter(dir, testSchema(), Options{MaxAge: time.Minute, Meta: testMeta(), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rows := testRows(2)
	steps := []struct {
		advance time.Duration
		append  bool
		parts   int
	}{
		{0, true, 0},
		{59 * time.Second, true, 0}, // the oldest row has waited 59 s
		{time.Second, false, 1},     // 60 s: closed
		{time.Hour, false, 1},       // nothing buffered: nothing to close
	}
	for i, s := range steps {
		now = now.Add(s.advance)
		if s.append {
			if err := w.Append(&rows[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Tick(); err != nil {
			t.Fatal(err)
		}
		if got := len(w.Files()); got != s.parts {
			t.Errorf("step %d: %d parts, want %d", i, got, s.parts)
		}
	}
}

func TestAppendRejectsWrongKind(t *testing.T) {
	w, err := NewWriter(t.TempDir(), testSchema(), Options{Meta: testMeta()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tests := []struct {
		name string
		row  Row
		want string
	}{
		{"int for float param", Row{ID: "a", Params: []vocab.Value{vocab.I(1), vocab.I(1), vocab.S("x"), vocab.B(true)}}, "distance_m"},
		{"null param", Row{ID: "a", Params: []vocab.Value{vocab.F(1), {}, vocab.S("x"), vocab.B(true)}}, "packets_pkts"},
		{"short params", Row{ID: "a", Params: []vocab.Value{vocab.F(1)}}, "1 parameters"},
		{"float for bool metric", Row{ID: "a", Params: testRows(1)[0].Params,
			Metrics: []vocab.Value{vocab.F(1), vocab.I(1), vocab.S("x"), vocab.F(0)}}, "stalled"},
		{"string in a table", Row{ID: "a", Params: testRows(1)[0].Params,
			Tables: [][][]vocab.Value{{{vocab.I(1), vocab.S("fast")}}}}, "goodput_bps"},
		{"two tables", Row{ID: "a", Params: testRows(1)[0].Params, Tables: make([][][]vocab.Value, 2)}, "2 second tables"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := w.Append(&tt.row)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Append() = %v, want an error naming %q", err, tt.want)
			}
		})
	}
	if w.p.n != 0 || w.tables[0].p.n != 0 {
		t.Errorf("%d rejected rows and %d table rows were buffered, want 0", w.p.n, w.tables[0].p.n)
	}
}

// wantTable is what the flows table of rows should read back as.
func wantTable(rows []Row) [][]any {
	var out [][]any
	for _, r := range rows {
		if r.Tables == nil {
			continue
		}
		for _, vals := range r.Tables[0] {
			out = append(out, []any{r.ID, int64(r.Replicate), cell(vals[0]), cell(vals[1])})
		}
	}
	return out
}

func readValues(t *testing.T, dir string, mem memory.Allocator) [][]any {
	t.Helper()
	tbl, err := ReadTable(dir, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	return tableValues(t, tbl)
}

// secondValues reads the flows table of the dataset dir.
func secondValues(t *testing.T, dir string, mem memory.Allocator) [][]any {
	t.Helper()
	tbl, err := ReadSecond(dir, "flows", mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	return tableValues(t, tbl)
}

func TestSecondTable(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	rows := testRows(12)
	writeRows(t, dir, rows, Options{MaxRows: 5, Meta: testMeta(), Mem: mem})
	paths, err := TableParts(dir, "flows")
	if err != nil {
		t.Fatal(err)
	}
	// Main parts 1..3 hold rows 0-4, 5-9, 10-11; each has flows rows.
	if len(paths) != 3 || filepath.Base(paths[2]) != "part-0of1-000003.parquet" || filepath.Dir(paths[2]) != filepath.Join(dir, "flows") {
		t.Errorf("flows parts = %q, want parts 1 to 3 in %s", paths, filepath.Join(dir, "flows"))
	}
	if diff := cmp.Diff(wantTable(rows), secondValues(t, dir, mem)); diff != "" {
		t.Errorf("flows values (-want +got):\n%s", diff)
	}
	tbl, err := ReadSecond(dir, "flows", mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if got := tbl.Schema().Field(3).Name; got != "goodput_bps" {
		t.Errorf("column 3 = %q, want goodput_bps", got)
	}
	kv, err := fileMeta(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range kv {
		if p[0] == KeyTable && p[1] != "flows" {
			t.Errorf("table metadata = %q, want flows", p[1])
		}
	}
}

// TestUncommittedTablePart: a run killed after renaming a table part but
// before its main part leaves rows of scenarios that the main table does
// not have; the next writer removes them, since those scenarios run again.
func TestUncommittedTablePart(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(10)
	writeRows(t, dir, rows[:4], Options{MaxRows: 4, Meta: testMeta()})
	// What a kill between the two renames leaves: table part 2 without
	// main part 2 (here a copy of part 1, whose rows would then appear
	// twice).
	copyFlowsPart(t, dir, 1, 2)
	// The rerun's rows (failed scenarios) have no table rows, so nothing
	// overwrites the uncommitted part: the writer must remove it.
	rerun := []Row{rows[4], rows[9]}
	writeRows(t, dir, rerun, Options{MaxRows: 4, Meta: testMeta()})
	if diff := cmp.Diff(wantTable(rows[:4]), secondValues(t, dir, nil)); diff != "" {
		t.Errorf("flows after the rerun (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantValues(append(rows[:4:4], rerun...)), readValues(t, dir, nil)); diff != "" {
		t.Errorf("main table after the rerun (-want +got):\n%s", diff)
	}
}

func TestMerge(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	rows := testRows(23)
	writeRows(t, dir, rows, Options{MaxRows: 5, Meta: testMeta(), Mem: mem})
	before, err := ReadMeta(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Merge(dir, mem); err != nil {
		t.Fatal(err)
	}
	paths, err := Parts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{filepath.Join(dir, MainTable, "part-merged-000001.parquet")}, paths); diff != "" {
		t.Errorf("parts after Merge (-want +got):\n%s", diff)
	}
	tbl, err := ReadTable(dir, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	// Merge keeps the rows in dataset order (part by part).
	sorted := rows
	if diff := cmp.Diff(wantValues(sorted), tableValues(t, tbl)); diff != "" {
		t.Errorf("merged values (-want +got):\n%s", diff)
	}
	after, err := ReadMeta(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("metadata changed by Merge (-before +after):\n%s", diff)
	}
	if unit, _ := tbl.Schema().Field(4).Metadata.GetValue("unit"); unit != "m" {
		t.Errorf("merged distance_m unit = %q, want m", unit)
	}
	flows, err := TableParts(dir, "flows")
	if err != nil || len(flows) != 1 {
		t.Errorf("flows parts after Merge = %q, %v, want one", flows, err)
	}
	if diff := cmp.Diff(wantTable(sorted), secondValues(t, dir, mem)); diff != "" {
		t.Errorf("merged flows (-want +got):\n%s", diff)
	}
}

// copyFlowsPart copies part from of the flows table to part to: the state
// a kill between the renames of a table part and its main part leaves,
// with rows that would appear twice if the copy were read.
func copyFlowsPart(t *testing.T, dir string, from, to int) {
	t.Helper()
	flows := TableDir(dir, "flows")
	data, err := os.ReadFile(filepath.Join(flows, fmt.Sprintf("part-0of1-%06d.parquet", from)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(flows, fmt.Sprintf("part-0of1-%06d.parquet", to)), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPartShard: the shard of a main-table part is read back from the
// name partName gives it, and from no other name.
func TestPartShard(t *testing.T) {
	for _, c := range []struct {
		name string
		i, n int
		ok   bool
	}{
		{partName("0of1", 1), 0, 1, true},
		{partName("2of3", 17), 2, 3, true},
		{partName("15of16", 1234567), 15, 16, true},
		{partName("quick", 1), 0, 0, false},
		{partName(MergedShard, 2), 0, 0, false},
		{"part-00of3-000001.parquet", 0, 0, false}, // another spelling of 0of3
		{"part-3of3-000001.parquet", 0, 0, false},
		{"part-1of3.parquet", 0, 0, false}, // a points part, no sequence number
		{"part-1of3-.parquet", 0, 0, false},
		{"part-1of3-+1.parquet", 0, 0, false},
		{"part-1of3-000001.parquet.tmp", 0, 0, false},
		{"x-1of3-000001.parquet", 0, 0, false},
	} {
		i, n, ok := PartShard(c.name)
		if i != c.i || n != c.n || ok != c.ok {
			t.Errorf("PartShard(%q) = %d, %d, %v; want %d, %d, %v", c.name, i, n, ok, c.i, c.n, c.ok)
		}
	}
}
