package spec

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/vocab"
)

// MaxMemoryChecks bounds the points CheckMemory asks the model about: a
// grid with more is checked at that many points spread evenly over it,
// its first and last included (an estimate grows with the values that
// make a grid large, and a sweep of that size is not run on one machine
// at once anyway).
const MaxMemoryChecks = 1 << 14

// CheckMemory refuses a resolved spec one of whose points a model that
// estimates its memory (vocab.MemoryEstimator) says would need more than
// the model's limit or machine bytes (0: no machine limit), at the line
// and column of the parameter the estimate names (its grid axis, case or
// params entry; the spec's model line when it has its default), with the
// estimate, its parts and the limit. points is the number of points and
// at returns the parameters of point i; a point of case k is one of the
// points/len(cases) points from k*points/len(cases) on (plan.Plan's
// order, replicate aside: every replicate needs the same memory).
func CheckMemory(r *Spec, m vocab.Model, points int, at func(i int) vocab.Params, machine int64) error {
	est, ok := m.(vocab.MemoryEstimator)
	if !ok || points == 0 {
		return nil
	}
	ncase := max(len(r.Cases), 1)
	perCase := points / ncase
	var errs ErrorList
	seen := map[string]bool{}
	check := func(i int) {
		e, err := est.Memory(at(i))
		if err != nil {
			return // the model refuses the scenario itself, with its reason
		}
		limit, whose := e.Limit, "the model's limit"
		if machine > 0 && (limit == 0 || machine < limit) {
			limit, whose = machine, "this machine's memory"
		}
		if limit == 0 || e.Bytes <= limit {
			return
		}
		var c []Setting
		if len(r.Cases) > 0 && perCase > 0 {
			c = r.Cases[min(i/perCase, len(r.Cases)-1)]
		}
		pos, from := r.settingPos(c, e.Param)
		msg := fmt.Sprintf("%s (%s): a scenario would need about %s (%s), more than %s, %s: use fewer stations, pairs, flows or samples",
			e.Param, from, gib(e.Bytes), e.Detail, whose, gib(limit))
		if !seen[msg] {
			seen[msg] = true
			errs = append(errs, &Error{Pos: pos, Msg: msg})
		}
	}
	if points <= MaxMemoryChecks {
		for i := range points {
			check(i)
		}
	} else {
		for k := range MaxMemoryChecks {
			check(int(int64(k) * int64(points-1) / int64(MaxMemoryChecks-1)))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs.sort()
}

// settingPos returns where parameter name gets its value in case c: the
// case's setting, its grid axis, the params entry, or (its default) the
// spec's first line; and says which.
func (r *Spec) settingPos(c []Setting, name string) (Position, string) {
	for _, st := range c {
		if st.Name == name {
			return st.Pos, "set in a case"
		}
	}
	for _, a := range r.Grid {
		if a.Name == name {
			return a.Pos, "a grid axis"
		}
	}
	for _, st := range r.Params {
		if st.Name == name {
			return st.Pos, "set in params"
		}
	}
	return Position{File: r.File, Line: 1, Column: 1}, "the model's default"
}

// gib writes a byte count in GiB, or MiB below one GiB.
func gib(b int64) string {
	if b < 1<<30 {
		return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
}
