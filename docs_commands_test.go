package main

import (
	"bufio"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docFiles are the pages whose crosslink commands a reader pastes:
// README.md, then docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	return append([]string{"README.md"}, pages...)
}

// placeholder marks a command written as a pattern, not one to paste:
// SPEC, DIR, OUT, [-j N], <spec>, a|b, SPEC...
var placeholder = regexp.MustCompile(`\b[A-Z]{2,}\b|\b[A-Z]\b|[<>\[\]|]|\.\.\.`)

// inlineCommand is a crosslink command in a Markdown code span.
var inlineCommand = regexp.MustCompile("`(crosslink [^`]+)`")

// docCommands returns the crosslink commands of a Markdown page in the
// order a reader meets them: each line of a shell code block that starts
// with crosslink (comments cut), and each code span holding a crosslink
// command with arguments. MODEL is tcp-bulk, the model of README's first
// study; other patterns are left out.
func docCommands(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []string
	add := func(c string) {
		c = strings.Join(strings.Fields(strings.ReplaceAll(c, "MODEL", "tcp-bulk")), " ")
		if len(strings.Fields(c)) > 1 && !placeholder.MatchString(c) {
			cmds = append(cmds, c)
		}
	}
	sc := bufio.NewScanner(f)
	fence, shell := false, false
	for sc.Scan() {
		line := sc.Text()
		if info, ok := strings.CutPrefix(strings.TrimSpace(line), "```"); ok {
			fence = !fence
			shell = fence && (info == "sh" || info == "bash" || info == "shell" || info == "console")
			continue
		}
		switch {
		case shell:
			c := strings.TrimPrefix(strings.TrimSpace(line), "$ ")
			if c, _, _ = strings.Cut(c, " #"); strings.HasPrefix(c, "crosslink ") {
				add(c)
			}
		case !fence:
			for _, m := range inlineCommand.FindAllStringSubmatch(line, -1) {
				add(m[1])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cmds
}

// starterCommands returns the commands a starter spec's comments print
// ("# Run it:   crosslink run DIR/mine.yaml   (rows in ...)"), DIR being
// dir, the directory init wrote the spec to.
func starterCommands(t *testing.T, path, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, line := range strings.Split(string(b), "\n") {
		_, c, ok := strings.Cut(line, ":")
		if !ok || !strings.HasPrefix(line, "# ") {
			continue
		}
		c = strings.TrimSpace(c)
		if !strings.HasPrefix(c, "crosslink ") {
			continue
		}
		c, _, _ = strings.Cut(c, "  ") // the note after the command
		cmds = append(cmds, strings.ReplaceAll(c, "DIR", dir))
	}
	if len(cmds) == 0 {
		t.Fatalf("%s prints no crosslink command in its comments", path)
	}
	return cmds
}

// TestDocsCommands runs, on a copy of specs/, docs/ and the notebook's
// specs, every crosslink
// command README.md and docs/*.md show and those the starter spec of
// README's first study prints, as a reader would paste them, and fails
// on each that exits non-zero or is not found: a page that names a
// flag, a file or a command that is no longer there. Two changes keep it
// on this machine: --submit is dropped (TestSlurmArray submits to a
// cluster; the script is still written) and a run of the full profile is
// a --dry-run (its hours are make figures PROFILE=full's).
func TestDocsCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the documented commands")
	}
	bin := buildBinary(t)
	work := t.TempDir()
	for _, d := range []string{"specs", "docs"} {
		if out, err := exec.Command("cp", "-a", d, filepath.Join(work, d)).CombinedOutput(); err != nil {
			t.Fatalf("copy %s: %v\n%s", d, err, out)
		}
	}
	nb, err := filepath.Glob("notebooks/*.yaml")
	if err != nil || len(nb) == 0 {
		t.Fatalf("no notebooks/*.yaml (%v): the notebook's specs moved?", err)
	}
	if err := os.Mkdir(filepath.Join(work, "notebooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range nb {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var cmds []string
	seen := map[string]bool{}
	for _, page := range docFiles(t) {
		for _, c := range docCommands(t, page) {
			if !seen[c] { // a command met again (crosslink report) runs once
				seen[c] = true
				cmds = append(cmds, page+"\t"+c)
			}
		}
	}
	ran := 0
	for i := 0; i < len(cmds); i++ {
		page, c, _ := strings.Cut(cmds[i], "\t")
		args := strings.Fields(c)[1:]
		if len(args) == 1 && needsArgs(t, bin, args[0]) {
			continue // "`crosslink merge` compacts the parts": a name in prose
		}
		args = dropFlag(args, "--submit")
		if args[0] == "run" && (hasFlagValue(args, "-p", "full") || hasFlagValue(args, "--profile", "full")) {
			args = append(args, "--dry-run")
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "CI=")
		out, err := cmd.CombinedOutput()
		if args[0] == "status" && cmd.ProcessState != nil && cmd.ProcessState.ExitCode() == 1 && strings.Contains(string(out), "incomplete") {
			err = nil // status exits 1 for a dataset not yet complete (its help says so): a shard's run is
		}
		if args[0] == "report" && (hasFlagValue(args, "-p", "full") || hasFlagValue(args, "--profile", "full")) && err != nil &&
			strings.Contains(string(out), "no row of profile full") && strings.Contains(string(out), "crosslink run -p full") {
			// The full profile's datasets are not here (its runs are
			// dry runs), so report refuses the quick figures as the
			// full profile's, as it must, naming the runs to do first.
			err = nil
		}
		if err != nil {
			t.Errorf("%s: `%s` (run as crosslink %s): %v\n%s", page, c, strings.Join(args, " "), err, out)
			continue
		}
		ran++
		t.Logf("%s: crosslink %s", page, strings.Join(args, " "))
		if args[0] == "init" {
			// The starter's own instructions come next.
			dir := "."
			if i := flagValue(args, "-o"); i != "" {
				dir = i
			}
			name := flagValue(args, "--name")
			var next []string
			for _, s := range starterCommands(t, filepath.Join(work, dir, name+".yaml"), dir) {
				next = append(next, "init comment\t"+s)
			}
			cmds = append(cmds[:i+1], append(next, cmds[i+1:]...)...)
		}
	}
	if ran < 10 {
		t.Errorf("ran %d documented commands, want at least 10: is the extraction broken?", ran)
	}
}

// needsArgs reports whether the usage line of crosslink sub names an
// argument it requires ("crosslink merge DIR", not "crosslink plot [FIGURE...]").
func needsArgs(t *testing.T, bin, sub string) bool {
	t.Helper()
	out, err := exec.Command(bin, sub, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("crosslink %s --help: %v\n%s", sub, err, out)
	}
	_, usage, _ := strings.Cut(string(out), "Usage:\n")
	usage, _, _ = strings.Cut(usage, "\n")
	usage = regexp.MustCompile(`\[[^]]*\]`).ReplaceAllString(usage, "")
	return regexp.MustCompile(`\b[A-Z]{2,}\b`).MatchString(usage)
}

func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func hasFlagValue(args []string, name, value string) bool { return flagValue(args, name) == value }

func dropFlag(args []string, name string) []string {
	var out []string
	for _, a := range args {
		if a != name {
			out = append(out, a)
		}
	}
	return out
}

// TestStarterVaries runs the starter spec of each model whose three
// scenarios take under a second and fails when its example figure is
// flat: the same value of the plotted metric at every point of the axis
// (as tcp-bulk's goodput was over its link rate, window-limited at
// 65535 B / 106.6 ms whatever the rate). The slower models' starters
// (leo-path, multicast-video, sat-island, tcp-compete) are only parsed, by
// TestInitRunPlot.
func TestStarterVaries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs starter specs")
	}
	bin := buildBinary(t)
	for _, model := range []string{"ber-per", "fso-ber", "optical-osnr", "orbit-geometry", "tcp-bulk", "tcp-transfer"} {
		t.Run(model, func(t *testing.T) {
			dir := t.TempDir()
			for _, args := range [][]string{
				{"init", model, "-o", "specs", "--name", "first"},
				{"run", "-q", "specs/first.yaml"},
				{"plot", "--specs", "specs", "first-example"},
			} {
				cmd := exec.Command(bin, args...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("crosslink %s: %v\n%s", strings.Join(args, " "), err, out)
				}
			}
			b, err := os.ReadFile(filepath.Join(dir, "out", "figures", "first-example.csv"))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
			if err != nil || len(rows) < 3 {
				t.Fatalf("first-example.csv: %v, %d rows\n%s", err, len(rows), b)
			}
			// curve, the axis, the metric, its interval...: the third column.
			ys := map[string]bool{}
			for _, r := range rows[1:] {
				ys[r[2]] = true
			}
			if len(ys) < 2 {
				t.Errorf("the starter's figure is flat: %s = %v at every %s (%d points)\n%s", rows[0][2], rows[1][2], rows[0][1], len(rows)-1, b)
			}
		})
	}
}

// TestReadmeRunsNotebookSpecs: the notebook reads the datasets of
// notebooks/*.yaml, which make figures does not make, so README must show
// the run of each before the command that executes the notebook.
func TestReadmeRunsNotebookSpecs(t *testing.T) {
	nb, err := filepath.Glob("notebooks/*.yaml")
	if err != nil || len(nb) == 0 {
		t.Fatalf("no notebooks/*.yaml (%v)", err)
	}
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	execute := strings.Index(readme, "jupyter-execute notebooks/explore.ipynb")
	if execute < 0 {
		t.Fatal("README.md does not say how to execute notebooks/explore.ipynb")
	}
	for _, f := range nb {
		ran := false
		for _, c := range docCommands(t, "README.md") {
			if strings.HasPrefix(c, "crosslink run ") && strings.Contains(c, " "+f) {
				ran = true
			}
		}
		if i := strings.Index(readme, " "+f); !ran || i > execute {
			t.Errorf("README.md does not run %s (crosslink run %s) before it executes the notebook", f, f)
		}
	}
}
