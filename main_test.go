package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/cli"
	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/internal/golden"
	"github.com/crosslink-sim/crosslink/plots"
	"github.com/crosslink-sim/crosslink/plots/report"
)

// The exit codes of cli.Run.
const (
	exitOK     = cli.ExitOK
	exitFailed = cli.ExitFailed
	exitUsage  = cli.ExitUsage
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// crosslink runs the command in-process and returns its exit code and
// output streams.
func crosslink(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Run(context.Background(), args, &cli.Env{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// crosslinkIn is crosslink with stdin as the standard input.
func crosslinkIn(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Run(context.Background(), args, &cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// missingTool ends a test that needs a tool this machine lacks (msg says
// which and how to get it): a failure on CI (CI=true), where .ci/run
// provides every one, so that nothing passes there by skipping; a skip
// elsewhere.
func missingTool(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// goldenFile compares got with the golden file at path (relative to the
// module root), or rewrites it with -update.
func goldenFile(t *testing.T, path, got string) {
	t.Helper()
	golden.Check(t, path, []byte(got), *update)
}

// TestBadSpecs runs every malformed spec of the spec package's corpus
// through `crosslink run` against the real models: each must exit 2, print
// every problem as file:line:col: message, and write nothing.
func TestBadSpecs(t *testing.T) {
	files, err := filepath.Glob("sweep/spec/testdata/bad/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("only %d malformed specs, want at least 20", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			out := t.TempDir()
			code, stdout, stderr := crosslink(t, "run", "--quiet", "--out", out, f)
			if code != exitUsage {
				t.Errorf("crosslink run %s: exit %d, want %d\nstderr:\n%s", f, code, exitUsage, stderr)
			}
			if stdout != "" {
				t.Errorf("crosslink run %s: stdout %q, want nothing", f, stdout)
			}
			for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if !strings.HasPrefix(line, f+":") {
					t.Errorf("message %q does not start with %s:line:col", line, f)
				}
			}
			goldenFile(t, "testdata/bad-specs/"+name+".stderr", stderr)
			if entries, _ := os.ReadDir(out); len(entries) != 0 {
				t.Errorf("crosslink run %s wrote %d entries into the output directory, want none", f, len(entries))
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"run"}, "requires at least 1 arg"},
		{[]string{"run", "--workerz", "2", "specs/rc13-tab2.yaml"}, "unknown flag: --workerz"},
		{[]string{"describe", "fso-bre"}, `no model "fso-bre"; did you mean "fso-ber"?`},
		{[]string{"run", "--profile", "quik", "specs/rc13-fig6.yaml"}, `no profile "quik"; did you mean "quick"?`},
		{[]string{"run", "no/such/spec.yaml"}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := crosslink(t, tt.args...)
			if code != exitUsage {
				t.Errorf("crosslink %q: exit %d, want %d (stderr %q)", tt.args, code, exitUsage, stderr)
			}
			if !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("crosslink %q: stderr %q, want it to contain %q", tt.args, stderr, tt.wantErr)
			}
		})
	}
}

func TestModelsAndDescribe(t *testing.T) {
	code, stdout, _ := crosslink(t, "models")
	if code != exitOK {
		t.Fatalf("crosslink models: exit %d", code)
	}
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	// Not a golden file: the list grows with every model.
	for _, name := range reg.Names() {
		if !strings.Contains(stdout, "\n"+name+" ") {
			t.Errorf("crosslink models does not list %s:\n%s", name, stdout)
		}
	}
	for _, m := range []string{"fso-ber", "ber-per"} {
		code, stdout, _ := crosslink(t, "describe", m)
		if code != exitOK {
			t.Fatalf("crosslink describe %s: exit %d", m, code)
		}
		goldenFile(t, "testdata/describe-"+m+".stdout", stdout)
	}
}

// TestRunResumeExpand runs a spec, reruns it (everything is skipped),
// and checks expand and dry-run agree on the count.
func TestRunResumeExpand(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := crosslink(t, "run", "--out", out, "specs/rc13-tab2.yaml")
	if code != exitOK {
		t.Fatalf("crosslink run: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "8 scenarios: 8 ok, 0 failed, 0 skipped") {
		t.Errorf("summary %q, want 8 ok", stderr)
	}
	code, _, stderr = crosslink(t, "run", "--out", out, "specs/rc13-tab2.yaml")
	if code != exitOK || !strings.Contains(stderr, "0 ok, 0 failed, 8 skipped") {
		t.Errorf("rerun: exit %d, summary %q; want 0 and every scenario skipped", code, stderr)
	}
	code, stdout, _ := crosslink(t, "run", "--dry-run", "--out", out, "specs/rc13-fig6.yaml", "specs/rc13-tab2.yaml")
	if code != exitOK {
		t.Fatalf("dry run: exit %d", code)
	}
	wantDry := "rc13-fig6: 1284 scenarios, 1284 to run, dataset " + filepath.Join(out, "rc13-fig6") + "\n" +
		"rc13-tab2: 8 scenarios, 0 to run, dataset " + filepath.Join(out, "rc13-tab2") + "\n"
	if stdout != wantDry {
		t.Errorf("dry run printed\n%s\nwant\n%s", stdout, wantDry)
	}
	code, stdout, _ = crosslink(t, "expand", "specs/rc13-tab2.yaml")
	if code != exitOK {
		t.Fatalf("expand: exit %d", code)
	}
	goldenFile(t, "testdata/expand-rc13-tab2.stdout", stdout)
}

// TestRunCPUProfile: --cpu-profile writes a profile that pprof reads (a
// gzipped protocol buffer, runtime/pprof's format), and a path that cannot
// be created is a usage error that names the flag.
func TestRunCPUProfile(t *testing.T) {
	out := t.TempDir()
	prof := filepath.Join(out, "cpu.prof")
	code, _, stderr := crosslink(t, "run", "--quiet", "--out", out, "--cpu-profile", prof, "specs/rc13-tab2.yaml")
	if code != exitOK {
		t.Fatalf("crosslink run --cpu-profile: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(prof)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("profile %s: %v, %d bytes, want a gzip stream", prof, err, len(b))
	}
	bad := filepath.Join(out, "no-such-dir", "cpu.prof")
	code, _, stderr = crosslink(t, "run", "--quiet", "--out", out, "--cpu-profile", bad, "specs/rc13-tab2.yaml")
	if code != exitUsage || !strings.Contains(stderr, "--cpu-profile") {
		t.Errorf("unwritable --cpu-profile: exit %d, stderr %q; want %d naming the flag", code, stderr, exitUsage)
	}
}

// TestFigures is `make figures` on a scratch directory: every spec runs
// at the quick profile and every declared figure is written in each format.
func TestFigures(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := crosslink(t, "figures", "--quiet", "--out", out)
	if code != exitOK {
		t.Fatalf("crosslink figures: exit %d\n%s", code, stderr)
	}
	for _, id := range []string{"rc13-fig3", "rc13-fig6", "rc13-tab2"} {
		for _, ext := range []string{".png", ".svg", ".pdf", ".csv"} {
			fi, err := os.Stat(filepath.Join(out, "figures", id+ext))
			if err != nil || fi.Size() == 0 {
				t.Errorf("figure %s%s: %v (size %d)", id, ext, err, sizeOf(fi))
			}
		}
	}
	checkDrawing(t, filepath.Join(out, "figures"))
	checkNoNaN(t, out)
	checkFigureGoldens(t, filepath.Join(out, "figures"))
	checkVerdicts(t, out)
}

// checkDrawing fails for every figure whose drawing has a problem a
// reader would trip over (plots.Output.Problems): an axis with fewer than
// three labelled ticks, drawn points outside the axes, an empty panel.
func checkDrawing(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if filepath.Base(f) == "verdicts.json" {
			continue
		}
		sc, err := plots.ReadSidecar(dir, strings.TrimSuffix(filepath.Base(f), ".json"))
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, p := range sc.Problems {
			t.Errorf("figure %s: %s", sc.ID, p)
		}
	}
	if checked < 28 {
		t.Errorf("only %d figures drawn, want every figure of the documents (28) and more", checked)
	}
}

// checkVerdicts writes the report of the figures drawn in out and compares
// every figure's verdict, and which of its claims hold, with
// testdata/verdicts.quick.golden: a model change that breaks (or makes) a
// reproduction of a document's figure shows in review as a diff of that
// file. Numbers are left out of it, so the check does not depend on the
// last digits a platform's floating point gives.
func checkVerdicts(t *testing.T, out string) {
	t.Helper()
	code, _, stderr := crosslink(t, "report", "--out", out)
	if code != exitOK {
		t.Fatalf("crosslink report: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "figures", "verdicts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []report.Verdict
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatalf("verdicts.json: %v", err)
	}
	var g strings.Builder
	g.WriteString("# id: verdict, then one line per claim (holds, fails, or not computed: a point the profile did not run); go test -update . rewrites this file\n")
	for _, v := range vs {
		fmt.Fprintf(&g, "%s: %s\n", v.ID, v.Verdict)
		for _, c := range v.Claims {
			h := "fails"
			switch {
			case c.NotComputed:
				h = "not computed"
			case c.Holds:
				h = "holds"
			}
			fmt.Fprintf(&g, "  %s: %s\n", h, c.Claim)
		}
	}
	goldenFile(t, "testdata/verdicts.quick.golden", g.String())
}

func sizeOf(fi os.FileInfo) int64 {
	if fi == nil {
		return 0
	}
	return fi.Size()
}
