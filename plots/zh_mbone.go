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

// zhMBoneDoc is what document 001 prints about its MBone charts (the
// charts themselves carry no numbers in the text): "the packet loss rate
// is well above 70", "jitter occasionally hits 200 milliseconds or more",
// "the video bandwidth received over terrestrial MBone is only one-fourth
// of that received over ACTS", "the frame rate over terrestrial MBone is
// only one-sixth", "no packet loss over ACTS" and "jitter was kept under
// 100 milliseconds".
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
		_, c, err := lookupCol(in.Schema, "", name, fr)
		return c, err
	}
	path, err := col("path")
	if err != nil {
		return nil, err
	}
	mean := map[string]map[string][]float64{}
	for _, m := range []string{"loss", "jitter_max", "bandwidth_mean", "frame_rate_mean"} {
		c, err := col(m)
		if err != nil {
			return nil, err
		}
		mean[m] = map[string][]float64{}
		for i := 0; i < fr.Len(); i++ {
			v, _ := c.Numeric(i)
			mean[m][path.Str[i]] = append(mean[m][path.Str[i]], v)
		}
	}
	avg := func(m, p string) float64 {
		v := mean[m][p]
		if len(v) == 0 {
			return math.NaN()
		}
		return Summarize(v, Confidence).Mean
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
	tl, sl := avg("loss", "terrestrial"), avg("loss", "satellite")
	tj, sj := avg("jitter_max", "terrestrial"), avg("jitter_max", "satellite")
	bw := avg("bandwidth_mean", "terrestrial") / avg("bandwidth_mean", "satellite")
	fps := avg("frame_rate_mean", "terrestrial") / avg("frame_rate_mean", "satellite")
	t.AddRow("terrestrial packet loss (%)", "well above 70", fmt.Sprintf("%.1f", 100*tl), yes(tl > 0.7))
	t.AddRow("terrestrial max jitter (ms)", "occasionally >= 200", fmt.Sprintf("%.0f", 1000*tj), yes(tj >= 0.2))
	t.AddRow("bandwidth terrestrial / satellite", "1/4 = 0.25", fmt.Sprintf("%.2f", bw), relDiff(bw, 0.25))
	t.AddRow("frame rate terrestrial / satellite", "1/6 = 0.17", fmt.Sprintf("%.2f", fps), relDiff(fps, 1.0/6))
	t.AddRow("satellite packet loss (%)", "0", fmt.Sprintf("%.1f", 100*sl), yes(sl == 0))
	t.AddRow("satellite max jitter (ms)", "under 100", fmt.Sprintf("%.1f", 1000*sj), yes(sj < 0.1))
	t.Notes = append(notes,
		"document: the text under document 001's MBone table (the charts print no numbers)",
		"ours: mean over the spec's replicates; ratios of the means; agrees: the statement holds, or (ours - document)/document",
		"the document measured the real MBone; our path is a model of it (see the spec for hops and cross traffic)")
	return &Output{Art: t, Width: 18 * vg.Centimeter, Height: 8 * vg.Centimeter, Data: t, Markdown: true, Notes: notes}, nil
}
