package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The import rules of docs/architecture.md (and of the layout table of the
// design): the arrows between crosslink's packages point one way. Each rule
// is checked on every package's transitive dependencies as `go list`
// reports them for the code that is built (tests may import more: sweep's
// tests run real models), so an import that reaches a forbidden package
// through another is caught as well as a direct one.

const module = "github.com/crosslink-sim/crosslink"

// sweepEngine is every engine package that sweep (and the packages under
// it) may depend on. It is empty: sweep reaches the models only through
// the registry interface of vocab (vocab.Registry, vocab.Model), which
// the command line fills from engine/models.
var sweepEngine = []string{}

// documents are the document prefixes of the figure ids (rc13 = document
// 000, zh = 001, os = 002, sp = 004, leo): a package under plots/ with one
// of them, or "figures", as an element of its path is a figure set.
var documents = []string{"rc13", "zh", "os", "sp", "leo", "figures"}

// pkg is one package of the module as `go list -json` prints it, with
// paths relative to the module ("" for the root).
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// graph maps each package of the module (relative path) to its direct and
// transitive imports of the module.
type graph map[string]*pkg

// listPackages runs go list on the module's packages.
func listPackages(t *testing.T) graph {
	t.Helper()
	// -pgo=off: with default.pgo, go list names the packages the binary
	// is built from as variants ("cli [github.com/...]"); the rules are
	// about the source's imports.
	cmd := exec.Command("go", "list", "-pgo=off", "-json=ImportPath,Imports,Deps", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	g := graph{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		p.ImportPath = rel(p.ImportPath)
		p.Imports = ours(p.Imports)
		p.Deps = ours(p.Deps)
		g[p.ImportPath] = &p
	}
	return g
}

// rel is path relative to the module, "" for the root.
func rel(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
}

// ours keeps the module's packages of paths, relative.
func ours(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p == module || strings.HasPrefix(p, module+"/") {
			out = append(out, rel(p))
		}
	}
	return out
}

// under reports whether path is dir or a package below it.
func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// figureSet reports whether path is a package of the documents' figures.
func figureSet(path string) bool {
	if !under(path, "plots") {
		return false
	}
	return slices.ContainsFunc(strings.Split(path, "/")[1:], func(e string) bool { return slices.Contains(documents, e) })
}

// rule is one import rule: packages that from selects may not depend on
// packages that forbidden selects (given the importing package); with
// direct set, may not import them themselves (what they reach through an
// allowed import is that package's business).
type rule struct {
	name      string
	from      func(g graph, p string) bool
	forbidden func(p, dep string) bool
	direct    bool
}

// drawingCore reports whether p is part of the plots drawing core: a
// package under plots/ that is no figure set and that a figure set
// depends on.
func drawingCore(g graph, p string) bool {
	if !under(p, "plots") || figureSet(p) {
		return false
	}
	for q, pk := range g {
		if figureSet(q) && slices.Contains(pk.Deps, p) {
			return true
		}
	}
	return false
}

// sweepEngineAllowed is sweepEngine with everything it depends on.
func sweepEngineAllowed(g graph) map[string]bool {
	ok := map[string]bool{}
	for _, p := range sweepEngine {
		ok[p] = true
		if pk := g[p]; pk != nil {
			for _, d := range pk.Deps {
				ok[d] = true
			}
		}
	}
	return ok
}

func rules(g graph) []rule {
	allowed := sweepEngineAllowed(g)
	in := func(dir string) func(graph, string) bool {
		return func(_ graph, p string) bool { return under(p, dir) }
	}
	return []rule{
		{"the engine imports nothing of sweep, plots or the command line", in("engine"), func(_, d string) bool {
			return under(d, "sweep") || under(d, "plots") || under(d, "cli") || d == ""
		}, false},
		{fmt.Sprintf("sweep imports no engine package but %q", sweepEngine), in("sweep"), func(_, d string) bool {
			return under(d, "engine") && !allowed[d]
		}, false},
		{"plots imports no engine package and not the command line", in("plots"), func(_, d string) bool {
			return under(d, "engine") || under(d, "cli") || d == ""
		}, false},
		{"vocab imports nothing of the project", in("vocab"), func(_, d string) bool { return !under(d, "vocab") }, false},
		{"only main imports the command line", func(_ graph, p string) bool { return p != "" && !under(p, "cli") }, func(_, d string) bool {
			return under(d, "cli")
		}, false},
		{"the plots drawing core imports no document figure", drawingCore, func(_, d string) bool { return figureSet(d) }, false},
		{"main imports only the command line", func(_ graph, p string) bool { return p == "" }, func(_, d string) bool {
			return !under(d, "cli")
		}, true},
		{"the command line reaches the engine only through its model registry, engine/models", in("cli"), func(_, d string) bool {
			return under(d, "engine") && d != "engine/models"
		}, true},
		{"only tests import internal/ (the test helpers)", func(_ graph, p string) bool { return !under(p, "internal") }, func(_, d string) bool {
			return under(d, "internal")
		}, false},
	}
}

// violations lists, sorted, each dependency of g that breaks a rule, with
// the chain of imports that reaches it.
func violations(g graph) []string {
	var out []string
	for _, r := range rules(g) {
		for p, pk := range g {
			if !r.from(g, p) {
				continue
			}
			deps := pk.Deps
			if r.direct {
				deps = pk.Imports
			}
			for _, d := range deps {
				if !r.forbidden(p, d) {
					continue
				}
				c := []string{d}
				if !r.direct {
					if c = chain(g, p, d); reportedElsewhere(g, r, p, c) {
						continue
					}
				}
				out = append(out, fmt.Sprintf("%s: %s imports %s", r.name, name(p), strings.Join(named(c), " -> ")))
			}
		}
	}
	slices.Sort(out)
	return out
}

// reportedElsewhere reports whether the chain of imports c from p breaks
// rule r at a place the report names already: a package forbidden to p
// before the chain's end (the first forbidden package reached is the one
// to fix), or a package on the way that a rule forbids to import the end
// (that import is the wrong arrow).
func reportedElsewhere(g graph, r rule, p string, c []string) bool {
	d := c[len(c)-1]
	for _, q := range c[:len(c)-1] {
		if r.forbidden(p, q) {
			return true
		}
		for _, r2 := range rules(g) {
			if r2.from(g, q) && r2.forbidden(q, d) && (!r2.direct || slices.Contains(g[q].Imports, d)) {
				return true
			}
		}
	}
	return false
}

func named(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = name(p)
	}
	return out
}

func name(p string) string {
	if p == "" {
		return "main"
	}
	return p
}

// chain is a shortest path of direct imports from p to d (p excluded, d
// included), found breadth first.
func chain(g graph, p, d string) []string {
	prev := map[string]string{p: p}
	queue := []string{p}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if q == d {
			var path []string
			for ; q != p; q = prev[q] {
				path = append([]string{q}, path...)
			}
			return path
		}
		if pk := g[q]; pk != nil {
			for _, i := range pk.Imports {
				if _, seen := prev[i]; !seen {
					prev[i] = q
					queue = append(queue, i)
				}
			}
		}
	}
	return []string{d}
}

// TestImportDirection fails on an import that points the wrong way (see
// docs/architecture.md for the rules and why).
func TestImportDirection(t *testing.T) {
	g := listPackages(t)
	if len(g) < 10 {
		t.Fatalf("go list found %d packages; want the module's", len(g))
	}
	for _, v := range violations(g) {
		t.Error(v)
	}
}

// TestImportRules checks each rule on small made-up graphs: the rule
// must catch the bad import, also when it is reached through another
// package, and pass the good ones.
func TestImportRules(t *testing.T) {
	// mk builds a graph from direct imports, with Deps their closure.
	mk := func(edges map[string][]string) graph {
		g := graph{}
		for p, im := range edges {
			g[p] = &pkg{ImportPath: p, Imports: im}
		}
		for p, pk := range g {
			seen := map[string]bool{}
			var walk func(string)
			walk = func(q string) {
				for _, i := range edges[q] {
					if !seen[i] {
						seen[i] = true
						walk(i)
					}
				}
			}
			walk(p)
			for d := range seen {
				pk.Deps = append(pk.Deps, d)
			}
			slices.Sort(pk.Deps)
		}
		return g
	}
	base := map[string][]string{
		"": {"cli"}, "cli": {"sweep", "plots", "engine/models", "vocab"}, "vocab": nil,
		"engine/des": {"vocab"}, "engine/models": {"engine/des", "vocab"},
		"sweep": {"sweep/spec", "vocab"}, "sweep/spec": {"vocab"},
		"plots": {"sweep", "vocab"}, "plots/report": {"plots", "sweep"},
	}
	with := func(extra map[string][]string) map[string][]string {
		e := map[string][]string{}
		for k, v := range base {
			e[k] = v
		}
		for k, v := range extra {
			e[k] = append(append([]string{}, e[k]...), v...)
		}
		return e
	}
	tests := []struct {
		name  string
		edges map[string][]string
		want  []string
	}{
		{"good", base, nil},
		{"engine imports sweep", with(map[string][]string{"engine/des": {"sweep/spec"}}), []string{
			"the engine imports nothing of sweep, plots or the command line: engine/des imports sweep/spec",
		}},
		{"sweep imports the engine", with(map[string][]string{"sweep/spec": {"engine/models"}}), []string{
			`sweep imports no engine package but []: sweep/spec imports engine/models`,
		}},
		{"plots imports the engine", with(map[string][]string{"plots/report": {"engine/des"}}), []string{
			"plots imports no engine package and not the command line: plots/report imports engine/des",
		}},
		{"vocab imports the project", with(map[string][]string{"vocab": {"sweep/units"}, "sweep/units": nil}), []string{
			"vocab imports nothing of the project: vocab imports sweep/units",
		}},
		{"sweep imports the command line", with(map[string][]string{"sweep/spec": {"cli"}}), []string{
			"only main imports the command line: sweep/spec imports cli",
			"sweep imports no engine package but []: sweep/spec imports cli -> engine/models",
		}},
		{"core imports a figure", with(map[string][]string{
			"plots/core": {"plots/zh"}, "plots/rc13": {"plots/core"}, "plots/zh": nil, "plots": {"plots/rc13", "plots/zh"},
		}), []string{
			"the plots drawing core imports no document figure: plots/core imports plots/zh",
		}},
		{"main imports sweep", with(map[string][]string{"": {"sweep"}}), []string{
			"main imports only the command line: main imports sweep",
		}},
		{"the command line imports an engine package", with(map[string][]string{"cli": {"engine/des"}}), []string{
			"the command line reaches the engine only through its model registry, engine/models: cli imports engine/des",
		}},
		{"a package imports a test helper", with(map[string][]string{"sweep/spec": {"internal/golden"}, "internal/golden": nil}), []string{
			"only tests import internal/ (the test helpers): sweep/spec imports internal/golden",
		}},
		{"figures above the core", with(map[string][]string{
			"plots/core": nil, "plots/figures/rc13": {"plots/core"}, "plots/figures/zh": {"plots/core"}, "plots": {"plots/figures/rc13", "plots/figures/zh"},
		}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, violations(mk(tt.edges))); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}

// TestArchitectureNamesEveryPackage checks that docs/architecture.md names
// each package go list prints, as `path/` (the root as `main.go`), so that
// a new package comes with the line that says what it may import.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	for p := range listPackages(t) {
		want := "`" + p + "/`"
		if p == "" {
			want = "`main.go`"
		}
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("docs/architecture.md does not name package %s: add a row %s with what it owns and may import", name(p), want)
		}
	}
}
