package plan

import (
	"fmt"
	"sort"

	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Plan is the list of scenarios a resolved spec expands to. It stores the
// axes, not the grid: At decodes an index into axis positions (mixed radix)
// and builds that one scenario, so a million-scenario plan costs the memory
// of its axes. A Plan is immutable and safe for concurrent use.
//
// Index order, outermost first: replicate, case, then the grid axes in the
// order the spec lists them, the last axis varying fastest. Replicate
// outermost means a partial run covers the whole grid once before it
// repeats any point. Ids and seeds do not depend on this order.
type Plan struct {
	schema     *vocab.Schema
	specSeed   uint64
	replicates int
	gridSize   int
	cases      []caseVals
	axes       []axis
	n          int
}

// caseVals is the full parameter set of one case before the grid axes are
// laid over it: defaults, then params, then the case's settings.
type caseVals struct {
	vals []vocab.Value
	// key is the id key text of the case (see ID) cut at the grid axes:
	// each piece's text, then the key part of its axis' value, in name
	// order. Building a key is then a few copies, with no formatting.
	key []piece
	// pre is the hash state after the whole blocks of key[0].text, which
	// every scenario of the case begins its key with.
	pre prefix
}

// piece is a run of fixed key text followed by the part of one grid axis
// (none when axis is -1).
type piece struct {
	text []byte
	axis int
}

type axis struct {
	param  int
	vals   []vocab.Value // nil for a lazy range (see spec.Limits.LazyRanges)
	rng    *spec.Range   // makes the values when vals is nil
	n      int           // the number of values
	name   string        // the parameter's name
	parts  []string      // "name=canonical\x00" of each value, the axis' part of the key; nil for a long axis
	stride int           // how many grid indices one step of this axis spans
}

// maxPrecomputed is the longest axis whose key parts New precomputes.
// A longer axis formats its part in At: a little slower per scenario, but
// a 10^6-value axis then costs its values only, not 40 MB more of parts.
const maxPrecomputed = 1 << 16

// value returns value k of the axis.
func (a *axis) value(k int) vocab.Value {
	if a.vals != nil {
		return a.vals[k]
	}
	return a.rng.At(k)
}

// appendPart appends the key part of value k of the axis to key.
func (a *axis) appendPart(key []byte, k int) []byte {
	if a.parts != nil {
		return append(key, a.parts[k]...)
	}
	return appendParam(key, a.name, a.value(k).Canonical())
}

// New expands s (already resolved to a profile, see spec.Resolve) for
// model m. It checks that s names m and that every value suits m's schema;
// spec.Parse has checked the rest.
func New(s *spec.Spec, m vocab.Model) (*Plan, error) {
	schema := m.Schema()
	if s.Model != schema.Name {
		return nil, fmt.Errorf("plan: spec %s is for model %q, not %q", s.Name, s.Model, schema.Name)
	}
	index := func(name string, v vocab.Value) (int, error) {
		i := schema.ParamIndex(name)
		if i < 0 {
			return -1, fmt.Errorf("plan: model %s has no parameter %q", schema.Name, name)
		}
		if err := schema.Params[i].Check(v); err != nil {
			return -1, fmt.Errorf("plan: %w", err)
		}
		return i, nil
	}
	base := schema.Defaults().Values()
	vals := append([]vocab.Value(nil), base...)
	for _, st := range s.Params {
		i, err := index(st.Name, st.Value)
		if err != nil {
			return nil, err
		}
		vals[i] = st.Value
	}
	p := &Plan{
		schema:     schema,
		specSeed:   s.Seed,
		replicates: max(s.Replicates, 1),
		gridSize:   1,
	}
	cases := s.Cases
	if len(cases) == 0 {
		cases = [][]spec.Setting{nil}
	}
	for _, c := range cases {
		cv := append([]vocab.Value(nil), vals...)
		for _, st := range c {
			i, err := index(st.Name, st.Value)
			if err != nil {
				return nil, err
			}
			cv[i] = st.Value
		}
		p.cases = append(p.cases, caseVals{vals: cv})
	}
	axisOf := make([]int, len(schema.Params))
	for i := range axisOf {
		axisOf[i] = -1
	}
	size := float64(p.replicates) * float64(len(p.cases))
	for _, a := range s.Grid {
		n := a.Len()
		if n == 0 {
			return nil, fmt.Errorf("plan: grid axis %s is empty", a.Name)
		}
		var pi int
		for k := range n {
			i, err := index(a.Name, a.At(k))
			if err != nil {
				return nil, err
			}
			pi = i
		}
		if axisOf[pi] >= 0 {
			return nil, fmt.Errorf("plan: grid axis %s appears twice", a.Name)
		}
		axisOf[pi] = len(p.axes)
		var parts []string
		if n <= maxPrecomputed {
			parts = make([]string, n)
			for k := range parts {
				parts[k] = string(appendParam(nil, schema.Params[pi].Name, a.At(k).Canonical()))
			}
		}
		p.axes = append(p.axes, axis{param: pi, name: schema.Params[pi].Name, vals: a.Values, rng: a.Range, n: n, parts: parts})
		size *= float64(n)
	}
	if size > spec.ScenarioCeiling {
		return nil, fmt.Errorf("plan: spec %s expands to %.0f scenarios, more than %d", s.Name, size, spec.ScenarioCeiling)
	}
	stride := 1
	for k := len(p.axes) - 1; k >= 0; k-- {
		p.axes[k].stride = stride
		stride *= p.axes[k].n
	}
	p.gridSize = stride
	p.n = p.replicates * len(p.cases) * p.gridSize
	order := make([]int, len(schema.Params)) // parameters in name order, the id's order
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return schema.Params[order[a]].Name < schema.Params[order[b]].Name })
	for ci := range p.cases {
		c := &p.cases[ci]
		text := appendHeader(nil, schema)
		for _, i := range order {
			if axisOf[i] >= 0 {
				c.key = append(c.key, piece{text: text, axis: axisOf[i]})
				text = nil
				continue
			}
			text = appendParam(text, schema.Params[i].Name, c.vals[i].Canonical())
		}
		c.key = append(c.key, piece{text: text, axis: -1})
		c.pre = newPrefix(c.key[0].text)
	}
	return p, nil
}

// Len returns the number of scenarios.
func (p *Plan) Len() int { return p.n }

// Schema returns the schema of the plan's model.
func (p *Plan) Schema() *vocab.Schema { return p.schema }

// At returns scenario i, 0 <= i < Len(). It allocates the scenario's value
// slice and the string of its ids, nothing else, and its cost grows with the number
// of parameters, not with the size of the grid.
func (p *Plan) At(i int) Scenario {
	return p.AtInto(i, make([]vocab.Value, len(p.schema.Params)))
}

// AtInto is At with the parameter values written into vals, which must
// hold one value per parameter of Schema() and which the scenario's Params
// then share. A runner that copies each scenario's row out before it runs
// the next can so reuse one slice of values for many scenarios; the one
// string that holds the id and the point id is then the only allocation.
func (p *Plan) AtInto(i int, vals []vocab.Value) Scenario {
	if i < 0 || i >= p.n {
		panic(fmt.Sprintf("plan: bug: scenario %d of %d", i, p.n))
	}
	if len(vals) != len(p.schema.Params) {
		panic(fmt.Sprintf("plan: bug: %d values for %d parameters", len(vals), len(p.schema.Params)))
	}
	perRep := len(p.cases) * p.gridSize
	rep := i / perRep
	r := i % perRep
	c := &p.cases[r/p.gridSize]
	g := r % p.gridSize

	copy(vals, c.vals)
	var digits [16]int // axis positions; a heap array only for many axes
	d := digits[:0]
	if len(p.axes) > len(digits) {
		d = make([]int, 0, len(p.axes))
	}
	for i := range p.axes {
		a := &p.axes[i]
		k := (g / a.stride) % a.n
		vals[a.param] = a.value(k)
		d = append(d, k)
	}
	// The key less the bytes c.pre has hashed.
	h := digests.Get().(*digest)
	defer digests.Put(h)
	key := append(h.key[:0], c.key[0].text[c.pre.n:]...)
	for k, pc := range c.key {
		if k > 0 {
			key = append(key, pc.text...)
		}
		if pc.axis >= 0 {
			key = p.axes[pc.axis].appendPart(key, d[pc.axis])
		}
	}
	h.key = key
	id, point := h.ids(c.pre, rep)
	return Scenario{
		ID:        id,
		PointID:   point,
		Replicate: rep,
		Seed:      Seed(p.specSeed, id),
		Params:    vocab.NewParams(p.schema, vals),
	}
}

// Points returns the number of points: combinations of case and grid
// values, each run Replicates() times.
func (p *Plan) Points() int { return len(p.cases) * p.gridSize }

// Replicates returns the number of replicates of each point.
func (p *Plan) Replicates() int { return p.replicates }

// Index returns the index (for At) of replicate rep of point, 0 <= point <
// Points(), 0 <= rep < Replicates(): replicate is the outermost digit.
func (p *Plan) Index(point, rep int) int { return rep*p.Points() + point }

// Distinct returns the number of distinct values parameter i (an index
// into Schema().Params) takes across the plan: its grid axis' values, or
// the values the cases give it, or 1.
func (p *Plan) Distinct(i int) int {
	seen := map[string]bool{}
	for _, a := range p.axes {
		if a.param == i {
			for k := range a.n {
				seen[a.value(k).Canonical()] = true
			}
			return len(seen)
		}
	}
	for _, c := range p.cases {
		seen[c.vals[i].Canonical()] = true
	}
	return len(seen)
}
