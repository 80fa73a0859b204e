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
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/crosslink-sim/crosslink/vocab"
)

// The figures of document 004 (Speidel, APNIC blog: GEO vs MEO satellite
// links for island ISPs) and of the remedies its comments discuss.

func spFig1() Figure {
	return Figure{
		ID: "sp-fig1",
		Caption: "Document 004, Fig. 1: GEO (blue) vs MEO (red), 32 Mbps each way: total goodput, 80 MB probe goodput " +
			"and flows per second against load; markers are runs, lines their mean",
		Draw: drawSPFig1,
	}
}

func spLoss() Figure {
	return Figure{ID: "sp-loss", Draw: drawSPFig1, Caption: "Document 004, text: TCP payload lost at the satellite input queue against load, GEO vs MEO"}
}

func spQueue() Figure {
	return Figure{ID: "sp-queue", Draw: drawSPFig1, Caption: "Satellite input queue occupancy (mean, 95th percentile) against load, GEO vs MEO"}
}

func spPEP() Figure {
	return Figure{ID: "sp-pep", Draw: drawSPFig1, Caption: "Beyond document 004: split-TCP proxies at the gateway and the island vs the plain link"}
}

func spCoding() Figure {
	return Figure{ID: "sp-coding", Draw: drawSPFig1, Caption: "Beyond document 004: payload loss TCP sees with a 10+2 block code over the satellite hop vs the plain link"}
}

func spCodingGoodput() Figure {
	return Figure{ID: "sp-coding-goodput", Draw: drawSPFig1, Caption: "Beyond document 004: total and probe goodput with a 10+2 block code over the satellite hop vs the plain link"}
}

func spFQCoDel() Figure {
	return Figure{ID: "sp-fqcodel", Draw: drawSPFig1, Caption: "Beyond document 004: FQ-CoDel at the satellite input (2 MB limit) vs DropTail (250 kB GEO, 200 kB MEO)"}
}

func spFQCoDelLoss() Figure {
	return Figure{ID: "sp-fqcodel-loss", Draw: drawSPFig1, Caption: "Beyond document 004: payload loss at the satellite input, FQ-CoDel vs DropTail"}
}

// spPanel is one panel of sp-fig1: a metric, its display unit and label,
// and its column in the figure's data.
type spPanel struct {
	name, unit, label, column string
}

// drawSPFig1 draws one panel per y of the spec entry, stacked, with every
// replicate as a marker and the mean of each (orbit, load) as a line, the
// way document 004's Fig. 1 shows its ten runs per load. The parts: the
// series of the rows (spSeriesOf), the panels' labels (spPanels), one
// panel per metric (drawPanel, with the link rate on the goodput panel),
// the tidy table of means (table) and, for the loss figure, the
// comparison with the document's numbers.
func drawSPFig1(ctx context.Context, in Input) (*Output, error) {
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	d := in.Def
	ss, err := spSeriesOf(in, fr)
	if err != nil {
		return nil, err
	}
	panels := spPanels(d.Y)
	means := spMeans{}
	var rows [][]*plot.Plot
	// The top panel's legend, drawn beside the stack by stackArt: a copy
	// of the plot's own, so the plot does not draw it on its data.
	var legend plot.Legend
	entries := 0
	for pi := range panels {
		p, err := ss.drawPanel(in, &panels[pi], pi, len(panels), means)
		if err != nil {
			return nil, err
		}
		if pi == 0 {
			legend = p.Legend
			for _, s := range ss.series {
				if th := ss.thumbs[s]; len(th) > 0 {
					legend.Add(ss.display(s), th...)
					entries++
				}
			}
			if ss.rateLine != nil {
				legend.Add("link rate", ss.rateLine)
				entries++
			}
		}
		rows = append(rows, []*plot.Plot{p})
	}
	out := &Output{
		Art:   &stackArt{rows: rows, legend: legend, entries: entries, gap: vg.Points(8)},
		Width: 16 * vg.Centimeter, Height: vg.Length(3+7*len(rows)) * vg.Centimeter,
		Data: ss.table(d, panels, means),
	}
	for pi, pn := range panels {
		if pn.name == "payload_loss" && len(d.Series) == 1 {
			out.Comparison = spLossComparison(func(orbit string, x float64) (float64, bool) {
				m, ok := means[spKey{orbit, x}]
				if !ok || pi >= len(m.y) {
					return 0, false
				}
				return m.y[pi], true
			}, means.loads("geo"))
		}
	}
	return out, nil
}

// spKey is one series at one load.
type spKey struct {
	s string
	x float64
}

// spMean is the mean of each panel's metric over the runs at one key.
type spMean struct {
	runs int
	y    []float64
}

// spMeans collects the means the panels compute.
type spMeans map[spKey]*spMean

// sorted returns the keys by series, then load.
func (m spMeans) sorted() []spKey {
	keys := make([]spKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].s != keys[j].s {
			return keys[i].s < keys[j].s
		}
		return keys[i].x < keys[j].x
	})
	return keys
}

// loads returns the loads of series s in increasing order.
func (m spMeans) loads(s string) []float64 {
	var xs []float64
	for _, k := range m.sorted() {
		if k.s == s {
			xs = append(xs, k.x)
		}
	}
	return xs
}

// spSeries is the rows of an sp figure grouped into series: the orbit
// (colour, GEO blue and MEO red as in the document) and at most one option
// (marker and dash).
type spSeries struct {
	fr       *Frame
	xc       *Column
	qs       []Quantity
	scs      []*Column
	series   []string // sorted: styles do not depend on row order
	orbits   []string
	opts     []string
	style    map[string][2]int // series -> orbit index, option index
	thumbs   map[string][]plot.Thumbnailer
	rateLine plot.Thumbnailer
}

func spSeriesOf(in Input, fr *Frame) (*spSeries, error) {
	d := in.Def
	_, xc, err := lookupCol(in.Schema, d.Table, d.X, fr)
	if err != nil {
		return nil, err
	}
	if len(d.Series) < 1 || len(d.Series) > 2 {
		return nil, fmt.Errorf("plots: figure %s: want the orbit and at most one option as series, got %q", d.ID, d.Series)
	}
	ss := &spSeries{fr: fr, xc: xc, style: map[string][2]int{}, thumbs: map[string][]plot.Thumbnailer{}}
	for _, name := range d.Series {
		q, c, err := lookupCol(in.Schema, d.Table, name, fr)
		if err != nil {
			return nil, err
		}
		ss.qs, ss.scs = append(ss.qs, q), append(ss.scs, c)
	}
	seen, seenO, seenP := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range fr.Len() {
		if v := ss.label(i); !seen[v] {
			seen[v] = true
			ss.series = append(ss.series, v)
		}
		if o := ss.scs[0].Value(i).String(); !seenO[o] {
			seenO[o] = true
			ss.orbits = append(ss.orbits, o)
		}
		if len(ss.scs) > 1 {
			if o := ss.scs[1].Value(i).String(); !seenP[o] {
				seenP[o] = true
				ss.opts = append(ss.opts, o)
			}
		}
	}
	sort.Strings(ss.series)
	sort.Strings(ss.orbits)
	sort.Strings(ss.opts)
	for i := range fr.Len() {
		oi := sort.SearchStrings(ss.orbits, ss.scs[0].Value(i).String())
		pi := 0
		if len(ss.scs) > 1 {
			pi = sort.SearchStrings(ss.opts, ss.scs[1].Value(i).String())
		}
		ss.style[ss.label(i)] = [2]int{oi, pi}
	}
	return ss, nil
}

// label returns row i's series key: its series values joined by tabs.
func (ss *spSeries) label(i int) string {
	parts := make([]string, len(ss.scs))
	for j, c := range ss.scs {
		parts[j] = c.Value(i).String()
	}
	return strings.Join(parts, "\t")
}

// display is a series key as the legend shows it: "GEO", "MEO, PEP".
func (ss *spSeries) display(s string) string {
	vals := strings.Split(s, "\t")
	parts := make([]string, len(vals))
	for j, v := range vals {
		switch {
		case j == 0:
			parts[j] = strings.ToUpper(v)
		case ss.qs[j].Kind == vocab.Bool:
			parts[j] = legendPart(ss.qs[j], vocab.B(v == "true"))
		default:
			parts[j] = legendPart(ss.qs[j], vocab.S(v))
		}
	}
	return strings.Join(parts, ", ")
}

// spPanels names the panel of each y: its display unit and axis label.
func spPanels(ys []string) []spPanel {
	panels := make([]spPanel, len(ys))
	for i, y := range ys {
		panels[i] = spPanel{name: y, label: y}
		switch y {
		// Total goodput is every byte (the probe's too) over the whole
		// measured run; the probe's is its 80 MB over its own transfer
		// time, so at light load it can exceed the total: the labels say
		// over what each is averaged.
		case "goodput":
			panels[i].unit, panels[i].label = "Mbps", "total goodput, run mean (Mbit/s)"
		case "probe_goodput":
			panels[i].unit, panels[i].label = "Mbps", "80 MB probe goodput, over its transfer (Mbit/s)"
		case "flows_completed":
			panels[i].label = "flows completed per second"
		case "payload_loss":
			panels[i].label = "payload lost at the satellite input (%)"
		case "residual_loss":
			panels[i].label = "payload lost to TCP after decoding (%)"
		case "coding_overhead":
			panels[i].label = "parity over data bytes into the queue (%)"
		case "queue_mean":
			panels[i].unit, panels[i].label = "kB", "satellite input queue, mean (kB)"
		case "queue_p95":
			panels[i].unit, panels[i].label = "kB", "satellite input queue, 95th percentile (kB)"
		}
	}
	return panels
}

var (
	// spColours are GEO blue and MEO red, as in the document: a dark blue
	// and a light red, so that they differ in grey level too (Rec. 601
	// luma about 60 and 129 of 255; the former pair, 0x1f4eb4 and
	// 0xc81e1e, printed as the same grey).
	spColours = []color.Color{color.RGBA{R: 0x1f, G: 0x3a, B: 0x93, A: 0xff}, color.RGBA{R: 0xe3, G: 0x5b, B: 0x45, A: 0xff}}
	// spGlyphs and spDashes tell every (orbit, option) series apart in
	// grey-scale too: series (o, k) uses glyph and dash o + 2k, so the
	// two orbits differ in both at each option, and the options too.
	spGlyphs = []draw.GlyphDrawer{draw.CrossGlyph{}, draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}}
	spDashes = [][]vg.Length{nil, {vg.Points(5), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}
)

// spStyle is the glyph and dash index of a series of orbit st[0] and
// option st[1].
func spStyle(st [2]int) int { return st[0] + 2*st[1] }

// drawPanel draws panel pn (number pi of n): every run as a marker, the
// mean per load as a line, and on the goodput panel the link rate. It
// records the means in means, and the legend's thumbnails in ss.
func (ss *spSeries) drawPanel(in Input, pn *spPanel, pi, n int, means spMeans) (*plot.Plot, error) {
	d, th := in.Def, in.Theme
	yq, yc, err := lookupCol(in.Schema, d.Table, pn.name, ss.fr)
	if err != nil {
		return nil, err
	}
	pn.column = axisColumn("", pn.name, pn.unit, yq.Unit)
	f, err := factor(in.Scale, pn.unit, yq.Unit)
	if err != nil {
		return nil, err
	}
	p := th.newPlot()
	if pi == 0 {
		// Two lines: on one, a long title (sp-coding's) ran past the
		// panel, which the legend beside the stack narrows.
		p.Title.Text = d.Title + "\n(lines: mean, markers: runs)"
	}
	if pi == n-1 {
		p.X.Label.Text = orDefault(d.XLabel, "load (channels)")
	}
	p.Y.Label.Text = pn.label
	p.Y.Min = 0
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 0xDD}
	grid.Horizontal.Color = color.Gray{Y: 0xDD}
	p.Add(grid)
	for _, s := range ss.series {
		byX := map[float64][]float64{}
		var pts plotter.XYs
		var missing []float64 // loads with a NaN or null value: gaps in the mean line
		for i := range ss.fr.Len() {
			if ss.label(i) != s {
				continue
			}
			x, ok1 := ss.xc.Numeric(i)
			y, ok2 := yc.Numeric(i)
			if !ok1 || !ok2 || math.IsNaN(y) {
				if ok1 && ok2 && !math.IsNaN(x) {
					missing = append(missing, x)
				}
				continue
			}
			byX[x] = append(byX[x], y/f)
			pts = append(pts, plotter.XY{X: x, Y: y / f})
		}
		line := spMeanLine(s, byX, pi, means)
		st := ss.style[s]
		col := spColours[st[0]%len(spColours)]
		var thumbs []plot.Thumbnailer
		if len(pts) > 0 {
			scat, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
			}
			scat.GlyphStyle = draw.GlyphStyle{Color: col, Radius: th.Glyph, Shape: spGlyphs[spStyle(st)%len(spGlyphs)]}
			p.Add(scat)
			thumbs = append(thumbs, scat)
		}
		if len(line) > 0 {
			l, err := addSegments(p, splitAt(line, missing), draw.LineStyle{Color: col, Width: th.Line, Dashes: spDashes[spStyle(st)%len(spDashes)]})
			if err != nil {
				return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
			}
			thumbs = append(thumbs, l)
		}
		if pi == 0 && len(thumbs) > 0 {
			ss.thumbs[s] = thumbs
		}
	}
	if pn.name == "goodput" {
		ss.addLinkRate(in, p, f, pi == 0)
	}
	return p, nil
}

// spMeanLine returns the mean of the runs at each load of series s, in
// load order, and records it as panel pi's value in means.
func spMeanLine(s string, byX map[float64][]float64, pi int, means spMeans) plotter.XYs {
	xs := make([]float64, 0, len(byX))
	for x := range byX {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	var line plotter.XYs
	for _, x := range xs {
		m := 0.0
		for _, y := range byX[x] {
			m += y
		}
		m /= float64(len(byX[x]))
		line = append(line, plotter.XY{X: x, Y: m})
		k := spKey{s, x}
		if means[k] == nil {
			means[k] = &spMean{}
		}
		for len(means[k].y) < pi {
			means[k].y = append(means[k].y, math.NaN())
		}
		means[k].y = append(means[k].y, m)
		means[k].runs = len(byX[x])
	}
	return line
}

// addLinkRate draws the link rate (document 004's brown line) on the
// goodput panel when the rows have it.
func (ss *spSeries) addLinkRate(in Input, p *plot.Plot, f float64, legend bool) {
	rq, err := Lookup(in.Schema, in.Def.Table, "rate")
	if err != nil {
		return
	}
	rc, err := ss.fr.Col(rq.Column)
	if err != nil || ss.fr.Len() == 0 {
		return
	}
	r, ok := rc.Numeric(0)
	if !ok {
		return
	}
	rl := plotter.NewFunction(func(float64) float64 { return r / f })
	rl.Color = color.RGBA{R: 0x8b, G: 0x5a, B: 0x2b, A: 0xff}
	rl.Width = in.Theme.Line
	rl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(rl)
	p.Y.Max = math.Max(p.Y.Max, 1.08*r/f)
	if legend {
		ss.rateLine = rl
	}
}

// table is the tidy data of the figure: one row per series and load, the
// series parameters as columns, the run count and each panel's mean.
func (ss *spSeries) table(d Def, panels []spPanel, means spMeans) *Table {
	tbl := &Table{Title: d.Title, Header: []string{d.X}}
	for _, q := range ss.qs {
		tbl.Header = append(tbl.Header, unitName(q.Name, string(q.Unit)))
	}
	tbl.Header = append(tbl.Header, "runs")
	for _, pn := range panels {
		tbl.Header = append(tbl.Header, pn.column)
	}
	for _, k := range means.sorted() {
		cells := []string{formatNumber(k.x)}
		cells = append(cells, strings.Split(k.s, "\t")...)
		cells = append(cells, fmt.Sprint(means[k].runs))
		for _, m := range means[k].y {
			if math.IsNaN(m) {
				cells = append(cells, "")
				continue
			}
			cells = append(cells, formatNumber(roundSig(m, 4)))
		}
		for len(cells) < len(tbl.Header) {
			cells = append(cells, "")
		}
		tbl.AddRow(cells...)
	}
	return tbl
}

// spLossComparison sets the loss figures document 004 prints (its text
// under Fig. 1) beside ours: about 2.5 % (GEO) and 4.8 % (MEO) of the TCP
// payload lost at 200 channels, MEO losing "nearly twice as much", and
// MEO losing less than GEO "up to a load of around 110 channels". mean
// returns our mean loss (%) of an orbit at a load; loads are the swept
// loads in increasing order.
func spLossComparison(mean func(orbit string, x float64) (float64, bool), loads []float64) *Table {
	cmp := Comparison{Keys: []string{"quantity"}, Quantities: []string{"value"}, Digits: 3}
	t := &Table{Title: "Payload loss at the satellite input: document 004 and ours", Header: cmp.Header()}
	geo, okG := mean("geo", 200)
	meo, okM := mean("meo", 200)
	if okG && okM {
		t.AddRow(cmp.Row([]string{"GEO loss at 200 channels (%)"}, []string{"~2.5"}, []float64{2.5}, []float64{geo})...)
		t.AddRow(cmp.Row([]string{"MEO loss at 200 channels (%)"}, []string{"~4.8"}, []float64{4.8}, []float64{meo})...)
		if geo > 0 {
			t.AddRow(cmp.Row([]string{"MEO / GEO at 200 channels"}, []string{"~1.9 (nearly twice)"}, []float64{4.8 / 2.5}, []float64{meo / geo})...)
		}
	} else {
		t.Notes = append(t.Notes, "200 channels is not among the swept loads of this profile, so the printed percentages have no match")
	}
	// The load where MEO's loss overtakes GEO's, by linear interpolation of
	// the difference between the two swept loads around the sign change.
	cross, found := 0.0, false
	for i := 1; i < len(loads) && !found; i++ {
		g0, ok0 := mean("geo", loads[i-1])
		m0, ok1 := mean("meo", loads[i-1])
		g1, ok2 := mean("geo", loads[i])
		m1, ok3 := mean("meo", loads[i])
		if !(ok0 && ok1 && ok2 && ok3) {
			continue
		}
		d0, d1 := m0-g0, m1-g1
		if d0 < 0 && d1 >= 0 {
			cross, found = loads[i-1]+(loads[i]-loads[i-1])*(-d0)/(d1-d0), true
		}
	}
	if found {
		t.AddRow(cmp.Row([]string{"load where MEO loss overtakes GEO (channels)"}, []string{"~110"}, []float64{110}, []float64{cross})...)
	} else {
		t.Notes = append(t.Notes, "MEO's loss does not go from below GEO's to above it within the swept loads")
	}
	t.Notes = append(t.Notes,
		"ours: mean over the runs of each load; the document's Rarotonga flow-size distribution is not published, so the flow sizes here are a bounded Pareto stand-in (specs/sp-fig1.yaml), which moves the crossover",
		"difference: (ours - document) / document")
	return t
}

// stackArt draws plots stacked in one column, their axes aligned, with
// the legend in a column to the right of the top plot's data area (as
// besideLegend does for one plot), so that no entry hides a point or the
// link-rate line. Every plot gives up the legend's width, so the axes
// stay aligned.
type stackArt struct {
	rows    [][]*plot.Plot
	legend  plot.Legend
	entries int // in legend
	gap     vg.Length
}

func (a *stackArt) panels() []*plot.Plot {
	var ps []*plot.Plot
	for _, row := range a.rows {
		ps = append(ps, row...)
	}
	return ps
}

// Draw implements Drawer.
func (a *stackArt) Draw(c draw.Canvas) {
	pc := c
	var w vg.Length
	if a.entries > 0 {
		a.legend.Top, a.legend.Left = true, true
		a.legend.Padding = vg.Points(3)
		w = a.legend.Rectangle(c).Size().X + 2*a.gap
		pc = draw.Crop(c, 0, -w, 0, 0)
	}
	t := draw.Tiles{Rows: len(a.rows), Cols: 1, PadTop: vg.Millimeter, PadBottom: vg.Millimeter,
		PadLeft: vg.Millimeter, PadRight: vg.Millimeter, PadY: 2 * vg.Millimeter}
	cs := plot.Align(a.rows, t, pc)
	for i := range a.rows {
		a.rows[i][0].Draw(cs[i][0])
	}
	if w == 0 || len(a.rows) == 0 {
		return
	}
	da := a.rows[0][0].DataCanvas(cs[0][0])
	a.legend.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: c.Max.X - w + a.gap, Y: da.Min.Y},
		Max: vg.Point{X: c.Max.X - a.gap, Y: da.Max.Y},
	}})
}
