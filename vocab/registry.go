package vocab

import (
	"fmt"
	"sort"
)

// Registry maps model names to models. It is built once at start-up by the
// caller (see engine/models.Registry) and only read afterwards, so it is safe
// for concurrent use.
type Registry struct {
	models map[string]Model
}

// NewRegistry returns a registry of the given models. It returns an error if
// two models share a name or a schema is malformed (a bug in the model).
func NewRegistry(models ...Model) (*Registry, error) {
	r := &Registry{models: make(map[string]Model, len(models))}
	for _, m := range models {
		s := m.Schema()
		if err := s.validate(); err != nil {
			return nil, err
		}
		if _, dup := r.models[s.Name]; dup {
			return nil, fmt.Errorf("vocab: two models are called %q", s.Name)
		}
		r.models[s.Name] = m
	}
	return r, nil
}

// Lookup returns the model called name.
func (r *Registry) Lookup(name string) (Model, bool) {
	m, ok := r.models[name]
	return m, ok
}

// Names returns the model names in sorted order.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.models))
	for n := range r.models {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// validate checks the invariants sweep relies on: unique column names, no
// clash with the columns sweep adds, defaults of the declared kind and range.
func (s *Schema) validate() error {
	if s.Name == "" || s.Version <= 0 {
		return fmt.Errorf("vocab: model %q needs a name and a positive version", s.Name)
	}
	seen := map[string]string{}
	for _, c := range ReservedColumns() {
		seen[c] = "sweep"
	}
	add := func(col, what string) error {
		if prev, dup := seen[col]; dup {
			return fmt.Errorf("vocab: model %s: column %q of %s clashes with %s", s.Name, col, what, prev)
		}
		seen[col] = what
		return nil
	}
	for _, p := range s.Params {
		if err := add(p.Column(), "parameter "+p.Name); err != nil {
			return err
		}
		if err := p.Check(p.Default); err != nil {
			return fmt.Errorf("vocab: model %s: default: %w", s.Name, err)
		}
	}
	for _, m := range s.Metrics {
		if err := add(m.Column(), "metric "+m.Name); err != nil {
			return err
		}
		if m.Kind == Invalid {
			return fmt.Errorf("vocab: model %s: metric %s has no kind", s.Name, m.Name)
		}
	}
	for _, t := range s.Tables {
		if t.Name == "" {
			return fmt.Errorf("vocab: model %s: a second table has no name", s.Name)
		}
	}
	for _, g := range s.Exclusive {
		if len(g) < 2 {
			return fmt.Errorf("vocab: model %s: exclusive group %q needs two parameters or more", s.Name, g)
		}
		for _, name := range g {
			if s.ParamIndex(name) < 0 {
				return fmt.Errorf("vocab: model %s: exclusive group %q names %q, which is not a parameter", s.Name, g, name)
			}
		}
	}
	return nil
}

// ReservedColumns returns the columns the sweep writes in every main table
// (second tables have scenario_id and replicate of them); model parameters
// and metrics may not use these names.
func ReservedColumns() []string {
	return []string{"scenario_id", "point_id", "replicate", "seed", "status", "error", "wall_s"}
}
