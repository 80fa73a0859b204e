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

// RunTime is the summed wall-clock time of the rows, "12.3 s".
func (r *Run) RunTime() string {
	switch {
	case r.WallS == 0:
		return "0 s"
	case r.WallS < 1e-3:
		return fmt.Sprintf("%.1f µs", r.WallS*1e6)
	case r.WallS < 1:
		return fmt.Sprintf("%.1f ms", r.WallS*1e3)
	case r.WallS < 600:
		return fmt.Sprintf("%.1f s", r.WallS)
	}
	return fmt.Sprintf("%.1f min", r.WallS/60)
}

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

// Count returns how many catalog figures are drawn, and how many there are.
func (r *Report) Count() (drawn, total int) {
	for _, f := range r.Figures {
		if f.Drawn {
			drawn++
		}
	}
	return drawn, len(r.Figures)
}

// WriteMarkdown writes the report as GitHub-flavoured Markdown.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	drawn, total := r.Count()
	fmt.Fprintf(&b, "# crosslink reproduction report\n\n")
	fmt.Fprintf(&b, "Profile %s. %d of the %d figures and tables of the source documents are drawn", r.profileName(), drawn, total)
	if miss := r.Missing(); len(miss) > 0 {
		fmt.Fprintf(&b, "; missing: %s", strings.Join(miss, ", "))
	}
	b.WriteString(".\nThe gallery (index.html) shows the same with the images.\n\n")
	b.WriteString("## Source documents\n\n| document | title |\n| --- | --- |\n")
	for _, d := range r.Documents {
		fmt.Fprintf(&b, "| %s | %s |\n", d.Number, mdCell(d.Title))
	}
	b.WriteString("\n## Figures\n\n| id | source | verdict | claims holding | spec | profile | scenarios | run time |\n| --- | --- | --- | ---: | --- | --- | ---: | ---: |\n")
	for _, f := range r.Figures {
		spec, prof, n, rt := "-", "-", "-", "-"
		if f.Run != nil {
			spec, prof, n, rt = f.Run.Spec, f.Run.ProfileName(), fmt.Sprint(f.Run.Scenarios), f.Run.RunTime()
		}
		status := f.Verdict.Verdict
		if !f.Drawn {
			status = "**missing**"
		}
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s | %s | %s | %s | %s |\n", f.ID, f.ID, f.Source(), status, f.Verdict.Holding(), spec, prof, n, rt)
	}
	for _, f := range r.Figures {
		writeFigureMD(&b, f)
	}
	if len(r.Extra) > 0 {
		b.WriteString("\n## Other figures\n\nDeclared by specs, not figures of the source documents.\n")
		for _, f := range r.Extra {
			writeFigureMD(&b, f)
		}
	}
	b.WriteString("\n## Datasets\n\n| spec | file | model | profile | scenarios | rows | ok | run time |\n| --- | --- | --- | --- | ---: | ---: | ---: | ---: |\n")
	for _, run := range r.Runs {
		fmt.Fprintf(&b, "| %s | %s | %s v%d | %s | %d | %d | %d | %s |\n", run.Spec, run.File, run.Model, run.ModelVersion, run.ProfileName(), run.Scenarios, run.Rows, run.OK, run.RunTime())
	}
	b.WriteString("\nRun time is the sum of the wall_s column of the rows: CPU-seconds of simulation, not the elapsed time of a parallel run.\n")
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

func (r *Report) profileName() string {
	if r.Profile == "" {
		return "base"
	}
	return r.Profile
}

func writeFigureMD(b *strings.Builder, f *Figure) {
	fmt.Fprintf(b, "\n<a id=\"%s\"></a>\n### %s: %s\n\n", f.ID, f.ID, f.Source())
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
	fmt.Fprintf(b, "- %s\n- run time: %s\n", f.Run.Counts(), f.Run.RunTime())
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
	if err := galleryTmpl.Execute(w, r); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	return nil
}

var galleryTmpl = template.Must(template.New("gallery").Funcs(template.FuncMap{
	"ext":     func(id, name string) string { return strings.TrimPrefix(name, id+".") },
	"capital": capital,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>crosslink: figures of the source documents</title>
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
</style>
</head>
<body>
<h1>crosslink: figures of the source documents</h1>
{{with .}}<p>Profile <b>{{if .Profile}}{{.Profile}}{{else}}base{{end}}</b>.
{{len .Figures}} figures and tables in the documents; {{$m := .Missing}}{{if $m}}missing: {{range $i, $id := $m}}{{if $i}}, {{end}}<a href="#{{$id}}">{{$id}}</a>{{end}}.{{else}}none missing.{{end}}
The same report as text: <a href="REPORT.md">REPORT.md</a>.</p>{{end}}
<h2>Source documents</h2>
<table class="summary"><tr><th>document</th><th>title</th></tr>
{{range .Documents}}<tr><td>{{.Number}}</td><td>{{.Title}}</td></tr>
{{end}}</table>
<h2>Figures</h2>
<table class="summary"><tr><th>id</th><th>source</th><th>verdict</th><th>claims holding</th><th>spec</th><th>profile</th><th>scenarios</th><th>run time</th></tr>
{{range .Figures}}<tr><td><a href="#{{.ID}}">{{.ID}}</a></td><td>{{.Source}}</td><td>{{if .Drawn}}{{.Verdict.Verdict}}{{else}}<span class="missing-text">missing</span>{{end}}</td><td>{{.Verdict.Holding}}</td><td>{{with .Run}}{{.Spec}}{{end}}</td><td>{{with .Run}}{{.ProfileName}}{{end}}</td><td>{{with .Run}}{{.Scenarios}}{{end}}</td><td>{{with .Run}}{{.RunTime}}{{end}}</td></tr>
{{end}}</table>
{{range .Figures}}{{template "card" .}}{{end}}
{{if .Extra}}<h2>Other figures</h2><p>Declared by specs, not figures of the source documents.</p>
{{range .Extra}}{{template "card" .}}{{end}}{{end}}
<h2>Datasets</h2>
<table class="summary"><tr><th>spec</th><th>file</th><th>model</th><th>profile</th><th>scenarios</th><th>rows</th><th>ok</th><th>run time</th></tr>
{{range .Runs}}<tr><td>{{.Spec}}</td><td>{{.File}}</td><td>{{.Model}} v{{.ModelVersion}}</td><td>{{.ProfileName}}</td><td>{{.Scenarios}}</td><td>{{.Rows}}</td><td>{{.OK}}</td><td>{{.RunTime}}</td></tr>
{{end}}</table>
<p class="notes">Run time is the sum of the wall_s column of the rows: CPU-seconds of simulation, not the elapsed time of a parallel run.</p>
</body>
</html>
{{define "card"}}<div class="card{{if not .Drawn}} missing{{end}}" id="{{.ID}}">
<h3>{{.ID}}: {{.Source}}</h3>
{{if .Content}}<p>{{capital .Content}}.</p>{{end}}
{{if .Drawn}}<a href="{{.ID}}.svg"><img src="{{.ID}}.png" alt="{{.ID}}: {{.Caption}}"></a>
{{if .Caption}}<p><i>{{.Caption}}</i></p>{{end}}
<p class="verdict"><b>Verdict: {{.Verdict.Verdict}}.</b>{{with .Verdict.Reason}} {{.}}{{end}}</p>
{{if .Verdict.Claims}}<table class="claims"><tr><th>claim</th><th>source</th><th>rows</th><th>document</th><th>ours</th><th>holds</th></tr>
{{range .Verdict.Claims}}<tr><td>{{.Claim}}</td><td>{{.Source}}</td><td>{{.Column}}{{with .Where}} where {{.}}{{end}}</td><td>{{.Expected}}</td><td>{{.OursText}}</td><td>{{.HoldsText}}</td></tr>
{{end}}</table>{{end}}
<dl>
<dt>spec</dt><dd>{{.Run.Spec}} ({{.Run.File}}), model {{.Run.Model}} v{{.Run.ModelVersion}}</dd>
<dt>profile</dt><dd>{{.Run.ProfileName}}</dd>
<dt>scenarios</dt><dd>{{.Run.Counts}}</dd>
<dt>run time</dt><dd>{{.Run.RunTime}}</dd>
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
