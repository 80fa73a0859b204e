package spec

import (
	"fmt"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

// CheckExclusive refuses a resolved spec whose scenarios would set two parameters of
// one of the model's exclusive groups (vocab.Schema.Exclusive, e.g. a queue
// limit in packets and as a fraction of the BDP) to non-zero values: the
// model would refuse every such scenario, so the sweep would fill its
// dataset with failed rows. It reads the resolved spec, not its scenarios,
// so that it costs nothing for grids too large to enumerate: within a case,
// a parameter takes the case's value, else its grid axis's values (every
// combination of which the grid holds), else the spec's value or the
// model's default.
func CheckExclusive(r *Spec, s *vocab.Schema) error {
	if len(s.Exclusive) == 0 {
		return nil
	}
	cases := r.Cases
	if len(cases) == 0 {
		cases = [][]Setting{nil}
	}
	var errs ErrorList
	seen := map[string]bool{}
	for _, c := range cases {
		for _, group := range s.Exclusive {
			var set []source
			for _, name := range group {
				if src, ok := nonZero(r, s, c, name); ok {
					set = append(set, src)
				}
			}
			if len(set) < 2 {
				continue
			}
			e := exclusiveError(r.File, group, set)
			if key := e.Error(); !seen[key] {
				seen[key] = true
				errs = append(errs, e)
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// source is where a parameter gets a non-zero value: a spec line, or the
// model's default when pos is the zero Position.
type source struct {
	name  string
	value vocab.Value
	unit  vocab.Unit
	pos   Position
}

// nonZero reports whether name can be non-zero in the scenarios of case c,
// and where that value comes from.
func nonZero(r *Spec, s *vocab.Schema, c []Setting, name string) (source, bool) {
	i := s.ParamIndex(name) // vocab checks that every name of a group is a parameter
	u := s.Params[i].Unit
	for _, st := range c {
		if st.Name == name {
			return source{name, st.Value, u, st.Pos}, !isZero(st.Value)
		}
	}
	for _, a := range r.Grid {
		if a.Name != name {
			continue
		}
		for _, k := range axisProbe(a.Len()) {
			if v := a.At(k); !isZero(v) {
				return source{name, v, u, a.Pos}, true
			}
		}
		return source{}, false
	}
	for _, st := range r.Params {
		if st.Name == name {
			return source{name, st.Value, u, st.Pos}, !isZero(st.Value)
		}
	}
	def := s.Params[i].Default
	return source{name: name, value: def, unit: u}, !isZero(def)
}

// axisProbe returns the indices of an axis to look at for a non-zero
// value: all of a listed axis, the two ends of a long range (a range of
// non-negative values is all zero only when both ends are).
func axisProbe(n int) []int {
	if n <= 64 {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	return []int{0, n - 1}
}

func isZero(v vocab.Value) bool {
	switch v.Kind() {
	case vocab.Int:
		return v.Int() == 0
	case vocab.Float:
		return v.Float() == 0
	case vocab.Bool:
		return !v.Bool()
	case vocab.String:
		return v.Str() == ""
	}
	return false
}

// exclusiveError names the group's parameters set at once, each with its
// value and line (or "the model's default"), at the first spec line, and
// says how to fix it.
// text is the value as a spec would write it ("100%", "2 MB", "50").
func (s source) text() string {
	switch s.value.Kind() {
	case vocab.Int:
		return units.Format(float64(s.value.Int()), s.unit)
	case vocab.Float:
		return units.Format(s.value.Float(), s.unit)
	}
	return s.value.String()
}

func exclusiveError(file string, group []string, set []source) *Error {
	var parts []string
	var at Position
	for _, src := range set {
		where := "the model's default"
		if src.pos.Line > 0 {
			where = "line " + fmt.Sprint(src.pos.Line)
			if at.Line == 0 {
				at = src.pos
			}
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", src.name, src.text(), where))
	}
	var zero []string
	for _, src := range set[1:] {
		zero = append(zero, src.name+": 0")
	}
	if at.Line == 0 { // both from defaults: a model bug, reported at the spec
		at = Position{File: file, Line: 1, Column: 1}
	}
	return &Error{Pos: at, Msg: fmt.Sprintf("%s are set together, but %s give one limit in different forms: keep one and set the others to 0 (%s)",
		strings.Join(parts, " and "), strings.Join(group, ", "), strings.Join(zero, ", "))}
}
