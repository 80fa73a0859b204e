package plots

import (
	"context"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// osLossPoints are document 002's operating points (abstract): gOSNR of
// 19.45, 19.15 and 18.95 dB cause "approximately 0.2, 0.5 and 0.8 %"
// packet loss.
var osLossPoints = []struct {
	gosnr         float64
	loss          float64 // percent
	gosnrS, lossS string  // as printed
}{
	{19.45, 0.2, "19.45", "0.2"},
	{19.15, 0.5, "19.15", "0.5"},
	{18.95, 0.8, "18.95", "0.8"},
}

func osLossGOSNR() Figure {
	return Figure{
		ID:      "os-loss-gosnr",
		Caption: "Document 002, abstract: gOSNR of 19.45, 19.15 and 18.95 dB causing approximately 0.2, 0.5 and 0.8 % packet loss (curve: the calibrated receiver; points: the document)",
		Draw:    drawOSLoss,
	}
}

// drawOSLoss draws the packet loss of the optical-osnr model against
// gOSNR (the spec's x and y, one curve) on a log axis, with the document's
// three points marked, and tabulates ours beside the document's.
func drawOSLoss(ctx context.Context, in Input) (*Output, error) {
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	d := in.Def
	ld, err := buildCurves(d, in.Schema, fr, in.Scale)
	if err != nil {
		return nil, err
	}
	if len(ld.Curves) != 1 {
		return nil, fmt.Errorf("plots: figure %s: want one curve, got %d", d.ID, len(ld.Curves))
	}
	th := in.Theme
	p := th.newPlot()
	p.Title.Text = d.Title
	p.X.Label.Text = ld.XLabel
	p.Y.Label.Text = ld.YLabel
	if d.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = decades{}
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 0xDD}
	grid.Horizontal.Color = color.Gray{Y: 0xDD}
	p.Add(grid)
	var xys plotter.XYs
	var missing []float64
	curve := ld.Curves[0]
	for _, pt := range curve.Points {
		if pt.gap() {
			missing = append(missing, pt.X)
		}
		if pt.drawn() && pt.Mean > 0 {
			xys = append(xys, plotter.XY{X: pt.X, Y: pt.Mean})
		}
	}
	segs := splitAt(xys, missing)
	if len(segs) == 0 {
		segs = []plotter.XYs{nil} // an empty line, still the legend's sample
	}
	col, _, _ := th.style(0)
	line, err := addSegments(p, segs, draw.LineStyle{Color: col, Width: th.Line})
	if err != nil {
		return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
	}
	legend := p.Legend // drawn beside the data area, not on it
	legend.Add(orDefault(d.Labels[curve.Y], "model (DP-QPSK, 32 GBd, penalty fitted to document 002)"), line)

	yq, err := Lookup(in.Schema, d.Table, d.Y[0])
	if err != nil {
		return nil, err
	}
	// The document's losses are in percent; bring them to the axis unit.
	f, err := factor(in.Scale, d.YUnit, yq.Unit)
	if err != nil {
		return nil, err
	}
	var doc plotter.XYs
	for _, pt := range osLossPoints {
		doc = append(doc, plotter.XY{X: pt.gosnr, Y: pt.loss / 100 / f})
	}
	sc, err := plotter.NewScatter(doc)
	if err != nil {
		return nil, fmt.Errorf("plots: figure %s: %w", d.ID, err)
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: th.Colors[1%len(th.Colors)], Radius: 2 * th.Glyph, Shape: draw.CrossGlyph{}}
	p.Add(sc)
	legend.Add("document 002 (abstract)", sc)
	if len(d.XLim) == 2 {
		p.X.Min, p.X.Max = d.XLim[0], d.XLim[1]
	}
	if len(d.YLim) == 2 {
		p.Y.Min, p.Y.Max = d.YLim[0], d.YLim[1]
	}

	// Ours at the document's gOSNR, interpolated linearly in log loss
	// between the nearest computed points.
	cmp := Comparison{Keys: []string{"gOSNR (dB)"}, Quantities: []string{"packet loss (%)"}, Digits: 3}
	t := &Table{Title: "Packet loss at document 002's gOSNR points: the residual of a calibration", Header: cmp.Header()}
	for _, pt := range osLossPoints {
		ours, ok := interpLogY(xys, pt.gosnr)
		if !ok {
			t.Notes = append(t.Notes, fmt.Sprintf("gOSNR %s dB is outside the swept range", pt.gosnrS))
			continue
		}
		t.AddRow(cmp.Row([]string{pt.gosnrS}, []string{pt.lossS}, []float64{pt.loss}, []float64{ours * f * 100})...)
	}
	t.Notes = append(t.Notes, "ours: interpolated in log loss between the swept gOSNR values",
		"calibration, not validation: the model's implementation penalty is fitted to these three points, so the difference column is the residual of that fit")
	out, err := Line(in, fr)
	if err != nil {
		return nil, err
	}
	art := &besideLegend{plot: p, legend: legend, gap: vg.Points(8)}
	return &Output{Art: art, Width: 14 * vg.Centimeter, Height: 10 * vg.Centimeter, Data: out.Data, Notes: ld.Notes, Comparison: t}, nil
}

// interpLogY returns y at x on the polyline xys (sorted by x, y > 0),
// interpolating log y linearly in x.
func interpLogY(xys plotter.XYs, x float64) (float64, bool) {
	for i := 1; i < len(xys); i++ {
		a, b := xys[i-1], xys[i]
		if (x-a.X)*(x-b.X) <= 0 && a.X != b.X {
			f := (x - a.X) / (b.X - a.X)
			return math.Exp(math.Log(a.Y) + f*(math.Log(b.Y)-math.Log(a.Y))), true
		}
	}
	return 0, false
}
