package report

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/crosslink-sim/crosslink/plots"
	"github.com/crosslink-sim/crosslink/sweep/spec"
)

// Verdicts a figure can get.
const (
	Reproduced    = "reproduced"
	Partly        = "partly"
	NotReproduced = "not reproduced"
	NoPublished   = "no published value"
	NotDrawn      = "not drawn"
	// NotComputed is the verdict of a figure none of whose claims the
	// profile computed: each is about a point it did not run.
	NotComputed = "not computed"
)

// errNoRow says that a claim's rows are not in the figure's data: the
// profile the figure was drawn at did not run that point (the quick grid
// skips it), so the claim is not computed rather than failed.
var errNoRow = errors.New("no row")

// Verdict is how a figure compares with its document: every claim of its
// spec's plots entry evaluated on the figure's tidy data (<id>.csv). It is
// what out/figures/verdicts.json lists, one per figure.
type Verdict struct {
	ID       string `json:"id"`
	Document string `json:"document"` // "000"; "" for figures of no document
	Verdict  string `json:"verdict"`
	// Reason says in one sentence why the verdict is not "reproduced",
	// generated from the claims that fail.
	Reason string `json:"reason,omitempty"`
	// Hold, Fail and NotComputed count the claims (see Counts).
	Hold        int           `json:"claims_hold"`
	Fail        int           `json:"claims_fail"`
	NotComputed int           `json:"claims_not_computed"`
	Claims      []ClaimResult `json:"claims"`
}

// ClaimResult is one claim with our value beside the document's.
type ClaimResult struct {
	Claim         string    `json:"claim"`
	Source        string    `json:"source"`
	Column        string    `json:"column"`
	Where         string    `json:"where,omitempty"` // "curve=1 Gbps, distance_km=16000"
	Op            string    `json:"op"`
	DocumentValue *float64  `json:"document_value"`
	Bounds        []float64 `json:"bounds,omitempty"`
	Ours          *float64  `json:"ours"`
	Tolerance     string    `json:"tolerance"`
	Holds         bool      `json:"holds"`
	// NotComputed says the profile did not run the point the claim is
	// about (its rows are not in the figure's data): neither holding nor
	// failing, and counted apart from both.
	NotComputed bool   `json:"not_computed,omitempty"`
	Rows        int    `json:"rows"`            // data rows the value is computed from
	Error       string `json:"error,omitempty"` // why ours could not be computed
}

// VerdictOf evaluates the claims of figure id against its data file
// (dir/<id>.csv). drawn false gives "not drawn".
func VerdictOf(id, document string, claims []spec.Claim, dir string, drawn bool) Verdict {
	v := Verdict{ID: id, Document: document, Claims: []ClaimResult{}}
	if !drawn {
		v.Verdict = NotDrawn
		v.Reason = "the figure has not been drawn, so no claim could be checked."
		return v
	}
	if len(claims) == 0 {
		v.Verdict = NoPublished
		v.Reason = "no claim of the document is checked against this figure: the document prints no number for it, or none is transcribed into its spec yet."
		return v
	}
	data, err := readCSV(filepath.Join(dir, id+".csv"))
	others := map[string]*csvData{id: data}
	otherErr := map[string]error{id: err}
	for _, c := range claims {
		r := ClaimResult{
			Claim: c.Claim, Source: c.Source, Column: c.Y, Op: c.Op,
			DocumentValue: c.Document, Bounds: c.Bounds, Tolerance: tolText(c),
			Where: matchText(c.Where),
		}
		if len(c.RelativeTo) > 0 || c.RelativePlot != "" {
			r.Where += relText(c)
		}
		if c.AtMax != "" {
			r.Where += fmt.Sprintf(" at the largest %s", c.AtMax)
		}
		ref := data
		if c.RelativePlot != "" {
			if _, ok := others[c.RelativePlot]; !ok {
				others[c.RelativePlot], otherErr[c.RelativePlot] = readCSV(filepath.Join(dir, c.RelativePlot+".csv"))
			}
			ref = others[c.RelativePlot]
		}
		switch {
		case err != nil:
			r.Error = err.Error()
		case otherErr[c.RelativePlot] != nil && c.RelativePlot != "":
			r.Error = fmt.Sprintf("relative_plot %s: %v", c.RelativePlot, otherErr[c.RelativePlot])
		default:
			ours, rows, err := data.evaluate(c, ref)
			r.Rows = rows
			if errors.Is(err, errNoRow) {
				r.NotComputed = true
				r.Error = fmt.Sprintf("%s: %v", c.Pos, err)
			} else if err != nil {
				r.Error = fmt.Sprintf("%s: %v", c.Pos, err)
			} else {
				r.Ours = &ours
				r.Holds = holds(c, ours)
			}
		}
		v.Claims = append(v.Claims, r)
	}
	v.Verdict, v.Reason = judge(v.Claims)
	v.Hold, v.Fail, v.NotComputed = v.Counts()
	return v
}

// relText is how a relative claim's reference is chosen, as text.
func relText(c spec.Claim) string {
	s := " relative to"
	if c.Relative == "difference" {
		s = " minus"
	}
	if c.RelativePlot != "" {
		s += " " + c.RelativePlot
	}
	if len(c.RelativeTo) > 0 {
		s += " " + matchText(c.RelativeTo)
	}
	return s
}

// maxReasons is how many failing claims a verdict's reason names: a
// figure checked against every bar of a chart can fail a hundred, which
// its claims table lists, and a reason of a hundred sentences is read by
// no one.
const maxReasons = 10

// judge turns claim results into a verdict and its reason. Claims the
// profile did not compute are neither failures nor holding: the verdict
// is that of the others, and the reason says how many were not computed.
func judge(rs []ClaimResult) (string, string) {
	var failed []string
	computed, skipped := 0, 0
	for _, r := range rs {
		switch {
		case r.NotComputed:
			skipped++
		case !r.Holds:
			computed++
			failed = append(failed, failText(r))
		default:
			computed++
		}
	}
	note := ""
	if skipped > 0 {
		note = fmt.Sprintf("%d of %d claims not computed: the profile did not run their points.", skipped, len(rs))
	}
	switch {
	case computed == 0:
		return NotComputed, note
	case len(failed) == 0:
		return Reproduced, note
	}
	shown := failed
	if len(shown) > maxReasons {
		shown = append(shown[:maxReasons:maxReasons], fmt.Sprintf("and %d more (the claims table lists them)", len(failed)-maxReasons))
	}
	reason := fmt.Sprintf("%s: %s.", failCount(len(failed), computed), strings.Join(shown, "; "))
	if note != "" {
		reason += " " + note
	}
	if len(failed) == computed {
		return NotReproduced, reason
	}
	return Partly, reason
}

// failCount is "1 of 3 claims fails" or "2 of 3 claims fail", of the
// claims computed.
func failCount(n, of int) string {
	if n == 1 {
		return fmt.Sprintf("1 of %d claims fails", of)
	}
	return fmt.Sprintf("%d of %d claims fail", n, of)
}

// failText says what a failing claim found: "goodput at 80000 km: ours
// 0.001, document 0.291 (within 10 %)".
func failText(r ClaimResult) string {
	if r.Error != "" {
		return fmt.Sprintf("%s (no value: %s)", r.Claim, r.Error)
	}
	return fmt.Sprintf("%s (ours %s, document %s)", r.Claim, num(*r.Ours), expected(r))
}

// expected is the document's side of a claim as text: "0.291 within 10 %",
// ">= 4", "between 0 and 1".
func expected(r ClaimResult) string {
	doc := ""
	if r.DocumentValue != nil {
		doc = num(*r.DocumentValue)
	}
	switch r.Op {
	case "ge":
		return ">= " + doc + slack(r.Tolerance)
	case "le":
		return "<= " + doc + slack(r.Tolerance)
	case "between":
		return fmt.Sprintf("between %s and %s", num(r.Bounds[0]), num(r.Bounds[1]))
	}
	return doc + " " + r.Tolerance
}

func slack(tol string) string {
	if tol == "" {
		return ""
	}
	return " " + tol
}

// tolText is the tolerance of a claim as text: "within 10 %", "within
// 0.02", "" when there is none.
func tolText(c spec.Claim) string {
	var parts []string
	if c.Rel > 0 {
		parts = append(parts, num(c.Rel*100)+" %")
	}
	if c.Abs > 0 {
		parts = append(parts, num(c.Abs))
	}
	if len(parts) == 0 {
		if c.Op == "approx" {
			return "exactly"
		}
		return ""
	}
	return "within " + strings.Join(parts, " or ")
}

func matchText(ms []spec.ClaimMatch) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.Column + "=" + m.Value
	}
	return strings.Join(parts, ", ")
}

// num prints a number with four significant digits, rounding the
// number as written in full (its shortest decimal form, the one that
// reads back as x) half away from zero. Rounding the binary value instead
// splits numbers whose decimal form ends in a 5: 8 x 1e-9 x 1500 x 66/64
// is 1.2375e-05 computed one way and 1.2375000000000001e-05 another, and
// the binary rounding printed them 1.237e-05 and 1.238e-05, a document's
// number and ours that are the same.
func num(x float64) string {
	const sig = 4
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return strconv.FormatFloat(x, 'g', sig, 64)
	}
	full := strconv.FormatFloat(math.Abs(x), 'e', -1, 64) // "1.2375e-05"
	mant, exp, _ := strings.Cut(full, "e")
	digits := strings.Replace(mant, ".", "", 1)
	if len(digits) <= sig {
		return strconv.FormatFloat(x, 'g', sig, 64)
	}
	n, _ := strconv.Atoi(digits[:sig])
	if digits[sig] >= '5' {
		n++ // 9999 becomes 10000: one digit more, the same number
	}
	e, _ := strconv.Atoi(exp)
	r, err := strconv.ParseFloat(strconv.Itoa(n)+"e"+strconv.Itoa(e-(sig-1)), 64)
	if err != nil { // rounded past the largest float
		return strconv.FormatFloat(x, 'g', sig, 64)
	}
	return strconv.FormatFloat(math.Copysign(r, x), 'g', sig, 64)
}

// holds reports whether ours satisfies the claim.
func holds(c spec.Claim, ours float64) bool {
	if math.IsNaN(ours) {
		return false
	}
	slack := 0.0
	if c.Document != nil {
		slack = math.Max(c.Rel*math.Abs(*c.Document), c.Abs)
	}
	switch c.Op {
	case "ge":
		return ours >= *c.Document-slack
	case "le":
		return ours <= *c.Document+slack
	case "between":
		return ours >= c.Bounds[0] && ours <= c.Bounds[1]
	}
	return math.Abs(ours-*c.Document) <= slack
}

// csvData is a figure's tidy data: a header and rows of text cells.
type csvData struct {
	header []string
	rows   [][]string
}

func readCSV(path string) (*csvData, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("the figure wrote no data file %s", filepath.Base(path))
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", filepath.Base(path), err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("report: %s is empty", filepath.Base(path))
	}
	return &csvData{header: recs[0], rows: recs[1:]}, nil
}

func (d *csvData) col(name string) (int, error) {
	for i, h := range d.header {
		if h == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("the figure's data has no column %q (columns: %s)", name, strings.Join(d.header, ", "))
}

// evaluate computes ours for c: the aggregate of column c.Y over the rows
// c.Where selects (or c.Y in the row where c.AtMax is largest), divided
// by (or, for relative: difference, less) the same over the rows of
// c.RelativeTo in ref, the data of c.RelativePlot or d itself.
func (d *csvData) evaluate(c spec.Claim, ref *csvData) (float64, int, error) {
	var x float64
	var n int
	var err error
	if c.AtMax != "" {
		x, n, err = d.atMax(c.Y, c.AtMax, c.Where)
	} else {
		x, n, err = d.aggregate(c.Y, c.Where, c.Agg)
	}
	if err != nil || (len(c.RelativeTo) == 0 && c.RelativePlot == "") {
		return x, n, err
	}
	if ref == nil {
		ref = d
	}
	refData := ref
	sel := append([]spec.ClaimMatch(nil), c.Where...)
	for _, m := range c.RelativeTo {
		replaced := false
		for i := range sel {
			if sel[i].Column == m.Column {
				sel[i].Value, replaced = m.Value, true
			}
		}
		if !replaced {
			sel = append(sel, m)
		}
	}
	var y float64
	var m int
	if c.AtMax != "" {
		y, m, err = refData.atMax(c.Y, c.AtMax, sel)
	} else {
		y, m, err = refData.aggregate(c.Y, sel, c.Agg)
	}
	if err != nil {
		return 0, n + m, fmt.Errorf("reference: %w", err)
	}
	if c.Relative == "difference" {
		return x - y, n + m, nil
	}
	if y == 0 {
		return 0, n + m, fmt.Errorf("relative_to: the reference value is 0")
	}
	return x / y, n + m, nil
}

// aggregate is the mean, min or max of column y over the rows matching
// where; rows whose cell is empty or not a number are left out.
func (d *csvData) aggregate(y string, where []spec.ClaimMatch, agg string) (float64, int, error) {
	yi, err := d.col(y)
	if err != nil {
		return 0, 0, err
	}
	idx := make([]int, len(where))
	for i, m := range where {
		if idx[i], err = d.col(m.Column); err != nil {
			return 0, 0, err
		}
	}
	var vals []float64
	matched := 0
	for _, r := range d.rows {
		if !d.selects(r, idx, where) {
			continue
		}
		matched++
		if x, err := strconv.ParseFloat(strings.TrimSpace(r[yi]), 64); err == nil && !math.IsNaN(x) {
			vals = append(vals, x)
		}
	}
	if len(vals) == 0 {
		if matched > 0 {
			return 0, 0, fmt.Errorf("the %d rows where %s have no number in %s", matched, matchText(where), y)
		}
		return 0, 0, d.noRow(where, idx, "")
	}
	out := vals[0]
	switch agg {
	case "min":
		for _, v := range vals {
			out = math.Min(out, v)
		}
	case "max":
		for _, v := range vals {
			out = math.Max(out, v)
		}
	default:
		out = 0
		for _, v := range vals {
			out += v
		}
		out /= float64(len(vals))
	}
	return out, len(vals), nil
}

// noRow is the error of a selection that matches no row. When a text
// condition (algorithm: Bbr) matches no row even alone, it is a mistake
// in the claim and fails; otherwise only numbers are missing, the points
// of a grid the profile did not run, and the claim is not computed
// (errNoRow).
func (d *csvData) noRow(where []spec.ClaimMatch, idx []int, what string) error {
	for i, m := range where {
		if _, err := strconv.ParseFloat(strings.TrimSpace(m.Value), 64); err == nil {
			continue
		}
		if _, _, isRange, _ := spec.MatchRange(m.Value); isRange {
			continue
		}
		seen := map[string]bool{}
		var values []string
		found := false
		for _, r := range d.rows {
			if sameCell(r[idx[i]], m.Value) {
				found = true
				break
			}
			if c := strings.TrimSpace(r[idx[i]]); !seen[c] && len(values) < 12 {
				seen[c] = true
				values = append(values, strconv.Quote(c))
			}
		}
		if !found {
			return fmt.Errorf("no row of the figure's data has %s=%s (its values: %s)", m.Column, m.Value, strings.Join(values, ", "))
		}
	}
	return fmt.Errorf("%w of the figure's data has %s%s", errNoRow, matchText(where), what)
}

// selects reports whether row r matches every condition of where (idx:
// the conditions' column indices).
func (d *csvData) selects(r []string, idx []int, where []spec.ClaimMatch) bool {
	for i, m := range where {
		if !sameCell(r[idx[i]], m.Value) {
			return false
		}
	}
	return true
}

// atMax is column y in the row, among those where selects, whose column
// by holds the largest number (the first such row on a tie).
func (d *csvData) atMax(y, by string, where []spec.ClaimMatch) (float64, int, error) {
	yi, err := d.col(y)
	if err != nil {
		return 0, 0, err
	}
	bi, err := d.col(by)
	if err != nil {
		return 0, 0, err
	}
	idx := make([]int, len(where))
	for i, m := range where {
		if idx[i], err = d.col(m.Column); err != nil {
			return 0, 0, err
		}
	}
	best, out, n := math.Inf(-1), math.NaN(), 0
	for _, r := range d.rows {
		if !d.selects(r, idx, where) {
			continue
		}
		b, errB := strconv.ParseFloat(strings.TrimSpace(r[bi]), 64)
		v, errV := strconv.ParseFloat(strings.TrimSpace(r[yi]), 64)
		if errB != nil || errV != nil || math.IsNaN(b) {
			continue
		}
		n++
		if b > best {
			best, out = b, v
		}
	}
	if n == 0 {
		return 0, 0, d.noRow(where, idx, fmt.Sprintf(" with numbers in %s and %s", y, by))
	}
	return out, n, nil
}

// sameCell compares a data cell with a claim's value: as numbers when
// both are numbers (1e4 matches 10000), in [lo, hi] when the value is a
// range lo..hi, else as trimmed text.
func sameCell(cell, want string) bool {
	cell, want = strings.TrimSpace(cell), strings.TrimSpace(want)
	if lo, hi, isRange, err := spec.MatchRange(want); isRange && err == nil {
		x, err := strconv.ParseFloat(cell, 64)
		return err == nil && x >= lo && x <= hi
	}
	if cell == want {
		return true
	}
	a, errA := strconv.ParseFloat(cell, 64)
	b, errB := strconv.ParseFloat(want, 64)
	if errA != nil || errB != nil {
		return false
	}
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// WriteVerdicts writes the verdicts as indented JSON.
func WriteVerdicts(path string, vs []Verdict) error {
	b, err := json.MarshalIndent(vs, "", "  ")
	if err != nil {
		return fmt.Errorf("report: verdicts: %w", err)
	}
	return plots.WriteFile(path, append(b, '\n'))
}

// Holding is "2 of 3", "2 of 3 (4 not computed)" when the profile did
// not run the points of some claims (the count is of those computed), or
// "-" when the figure has no claims.
func (v Verdict) Holding() string {
	if len(v.Claims) == 0 {
		return "-"
	}
	hold, fail, skip := v.Counts()
	s := fmt.Sprintf("%d of %d", hold, hold+fail)
	if skip > 0 {
		s += fmt.Sprintf(" (%d not computed)", skip)
	}
	return s
}

// Counts returns how many of the figure's claims hold, fail and were not
// computed (their points not run at the profile).
func (v Verdict) Counts() (hold, fail, notComputed int) {
	for _, c := range v.Claims {
		switch {
		case c.NotComputed:
			notComputed++
		case c.Holds:
			hold++
		default:
			fail++
		}
	}
	return hold, fail, notComputed
}

// Expected is the document's side of the claim as text.
func (r ClaimResult) Expected() string { return expected(r) }

// OursText is our value as text, or why there is none: "not computed"
// for a point the profile did not run, "no value" for a claim that cannot
// be evaluated (a column the data lacks), which fails.
func (r ClaimResult) OursText() string {
	switch {
	case r.NotComputed:
		return "not computed: " + r.Error
	case r.Ours == nil:
		return "no value: " + r.Error
	}
	return num(*r.Ours)
}

// HoldsText is "yes", "no", or "not computed" for a claim about a point
// the profile did not run.
func (r ClaimResult) HoldsText() string {
	switch {
	case r.NotComputed:
		return "not computed"
	case r.Holds:
		return "yes"
	}
	return "no"
}

// writeVerdictMD writes a figure's verdict, its reason and its claims as
// a table.
func writeVerdictMD(b *strings.Builder, v Verdict) {
	fmt.Fprintf(b, "**Verdict: %s.**", v.Verdict)
	if v.Reason != "" {
		fmt.Fprintf(b, " %s", v.Reason)
	}
	b.WriteString("\n\n")
	if len(v.Claims) == 0 {
		return
	}
	b.WriteString("| claim | source | rows | document | ours | holds |\n| --- | --- | --- | ---: | ---: | --- |\n")
	for _, c := range v.Claims {
		rows := c.Column
		if c.Where != "" {
			rows += " where " + c.Where
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", mdCell(c.Claim), mdCell(c.Source), mdCell(rows), mdCell(c.Expected()), mdCell(c.OursText()), c.HoldsText())
	}
	b.WriteString("\n")
}
