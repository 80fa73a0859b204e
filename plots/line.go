package plots

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/crosslink-sim/crosslink/vocab"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
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
	return lineOutput(in, ld)
}

// curves returns the curves of the figure's line entry, built from the
// rows of its table (Input.Frame), for figures that draw them their own
// way or adjust them before lineOutput.
func (in Input) curves(ctx context.Context) (*lineData, error) {
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	return buildCurves(in.Def, in.Schema, fr, in.Scale)
}

// lineOutput draws the curves of ld as Line does.
func lineOutput(in Input, ld *lineData) (*Output, error) {
	art, err := lineArt(in.Def, ld, in.Theme)
	if err != nil {
		return nil, err
	}
	return &Output{Art: art, Data: lineTable(in.Def, ld), Notes: append(ld.Notes, intervalNotes(ld.Curves)...),
		Problems: append(outsideAxes(in.Def, ld), ld.problems...)}, nil
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
	p, legend, styles, err := linePlot(d, ld, th)
	if err != nil {
		return nil, err
	}
	return withLegend(d, ld, p, legend, styles), nil
}

// withLegend puts the legend beside the plot, or leaves it out when one
// unnamed curve makes it say nothing the axis label does not.
func withLegend(d Def, ld *lineData, p *plot.Plot, legend plot.Legend, styles []curveStyle) Drawer {
	if len(ld.Curves) == 1 && len(d.Series) == 0 {
		return p // one curve: the axis label names it
	}
	var es []entryStyle
	same := identicalCurves(&lineData{Curves: ld.Curves})
	for i, c := range ld.Curves {
		if _, dup := same[i]; !dup && i < len(styles) {
			es = append(es, entryStyle{label: c.Label, kind: "line", color: styles[i].Color, glyph: styles[i].Glyph})
		}
	}
	return &besideLegend{plot: p, legend: legend, gap: vg.Points(8), entries: es}
}

// linePlot draws the curves of ld on a plot and returns it with the
// legend to draw beside it and the style each curve was drawn in.
func linePlot(d Def, ld *lineData, th Theme) (*plot.Plot, plot.Legend, []curveStyle, error) {
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
	styles := curveStyles(d, ld, th, same)
	ld.problems = lineProblems(d, ld, styles, same)
	for i, c := range ld.Curves {
		if _, dup := same[i]; dup {
			continue
		}
		thumbs, err := addCurve(p, d, c, styles[i], floor, th)
		if err != nil {
			return nil, legend, nil, err
		}
		if thumbs == nil {
			continue
		}
		legend.Add(mergedLabel(ld, same, i), thumbs...)
	}
	// Fixed ranges go last: Add widens the axes to the data.
	if len(d.XLim) == 2 {
		p.X.Min, p.X.Max = d.XLim[0], d.XLim[1]
	} else {
		roundLogRange(&p.X)
	}
	if len(d.YLim) == 2 {
		p.Y.Min, p.Y.Max = d.YLim[0], d.YLim[1]
	} else {
		roundLogRange(&p.Y)
	}
	return p, legend, styles, nil
}

// curveXYs is what is drawn of a curve: its points, the line's segments
// (broken at gaps), the interval bounds and error bars, and whether any
// point has replicates.
type curveXYs struct {
	xys, lo, hi plotter.XYs
	segs        []plotter.XYs
	errs        plotter.YErrors
	replicated  bool
}

// drawnXYs collects the drawn points of c; on a log y axis a lower bound
// <= 0 is drawn at floor/10.
func drawnXYs(d Def, c Curve, floor float64) curveXYs {
	var cx curveXYs
	open := false
	for _, pt := range c.Points {
		if pt.gap() {
			open = false
			continue
		}
		if !pt.drawn() {
			continue
		}
		l := pt.Lo
		if d.LogY && l <= 0 {
			l = floor / 10
		}
		xy := plotter.XY{X: pt.X, Y: pt.Mean}
		cx.xys = append(cx.xys, xy)
		if !open {
			cx.segs = append(cx.segs, nil)
			open = true
		}
		cx.segs[len(cx.segs)-1] = append(cx.segs[len(cx.segs)-1], xy)
		cx.lo = append(cx.lo, plotter.XY{X: pt.X, Y: l})
		cx.hi = append(cx.hi, plotter.XY{X: pt.X, Y: pt.Hi})
		cx.errs = append(cx.errs, struct{ Low, High float64 }{pt.Mean - l, pt.Hi - pt.Mean})
		cx.replicated = cx.replicated || pt.N > 1
	}
	return cx
}

// LegendLine is the longest legend text, in characters, kept on one
// line: the label of a curve drawn once for several identical ones names
// each of them, and past this length each gets a line of its own, so the
// legend fits the figure's width.
const LegendLine = 60

// mergedLabel is the legend text of curve i: its label, and the distinct
// part of each identical curve drawn as it (same), after " = ".
func mergedLabel(ld *lineData, same map[int]int, i int) string {
	parts := []string{ld.Curves[i].Label}
	for j := range ld.Curves {
		if k, dup := same[j]; dup && k == i {
			parts = append(parts, distinctPart(ld.Curves[i].Label, ld.Curves[j].Label))
		}
	}
	if l := strings.Join(parts, " = "); len([]rune(l)) <= LegendLine {
		return l
	}
	return strings.Join(parts, "\n= ")
}

// addCurve adds one curve to p in style st: its band or error bars, its
// line (broken where the curve has a gap) and its markers. It returns
// the legend thumbnails of the curve, or nil when no point is drawn.
func addCurve(p *plot.Plot, d Def, c Curve, st curveStyle, floor float64, th Theme) ([]plot.Thumbnailer, error) {
	cx := drawnXYs(d, c, floor)
	if len(cx.xys) == 0 {
		return nil, nil
	}
	if err := addInterval(p, d, cx, st, th); err != nil {
		return nil, err
	}
	line, err := addSegments(p, cx.segs, draw.LineStyle{Color: st.Color, Width: st.Width, Dashes: st.Dashes, DashOffs: st.DashOffs})
	if err != nil {
		return nil, fmt.Errorf("plots: figure %s: curve %q: %w", d.ID, c.Label, err)
	}
	pts, err := plotter.NewScatter(everyNth(cx.xys, st.Every))
	if err != nil {
		return nil, fmt.Errorf("plots: figure %s: curve %q: %w", d.ID, c.Label, err)
	}
	pts.GlyphStyle = draw.GlyphStyle{Color: st.Color, Radius: st.Radius, Shape: st.Glyph}
	if st.Shared <= 1 {
		p.Add(pts)
		return []plot.Thumbnailer{line, pts}, nil
	}
	// A curve of a coinciding group: its markers shifted by Dx, its
	// legend sample in place and solid, to show the colour whole.
	shifted := *pts
	shifted.GlyphStyle.Shape = shiftedGlyph{st.Glyph, st.Dx}
	p.Add(&shifted)
	solid := *line
	solid.Dashes, solid.DashOffs = nil, 0
	return []plot.Thumbnailer{&solid, pts}, nil
}

// addSegments adds one line in style ls per segment of a curve (segs, as
// split at its gaps) to p and returns the first, the curve's legend
// sample.
func addSegments(p *plot.Plot, segs []plotter.XYs, ls draw.LineStyle) (*plotter.Line, error) {
	var first *plotter.Line
	for _, seg := range segs {
		l, err := plotter.NewLine(seg)
		if err != nil {
			return nil, err
		}
		l.LineStyle = ls
		p.Add(l)
		if first == nil {
			first = l
		}
	}
	return first, nil
}

// splitAt splits a line through xys (sorted by x) into segments wherever
// a value is missing: between two consecutive points with an x of missing
// strictly between them, so that the line does not join them as though
// the missing value lay on it.
func splitAt(xys plotter.XYs, missing []float64) []plotter.XYs {
	var segs []plotter.XYs
	for k, xy := range xys {
		if k == 0 || gapBetween(xys[k-1].X, xy.X, missing) {
			segs = append(segs, nil)
		}
		segs[len(segs)-1] = append(segs[len(segs)-1], xy)
	}
	return segs
}

// gapBetween reports whether one of missing lies strictly between a and b.
func gapBetween(a, b float64, missing []float64) bool {
	for _, m := range missing {
		if a < m && m < b {
			return true
		}
	}
	return false
}

// addInterval adds the confidence interval of a replicated curve: a
// translucent band with three or more points, else error bars.
func addInterval(p *plot.Plot, d Def, cx curveXYs, st curveStyle, th Theme) error {
	switch {
	case !cx.replicated:
		return nil
	case len(cx.xys) >= 3:
		ring := append(plotter.XYs(nil), cx.hi...)
		for k := len(cx.lo) - 1; k >= 0; k-- {
			ring = append(ring, cx.lo[k])
		}
		band, err := plotter.NewPolygon(ring)
		if err != nil {
			return fmt.Errorf("plots: figure %s: band: %w", d.ID, err)
		}
		r, g, b, _ := st.Color.RGBA()
		band.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: th.Band}
		band.LineStyle.Width = 0
		p.Add(band)
	default:
		eb, err := plotter.NewYErrorBars(errorBars{cx.xys, cx.errs})
		if err != nil {
			return fmt.Errorf("plots: figure %s: error bars: %w", d.ID, err)
		}
		eb.LineStyle.Color = st.Color
		eb.LineStyle.Width = th.Line
		p.Add(eb)
	}
	return nil
}

// everyNth is xys[0], xys[n], xys[2n], ... (all of xys for n <= 1).
func everyNth(xys plotter.XYs, n int) plotter.XYs {
	if n <= 1 {
		return xys
	}
	var out plotter.XYs
	for k := 0; k < len(xys); k += n {
		out = append(out, xys[k])
	}
	return out
}

// curveStyle is how one curve is drawn: its colour, marker and dash
// (Theme.style), line width and marker radius, Every, the markers'
// stride (1: a marker on every point), and for a curve in a group of
// Shared curves that coincide, its Rank in the group: the group's lines
// take turns along their length (one dash each, DashOffs apart) and their
// markers sit side by side, Dx apart, so that none hides another.
type curveStyle struct {
	Color    color.Color
	Glyph    draw.GlyphDrawer
	Dashes   []vg.Length
	DashOffs vg.Length
	Width    vg.Length
	Radius   vg.Length
	Every    int
	Shared   int
	Rank     int
	Dx       vg.Length
}

// DenseCurve is the most points a curve has a marker on each of: beyond
// it markers merge into a thick band that hides the line's steps, so a
// dense curve (a time series) is drawn as a line with a marker every few
// points, enough to match it with its legend entry.
const DenseCurve = 100

// denseMarkers is about how many markers a dense curve keeps.
const denseMarkers = 20

// sharedDash is the length of each curve's turn along the line of a group
// of coinciding curves.
const sharedDash = vg.Length(5)

// curveStyles chooses the style of each curve of ld: the theme's style by
// index, markers thinned on dense curves, and curves that coincide
// (within Coincide) drawn in turns (curveStyle.Shared).
func curveStyles(d Def, ld *lineData, th Theme, same map[int]int) []curveStyle {
	styles := make([]curveStyle, len(ld.Curves))
	for i, c := range ld.Curves {
		col, glyph, dash := th.style(i)
		st := curveStyle{Color: col, Glyph: glyph, Dashes: dash, Width: th.Line, Radius: th.Glyph, Every: 1}
		if n := drawnCount(c); n > DenseCurve {
			st.Every = (n + denseMarkers - 1) / denseMarkers
		}
		styles[i] = st
	}
	for _, g := range coincidentGroups(d, ld, same) {
		k := len(g)
		for r, i := range g {
			st := &styles[i]
			st.Shared, st.Rank = k, r
			st.Dashes = []vg.Length{sharedDash, sharedDash * vg.Length(k-1)}
			st.DashOffs = sharedDash * vg.Length((k-r)%k)
			st.Dx = (vg.Length(r) - vg.Length(k-1)/2) * 1.6 * st.Radius
		}
	}
	return styles
}

// coincidentGroups returns the groups (two or more, in drawing order) of
// drawn curves of ld that coincide with one another, directly or through
// a chain of curves; curves drawn once for another (same) are left out.
func coincidentGroups(d Def, ld *lineData, same map[int]int) [][]int {
	group := make([]int, len(ld.Curves))
	for i := range group {
		group[i] = i
	}
	root := func(i int) int {
		for group[i] != i {
			i = group[i]
		}
		return i
	}
	for j := range ld.Curves {
		if _, dup := same[j]; dup {
			continue
		}
		for i := 0; i < j; i++ {
			if _, dup := same[i]; !dup && coincide(d, ld, ld.Curves[i], ld.Curves[j]) {
				group[root(j)] = root(i)
			}
		}
	}
	members := map[int][]int{}
	var roots []int
	for i := range ld.Curves {
		if _, dup := same[i]; dup {
			continue
		}
		r := root(i)
		if members[r] == nil {
			roots = append(roots, r)
		}
		members[r] = append(members[r], i)
	}
	var out [][]int
	for _, r := range roots {
		if len(members[r]) > 1 {
			out = append(out, members[r])
		}
	}
	return out
}

// shiftedGlyph draws a marker Dx to the right of its point.
type shiftedGlyph struct {
	draw.GlyphDrawer
	dx vg.Length
}

// DrawGlyph implements draw.GlyphDrawer.
func (g shiftedGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	g.GlyphDrawer.DrawGlyph(c, sty, vg.Point{X: pt.X + g.dx, Y: pt.Y})
}

// drawnCount is the number of drawn points of c.
func drawnCount(c Curve) int {
	n := 0
	for _, p := range c.Points {
		if p.drawn() {
			n++
		}
	}
	return n
}

// Coincide is how close, as a fraction of the axis span the data take
// (of its logarithm on a log axis), two curves must be at every x for
// the one drawn on top to hide the other: half a percent of a 6 cm axis
// is 0.3 mm, under the width of a line.
const Coincide = 0.005

// coincide reports whether curves a and b have the same drawn x and
// means within Coincide of the data's span at each of them.
func coincide(d Def, ld *lineData, a, b Curve) bool {
	ya := drawnPoints(a)
	yb := drawnPoints(b)
	if len(ya) == 0 || len(ya) != len(yb) {
		return false
	}
	tr := func(v float64) float64 {
		if d.LogY {
			return math.Log10(v)
		}
		return v
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range ld.Curves {
		for _, p := range c.Points {
			if p.drawn() {
				lo, hi = math.Min(lo, tr(p.Mean)), math.Max(hi, tr(p.Mean))
			}
		}
	}
	span := hi - lo
	if !(span > 0) {
		span = math.Max(math.Abs(hi), 1)
	}
	for k := range ya {
		if ya[k].X != yb[k].X || math.Abs(tr(ya[k].Mean)-tr(yb[k].Mean)) > Coincide*span {
			return false
		}
	}
	return true
}

// drawnPoints returns the drawn points of c.
func drawnPoints(c Curve) []Point {
	var ps []Point
	for _, p := range c.Points {
		if p.drawn() {
			ps = append(ps, p)
		}
	}
	return ps
}

// errorBars adapts points and their asymmetric errors to plotter.YErrorBars.
type errorBars struct {
	plotter.XYs
	plotter.YErrors
}

// besideLegend draws a plot with its legend in a column to the right of
// the data area, so that no entry hides a point; when that column would
// leave the data area less than MinDataWidth of the figure's width, the
// legend goes in rows below the plot instead.
type besideLegend struct {
	plot    *plot.Plot
	legend  plot.Legend
	gap     vg.Length
	entries []entryStyle // how each legend entry is drawn, for the drawing checks
}

// MinDataWidth is the smallest fraction of a figure's width its data area
// may take: a legend column that squeezes it further goes below the plot.
const MinDataWidth = 0.5

// legendLayout is where besideLegend draws its parts in a canvas: the
// plot's canvas, the legend's, and whether the legend is below the plot.
type legendLayout struct {
	plot, legend draw.Canvas
	below        bool
}

// layout places the plot and legend in c (c without the title).
func (b *besideLegend) layout(c draw.Canvas) legendLayout {
	b.legend.Top, b.legend.Left = true, true
	b.legend.Padding = vg.Points(3)
	r := b.legend.Rectangle(c)
	w := r.Size().X + 2*b.gap
	pc := draw.Crop(c, 0, -w, 0, 0)
	if da := b.plot.DataCanvas(pc); da.Size().X >= vg.Length(MinDataWidth)*c.Size().X {
		return legendLayout{plot: pc, legend: draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: c.Max.X - w + b.gap, Y: da.Min.Y},
			Max: vg.Point{X: c.Max.X - b.gap, Y: da.Max.Y},
		}}}
	}
	// gonum draws the first entry one descent below the top, so the
	// rows need the entries' height and one descent.
	h := r.Size().Y + b.legend.TextStyle.FontExtents().Descent + b.gap
	pc = draw.Crop(c, 0, 0, h, 0)
	return legendLayout{plot: pc, below: true, legend: draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: c.Min.X + b.gap, Y: c.Min.Y},
		Max: vg.Point{X: c.Max.X - b.gap, Y: c.Min.Y + h - b.gap},
	}}}
}

// Draw implements Drawer.
//
// The title is centred over the whole figure, legend column included:
// centred over the plot alone, a long title would run off the left edge
// when the legend is wide. The plot's own title is cleared while it
// draws, so that it is not drawn twice.
func (b *besideLegend) Draw(c draw.Canvas) {
	title := b.plot.Title.Text
	if title != "" {
		sty := b.titleStyle()
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y}, title)
	}
	c = b.belowTitle(c)
	b.plot.Title.Text = ""
	defer func() { b.plot.Title.Text = title }()
	l := b.layout(c)
	b.plot.Draw(l.plot)
	b.legend.Draw(l.legend)
}

func (b *besideLegend) titleStyle() text.Style {
	sty := b.plot.Title.TextStyle
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
	return sty
}

// belowTitle is c without the figure's title.
func (b *besideLegend) belowTitle(c draw.Canvas) draw.Canvas {
	if title := b.plot.Title.Text; title != "" {
		return draw.Crop(c, 0, 0, 0, -(b.titleStyle().Height(title) + b.plot.Title.Padding))
	}
	return c
}

// placed returns the layout of b in a figure of w x h with the plot's
// title cleared as Draw clears it, for the drawing checks.
func (b *besideLegend) placed(w, h vg.Length) (legendLayout, draw.Canvas) {
	c := b.belowTitle(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: w, Y: h}}})
	title := b.plot.Title.Text
	b.plot.Title.Text = ""
	defer func() { b.plot.Title.Text = title }()
	l := b.layout(c)
	return l, b.plot.DataCanvas(l.plot)
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
	for _, c := range lineColumns(d, ld) {
		t.Header = append(t.Header, c.name)
	}
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

// dataColumn is a column of a line figure's tidy data: its name and, for
// the column that shows a series, x or y quantity itself (not a y's
// interval bounds or count), that quantity, whose spec name and dataset
// column a claim may write by mistake for the figure's column.
type dataColumn struct {
	name     string
	quantity Quantity
}

// lineColumns is the header of lineTable: "curve", one column per series,
// x, then for each y its mean, interval bounds and replicate count, then
// "interval" and "note". It needs the resolved names and units only, not
// the rows, so that a spec's claims can be checked against it before
// anything runs (CheckClaims).
func lineColumns(d Def, ld *lineData) []dataColumn {
	cols := []dataColumn{{name: "curve"}}
	for _, q := range ld.Series {
		cols = append(cols, dataColumn{unitName(q.Name, string(q.Unit)), q})
	}
	cols = append(cols, dataColumn{axisColumn(d.XLabel, ld.X.Name, d.XUnit, ld.X.Unit), ld.X})
	for _, q := range ld.Y {
		c := axisColumn("", q.Name, d.YUnit, q.Unit)
		cols = append(cols, dataColumn{c, q}, dataColumn{name: c + "_lo"}, dataColumn{name: c + "_hi"}, dataColumn{name: q.Name + "_n"})
	}
	return append(cols, dataColumn{name: "interval"}, dataColumn{name: "note"})
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
