package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/sweep/spec"
)

// TestDatasetsDoc fails when docs/datasets.md is not what crosslink docs
// writes from the current model registry; -update rewrites it.
func TestDatasetsDoc(t *testing.T) {
	code, got, stderr := crosslink(t, "docs")
	if code != exitOK {
		t.Fatalf("crosslink docs: exit %d: %s", code, stderr)
	}
	goldenFile(t, "docs/datasets.md", got)
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range reg.Names() {
		m, _ := reg.Lookup(name)
		for _, p := range m.Schema().Params {
			if !strings.Contains(got, "| `"+p.Name+"` | `"+p.Column()+"` |") {
				t.Errorf("datasets.md has no row for parameter %s of %s", p.Name, name)
			}
		}
		for _, c := range m.Schema().Metrics {
			if !strings.Contains(got, "| `"+c.Column()+"` |") {
				t.Errorf("datasets.md has no row for metric %s of %s", c.Column(), name)
			}
		}
	}
}

// TestInitRunPlot follows a newcomer: crosslink init for every model
// writes a spec that parses; for fso-ber (closed form, fast) it also runs
// and draws.
func TestInitRunPlot(t *testing.T) {
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			specs := filepath.Join(dir, "specs")
			path := filepath.Join(specs, "first.yaml")
			if code, _, stderr := crosslink(t, "init", name, "-o", specs, "--name", "first"); code != exitOK {
				t.Fatalf("crosslink init %s: exit %d: %s", name, code, stderr)
			}
			s, err := spec.ParseFile(path, reg)
			if err != nil {
				b, _ := os.ReadFile(path)
				t.Fatalf("the starter spec of %s does not parse: %v\n%s", name, err, b)
			}
			if s.Name != "first" || s.Model != name {
				t.Errorf("starter spec: name %q model %q, want first and %s", s.Name, s.Model, name)
			}
			if _, err := os.Stat(filepath.Join(specs, "spec.schema.json")); err != nil {
				t.Errorf("init -o did not write the schema its spec refers to: %v", err)
			}
			if code, _, _ := crosslink(t, "init", name, "-o", specs, "--name", "first"); code != exitUsage {
				t.Errorf("crosslink init over an existing file: exit %d, want %d", code, exitUsage)
			}
			if name != "fso-ber" {
				return
			}
			out := filepath.Join(dir, "out")
			if code, _, stderr := crosslink(t, "run", "-q", "-o", out, path); code != exitOK {
				t.Fatalf("crosslink run: exit %d: %s", code, stderr)
			}
			if code, _, stderr := crosslink(t, "plot", "--specs", specs, "-o", out); code != exitOK {
				t.Fatalf("crosslink plot: exit %d: %s", code, stderr)
			}
			for _, ext := range []string{"png", "svg", "pdf", "csv"} {
				if _, err := os.Stat(filepath.Join(out, "figures", "first-example."+ext)); err != nil {
					t.Errorf("figure of the starter spec: %v", err)
				}
			}
		})
	}
}

// TestSchema checks the JSON Schema: draft 2020-12, one if/then per
// model naming every parameter with its unit, ranges on bare numbers, and
// the properties of every committed spec known to it.
func TestSchema(t *testing.T) {
	code, out, stderr := crosslink(t, "schema")
	if code != exitOK {
		t.Fatalf("crosslink schema: exit %d: %s", code, stderr)
	}
	var s struct {
		Schema     string                     `json:"$schema"`
		Properties map[string]json.RawMessage `json:"properties"`
		AllOf      []struct {
			If struct {
				Properties struct {
					Model struct {
						Const string `json:"const"`
					} `json:"model"`
				} `json:"properties"`
			} `json:"if"`
			Then struct {
				Properties struct {
					Params struct {
						Properties map[string]map[string]any `json:"properties"`
					} `json:"params"`
				} `json:"properties"`
			} `json:"then"`
		} `json:"allOf"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %q, want draft 2020-12", s.Schema)
	}
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]map[string]map[string]any{}
	for _, r := range s.AllOf {
		rules[r.If.Properties.Model.Const] = r.Then.Properties.Params.Properties
	}
	for _, name := range reg.Names() {
		m, _ := reg.Lookup(name)
		params, ok := rules[name]
		if !ok {
			t.Errorf("schema has no if/then for model %s", name)
			continue
		}
		for _, p := range m.Schema().Params {
			v, ok := params[p.Name]
			if !ok {
				t.Errorf("schema of %s lacks parameter %s", name, p.Name)
				continue
			}
			doc, _ := v["description"].(string)
			if p.Unit != "" && !strings.Contains(doc, "["+string(p.Unit)+"]") {
				t.Errorf("schema of %s.%s: description %q lacks its unit %s", name, p.Name, doc, p.Unit)
			}
		}
	}
	files, _ := filepath.Glob("specs/*.yaml")
	for _, f := range files {
		sp, err := spec.ParseFile(f, reg)
		if err != nil {
			continue // a spec in progress elsewhere; TestFigures reports it
		}
		for _, st := range sp.Params {
			if _, ok := rules[sp.Model][st.Name]; !ok {
				t.Errorf("%s: parameter %s is not in the schema of %s", f, st.Name, sp.Model)
			}
		}
	}
}
