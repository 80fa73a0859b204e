package plots

import (
	"context"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"
)

// rc13Tab3Doc is document 000's Table 3 as printed: one-way delay (s),
// distance (km), PER, detection, data rate (Gbps), goodput (Mbps),
// wavelength stripped, aggregated goodput (Mbps).
var rc13Tab3Doc = []struct {
	delay, km              float64
	per, detection         string
	gbps                   float64
	goodput, striped, aggr string
}{
	{0.0533, 16000, "1e-12", "direct", 1, "5.769", "yes", "23.076"},
	{0.0533, 16000, "1e-12", "direct", 4, "5.772", "no", "5.772"},
	{0.0833, 25000, "1e-8", "direct", 1, "3.692", "yes", "14.768"},
	{0.0833, 25000, "1e-8", "direct", 4, "3.693", "no", "3.428"},
	{0.1667, 50000, "1e-4", "coherent", 1, "1.845", "yes", "1.845"},
	{0.1667, 50000, "1e-4", "coherent", 4, "1.846", "no", "7.384"},
	{0.2667, 80000, "1e-3", "coherent", 1, "0.291", "yes", "0.291"},
	{0.2667, 80000, "1e-3", "coherent", 4, "0.294", "no", "1.176"},
}

func rc13Tab3() Figure {
	return Figure{
		ID:      "rc13-tab3",
		Caption: "Document 000, Table 3: Aggregated goodput with and without wavelength striping and with two detection methods",
		Draw:    drawRC13Tab3,
	}
}

// drawRC13Tab3 sets the goodput of each Table 3 row beside the printed
// one: per wavelength and aggregated over the four 1 Gbps wavelengths
// (rows "yes"), or of the single 4 Gbps channel (rows "no").
func drawRC13Tab3(ctx context.Context, in Input) (*Output, error) {
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	fr, notes, err := selectRows(in.Def, in.Schema, fr)
	if err != nil {
		return nil, err
	}
	cols := map[string][]float64{}
	for _, n := range []string{"delay", "rate", "channels", "goodput", "retrans_segs", "per", "window", "mss"} {
		if cols[n], err = numericCol(in, fr, n); err != nil {
			return nil, err
		}
	}
	// ours finds the scenario of a printed row: same delay and rate.
	ours := func(delay, gbps float64) (goodput, channels, retrans float64, ok bool) {
		for i := range cols["delay"] {
			if math.Abs(cols["delay"][i]-delay) < 1e-6 && cols["rate"][i] == gbps*1e9 {
				return cols["goodput"][i], cols["channels"][i], cols["retrans_segs"][i], true
			}
		}
		return 0, 0, 0, false
	}
	t := &Table{
		Title:   orDefault(in.Def.Title, "Aggregated goodput with and without wavelength striping"),
		Caption: in.Def.Caption,
		Header: []string{"delay (s)", "distance (km)", "PER", "detection", "rate (Gbps)", "striped",
			"goodput document (Mbps)", "goodput ours (Mbps)", "goodput difference",
			"aggregated document (Mbps)", "aggregated ours (Mbps)", "aggregated difference", "retransmissions"},
		Notes: notes,
		theme: in.Theme,
	}
	for _, r := range rc13Tab3Doc {
		g, ch, rx, ok := ours(r.delay, r.gbps)
		if !ok {
			t.Notes = append(t.Notes, fmt.Sprintf("no scenario for the %g s, %g Gbps row", r.delay, r.gbps))
			continue
		}
		per := g / ch // goodput of one wavelength
		var doc, docAggr float64
		fmt.Sscan(r.goodput, &doc)
		fmt.Sscan(r.aggr, &docAggr)
		t.AddRow(formatNumber(r.delay), formatNumber(r.km), r.per, r.detection, formatNumber(r.gbps), r.striped,
			r.goodput, fmt.Sprintf("%.3f", per/1e6), relDiff(per/1e6, doc),
			r.aggr, fmt.Sprintf("%.3f", g/1e6), relDiff(g/1e6, docAggr), fmt.Sprint(int64(rx)))
	}
	t.Notes = append(t.Notes, rc13Tab3Notes(cols)...)
	var cmp *Table
	if len(cols["window"]) > 0 {
		cmp = rc13ReadingsTable(rc13Readings(cols["window"][0], cols["mss"][0], rc13Tab3Ours(cols)))
	}
	return &Output{Art: t, Width: 32 * vg.Centimeter, Height: 13 * vg.Centimeter, Data: t, Markdown: true, Notes: notes, Comparison: cmp}, nil
}

// rc13Tab3Ours is the goodput of one flow in each rc13-tab3 scenario (one
// run per printed row): a scenario's goodput over its channels, one flow
// on each.
func rc13Tab3Ours(cols map[string][]float64) []rc13Ours {
	var out []rc13Ours
	for i := range cols["delay"] {
		for _, r := range rc13Tab3Doc {
			if math.Abs(cols["delay"][i]-r.delay) < 1e-6 && cols["rate"][i] == r.gbps*1e9 {
				out = append(out, rc13Ours{km: r.km, gbps: r.gbps, goodput: cols["goodput"][i] / cols["channels"][i], runs: 1})
			}
		}
	}
	return out
}

// rc13Tab3Notes explains the table with numbers computed here, from the
// document's printed rows and our scenarios' parameters and results, so
// that no note goes stale when a model changes.
func rc13Tab3Notes(cols map[string][]float64) []string {
	var notes []string
	// The window behind the document's goodput column: goodput x RTT.
	var ws []string
	var wsum float64
	nw := 0
	for _, r := range rc13Tab3Doc {
		var g float64
		fmt.Sscan(r.goodput, &g)
		if r.gbps != 1 || r.per == "1e-3" {
			continue // one row per delay; the 80,000 km row is loss-limited
		}
		w := g * 1e6 * 2 * r.delay / 8
		wsum += w
		nw++
		ws = append(ws, fmt.Sprintf("%s Mbps x %s s = %s B", r.goodput, formatNumber(2*r.delay), formatNumber(math.Round(w))))
	}
	notes = append(notes, "goodput: the document's column is a window per RTT: "+strings.Join(ws, ", "))
	if len(cols["window"]) > 0 && nw > 0 {
		win, mss := cols["window"][0], cols["mss"][0]
		segs := math.Floor(win / mss)
		notes = append(notes, fmt.Sprintf("ours sends %s whole %s-byte segments of a %s B window, %s the document's mean window (a calibration on these rows)",
			formatNumber(segs), formatNumber(mss), formatNumber(win), relDiff(segs*mss, wsum/float64(nw))))
		notes = append(notes, rc13ReadingNotes(rc13Readings(win, mss, rc13Tab3Ours(cols)), mss, win)...)
	}
	notes = append(notes,
		"PER: the printed PER is applied to every data packet; it does not follow from Eqs. 1-8 (rc13-fig6 and rc13-fig8-physics draw what the Table 1 link budget gives)",
		"aggregated: rows 'yes' are four 1 Gbps wavelengths, one flow each (4 x goodput); rows 'no' one 4 Gbps channel (= goodput)")
	// Which printed aggregated values follow from the goodput column.
	for _, r := range rc13Tab3Doc {
		var g, a float64
		fmt.Sscan(r.goodput, &g)
		fmt.Sscan(r.aggr, &a)
		want := g
		if r.striped == "yes" {
			want = 4 * g
		}
		if math.Abs(a-want) < 0.0015 {
			continue
		}
		where := ""
		switch {
		case r.striped == "no" && math.Abs(a-4*g) < 0.0015:
			where = fmt.Sprintf(" (%s = 4 x %s: the four-fold value sits in the 'no' row, as if the rows were swapped)", r.aggr, r.goodput)
		case r.striped == "yes" && math.Abs(a-g) < 0.0015:
			where = " (it equals the goodput: the single-channel value sits in the 'yes' row, as if the rows were swapped)"
		}
		notes = append(notes, fmt.Sprintf("the document's aggregated %s for %s km '%s' should be %s by its goodput column%s",
			r.aggr, formatNumber(r.km), r.striped, formatNumber(roundSig(want, 4)), where))
	}
	return append(notes, "difference: (ours - document) / document")
}
