package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/crosslink-sim/crosslink/plots"
	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/slurm"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Run is what the report says of one spec's dataset at the profile the
// figures were drawn at.
type Run struct {
	Spec         string // spec name, also the dataset directory's name
	File         string // the spec file
	Profile      string // "" for the base spec
	Model        string
	ModelVersion int
	Scenarios    int // in the plan: points x replicates
	Replicates   int // per point, as the spec asks (the most, for adaptive replicates)
	// Adaptive is the spec's stopping rule when it asks for replicates
	// until a confidence interval is narrow enough; Scenarios then counts
	// the replicates the rule has asked for so far.
	Adaptive *spec.Adaptive
	Rows, OK int // rows of the plan's scenarios in the dataset, and those with status ok
	WallS    float64
	// Settings says what the profile changes from the spec's base values
	// ("replicates 3; duration 3006 s; mss: 4 values"), "" for none.
	Settings string
	// Dataset is the DatasetDigest of the plan's rows ("" with none), which
	// a figure drawn from these rows names in its sidecar.
	Dataset string
}

// Table is a Markdown table a figure wrote (its own, or its comparison
// with the document's numbers), kept verbatim for REPORT.md and split
// into cells for the gallery.
type Table struct {
	File     string // "rc13-tab2.md"
	Markdown string
	Title    string
	Header   []string
	Rows     [][]string
	Notes    []string
}

// Figure is one entry of the report.
type Figure struct {
	Entry
	Cataloged bool // in the catalog of the documents' figures
	Declared  bool // some spec's plots entry names it
	Drawn     bool // its images exist in the figures directory
	Caption   string
	Run       *Run
	Files     []string
	Notes     []string // from its drawing
	Tables    []*Table // the figure's own table, then its comparison
	// Verdict is the figure's claims evaluated on its data.
	Verdict Verdict
	// drawnFrom is the dataset digest its sidecar names.
	drawnFrom string
}

// Missing says why the figure is not in the gallery, or "".
func (f *Figure) Missing() string {
	switch {
	case !f.Declared:
		return "missing: no spec in specs/ declares this figure yet"
	case !f.Drawn:
		return fmt.Sprintf("missing: spec %s declares it but it has not been drawn (run crosslink figures)", f.Run.Spec)
	}
	return ""
}

// Report is the whole reproduction report.
type Report struct {
	Profile   string // the profile asked for
	Documents []Document
	Figures   []*Figure // catalog order
	Extra     []*Figure // declared by specs but not in the catalog (examples, extensions)
	Runs      []*Run
	// Revision is the version control revision of the crosslink that
	// wrote the report, which both formats name; "" names none.
	Revision string
}

// Verdicts returns the verdict of every figure: the documents' in catalog
// order, then the others by id.
func (r *Report) Verdicts() []Verdict {
	var vs []Verdict
	for _, f := range append(append([]*Figure(nil), r.Figures...), r.Extra...) {
		vs = append(vs, f.Verdict)
	}
	return vs
}

// Missing returns the ids of the catalog's figures that are missing (an
// own study's, see Own).
func (r *Report) Missing() []string {
	var ids []string
	for _, f := range r.counted() {
		if f.Missing() != "" {
			ids = append(ids, f.ID)
		}
	}
	return ids
}

// Build assembles the report of jobs (every spec, loaded at profile) and
// of the figures drawn in figDir.
func Build(jobs []*sweep.Job, profile, figDir string) (*Report, error) {
	r := &Report{Profile: profile, Documents: Documents()}
	runs := map[string]*Run{}
	declared := map[string]*Run{}
	captions := map[string]string{}
	claims := map[string][]spec.Claim{}
	reg := plots.NewRegistry()
	for _, j := range jobs {
		run, err := runOf(j)
		if err != nil {
			return nil, err
		}
		runs[j.Spec.Name] = run
		r.Runs = append(r.Runs, run)
		for _, p := range j.Spec.Plots {
			declared[p.ID] = run
			captions[p.ID] = p.Caption
			claims[p.ID] = p.Claims
			if f, ok := reg.Lookup(p.ID); ok && p.Caption == "" {
				captions[p.ID] = f.Caption
			}
		}
	}
	known := map[string]bool{}
	for _, e := range Catalog() {
		known[e.ID] = true
		f, err := figureOf(e, true, declared, captions, figDir)
		if err != nil {
			return nil, err
		}
		r.Figures = append(r.Figures, f)
	}
	var extra []string
	for id := range declared {
		if !known[id] {
			extra = append(extra, id)
		}
	}
	sort.Strings(extra)
	for _, id := range extra {
		f, err := figureOf(Entry{ID: id}, false, declared, captions, figDir)
		if err != nil {
			return nil, err
		}
		r.Extra = append(r.Extra, f)
	}
	all := append(append([]*Figure(nil), r.Figures...), r.Extra...)
	if err := staleFigures(all, profile, filepath.Dir(figDir)); err != nil {
		return nil, err
	}
	for _, f := range all {
		f.Verdict = VerdictOf(f.ID, f.Document, claims[f.ID], figDir, f.Drawn)
	}
	return r, nil
}

// staleFigures refuses a report whose figures were drawn from other rows
// than their datasets hold now (the dataset was run again, at another
// model version or profile, after the figures were drawn): their verdicts
// would judge data that is gone. A sidecar without a digest (drawn by an
// older crosslink) is not checked. out is the output root, which the
// advice names unless it is the default, as it names the directory of
// the specs that declare the stale figures unless that is specs/ (plot's
// --specs). Specs whose datasets hold no row of the profile at all (a
// report at a profile not run yet) come first, with the command that runs
// them: drawing again would not help them.
func staleFigures(figs []*Figure, profile, out string) error {
	var stale, unrun, unrunFiles []string
	specDir := ""
	for _, f := range figs {
		if !f.Drawn || f.drawnFrom == "" || f.Run.Dataset == "" || f.drawnFrom == f.Run.Dataset {
			continue
		}
		if f.Run.File != "" {
			specDir = filepath.Dir(f.Run.File)
		}
		if f.Run.Rows == 0 {
			if !slices.Contains(unrun, f.Run.Spec) {
				unrun = append(unrun, f.Run.Spec)
				unrunFiles = append(unrunFiles, slurm.Quote(f.Run.File))
			}
			continue
		}
		stale = append(stale, f.ID+" ("+filepath.Join(out, f.Run.Spec)+")")
	}
	if len(stale)+len(unrun) == 0 {
		return nil
	}
	flag := ""
	if profile != "" {
		flag = " -p " + profile
	}
	if filepath.Clean(out) != "out" {
		flag += " -o " + slurm.Quote(out)
	}
	plotFlag := flag
	if specDir != "" && specDir != "specs" {
		plotFlag += " --specs " + slurm.Quote(specDir)
	}
	var says []string
	if len(unrun) > 0 {
		how := fmt.Sprintf("crosslink run%s %s, then crosslink plot%s", flag, strings.Join(unrunFiles, " "), plotFlag)
		// make figures runs the specs of specs/ into out/, at a profile
		// (quick unless told): the repository's layout only.
		if profile != "" && filepath.Clean(out) == "out" && (specDir == "" || specDir == "specs") {
			how = "make figures PROFILE=" + profile + " runs, draws and reports, or " + how
		}
		whose := "the datasets of " + sweep.Count(len(unrun), "spec") + " hold"
		them := "them"
		if len(unrun) == 1 {
			whose, them = "the dataset of 1 spec holds", "it"
		}
		says = append(says, fmt.Sprintf("%s no row of profile %s: %s; run %s first (%s)",
			whose, profileWord(profile), strings.Join(unrun, ", "), them, how))
	}
	if len(stale) > 0 {
		theirs, them := "their datasets hold", "them"
		if len(stale) == 1 {
			theirs, them = "its dataset holds", "it"
		}
		says = append(says, fmt.Sprintf("%s drawn from other rows than %s now: %s; draw %s again with crosslink plot%s (make figures runs, draws and reports) and run report again",
			countWere(len(stale), "figure"), theirs, strings.Join(stale, ", "), them, plotFlag))
	}
	return fmt.Errorf("report: %s", strings.Join(says, "; besides, "))
}

// profileWord names a profile as the report does: "base" for none.
func profileWord(profile string) string {
	if profile == "" {
		return "base"
	}
	return profile
}

// countWere is "1 figure was" or "3 figures were".
func countWere(n int, unit string) string {
	if n == 1 {
		return sweep.Count(n, unit) + " was"
	}
	return sweep.Count(n, unit) + " were"
}

func figureOf(e Entry, cataloged bool, declared map[string]*Run, captions map[string]string, dir string) (*Figure, error) {
	f := &Figure{Entry: e, Cataloged: cataloged, Run: declared[e.ID], Caption: captions[e.ID]}
	f.Declared = f.Run != nil
	if !f.Declared {
		return f, nil
	}
	sc, err := plots.ReadSidecar(dir, e.ID)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	f.Drawn = true
	f.Files, f.Notes, f.drawnFrom = sc.Files, sc.Notes, sc.Dataset
	if sc.Caption != "" {
		f.Caption = sc.Caption
	}
	for _, name := range []string{sc.Table, sc.Comparison} {
		if name == "" {
			continue
		}
		t, err := readTable(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		f.Tables = append(f.Tables, t)
	}
	return f, nil
}

// runOf counts the rows of a job's plan in its dataset and sums their
// wall-clock time.
func runOf(j *sweep.Job) (*Run, error) {
	s := j.Model.Schema()
	run := &Run{
		Spec: j.Spec.Name, File: j.Spec.File, Profile: j.Profile,
		Model: s.Name, ModelVersion: s.Version,
		Scenarios: j.Plan.Len(), Replicates: max(j.Spec.Replicates, 1),
		Adaptive: j.Spec.Adaptive,
		Settings: profileSettings(j.Spec, j.Profile, s),
	}
	if j.Spec.Adaptive != nil {
		asked, err := sweep.AdaptiveScenarios(j)
		if err != nil {
			return nil, fmt.Errorf("report: spec %s: %w", j.Spec.Name, err)
		}
		run.Scenarios = asked.Len()
	}
	parts, err := dataset.Parts(j.Dir)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if len(parts) == 0 {
		return run, nil
	}
	fr, err := plots.ReadFrame(j.Dir)
	if err != nil {
		return nil, fmt.Errorf("report: spec %s: %w", j.Spec.Name, err)
	}
	fr, err = plots.KeepScenarios(fr, j.Plan)
	if err != nil {
		return nil, fmt.Errorf("report: spec %s: %w", j.Spec.Name, err)
	}
	st, err := fr.Col(dataset.ColStatus)
	if err != nil {
		return nil, fmt.Errorf("report: spec %s: %w", j.Spec.Name, err)
	}
	wall, err := fr.Col(dataset.ColWall)
	if err != nil {
		return nil, fmt.Errorf("report: spec %s: %w", j.Spec.Name, err)
	}
	run.Rows = fr.Len()
	run.Dataset = plots.DatasetDigest(fr)
	for i := range fr.Len() {
		if st.Value(i).Str() == string(dataset.OK) {
			run.OK++
		}
		if w, ok := wall.Numeric(i); ok {
			run.WallS += w
		}
	}
	return run, nil
}

// readTable reads a Markdown table in the form plots.Table.WriteMarkdown
// writes: "# title", a caption paragraph, pipe rows, "- note" lines.
func readTable(path string) (*Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	t := &Table{File: filepath.Base(path), Markdown: string(b)}
	sc := bufio.NewScanner(bytes.NewReader(b))
	rows := 0
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# "):
			t.Title = strings.TrimPrefix(line, "# ")
		case strings.HasPrefix(line, "- "):
			t.Notes = append(t.Notes, strings.TrimPrefix(line, "- "))
		case strings.HasPrefix(line, "|"):
			rows++
			cells := splitRow(line)
			switch {
			case rows == 1:
				t.Header = cells
			case rows == 2: // the alignment row
			default:
				t.Rows = append(t.Rows, cells)
			}
		}
	}
	return t, nil
}

// splitRow splits "| a | b \| c |" into its cells, unescaping "\|".
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// profileSettings lists the overrides of profile name in s: replicates,
// parameters (with their units) and grid axes (by value count), and the
// base values a parameter override replaces when the spec's own profile
// "full" leaves them as they are.
func profileSettings(s *spec.Spec, name string, schema *vocab.Schema) string {
	if name == "" {
		return ""
	}
	var parts []string
	for _, pr := range s.Profiles {
		if pr.Name != name {
			continue
		}
		switch {
		case pr.Adaptive != nil:
			parts = append(parts, fmt.Sprintf("replicates %d to %d (adaptive)", pr.Adaptive.Min, pr.Adaptive.Max))
		case pr.Replicates > 0:
			parts = append(parts, fmt.Sprintf("replicates %d", pr.Replicates))
		}
		for _, st := range pr.Params {
			parts = append(parts, st.Name+" "+settingText(schema, st))
		}
		for _, ax := range pr.Grid {
			parts = append(parts, fmt.Sprintf("%s: %d values", ax.Name, len(ax.Values)))
		}
		if pr.HasCases {
			parts = append(parts, fmt.Sprintf("%d cases", len(pr.Cases)))
		}
	}
	return strings.Join(parts, "; ")
}

// settingText prints a parameter value with its unit.
func settingText(schema *vocab.Schema, st spec.Setting) string {
	v := st.Value
	if v.Kind() != vocab.Float && v.Kind() != vocab.Int {
		return v.String()
	}
	out := strconv.FormatFloat(v.Float(), 'g', 6, 64)
	for _, p := range schema.Params {
		if p.Name == st.Name && p.Unit != "" {
			out += " " + string(p.Unit)
		}
	}
	return out
}
