package spec

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

var (
	adaptiveKeys = []string{"min", "max", "until"}
	untilKeys    = []string{"metric", "ci95_rel"}
)

// adaptive reads replicates: {min, max, until: {metric, ci95_rel}}. It
// returns nil when the rule is unusable (the errors are recorded).
func (p *parser) adaptive(e entry) *Adaptive {
	a := &Adaptive{Pos: e.pos}
	what := "replicates"
	has := map[string]entry{}
	for _, f := range p.entries(e.value, what, "key", adaptiveKeys) {
		has[f.key] = f
	}
	bad := false
	count := func(key string) int {
		f, ok := has[key]
		if !ok {
			p.errorf(e.pos, "%s: missing key %q (adaptive replicates need min, max and until)", what, key)
			bad = true
			return 0
		}
		text, _ := p.scalar(f.value)
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil || n < 2 || n > MaxScenarios {
			p.errorf(p.pos(f.value), "%s: %s must be a whole number from 2 to %d (a confidence interval needs two replicates), not %s", what, key, MaxScenarios, quoteNode(p, f.value))
			bad = true
			return 0
		}
		return int(n)
	}
	a.Min, a.Max = count("min"), count("max")
	if !bad && a.Min > a.Max {
		p.errorf(p.pos(has["max"].value), "%s: max %d is below min %d", what, a.Max, a.Min)
		bad = true
	}
	u, ok := has["until"]
	if !ok {
		p.errorf(e.pos, "%s: missing key \"until\": {metric: NAME, ci95_rel: 0.05}, when to stop adding replicates", what)
		return nil
	}
	until := map[string]entry{}
	for _, f := range p.entries(u.value, what+" until", "key", untilKeys) {
		until[f.key] = f
	}
	if f, ok := until["metric"]; ok {
		a.Metric, ok = p.adaptiveMetric(f)
		bad = bad || !ok
	} else {
		p.errorf(u.pos, "%s until: missing key \"metric\": the metric whose confidence interval decides", what)
		bad = true
	}
	if f, ok := until["ci95_rel"]; ok {
		text, _ := p.scalar(f.value)
		// A share, so written in percent as the spec's other shares
		// (5%), or as the number it is (0.05).
		x, err := units.Parse(strings.TrimSpace(text), vocab.Dimensionless)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			p.errorf(p.pos(f.value), "%s until: ci95_rel must be a share above 0, in percent or as a number (5%% or 0.05: the interval's half-width is 5 %% of the mean), not %s", what, quoteNode(p, f.value))
			bad = true
		}
		a.CI95Rel = x
	} else {
		p.errorf(u.pos, "%s until: missing key \"ci95_rel\": the largest half-width of the 95 %% interval relative to the mean, e.g. 0.05", what)
		bad = true
	}
	if bad {
		return nil
	}
	return a
}

// adaptiveMetric resolves the metric of an adaptive rule, by name or by
// column name, to its column name; it must be numeric.
func (p *parser) adaptiveMetric(f entry) (string, bool) {
	name, ok := p.scalar(f.value)
	if !ok {
		p.errorf(p.pos(f.value), "replicates until: metric must be a metric name, not %s", describe(p.unwrap(f.value)))
		return "", false
	}
	if p.schema == nil {
		return name, true // the unknown model is reported already
	}
	var names, match []string
	var kinds []vocab.Kind
	for _, m := range p.schema.Metrics {
		names = append(names, m.Name)
		if m.Column() != m.Name {
			names = append(names, m.Column())
		}
		if m.Is(name) {
			match = append(match, m.Column())
			kinds = append(kinds, m.Kind)
		}
	}
	sort.Strings(names)
	names = slices.Compact(names)
	switch {
	case len(match) == 0 && p.schema.ParamIndex(name) >= 0:
		p.errorf(p.pos(f.value), "replicates until: %s is a parameter of %s; the rule watches a metric%s", name, p.schema.Name, suggest(name, names))
		return "", false
	case len(match) == 0:
		p.errorf(p.pos(f.value), "replicates until: %q is not a metric of %s%s (crosslink describe %s lists them)", name, p.schema.Name, suggest(name, names), p.schema.Name)
		return "", false
	case len(match) > 1:
		p.errorf(p.pos(f.value), "replicates until: metric %q names several columns; write one of %s", name, strings.Join(match, ", "))
		return "", false
	case kinds[0] != vocab.Float && kinds[0] != vocab.Int:
		p.errorf(p.pos(f.value), "replicates until: metric %s is a %s; a confidence interval needs a number", name, kinds[0])
		return "", false
	}
	return match[0], true
}
