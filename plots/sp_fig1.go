package plots

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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
	return Figure{ID: "sp-queue", Caption: "Satellite input queue occupancy (mean, 95th percentile) against load, GEO vs MEO"}
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

// spPanel is one panel of sp-fig1: a metric, its display unit and label.
type spPanel struct {
	name, unit, label string
}

// drawSPFig1 draws one panel per y of the spec entry, stacked, with every
// replicate as a marker and the mean of each (orbit, load) as a line, the
// way document 004's Fig. 1 shows its ten runs per load.
func drawSPFig1(ctx context.Context, in Input) (*Output, error) {
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	d := in.Def
	_, xc, err := lookupCol(in.Schema, d.Table, d.X, fr)
	if err != nil {
		return nil, err
	}
	if len(d.Series) < 1 || len(d.Series) > 2 {
		return nil, fmt.Errorf("plots: figure %s: want the orbit and at most one option as series, got %q", d.ID, d.Series)
	}
	var scs []*Column
	for _, name := range d.Series {
		_, c, err := lookupCol(in.Schema, d.Table, name, fr)
		if err != nil {
			return nil, err
		}
		scs = append(scs, c)
	}
	// label returns row i's series label: "geo" or "geo, pep true".
	label := func(i int) string {
		l := scs[0].Value(i).String()
		if len(scs) > 1 {
			l += ", " + d.Series[1] + " " + scs[1].Value(i).String()
		}
		return l
	}
	// Series in sorted order, so styles do not depend on row order; the
	// colour follows the orbit, the dashes and glyph the option.
	var series []string
	seen := map[string]bool{}
	var orbits, opts []string
	seenO, seenP := map[string]bool{}, map[string]bool{}
	for i := range fr.Len() {
		v := label(i)
		if !seen[v] {
			seen[v] = true
			series = append(series, v)
		}
		if o := scs[0].Value(i).String(); !seenO[o] {
			seenO[o] = true
			orbits = append(orbits, o)
		}
		if len(scs) > 1 {
			if o := scs[1].Value(i).String(); !seenP[o] {
				seenP[o] = true
				opts = append(opts, o)
			}
		}
	}
	sort.Strings(series)
	sort.Strings(orbits)
	sort.Strings(opts)
	styleOf := func(i int) (int, int) {
		oi := sort.SearchStrings(orbits, scs[0].Value(i).String())
		pi := 0
		if len(scs) > 1 {
			pi = sort.SearchStrings(opts, scs[1].Value(i).String())
		}
		return oi, pi
	}
	// GEO blue and MEO red, as in the document.
	colours := []color.Color{color.RGBA{R: 0x1f, G: 0x4e, B: 0xb4, A: 0xff}, color.RGBA{R: 0xc8, G: 0x1e, B: 0x1e, A: 0xff}}
	panels := make([]spPanel, len(d.Y))
	for i, y := range d.Y {
		panels[i] = spPanel{name: y}
		switch y {
		case "goodput":
			panels[i].unit, panels[i].label = "Mbps", "total goodput (Mbit/s)"
		case "probe_goodput":
			panels[i].unit, panels[i].label = "Mbps", "80 MB probe goodput (Mbit/s)"
		case "flows_completed":
			panels[i].label = "flows completed per second"
		case "payload_loss":
			panels[i].label = "payload lost at the satellite input (%)"
		case "residual_loss":
			panels[i].label = "payload lost to TCP after decoding (%)"
		}
	}
	th := in.Theme
	tbl := &Table{Title: d.Title, Header: []string{d.X, "series", "runs"}}
	type key struct {
		s string
		x float64
	}
	means := map[key][]float64{}
	counts := map[key]int{}
	var rows [][]*plot.Plot
	// The top panel's legend, drawn beside the stack by stackArt: a copy
	// of the plot's own, so the plot does not draw it on its data.
	var legend plot.Legend
	entries := 0
	for pi, pn := range panels {
		yq, yc, err := lookupCol(in.Schema, d.Table, pn.name, fr)
		if err != nil {
			return nil, err
		}
		f := 1.0
		if pn.unit != "" {
			if f, err = factor(in.Scale, pn.unit, yq.Unit); err != nil {
				return nil, err
			}
		}
		if pn.label == "" {
			pn.label = pn.name
		}
		tbl.Header = append(tbl.Header, axisColumn("", pn.name, pn.unit, yq.Unit))
		p := th.newPlot()
		if pi == 0 {
			p.Title.Text = d.Title + " (lines: mean, markers: runs)"
			legend = p.Legend
		}
		if pi == len(panels)-1 {
			p.X.Label.Text = orDefault(d.XLabel, "load (channels)")
		}
		p.Y.Label.Text = pn.label
		p.Y.Min = 0
		grid := plotter.NewGrid()
		grid.Vertical.Color = color.Gray{Y: 0xDD}
		grid.Horizontal.Color = color.Gray{Y: 0xDD}
		p.Add(grid)
		for _, s := range series {
			byX := map[float64][]float64{}
			var pts plotter.XYs
			oi, oj := 0, 0
			for i := range fr.Len() {
				if label(i) != s {
					continue
				}
				oi, oj = styleOf(i)
				x, ok1 := xc.Numeric(i)
				y, ok2 := yc.Numeric(i)
				if !ok1 || !ok2 || math.IsNaN(y) {
					continue
				}
				byX[x] = append(byX[x], y/f)
				pts = append(pts, plotter.XY{X: x, Y: y / f})
			}
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
				k := key{s, x}
				means[k] = append(means[k], m)
				counts[k] = len(byX[x])
			}
			col := colours[oi%len(colours)]
			glyphs := []draw.GlyphDrawer{draw.CrossGlyph{}, draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}}
			dashes := [][]vg.Length{nil, {vg.Points(5), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}
			// The legend shows each series' line and marker.
			var thumbs []plot.Thumbnailer
			if len(pts) > 0 {
				scat, err := plotter.NewScatter(pts)
				if err != nil {
					return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
				}
				scat.GlyphStyle = draw.GlyphStyle{Color: col, Radius: th.Glyph, Shape: glyphs[oj%len(glyphs)]}
				p.Add(scat)
				thumbs = append(thumbs, scat)
			}
			if len(line) > 0 {
				l, err := plotter.NewLine(line)
				if err != nil {
					return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
				}
				l.Color, l.Width, l.Dashes = col, th.Line, dashes[oj%len(dashes)]
				p.Add(l)
				if pi == 0 {
					legend.Add(s, append(thumbs, l)...)
					entries++
				}
			}
		}
		if pn.name == "goodput" {
			// The link rate (document 004's brown line) when the rows agree on it.
			if rq, err := Lookup(in.Schema, d.Table, "rate"); err == nil {
				if rc, err := fr.Col(rq.Column); err == nil && fr.Len() > 0 {
					if r, ok := rc.Numeric(0); ok {
						rl := plotter.NewFunction(func(float64) float64 { return r / f })
						rl.Color = color.RGBA{R: 0x8b, G: 0x5a, B: 0x2b, A: 0xff}
						rl.Width = th.Line
						rl.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
						p.Add(rl)
						p.Y.Max = math.Max(p.Y.Max, 1.08*r/f)
						if pi == 0 {
							legend.Add("link rate", rl)
							entries++
						}
					}
				}
			}
		}
		rows = append(rows, []*plot.Plot{p})
	}
	keys := make([]key, 0, len(means))
	for k := range means {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].s != keys[j].s {
			return keys[i].s < keys[j].s
		}
		return keys[i].x < keys[j].x
	})
	for _, k := range keys {
		cells := []string{formatNumber(k.x), k.s, fmt.Sprint(counts[k])}
		for _, m := range means[k] {
			cells = append(cells, formatNumber(roundSig(m, 4)))
		}
		for len(cells) < len(tbl.Header) {
			cells = append(cells, "")
		}
		tbl.AddRow(cells...)
	}
	out := &Output{Art: &stackArt{rows: rows, legend: legend, entries: entries, gap: vg.Points(8)}, Width: 16 * vg.Centimeter, Height: vg.Length(3+7*len(rows)) * vg.Centimeter, Data: tbl}
	for pi, pn := range panels {
		if pn.name == "payload_loss" && len(d.Series) == 1 {
			mean := func(orbit string, x float64) (float64, bool) {
				m, ok := means[key{orbit, x}]
				if !ok || pi >= len(m) {
					return 0, false
				}
				return m[pi], true
			}
			var loads []float64
			for _, k := range keys {
				if k.s == "geo" {
					loads = append(loads, k.x)
				}
			}
			out.Comparison = spLossComparison(mean, loads)
		}
	}
	return out, nil
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
