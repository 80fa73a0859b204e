package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TestFlagsBeforeDryRun checks that run validates its flags before it
// prints a count or runs anything, a dry run as the real one (those that
// depend on the spec, such as --partition-by, once it is read): each call
// exits 2, prints nothing on stdout and creates no output directory.
func TestFlagsBeforeDryRun(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "abc"}, `shard "abc": want i/n`},
		{[]string{"--shard", "4/4"}, "shard 4/4: want 0 <= i < n"},
		{[]string{"-j", "-3"}, "--workers -3: want 0 (one per CPU) or more"},
		{[]string{"--timeout", "-1s"}, "--timeout -1s: want 0 (none) or more"},
		{[]string{"--max-scenarios", "0"}, "--max-scenarios 0: want 1 to"},
		{[]string{"--shard", "0/99999999999"}, "shard 0/99999999999: the plan has 1284 scenarios, so it splits into at most 1284 shards"},
		{[]string{"--partition-by", "bit_rate"}, "--partition-by bit_rate: a float parameter cannot name directories"},
		{[]string{"-o", "specs/rc13-fig6.yaml"}, "-o specs/rc13-fig6.yaml: that is a file, not a directory"},
		{[]string{"--max-scenarios", "1000"}, "the spec expands to 1284 scenarios (distance 321 x bit_rate 2 x detection 2 x replicates 1), more than the limit of 1000 (--max-scenarios)"},
	}
	for _, tt := range tests {
		for _, dry := range []bool{true, false} {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"run", "--quiet", "--out", out}, tt.args...)
			if dry {
				args = append(args, "--dry-run")
			}
			args = append(args, "specs/rc13-fig6.yaml")
			t.Run(strings.Join(args[4:], " "), func(t *testing.T) {
				code, stdout, stderr := crosslink(t, args...)
				if code != exitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
					t.Errorf("crosslink %q: exit %d, stdout %q, stderr %q; want exit 2, no stdout, %q", args, code, stdout, stderr, tt.want)
				}
				if _, err := os.Stat(out); err == nil {
					t.Errorf("crosslink %q created %s", args, out)
				}
			})
		}
	}
}

// TestDryRunShard checks that --dry-run --shard i/n prints the shard's
// count, and that the shards' counts add up to the spec's.
func TestDryRunShard(t *testing.T) {
	out := t.TempDir()
	total := 0
	for i := range 4 {
		code, stdout, stderr := crosslink(t, "run", "--dry-run", "--out", out, "--shard", fmt.Sprintf("%d/4", i), "specs/rc13-fig6.yaml")
		want := fmt.Sprintf("rc13-fig6: 321 scenarios in shard %d/4 of 1284, 321 to run, dataset %s\n", i, filepath.Join(out, "rc13-fig6"))
		if code != exitOK || stdout != want {
			t.Errorf("dry run of shard %d/4: exit %d, stdout %q, stderr %q; want %q", i, code, stdout, stderr, want)
		}
		total += 321
	}
	if total != 1284 {
		t.Errorf("shards hold %d scenarios, want 1284", total)
	}
}

// TestDryRunShardSpecsOfAnySize checks the dry run of one task of a job
// array over a large spec and a one-scenario spec: the small spec is its
// own single shard, which task 0 runs and the other tasks have none of.
func TestDryRunShardSpecsOfAnySize(t *testing.T) {
	tiny := filepath.Join(t.TempDir(), "tiny.yaml")
	if err := os.WriteFile(tiny, []byte("name: tiny\nmodel: fso-ber\nparams:\n  distance: 1000km\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	for i, want := range []string{
		"tiny: 1 scenarios in shard 0/1 of 1, 1 to run",
		"tiny: 1 scenarios, none in shard 1/4",
	} {
		code, stdout, stderr := crosslink(t, "run", "--dry-run", "--out", out, "--shard", fmt.Sprintf("%d/4", i), "specs/rc13-fig6.yaml", tiny)
		want := fmt.Sprintf("rc13-fig6: 321 scenarios in shard %d/4 of 1284, 321 to run, dataset %s\n%s, dataset %s\n", i, filepath.Join(out, "rc13-fig6"), want, filepath.Join(out, "tiny"))
		if code != exitOK || stdout != want {
			t.Errorf("dry run of shard %d/4: exit %d, stdout %q, stderr %q; want %q", i, code, stdout, stderr, want)
		}
	}
	tiny2 := filepath.Join(filepath.Dir(tiny), "tiny2.yaml")
	if err := os.WriteFile(tiny2, []byte("name: tiny2\nmodel: fso-ber\nparams:\n  distance: 2000km\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := crosslink(t, "run", "--dry-run", "--out", out, "--shard", "0/2", tiny, tiny2)
	want := "shard 0/2: the largest of the 2 specs, tiny, has 1 scenario, so they split into at most 1 shard"
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("dry run of shard 0/2 of two one-scenario specs: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
	}
}

// TestHugeGrid checks that a spec of about 10^21 scenarios (far beyond
// 2^64) is refused from its axis lengths alone, naming each axis.
func TestHugeGrid(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "huge.yaml")
	text := "name: huge\nmodel: fso-ber\nreplicates: 1000000000\ngrid:\n" +
		"  distance: {from: 1000km, to: 100000km, points: 1000000}\n" +
		"  bit_rate: {from: 1Gbps, to: 4Gbps, points: 1000000}\n"
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := crosslink(t, "run", "--dry-run", spec)
	want := spec + ":4:1: the spec expands to about 1e+21 scenarios (distance 1000000 x bit_rate 1000000 x replicates 1000000000), more than the limit of 1000000000 (--max-scenarios)\n"
	if code != exitUsage || stdout != "" || stderr != want {
		t.Errorf("crosslink run --dry-run huge.yaml: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
	}
}

// TestClosedStrings checks that free-form string parameters with a grammar
// are checked when the spec is read, at the value's position, not when a
// scenario runs.
func TestClosedStrings(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, text, want string }{
		{"ccas.yaml", "name: cc\nmodel: tcp-compete\nparams:\n  ccas: /etc/passwd\n",
			`ccas.yaml:4:9: ccas = "/etc/passwd": unknown congestion control "/etc/passwd"`},
		{"ccas-empty.yaml", "name: cc\nmodel: tcp-compete\ngrid:\n  ccas: [\"cubic,reno\", \" , \"]\n",
			`ccas-empty.yaml:4:24: ccas = " , ": no congestion control in " , "`},
		{"cdf.yaml", "name: cdf\nmodel: sat-island\ngrid:\n  flow_cdf: [\"1460:0.5 1e6:1\", \"1460:0.5 abc\"]\n",
			`cdf.yaml:4:32: flow_cdf = "1460:0.5 abc": cdf point "abc" is not size:probability`},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := crosslink(t, "run", "--dry-run", "--out", dir, path)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, filepath.Join(dir, tt.want)) {
			t.Errorf("crosslink run -n %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.name, code, stdout, stderr, tt.want)
		}
	}
}

// TestSchemaUnits checks the quantity patterns of the JSON Schema: each
// accepts the values the shipped specs write and the defaults as Format
// prints them, and refuses a unit the parser does not know ("1Gbs").
func TestSchemaUnits(t *testing.T) {
	code, out, stderr := crosslink(t, "schema")
	if code != exitOK {
		t.Fatalf("crosslink schema: exit %d: %s", code, stderr)
	}
	var s struct {
		AllOf []struct {
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
						Properties map[string]struct {
							Pattern string `json:"pattern"`
						} `json:"properties"`
					} `json:"params"`
				} `json:"properties"`
			} `json:"then"`
		} `json:"allOf"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	patterns := map[string]map[string]*regexp.Regexp{} // model -> param -> pattern
	for _, r := range s.AllOf {
		m, _ := reg.Lookup(r.If.Properties.Model.Const)
		patterns[m.Schema().Name] = map[string]*regexp.Regexp{}
		for _, p := range m.Schema().Params {
			pat := r.Then.Properties.Params.Properties[p.Name].Pattern
			if p.Unit == vocab.Dimensionless || p.Kind == vocab.String || p.Kind == vocab.Bool {
				continue
			}
			re, err := regexp.Compile(pat)
			if err != nil {
				t.Fatalf("%s.%s: pattern %q: %v", m.Schema().Name, p.Name, pat, err)
			}
			patterns[m.Schema().Name][p.Name] = re
			if def := units.Format(p.Default.Float(), p.Unit); !re.MatchString(def) {
				t.Errorf("%s.%s: pattern refuses the default %q", m.Schema().Name, p.Name, def)
			}
		}
	}
	rate := patterns["fso-ber"]["bit_rate"]
	for in, want := range map[string]bool{"1Gbps": true, "1 Gbps": true, "2.5e9bit/s": true, "1Gbs": false, "1 G": false, "16000km": false, "1Gbps; rm": false} {
		if got := rate.MatchString(in); got != want {
			t.Errorf("fso-ber.bit_rate pattern matches %q = %v, want %v", in, got, want)
		}
	}
	files, _ := filepath.Glob("specs/*.yaml")
	scalar := regexp.MustCompile(`^\s+([a-z_0-9]+):\s*([^\[{#\s][^#]*?)\s*(#.*)?$`)
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := spec.Parse(f, data, reg)
		if err != nil {
			continue // a spec in progress elsewhere; TestFigures reports it
		}
		for _, line := range strings.Split(string(data), "\n") {
			m := scalar.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if re := patterns[sp.Model][m[1]]; re != nil {
				checked++
				if v := strings.Trim(m[2], `"'`); !re.MatchString(v) {
					t.Errorf("%s: %s: %q is refused by the schema's pattern", f, m[1], v)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d quantities of the shipped specs, want at least 20", checked)
	}
}

// TestOutIsADirectory checks the one meaning of -o: a directory, for the
// commands that write files as for those that write datasets.
func TestOutIsADirectory(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "fso-ber", "-o", filepath.Join(dir, "first.yaml")},
		{"schema", "-o", filepath.Join(dir, "spec.schema.json")},
		{"docs", "-o", filepath.Join(dir, "datasets.md")},
	} {
		code, _, stderr := crosslink(t, args...)
		if code != exitUsage || !strings.Contains(stderr, "-o names a directory for every crosslink command") {
			t.Errorf("crosslink %q: exit %d, stderr %q; want exit 2 and the meaning of -o", args, code, stderr)
		}
	}
	for _, tt := range []struct {
		args []string
		file string
	}{
		{[]string{"init", "fso-ber", "-o", dir, "--name", "first"}, "first.yaml"},
		{[]string{"schema", "-o", dir}, "spec.schema.json"},
		{[]string{"docs", "-o", dir}, "datasets.md"},
	} {
		if code, _, stderr := crosslink(t, tt.args...); code != exitOK {
			t.Errorf("crosslink %q: exit %d: %s", tt.args, code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, tt.file)); err != nil {
			t.Errorf("crosslink %q: %v", tt.args, err)
		}
	}
	// The starter's first line names the schema init wrote beside it.
	b, err := os.ReadFile(filepath.Join(dir, "first.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(b), "\n"); first != "# yaml-language-server: $schema=spec.schema.json" {
		t.Errorf("starter spec's first line %q, want the schema beside it", first)
	}
}

// TestDocsWritesNothingByDefault: docs run anywhere prints the reference
// and creates no ./docs.
func TestDocsWritesNothingByDefault(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, stderr := crosslink(t, "docs")
	if code != exitOK || !strings.Contains(stdout, "fso-ber") {
		t.Fatalf("crosslink docs: exit %d, stderr %s", code, stderr)
	}
	if _, err := os.Stat("docs"); err == nil {
		t.Errorf("crosslink docs created ./docs")
	}
}

// TestCompletion asks cobra's completion entry point what it offers.
func TestCompletion(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "describe", "fso"}, []string{"fso-ber"}},
		{[]string{"__complete", "init", ""}, []string{"fso-ber", "ber-per"}},
		{[]string{"__complete", "run", "specs/rc13-fig6.yaml", "--profile", ""}, []string{"quick", "full"}},
		{[]string{"__complete", "plot", "rc13-fig"}, []string{"rc13-fig6", "rc13-fig8"}},
		{[]string{"__complete", "figures", "--profile", "q"}, []string{"quick"}},
		{[]string{"__complete", "run", ""}, []string{"yaml", "yml", ":8"}}, // ShellCompDirectiveFilterFileExt
	}
	for _, tt := range tests {
		code, stdout, _ := crosslink(t, tt.args...)
		if code != exitOK {
			t.Errorf("crosslink %q: exit %d", tt.args, code)
		}
		for _, w := range tt.want {
			if !strings.Contains("\n"+stdout, "\n"+w+"\n") {
				t.Errorf("crosslink %q offers\n%s\nwant %q among them", tt.args, stdout, w)
			}
		}
	}
}

// TestPlotDrawsHeldProfile: run at quick, then plot with no --profile
// draws quick and says so; run at the base, and plot draws the base.
func TestPlotDrawsHeldProfile(t *testing.T) {
	dir := t.TempDir()
	specs, out := filepath.Join(dir, "specs"), filepath.Join(dir, "out")
	if err := os.MkdirAll(specs, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("specs/rc13-fig6.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(specs, "rc13-fig6.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		run  []string
		want string
	}{
		{[]string{"-p", "quick"}, "profile quick (as in the dataset): rc13-fig6\n"},
		{nil, "profile base (as in the dataset): rc13-fig6\n"},
	} {
		if err := os.RemoveAll(out); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"run", "-q", "-o", out}, tt.run...)
		if code, _, stderr := crosslink(t, append(args, filepath.Join(specs, "rc13-fig6.yaml"))...); code != exitOK {
			t.Fatalf("crosslink %q: exit %d: %s", args, code, stderr)
		}
		code, _, stderr := crosslink(t, "plot", "--specs", specs, "-o", out)
		if code != exitOK || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("plot after run %q: exit %d, stderr %q; want it to start %q", tt.run, code, stderr, tt.want)
		}
	}
}

// TestPlotNamesTheProfilesOfWhatItDraws: plot FIGURE names the profile of
// the spec that declares FIGURE only, not of every spec beside it (which a
// user would take for a problem with their figure); plot with no figure
// names them all.
func TestPlotNamesTheProfilesOfWhatItDraws(t *testing.T) {
	dir := t.TempDir()
	specs, out := filepath.Join(dir, "specs"), filepath.Join(dir, "out")
	if err := os.MkdirAll(specs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"rc13-fig6.yaml", "rc13-fig5.yaml"} {
		data, err := os.ReadFile(filepath.Join("specs", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(specs, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := crosslink(t, "run", "-q", "-p", "quick", "-o", out, filepath.Join(specs, "rc13-fig6.yaml")); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	code, _, stderr := crosslink(t, "plot", "rc13-fig6", "--specs", specs, "-o", out)
	if want := "profile quick (as in the dataset): rc13-fig6\n"; code != exitOK || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "rc13-fig5") {
		t.Errorf("plot rc13-fig6: exit %d, stderr %q; want it to start %q and not name rc13-fig5", code, stderr, want)
	}
	_, _, stderr = crosslink(t, "plot", "--specs", specs, "-o", out)
	if want := "profile base (no data yet): rc13-fig5\n"; !strings.Contains(stderr, want) {
		t.Errorf("plot of every figure: stderr %q; want %q among the profiles", stderr, want)
	}
}

// TestPlotRefusesTwoSpecsOfOneName: two spec files of one name in the
// specs directory are refused by plot with or without -p, naming both
// files, as run refuses them (their rows would share one dataset).
func TestPlotRefusesTwoSpecsOfOneName(t *testing.T) {
	specs := t.TempDir()
	a := "name: twin\nmodel: fso-ber\ngrid:\n  distance: [1000km]\nprofiles:\n  quick: {}\nplots:\n  - {id: twin-a, title: a, x: distance, y: [ber]}\n"
	b := strings.Replace(a, "twin-a", "twin-b", 1)
	for name, text := range map[string]string{"a.yaml": a, "b.yaml": b} {
		if err := os.WriteFile(filepath.Join(specs, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{nil, {"-p", "quick"}} {
		code, _, stderr := crosslink(t, append([]string{"plot", "--specs", specs, "-o", t.TempDir()}, args...)...)
		if code == exitOK || !strings.Contains(stderr, "a.yaml and ") || !strings.Contains(stderr, "b.yaml are both called \"twin\"") {
			t.Errorf("plot %q: exit %d, stderr %q; want both files named", args, code, stderr)
		}
	}
}

// ownStudy makes a study of one's own in a temporary directory, as the
// README starts one: the fso-ber starter spec in specs/ ("first"), run and
// drawn into out/. It returns the directory and the two under it.
func ownStudy(t *testing.T) (dir, specs, out string) {
	t.Helper()
	dir = t.TempDir()
	specs, out = filepath.Join(dir, "specs"), filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"init", "fso-ber", "-o", specs, "--name", "first"},
		{"run", "-q", "-o", out, filepath.Join(specs, "first.yaml")},
		{"plot", "--specs", specs, "-o", out},
	} {
		if code, _, stderr := crosslink(t, args...); code != exitOK {
			t.Fatalf("crosslink %q: exit %d: %s", args, code, stderr)
		}
	}
	return dir, specs, out
}

// TestReportOwnSpecs: a report on a user's own specs lists their figures,
// not the documents' as missing.
func TestReportOwnSpecs(t *testing.T) {
	dir, specs, out := ownStudy(t)
	vmd := filepath.Join(dir, "verdicts.md")
	code, _, stderr := crosslink(t, "report", "--specs", specs, "-o", out, "--strict", "--verdicts-md", vmd)
	if code != exitOK || strings.Contains(stderr, "missing") || !strings.Contains(stderr, "1 of 1 figures drawn (1 no published value; claims: 0 hold, 0 fail)") {
		t.Errorf("report on own specs: exit %d, stderr %q; want 1 of 1 drawn, its claim counts and nothing missing", code, stderr)
	}
	b, err := os.ReadFile(vmd)
	if err != nil {
		t.Fatalf("--verdicts-md wrote no file: %v", err)
	}
	for _, want := range []string{"# Verdicts at the base profile", "Computed by crosslink at commit ", "`crosslink report --verdicts-md " + filepath.ToSlash(vmd) + "`", "| no published value | 0 | 0 | 0 | first | base |"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("--verdicts-md file lacks %q:\n%s", want, b)
		}
	}
}

// TestJSONOutputs checks that models, describe and expand --json print
// valid JSON holding the same facts as their tables.
func TestJSONOutputs(t *testing.T) {
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	_, stdout, _ := crosslink(t, "models", "--json")
	var ms []struct{ Name string }
	if err := json.Unmarshal([]byte(stdout), &ms); err != nil || len(ms) != len(reg.Names()) {
		t.Errorf("models --json: %v, %d models, want %d", err, len(ms), len(reg.Names()))
	}
	_, stdout, _ = crosslink(t, "describe", "fso-ber", "--json")
	var d struct {
		Name   string
		Params []struct {
			Name, Column, Unit string
			Default            any
		}
		Metrics []struct{ Column string }
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatalf("describe --json: %v\n%s", err, stdout)
	}
	m, _ := reg.Lookup("fso-ber")
	if len(d.Params) != len(m.Schema().Params) || len(d.Metrics) != len(m.Schema().Metrics) {
		t.Errorf("describe --json: %d params, %d metrics; want %d, %d", len(d.Params), len(d.Metrics), len(m.Schema().Params), len(m.Schema().Metrics))
	}
	if p := d.Params[0]; p.Name != "distance" || p.Column != "distance_m" || p.Unit != "m" || p.Default != 1.6e7 {
		t.Errorf("describe --json: first parameter %+v, want distance, distance_m, m, 1.6e7 (16000 km in metres)", p)
	}
	_, stdout, _ = crosslink(t, "expand", "--json", "specs/rc13-tab2.yaml")
	var x struct {
		Count     int
		Scenarios []struct {
			ScenarioID string `json:"scenario_id"`
			Params     map[string]any
		}
	}
	if err := json.Unmarshal([]byte(stdout), &x); err != nil {
		t.Fatalf("expand --json: %v\n%s", err, stdout)
	}
	_, text, _ := crosslink(t, "expand", "specs/rc13-tab2.yaml")
	if x.Count != 8 || len(x.Scenarios) != 8 {
		t.Fatalf("expand --json: count %d, %d scenarios; want 8", x.Count, len(x.Scenarios))
	}
	for _, sc := range x.Scenarios {
		if !strings.Contains(text, sc.ScenarioID) {
			t.Errorf("expand --json scenario %s is not in the table", sc.ScenarioID)
		}
		if _, ok := sc.Params["distance_m"]; !ok {
			t.Errorf("expand --json scenario %s has no distance_m", sc.ScenarioID)
		}
	}
}

// TestStringParamsChecked: every string parameter of every model is
// checked when a spec is read, by its choices or by its syntax, so that no
// free text reaches a scenario unchecked.
func TestStringParamsChecked(t *testing.T) {
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range reg.Names() {
		m, _ := reg.Lookup(name)
		for _, p := range m.Schema().Params {
			if p.Kind == vocab.String && len(p.Choices) == 0 && p.Syntax == nil {
				t.Errorf("%s.%s is a string parameter with neither Choices nor Syntax", name, p.Name)
			}
			if p.Kind == vocab.String {
				if err := p.Check(p.Default); err != nil {
					t.Errorf("%s.%s: the default %q fails its own check: %v", name, p.Name, p.Default.Str(), err)
				}
			}
		}
	}
}

// TestHostileSpecsCLI runs every spec of the hostile corpus through
// `crosslink run` against the real models: each exits 2 with every line
// at file:line:col, and writes nothing.
func TestHostileSpecsCLI(t *testing.T) {
	files, err := filepath.Glob("sweep/spec/testdata/hostile/*.yaml")
	if err != nil || len(files) < 15 {
		t.Fatalf("hostile corpus: %d files, %v", len(files), err)
	}
	for _, f := range files {
		out := t.TempDir()
		code, stdout, stderr := crosslink(t, "run", "--quiet", "--out", out, f)
		if code != exitUsage || stdout != "" {
			t.Errorf("crosslink run %s: exit %d, stdout %q; want 2 and nothing", f, code, stdout)
		}
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if len(lines) > spec.MaxErrorLines+1 {
			t.Errorf("crosslink run %s: %d lines, want at most %d", f, len(lines), spec.MaxErrorLines+1)
		}
		for _, line := range lines {
			if !strings.HasPrefix(line, f+":") {
				t.Errorf("crosslink run %s: line %q lacks file:line:col", f, line)
			}
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("crosslink run %s wrote %d entries", f, len(entries))
		}
	}
}

// TestFiguresSymlinkRefused: plot, report and figures refuse an
// OUT/figures that is a symbolic link, name it and the way out, and write
// nothing where it points.
func TestFiguresSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	specs, out, elsewhere := filepath.Join(dir, "specs"), filepath.Join(dir, "out"), filepath.Join(dir, "elsewhere")
	for _, args := range [][]string{
		{"init", "fso-ber", "-o", specs, "--name", "first"},
		{"run", "-q", "-o", out, filepath.Join(specs, "first.yaml")},
	} {
		if code, _, stderr := crosslink(t, args...); code != exitOK {
			t.Fatalf("crosslink %q: exit %d: %s", args, code, stderr)
		}
	}
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(out, "figures")
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	want := link + " is a symbolic link (to " + elsewhere + ")"
	for _, args := range [][]string{
		{"plot", "--specs", specs, "-o", out},
		{"report", "--specs", specs, "-o", out},
		{"figures", "-q", "--specs", specs, "-o", out},
	} {
		code, _, stderr := crosslink(t, args...)
		if code != exitUsage || !strings.Contains(stderr, want) || !strings.Contains(stderr, "remove the link") {
			t.Errorf("crosslink %q: exit %d, stderr %q; want exit 2 and %q", args, code, stderr, want)
		}
	}
	if ents, err := os.ReadDir(elsewhere); err != nil || len(ents) > 0 {
		t.Errorf("the link's target holds %d entries (%v), want none", len(ents), err)
	}
}

// TestProfileNoSpecHas checks that figures and plot refuse a profile
// that none of their specs defines, with the nearest name, rather than
// run or draw every spec at its base settings: figures -p quik would have
// run rc13-fig6's 1284 base scenarios instead of quick's 324.
func TestProfileNoSpecHas(t *testing.T) {
	specs := t.TempDir()
	b, err := os.ReadFile("specs/rc13-fig6.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(specs, "rc13-fig6.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"figures", "plot"} {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := crosslink(t, cmd, "-p", "quik", "--specs", specs, "-o", out)
		want := `profile "quik": none of the 1 specs has it; did you mean "quick"? (their profiles: quick, full)`
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, want) {
			t.Errorf("%s -p quik: exit %d, stdout %q, stderr %q; want exit 2 and %q", cmd, code, stdout, stderr, want)
		}
		if _, err := os.Stat(filepath.Join(out, "rc13-fig6")); err == nil {
			t.Errorf("%s -p quik wrote a dataset", cmd)
		}
	}
	// figures' default profile, quick, is not checked: specs without
	// profiles run and draw at their base settings.
	own := t.TempDir()
	if code, _, stderr := crosslink(t, "init", "ber-per", "-o", own, "--name", "mine"); code != exitOK {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	if code, _, stderr := crosslink(t, "figures", "-q", "--specs", own, "-o", filepath.Join(t.TempDir(), "out")); code != exitOK {
		t.Errorf("figures (default quick) over a spec without profiles: exit %d: %s", code, stderr)
	}
}

// TestInitRefusesBadName checks that init refuses a --name that run
// would refuse in the spec it writes, with the spec parser's own words,
// and writes nothing: init promises a spec that runs as it is.
func TestInitRefusesBadName(t *testing.T) {
	for name, want := range map[string]string{
		"Bad Name": `name "Bad Name" may use only a-z, 0-9 and -, and start with a letter or digit`,
		"figures":  `name "figures" is reserved`,
	} {
		dir := filepath.Join(t.TempDir(), "specs")
		code, stdout, stderr := crosslink(t, "init", "ber-per", "--name", name, "-o", dir)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, want) {
			t.Errorf("init --name %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", name, code, stdout, stderr, want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("init --name %q created %s", name, dir)
		}
	}
}

// TestPlotWarnsOfMissingRows checks that plot, drawing a spec whose
// dataset lacks some of its scenarios (one shard of four run), says how
// many on stderr, and still draws: the figure shows the rows there are.
func TestPlotWarnsOfMissingRows(t *testing.T) {
	specs, out := t.TempDir(), t.TempDir()
	b, err := os.ReadFile("specs/rc13-fig6.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(specs, "rc13-fig6.yaml")
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := crosslink(t, "run", "-q", "-p", "quick", "--shard", "0/4", "-o", out, spec); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	code, _, stderr := crosslink(t, "plot", "--specs", specs, "-o", out, "rc13-fig6")
	want := "rc13-fig6: 243 of the 324 scenarios of profile quick have no row in " + filepath.Join(out, "rc13-fig6") + " yet"
	if code != exitOK || !strings.Contains(stderr, want) {
		t.Errorf("plot of a quarter of rc13-fig6: exit %d, stderr %q; want 0 and %q", code, stderr, want)
	}
}
