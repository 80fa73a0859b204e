package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// decades marks a log axis: a labelled tick at every few powers of ten
// (at most about seven labels, so that BER axes spanning 50 decades stay
// readable), unlabelled ticks at the other powers of ten, and when the
// axis spans less than two decades, unlabelled ticks at 2..9 times them.
// Labels read "1e-9", "0.01", "1", "1000": exact, and short.
type decades struct{}

// Ticks implements plot.Ticker.
func (decades) Ticks(min, max float64) []plot.Tick {
	if min <= 0 || max <= 0 || min > max {
		return nil
	}
	lo := int(math.Floor(math.Log10(min)))
	hi := int(math.Ceil(math.Log10(max)))
	step := (hi - lo + 6) / 7
	if step < 1 {
		step = 1
	}
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		v := math.Pow10(e)
		if v >= min*(1-1e-12) && v <= max*(1+1e-12) {
			t := plot.Tick{Value: v}
			if e%step == 0 {
				t.Label = decadeLabel(e)
			}
			ticks = append(ticks, t)
		}
		if hi-lo <= 2 {
			for k := 2; k <= 9; k++ {
				if m := float64(k) * v; m >= min && m <= max {
					ticks = append(ticks, plot.Tick{Value: m})
				}
			}
		}
	}
	return ticks
}

// decadeLabel prints 10^e: plain decimals from 0.001 to 10000, else 1e±k.
func decadeLabel(e int) string {
	if e >= -3 && e <= 4 {
		return strconv.FormatFloat(math.Pow10(e), 'f', -1, 64)
	}
	return "1e" + strconv.Itoa(e)
}
