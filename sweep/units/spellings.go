package units

import (
	"sort"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Spellings returns every unit symbol Parse accepts for a quantity of unit
// want, prefixes expanded, sorted: what an editor's schema may offer and
// all it should accept ("1Gbs" is none of them). Power and power level
// accept each other's symbols, as Parse converts between them.
func Spellings(want vocab.Unit) []string {
	w, ok := unitInfo[want]
	if !ok {
		return nil
	}
	var out []string
	for name, s := range symbols {
		if s.dim == w.dim || (s.dim == power && w.dim == powerLevel) || (s.dim == powerLevel && w.dim == power) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
