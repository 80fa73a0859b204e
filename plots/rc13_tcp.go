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

	"github.com/crosslink-sim/crosslink/closedform"
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
		Draw:    drawRC13Fig7,
	}
}

func rc13Fig8() Figure {
	return Figure{
		ID:      "rc13-fig8",
		Caption: "Document 000, Fig. 8: Goodput vs. distance for 1 Gbps, 4 Gbps single link and for 4x1 Gbps WDM",
		Draw:    drawRC13Fig8,
	}
}

// drawRC13Fig8 draws Fig. 8 as a line figure and sets the single-link
// points beside Table 3's goodput and the throughput formulas at its
// printed inputs, with the notes that explain its 50,000 and 80,000 km
// points (rc13ReadingNotes), so the card says why the 80,000 km claim
// fails.
func drawRC13Fig8(ctx context.Context, in Input) (*Output, error) {
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	out, err := Line(in, fr)
	if err != nil {
		return nil, err
	}
	fr, _, err = selectRows(in.Def, in.Schema, fr)
	if err != nil {
		return nil, err
	}
	cols := map[string][]float64{}
	for _, n := range []string{"distance", "rate", "channels", "goodput", "window", "mss"} {
		if cols[n], err = numericCol(in, fr, n); err != nil {
			return nil, err
		}
	}
	if fr.Len() == 0 {
		return out, nil
	}
	ours := rc13Fig8Ours(cols)
	win, mss := cols["window"][0], cols["mss"][0]
	rs := rc13Readings(win, mss, ours)
	out.Comparison = rc13ReadingsTable(rs)
	out.Comparison.Notes = append(out.Comparison.Notes, "ours: the mean goodput of the runs of one flow on a single channel (Fig. 8's 1 and 4 Gbps curves)")
	out.Notes = append(out.Notes, rc13ReadingNotes(rs, mss, win)...)
	return out, nil
}

// rc13Fig8Ours is the mean goodput of the runs of each single-channel
// point of rc13-fig8 that is a Table 3 row (distance and rate).
func rc13Fig8Ours(cols map[string][]float64) []rc13Ours {
	var out []rc13Ours
	for _, r := range rc13Tab3Doc {
		o := rc13Ours{km: r.km, gbps: r.gbps}
		for i := range cols["distance"] {
			if cols["channels"][i] == 1 && math.Abs(cols["distance"][i]-r.km*1e3) < 1 && cols["rate"][i] == r.gbps*1e9 && !math.IsNaN(cols["goodput"][i]) {
				o.goodput += cols["goodput"][i]
				o.runs++
			}
		}
		if o.runs > 0 {
			o.goodput /= float64(o.runs)
			out = append(out, o)
		}
	}
	return out
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

// drawRC13Fig7 draws Fig. 7 as a line figure and sets each point beside
// the closed form the physics gives for it, so that the card shows with
// numbers why goodput does or does not rise with the MSS: without window
// scaling the window-limited bound floor(W/MSS) MSS / RTT (whole segments
// in flight, RFC 9293 section 3.8.6.2.1), with scaling up Mathis et al.
// (1997) Eq. (3), MSS/RTT sqrt(3/2)/sqrt(PER), where the worst-case PER of
// Eq. 8 grows in proportion to the packet, so goodput grows as sqrt(MSS).
func drawRC13Fig7(ctx context.Context, in Input) (*Output, error) {
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	out, err := Line(in, fr)
	if err != nil {
		return nil, err
	}
	cmp, err := rc13Fig7ClosedForms(in, fr)
	if err != nil {
		return nil, err
	}
	out.Comparison = cmp
	return out, nil
}

// rc13HeaderBytes is the TCP/IP header of every tcp-bulk packet (no
// options): a data packet is MSS + 40 bytes on the wire, an ACK 40.
const rc13HeaderBytes = 40

// rc13Fig7ClosedForms is the table of drawRC13Fig7: per (window scaling,
// delay, MSS) the mean goodput of the runs, the closed form and their
// relative difference.
func rc13Fig7ClosedForms(in Input, fr *Frame) (*Table, error) {
	num := map[string]*Column{}
	for _, name := range []string{"delay", "mss", "window", "rate", "ber", "goodput"} {
		_, c, err := lookupCol(in.Schema, "", name, fr)
		if err != nil {
			return nil, err
		}
		if _, ok := c.Numeric(0); fr.Len() > 0 && !ok {
			return nil, fmt.Errorf("plots: figure %s: column %s is not numeric", in.Def.ID, c.Name)
		}
		num[name] = c
	}
	_, ws, err := lookupCol(in.Schema, "", "window_scaling", fr)
	if err != nil {
		return nil, err
	}
	_, pf, err := lookupCol(in.Schema, "", "per_formula", fr)
	if err != nil {
		return nil, err
	}
	type key struct {
		scaling    bool
		delay, mss float64
	}
	type acc struct {
		sum          float64
		n            int
		window, rate float64
		ber          float64
		worst        bool
	}
	accs := map[key]*acc{}
	var keys []key
	for i := range fr.Len() {
		v := func(name string) float64 { x, _ := num[name].Numeric(i); return x }
		k := key{ws.Value(i).String() == "true", v("delay"), v("mss")}
		a := accs[k]
		if a == nil {
			a = &acc{window: v("window"), rate: v("rate"), ber: v("ber"), worst: pf.Value(i).String() == "worst"}
			accs[k] = a
			keys = append(keys, k)
		}
		if g := v("goodput"); !math.IsNaN(g) {
			a.sum += g
			a.n++
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.scaling != b.scaling {
			return !a.scaling
		}
		if a.delay != b.delay {
			return a.delay < b.delay
		}
		return a.mss < b.mss
	})
	t := &Table{
		Title:  "Goodput beside its closed form: the window bound without window scaling, Mathis et al. with scaling up",
		Header: []string{"window scaling", "delay (ms)", "MSS (B)", "runs", "ours (Mbit/s)", "closed form (Mbit/s)", "closed form", "difference"},
	}
	for _, k := range keys {
		a := accs[k]
		if a.n == 0 {
			continue
		}
		rtt := 2*k.delay + (k.mss+rc13HeaderBytes)*8/a.rate + rc13HeaderBytes*8/a.rate
		var cf float64
		var which string
		if !k.scaling {
			cf, which = closedform.WindowRate(closedform.WholeSegments(a.window, k.mss), rtt), "floor(W/MSS) MSS / RTT"
		} else {
			bits := closedform.WireBits(k.mss + rc13HeaderBytes)
			p := -math.Expm1(bits * math.Log1p(-a.ber))
			if a.worst {
				p = a.ber * bits
			}
			cf, which = closedform.Mathis(k.mss, rtt, p), "Mathis et al. Eq. 3"
		}
		ours := a.sum / float64(a.n)
		t.AddRow(fmt.Sprint(k.scaling), formatNumber(roundSig(k.delay*1e3, 4)), formatNumber(k.mss), fmt.Sprint(a.n),
			formatNumber(roundSig(ours/1e6, 4)), formatNumber(roundSig(cf/1e6, 4)), which, relDiff(ours, cf))
	}
	t.Notes = append(t.Notes,
		"ours: mean goodput of the runs after the warm-up",
		"RTT: twice the delay plus the serialisation of a data packet (MSS + 40 bytes) and of an ACK (40 bytes)",
		"without window scaling: the sender keeps the whole segments that fit in the window W in flight, so a larger MSS lowers the bound where it fills less of W",
		"with scaling up: PER of a packet of MSS + 40 bytes, 64B/66B coded, by the spec's per_formula (worst: Eq. 8 of document 000); the closed form leaves out timeouts, which lower ours, and the slow-start overshoot before the warm-up ends, which raises it",
		"difference: (ours - closed form) / closed form")
	return t, nil
}
