package plots

import (
	"context"
	"fmt"
	"image/color"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TestThemeStylesDistinct wants every one of the first len(Colors) x
// len(Glyphs) curves to have its own colour and marker pair: a legend of
// up to 64 entries never shows two alike (rc13-fig7's ten curves and
// os-testbed-total's nine had their ninth like their first).
func TestThemeStylesDistinct(t *testing.T) {
	th := DefaultTheme()
	n := len(th.Colors) * len(th.Glyphs)
	var es []entryStyle
	for i := 0; i < n; i++ {
		c, g, _ := th.style(i)
		es = append(es, entryStyle{label: fmt.Sprint("curve ", i), kind: "line", color: c, glyph: g})
	}
	if p := styleProblems(es); len(p) > 0 {
		t.Errorf("theme styles of %d curves: %q", n, p)
	}
	// The first len(Colors) curves keep the styles they always had, so
	// figures of up to eight curves are drawn as before.
	for i := 0; i < len(th.Colors); i++ {
		if _, g, _ := th.style(i); g != th.Glyphs[i] {
			t.Errorf("style(%d) marker %T, want %T", i, g, th.Glyphs[i])
		}
	}
}

// TestStyleProblems checks the legend check itself: two lines of one
// colour and marker are found; a bar and a line of one colour, or two
// lines differing in marker, are not.
func TestStyleProblems(t *testing.T) {
	th := DefaultTheme()
	blue, circle := th.Colors[0], th.Glyphs[0]
	tests := []struct {
		name string
		es   []entryStyle
		want int
	}{
		{"same colour and marker", []entryStyle{{"a", "line", blue, circle}, {"b", "line", blue, circle}}, 1},
		{"other marker", []entryStyle{{"a", "line", blue, circle}, {"b", "line", blue, th.Glyphs[1]}}, 0},
		{"bar and line", []entryStyle{{"a", "bar", blue, nil}, {"b", "line", blue, circle}}, 0},
		{"two bars", []entryStyle{{"a", "bar", blue, nil}, {"b", "bar", blue, nil}}, 1},
	}
	for _, tt := range tests {
		if got := styleProblems(tt.es); len(got) != tt.want {
			t.Errorf("%s: styleProblems = %q, want %d problems", tt.name, got, tt.want)
		}
	}
}

// curvesRows is a main-table frame of n curves ("detection" d0, d1, ...
// are not choices of the schema, so distance stands in as x) with y(c, k)
// at x = 1..points.
func curvesDef(id string) Def {
	return Def{ID: id, Title: "t", X: "distance", Y: []string{"one_way_delay"}, Series: []string{"bit_rate"}}
}

func curvesFrame(t *testing.T, curves, points int, y func(c, k int) float64) *Frame {
	t.Helper()
	var rows []row
	for c := 0; c < curves; c++ {
		for k := 1; k <= points; k++ {
			rows = append(rows, row{distance: float64(k), bitRate: float64(c+1) * 1e9, detection: "direct", mtu: 1500, delay: y(c, k)})
		}
	}
	return testFrame(t, rows)
}

// TestLineProblems draws line figures with each defect the drawing check
// knows and wants it found on the figure drawn without the fix (plain
// theme styles: linePlain), and not on the figure Line draws.
func TestLineProblems(t *testing.T) {
	tests := []struct {
		name  string
		frame *Frame
		want  string // in a problem of the plain drawing
	}{
		{"a curve under another", curvesFrame(t, 2, 5, func(c, k int) float64 { return float64(k) * (1 + 1e-4*float64(c)) }), "lies entirely under"},
		{"a marker on every point of a dense curve", curvesFrame(t, 2, DenseCurve+1, func(c, k int) float64 { return float64(k + 1000*c) }), "a marker on each of its"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := curvesDef("f")
			ld, err := buildCurves(def, testSchema(), tt.frame, units.Scale)
			if err != nil {
				t.Fatal(err)
			}
			th := DefaultTheme()
			plain := make([]curveStyle, len(ld.Curves))
			for i := range plain {
				c, g, d := th.style(i)
				plain[i] = curveStyle{Color: c, Glyph: g, Dashes: d, Width: th.Line, Radius: th.Glyph, Every: 1}
			}
			if p := lineProblems(def, ld, plain, nil); !strings.Contains(strings.Join(p, "\n"), tt.want) {
				t.Errorf("lineProblems of the plain drawing = %q, want one saying %q", p, tt.want)
			}
			out := drawTest(t, def, nil, tt.frame)
			if p := append(out.Problems, drawingProblems(out.Art, th.Width, th.Height)...); len(p) > 0 {
				t.Errorf("Line: problems %q, want none", p)
			}
		})
	}
}

// TestZerosInside finds a curve that drops to exactly 0 between values
// far from 0 (leo-rtt's "no path" drawn as a 0 ms RTT), and not a curve
// that starts at 0 or comes near 0 of itself.
func TestZerosInside(t *testing.T) {
	curve := func(ys ...float64) Curve {
		var c Curve
		for k, y := range ys {
			c.Points = append(c.Points, Point{X: float64(k), Summary: Summary{Mean: y, N: 1}})
		}
		return c
	}
	tests := []struct {
		c    Curve
		want int
	}{
		{curve(110, 112, 0, 0, 115, 111), 2},
		{curve(0, 5, 10, 20), 0},         // starts at 0: a rising curve
		{curve(110, 1, 0, 2, 115), 0},    // comes near 0 itself
		{curve(1, 0, 2, 0, 1, 1), 0},     // a frame rate of 0, 1 or 2 per second
		{curve(1, 0, 0, 1, 1, 0, 1), 0},  // a count of 0 or 1 frames a second
		{curve(3, 0, 3, 3), 1},           // a level of 3 with a gap
		{curve(110, 112, 115, 111), 0},   // no zero
		{curve(-10, -12, 0, -11, -9), 1}, // negative values alike
	}
	for _, tt := range tests {
		if got := zerosInside(tt.c); got != tt.want {
			t.Errorf("zerosInside(%v) = %d, want %d", tt.c.Points, got, tt.want)
		}
	}
}

// TestLegendPlacement wants the legend of a figure whose entries are too
// long to sit beside the plot (zh-rt-384-10k-variants: the data area
// squeezed to a third of the figure, the legend running over it) moved
// below the plot, and the check to find the layout beside.
func TestLegendPlacement(t *testing.T) {
	def := curvesDef("f")
	def.Labels = map[string]string{}
	f := curvesFrame(t, 6, 4, func(c, k int) float64 { return float64(k + 10*c) })
	in := Input{Def: def, Schema: testSchema(), Theme: DefaultTheme(), Scale: units.Scale}
	ld, err := buildCurves(def, in.Schema, f, in.Scale)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ld.Curves {
		ld.Curves[i].Label = strings.Repeat("a long legend entry ", 3) + fmt.Sprint(i)
	}
	art, err := lineArt(def, ld, in.Theme)
	if err != nil {
		t.Fatal(err)
	}
	th := in.Theme
	if p := drawingProblems(art, th.Width, th.Height); len(p) > 0 {
		t.Errorf("drawingProblems = %q, want none (legend below the plot)", p)
	}
	b := art.(*besideLegend)
	l, da := b.placed(th.Width, th.Height)
	if !l.below {
		t.Fatalf("legend of %.0f pt entries placed beside the plot, want below", float64(b.legend.Rectangle(l.legend).Size().X))
	}
	// The same legend forced beside: the check finds the squeezed data area.
	l.below = false
	w := b.legend.Rectangle(l.legend).Size().X + 2*b.gap
	l.plot = da
	l.plot.Max.X = th.Width - w
	l.legend.Rectangle = vg.Rectangle{Min: vg.Point{X: th.Width - w + b.gap, Y: da.Min.Y}, Max: vg.Point{X: th.Width - b.gap, Y: da.Max.Y}}
	squeezed := b.plot.DataCanvas(l.plot)
	if p := placementProblems(l, squeezed, th.Width, b.legend); len(p) == 0 {
		t.Errorf("placementProblems of the legend beside = none, want the squeezed data area")
	}

	// A legend inside the data area is found too.
	p := plot.New()
	line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(line)
	p.Legend.Add("inside", line)
	if got := drawingProblems(p, th.Width, th.Height); !strings.Contains(strings.Join(got, "\n"), "inside the data area") {
		t.Errorf("drawingProblems of a plot with its own legend = %q, want the legend over the data", got)
	}
}

// TestLEOPathGap draws a path RTT series with samples without a path
// (RTT 0, as the leo-path model writes it) and wants them drawn as a gap
// and kept in the data as written (the claims count them as Hypatia does);
// drawn as the generic line, the check finds the zeros.
func TestLEOPathGap(t *testing.T) {
	s, f := leoPathFrame(t, []float64{0.11, 0.112, 0, 0, 0.115, 0.111})
	def := leoRTTDef()
	in := Input{Def: def, Schema: s, Source: memSource("leo-rtt", s, []Def{def}, f), Theme: DefaultTheme(), Scale: units.Scale}
	plain, err := Line(in, f)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(plain.Problems, "\n"), "missing value drawn as zero") {
		t.Errorf("generic line of a path RTT with no-path samples: problems %q, want the zeros found", plain.Problems)
	}
	out, err := drawLEOPath(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Problems) > 0 {
		t.Errorf("drawLEOPath: problems %q, want none", out.Problems)
	}
	var b strings.Builder
	if err := out.Data.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), ",0,0,0,1,none,"+gapNote); n != 2 {
		t.Errorf("data: %d rows keep the no-path RTT 0 with the gap note, want 2:\n%s", n, b.String())
	}
}

// TestOSAlgorithmColours draws a throughput figure (bars in the order
// BBR, CUBIC, ...) and a retransmission figure (bars and lines in the
// order BBR, BBRv2, ...) of document 002 and wants each algorithm in
// one colour in both.
func TestOSAlgorithmColours(t *testing.T) {
	series := func(names ...string) []*twinSeries {
		var ss []*twinSeries
		for _, n := range names {
			ss = append(ss, &twinSeries{q: Quantity{Name: n}, label: algoOf(n), pts: []Summary{{Mean: 1, N: 1}}})
		}
		return ss
	}
	th := DefaultTheme()
	colours := map[string]color.Color{}
	check := func(fig string, es []entryStyle) {
		for _, e := range es {
			a := strings.TrimSuffix(e.label, " (right)")
			if prev, ok := colours[a]; ok && colorKey(prev) != colorKey(e.color) {
				t.Errorf("%s: %s is drawn in %v, elsewhere in %v", fig, a, e.color, prev)
			}
			colours[a] = e.color
		}
	}
	fig2 := &twinData{xs: []float64{100}, bars: series("goodput_bbr", "goodput_cubic", "goodput_bic", "goodput_reno", "goodput_bbr2")}
	_, es := twinBars(plot.New(), th, Def{}, fig2)
	check("throughput figure", es)
	fig3 := &twinData{xs: []float64{100}, bars: series("retrans_rate_bbr", "retrans_rate_bbr2", "retrans_rate_cubic", "retrans_rate_bic", "retrans_rate_reno"),
		lines: series("goodput_bbr", "goodput_bbr2", "goodput_cubic", "goodput_bic", "goodput_reno")}
	p := plot.New()
	_, es = twinBars(p, th, Def{}, fig3)
	check("retransmission figure, bars", es)
	legend := plot.NewLegend()
	es, err := twinLines(p, &legend, th, fig3, 0, 1, func(v float64) float64 { return v })
	if err != nil {
		t.Fatal(err)
	}
	check("retransmission figure, lines", es)
	if len(colours) != 5 {
		t.Errorf("%d algorithms coloured, want 5", len(colours))
	}
}

// TestLogAxisCoversData draws zh-fig-rt-384-1m's case: response times
// of 22.5 to 420 s on a log axis, which the 1-2-5 labels mark at 50, 100
// and 200 only, leaving the lowest data a factor 2.2 below the first
// label. The check finds it on the axis as the data set it, and the line
// figure widens the axis to 20 so that a label is there.
func TestLogAxisCoversData(t *testing.T) {
	a := plot.New().Y
	a.Scale, a.Tick.Marker = plot.LogScale{}, decades{}
	a.Min, a.Max = 22.5, 420
	var vs []float64
	for _, tk := range a.Tick.Marker.Ticks(a.Min, a.Max) {
		if tk.Label != "" {
			vs = append(vs, tk.Value)
		}
	}
	if unlabelledEnd(&a, vs) == "" {
		t.Errorf("labels %v of a log axis from 22.5 to 420: no unlabelled end found, want 22.5 to 50", vs)
	}
	roundLogRange(&a)
	if a.Min != 20 || a.Max != 420 {
		t.Errorf("roundLogRange: axis %g to %g, want 20 to 420", a.Min, a.Max)
	}
	// A decade axis labelled every third decade is read by its labels.
	b := plot.New().Y
	b.Scale, b.Tick.Marker = plot.LogScale{}, decades{}
	b.Min, b.Max = 1e-19, 1
	roundLogRange(&b)
	if b.Min != 1e-19 || b.Max != 1 {
		t.Errorf("roundLogRange of a BER axis: %g to %g, want it unchanged", b.Min, b.Max)
	}
}

// leoPathFrame is a leo-path-like main table of one city pair's path RTT
// samples, one a second.
func leoPathFrame(t *testing.T, rtts []float64) (*vocab.Schema, *Frame) {
	t.Helper()
	s := &vocab.Schema{Name: "leo-path", Version: 1,
		Params:  []vocab.Param{{Name: "src", Kind: vocab.String, Default: vocab.S("a")}},
		Metrics: []vocab.Metric{{Name: "time", Kind: vocab.Float, Unit: vocab.Second}, {Name: "rtt", Kind: vocab.Float, Unit: vocab.Second}}}
	id, src := &Column{Name: "scenario_id", Kind: vocab.String}, &Column{Name: "src", Kind: vocab.String}
	tm, rtt := &Column{Name: "time_s", Kind: vocab.Float}, &Column{Name: "rtt_s", Kind: vocab.Float}
	st := &Column{Name: "status", Kind: vocab.String}
	for k, r := range rtts {
		id.Str, src.Str, st.Str = append(id.Str, "s"), append(src.Str, "a"), append(st.Str, "ok")
		tm.Float, rtt.Float = append(tm.Float, float64(k)), append(rtt.Float, r)
	}
	f, err := NewFrame(id, src, tm, rtt, st)
	if err != nil {
		t.Fatal(err)
	}
	return s, f
}

// leoRTTDef is leo-rtt's plots entry on leoPathFrame's main table.
func leoRTTDef() Def {
	return Def{ID: "leo-rtt", Title: "t", X: "time", Y: []string{"rtt"}, YUnit: "ms", Series: []string{"src"}}
}
