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

	"github.com/crosslink-sim/crosslink/vocab"
)

// The TCP figures of document 000 (Rodriguez-Colina et al. 2013): Figs. 4,
// 5, 7 and 8 are line figures of their specs; Fig. 4 reads the time-series
// table, so the parameters of each row's scenario are joined in first.

func rc13Fig4() Figure {
	return Figure{
		ID:      "rc13-fig4",
		Caption: "Document 000, Fig. 4: Congestion window vs time (conventional 65 KB threshold vs scaling up)",
	}
}

func rc13Fig5() Figure {
	return Figure{
		ID:      "rc13-fig5",
		Caption: "Document 000, Fig. 5: Time vs. distance for 1 Gbps and 4 Gbps where the transmission time << propagation time",
	}
}

func rc13Fig7() Figure {
	return Figure{
		ID:      "rc13-fig7",
		Caption: "Document 000, Fig. 7: Goodput vs. line delay for 1 Gbps, varying the maximum segment size (MSS) and with and without scaling up of the TCP window (WSO)",
	}
}

func rc13Fig8() Figure {
	return Figure{
		ID:      "rc13-fig8",
		Caption: "Document 000, Fig. 8: Goodput vs. distance for 1 Gbps, 4 Gbps single link and for 4x1 Gbps WDM",
	}
}

func rc13Fig2() Figure {
	return Figure{
		ID:      "rc13-fig2",
		Caption: "Document 000, Fig. 2: Wavelength-striping with semi-synchronous time-slots (packets of several TCP sources spread over 4 wavelengths, one per wavelength per slot)",
		Draw:    drawRC13Fig2,
	}
}

// drawRC13Fig2 draws the striping trace (tcp-bulk's stripes table) as a
// grid: time slots across, wavelengths up, each cell coloured by the
// source flow of its packet and labelled with the packet's number.
func drawRC13Fig2(ctx context.Context, in Input) (*Output, error) {
	fr, err := in.Source.Load(ctx, "stripes")
	if err != nil {
		return nil, err
	}
	col := func(name string) ([]int64, error) {
		c, err := fr.Col(name)
		if err != nil {
			return nil, err
		}
		if c.Kind != vocab.Int {
			return nil, fmt.Errorf("plots: figure rc13-fig2: column %s is %s, want int", name, c.Kind)
		}
		return c.Int, nil
	}
	slot, err := col("slot")
	if err != nil {
		return nil, err
	}
	wl, err := col("wavelength")
	if err != nil {
		return nil, err
	}
	flow, err := col("flow")
	if err != nil {
		return nil, err
	}
	pkt, err := col("packet")
	if err != nil {
		return nil, err
	}
	if len(slot) == 0 {
		return nil, fmt.Errorf("plots: figure rc13-fig2: the stripes table is empty (set trace_packets)")
	}
	th := in.Theme
	p := th.newPlot()
	p.Title.Text = orDefault(in.Def.Title, "Wavelength striping")
	p.X.Label.Text = "time slot"
	p.Y.Label.Text = "wavelength"
	t := &Table{Title: p.Title.Text, Caption: in.Def.Caption, Header: []string{"slot", "wavelength", "flow", "packet"}}
	maxSlot, maxWL, flows := int64(0), int64(0), map[int64]bool{}
	for i := range slot {
		maxSlot, maxWL = max(maxSlot, slot[i]), max(maxWL, wl[i])
		flows[flow[i]] = true
	}
	ids := make([]int64, 0, len(flows))
	for f := range flows {
		ids = append(ids, f)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	cells := make([]plotter.XYs, len(ids))
	index := map[int64]int{}
	for i, f := range ids {
		index[f] = i
	}
	var labels plotter.XYLabels
	for i := range slot {
		k := index[flow[i]]
		cells[k] = append(cells[k], plotter.XY{X: float64(slot[i]), Y: float64(wl[i])})
		labels.XYs = append(labels.XYs, plotter.XY{X: float64(slot[i]), Y: float64(wl[i])})
		labels.Labels = append(labels.Labels, fmt.Sprint(pkt[i]))
		t.AddRow(fmt.Sprint(slot[i]), fmt.Sprint(wl[i]), fmt.Sprint(flow[i]), fmt.Sprint(pkt[i]))
	}
	legend := p.Legend
	for k, xy := range cells {
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, fmt.Errorf("plots: figure rc13-fig2: %w", err)
		}
		c, _, _ := th.style(k)
		sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(7), Shape: draw.BoxGlyph{}}
		p.Add(sc)
		legend.Add(fmt.Sprintf("source %d", ids[k]), sc)
	}
	lb, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, fmt.Errorf("plots: figure rc13-fig2: %w", err)
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i] = th.textStyle(th.FontSize - 3)
		lb.TextStyle[i].Color = color.White
		lb.TextStyle[i].XAlign, lb.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	p.Add(lb)
	p.X.Min, p.X.Max = -0.7, float64(maxSlot)+0.7
	p.Y.Min, p.Y.Max = -0.7, float64(maxWL)+0.7
	p.Y.Tick.Marker = plot.ConstantTicks(intTicks(maxWL, "λ"))
	p.X.Tick.Marker = plot.ConstantTicks(intTicks(maxSlot, ""))
	w := vg.Length(math.Max(16, 1.1*float64(maxSlot+1)+4)) * vg.Centimeter
	return &Output{Art: &besideLegend{plot: p, legend: legend, gap: vg.Points(8)}, Width: w, Height: 7 * vg.Centimeter, Data: t}, nil
}

// intTicks labels 0..n, prefixed.
func intTicks(n int64, prefix string) []plot.Tick {
	step := int64(1)
	if n > 30 {
		step = 5
	}
	var ts []plot.Tick
	for i := int64(0); i <= n; i += step {
		ts = append(ts, plot.Tick{Value: float64(i), Label: fmt.Sprintf("%s%d", prefix, i)})
	}
	return ts
}
