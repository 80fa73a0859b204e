package sweep

import (
	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

// FormatValue prints a parameter value as a spec would write it
// ("16000km", "1Gbps", "direct").
func FormatValue(v vocab.Value, u vocab.Unit) string {
	if (v.Kind() == vocab.Float || v.Kind() == vocab.Int) && u != vocab.Dimensionless {
		return units.Format(v.Float(), u)
	}
	return v.String()
}

// Suggest returns `; did you mean "x"?` for the candidate nearest to word,
// or "" when none is close.
func Suggest(word string, candidates []string) string { return units.DidYouMean(word, candidates) }
