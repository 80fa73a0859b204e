package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/crosslink-sim/crosslink/plots"
)

// Write writes r as index.html, REPORT.md and verdicts.json into dir,
// each through a temporary file renamed into place.
func Write(dir string, r *Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	var md, html bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		return err
	}
	if err := r.WriteHTML(&html); err != nil {
		return err
	}
	if err := plots.WriteFile(filepath.Join(dir, "REPORT.md"), md.Bytes()); err != nil {
		return err
	}
	if err := WriteVerdicts(filepath.Join(dir, "verdicts.json"), r.Verdicts()); err != nil {
		return err
	}
	return plots.WriteFile(filepath.Join(dir, "index.html"), html.Bytes())
}

// Source returns "document 000, Table 2".
func (f *Figure) Source() string {
	if f.Document == "" {
		return "not a figure of the source documents"
	}
	return "document " + f.Document + ", " + f.Figure
}

// Heading is the title of the figure's card in REPORT.md and index.html:
// "fig6: document 000, Table 2", or the id alone for a figure of no source
// document, which the section the card stands in (other figures, or a
// study of one's own) already says.
func (f *Figure) Heading() string {
	if f.Document == "" {
		return f.ID
	}
	return f.ID + ": " + f.Source()
}

// ProfileName is the profile name to print: "base" when the spec had none.
func (r *Run) ProfileName() string {
	if r.Profile == "" {
		return "base"
	}
	return r.Profile
}

// Counts is "81 points x 1 replicate = 324 scenarios, 324 rows (324 ok)".
func (r *Run) Counts() string {
	if a := r.Adaptive; a != nil {
		return fmt.Sprintf("adaptive replicates: %d to %d per point until the 95 %% interval of %s is within %g of its mean; %d scenarios so far; %d rows in the dataset (%d ok)",
			a.Min, a.Max, a.Metric, a.CI95Rel, r.Scenarios, r.Rows, r.OK)
	}
	points := r.Scenarios / max(r.Replicates, 1)
	rep := "replicates"
	if r.Replicates == 1 {
		rep = "replicate"
	}
	return fmt.Sprintf("%d points x %d %s = %d scenarios; %d rows in the dataset (%d ok)", points, r.Replicates, rep, r.Scenarios, r.Rows, r.OK)
}

// CPUSeconds is the summed wall_s of the rows in seconds, always in
// seconds so that a column of them compares at a glance: "383.8", "0.4",
// "< 0.1" (a closed-form sweep), "0" (no rows). Each scenario runs on one
// worker, so its wall_s is its CPU time; the sum is the CPU time of the
// sweep, not the elapsed time of a run on several workers, which the
// dataset does not record.
func (r *Run) CPUSeconds() string {
	switch {
	case r.WallS == 0:
		return "0"
	case r.WallS < 0.05:
		return "< 0.1"
	}
	return fmt.Sprintf("%.1f", r.WallS)
}

// cpuNote says what the CPU time columns are.
const cpuNote = "CPU time is the sum of the wall_s column of the rows, in seconds: each scenario's own time on the one worker that ran it. " +
	"A run on N workers takes at least this divided by N of elapsed time; the dataset does not record the elapsed time of the runs that made it."

// Status is "drawn", or the missing text.
func (f *Figure) Status() string {
	if m := f.Missing(); m != "" {
		return m
	}
	return "drawn"
}

// NoComparison reports whether the document prints numbers for the figure
// but the drawn figure sets none beside ours.
func (f *Figure) NoComparison() bool { return f.Printed && f.Drawn && len(f.Tables) == 0 }

// Tally counts the verdicts of the drawn figures, the catalog's (or, when
// the report has no catalog figures, the others): "11 reproduced, 15
// partly, 2 not reproduced", leaving out verdicts no figure has.
func (r *Report) Tally() string {
	figs := r.counted()
	n := map[string]int{}
	for _, f := range figs {
		if f.Drawn {
			n[f.Verdict.Verdict]++
		}
	}
	var parts []string
	for _, v := range []string{Reproduced, Partly, NotReproduced, NotComputed, NoPublished} {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[v], v))
		}
	}
	if len(parts) == 0 {
		return "none drawn"
	}
	return strings.Join(parts, ", ")
}

// ClaimTally counts the claims of the drawn figures (as Tally chooses
// them): "412 hold, 170 fail, 6 not computed", the last left out when
// none is.
func (r *Report) ClaimTally() string {
	figs := r.counted()
	var hold, fail, skip int
	for _, f := range figs {
		if !f.Drawn {
			continue
		}
		h, fl, sk := f.Verdict.Counts()
		hold, fail, skip = hold+h, fail+fl, skip+sk
	}
	s := fmt.Sprintf("claims: %d hold, %d fail", hold, fail)
	if skip > 0 {
		s += fmt.Sprintf(", %d not computed (points the profile did not run)", skip)
	}
	return s
}

// DrawnOf is "28 of the 28": the catalog's figures drawn, of all.
func (r *Report) DrawnOf() string {
	drawn, total := r.Count()
	return fmt.Sprintf("%d of the %d", drawn, total)
}

// Own reports whether this is the report of a study of one's own: specs
// that declare none of the source documents' figures, only their own.
func (r *Report) Own() bool { return len(r.Figures) == 0 }

// counted returns the figures the headlines count (Count, Tally,
// ClaimTally, Missing): the catalog's, or an own study's (Own).
func (r *Report) counted() []*Figure {
	if r.Own() {
		return r.Extra
	}
	return r.Figures
}

// Count returns how many catalog figures are drawn, and how many there
// are; for a study of one's own (Own), its specs' figures.
func (r *Report) Count() (drawn, total int) {
	figs := r.counted()
	for _, f := range figs {
		if f.Drawn {
			drawn++
		}
	}
	return drawn, len(figs)
}

// Title is the report's heading.
func (r *Report) Title() string {
	if r.Own() {
		return "crosslink report"
	}
	return "crosslink reproduction report"
}

// Whose says whose figures Count counts.
func (r *Report) Whose() string {
	if r.Own() {
		return "figures of the specs"
	}
	return "figures and tables of the source documents"
}

// WriteMarkdown writes the report as GitHub-flavoured Markdown.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	drawn, total := r.Count()
	fmt.Fprintf(&b, "<a id=\"top\"></a>\n\n# %s\n\n", r.Title())
	fmt.Fprintf(&b, "Profile %s. %d of the %d %s are drawn: %s", r.profileName(), drawn, total, r.Whose(), r.Tally())
	if miss := r.Missing(); len(miss) > 0 {
		fmt.Fprintf(&b, "; missing: %s", strings.Join(miss, ", "))
	}
	fmt.Fprintf(&b, "; %s", r.ClaimTally())
	b.WriteString(".\nThe gallery (index.html) shows the same with the images.")
	if r.Revision != "" {
		fmt.Fprintf(&b, " Written by crosslink at revision %s.", r.Revision)
	}
	b.WriteString("\n\n")
	if r.Own() {
		writeOwnMD(&b, r)
	} else {
		writeCatalogMD(&b, r)
	}
	b.WriteString("\n## Datasets\n\n| spec | file | model | profile | scenarios | rows | ok | CPU time (s) |\n| --- | --- | --- | --- | ---: | ---: | ---: | ---: |\n")
	var sum float64
	for _, run := range r.Runs {
		fmt.Fprintf(&b, "| %s | %s | %s v%d | %s | %d | %d | %d | %s |\n", run.Spec, mdCell(run.File), run.Model, run.ModelVersion, run.ProfileName(), run.Scenarios, run.Rows, run.OK, run.CPUSeconds())
		sum += run.WallS
	}
	fmt.Fprintf(&b, "| all | | | | | | | %s |\n", (&Run{WallS: sum}).CPUSeconds())
	b.WriteString("\n" + cpuNote + "\n\n[back to top](#top)\n")
	_, err := io.WriteString(w, printable(b.String()))
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// writeOwnMD writes the figures of a study of one's own (Report.Own):
// there are no source documents to list.
func writeOwnMD(b *strings.Builder, r *Report) {
	b.WriteString("Contents: [figures](#figures) · [datasets](#datasets)\n\n## Figures\n")
	for _, f := range r.Extra {
		writeFigureMD(b, f)
	}
}

// writeCatalogMD writes the source documents, their figures and the
// other figures the specs declare.
func writeCatalogMD(b *strings.Builder, r *Report) {
	b.WriteString("Contents: [source documents](#source-documents) · [figures](#figures)")
	if len(r.Extra) > 0 {
		b.WriteString(" · [other figures](#other-figures)")
	}
	b.WriteString(" · [datasets](#datasets)\n\n")
	b.WriteString("## Source documents\n\n| document | title |\n| --- | --- |\n")
	for _, d := range r.Documents {
		fmt.Fprintf(b, "| %s | %s |\n", d.Number, mdCell(d.Title))
	}
	b.WriteString("\n## Figures\n\n| id | source | verdict | claims holding | spec | profile | scenarios | CPU time (s) |\n| --- | --- | --- | ---: | --- | --- | ---: | ---: |\n")
	for _, f := range r.Figures {
		spec, prof, n, rt := "-", "-", "-", "-"
		if f.Run != nil {
			spec, prof, n, rt = f.Run.Spec, f.Run.ProfileName(), fmt.Sprint(f.Run.Scenarios), f.Run.CPUSeconds()
		}
		status := f.Verdict.Verdict
		if !f.Drawn {
			status = "**missing**"
		}
		fmt.Fprintf(b, "| [%s](#%s) | %s | %s | %s | %s | %s | %s | %s |\n", f.ID, f.ID, f.Source(), status, f.Verdict.Holding(), spec, prof, n, rt)
	}
	for _, f := range r.Figures {
		writeFigureMD(b, f)
	}
	if len(r.Extra) > 0 {
		b.WriteString("\n## Other figures\n\nDeclared by specs, not figures of the source documents.\n")
		for _, f := range r.Extra {
			writeFigureMD(b, f)
		}
	}
}

func (r *Report) profileName() string { return profileWord(r.Profile) }

func writeFigureMD(b *strings.Builder, f *Figure) {
	writeFigureBody(b, f)
	b.WriteString("\n[back to top](#top)\n")
}

func writeFigureBody(b *strings.Builder, f *Figure) {
	fmt.Fprintf(b, "\n<a id=\"%s\"></a>\n### %s\n\n", f.ID, f.Heading())
	if f.Content != "" {
		fmt.Fprintf(b, "%s.\n\n", capital(f.Content))
	}
	if m := f.Missing(); m != "" {
		fmt.Fprintf(b, "**%s**\n", m)
		if f.Deviation != "" {
			fmt.Fprintf(b, "\nDeviation: %s\n", f.Deviation)
		}
		return
	}
	fmt.Fprintf(b, "![%s](%s.png)\n\n", f.ID, f.ID)
	writeVerdictMD(b, f.Verdict)
	if f.Caption != "" {
		fmt.Fprintf(b, "Caption: %s\n\n", f.Caption)
	}
	fmt.Fprintf(b, "- spec: %s (%s), profile %s, model %s v%d\n", f.Run.Spec, f.Run.File, f.Run.ProfileName(), f.Run.Model, f.Run.ModelVersion)
	fmt.Fprintf(b, "- %s\n- CPU time of the scenarios (sum of wall_s): %s s\n", f.Run.Counts(), f.Run.CPUSeconds())
	if f.Run.Settings != "" {
		fmt.Fprintf(b, "- profile %s changes the spec's base settings: %s\n", f.Run.ProfileName(), f.Run.Settings)
	}
	var links []string
	for _, name := range f.Files {
		links = append(links, fmt.Sprintf("[%s](%s)", strings.TrimPrefix(name, f.ID+"."), name))
	}
	fmt.Fprintf(b, "- files: %s\n", strings.Join(links, ", "))
	if f.Deviation != "" {
		fmt.Fprintf(b, "- deviation: %s\n", f.Deviation)
	}
	for _, n := range f.Notes {
		fmt.Fprintf(b, "- note: %s\n", n)
	}
	if f.NoComparison() {
		b.WriteString("- the document prints numbers for this figure; the figure does not set them beside ours yet\n")
	}
	for _, t := range f.Tables {
		b.WriteString("\n" + demote(t.Markdown))
	}
}

// demote turns the "# title" of a figure's Markdown table into a
// fourth-level heading, under the figure's own.
func demote(md string) string {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "# ") {
			lines[i] = "####" + l[1:]
		}
	}
	return strings.Join(lines, "\n")
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// printable writes each control character of s but newline and tab (C0,
// DEL, C1: a NUL or an ESC that a spec's title, caption or claim spelt as
// a YAML escape) as the text \x1b, so that neither REPORT.md nor
// index.html carries a byte that a terminal or a browser would act on or
// a Markdown renderer would drop, and the reader sees what was there.
func printable(s string) string {
	clean := func(r rune) bool {
		return r == '\n' || r == '\t' || !(r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f))
	}
	if strings.IndexFunc(s, func(r rune) bool { return !clean(r) }) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if clean(r) {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, `\x%02x`, r)
	}
	return b.String()
}

// verdictClass is the CSS class of a verdict's badge.
func verdictClass(v string) string {
	switch v {
	case Reproduced:
		return "v-reproduced"
	case Partly:
		return "v-partly"
	case NotReproduced:
		return "v-not"
	}
	return "v-none"
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// WriteHTML writes the gallery: one card per figure with its image, its
// facts, links to its files and its tables; missing figures as cards that
// say so.
func (r *Report) WriteHTML(w io.Writer) error {
	var b strings.Builder
	if err := galleryTmpl.Execute(&b, r); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	if _, err := io.WriteString(w, printable(b.String())); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	return nil
}

var galleryTmpl = template.Must(template.New("gallery").Funcs(template.FuncMap{
	"ext":     func(id, name string) string { return strings.TrimPrefix(name, id+".") },
	"capital": capital,
	"vclass":  verdictClass,
	"cpuNote": func() string { return cpuNote },
	"allCPU": func(runs []*Run) string {
		var sum float64
		for _, r := range runs {
			sum += r.WallS
		}
		return (&Run{WallS: sum}).CPUSeconds()
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: "Liberation Serif", "Times New Roman", serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #111; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 2em; } h3 { font-size: 1.1em; margin: 0 0 .4em; }
.card { border: 1px solid #ccc; border-radius: 4px; padding: 1em; margin: 1.2em 0; }
.card.missing { background: #fbf3e8; border-color: #D55E00; }
.card img { max-width: 100%; height: auto; border: 1px solid #eee; }
.missing-text { color: #D55E00; font-weight: bold; }
dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; margin: .6em 0; }
dt { color: #555; } dd { margin: 0; }
table { border-collapse: collapse; margin: .6em 0; font-size: .95em; }
th, td { border-bottom: 1px solid #ddd; padding: .2em .6em; text-align: right; }
th { border-bottom: 2px solid #333; }
.notes { font-size: .9em; color: #444; }
.summary td, .summary th { text-align: left; }
.claims td:nth-child(-n+3), .claims th:nth-child(-n+3) { text-align: left; }
/* Verdict badges: Okabe-Ito hues on light grounds with dark text, and a
   border style each (solid, dashed, dotted, none), so that the word reads
   and the kinds differ in greyscale too. */
.verdict-badge { padding: 0 .35em; border-radius: 3px; white-space: nowrap; color: #111; }
.v-reproduced { background: #cdeee2; border: 2px solid #009E73; }
.v-partly { background: #fbe9c2; border: 2px dashed #E69F00; }
.v-not { background: #f7d4c2; border: 2px dotted #D55E00; font-weight: bold; }
.v-none { background: #eee; border: 1px solid #999; }
nav.toc { font-size: .95em; line-height: 1.6; }
a.top { font-size: .85em; float: right; }
</style>
</head>
<body>
<h1 id="top">{{.Title}}</h1>
{{with .}}<p>Profile <b>{{if .Profile}}{{.Profile}}{{else}}base{{end}}</b>.
{{.DrawnOf}} {{.Whose}} are drawn: {{.Tally}}; {{.ClaimTally}}; {{$m := .Missing}}{{if $m}}missing: {{range $i, $id := $m}}{{if $i}}, {{end}}<a href="#{{$id}}">{{$id}}</a>{{end}}.{{else}}none missing.{{end}}
The same report as text: <a href="REPORT.md">REPORT.md</a>.{{with .Revision}} Written by crosslink at revision {{.}}.{{end}}</p>{{end}}
{{if .Own}}<nav class="toc"><b>Contents:</b> <a href="#figures">figures</a> · <a href="#datasets">datasets</a><br>
<b>Figures:</b> {{range $i, $f := .Extra}}{{if $i}} · {{end}}<a href="#{{$f.ID}}">{{$f.ID}}</a>{{end}}</nav>
<h2 id="figures">Figures</h2>
{{range .Extra}}{{template "card" .}}{{end}}
{{else}}<nav class="toc"><b>Contents:</b> <a href="#source-documents">source documents</a> · <a href="#figures">figures</a>{{if .Extra}} · <a href="#other-figures">other figures</a>{{end}} · <a href="#datasets">datasets</a><br>
<b>Figures:</b> {{range $i, $f := .Figures}}{{if $i}} · {{end}}<a href="#{{$f.ID}}">{{$f.ID}}</a>{{end}}{{if .Extra}}<br><b>Other figures:</b> {{range $i, $f := .Extra}}{{if $i}} · {{end}}<a href="#{{$f.ID}}">{{$f.ID}}</a>{{end}}{{end}}</nav>
<h2 id="source-documents">Source documents</h2>
<table class="summary"><tr><th>document</th><th>title</th></tr>
{{range .Documents}}<tr><td>{{.Number}}</td><td>{{.Title}}</td></tr>
{{end}}</table>
<h2 id="figures">Figures</h2>
<table class="summary"><tr><th>id</th><th>source</th><th>verdict</th><th>claims holding</th><th>spec</th><th>profile</th><th>scenarios</th><th>CPU time (s)</th></tr>
{{range .Figures}}<tr><td><a href="#{{.ID}}">{{.ID}}</a></td><td>{{.Source}}</td><td>{{if .Drawn}}<span class="verdict-badge {{vclass .Verdict.Verdict}}">{{.Verdict.Verdict}}</span>{{else}}<span class="missing-text">missing</span>{{end}}</td><td>{{.Verdict.Holding}}</td><td>{{with .Run}}{{.Spec}}{{end}}</td><td>{{with .Run}}{{.ProfileName}}{{end}}</td><td>{{with .Run}}{{.Scenarios}}{{end}}</td><td>{{with .Run}}{{.CPUSeconds}}{{end}}</td></tr>
{{end}}</table>
{{range .Figures}}{{template "card" .}}{{end}}
{{if .Extra}}<h2 id="other-figures">Other figures</h2><p>Declared by specs, not figures of the source documents.</p>
{{range .Extra}}{{template "card" .}}{{end}}{{end}}{{end}}
<h2 id="datasets">Datasets</h2>
<table class="summary"><tr><th>spec</th><th>file</th><th>model</th><th>profile</th><th>scenarios</th><th>rows</th><th>ok</th><th>CPU time (s)</th></tr>
{{range .Runs}}<tr><td>{{.Spec}}</td><td>{{.File}}</td><td>{{.Model}} v{{.ModelVersion}}</td><td>{{.ProfileName}}</td><td>{{.Scenarios}}</td><td>{{.Rows}}</td><td>{{.OK}}</td><td>{{.CPUSeconds}}</td></tr>
{{end}}<tr><th>all</th><th></th><th></th><th></th><th></th><th></th><th></th><th>{{allCPU .Runs}}</th></tr></table>
<p class="notes">{{cpuNote}}</p>
<p><a href="#top">back to top</a></p>
</body>
</html>
{{define "card"}}<div class="card{{if not .Drawn}} missing{{end}}" id="{{.ID}}">
<a class="top" href="#top">back to top</a>
<h3>{{.Heading}}</h3>
{{if .Content}}<p>{{capital .Content}}.</p>{{end}}
{{if .Drawn}}<a href="{{.ID}}.svg"><img src="{{.ID}}.png" alt="{{.ID}}: {{.Caption}}"></a>
{{if .Caption}}<p><i>{{.Caption}}</i></p>{{end}}
<p class="verdict"><b>Verdict: <span class="verdict-badge {{vclass .Verdict.Verdict}}">{{.Verdict.Verdict}}</span>.</b>{{with .Verdict.Reason}} {{.}}{{end}}</p>
{{if .Verdict.Claims}}<table class="claims"><tr><th>claim</th><th>source</th><th>rows</th><th>document</th><th>ours</th><th>holds</th></tr>
{{range .Verdict.Claims}}<tr><td>{{.Claim}}</td><td>{{.Source}}</td><td>{{.Column}}{{with .Where}} where {{.}}{{end}}</td><td>{{.Expected}}</td><td>{{.OursText}}</td><td>{{.HoldsText}}</td></tr>
{{end}}</table>{{end}}
<dl>
<dt>spec</dt><dd>{{.Run.Spec}} ({{.Run.File}}), model {{.Run.Model}} v{{.Run.ModelVersion}}</dd>
<dt>profile</dt><dd>{{.Run.ProfileName}}</dd>
<dt>scenarios</dt><dd>{{.Run.Counts}}</dd>
<dt>CPU time</dt><dd>{{.Run.CPUSeconds}} s, the sum of the scenarios' wall_s</dd>
{{if .Run.Settings}}<dt>profile settings</dt><dd>profile {{.Run.ProfileName}} changes the spec's base settings: {{.Run.Settings}}</dd>{{end}}
<dt>files</dt><dd>{{$id := .ID}}{{range $i, $f := .Files}}{{if $i}} · {{end}}<a href="{{$f}}">{{ext $id $f}}</a>{{end}}</dd>
{{if .Deviation}}<dt>deviation</dt><dd>{{.Deviation}}</dd>{{end}}
{{range .Notes}}<dt>note</dt><dd>{{.}}</dd>{{end}}
{{if .NoComparison}}<dt>numbers</dt><dd class="missing-text">the document prints numbers for this figure; the figure does not set them beside ours yet</dd>{{end}}
</dl>
{{range .Tables}}{{if .Title}}<h4>{{.Title}}</h4>{{end}}
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{if .Notes}}<ul class="notes">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{end}}{{else}}<p class="missing-text">{{.Missing}}</p>
{{if .Deviation}}<p class="notes">Deviation: {{.Deviation}}</p>{{end}}{{end}}
</div>
{{end}}`))

// Provenance says where a verdicts file comes from: the commit of the
// code that computed the verdicts (git describe, or the binary's
// vcs.revision), and the command that wrote it.
type Provenance struct {
	Commit  string
	Command string
}

// WriteVerdictsMarkdown writes every figure's verdict, with its counts of
// claims holding, failing and not computed and its claims, as a generated
// Markdown file meant to be committed (docs/verdicts-full.md): it names
// the commit and the profile the verdicts came from, so a reader knows
// which code and which runs they describe.
func (r *Report) WriteVerdictsMarkdown(w io.Writer, pv Provenance) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- Generated by %s; do not edit. -->\n\n", pv.Command)
	fmt.Fprintf(&b, "# Verdicts at the %s profile\n\n", r.profileName())
	fmt.Fprintf(&b, "Computed by crosslink at commit %s from the datasets of profile %s. ", pv.Commit, r.profileName())
	drawn, total := r.Count()
	fmt.Fprintf(&b, "%d of the %d %s are drawn: %s; %s.\n\n", drawn, total, r.Whose(), r.Tally(), r.ClaimTally())
	b.WriteString("| id | source | verdict | hold | fail | not computed | spec | profile |\n| --- | --- | --- | ---: | ---: | ---: | --- | --- |\n")
	figs := append(append([]*Figure(nil), r.Figures...), r.Extra...)
	for _, f := range figs {
		verdict := f.Verdict.Verdict
		if !f.Drawn {
			verdict = "missing"
		}
		hold, fail, skip := f.Verdict.Counts()
		spec, prof := "-", "-"
		if f.Run != nil {
			spec, prof = f.Run.Spec, f.Run.ProfileName()
		}
		id := f.ID
		if hasSection(f) {
			id = fmt.Sprintf("[%s](#%s)", f.ID, f.ID)
		}
		source := f.Source()
		if r.Own() {
			source = "-" // no figure of an own study is a document's
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %s | %s |\n", id, mdCell(source), verdict, hold, fail, skip, spec, prof)
	}
	for _, f := range figs {
		if !hasSection(f) {
			continue
		}
		// The verdicts page has no section of other figures, so the
		// heading of a figure of no document says what it is; in an
		// own study no figure is a document's, and its id heads it.
		heading := f.ID + ": " + f.Source()
		if r.Own() {
			heading = f.Heading()
		}
		fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n## %s\n\n", f.ID, heading)
		writeVerdictMD(&b, f.Verdict)
	}
	if _, err := io.WriteString(w, printable(b.String())); err != nil {
		return fmt.Errorf("report: verdicts: %w", err)
	}
	return nil
}

// hasSection reports whether the verdicts page gives f a section of its
// own (a drawn figure with claims), which its row links to.
func hasSection(f *Figure) bool { return f.Drawn && len(f.Verdict.Claims) > 0 }
