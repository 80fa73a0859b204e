package report

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/plots"
	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// lightDelay is a small real model for the test: the one-way delay of a
// link of length distance, d/c, with c = 3e8 m/s as document 000 prints it
// (constants: paper) or 299 792 458 m/s (codata).
type lightDelay struct{ schema *vocab.Schema }

func newLightDelay() *lightDelay {
	return &lightDelay{schema: &vocab.Schema{
		Name: "light-delay", Version: 1, Doc: "One-way delay d/c.",
		Params: []vocab.Param{
			{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(1e6), Min: 1, Max: 1e12, Doc: "link length"},
			{Name: "constants", Kind: vocab.String, Default: vocab.S("codata"), Choices: []string{"paper", "codata"}, Doc: "speed of light"},
		},
		Metrics: []vocab.Metric{{Name: "one_way_delay", Kind: vocab.Float, Unit: vocab.Second, Doc: "d/c"}},
	}}
}

func (m *lightDelay) Schema() *vocab.Schema { return m.schema }

func (m *lightDelay) Run(_ context.Context, p vocab.Params, _ uint64) (vocab.Result, error) {
	c := 299792458.0
	if p.Str("constants") == "paper" {
		c = 3e8
	}
	return vocab.Result{Metrics: []vocab.Value{vocab.F(p.Float("distance") / c)}}, nil
}

const testSpec = `name: tab2
model: light-delay
replicates: 2
grid:
  distance: [16000km, 25000km, 50000km, 80000km]
  constants: [paper, codata]
plots:
  - id: rc13-tab2
    kind: table
    x: distance
    xunit: km
    y: [one_way_delay]
    where: {constants: paper}
  - id: delay-example
    x: distance
    xunit: km
    y: [one_way_delay]
    series: [constants]
`

// sweepAndDraw runs the test spec into out/ and draws its figures, as
// crosslink figures does.
func sweepAndDraw(t *testing.T) (jobs []*sweep.Job, figDir string) {
	t.Helper()
	reg, err := vocab.NewRegistry(newLightDelay())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	specs := filepath.Join(dir, "specs")
	os.MkdirAll(specs, 0o755)
	if err := os.WriteFile(filepath.Join(specs, "tab2.yaml"), []byte(testSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	paths, err := sweep.SpecFiles(specs)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	jobs, err = sweep.LoadAll(paths, reg, "quick", true, out)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, j := range jobs {
		if _, err := sweep.Resume(ctx, j.Config(), io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	figDir = filepath.Join(out, "figures")
	var srcs []*plots.Source
	for _, j := range jobs {
		srcs = append(srcs, plots.DatasetSource(j.Spec.Name, j.Dir, j.Plan.Schema(), plots.DefsOf(j.Spec.Plots), j.Plan))
	}
	if err := plots.Draw(ctx, plots.NewRegistry(), figDir, nil, srcs); err != nil {
		t.Fatal(err)
	}
	return jobs, figDir
}

// TestBuildRefusesStaleFigures: a dataset run again after its figures
// were drawn (here with a third replicate) makes the report stop, naming
// the figure and the command that draws it again, rather than judge the
// claims on rows that are no longer the dataset's; drawn again, the
// report is built.
func TestBuildRefusesStaleFigures(t *testing.T) {
	jobs, figDir := sweepAndDraw(t)
	specFile := jobs[0].Spec.File
	if err := os.WriteFile(specFile, []byte(strings.Replace(testSpec, "replicates: 2", "replicates: 3", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := vocab.NewRegistry(newLightDelay())
	if err != nil {
		t.Fatal(err)
	}
	jobs, err = sweep.LoadAll([]string{specFile}, reg, "quick", true, filepath.Dir(figDir))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := sweep.Resume(ctx, jobs[0].Config(), io.Discard); err != nil {
		t.Fatal(err)
	}
	_, err = Build(jobs, "quick", figDir)
	if err == nil || !strings.Contains(err.Error(), "rc13-tab2 ("+filepath.Join(filepath.Dir(figDir), "tab2")+")") || !strings.Contains(err.Error(), "crosslink plot -p quick") {
		t.Fatalf("Build after the dataset changed: %v, want an error naming rc13-tab2 and crosslink plot -p quick", err)
	}
	j := jobs[0]
	src := plots.DatasetSource(j.Spec.Name, j.Dir, j.Plan.Schema(), plots.DefsOf(j.Spec.Plots), j.Plan)
	if err := plots.Draw(ctx, plots.NewRegistry(), figDir, nil, []*plots.Source{src}); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(jobs, "quick", figDir); err != nil {
		t.Fatalf("Build after drawing again: %v", err)
	}
}

func TestBuild(t *testing.T) {
	jobs, figDir := sweepAndDraw(t)
	r, err := Build(jobs, "quick", figDir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(r.Figures), len(Catalog()); got != want {
		t.Fatalf("report lists %d figures, want every one of the catalog's %d", got, want)
	}
	byID := map[string]*Figure{}
	for _, f := range append(r.Figures, r.Extra...) {
		byID[f.ID] = f
	}
	tab := byID["rc13-tab2"]
	if !tab.Drawn || tab.Missing() != "" {
		t.Fatalf("rc13-tab2: drawn %v, missing %q; want drawn", tab.Drawn, tab.Missing())
	}
	// 4 distances x 2 constants x 2 replicates, every row ok.
	wantRun := Run{Spec: "tab2", File: jobs[0].Spec.File, Model: "light-delay", ModelVersion: 1,
		Scenarios: 16, Replicates: 2, Rows: 16, OK: 16}
	gotRun := *tab.Run
	if gotRun.WallS <= 0 {
		t.Errorf("run time %g s, want the positive sum of wall_s", gotRun.WallS)
	}
	if gotRun.Dataset == "" || gotRun.Dataset != tab.drawnFrom {
		t.Errorf("dataset digest %q, the figure's sidecar names %q: want the same, not empty", gotRun.Dataset, tab.drawnFrom)
	}
	gotRun.WallS, gotRun.Dataset = 0, ""
	if diff := cmp.Diff(wantRun, gotRun); diff != "" {
		t.Errorf("rc13-tab2 run mismatch (-want +got):\n%s", diff)
	}
	// The document's Table 2 (document 000) as printed, beside ours at
	// c = 3e8 m/s: ours to 4 significant digits, so the difference is the
	// document's rounding to 4 decimals.
	if len(tab.Tables) != 1 {
		t.Fatalf("rc13-tab2 has %d tables, want its own", len(tab.Tables))
	}
	wantRows := [][]string{
		{"16000", "0.0533", "0.05333", "+0.06 %"},
		{"25000", "0.0833", "0.08333", "+0.04 %"},
		{"50000", "0.1667", "0.1667", "-0.02 %"},
		{"80000", "0.2667", "0.2667", "-0.01 %"},
	}
	if diff := cmp.Diff(wantRows, tab.Tables[0].Rows); diff != "" {
		t.Errorf("rc13-tab2 comparison rows mismatch (-want +got):\n%s", diff)
	}
	if fig6 := byID["rc13-fig6"]; fig6.Missing() == "" || fig6.Drawn {
		t.Errorf("rc13-fig6 is declared by no spec, but the report does not call it missing")
	}
	if ex := byID["delay-example"]; ex == nil || ex.Cataloged || !ex.Drawn {
		t.Errorf("delay-example = %+v, want an extra, drawn figure", ex)
	}
	miss := r.Missing()
	if len(miss) != len(Catalog())-1 {
		t.Errorf("Missing() = %d ids, want all but rc13-tab2 (%d)", len(miss), len(Catalog())-1)
	}
}

// TestWrite checks that the gallery and the text name every figure of the
// catalog, show the document's numbers, and are the same bytes when
// written twice from the same data.
func TestWrite(t *testing.T) {
	jobs, figDir := sweepAndDraw(t)
	r, err := Build(jobs, "quick", figDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(figDir, r); err != nil {
		t.Fatal(err)
	}
	html1, _ := os.ReadFile(filepath.Join(figDir, "index.html"))
	md1, _ := os.ReadFile(filepath.Join(figDir, "REPORT.md"))
	r2, err := Build(jobs, "quick", figDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(figDir, r2); err != nil {
		t.Fatal(err)
	}
	html2, _ := os.ReadFile(filepath.Join(figDir, "index.html"))
	md2, _ := os.ReadFile(filepath.Join(figDir, "REPORT.md"))
	if !bytes.Equal(html1, html2) || !bytes.Equal(md1, md2) {
		t.Errorf("report bytes differ between two writes of the same data")
	}
	for _, e := range Catalog() {
		if !bytes.Contains(html1, []byte(`id="`+e.ID+`"`)) {
			t.Errorf("index.html has no card for %s", e.ID)
		}
		if !bytes.Contains(md1, []byte("### "+e.ID+":")) {
			t.Errorf("REPORT.md has no section for %s", e.ID)
		}
	}
	for _, want := range []string{`<img src="rc13-tab2.png"`, `<td>0.0533</td>`, `href="rc13-tab2.pdf"`, "missing: no spec in specs/ declares this figure yet"} {
		if !bytes.Contains(html1, []byte(want)) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if !bytes.Contains(md1, []byte("| 16000 | 0.0533 | 0.05333 | +0.06 % |")) {
		t.Errorf("REPORT.md lacks rc13-tab2's comparison row")
	}
}

// TestCatalogMatchesIndex checks the catalog against the list of figures
// of the source documents (their index's table, kept verbatim in
// testdata/figure-index.md): the same ids, ranges spelt out. Where the
// documents' index itself lies beside the repository (shared/seeds), the
// copy must still hold its table.
func TestCatalogMatchesIndex(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "figure-index.md"))
	if err != nil {
		t.Fatal(err)
	}
	if orig, err := os.ReadFile("../../../shared/seeds/README.md"); err == nil {
		i := bytes.Index(orig, []byte("## Every figure and table to regenerate"))
		if j := bytes.Index(b, []byte("## Every figure")); i < 0 || j < 0 || !bytes.HasPrefix(orig[i:], bytes.TrimRight(b[j:], "\n")) {
			t.Errorf("testdata/figure-index.md no longer matches the table of shared/seeds/README.md")
		}
	}
	row := regexp.MustCompile(`(?m)^\| ([a-z0-9{},.-]+) \| (\d{3}) `)
	var want []string
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		want = append(want, expand(m[1])...)
	}
	var got []string
	for _, e := range Catalog() {
		got = append(got, e.ID)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("catalog ids differ from the figure index (-index +catalog):\n%s", diff)
	}
}

// expand spells out "a-{x,y}" and "os-fig2..fig9".
func expand(id string) []string {
	if i := strings.Index(id, "{"); i >= 0 {
		j := strings.Index(id, "}")
		var out []string
		for _, alt := range strings.Split(id[i+1:j], ",") {
			out = append(out, id[:i]+alt+id[j+1:])
		}
		return out
	}
	if m := regexp.MustCompile(`^(.*fig)(\d+)\.\.fig(\d+)$`).FindStringSubmatch(id); m != nil {
		var out []string
		var lo, hi int
		for _, c := range m[2] {
			lo = lo*10 + int(c-'0')
		}
		for _, c := range m[3] {
			hi = hi*10 + int(c-'0')
		}
		for n := lo; n <= hi; n++ {
			out = append(out, m[1]+string(rune('0'+n)))
		}
		return out
	}
	return []string{id}
}

func TestCounts(t *testing.T) {
	tests := []struct {
		run  Run
		want string
	}{
		{Run{Scenarios: 324, Replicates: 1, Rows: 324, OK: 324},
			"324 points x 1 replicate = 324 scenarios; 324 rows in the dataset (324 ok)"},
		{Run{Scenarios: 40, Replicates: 10, Rows: 40, OK: 39},
			"4 points x 10 replicates = 40 scenarios; 40 rows in the dataset (39 ok)"},
		{Run{Scenarios: 17, Replicates: 30, Rows: 17, OK: 17,
			Adaptive: &spec.Adaptive{Min: 3, Max: 30, Metric: "goodput_bps", CI95Rel: 0.05}},
			"adaptive replicates: 3 to 30 per point until the 95 % interval of goodput_bps is within 0.05 of its mean; 17 scenarios so far; 17 rows in the dataset (17 ok)"},
	}
	for _, tt := range tests {
		if got := tt.run.Counts(); got != tt.want {
			t.Errorf("Counts() = %q, want %q", got, tt.want)
		}
	}
}

// TestTally counts the verdicts of the drawn figures, as the headlines of
// REPORT.md and index.html print them.
func TestTally(t *testing.T) {
	var r Report
	add := func(n int, v string, drawn bool) {
		for range n {
			r.Figures = append(r.Figures, &Figure{Drawn: drawn, Verdict: Verdict{Verdict: v}})
		}
	}
	add(11, Reproduced, true)
	add(15, Partly, true)
	add(2, NotReproduced, true)
	add(3, NotDrawn, false)
	if got, want := r.Tally(), "11 reproduced, 15 partly, 2 not reproduced"; got != want {
		t.Errorf("Tally() = %q, want %q", got, want)
	}
	if got, want := r.DrawnOf(), "28 of the 31"; got != want {
		t.Errorf("DrawnOf() = %q, want %q", got, want)
	}
	own := Report{Extra: []*Figure{{Drawn: true, Verdict: Verdict{Verdict: NoPublished}}}}
	if got, want := own.Tally(), "1 no published value"; got != want {
		t.Errorf("Tally() of a report of own specs = %q, want %q", got, want)
	}
}

// TestOwnStudyReport: a report of specs that declare none of the source
// documents' figures counts their own figures, is titled as theirs, and
// lists no source documents or empty table of them, in both formats.
func TestOwnStudyReport(t *testing.T) {
	own := &Report{
		Documents: []Document{{Number: "000", Title: "a source document"}},
		Extra: []*Figure{
			{Entry: Entry{ID: "mine-a"}, Declared: true, Drawn: true, Run: &Run{}, Verdict: Verdict{Verdict: Reproduced}},
			{Entry: Entry{ID: "mine-b"}, Declared: true, Run: &Run{Spec: "mine"}, Verdict: Verdict{Verdict: NotDrawn}},
		},
	}
	if d, n := own.Count(); d != 1 || n != 2 {
		t.Errorf("Count() = %d, %d; want 1 of 2 (the specs' figures)", d, n)
	}
	if got := own.Missing(); len(got) != 1 || got[0] != "mine-b" {
		t.Errorf("Missing() = %v, want [mine-b], the figure not drawn", got)
	}
	// An empty list of catalog figures is an own study as nil is.
	if empty := (&Report{Figures: []*Figure{}, Extra: own.Extra}); !empty.Own() || empty.Tally() != own.Tally() {
		t.Errorf("a report with an empty, non-nil catalog: Own %v, Tally %q; want an own study's, %q", empty.Own(), empty.Tally(), own.Tally())
	}
	var md, html, verdicts bytes.Buffer
	if err := own.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := own.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if err := own.WriteVerdictsMarkdown(&verdicts, Provenance{Commit: "c", Command: "crosslink report"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"REPORT.md", md.String(), []string{"# crosslink report\n", "1 of the 2 figures of the specs are drawn", "## Figures", `<a id="mine-a"></a>`, "\n### mine-a\n"}},
		{"index.html", html.String(), []string{"<title>crosslink report</title>", "1 of the 2 figures of the specs are drawn", `<h2 id="figures">`, `id="mine-b"`, `missing: <a href="#mine-b">mine-b</a>`, "<h3>mine-a</h3>"}},
		{"verdicts", verdicts.String(), []string{"1 of the 2 figures of the specs are drawn", "| mine-a | - | reproduced |"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.text, w) {
				t.Errorf("%s lacks %q", c.name, w)
			}
		}
		for _, no := range []string{"Source documents", "source-documents", "a source document", "reproduction report", "0 of the 0", "other figures", "none missing", "source documents"} {
			if strings.Contains(c.text, no) {
				t.Errorf("%s of an own study says %q", c.name, no)
			}
		}
	}
}

func TestCPUSeconds(t *testing.T) {
	for _, tt := range []struct {
		wall float64
		want string
	}{{0, "0"}, {2e-6, "< 0.1"}, {0.4, "0.4"}, {383.84, "383.8"}, {5000, "5000.0"}} {
		if got := (&Run{WallS: tt.wall}).CPUSeconds(); got != tt.want {
			t.Errorf("CPUSeconds() of %g s = %q, want %q", tt.wall, got, tt.want)
		}
	}
}

// TestNavigationAndVerdicts: both reports say how many figures reproduce,
// have a table of contents and a way back to the top after each figure,
// label the summed wall_s as CPU time in seconds, and the gallery colours
// each verdict while keeping its word.
func TestNavigationAndVerdicts(t *testing.T) {
	jobs, figDir := sweepAndDraw(t)
	r, err := Build(jobs, "quick", figDir)
	if err != nil {
		t.Fatal(err)
	}
	var md, html bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	sections := len(r.Figures) + len(r.Extra)
	for _, c := range []struct {
		name, text string
		want       []string
		backs      string
	}{
		{"REPORT.md", md.String(), []string{
			"1 of the " + fmt.Sprint(len(r.Figures)) + " figures and tables of the source documents are drawn: 1 no published value",
			"Contents: [source documents](#source-documents) · [figures](#figures) · [other figures](#other-figures) · [datasets](#datasets)",
			`<a id="top"></a>`, "| CPU time (s) |", "CPU time of the scenarios (sum of wall_s): ",
		}, "[back to top](#top)"},
		{"index.html", html.String(), []string{
			"1 of the " + fmt.Sprint(len(r.Figures)) + " figures and tables of the source documents are drawn: 1 no published value",
			`<h1 id="top">`, `<nav class="toc">`, `<a href="#rc13-tab2">rc13-tab2</a>`, `<h2 id="datasets">`,
			`<span class="verdict-badge v-none">no published value</span>`, "<th>CPU time (s)</th>",
		}, `href="#top">back to top</a>`},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.text, w) {
				t.Errorf("%s lacks %q", c.name, w)
			}
		}
		if strings.Contains(c.text, "run time") {
			t.Errorf("%s still says run time for the summed wall_s", c.name)
		}
		// One link back after each figure's section, one after the datasets.
		if got := strings.Count(c.text, c.backs); got != sections+1 {
			t.Errorf("%s has %d links back to the top, want %d (one per figure and one at the end)", c.name, got, sections+1)
		}
	}
	for v, class := range map[string]string{Reproduced: "v-reproduced", Partly: "v-partly", NotReproduced: "v-not", NoPublished: "v-none"} {
		if !strings.Contains(html.String(), "."+class+" {") || verdictClass(v) != class {
			t.Errorf("verdict %q: class %q, want %q with a style in the gallery", v, verdictClass(v), class)
		}
	}
}

// hostileSpec's title, caption and claims hold NUL, ESC and BEL written
// as YAML escapes, as a spec may.
const hostileSpec = `name: tab2
model: light-delay
grid:
  distance: [16000km, 25000km]
plots:
  - id: delay-example
    title: "delay \e[31mred\e[0m"
    caption: "nul\0 bell\a"
    x: distance
    xunit: km
    y: [one_way_delay]
    claims:
      - claim: "esc\e[2J clears"
        source: "doc\0"
        where: {distance_km: 16000}
        y: one_way_delay_s
        document: 0.0533
        op: approx
        tol: {rel: 0.01}
`

// TestControlCharacters: no control character of a spec reaches REPORT.md
// or index.html; each is written as its \xNN text.
func TestControlCharacters(t *testing.T) {
	reg, err := vocab.NewRegistry(newLightDelay())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	specs := filepath.Join(dir, "specs")
	os.MkdirAll(specs, 0o755)
	if err := os.WriteFile(filepath.Join(specs, "tab2.yaml"), []byte(hostileSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	paths, err := sweep.SpecFiles(specs)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	jobs, err := sweep.LoadAll(paths, reg, "", true, out)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := sweep.Resume(ctx, jobs[0].Config(), io.Discard); err != nil {
		t.Fatal(err)
	}
	figDir := filepath.Join(out, "figures")
	j := jobs[0]
	src := plots.DatasetSource(j.Spec.Name, j.Dir, j.Plan.Schema(), plots.DefsOf(j.Spec.Plots), j.Plan)
	if err := plots.Draw(ctx, plots.NewRegistry(), figDir, nil, []*plots.Source{src}); err != nil {
		t.Fatal(err)
	}
	r, err := Build(jobs, "", figDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(figDir, r); err != nil {
		t.Fatal(err)
	}
	// html/template itself replaces a NUL by U+FFFD before printable sees it.
	for name, nul := range map[string]string{"REPORT.md": `nul\x00`, "index.html": "nul\ufffd"} {
		b, err := os.ReadFile(filepath.Join(figDir, name))
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range b {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				t.Errorf("%s: control byte %#x at offset %d: %q", name, c, i, b[max(0, i-30):min(len(b), i+30)])
				break
			}
		}
		for _, want := range []string{`esc\x1b[2J clears`, nul + ` bell\x07`} {
			if !bytes.Contains(b, []byte(want)) {
				t.Errorf("%s lacks %q, the control characters written out", name, want)
			}
		}
	}
}

// TestReportNamesRevision: both formats name the revision of the crosslink
// that wrote them, so a report attached to a paper says which code made
// it; a binary without one (a test build) names none.
func TestReportNamesRevision(t *testing.T) {
	for _, rev := range []string{"0123abcd+dirty", ""} {
		r := &Report{Revision: rev, Extra: []*Figure{{Entry: Entry{ID: "mine"}}}}
		var md, html bytes.Buffer
		if err := r.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteHTML(&html); err != nil {
			t.Fatal(err)
		}
		for name, text := range map[string]string{"REPORT.md": md.String(), "index.html": html.String()} {
			text = strings.ReplaceAll(text, "&#43;", "+")
			if got := strings.Contains(text, "Written by crosslink at revision "+rev+"."); rev != "" && !got {
				t.Errorf("%s does not name revision %s", name, rev)
			}
			if rev == "" && strings.Contains(text, "Written by") {
				t.Errorf("%s names a revision it was not given", name)
			}
		}
	}
}
