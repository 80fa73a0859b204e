package models

import (
	"math"

	"github.com/crosslink-sim/crosslink/vocab"
)

// naNull returns x as a Float value, or null where x is the NaN a model
// uses internally for "not applicable" (no probe, an unfinished transfer,
// no flow of that kind): datasets store a value that does not apply as
// NULL, so that avg() and mean() skip it, and keep NaN for a computed NaN
// only. Use it only where the NaN can mean nothing else.
func naNull(x float64) vocab.Value {
	if math.IsNaN(x) {
		return vocab.Value{}
	}
	return vocab.F(x)
}
