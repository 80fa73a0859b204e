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
	if countLabels(ticks) < MinTickLabels {
		// One or two labelled powers of ten say little of the span: label
		// the 1-2-5 (or every) multiples instead.
		return fewDecades(min, max, lo, hi)
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

// fewDecades marks a log axis spanning few decades: ticks at 1..9
// times each power of ten, labelled at 1, 2 and 5 times it, or at every
// multiple when that still gives fewer than MinTickLabels labels.
func fewDecades(min, max float64, lo, hi int) []plot.Tick {
	var ticks []plot.Tick
	labelled := 0
	for _, all := range []bool{false, true} {
		ticks, labelled = ticks[:0], 0
		for e := lo; e <= hi; e++ {
			for k := 1; k <= 9; k++ {
				v := float64(k) * math.Pow10(e)
				if v < min*(1-1e-12) || v > max*(1+1e-12) {
					continue
				}
				t := plot.Tick{Value: v}
				if all || k == 1 || k == 2 || k == 5 {
					t.Label = formatNumber(roundSig(v, 6))
					labelled++
				}
				ticks = append(ticks, t)
			}
		}
		if labelled >= MinTickLabels {
			break
		}
	}
	return ticks
}

// linear marks a linear axis with labels at the multiples of one round
// step, 1, 2 or 5 times a power of ten (0, 5, 10, 15 rather than 2.5,
// 12.5, 22.5), and unlabelled ticks between them: the largest such step
// that gives at least MinTickLabels labels in the range, so an axis has 3
// to about 8 labels. Labels are the shortest decimal of the tick's value.
type linear struct{}

// Ticks implements plot.Ticker.
func (linear) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	st := niceStep(max - min)
	for i := 0; i < 60 && labelCount(min, max, st) < MinTickLabels; i++ {
		st = niceStep(st * (1 - 1e-9))
	}
	minor := st / 2
	if m := st / math.Pow10(int(math.Floor(math.Log10(st)))); math.Abs(m-5) < 1e-9 {
		minor = st / 5
	}
	var ts []plot.Tick
	eps := 1e-9 * (max - min)
	for k := math.Ceil((min - eps) / minor); ; k++ {
		v := k * minor
		if v > max+eps {
			break
		}
		if v == 0 {
			v = 0 // -0 (k = -0) would be labelled "-0"
		}
		t := plot.Tick{Value: roundSig(v, 12)}
		if r := v / st; math.Abs(r-math.Round(r)) < 1e-6 {
			t.Label = formatNumber(roundSig(v, 6))
		}
		ts = append(ts, t)
	}
	return ts
}

// labelCount is the number of multiples of st in [min, max].
func labelCount(min, max, st float64) int {
	return int(math.Floor(max/st+1e-9) - math.Ceil(min/st-1e-9) + 1)
}

// roundStep reports whether step is 1, 2 or 5 times a power of ten and
// the labelled values vs are consecutive multiples of it, as linear
// labels them; values read from tick labels carry rounding, hence the
// relative tolerance.
func roundStep(vs []float64) bool {
	if len(vs) < 2 {
		return true
	}
	st := vs[1] - vs[0]
	if !(st > 0) {
		return false
	}
	if math.Abs(niceStep(st*(1+1e-9))-st) > 1e-6*st {
		return false
	}
	for i, v := range vs {
		if r := v / st; math.Abs(r-math.Round(r)) > 1e-6*math.Max(1, math.Abs(r)) {
			return false
		}
		if i > 0 && math.Abs(v-vs[i-1]-st) > 1e-6*st {
			return false
		}
	}
	return true
}

// niceStep rounds a step down to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	e := math.Pow10(int(math.Floor(math.Log10(x))))
	for _, m := range []float64{5, 2, 1} {
		if m*e <= x {
			return m * e
		}
	}
	return e
}

func countLabels(ts []plot.Tick) int {
	n := 0
	for _, t := range ts {
		if t.Label != "" {
			n++
		}
	}
	return n
}
