package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// The readers a data scientist opens crosslink's tables with, none
// written here: pyarrow, polars, pandas and DuckDB for Python (installed
// by `make testdeps` into notebooks/test/.venv from the pinned
// notebooks/test/requirements.txt) and DuckDB for node.

// venvPython returns the Python of the readers' virtual environment, or
// skips the test (fails it under CI=true) when there is none.
func venvPython(t *testing.T) string {
	t.Helper()
	py := os.Getenv("CROSSLINK_PYTHON")
	if py == "" {
		py = filepath.Join("notebooks", "test", ".venv", "bin", "python")
	}
	err := exec.Command(py, "-c", "import pyarrow, polars, pandas, duckdb").Run()
	if err != nil {
		msg := fmt.Sprintf("needs Python with pyarrow, polars, pandas and duckdb (make testdeps makes notebooks/test/.venv from notebooks/test/requirements.txt; or set CROSSLINK_PYTHON): %s: %v", py, err)
		missingTool(t, msg)
	}
	return py
}

// nodeDuckDB returns node, or skips (fails under CI=true) without it or
// @duckdb/node-api.
func nodeDuckDB(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join("notebooks", "test", "node_modules", "@duckdb", "node-api"))
	}
	if err != nil {
		msg := "needs node and @duckdb/node-api (make testdeps): " + err.Error()
		missingTool(t, msg)
	}
	return node
}

// readerResult is one line of read_tables.py or read-tables.mjs.
type readerResult struct {
	Dir     string             `json:"dir"`
	Reader  string             `json:"reader"`
	Error   string             `json:"error"`
	Rows    int64              `json:"rows"`
	Columns []string           `json:"columns"`
	Types   map[string]string  `json:"types"`
	Nulls   map[string]int64   `json:"nulls"`
	NaNs    map[string]int64   `json:"nans"`
	Sums    map[string]float64 `json:"sums"`
}

func runReaders(t *testing.T, name string, args ...string) []readerResult {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	var rs []readerResult
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r readerResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("reader output %q: %v", line, err)
		}
		rs = append(rs, r)
	}
	return rs
}

// expected is what crosslink's own reader finds in a table.
type expected struct {
	hive    []string // partition keys a hive-aware reader adds from the path
	rows    int64
	columns []string
	types   map[string]string
	nulls   map[string]int64
	nans    map[string]int64
	sums    map[string]float64
}

func expect(t *testing.T, tbl arrow.Table) expected {
	t.Helper()
	e := expected{rows: tbl.NumRows(), types: map[string]string{}, nulls: map[string]int64{}, nans: map[string]int64{}, sums: map[string]float64{}}
	for i, f := range tbl.Schema().Fields() {
		e.columns = append(e.columns, f.Name)
		var n int64
		for _, c := range tbl.Column(i).Data().Chunks() {
			n += int64(c.NullN())
			switch a := c.(type) {
			case *array.Float64:
				e.types[f.Name] = "float"
				for k := 0; k < a.Len(); k++ {
					if a.IsNull(k) {
						continue
					}
					if v := a.Value(k); math.IsNaN(v) {
						e.nans[f.Name]++
					} else {
						e.sums[f.Name] += v
					}
				}
			case *array.Int64:
				e.types[f.Name] = "int"
				for k := 0; k < a.Len(); k++ {
					if !a.IsNull(k) {
						e.sums[f.Name] += float64(a.Value(k))
					}
				}
			case *array.Uint64:
				e.types[f.Name] = "int"
				for k := 0; k < a.Len(); k++ {
					e.sums[f.Name] += float64(a.Value(k))
				}
			case *array.String:
				e.types[f.Name] = "string"
			case *array.Boolean:
				e.types[f.Name] = "bool"
			}
		}
		e.nulls[f.Name] = n
	}
	return e
}

// compare checks one reader's view of a table against crosslink's.
func (e expected) compare(r readerResult) []string {
	var errs []string
	if r.Error != "" {
		return []string{r.Error}
	}
	if r.Rows != e.rows {
		errs = append(errs, fmt.Sprintf("%d rows, want %d", r.Rows, e.rows))
	}
	// The partition keys are in the directory names only: the readers that
	// read Hive partitions without being asked (all but pyarrow.dataset
	// and a polars glob, which need partitioning="hive" and
	// hive_partitioning=True) add them, to second tables too.
	var got, want []string
	for _, c := range r.Columns {
		if !slices.Contains(e.hive, c) {
			got = append(got, c)
		}
	}
	for _, c := range e.columns {
		if !slices.Contains(e.hive, c) {
			want = append(want, c)
		}
	}
	hiveAware := r.Reader != "pyarrow.dataset" && r.Reader != "polars-glob"
	for _, k := range e.hive {
		if hiveAware && !slices.Contains(r.Columns, k) {
			errs = append(errs, fmt.Sprintf("no partition column %s", k))
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		errs = append(errs, fmt.Sprintf("columns %v, want %v", r.Columns, e.columns))
	}
	if r.Reader == "duckdb-node" {
		for c, n := range e.nulls {
			if _, ok := r.Nulls[c]; !ok && slices.Contains(e.hive, c) {
				continue
			}
			if r.Nulls[c] != n {
				errs = append(errs, fmt.Sprintf("%s: %d NULLs, want %d", c, r.Nulls[c], n))
			}
		}
		return errs
	}
	for c, k := range e.types {
		if _, ok := r.Types[c]; !ok && slices.Contains(e.hive, c) {
			continue
		}
		if r.Reader == "pandas" && k == "int" && r.Types[c] == "float" && e.nulls[c] > 0 {
			continue // numpy integers hold no NULL: pandas reads the column as float, NULL as NaN
		}
		if r.Types[c] != k {
			errs = append(errs, fmt.Sprintf("%s: type %s, want %s", c, r.Types[c], k))
		}
	}
	for c, n := range e.nulls {
		if _, ok := r.Nulls[c]; !ok && slices.Contains(e.hive, c) {
			continue
		}
		got, want := r.Nulls[c], n
		if r.Reader == "pandas" && (e.types[c] == "float" || r.Types[c] == "float") {
			// pandas has no NULL in a float column: NULL reads as NaN.
			got, want = r.Nulls[c]+r.NaNs[c], n+e.nans[c]
		}
		if got != want {
			errs = append(errs, fmt.Sprintf("%s: %d NULLs, want %d", c, got, want))
		}
	}
	for c, n := range e.nans {
		if r.Reader != "pandas" && r.NaNs[c] != n {
			errs = append(errs, fmt.Sprintf("%s: %d NaNs, want %d", c, r.NaNs[c], n))
		}
	}
	for c, s := range e.sums {
		if _, ok := r.Sums[c]; !ok && slices.Contains(e.hive, c) {
			continue
		}
		if g := r.Sums[c]; math.Abs(g-s) > 1e-9*math.Max(1, math.Abs(s)) {
			errs = append(errs, fmt.Sprintf("%s: sum %g, want %g", c, g, s))
		}
	}
	return errs
}

const readerSpec = `name: readers
model: tcp-compete
seed: 1
replicates: %d
params:
  duration: 1s
  flows: 2
grid:
  ccas: ["cubic", "newreno,bbr"]
  loss: [0%%, 0.1%%]
`

// TestReaders writes datasets with crosslink (a main table with a second
// table, a hive-partitioned one, one with failed rows, one resumed from an
// earlier run) and reads every table with each reader: row count, column
// names and types, NULLs and NaNs per column, and the sum of every numeric
// column must equal what crosslink's own reader finds.
func TestReaders(t *testing.T) {
	py := venvPython(t)
	node := nodeDuckDB(t)
	root := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(root, name+".yaml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(args ...string) {
		t.Helper()
		if code, _, stderr := crosslink(t, args...); code != exitOK && code != exitFailed {
			t.Fatalf("crosslink %q: exit %d: %s", args, code, stderr)
		}
	}
	spec := write("readers", fmt.Sprintf(readerSpec, 2))
	run("run", "-q", "-o", filepath.Join(root, "plain"), spec)
	run("run", "-q", "-o", filepath.Join(root, "partitioned"), "--partition-by", "ccas", spec)
	// Too few simulated events for the longer runs: timeout rows, metrics NULL.
	run("run", "-q", "-o", filepath.Join(root, "failed"), "--max-events", "20000", spec)
	run("run", "-q", "-o", filepath.Join(root, "resumed"), write("r1", fmt.Sprintf(readerSpec, 1)))
	run("run", "-q", "-o", filepath.Join(root, "resumed"), spec)

	type table struct{ name, dataset, table string }
	var tables []table
	for _, ds := range []string{"plain", "partitioned", "failed", "resumed"} {
		tables = append(tables, table{ds, filepath.Join(root, ds, "readers"), ""})
		if _, err := os.Stat(filepath.Join(root, ds, "readers", "flows")); err == nil {
			tables = append(tables, table{ds + "/flows", filepath.Join(root, ds, "readers"), "flows"})
		}
	}
	want := map[string]expected{}
	var dirs []string
	for _, tb := range tables {
		var tbl arrow.Table
		var err error
		dir := dataset.MainDir(tb.dataset)
		if tb.table == "" {
			tbl, err = dataset.ReadTable(tb.dataset, nil)
		} else {
			tbl, err = dataset.ReadSecond(tb.dataset, tb.table, nil)
			dir = dataset.TableDir(tb.dataset, tb.table)
		}
		if err != nil {
			t.Fatalf("%s: %v", tb.name, err)
		}
		e := expect(t, tbl)
		e.hive, _ = dataset.PartitionKeys(tb.dataset)
		want[dir] = e
		tbl.Release()
		dirs = append(dirs, dir)
	}
	if e := want[dataset.MainDir(filepath.Join(root, "failed", "readers"))]; e.nulls["status"] != 0 || e.nulls["goodput_bps"] == 0 {
		t.Errorf("the failed dataset has no failed rows (NULL metrics): %v", e.nulls)
	}
	results := runReaders(t, py, append([]string{filepath.Join("notebooks", "test", "read_tables.py")}, dirs...)...)
	results = append(results, runReaders(t, node, append([]string{filepath.Join("notebooks", "test", "read-tables.mjs")}, dirs...)...)...)
	name := map[string]string{}
	for i, tb := range tables {
		name[dirs[i]] = tb.name
	}
	matrix := map[string]map[string]string{}
	var readers []string
	for _, r := range results {
		if matrix[r.Reader] == nil {
			matrix[r.Reader] = map[string]string{}
			readers = append(readers, r.Reader)
		}
		errs := want[r.Dir].compare(r)
		cell := "ok"
		if len(errs) > 0 {
			cell = "FAIL"
			t.Errorf("%s reads %s (%s): %s", r.Reader, name[r.Dir], r.Dir, strings.Join(errs, "; "))
		}
		matrix[r.Reader][name[r.Dir]] = cell
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s", "reader")
	for _, tb := range tables {
		fmt.Fprintf(&b, " %-18s", tb.name)
	}
	for _, rd := range readers {
		fmt.Fprintf(&b, "\n%-16s", rd)
		for _, tb := range tables {
			fmt.Fprintf(&b, " %-18s", matrix[rd][tb.name])
		}
	}
	t.Logf("reader matrix (rows %v):\n%s", func() []int64 {
		var n []int64
		for _, d := range dirs {
			n = append(n, want[d].rows)
		}
		return n
	}(), b.String())
}

const mergeKillEnv = "CROSSLINK_MERGE_KILL_DIR"

// TestMergeKillChild merges the dataset named by the environment; it runs
// only as the child of TestMergeKill.
func TestMergeKillChild(t *testing.T) {
	dir := os.Getenv(mergeKillEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestMergeKill")
	}
	fmt.Println("merging") // the parent times its kill from here
	if err := sweep.Merge(dir); err != nil {
		t.Fatal(err)
	}
}

// startMerge starts a merge child on dir and returns once it is about to
// merge.
func startMerge(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestMergeKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), mergeKillEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, len("merging\n"))
	if _, err := io.ReadFull(out, buf); err != nil {
		t.Fatalf("merge child: %v", err)
	}
	go io.Copy(io.Discard, out)
	return cmd
}

// TestMergeKill kills `merge` with SIGKILL at 20 random moments, each on a
// fresh copy of a dataset of 16 parts, and reads the killed merge's
// dataset with polars and DuckDB (Python and node): each must find exactly
// the scenario count, no part read twice and none missing, and `status`
// must call the dataset complete and undamaged.
func TestMergeKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 child processes")
	}
	py := venvPython(t)
	node := nodeDuckDB(t)
	root := t.TempDir()
	tmpl := filepath.Join(root, "tmpl")
	var bers []string
	for i := range 1000 {
		bers = append(bers, fmt.Sprintf("%.6g", 1e-15*math.Pow(1.02, float64(i))))
	}
	// 16 shards of one spec: 16 parts.
	const parts = 16
	spec := fmt.Sprintf("name: bers\nmodel: ber-per\nseed: 1\nreplicates: 4\ngrid:\n  ber: [%s]\n  mtu: [64B, 576B, 1500B, 4000B, 9000B]\n",
		strings.Join(bers, ", "))
	p := filepath.Join(root, "bers.yaml")
	if err := os.WriteFile(p, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range parts {
		if code, _, stderr := crosslink(t, "run", "-q", "-o", tmpl, "--shard", fmt.Sprintf("%d/%d", i, parts), p); code != exitOK {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
	}
	src := filepath.Join(tmpl, "bers")
	total := int64(len(bers) * 5 * 4)
	if ps, _ := dataset.Parts(src); len(ps) != parts {
		t.Fatalf("template has %d parts, want %d", len(ps), parts)
	}
	// How long an uninterrupted merge takes here, to spread the kills over.
	probe := filepath.Join(root, "probe")
	cp(t, src, probe)
	cmd := startMerge(t, probe)
	start := time.Now()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("merge: %v", err)
	}
	full := time.Since(start)
	rng := rand.New(rand.NewPCG(17, 3))
	var dirs []string
	outcome := map[string]int{}
	for k := range 20 {
		dir := filepath.Join(root, fmt.Sprintf("k%02d", k))
		cp(t, src, dir)
		cmd := startMerge(t, dir)
		time.Sleep(time.Duration(rng.Int64N(int64(full))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		ps, _ := dataset.Parts(dir)
		state := fmt.Sprintf("%d parts", len(ps))
		if len(ps) == 1 {
			state = "merged"
		} else if len(ps) == parts {
			state = "old"
		}
		if _, err := os.Stat(filepath.Join(dir, ".merge")); err == nil {
			state += ", merge half done"
		}
		outcome[state]++
		dirs = append(dirs, dataset.MainDir(dir))
		code, stdout, stderr := crosslink(t, "status", dir)
		if code != exitOK || !strings.Contains(stdout, fmt.Sprintf("%d scenarios: %d done, 0 failed, 0 missing: complete", total, total)) {
			t.Errorf("kill %d (%s): status exit %d: %s%s", k, state, code, stdout, stderr)
		}
	}
	rs := runReaders(t, py, append([]string{filepath.Join("notebooks", "test", "read_tables.py"), "--count"}, dirs...)...)
	rs = append(rs, runReaders(t, node, append([]string{filepath.Join("notebooks", "test", "read-tables.mjs")}, dirs...)...)...)
	bad := 0
	for _, r := range rs {
		if r.Error != "" || r.Rows != total {
			bad++
			t.Errorf("%s reads %s: %d rows, want %d %s", r.Reader, r.Dir, r.Rows, total, r.Error)
		}
	}
	t.Logf("20 SIGKILLs during merge (uninterrupted merge %v): states %v; %d reads (polars, DuckDB Python, DuckDB node) of %d rows each, %d wrong", full.Round(time.Millisecond), outcome, len(rs), total, bad)
}

// cp copies the directory tree src to dst.
func cp(t *testing.T, src, dst string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
}
