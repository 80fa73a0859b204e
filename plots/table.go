package plots

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"regexp"
	"strings"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Table is a grid of text cells with a header: the numbers behind a figure
// (written as CSV) or a table figure of its own (drawn as an image and
// written as Markdown). Cells are already formatted, so the CSV, the
// Markdown and the image show the same digits.
type Table struct {
	Title   string
	Caption string
	Header  []string
	Rows    [][]string
	Notes   []string // printed under the table in Markdown and the image
	theme   Theme
}

// AddRow appends a row; it must have one cell per header column.
func (t *Table) AddRow(cells ...string) {
	if len(cells) != len(t.Header) {
		panic(fmt.Sprintf("plots: bug: row of %d cells in a table of %d columns", len(cells), len(t.Header)))
	}
	t.Rows = append(t.Rows, cells)
}

// WriteCSV writes the header and rows as RFC 4180 CSV. The header is
// ColumnNames: unique, unit-bearing names a data frame library keeps as
// they are.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.ColumnNames()); err != nil {
		return fmt.Errorf("plots: csv: %w", err)
	}
	if err := cw.WriteAll(t.Rows); err != nil {
		return fmt.Errorf("plots: csv: %w", err)
	}
	return nil
}

// WriteMarkdown writes the table as a GitHub-flavoured Markdown table with
// its title, caption and notes.
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&b, "# %s\n\n", t.Title)
	}
	if t.Caption != "" {
		fmt.Fprintf(&b, "%s\n\n", t.Caption)
	}
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + esc(c) + " |")
		}
		b.WriteString("\n")
	}
	row(t.Header)
	b.WriteString("|")
	for range t.Header {
		b.WriteString(" ---: |")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("plots: markdown: %w", err)
	}
	return nil
}

// Draw draws the table as a figure: title, a header row over a rule, the
// rows right-aligned in columns as wide as their widest cell, and the
// notes in a smaller size below.
func (t *Table) Draw(c draw.Canvas) {
	th := t.theme
	if th.Colors == nil {
		th = DefaultTheme()
	}
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())

	cell := th.textStyle(th.FontSize + 1)
	head := cell
	title := th.textStyle(th.TitleSize)
	note := th.textStyle(th.FontSize - 1)
	pad := vg.Points(12)
	lineH := cell.Rectangle("Hg").Size().Y * 1.6

	widths := make([]vg.Length, len(t.Header))
	for j, h := range t.Header {
		widths[j] = head.Width(h)
	}
	for _, r := range t.Rows {
		for j, s := range r {
			widths[j] = max(widths[j], cell.Width(s))
		}
	}
	var total vg.Length
	for _, w := range widths {
		total += w + pad
	}
	total -= pad
	x0 := c.Center().X - total/2
	y := c.Max.Y - vg.Points(8)

	if t.Title != "" {
		title.XAlign, title.YAlign = text.XCenter, text.YTop
		c.FillText(title, vg.Point{X: c.Center().X, Y: y}, t.Title)
		y -= title.Rectangle(t.Title).Size().Y * 1.8
	}
	rule := draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
	hrule := func(y vg.Length) {
		c.StrokeLine2(rule, x0-pad/2, y, x0+total+pad/2, y)
	}
	hrule(y)
	drawRow := func(cells []string, sty text.Style) {
		y -= lineH
		x := x0
		sty.XAlign, sty.YAlign = text.XRight, text.YBottom
		for j, s := range cells {
			x += widths[j]
			c.FillText(sty, vg.Point{X: x, Y: y + lineH*0.25}, s)
			x += pad
		}
	}
	drawRow(t.Header, head)
	hrule(y)
	for _, r := range t.Rows {
		drawRow(r, cell)
	}
	hrule(y)
	note.XAlign, note.YAlign = text.XLeft, text.YTop
	y -= vg.Points(6)
	for _, n := range t.Notes {
		c.FillText(note, vg.Point{X: x0 - pad/2, Y: y}, n)
		y -= note.Rectangle(n).Size().Y * 1.4
	}
}

// Comparison is the shape of a table that sets a document's printed values
// beside ours: for each row, its key cells, then per compared quantity the
// document value, ours and the relative difference. Document 000's Tables
// 2 and 3 use it.
type Comparison struct {
	Keys       []string // header of the key columns ("distance (km)")
	Quantities []string // compared quantities ("one-way delay (s)")
	Digits     int      // significant digits of "ours" (the document's precision or one more)
}

// Header returns the table header: keys, then "<q> document", "<q> ours",
// "<q> difference" for each quantity.
func (cmp Comparison) Header() []string {
	h := append([]string(nil), cmp.Keys...)
	for _, q := range cmp.Quantities {
		h = append(h, q+" document", q+" ours", q+" difference")
	}
	return h
}

// Row returns the cells of one row: the keys, then for each quantity the
// document's text as printed, ours to cmp.Digits significant digits, and
// (ours - document)/document in percent. doc holds the printed strings
// (kept verbatim) and docVal their values.
func (cmp Comparison) Row(keys []string, doc []string, docVal, ours []float64) []string {
	if len(doc) != len(cmp.Quantities) || len(docVal) != len(doc) || len(ours) != len(doc) {
		panic("plots: bug: comparison row does not match its quantities")
	}
	r := append([]string(nil), keys...)
	for i := range doc {
		r = append(r, doc[i], formatNumber(roundSig(ours[i], cmp.Digits)), relDiff(ours[i], docVal[i]))
	}
	return r
}

// relDiff prints (ours-doc)/doc in percent with a sign, or the absolute
// difference when the document value is 0.
func relDiff(ours, doc float64) string {
	if doc == 0 {
		return fmt.Sprintf("%+.3g", ours-doc)
	}
	return fmt.Sprintf("%+.2f %%", 100*(ours-doc)/doc)
}

// unitInParens finds a "(unit)" in a display header.
var unitInParens = regexp.MustCompile(`\(([^)]*)\)`)

// ColumnNames returns the header as data column names: "goodput ours
// (Mbps)" becomes goodput_ours_mbps, "loss (%)" loss_pct; a name that
// repeats gets the suffix _2, _3.
func (t *Table) ColumnNames() []string {
	out := make([]string, len(t.Header))
	seen := map[string]int{}
	for i, h := range t.Header {
		h = unitInParens.ReplaceAllStringFunc(h, func(m string) string {
			return " " + unitToken(m[1:len(m)-1]) + " "
		})
		n := snake(h)
		if n == "" {
			n = fmt.Sprintf("column_%d", i+1)
		}
		seen[n]++
		if k := seen[n]; k > 1 {
			n = fmt.Sprintf("%s_%d", n, k)
		}
		out[i] = n
	}
	return out
}
