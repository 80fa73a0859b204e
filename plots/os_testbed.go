package plots

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/crosslink-sim/crosslink/vocab"

	"gonum.org/v1/plot/vg"
)

// osTestbedAblation is the ablation table of os-testbed (docs/os-testbed.md
// explains it): for each set of emulated mechanisms of document 002's
// Mininet testbed and each queue size, the quantities that give the
// document's Figs. 2-9 their shape, computed from the dataset so that the
// numbers follow the model.
func osTestbedAblation() Figure {
	return Figure{
		ID:      "os-testbed-ablation",
		Caption: "Document 002's testbed, mechanism by mechanism: what each emulated Linux mechanism does to the total, the shares, fairness and retransmissions",
		Draw:    drawOSTestbedAblation,
	}
}

// osLossBased are the loss-based controllers of document 002's mix whose
// summed throughput is the "loss-based share"; osBBR the model-based ones.
var (
	osLossBased = []string{"cubic", "bic", "reno", "newreno"}
	osBBR       = []string{"bbr", "bbr2"}
)

// osAblationKey is one row of the table: a set of mechanisms at a queue.
type osAblationKey struct {
	emulate string
	queue   float64
}

// osAblationCell accumulates the runs of one row.
type osAblationCell struct {
	total, lossBased, bbr, jain, retrans []float64 // lossless runs
	jainLoss                             map[float64][]float64
}

// drawOSTestbedAblation tabulates, per emulate value (in the dataset's
// order) and queue size (largest first), the means over the runs of: the
// lossless total throughput, the loss-based and BBR shares of it, Jain's
// index over the flows lossless and at each random loss rate, and the
// retransmitted segments of a lossless run.
func drawOSTestbedAblation(ctx context.Context, in Input) (*Output, error) {
	fr, err := in.Frame(ctx)
	if err != nil {
		return nil, err
	}
	_, em, err := lookupCol(in.Schema, "", "emulate", fr)
	if err != nil {
		return nil, err
	}
	cols := map[string][]float64{}
	for _, name := range []string{"queue_bdp", "loss", "goodput", "jain_flows", "retrans_segs"} {
		if cols[name], err = numericCol(in, fr, name); err != nil {
			return nil, err
		}
	}
	// sum of the per-algorithm throughputs of algs present in a row; NaN
	// (null) where the algorithm is not in the mix.
	sumOf := func(algs []string) ([]float64, error) {
		s := make([]float64, fr.Len())
		for _, a := range algs {
			v, err := numericCol(in, fr, "goodput_"+a)
			if err != nil {
				return nil, err
			}
			for i, x := range v {
				if !math.IsNaN(x) {
					s[i] += x
				}
			}
		}
		return s, nil
	}
	lb, err := sumOf(osLossBased)
	if err != nil {
		return nil, err
	}
	bb, err := sumOf(osBBR)
	if err != nil {
		return nil, err
	}
	host, err := hostSettings(in, fr)
	if err != nil {
		return nil, err
	}
	var order []string
	cells := map[osAblationKey]*osAblationCell{}
	queues, losses := map[float64]bool{}, map[float64]bool{}
	name := emulateNames(em, fr.Len())
	for i := range fr.Len() {
		e := name(em.Value(i).String()) + host(i)
		k := osAblationKey{e, cols["queue_bdp"][i]}
		c := cells[k]
		if c == nil {
			c = &osAblationCell{jainLoss: map[float64][]float64{}}
			cells[k] = c
			if !slices.Contains(order, e) {
				order = append(order, e)
			}
		}
		queues[k.queue] = true
		tot, loss := cols["goodput"][i], cols["loss"][i]
		if math.IsNaN(tot) {
			continue
		}
		if loss > 0 {
			losses[loss] = true
			c.jainLoss[loss] = append(c.jainLoss[loss], cols["jain_flows"][i])
			continue
		}
		c.total = append(c.total, tot)
		c.jain = append(c.jain, cols["jain_flows"][i])
		c.retrans = append(c.retrans, cols["retrans_segs"][i])
		if tot > 0 {
			c.lossBased = append(c.lossBased, lb[i]/tot)
			c.bbr = append(c.bbr, bb[i]/tot)
		}
	}
	// The testbed's mechanism sets first (none, each alone, all, all but
	// one), then the host's rows (one removed, then the bare host's),
	// each group in name order.
	rank := func(e string) int {
		switch {
		case strings.Contains(e, "(bare host"):
			return 6
		case strings.Contains(e, "("):
			return 5
		case e == "none":
			return 0
		case e == "all":
			return 2
		case strings.HasPrefix(e, "all but "):
			return 3
		case !strings.Contains(e, ","):
			return 1
		}
		return 4
	}
	slices.SortStableFunc(order, func(a, b string) int {
		if c := rank(a) - rank(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	qs, ls := slices.Sorted(maps.Keys(queues)), slices.Sorted(maps.Keys(losses))
	slices.Reverse(qs) // largest queue first
	t := &Table{
		Title:   orDefault(in.Def.Title, "Document 002's testbed, mechanism by mechanism"),
		Caption: in.Def.Caption,
		Header:  []string{"emulate", "queue (%)", "runs", "total (Mbit/s)", "loss-based share", "BBR share", "Jain"},
		theme:   in.Theme,
	}
	for _, l := range ls {
		t.Header = append(t.Header, fmt.Sprintf("Jain, loss %s %%", formatNumber(roundSig(100*l, 6))))
	}
	t.Header = append(t.Header, "retransmissions")
	cell := func(xs []float64, scale float64, digits int) string {
		m := meanOf(xs)
		if math.IsNaN(m) {
			return ""
		}
		return formatNumber(roundSig(m*scale, digits))
	}
	for _, e := range order {
		for _, q := range qs {
			c := cells[osAblationKey{e, q}]
			if c == nil {
				continue
			}
			row := []string{e, formatNumber(roundSig(100*q, 6)), fmt.Sprint(len(c.total)),
				cell(c.total, 1e-6, 3), cell(c.lossBased, 1, 2), cell(c.bbr, 1, 2), cell(c.jain, 1, 2)}
			for _, l := range ls {
				row = append(row, cell(c.jainLoss[l], 1, 2))
			}
			row = append(row, cell(c.retrans, 1, 4))
			t.AddRow(row...)
		}
	}
	t.Notes = append(t.Notes,
		"means over the lossless runs of each row (runs) unless a loss is named; shares are of the total; loss-based: CUBIC, BIC and Reno; BBR: BBR and BBRv2",
		"retransmissions: segments retransmitted in one lossless run, all flows",
		"emulate none is the tclink backbone: a TCLink without the testbed's other mechanisms",
		"all: every mechanism of the testbed; all but X: every one but X",
		"a row with host settings (no delayed_ack, ...) is that testbed on a host whose TCP differs from Linux's defaults in them; bare host: the host without Linux's TCP mechanisms that the figures were calibrated on before (no delayed ACKs, PRR, timestamps, HyStart, byte counting, quick ACKs, DSACK, undo, F-RTO, adaptive reordering, per-segment loss reports to BBRv2, rate samples from SACKs, SACK compression or pacing credit, the RTO floor on the whole RTO), with the one named kept on")
	// A row is about 5.6 mm high at the theme's font; title, header and
	// notes take about 4 cm.
	h := 4*vg.Centimeter + vg.Length(len(t.Rows))*6*vg.Millimeter
	return &Output{Art: t, Width: 32 * vg.Centimeter, Height: h, Data: t, Markdown: true}, nil
}

// emulateNames returns a function that names an emulate list for the
// table: "all" for the list of every mechanism the dataset names, "all
// but X" for it less one, the list itself otherwise.
func emulateNames(em *Column, n int) func(string) string {
	all := map[string]bool{}
	for i := range n {
		for _, m := range strings.Split(em.Value(i).String(), ",") {
			if m = strings.TrimSpace(m); m != "" && m != "none" {
				all[m] = true
			}
		}
	}
	return func(e string) string {
		have := map[string]bool{}
		for _, m := range strings.Split(e, ",") {
			have[strings.TrimSpace(m)] = true
		}
		var missing []string
		for _, m := range slices.Sorted(maps.Keys(all)) {
			if !have[m] {
				missing = append(missing, m)
			}
		}
		switch {
		case len(all) < 3:
			return e
		case len(missing) == 0:
			return "all"
		case len(missing) == 1:
			return "all but " + missing[0]
		}
		return e
	}
}

// hostSettings returns, for each row of fr, the host settings of the row
// that are not the model's defaults (Linux's), as " (no delayed_ack,
// loss_detection dupthresh)"; "" for a Linux host. Every Bool and String
// parameter but emulate that varies over the dataset counts, so that a
// row of the ablation that turns a Linux mechanism off is told apart from
// the testbed it is taken from (one the whole spec sets, backbone
// mininet, is not an ablation and names no row).
func hostSettings(in Input, fr *Frame) (func(int) string, error) {
	type setting struct {
		c   *Column
		def vocab.Value
	}
	var ss []setting
	for _, p := range in.Schema.Params {
		if p.Name == "emulate" || p.Kind != vocab.Bool && p.Kind != vocab.String {
			continue
		}
		c, err := fr.Col(p.Column())
		if err != nil {
			continue // not read into the frame: not a setting of this figure
		}
		varies := false
		for i := 1; i < fr.Len() && !varies; i++ {
			varies = c.Value(i) != c.Value(0)
		}
		if varies {
			ss = append(ss, setting{c, p.Default})
		}
	}
	away := func(i int) (diff, kept []string) {
		for _, s := range ss {
			v := s.c.Value(i)
			switch {
			case v == s.def:
				kept = append(kept, s.c.Name)
			case v.Kind() == vocab.Bool && !v.Bool():
				diff = append(diff, "no "+s.c.Name)
			case v.Kind() == vocab.Bool:
				diff = append(diff, s.c.Name)
			default:
				diff = append(diff, s.c.Name+" "+v.String())
			}
		}
		return diff, kept
	}
	// A row with most settings away from Linux's is a bare host's; it is
	// named by what it keeps of Linux's beyond what every bare host keeps.
	bare := func(diff []string) bool { return len(ss) > 4 && 2*len(diff) > len(ss) }
	common := map[string]int{}
	nBare := 0
	for i := range fr.Len() {
		if diff, kept := away(i); bare(diff) {
			nBare++
			for _, k := range kept {
				common[k]++
			}
		}
	}
	return func(i int) string {
		diff, kept := away(i)
		if len(diff) == 0 {
			return ""
		}
		if !bare(diff) {
			return " (" + strings.Join(diff, ", ") + ")"
		}
		var own []string
		for _, k := range kept {
			if common[k] < nBare {
				own = append(own, k)
			}
		}
		if len(own) == 0 {
			return " (bare host)"
		}
		return " (bare host, " + strings.Join(own, ", ") + " on)"
	}, nil
}

// meanOf is the mean of xs without NaNs; NaN when none is left.
func meanOf(xs []float64) float64 {
	s, n := 0.0, 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			s += x
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}
