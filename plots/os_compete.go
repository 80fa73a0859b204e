package plots

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/crosslink-sim/crosslink/vocab"
)

// The figures of document 002 ("On the interplay of congestion and OSNR
// degradation for TCP over optical networks"): per queue size, stacked
// bars of one quantity by algorithm with lines of another on a second,
// right-hand axis. Figs. 2, 4, 6 and 8 stack the average throughput of
// each algorithm and draw Jain's fairness index on the right; Figs. 3, 5,
// 7 and 9 stack the retransmitted packets and draw each algorithm's
// throughput as lines with error bars. (The extracted text repeats the
// caption of Fig. 8 for Fig. 7; by the pattern of the other pairs Fig. 7
// is the retransmissions at 0.5 % loss.)
//
// The spec's plots entry names the quantities: x (default "queue"), y a
// list whose first entry's unit defines the stacked bars; entries of that
// unit are stacked in order, the others are lines on the right axis.
// labels gives legend text per name, ylabel the left axis label; the
// right axis is labelled from its quantities. Series with no value (an algorithm not
// in the mix: NaN columns) are left out.
//
// gonum/plot has one Y axis per plot. The right axis here is drawn by
// hand: the line series are mapped linearly from their range onto the
// left axis's range and plotted in the same plot (so both share one data
// area exactly), and twinArt draws ticks and labels of the right range
// beside the data area. Bars use plotter.BarChart with StackOn.

func osFig(n int, caption string) Figure {
	return Figure{ID: fmt.Sprintf("os-fig%d", n), Caption: "Document 002, Fig. " + fmt.Sprint(n) + ": " + caption, Draw: drawOSTwin}
}

func osFig2() Figure {
	return osFig(2, "Average throughput and Jain fairness index by TCP congestion control, lossless, gOSNR >= 20 dB")
}
func osFig3() Figure {
	return osFig(3, "Retransmission and throughput average per queue variation by TCP congestion control, lossless, gOSNR >= 20 dB")
}
func osFig4() Figure {
	return osFig(4, "Average throughput and Jain fairness index by TCP congestion control with 0.2 % losses, gOSNR ~ 19.45 dB")
}
func osFig5() Figure {
	return osFig(5, "Retransmission and throughput average per queue variation with 0.2 % losses, gOSNR ~ 19.45 dB")
}
func osFig6() Figure {
	return osFig(6, "Average throughput and Jain fairness index by TCP congestion control with 0.5 % losses, gOSNR ~ 19.15 dB")
}
func osFig7() Figure {
	return osFig(7, "Retransmission and throughput average per queue variation with 0.5 % losses, gOSNR ~ 19.15 dB (caption duplicated from Fig. 8 in the extracted text)")
}
func osFig8() Figure {
	return osFig(8, "Average throughput and Jain fairness index by TCP congestion control with 0.8 % losses, gOSNR ~ 18.95 dB")
}
func osFig9() Figure {
	return osFig(9, "Retransmission and throughput average per queue variation with 0.8 % losses, gOSNR ~ 18.95 dB")
}

// twinSeries is one quantity of a twin-axis figure, summarised per X.
type twinSeries struct {
	q      Quantity
	label  string
	factor float64 // display = base / factor
	unit   string
	pts    []Summary // aligned with the figure's xs
}

// drawOSTwin draws stacked bars with lines on a right-hand axis.
func drawOSTwin(ctx context.Context, in Input) (*Output, error) {
	d := in.Def
	if d.X == "" {
		d.X = "queue"
	}
	if len(d.Y) < 2 {
		return nil, fmt.Errorf("plots: figure %s: y needs the stacked quantities and at least one line", d.ID)
	}
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	fr, notes, err := selectRows(d, in.Schema, fr)
	if err != nil {
		return nil, err
	}
	xq, xc, err := lookupCol(in.Schema, d.Table, d.X, fr)
	if err != nil {
		return nil, err
	}
	// Distinct x, largest first: the documents sweep q from 100 % down.
	seen := map[float64]bool{}
	var xs []float64
	for i := 0; i < fr.Len(); i++ {
		x, ok := xc.Numeric(i)
		if !ok {
			return nil, fmt.Errorf("plots: figure %s: %s must be a number", d.ID, d.X)
		}
		if !seen[x] {
			seen[x] = true
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("plots: figure %s: no rows to draw", d.ID)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(xs)))
	pos := map[float64]int{}
	for i, x := range xs {
		pos[x] = i
	}

	var bars, lines []*twinSeries
	for k, name := range d.Y {
		q, col, err := lookupCol(in.Schema, d.Table, name, fr)
		if err != nil {
			return nil, err
		}
		vals := make([][]float64, len(xs))
		for i := 0; i < fr.Len(); i++ {
			x, _ := xc.Numeric(i)
			if v, ok := col.Numeric(i); ok && !math.IsNaN(v) {
				vals[pos[x]] = append(vals[pos[x]], v)
			}
		}
		s := &twinSeries{q: q, label: orDefault(d.Labels[name], strings.ReplaceAll(name, "_", " ")), factor: 1, unit: string(q.Unit)}
		if q.Unit == vocab.BitPerSecond {
			s.unit = "Mbps"
			if s.factor, err = factor(in.Scale, s.unit, q.Unit); err != nil {
				return nil, err
			}
		}
		any := false
		for _, v := range vals {
			// Error bars span one standard deviation of the replicates
			// either side of the mean, as the document's figures show the
			// spread of its runs (a 95 % interval from two or three
			// replicates would be wider than the axis).
			sm := Summarize(v, Confidence)
			if sm.N > 1 {
				sm.Lo, sm.Hi = sm.Mean-sm.StdDev, sm.Mean+sm.StdDev
			}
			sm.Mean /= s.factor
			sm.Lo /= s.factor
			sm.Hi /= s.factor
			s.pts = append(s.pts, sm)
			any = any || sm.N > 0
		}
		if !any {
			notes = append(notes, fmt.Sprintf("%s has no values (not in the mix)", name))
			continue
		}
		if k == 0 || (len(bars) > 0 && q.Unit == bars[0].q.Unit) {
			bars = append(bars, s)
		} else {
			lines = append(lines, s)
		}
	}
	if len(bars) == 0 || len(lines) == 0 {
		return nil, fmt.Errorf("plots: figure %s: needs stacked bars and lines with values", d.ID)
	}

	th := in.Theme
	p := th.newPlot()
	p.Title.Text = d.Title
	p.X.Label.Text = orDefault(d.XLabel, "queue size (% of BDP)")
	p.Y.Label.Text = orDefault(d.YLabel, bars[0].q.Name+" ("+bars[0].unit+")")
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal.Color = color.Gray{Y: 0xDD}
	p.Add(grid)
	labels := make([]string, len(xs))
	for i, x := range xs {
		labels[i] = formatNumber(roundSig(x, 4))
	}
	p.NominalX(labels...)

	// Left range: 0 to the tallest stack, or the spec's ylim.
	top := 0.0
	for i := range xs {
		var sum float64
		for _, b := range bars {
			if m := b.pts[i].Mean; !math.IsNaN(m) {
				sum += m
			}
		}
		top = math.Max(top, sum)
	}
	lmin, lmax := 0.0, niceCeil(top*1.08)
	if len(d.YLim) == 2 {
		lmin, lmax = d.YLim[0], d.YLim[1]
	}
	// Right range: [0, 1] for dimensionless indices, else 0 to the
	// highest upper confidence bound.
	rmin, rmax := 0.0, 0.0
	for _, l := range lines {
		for _, pt := range l.pts {
			if pt.N > 0 {
				rmax = math.Max(rmax, pt.Hi)
			}
		}
	}
	if lines[0].q.Unit == vocab.Dimensionless && strings.HasPrefix(lines[0].q.Name, "jain") {
		rmax = 1 // an index in [1/n, 1]
	} else {
		rmax = niceCeil(rmax * 1.08)
	}
	toLeft := func(v float64) float64 { return lmin + (v-rmin)/(rmax-rmin)*(lmax-lmin) }

	legend := plot.NewLegend()
	legend.TextStyle.Font = p.Legend.TextStyle.Font
	width := vg.Length(math.Min(16, 240/float64(len(xs)))) * vg.Millimeter / 2
	var below *plotter.BarChart
	for i, b := range bars {
		vs := make(plotter.Values, len(xs))
		for k, pt := range b.pts {
			if pt.N > 0 {
				vs[k] = pt.Mean
			}
		}
		bc, err := plotter.NewBarChart(vs, width)
		if err != nil {
			return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
		}
		col, _, _ := th.style(i)
		bc.Color = col
		bc.LineStyle.Width = vg.Points(0.3)
		bc.LineStyle.Color = color.White
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		p.Add(bc)
		legend.Add(b.label, bc)
	}
	for i, l := range lines {
		col, glyph, dash := th.style(i)
		if len(lines) == 1 {
			col, glyph, dash = color.Black, draw.CircleGlyph{}, nil
		}
		var xys plotter.XYs
		var errs plotter.YErrors
		replicated := false
		for k, pt := range l.pts {
			if pt.N == 0 {
				continue
			}
			y := toLeft(pt.Mean)
			lo, hi := toLeft(math.Max(pt.Lo, rmin)), toLeft(math.Min(pt.Hi, rmax))
			xys = append(xys, plotter.XY{X: float64(k), Y: y})
			errs = append(errs, struct{ Low, High float64 }{y - lo, hi - y})
			replicated = replicated || pt.N > 1
		}
		if replicated {
			eb, err := plotter.NewYErrorBars(errorBars{xys, errs})
			if err != nil {
				return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
			}
			eb.LineStyle.Color, eb.LineStyle.Width = col, th.Line
			p.Add(eb)
		}
		line, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
		}
		line.Color, line.Width, line.Dashes = col, th.Line, dash
		pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: th.Glyph, Shape: glyph}
		if len(lines) > 1 {
			pts.GlyphStyle.Color = color.Black
			line.Width = th.Line * 1.3
		}
		p.Add(line, pts)
		legend.Add(l.label+" (right)", line, pts)
	}
	p.X.Min, p.X.Max = -0.6, float64(len(xs))-0.4
	p.Y.Tick.Marker = plainTicks{}
	p.Y.Min, p.Y.Max = lmin, lmax

	right := strings.ReplaceAll(lines[0].q.Name, "_", " ")
	switch {
	case strings.HasPrefix(lines[0].q.Name, "jain"):
		right = "Jain's fairness index"
	case len(lines) > 1 && lines[0].unit != "":
		right = "per algorithm (" + lines[0].unit + ")"
	case lines[0].unit != "":
		right += " (" + lines[0].unit + ")"
	}
	art := &twinArt{plot: p, legend: legend, label: right, min: rmin, max: rmax, theme: th}

	// The data behind the figure, one row per x in display units.
	t := &Table{Title: d.Title, Caption: d.Caption, Notes: notes}
	t.Header = append(t.Header, xq.Name+" ("+string(xq.Unit)+")")
	for _, s := range append(append([]*twinSeries(nil), bars...), lines...) {
		u := s.unit
		if u == "" {
			u = "-"
		}
		t.Header = append(t.Header, s.q.Name+" ("+u+") mean", "ci95 low", "ci95 high")
	}
	t.Header = append(t.Header, "n")
	for k, x := range xs {
		row := []string{formatNumber(x)}
		n := 0
		for _, s := range append(append([]*twinSeries(nil), bars...), lines...) {
			pt := s.pts[k]
			row = append(row, formatNumber(roundSig(pt.Mean, 6)), formatNumber(roundSig(pt.Lo, 6)), formatNumber(roundSig(pt.Hi, 6)))
			n = max(n, pt.N)
		}
		row = append(row, fmt.Sprint(n))
		t.AddRow(row...)
	}
	return &Output{Art: art, Width: 18 * vg.Centimeter, Height: 10 * vg.Centimeter, Data: t, Notes: notes,
		Comparison: osComparison(d, xs, bars, lines)}, nil
}

// osComparison sets the shape document 002 describes beside ours: the
// document prints no numbers for these figures, only that the bottleneck
// is shared by the mix, that BBR's share grows and fairness falls as the
// queue shrinks, and that loss improves fairness.
func osComparison(d Def, xs []float64, bars, lines []*twinSeries) *Table {
	t := &Table{Title: d.Title + ": document 002 and ours", Header: []string{"quantity", "document 002", "ours"}}
	first, last := 0, len(xs)-1
	at := func(s *twinSeries, k int) string { return formatNumber(roundSig(s.pts[k].Mean, 3)) }
	span := fmt.Sprintf("q %s %% -> %s %%", formatNumber(xs[first]), formatNumber(xs[last]))
	var total func(k int) float64 = func(k int) float64 {
		var sum float64
		for _, b := range bars {
			if m := b.pts[k].Mean; !math.IsNaN(m) {
				sum += m
			}
		}
		return sum
	}
	if bars[0].unit == "Mbps" {
		t.AddRow("total throughput (Mbps), "+span, "10 flows share the 100 Mbit/s backbone",
			formatNumber(roundSig(total(first), 3))+" -> "+formatNumber(roundSig(total(last), 3)))
		family := func(k int) float64 { // BBR and BBRv2 together
			var sum float64
			for _, b := range bars {
				if strings.HasSuffix(b.q.Name, "_bbr") || strings.HasSuffix(b.q.Name, "_bbr2") {
					if m := b.pts[k].Mean; !math.IsNaN(m) {
						sum += m
					}
				}
			}
			return sum / total(k)
		}
		for _, b := range bars {
			if strings.HasSuffix(b.q.Name, "_bbr") {
				share := func(k int) string { return formatNumber(roundSig(b.pts[k].Mean/total(k), 3)) }
				t.AddRow("BBR share of throughput, "+span, "grows as the queue shrinks", share(first)+" -> "+share(last))
				t.AddRow("BBR + BBRv2 share, "+span, "grows as the queue shrinks",
					formatNumber(roundSig(family(first), 3))+" -> "+formatNumber(roundSig(family(last), 3)))
			}
		}
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l.q.Name, "jain"):
			t.AddRow(strings.ReplaceAll(l.q.Name, "_", " ")+", "+span, "falls as the queue shrinks; higher with loss than lossless",
				at(l, first)+" -> "+at(l, last))
		default:
			t.AddRow(l.label+" ("+l.unit+"), "+span, "-", at(l, first)+" -> "+at(l, last))
		}
	}
	if bars[0].q.Unit == vocab.Packet {
		var sf, sl float64
		for _, b := range bars {
			if !math.IsNaN(b.pts[first].Mean) {
				sf += b.pts[first].Mean
			}
			if !math.IsNaN(b.pts[last].Mean) {
				sl += b.pts[last].Mean
			}
		}
		t.AddRow("retransmitted packets, all flows, "+span, "-", formatNumber(roundSig(sf, 3))+" -> "+formatNumber(roundSig(sl, 3)))
	}
	return t
}

// niceCeil rounds x up to 1, 2, 2.5 or 5 times a power of ten.
func niceCeil(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*e >= x*(1-1e-12) {
			return m * e
		}
	}
	return 10 * e
}

// twinArt draws a plot with a second Y axis on the right of its data area
// (ticks of [min, max] mapped onto the data area's height) and its legend
// in a column beyond.
type twinArt struct {
	plot     *plot.Plot
	legend   plot.Legend
	label    string
	min, max float64
	theme    Theme
}

// Draw implements Drawer.
func (a *twinArt) Draw(c draw.Canvas) {
	th := a.theme
	tickStyle := th.textStyle(th.FontSize - 1)
	labelStyle := th.textStyle(th.FontSize)
	ticks := plainTicks{}.Ticks(a.min, a.max)
	var tickW vg.Length
	for _, t := range ticks {
		if t.Label != "" {
			tickW = max(tickW, tickStyle.Width(t.Label))
		}
	}
	const tickLen = vg.Length(4)
	axisW := tickLen + 3 + tickW + 4 + labelStyle.Height(a.label) + 6
	a.legend.Top, a.legend.Left = true, true
	a.legend.Padding = vg.Points(3)
	lw := a.legend.Rectangle(c).Size().X + 12

	pc := draw.Crop(c, 0, -(axisW + lw), 0, 0)
	a.plot.Draw(pc)
	da := a.plot.DataCanvas(pc)
	x0 := da.Max.X
	line := draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}
	c.StrokeLine2(line, x0, da.Min.Y, x0, da.Max.Y)
	y := func(v float64) vg.Length {
		return da.Min.Y + vg.Length((v-a.min)/(a.max-a.min))*(da.Max.Y-da.Min.Y)
	}
	for _, t := range ticks {
		if t.Value < a.min-1e-12 || t.Value > a.max+1e-12 {
			continue
		}
		yy := y(t.Value)
		l := tickLen
		if t.Label == "" {
			l /= 2
		}
		c.StrokeLine2(line, x0, yy, x0+l, yy)
		if t.Label != "" {
			st := tickStyle
			st.XAlign, st.YAlign = text.XLeft, text.YCenter
			c.FillText(st, vg.Point{X: x0 + tickLen + 3, Y: yy}, t.Label)
		}
	}
	ls := labelStyle
	ls.Rotation = math.Pi / 2
	ls.XAlign, ls.YAlign = text.XCenter, text.YTop
	c.FillText(ls, vg.Point{X: x0 + tickLen + 3 + tickW + 4 + labelStyle.Height(a.label), Y: (da.Min.Y + da.Max.Y) / 2}, a.label)

	lc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: c.Max.X - lw + 6, Y: da.Min.Y},
		Max: vg.Point{X: c.Max.X - 6, Y: da.Max.Y},
	}}
	a.legend.Draw(lc)
}

// plainTicks are gonum's default ticks labelled with the shortest
// decimal ("25000", "0.5") instead of a fixed precision.
type plainTicks struct{}

// Ticks implements plot.Ticker.
func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = formatNumber(roundSig(ts[i].Value, 6))
		}
	}
	return ts
}
