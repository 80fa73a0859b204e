package spec

import (
	"fmt"
	"strings"
)

// Resolve returns the spec as run under the named profile: its params,
// grid axes, cases and replicates laid over the base spec. The empty name
// is the base spec. Parse has already checked every profile, so the only
// error is a profile that does not exist.
func (s *Spec) Resolve(profile string) (*Spec, error) {
	if profile == "" {
		out := *s
		out.Profile = ""
		return &out, nil
	}
	var names []string
	for i := range s.Profiles {
		if s.Profiles[i].Name == profile {
			return s.apply(&s.Profiles[i]), nil
		}
		names = append(names, s.Profiles[i].Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("spec: %s has no profiles, so not %q", s.Name, profile)
	}
	return nil, fmt.Errorf("spec: %s has no profile %q%s (it has %s)", s.Name, profile, suggestOnly(profile, names), strings.Join(names, ", "))
}

// apply lays pr over s. The result shares no slice it changes with s.
func (s *Spec) apply(pr *Profile) *Spec {
	out := *s
	out.Profile = pr.Name
	switch {
	case pr.Adaptive != nil:
		out.Replicates, out.Adaptive = pr.Adaptive.Max, pr.Adaptive
	case pr.Replicates > 0:
		out.Replicates, out.Adaptive = pr.Replicates, nil
	}
	out.Params = append([]Setting(nil), s.Params...)
	for _, st := range pr.Params {
		replaced := false
		for i := range out.Params {
			if out.Params[i].Name == st.Name {
				out.Params[i], replaced = st, true
			}
		}
		if !replaced {
			out.Params = append(out.Params, st)
		}
	}
	out.Grid = append([]Axis(nil), s.Grid...)
	for _, a := range pr.Grid {
		replaced := false
		for i := range out.Grid {
			if out.Grid[i].Name == a.Name {
				out.Grid[i], replaced = a, true
			}
		}
		if !replaced {
			out.Grid = append(out.Grid, a)
		}
	}
	if pr.HasCases {
		out.Cases = pr.Cases
	}
	return &out
}
