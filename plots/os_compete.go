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
// The spec's plots entry names the quantities: x (default "queue_bdp"), y a
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

// The second set draws the same figures from a physical network: the
// backbone a router whose output buffer holds q % of the BDP, without the
// testbed's emulation (specs/os-network.yaml).
func osNetFig(n int, what string) Figure {
	return Figure{ID: fmt.Sprintf("os-net-fig%d", n), Caption: fmt.Sprintf("Document 002's Fig. %d on a physical network (router buffer of q %% of the BDP): %s", n, what), Draw: drawOSTwin}
}

func osNetFig2() Figure { return osNetFig(2, "throughput by algorithm and Jain's index, lossless") }
func osNetFig3() Figure { return osNetFig(3, "retransmissions and throughput by algorithm, lossless") }
func osNetFig4() Figure { return osNetFig(4, "throughput by algorithm and Jain's index, 0.2 % loss") }
func osNetFig5() Figure {
	return osNetFig(5, "retransmissions and throughput by algorithm, 0.2 % loss")
}
func osNetFig6() Figure { return osNetFig(6, "throughput by algorithm and Jain's index, 0.5 % loss") }
func osNetFig7() Figure {
	return osNetFig(7, "retransmissions and throughput by algorithm, 0.5 % loss")
}
func osNetFig8() Figure { return osNetFig(8, "throughput by algorithm and Jain's index, 0.8 % loss") }
func osNetFig9() Figure {
	return osNetFig(9, "retransmissions and throughput by algorithm, 0.8 % loss")
}

// twinSeries is one quantity of a twin-axis figure, summarised per X.
type twinSeries struct {
	q      Quantity
	label  string
	factor float64 // display = base / factor
	unit   string
	pts    []Summary // aligned with the figure's xs
}

// twinData is what a twin-axis figure draws: the x values (largest
// first), the stacked quantities and the lines of the right axis.
type twinData struct {
	xq          Quantity
	xs          []float64
	bars, lines []*twinSeries
	notes       []string
}

// drawOSTwin draws stacked bars with lines on a right-hand axis.
func drawOSTwin(ctx context.Context, in Input) (*Output, error) {
	d := in.Def
	if d.X == "" {
		d.X = "queue_bdp"
	}
	if len(d.Y) < 2 {
		return nil, fmt.Errorf("plots: figure %s: y needs the stacked quantities and at least one line", d.ID)
	}
	td, err := twinCollect(ctx, in, d)
	if err != nil {
		return nil, err
	}
	p, rmin, rmax := twinPlot(in.Theme, d, td)
	legend, entries := twinBars(p, in.Theme, d, td)
	toLeft := func(v float64) float64 { return p.Y.Min + (v-rmin)/(rmax-rmin)*(p.Y.Max-p.Y.Min) }
	lines, err := twinLines(p, &legend, in.Theme, td, rmin, rmax, toLeft)
	if err != nil {
		return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
	}
	art := &twinArt{plot: p, legend: legend, label: twinRightLabel(td.lines), min: rmin, max: rmax, theme: in.Theme,
		entries: append(entries, lines...)}
	return &Output{Art: art, Width: 18 * vg.Centimeter, Height: 10 * vg.Centimeter, Data: twinTable(d, td), Notes: td.notes,
		Comparison: osComparison(d, td.xs, td.bars, td.lines)}, nil
}

// twinCollect selects the figure's rows and summarises every quantity of
// y per x: the first quantity's unit, and every later one of that unit,
// are stacked bars; the rest are lines. Quantities with no value (an
// algorithm not in the mix) are left out with a note.
func twinCollect(ctx context.Context, in Input, d Def) (*twinData, error) {
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
	xf, err := factor(in.Scale, "", xq.Unit) // the queue fraction in %
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
		x = scaled(x, xf)
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
	td := &twinData{xq: xq, xs: xs, notes: notes}
	for k, name := range d.Y {
		q, col, err := lookupCol(in.Schema, d.Table, name, fr)
		if err != nil {
			return nil, err
		}
		vals := make([][]float64, len(xs))
		for i := 0; i < fr.Len(); i++ {
			x, _ := xc.Numeric(i)
			if v, ok := col.Numeric(i); ok && !math.IsNaN(v) {
				vals[pos[scaled(x, xf)]] = append(vals[pos[scaled(x, xf)]], v)
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
			td.notes = append(td.notes, fmt.Sprintf("%s has no values (not in the mix)", name))
			continue
		}
		if k == 0 || (len(td.bars) > 0 && q.Unit == td.bars[0].q.Unit) {
			td.bars = append(td.bars, s)
		} else {
			td.lines = append(td.lines, s)
		}
	}
	if len(td.bars) == 0 || len(td.lines) == 0 {
		return nil, fmt.Errorf("plots: figure %s: needs stacked bars and lines with values", d.ID)
	}
	return td, nil
}

// twinPlot makes the plot with its axes: the left range from 0 to the
// tallest stack (or the spec's ylim), and returns the right axis's range:
// [0, 1] for Jain's index, else 0 to the highest upper error bar.
func twinPlot(th Theme, d Def, td *twinData) (p *plot.Plot, rmin, rmax float64) {
	p = th.newPlot()
	p.Title.Text = d.Title
	p.X.Label.Text = orDefault(d.XLabel, "queue size (% of BDP)")
	p.Y.Label.Text = orDefault(d.YLabel, td.bars[0].q.Name+" ("+td.bars[0].unit+")")
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal.Color = color.Gray{Y: 0xDD}
	p.Add(grid)
	labels := make([]string, len(td.xs))
	for i, x := range td.xs {
		labels[i] = formatNumber(roundSig(x, 4))
	}
	p.NominalX(labels...)
	top := 0.0
	for i := range td.xs {
		top = math.Max(top, stackTotal(td.bars, i))
	}
	lmin, lmax := 0.0, niceCeil(top*1.08)
	if len(d.YLim) == 2 {
		lmin, lmax = d.YLim[0], d.YLim[1]
	}
	for _, l := range td.lines {
		for _, pt := range l.pts {
			if pt.N > 0 {
				rmax = math.Max(rmax, pt.Hi)
			}
		}
	}
	if td.lines[0].q.Unit == vocab.Dimensionless && strings.HasPrefix(td.lines[0].q.Name, "jain") {
		rmax = 1 // an index in [1/n, 1]
	} else {
		rmax = niceCeil(rmax * 1.08)
	}
	p.X.Min, p.X.Max = -0.6, float64(len(td.xs))-0.4
	p.Y.Tick.Marker = plainTicks{}
	p.Y.Min, p.Y.Max = lmin, lmax
	return p, 0, rmax
}

// stackTotal is the height of stack k: the sum of the bars' means.
func stackTotal(bars []*twinSeries, k int) float64 {
	var sum float64
	for _, b := range bars {
		if m := b.pts[k].Mean; !math.IsNaN(m) {
			sum += m
		}
	}
	return sum
}

// osAlgorithms are the congestion controllers of document 002's mix in
// the order of its throughput figures' stacks; each has one colour, marker
// and dash in every os figure (algoStyle).
var osAlgorithms = []string{"bbr", "cubic", "bic", "reno", "bbr2"}

// algoStyle returns the theme's style index of the quantity name, by the
// algorithm it ends in ("retrans_rate_bbr2" and "goodput_bbr2" alike),
// so that an algorithm keeps its colour from figure to figure; a name of
// no algorithm keeps its position i.
func algoStyle(name string, i int) int {
	for k, a := range osAlgorithms {
		if algoOf(name) == a {
			return k
		}
	}
	return i
}

// twinBars adds the stacked bars, bottom first, and returns the legend
// with their entries.
func twinBars(p *plot.Plot, th Theme, d Def, td *twinData) (plot.Legend, []entryStyle) {
	var entries []entryStyle
	legend := plot.NewLegend()
	legend.TextStyle.Font = p.Legend.TextStyle.Font
	width := vg.Length(math.Min(16, 240/float64(len(td.xs)))) * vg.Millimeter / 2
	var below *plotter.BarChart
	for i, b := range td.bars {
		vs := make(plotter.Values, len(td.xs))
		for k, pt := range b.pts {
			if pt.N > 0 {
				vs[k] = pt.Mean
			}
		}
		bc, err := plotter.NewBarChart(vs, width)
		if err != nil {
			panic("plots: bug: bar chart of finite means: " + err.Error())
		}
		col, _, _ := th.style(algoStyle(b.q.Name, i))
		bc.Color = col
		bc.LineStyle.Width = vg.Points(0.3)
		bc.LineStyle.Color = color.White
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		p.Add(bc)
		legend.Add(b.label, bc)
		entries = append(entries, entryStyle{label: b.label, kind: "bar", color: col})
	}
	return legend, entries
}

// twinLines adds the right-axis quantities as lines with points and,
// over replicates, error bars of one standard deviation, mapped onto the
// left axis by toLeft.
func twinLines(p *plot.Plot, legend *plot.Legend, th Theme, td *twinData, rmin, rmax float64, toLeft func(float64) float64) ([]entryStyle, error) {
	var entries []entryStyle
	for i, l := range td.lines {
		col, glyph, dash := th.style(algoStyle(l.q.Name, i))
		if len(td.lines) == 1 {
			col, glyph, dash = color.Black, draw.CircleGlyph{}, nil
		}
		var xys plotter.XYs
		var errs plotter.YErrors
		var missing []float64 // queue sizes without a value: gaps in the line
		replicated := false
		for k, pt := range l.pts {
			if pt.N == 0 {
				missing = append(missing, float64(k))
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
				return nil, err
			}
			eb.LineStyle.Color, eb.LineStyle.Width = col, th.Line
			p.Add(eb)
		}
		ls := draw.LineStyle{Color: col, Width: th.Line, Dashes: dash}
		if len(td.lines) > 1 {
			ls.Width = th.Line * 1.3
		}
		line, err := addSegments(p, splitAt(xys, missing), ls)
		if err != nil {
			return nil, err
		}
		pts, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: th.Glyph, Shape: glyph}
		if len(td.lines) > 1 {
			pts.GlyphStyle.Color = color.Black
		}
		p.Add(pts)
		legend.Add(l.label+" (right)", line, pts)
		entries = append(entries, entryStyle{label: l.label + " (right)", kind: "line", color: col, glyph: glyph})
	}
	return entries, nil
}

// twinRightLabel names the right axis from its quantities.
func twinRightLabel(lines []*twinSeries) string {
	right := strings.ReplaceAll(lines[0].q.Name, "_", " ")
	switch {
	case strings.HasPrefix(lines[0].q.Name, "jain"):
		right = "Jain's fairness index"
	case len(lines) > 1 && lines[0].unit != "":
		right = "per algorithm (" + lines[0].unit + ")"
	case lines[0].unit != "":
		right += " (" + lines[0].unit + ")"
	}
	return right
}

// twinTable is the data behind the figure in long form, one row per
// (x, algorithm) and one more per x whose algorithm is "all": queue_bdp_pct,
// algorithm, then each per-algorithm quantity named after its display unit
// (goodput_mbps, retrans_rate_per_s) with the mean minus and plus one
// standard deviation of the replicates (_lo, _hi); the "all" row holds the
// stack's height in the bars' column (the total), the per-queue lines
// (jain_flows) and, for throughput stacks, BBR's and BBRv2's share of the
// total and the other algorithms' (bbr_share, loss_based_share). Cells that
// do not apply are empty. n is the replicates. Claims (specs' plots
// entries) select the stack with where: {queue_bdp_pct: q, algorithm: all}
// and one bar with its label (algorithm: BBR, or "BBR retr." in the
// retransmission figures, as the plot's labels name the bars).
func twinTable(d Def, td *twinData) *Table {
	t := &Table{Title: d.Title, Caption: d.Caption, Notes: td.notes}
	algos := map[string]bool{}
	for _, b := range td.bars {
		algos[algoOf(b.q.Name)] = true
	}
	var bases []string // per-algorithm quantities, bars' first
	perAlgo := map[string]map[string]*twinSeries{}
	var perQueue []*twinSeries
	for _, s := range append(append([]*twinSeries(nil), td.bars...), td.lines...) {
		a := algoOf(s.q.Name)
		if !algos[a] {
			perQueue = append(perQueue, s)
			continue
		}
		base := osColumn(strings.TrimSuffix(s.q.Name, "_"+a), s.unit)
		if perAlgo[base] == nil {
			perAlgo[base] = map[string]*twinSeries{}
			bases = append(bases, base)
		}
		perAlgo[base][a] = s
	}
	t.Header = append(t.Header, osColumn(td.xq.Name, shownUnit("", td.xq.Unit)), "algorithm")
	for _, b := range bases {
		t.Header = append(t.Header, b, b+"_lo", b+"_hi")
	}
	for _, s := range perQueue {
		c := osColumn(s.q.Name, s.unit)
		t.Header = append(t.Header, c, c+"_lo", c+"_hi")
	}
	shares := td.bars[0].unit == "Mbps"
	if shares {
		t.Header = append(t.Header, "bbr_share", "loss_based_share")
	}
	t.Header = append(t.Header, "n")
	cell := func(v float64, sig int) string { return formatNumber(roundSig(v, sig)) }
	for k, x := range td.xs {
		n := 0
		for _, b := range td.bars {
			a := algoOf(b.q.Name)
			row := []string{formatNumber(x), b.label}
			for _, base := range bases {
				if s := perAlgo[base][a]; s != nil {
					pt := s.pts[k]
					row = append(row, cell(pt.Mean, 6), cell(pt.Lo, 6), cell(pt.Hi, 6))
					n = max(n, pt.N)
				} else {
					row = append(row, "", "", "")
				}
			}
			row = append(row, make([]string, 3*len(perQueue))...)
			if shares {
				row = append(row, "", "")
			}
			t.AddRow(append(row, fmt.Sprint(b.pts[k].N))...)
		}
		row := []string{formatNumber(x), "all"}
		for _, base := range bases {
			var series []*twinSeries
			for _, b := range td.bars {
				if s := perAlgo[base][algoOf(b.q.Name)]; s != nil {
					series = append(series, s)
				}
			}
			row = append(row, cell(stackTotal(series, k), 6), "", "")
		}
		for _, s := range perQueue {
			pt := s.pts[k]
			row = append(row, cell(pt.Mean, 6), cell(pt.Lo, 6), cell(pt.Hi, 6))
			n = max(n, pt.N)
		}
		if shares {
			total, bbr := stackTotal(td.bars, k), bbrTotal(td.bars, k)
			row = append(row, cell(bbr/total, 4), cell(1-bbr/total, 4))
		}
		t.AddRow(append(row, fmt.Sprint(n))...)
	}
	return t
}

// algoOf is the algorithm a per-algorithm quantity's name ends in
// ("goodput_bbr2" -> "bbr2"); for a per-queue quantity such as
// jain_flows it is the last word, which no bar carries.
func algoOf(name string) string {
	return name[strings.LastIndex(name, "_")+1:]
}

// bbrTotal is the height of BBR's and BBRv2's bars in stack k.
func bbrTotal(bars []*twinSeries, k int) float64 {
	var sum float64
	for _, b := range bars {
		if strings.HasSuffix(b.q.Name, "_bbr") || strings.HasSuffix(b.q.Name, "_bbr2") {
			if m := b.pts[k].Mean; !math.IsNaN(m) {
				sum += m
			}
		}
	}
	return sum
}

// osColumn names a data column after its quantity and display unit:
// lower case, the unit spelt in letters ("Mbps" -> "mbps", "%" -> "pct",
// "1/s" -> "per_s", "pkt" -> "pkts").
func osColumn(name, unit string) string {
	u := map[string]string{"": "", "Mbps": "mbps", "%": "pct", "1/s": "per_s", "pkt": "pkts", "s": "s"}[unit]
	if u == "" && unit != "" {
		u = strings.NewReplacer("/", "_per_", " ", "_").Replace(strings.ToLower(unit))
	}
	if u == "" {
		return name
	}
	return name + "_" + u
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
		family := func(k int) float64 { return bbrTotal(bars, k) / total(k) } // BBR and BBRv2 together
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
	entries  []entryStyle // how each legend entry is drawn, for the drawing checks
}

func (a *twinArt) panels() []*plot.Plot       { return []*plot.Plot{a.plot} }
func (a *twinArt) legendStyles() []entryStyle { return a.entries }

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

// Ticks implements plot.Ticker: the round 1-2-5 steps of linear.
func (plainTicks) Ticks(min, max float64) []plot.Tick { return linear{}.Ticks(min, max) }
