package validation

import (
	"fmt"
	"regexp"
	"strings"
)

// Findings quote the measured numbers through placeholders that Render
// fills in from the samples, so that the prose stays true after a rerun:
//
//	{diff}, {diff:NAME}              the difference of the compared metric, "+0.12 %"
//	{ns3:NAME}, {cl:NAME}            a side's mean of the compared metric, with its unit
//	{ns3:NAME:METRIC}, {cl:...}      a side's mean of another metric
//	{range:NAME}, {clrange:NAME}     a side's [min, max] over seeds of the compared metric
//
// NAME is a scenario name; without it, the scenario the finding belongs to.
var placeholder = regexp.MustCompile(`\{(diff|ns3|cl|range|clrange)(?::([^}:]+))?(?::([^}]+))?\}`)

// expand fills in the placeholders of text, a finding of scenario self.
func expand(text, self string, byName map[string]Scenario, samples []Sample) (string, error) {
	var err error
	out := placeholder.ReplaceAllStringFunc(text, func(m string) string {
		g := placeholder.FindStringSubmatch(m)
		kind, name, metric := g[1], g[2], g[3]
		if name == "" {
			name = self
		}
		s, ok := byName[name]
		if !ok {
			err = fmt.Errorf("validation: finding of %s: %s names no scenario", self, m)
			return m
		}
		if metric == "" {
			metric = s.Metric
		}
		c := Compare(s, metric, samples)
		with := func(v float64) string {
			if u := unit(metric); u != "" {
				return format(metric, v) + " " + u
			}
			return format(metric, v)
		}
		switch kind {
		case "diff":
			return fmt.Sprintf("%+.2f %%", c.Diff*100)
		case "ns3":
			return with(c.NS3.Mean)
		case "cl":
			return with(c.Crosslink.Mean)
		case "range":
			return fmt.Sprintf("%s-%s", format(metric, c.NS3.Min), with(c.NS3.Max))
		default:
			return fmt.Sprintf("%s-%s", format(metric, c.Crosslink.Min), with(c.Crosslink.Max))
		}
	})
	if err == nil && strings.Contains(out, "NaN") {
		err = fmt.Errorf("validation: finding of %s quotes a scenario without samples: %q", self, out)
	}
	return out, err
}
