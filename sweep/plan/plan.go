package plan

import (
	"fmt"
	"sort"

	"github.com/crosslink-sim/crosslink/engine"
	"github.com/crosslink-sim/crosslink/sweep/spec"
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
	schema     *engine.Schema
	specSeed   uint64
	replicates int
	gridSize   int
	cases      []caseVals
	axes       []axis
	order      []paramRef // every parameter, in name order (the id's order)
	header     []byte     // model name and version, the start of every id key
	n          int
}

// caseVals is the full parameter set of one case before the grid axes are
// laid over it: defaults, then params, then the case's settings.
type caseVals struct {
	vals  []engine.Value
	canon []string // vals[i].Canonical(), computed once
}

type axis struct {
	param  int
	vals   []engine.Value
	canon  []string
	stride int // how many grid indices one step of this axis spans
}

type paramRef struct {
	index int    // into the schema's params
	name  string // its name
	axis  int    // index into Plan.axes, or -1
}

// New expands s (already resolved to a profile, see spec.Resolve) for
// model m. It checks that s names m and that every value suits m's schema;
// spec.Parse has checked the rest.
func New(s *spec.Spec, m engine.Model) (*Plan, error) {
	schema := m.Schema()
	if s.Model != schema.Name {
		return nil, fmt.Errorf("plan: spec %s is for model %q, not %q", s.Name, s.Model, schema.Name)
	}
	index := func(name string, v engine.Value) (int, error) {
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
	vals := append([]engine.Value(nil), base...)
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
		header:     appendHeader(nil, schema),
	}
	cases := s.Cases
	if len(cases) == 0 {
		cases = [][]spec.Setting{nil}
	}
	for _, c := range cases {
		cv := append([]engine.Value(nil), vals...)
		for _, st := range c {
			i, err := index(st.Name, st.Value)
			if err != nil {
				return nil, err
			}
			cv[i] = st.Value
		}
		p.cases = append(p.cases, caseVals{vals: cv, canon: canonical(cv)})
	}
	axisOf := make([]int, len(schema.Params))
	for i := range axisOf {
		axisOf[i] = -1
	}
	size := float64(p.replicates) * float64(len(p.cases))
	for _, a := range s.Grid {
		if len(a.Values) == 0 {
			return nil, fmt.Errorf("plan: grid axis %s is empty", a.Name)
		}
		var pi int
		for _, v := range a.Values {
			i, err := index(a.Name, v)
			if err != nil {
				return nil, err
			}
			pi = i
		}
		if axisOf[pi] >= 0 {
			return nil, fmt.Errorf("plan: grid axis %s appears twice", a.Name)
		}
		axisOf[pi] = len(p.axes)
		p.axes = append(p.axes, axis{param: pi, vals: a.Values, canon: canonical(a.Values)})
		size *= float64(len(a.Values))
	}
	if size > spec.MaxScenarios {
		return nil, fmt.Errorf("plan: spec %s expands to %.0f scenarios, more than %d", s.Name, size, spec.MaxScenarios)
	}
	stride := 1
	for k := len(p.axes) - 1; k >= 0; k-- {
		p.axes[k].stride = stride
		stride *= len(p.axes[k].vals)
	}
	p.gridSize = stride
	p.n = p.replicates * len(p.cases) * p.gridSize
	for i, prm := range schema.Params {
		p.order = append(p.order, paramRef{index: i, name: prm.Name, axis: axisOf[i]})
	}
	sort.Slice(p.order, func(a, b int) bool { return p.order[a].name < p.order[b].name })
	return p, nil
}

func canonical(vals []engine.Value) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = v.Canonical()
	}
	return out
}

// Len returns the number of scenarios.
func (p *Plan) Len() int { return p.n }

// Schema returns the schema of the plan's model.
func (p *Plan) Schema() *engine.Schema { return p.schema }

// At returns scenario i, 0 <= i < Len(). It allocates the scenario's value
// slice and its id string, nothing else, and its cost grows with the number
// of parameters, not with the size of the grid.
func (p *Plan) At(i int) Scenario {
	if i < 0 || i >= p.n {
		panic(fmt.Sprintf("plan: bug: scenario %d of %d", i, p.n))
	}
	perRep := len(p.cases) * p.gridSize
	rep := i / perRep
	r := i % perRep
	c := &p.cases[r/p.gridSize]
	g := r % p.gridSize

	vals := make([]engine.Value, len(c.vals))
	copy(vals, c.vals)
	var arr [512]byte
	key := append(arr[:0], p.header...)
	for _, ref := range p.order {
		canon := c.canon[ref.index]
		if ref.axis >= 0 {
			a := &p.axes[ref.axis]
			d := (g / a.stride) % len(a.vals)
			vals[ref.index] = a.vals[d]
			canon = a.canon[d]
		}
		key = appendParam(key, ref.name, canon)
	}
	id := hashID(appendReplicate(key, rep))
	return Scenario{
		ID:        id,
		Replicate: rep,
		Seed:      Seed(p.specSeed, id),
		Params:    engine.NewParams(p.schema, vals),
	}
}
