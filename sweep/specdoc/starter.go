package specdoc

import (
	"fmt"
	"io"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Starter writes a starter spec for model s named name: every parameter
// with its default, unit, range and documentation as comments, one grid
// axis over the first numeric parameter it can vary, and a line plot of
// the first numeric metric against it. It parses and runs as written.
func Starter(w io.Writer, s *vocab.Schema, name string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# yaml-language-server: $schema=%s\n", SchemaFile)
	fmt.Fprintf(&b, "#\n# A starter spec for model %s (version %d), written by crosslink init.\n", s.Name, s.Version)
	comment(&b, "", s.Doc)
	fmt.Fprintf(&b, "#\n# Run it:   crosslink run %s.yaml          (rows in out/%s/)\n", name, name)
	fmt.Fprintf(&b, "# Draw it:  crosslink plot --specs DIR %s-example\n", name)
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
	b.WriteString("\n# Metrics (columns of out/" + name + "/part-*.parquet):\n")
	for _, m := range s.Metrics {
		u := ""
		if m.Unit != vocab.Dimensionless {
			u = " [" + string(m.Unit) + "]"
		}
		comment(&b, "", fmt.Sprintf("  %s%s: %s", m.Column(), u, m.Doc))
	}
	for _, t := range s.Tables {
		comment(&b, "", fmt.Sprintf("Second table %s (out/%s/%s/): %s", t.Name, name, t.Name, t.Doc))
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("specdoc: %w", err)
	}
	return nil
}

type axisChoice struct {
	param  vocab.Param
	values []string
	metric *vocab.Metric
}

// gridAxis picks the first Float parameter with a positive default it
// can double twice within range, or the first String parameter with
// choices, as the example axis, and the first Float metric to plot.
func gridAxis(s *vocab.Schema) *axisChoice {
	var a *axisChoice
	for _, p := range s.Params {
		if p.Kind != vocab.Float || p.Default.Float() <= 0 {
			continue
		}
		d := p.Default.Float()
		if p.Bounded() && 4*d > p.Max {
			continue
		}
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
	for i, m := range s.Metrics {
		if m.Kind == vocab.Float || m.Kind == vocab.Int {
			a.metric = &s.Metrics[i]
			break
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
