package plots

import (
	"math"
	"strconv"
	"strings"

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
	case vocab.Fraction:
		x, unit = x*100, "%" // as specs write it: loss 0.2 %
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

// choiceNames are the legend texts of parameter values that are names
// rather than words.
var choiceNames = map[string]string{
	"scalingup": "scaling up", "newreno": "NewReno", "reno": "Reno", "cubic": "CUBIC",
	"bbr": "BBR", "bbr2": "BBRv2", "bic": "BIC", "htcp": "H-TCP", "highspeed": "HighSpeed",
	"hybla": "Hybla", "scalable": "Scalable", "vegas": "Vegas", "westwood": "Westwood",
	"droptail": "DropTail", "red": "RED", "fq_codel": "fq_codel", "geo": "GEO", "meo": "MEO", "leo": "LEO",
}

// acronyms are parameter names a legend writes as the acronym they are:
// "MSS 1500 B", not "mss 1500 B".
var acronyms = map[string]string{"mss": "MSS", "mtu": "MTU", "ber": "BER", "per": "PER"}

// legendPart is how a curve's legend names one series value: "window 512
// KiB", "scaling up", "no window scaling", "cca CUBIC". Booleans read as
// the parameter's name or "no" and the name; byte counts that are whole
// KiB, MiB or GiB use those units.
func legendPart(q Quantity, v vocab.Value) string {
	name := strings.ReplaceAll(q.Name, "_", " ")
	if n, ok := acronyms[q.Name]; ok {
		name = n
	}
	switch v.Kind() {
	case vocab.Bool:
		if v.Bool() {
			return name
		}
		return "no " + name
	case vocab.String:
		if n, ok := choiceNames[v.Str()]; ok {
			return name + " " + n
		}
		return name + " " + v.Str()
	}
	if q.Unit == vocab.Byte {
		if s, ok := binaryBytes(v.Float()); ok {
			return name + " " + s
		}
	}
	return name + " " + formatValue(v, q.Unit)
}

// binaryBytes prints a byte count that is a whole number of KiB, MiB or
// GiB (of at least 1 KiB) in that unit.
func binaryBytes(x float64) (string, bool) {
	for _, u := range []struct {
		f    float64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if x >= u.f && math.Mod(x, u.f) == 0 {
			return strconv.FormatFloat(x/u.f, 'f', -1, 64) + " " + u.name, true
		}
	}
	return "", false
}
