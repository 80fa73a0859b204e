package plots

import (
	"math"
	"strconv"

	"github.com/crosslink-sim/crosslink/vocab"
)

// siPrefixes are the prefixes a legend may print rates, times, powers and
// frequencies with ("1 Gbit/s", "53.4 ms").
var siPrefixes = []struct {
	exp    int
	prefix string
}{{12, "T"}, {9, "G"}, {6, "M"}, {3, "k"}, {0, ""}, {-3, "m"}, {-6, "µ"}, {-9, "n"}}

// formatValue prints a parameter value for a legend or a table: strings as
// they are, numbers with their unit, with an SI prefix for rates, times,
// powers and frequencies and in km for long distances.
func formatValue(v vocab.Value, u vocab.Unit) string {
	if v.Kind() != vocab.Float && v.Kind() != vocab.Int {
		return v.String()
	}
	x := v.Float()
	unit := string(u)
	switch u {
	case vocab.BitPerSecond, vocab.Second, vocab.Watt, vocab.Hertz:
		if x != 0 {
			for _, p := range siPrefixes {
				if s := math.Pow10(p.exp); math.Abs(x) >= s*(1-1e-12) {
					x /= s
					unit = p.prefix + unit
					break
				}
			}
		}
	case vocab.Meter:
		if math.Abs(x) >= 1000 {
			x /= 1000
			unit = "km"
		}
	}
	s := strconv.FormatFloat(roundSig(x, 6), 'g', -1, 64)
	if unit != "" {
		s += " " + unit
	}
	return s
}

// roundSig rounds x to n significant digits, so that 0.1+0.2 prints as 0.3
// and a scaled 4e9 prints as 4.
func roundSig(x float64, n int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', n, 64), 64)
	if err != nil {
		panic("plots: bug: " + err.Error())
	}
	return v
}

// formatNumber prints x for CSV and Markdown: the shortest text that reads
// back to the same float64, so a reader checking numbers gets them exactly.
func formatNumber(x float64) string {
	return strconv.FormatFloat(x, 'g', -1, 64)
}
