package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// notebookQueries returns the SQL of the cells of notebooks/explore.ipynb
// tagged duckdb-sql: every triple-quoted string in them, {DATA} and {FIG6}
// replaced by the given dataset directories.
func notebookQueries(t *testing.T, data, fig6 string) []string {
	t.Helper()
	b, err := os.ReadFile("notebooks/explore.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type     string   `json:"cell_type"`
			Source   []string `json:"source"`
			Metadata struct {
				Tags []string `json:"tags"`
			} `json:"metadata"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("explore.ipynb: %v", err)
	}
	str := regexp.MustCompile(`(?s)f?"""(.*?)"""`)
	var qs []string
	for _, c := range nb.Cells {
		tagged := false
		for _, tag := range c.Metadata.Tags {
			tagged = tagged || tag == "duckdb-sql"
		}
		if c.Type != "code" || !tagged {
			continue
		}
		for _, m := range str.FindAllStringSubmatch(strings.Join(c.Source, ""), -1) {
			q := strings.NewReplacer("{DATA}", data, "{FIG6}", fig6).Replace(m[1])
			if strings.ContainsAny(q, "{}") {
				t.Fatalf("query has a placeholder the test does not fill:\n%s", q)
			}
			qs = append(qs, q)
		}
	}
	return qs
}

// TestNotebookQueries runs every DuckDB query of the notebook with DuckDB
// itself (the npm package @duckdb/node-api, a reader nobody here wrote)
// against datasets crosslink writes from notebooks/explore.yaml and
// specs/rc13-fig6.yaml, and checks what they return. The notebook's
// Python cells are not run here (no pyarrow or polars on this machine).
func TestNotebookQueries(t *testing.T) {
	node, err := exec.LookPath("node")
	mod := filepath.Join("notebooks", "test", "node_modules", "@duckdb", "node-api")
	if err == nil {
		_, err = os.Stat(mod)
	}
	if err != nil {
		msg := "needs node and @duckdb/node-api: run (cd notebooks/test && npm ci): " + err.Error()
		missingTool(t, msg)
	}
	out := t.TempDir()
	for _, a := range [][]string{
		{"run", "-q", "-o", out, "notebooks/explore.yaml"},
		{"run", "-q", "-p", "quick", "-o", out, "specs/rc13-fig6.yaml"},
	} {
		if code, _, stderr := crosslink(t, a...); code != exitOK {
			t.Fatalf("crosslink %q: exit %d: %s", a, code, stderr)
		}
	}
	qs := notebookQueries(t, filepath.Join(out, "explore", "scenarios"), filepath.Join(out, "rc13-fig6", "scenarios"))
	if len(qs) != 3 {
		t.Fatalf("found %d DuckDB queries in the notebook, want 3 (status, confidence intervals, Fig. 6)", len(qs))
	}
	checkTQuantiles(t, qs[1])
	qfile := filepath.Join(t.TempDir(), "queries.json")
	b, _ := json.Marshal(qs)
	if err := os.WriteFile(qfile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join("notebooks", "test", "run-queries.mjs"), qfile)
	res, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("node run-queries.mjs: %v\n%s", err, stderr)
	}
	type result struct {
		Columns []string
		Rows    int
		First   map[string]any
	}
	var rs []result
	for _, line := range strings.Split(strings.TrimSpace(string(res)), "\n") {
		var r result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("node output %q: %v", line, err)
		}
		rs = append(rs, r)
	}
	if len(rs) != len(qs) {
		t.Fatalf("%d results for %d queries", len(rs), len(qs))
	}
	num := func(v any) float64 {
		switch x := v.(type) {
		case float64:
			return x
		case string: // DuckDB's BIGINT comes back as a string in JSON
			f, _ := strconv.ParseFloat(x, 64)
			return f
		}
		return math.NaN()
	}
	// explore.yaml: 3 delays x 2 controllers x 8 replicates, every one ok.
	if r := rs[0]; r.Rows != 1 || r.First["status"] != "ok" || num(r.First["scenarios"]) != 48 {
		t.Errorf("status query: %d rows, first %v; want one row, ok, 48 scenarios", r.Rows, r.First)
	}
	// One row per point, each the mean of 8 replicates inside its interval.
	if r := rs[1]; r.Rows != 6 {
		t.Errorf("confidence-interval query: %d rows, want 6 points", r.Rows)
	} else {
		f := r.First
		lo, mean, hi := num(f["ci95_lo_mbps"]), num(f["mean_mbps"]), num(f["ci95_hi_mbps"])
		if num(f["n"]) != 8 || !(lo < mean && mean < hi) || mean <= 0 || mean > 10 {
			t.Errorf("confidence-interval query first row %v: want n 8 and 0 < lo < mean < hi, mean under the 10 Mbit/s link", f)
		}
	}
	// rc13-fig6 at quick: 81 distances x 2 rates x 2 detections; BER
	// underflows to 0 at the longest distances for some curves.
	if r := rs[2]; r.Rows < 100 || r.Rows > 324 {
		t.Errorf("Fig. 6 query: %d rows, want between 100 and 324", r.Rows)
	}
}

// checkTQuantiles compares the t quantiles the notebook's query lists
// with gonum's Student t distribution: the printed three decimals must be
// t(0.975, df) rounded.
func checkTQuantiles(t *testing.T, q string) {
	t.Helper()
	pairs := regexp.MustCompile(`\((\d+), (\d+\.\d+)\)`).FindAllStringSubmatch(q, -1)
	if len(pairs) != 30 {
		t.Fatalf("found %d t quantiles in the query, want df 1..30", len(pairs))
	}
	for _, p := range pairs {
		df, _ := strconv.Atoi(p[1])
		got, _ := strconv.ParseFloat(p[2], 64)
		want := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
		if math.Abs(got-want) > 0.0005 {
			t.Errorf("t(0.975, %d) = %g in the notebook, want %.3f", df, got, want)
		}
	}
}

// TestNotebookRuns executes notebooks/explore.ipynb top to bottom with
// nbclient (jupyter-execute, in the readers' virtual environment) against
// the datasets its first cell names, written by crosslink into a temporary
// output root, and expects every cell to run without an error and both
// figures to be drawn.
func TestNotebookRuns(t *testing.T) {
	py := venvPython(t)
	exe, err := filepath.Abs(filepath.Join(filepath.Dir(py), "jupyter-execute"))
	if err == nil {
		_, err = os.Stat(exe)
	}
	if err != nil {
		msg := "needs nbclient's jupyter-execute beside " + py + " (make testdeps): " + err.Error()
		missingTool(t, msg)
	}
	out := t.TempDir()
	for _, a := range [][]string{
		{"run", "-q", "-o", out, "notebooks/explore.yaml"},
		{"run", "-q", "-o", out, "notebooks/explore-flows.yaml"},
		{"run", "-q", "-p", "quick", "-o", out, "specs/rc13-fig6.yaml"},
	} {
		if code, _, stderr := crosslink(t, a...); code != exitOK {
			t.Fatalf("crosslink %q: exit %d: %s", a, code, stderr)
		}
	}
	executed := filepath.Join(out, "explore.out.ipynb")
	cmd := exec.Command(exe, "explore.ipynb", "--output", executed)
	cmd.Dir = "notebooks"
	cmd.Env = append(os.Environ(), "CROSSLINK_OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jupyter-execute explore.ipynb: %v\n%s", err, b)
	}
	b, err := os.ReadFile(executed)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type    string `json:"cell_type"`
			Outputs []struct {
				Type string         `json:"output_type"`
				Data map[string]any `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatal(err)
	}
	code, errs, images := 0, 0, 0
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		code++
		for _, o := range c.Outputs {
			if o.Type == "error" {
				errs++
			}
			if _, ok := o.Data["image/png"]; ok {
				images++
			}
		}
	}
	if errs != 0 || images < 2 {
		t.Errorf("executed notebook: %d code cells, %d errors, %d figures; want no error and 2 figures", code, errs, images)
	}
	t.Logf("explore.ipynb: %d code cells run by nbclient, %d errors, %d figures", code, errs, images)
}
