package specdoc

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Starter writes a starter spec for model s named name: every parameter
// with its default, unit, range and documentation as comments, one grid
// axis (see gridAxis) and a line plot of a metric against it, and the
// commands that run and draw it. It parses and runs as written.
func Starter(w io.Writer, s *vocab.Schema, name string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# yaml-language-server: $schema=%s\n", SchemaFile)
	fmt.Fprintf(&b, "#\n# A starter spec for model %s (version %d), written by crosslink init.\n", s.Name, s.Version)
	comment(&b, "", s.Doc)
	fmt.Fprintf(&b, "#\n# DIR is the directory this file is in (crosslink init -o DIR).\n")
	fmt.Fprintf(&b, "# Run it:   crosslink run DIR/%s.yaml        (rows in %s/)\n", name, mainTable(name))
	fmt.Fprintf(&b, "# Draw it:  crosslink plot --specs DIR %s-example   (out/figures/%s-example.png)\n", name, name)
	b.WriteString("# Quantities take their unit (16000km, 1Gbps, 53.3ms); plain numbers are dimensionless.\n")
	b.WriteString("# Every parameter is listed under params with its default: change or delete them.\n\n")
	fmt.Fprintf(&b, "name: %s\n", name)
	fmt.Fprintf(&b, "description: A first sweep of %s.\n", s.Name)
	fmt.Fprintf(&b, "model: %s\n", s.Name)
	b.WriteString("seed: 1\n")
	b.WriteString("# runs of each point with different seeds; the figure shows their mean and 95 % confidence band\n")
	b.WriteString("replicates: 1\n")

	axis := gridAxis(s)
	b.WriteString("\nparams:\n")
	for _, p := range s.Params {
		if axis != nil && p.Name == axis.param.Name {
			continue
		}
		paramComment(&b, p)
		fmt.Fprintf(&b, "  %s: %s\n", p.Name, yamlValue(p.Default, p.Unit))
	}
	if axis != nil {
		b.WriteString("\n# Axes to cross: a list of values, or a range {from, to, points|step, scale: log}.\ngrid:\n")
		paramComment(&b, axis.param)
		fmt.Fprintf(&b, "  %s: [%s]\n", axis.param.Name, strings.Join(axis.values, ", "))
	}
	if axis != nil && axis.metric != nil {
		b.WriteString("\nplots:\n")
		fmt.Fprintf(&b, "  - id: %s-example\n", name)
		fmt.Fprintf(&b, "    title: %s vs %s\n", strings.ReplaceAll(axis.metric.Name, "_", " "), strings.ReplaceAll(axis.param.Name, "_", " "))
		fmt.Fprintf(&b, "    x: %s\n", axis.param.Name)
		fmt.Fprintf(&b, "    y: [%s]\n", metricRef(s, *axis.metric))
		b.WriteString("    # series: [PARAM]   one curve per value of a parameter on another axis\n")
	}
	b.WriteString("\n# Metrics (columns of the main table, " + mainTable(name) + "/):\n")
	for _, m := range s.Metrics {
		u := ""
		if m.Unit != vocab.Dimensionless {
			u = " [" + string(m.Unit) + "]"
		}
		comment(&b, "", fmt.Sprintf("  %s%s: %s", m.Column(), u, m.Doc))
	}
	for _, t := range s.Tables {
		comment(&b, "", fmt.Sprintf("Second table %s (%s/): %s", t.Name, filepath.ToSlash(dataset.TableDir(filepath.Join("out", name), t.Name)), t.Doc))
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("specdoc: %w", err)
	}
	return nil
}

// mainTable is where crosslink run writes the rows of spec name with the
// default output root.
func mainTable(name string) string {
	return filepath.ToSlash(dataset.MainDir(filepath.Join("out", name)))
}

type axisChoice struct {
	param  vocab.Param
	values []string
	metric *vocab.Metric
}

// preferredAxes are the parameters a starter sweeps first where a model
// has them: what a link does to TCP shows first as the propagation delay
// (a window-limited flow's goodput is W/RTT; its link rate, the first
// parameter of the TCP models, changes nothing then), the distance, and
// an amplified line's span length (its loss sets the ASE noise; a given
// gOSNR, the first such parameter, is read only in mode gosnr).
var preferredAxes = []string{"delay", "distance", "span_length"}

// preferredMetrics are the metrics a starter plots first where a model
// has them, as the first metric is often a by-product that no axis moves
// (ber-per's wire_size, a function of the MTU only).
var preferredMetrics = []string{"goodput", "ber", "per_exact", "loss"}

// simLength are parameters that set how long a scenario is simulated:
// doubling them doubles its cost and seldom changes a mean, so they are
// never the example axis.
var simLength = map[string]bool{"duration": true, "warmup": true, "sample_interval": true}

// gridAxis picks as the example axis the first parameter of
// preferredAxes the model has, else the first Float parameter with a
// positive default it can double twice within range (not one of
// simLength), else the first String parameter with choices; and the first
// metric of preferredMetrics the model has, else its first numeric one,
// to plot.
func gridAxis(s *vocab.Schema) *axisChoice {
	doubles := func(p vocab.Param) bool {
		if p.Kind != vocab.Float || simLength[p.Name] {
			return false
		}
		d := p.Default.Float()
		return d > 0 && !(p.Bounded() && 4*d > p.Max)
	}
	var a *axisChoice
	candidates := []vocab.Param{}
	for _, name := range preferredAxes {
		if i := s.ParamIndex(name); i >= 0 {
			candidates = append(candidates, s.Params[i])
		}
	}
	for _, p := range append(candidates, s.Params...) {
		if !doubles(p) {
			continue
		}
		d := p.Default.Float()
		a = &axisChoice{param: p}
		for _, x := range []float64{d, 2 * d, 4 * d} {
			a.values = append(a.values, sweep.FormatValue(vocab.F(x), p.Unit))
		}
		break
	}
	if a == nil {
		for _, p := range s.Params {
			if p.Kind == vocab.String && len(p.Choices) > 1 {
				a = &axisChoice{param: p, values: p.Choices}
				break
			}
		}
	}
	if a == nil {
		return nil
	}
	for _, name := range preferredMetrics {
		for i, m := range s.Metrics {
			if m.Name == name && m.Kind == vocab.Float && a.metric == nil {
				a.metric = &s.Metrics[i]
			}
		}
	}
	for i, m := range s.Metrics {
		if a.metric == nil && (m.Kind == vocab.Float || m.Kind == vocab.Int) {
			a.metric = &s.Metrics[i]
		}
	}
	return a
}

func paramComment(b *strings.Builder, p vocab.Param) {
	var facts []string
	if p.Unit != vocab.Dimensionless {
		facts = append(facts, "unit "+string(p.Unit))
	}
	facts = append(facts, "default "+sweep.FormatValue(p.Default, p.Unit))
	switch {
	case len(p.Choices) > 0:
		facts = append(facts, "one of "+strings.Join(p.Choices, ", "))
	case p.Bounded():
		facts = append(facts, "range "+sweep.FormatValue(vocab.F(p.Min), p.Unit)+" .. "+sweep.FormatValue(vocab.F(p.Max), p.Unit))
	}
	comment(b, "  ", fmt.Sprintf("%s (%s, %s): %s", p.Name, p.Kind, strings.Join(facts, ", "), p.Doc))
}

// yamlValue writes a default so the parser reads it back as the same
// value: strings quoted, quantities with their unit.
func yamlValue(v vocab.Value, u vocab.Unit) string {
	if v.Kind() == vocab.String {
		return fmt.Sprintf("%q", v.Str())
	}
	return sweep.FormatValue(v, u)
}

// comment writes text as "# " lines of at most 88 columns.
func comment(b *strings.Builder, indent, text string) {
	width := 88 - len(indent) - 2
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			b.WriteString(indent + "# " + line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		b.WriteString(indent + "# " + line + "\n")
	}
}

// metricRef is how a plot names m: its name, or its column when another
// metric shares the name (received_power in W and in dBm).
func metricRef(s *vocab.Schema, m vocab.Metric) string {
	for _, o := range s.Metrics {
		if o.Name == m.Name && o.Column() != m.Column() {
			return m.Column()
		}
	}
	return m.Name
}
