package plots

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/plot/vg"
)

// The MBone figures of document 001 (Zhang, De Lucia, Ryu, Dao, Hughes
// Research Laboratories: Internet over GEO satellites): vic's four
// quality charts, terrestrial MBone against MBone over ACTS, drawn over
// time from the multicast-video model's timeseries table.

func zhMBone(id, what string) Figure {
	return Figure{
		ID: id,
		Caption: "Document 001, MBone table: " + what +
			" over time at the receiver, 128 kbit/s and 8 frames/s, terrestrial multi-hop path vs GEO satellite hop",
	}
}

func zhMBoneLoss() Figure { return zhMBone("zh-fig-mbone-loss", "transient packet loss rate") }
func zhMBoneJitter() Figure {
	return zhMBone("zh-fig-mbone-jitter", "packet delay variation (RFC 3550 jitter)")
}
func zhMBoneBW() Figure  { return zhMBone("zh-fig-mbone-bw", "received bandwidth") }
func zhMBoneFPS() Figure { return zhMBone("zh-fig-mbone-fps", "frame rate") }

// zhMBoneTab is what document 001 prints about its MBone charts (the
// charts themselves carry no numbers in the text): "the packet loss rate
// is well above 70", "jitter occasionally hits 200 milliseconds or more",
// "the video bandwidth received over terrestrial MBone is only one-fourth
// of that received over ACTS", "the frame rate over terrestrial MBone is
// only one-sixth", "no packet loss over ACTS" and "jitter was kept under
// 100 milliseconds", beside ours. Ours is computed from the timeseries
// table as the four charts' claims are: each interval's value averaged
// over the replicates (the point a chart draws), then the mean over the
// intervals, or their largest for the jitter and the satellite's loss.
func zhMBoneTab() Figure {
	return Figure{
		ID:      "zh-tab-mbone",
		Caption: "Document 001, MBone table: the numbers its text gives for the four charts, beside the multicast-video model",
		Draw:    drawZhMBoneTab,
	}
}

func drawZhMBoneTab(ctx context.Context, in Input) (*Output, error) {
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	fr, notes, err := selectRows(in.Def, in.Schema, fr)
	if err != nil {
		return nil, err
	}
	col := func(name string) (*Column, error) {
		_, c, err := lookupCol(in.Schema, in.Def.Table, name, fr)
		return c, err
	}
	path, err := col("path")
	if err != nil {
		return nil, err
	}
	tc, err := col("time")
	if err != nil {
		return nil, err
	}
	type point struct {
		path string
		t    float64
	}
	// per metric and path: each interval's values over the replicates,
	// intervals in the order they first appear.
	vals := map[string]map[point][]float64{}
	order := map[string][]point{}
	metrics := []string{"loss_rate", "jitter", "bandwidth", "frame_rate", "vic_frame_rate"}
	for _, m := range metrics {
		c, err := col(m)
		if err != nil {
			return nil, err
		}
		vals[m] = map[point][]float64{}
		for i := 0; i < fr.Len(); i++ {
			t, _ := tc.Numeric(i)
			v, ok := c.Numeric(i)
			if !ok || math.IsNaN(v) {
				continue
			}
			k := point{path.Str[i], t}
			if _, seen := vals[m][k]; !seen && m == metrics[0] {
				order[k.path] = append(order[k.path], k)
			}
			vals[m][k] = append(vals[m][k], v)
		}
	}
	// agg is the mean (or the largest) over p's intervals of each
	// interval's mean over the replicates.
	agg := func(m, p string, largest bool) float64 {
		out, n := 0.0, 0
		for _, k := range order[p] {
			v := vals[m][k]
			if len(v) == 0 {
				continue
			}
			x := Summarize(v, Confidence).Mean
			if largest {
				out = math.Max(out, x)
			} else {
				out += x
			}
			n++
		}
		if n == 0 {
			return math.NaN()
		}
		if !largest {
			out /= float64(n)
		}
		return out
	}
	t := &Table{
		Title:   orDefault(in.Def.Title, "MBone video: document 001's statements and ours"),
		Caption: in.Def.Caption,
		Header:  []string{"quantity", "document", "ours", "agrees"},
		theme:   in.Theme,
	}
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "no"
	}
	tl, sl := agg("loss_rate", "terrestrial", false), agg("loss_rate", "satellite", true)
	tj, sj := agg("jitter", "terrestrial", true), agg("jitter", "satellite", true)
	ratio := func(m string) float64 { return agg(m, "terrestrial", false) / agg(m, "satellite", false) }
	bw, vic, shown := ratio("bandwidth"), ratio("vic_frame_rate"), ratio("frame_rate")
	t.AddRow("terrestrial packet loss (%)", "well above 70", fmt.Sprintf("%.1f", 100*tl), yes(tl > 0.7))
	t.AddRow("terrestrial max jitter (ms)", "occasionally >= 200", fmt.Sprintf("%.1f", 1000*tj), yes(tj >= 0.2))
	t.AddRow("bandwidth terrestrial / satellite", "1/4 = 0.25", fmt.Sprintf("%.3f", bw), relDiff(bw, 0.25))
	t.AddRow("frame rate terrestrial / satellite (vic's count)", "1/6 = 0.167", fmt.Sprintf("%.3f", vic), relDiff(vic, 1.0/6))
	t.AddRow("frames shown terrestrial / satellite", "1/6 = 0.167", fmt.Sprintf("%.3f", shown), relDiff(shown, 1.0/6))
	t.AddRow("satellite packet loss (%)", "0", fmt.Sprintf("%.1f", 100*sl), yes(sl == 0))
	t.AddRow("satellite max jitter (ms)", "under 100", fmt.Sprintf("%.1f", 1000*sj), yes(sj < 0.1))
	t.Notes = append(notes,
		"document: the text under document 001's MBone table (the charts print no numbers)",
		"ours: from the timeseries table, as the charts' claims: each interval averaged over the replicates, then the mean over the intervals (the largest for jitter and satellite loss); ratios of those means; agrees: the statement holds, or (ours - document)/document",
		"vic's count: frames whose last (RTP marker) packet arrived, as vic counts them; frames shown: every packet arrived, and for a predicted frame the frame before was shown",
		"the document measured the real MBone; our path is a model of it (see the spec for hops and cross traffic)")
	return &Output{Art: t, Width: 18 * vg.Centimeter, Height: 9 * vg.Centimeter, Data: t, Markdown: true, Notes: notes}, nil
}
