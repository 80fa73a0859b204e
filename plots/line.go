package plots

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/crosslink-sim/crosslink/vocab"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Line draws a "line" figure from the rows of f: the generic figure every
// spec's plots entry gets unless a registered figure draws it itself.
func Line(in Input, f *Frame) (*Output, error) {
	ld, err := buildCurves(in.Def, in.Schema, f, in.Scale)
	if err != nil {
		return nil, err
	}
	art, err := lineArt(in.Def, ld, in.Theme)
	if err != nil {
		return nil, err
	}
	return &Output{Art: art, Data: lineTable(in.Def, ld), Notes: append(ld.Notes, intervalNotes(ld.Curves)...),
		Problems: outsideAxes(in.Def, ld)}, nil
}

// intervalNotes says how the bands and error bars of curves were made.
func intervalNotes(cs []Curve) []string {
	used := map[string]bool{}
	for _, c := range cs {
		for _, p := range c.Points {
			used[p.Method] = true
		}
	}
	var notes []string
	if used[IntervalBootstrap] {
		notes = append(notes, fmt.Sprintf("bands and error bars: %g %% percentile bootstrap interval of the mean of the runs at points with 2 to %d runs (it stays inside the runs' range)", Confidence*100, BootstrapBelow-1))
	}
	if used[IntervalStudent] {
		notes = append(notes, fmt.Sprintf("bands and error bars: %g %% Student-t interval of the mean at points with %d or more runs, clipped to the runs' range", Confidence*100, BootstrapBelow))
	}
	return notes
}

// lineArt turns curves into a gonum plot: one line with markers per curve,
// a translucent band (or error bars, with fewer than three drawn points)
// for the confidence interval of replicate means, and the legend beside
// the data area so it never covers a curve.
func lineArt(d Def, ld *lineData, th Theme) (Drawer, error) {
	p, legend, err := linePlot(d, ld, th)
	if err != nil {
		return nil, err
	}
	return withLegend(d, ld, p, legend), nil
}

// withLegend puts the legend beside the plot, or leaves it out when one
// unnamed curve makes it say nothing the axis label does not.
func withLegend(d Def, ld *lineData, p *plot.Plot, legend plot.Legend) Drawer {
	if len(ld.Curves) == 1 && len(d.Series) == 0 {
		return p // one curve: the axis label names it
	}
	return &besideLegend{plot: p, legend: legend, gap: vg.Points(8)}
}

// linePlot draws the curves of ld on a plot and returns it with the
// legend to draw beside it.
func linePlot(d Def, ld *lineData, th Theme) (*plot.Plot, plot.Legend, error) {
	p := th.newPlot()
	p.Title.Text = d.Title
	p.X.Label.Text = ld.XLabel
	p.Y.Label.Text = ld.YLabel
	if d.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = decades{}
	}
	if d.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = decades{}
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 0xDD}
	grid.Horizontal.Color = color.Gray{Y: 0xDD}
	p.Add(grid)

	// The smallest drawn positive value bounds bands from below on a log
	// axis: a band reaching 0 cannot be drawn there.
	floor := math.Inf(1)
	for _, c := range ld.Curves {
		for _, pt := range c.Points {
			if pt.drawn() && pt.Mean > 0 {
				floor = math.Min(floor, pt.Mean)
			}
		}
	}
	var legend plot.Legend = p.Legend
	same := identicalCurves(ld)
	for i, c := range ld.Curves {
		if _, dup := same[i]; dup {
			continue
		}
		col, glyph, dash := th.style(i)
		var xys, lo, hi plotter.XYs
		var errs plotter.YErrors
		replicated := false
		for _, pt := range c.Points {
			if !pt.drawn() {
				continue
			}
			l := pt.Lo
			if d.LogY && l <= 0 {
				l = floor / 10
			}
			xys = append(xys, plotter.XY{X: pt.X, Y: pt.Mean})
			lo = append(lo, plotter.XY{X: pt.X, Y: l})
			hi = append(hi, plotter.XY{X: pt.X, Y: pt.Hi})
			errs = append(errs, struct{ Low, High float64 }{pt.Mean - l, pt.Hi - pt.Mean})
			if pt.N > 1 {
				replicated = true
			}
		}
		if len(xys) == 0 {
			continue
		}
		if replicated && len(xys) >= 3 {
			ring := append(plotter.XYs(nil), hi...)
			for k := len(lo) - 1; k >= 0; k-- {
				ring = append(ring, lo[k])
			}
			band, err := plotter.NewPolygon(ring)
			if err != nil {
				return nil, legend, fmt.Errorf("plots: figure %s: band: %w", d.ID, err)
			}
			r, g, b, _ := col.RGBA()
			band.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: th.Band}
			band.LineStyle.Width = 0
			p.Add(band)
		} else if replicated {
			eb, err := plotter.NewYErrorBars(errorBars{xys, errs})
			if err != nil {
				return nil, legend, fmt.Errorf("plots: figure %s: error bars: %w", d.ID, err)
			}
			eb.LineStyle.Color = col
			eb.LineStyle.Width = th.Line
			p.Add(eb)
		}
		line, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, legend, fmt.Errorf("plots: figure %s: curve %q: %w", d.ID, c.Label, err)
		}
		line.Color, line.Width, line.Dashes = col, th.Line, dash
		pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: th.Glyph, Shape: glyph}
		p.Add(line, pts)
		label := c.Label
		for j := range ld.Curves {
			if k, dup := same[j]; dup && k == i {
				label += " = " + distinctPart(c.Label, ld.Curves[j].Label)
			}
		}
		legend.Add(label, line, pts)
	}
	// Fixed ranges go last: Add widens the axes to the data.
	if len(d.XLim) == 2 {
		p.X.Min, p.X.Max = d.XLim[0], d.XLim[1]
	}
	if len(d.YLim) == 2 {
		p.Y.Min, p.Y.Max = d.YLim[0], d.YLim[1]
	}
	return p, legend, nil
}

// errorBars adapts points and their asymmetric errors to plotter.YErrorBars.
type errorBars struct {
	plotter.XYs
	plotter.YErrors
}

// besideLegend draws a plot with its legend in a column to the right of
// the data area, so that no entry hides a point.
type besideLegend struct {
	plot   *plot.Plot
	legend plot.Legend
	gap    vg.Length
}

// Draw implements Drawer.
func (b *besideLegend) Draw(c draw.Canvas) {
	// The title is centred over the whole figure, legend column included:
	// centred over the plot alone, a long title would run off the left
	// edge when the legend is wide.
	if title := b.plot.Title.Text; title != "" {
		sty := b.plot.Title.TextStyle
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y}, title)
		c = draw.Crop(c, 0, 0, 0, -(sty.Height(title) + b.plot.Title.Padding))
		b.plot.Title.Text = ""
		defer func() { b.plot.Title.Text = title }()
	}
	b.legend.Top, b.legend.Left = true, true
	b.legend.Padding = vg.Points(3)
	r := b.legend.Rectangle(c)
	w := r.Size().X + 2*b.gap
	// Draw the plot in the canvas minus the legend column, and the legend
	// in that column, top-aligned with the data area.
	pc := draw.Crop(c, 0, -w, 0, 0)
	b.plot.Draw(pc)
	da := b.plot.DataCanvas(pc)
	lc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: c.Max.X - w + b.gap, Y: da.Min.Y},
		Max: vg.Point{X: c.Max.X - b.gap, Y: da.Max.Y},
	}}
	b.legend.Draw(lc)
}

// lineTable is the plotted data of a line figure in long ("tidy") form:
// one row per point of every curve, the series values and x as columns,
// then for each y its replicate mean, the interval drawn around it and
// the replicate count, so readers can check the drawn numbers. Column
// names carry their units (goodput_mbps, distance_km) and are unique,
// so the CSV loads in pandas or polars without renaming; several y of one
// figure share a row per x.
func lineTable(d Def, ld *lineData) *Table {
	t := &Table{Title: d.Title, Caption: d.Caption}
	t.Header = append(t.Header, "curve")
	for _, q := range ld.Series {
		t.Header = append(t.Header, unitName(q.Name, string(q.Unit)))
	}
	t.Header = append(t.Header, axisColumn(d.XLabel, ld.X.Name, d.XUnit, ld.X.Unit))
	for _, q := range ld.Y {
		c := axisColumn("", q.Name, d.YUnit, q.Unit)
		t.Header = append(t.Header, c, c+"_lo", c+"_hi", q.Name+"_n")
	}
	t.Header = append(t.Header, "interval", "note")
	type rowKey struct {
		series string
		x      float64
	}
	rows := map[rowKey][]string{}
	var order []rowKey
	nY := len(ld.Y)
	for _, c := range ld.Curves {
		var key []string
		for _, v := range c.Series {
			key = append(key, v.Canonical())
		}
		yi := 0
		for i, q := range ld.Y {
			if q.Name == c.Y {
				yi = i
			}
		}
		for _, pt := range c.Points {
			k := rowKey{strings.Join(key, "\x00"), pt.X}
			row, ok := rows[k]
			if !ok {
				row = make([]string, len(t.Header))
				row[0] = seriesLabel(ld, c)
				for j, v := range c.Series {
					row[1+j] = formatNumberOr(v)
				}
				row[1+len(c.Series)] = formatNumber(pt.X)
				rows[k] = row
				order = append(order, k)
			}
			at := 2 + len(c.Series) + 4*yi
			row[at], row[at+1], row[at+2], row[at+3] = formatNumber(pt.Mean), formatNumber(pt.Lo), formatNumber(pt.Hi), fmt.Sprint(pt.N)
			row[2+len(c.Series)+4*nY] = pt.Method
			if pt.Note != "" {
				row[3+len(c.Series)+4*nY] = pt.Note
			}
		}
	}
	for _, k := range order {
		t.AddRow(rows[k]...)
	}
	t.Notes = ld.Notes
	return t
}

// seriesLabel is a curve's legend text without its y name: what the curve
// column of the tidy data says.
func seriesLabel(ld *lineData, c Curve) string {
	if len(ld.Series) == 0 {
		if len(ld.Y) == 1 {
			return c.Label
		}
		return ""
	}
	parts := make([]string, len(c.Series))
	for j, v := range c.Series {
		parts[j] = legendPart(ld.Series[j], v)
	}
	return strings.Join(parts, ", ")
}

// formatNumberOr prints a numeric value exactly (formatNumber) and any
// other value as its text.
func formatNumberOr(v vocab.Value) string {
	if v.Kind() == vocab.Float || v.Kind() == vocab.Int {
		return formatNumber(v.Float())
	}
	return v.String()
}

// axisColumn names the tidy-data column of a quantity shown in display
// unit display (base when empty): "distance_km", "goodput_mbps".
func axisColumn(_ string, name, display string, base vocab.Unit) string {
	return unitName(name, shownUnit(display, base))
}

// unitName joins a name and a unit into a column name: lower case, words
// joined by "_", the unit spelt with letters only ("Mbit/s" -> "mbps",
// "%" -> "pct").
func unitName(name, unit string) string {
	n := snake(name)
	if u := unitToken(unit); u != "" {
		n += "_" + u
	}
	return n
}

// unitToken spells a unit for a column name.
func unitToken(u string) string {
	u = strings.TrimSpace(u)
	if u == "" {
		return ""
	}
	switch u {
	case "%":
		return "pct"
	case string(vocab.Fraction):
		return "frac" // a series column of stored values, as the dataset names it
	case "B":
		return "bytes"
	case "b", "bit":
		return "bits"
	}
	for _, p := range []string{"", "k", "M", "G", "T"} {
		if u == p+"bit/s" || u == p+"bps" || u == p+"b/s" {
			return strings.ToLower(p) + "bps"
		}
		if u == p+"B/s" {
			return strings.ToLower(p) + "bytes_per_s"
		}
	}
	if rest, ok := strings.CutPrefix(u, "1/"); ok {
		return "per_" + snake(rest)
	}
	u = strings.ReplaceAll(u, "µ", "u")
	u = strings.ReplaceAll(u, "/", " per ")
	return snake(u)
}

// snake lower-cases s and joins its runs of letters and digits with "_".
func snake(s string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			gap = false
			continue
		}
		gap = true
	}
	return b.String()
}

// identicalCurves maps each curve that repeats an earlier one exactly
// (the same drawn x and means, within 1e-9 relative) to that earlier
// curve, and notes it: such a curve is drawn once, its legend entry
// naming both, rather than hidden under the other.
func identicalCurves(ld *lineData) map[int]int {
	same := map[int]int{}
	eq := func(a, b Curve) bool {
		var pa, pb []Point
		for _, p := range a.Points {
			if p.drawn() {
				pa = append(pa, p)
			}
		}
		for _, p := range b.Points {
			if p.drawn() {
				pb = append(pb, p)
			}
		}
		if len(pa) != len(pb) || len(pa) == 0 {
			return false
		}
		for k := range pa {
			if pa[k].X != pb[k].X || math.Abs(pa[k].Mean-pb[k].Mean) > 1e-9*math.Max(math.Abs(pa[k].Mean), math.Abs(pb[k].Mean)) {
				return false
			}
		}
		return true
	}
	for j := range ld.Curves {
		for i := 0; i < j; i++ {
			if _, dup := same[i]; dup {
				continue
			}
			if eq(ld.Curves[i], ld.Curves[j]) {
				same[j] = i
				ld.Notes = append(ld.Notes, fmt.Sprintf("%q is identical to %q and drawn once", ld.Curves[j].Label, ld.Curves[i].Label))
				break
			}
		}
	}
	return same
}

// distinctPart returns b without the words it shares with the start of a:
// "window 512 KiB" of "bound, window 512 KiB" after "bound, window 64 KiB".
func distinctPart(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	if n == len(b) {
		return b
	}
	// Back to the start of the word (or the "name value" pair) that differs.
	cut := strings.LastIndex(b[:n], ", ")
	if cut < 0 {
		return b
	}
	return b[cut+2:]
}
