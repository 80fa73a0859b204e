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

// linear marks a linear axis as gonum's default ticker does, but with at
// least MinTickLabels labels: when the default labels fewer (a range like
// 0 to 27 gets only 0 and 20), the steps are halved until it has enough.
// Labels are the shortest decimal of the tick's value.
type linear struct{}

// Ticks implements plot.Ticker.
func (linear) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	if countLabels(ts) < MinTickLabels && max > min {
		step := (max - min) / 2
		for i := 0; i < 60; i++ {
			if n := math.Floor(max/niceStep(step)) - math.Ceil(min/niceStep(step)) + 1; n >= MinTickLabels {
				break
			}
			step /= 2
		}
		st := niceStep(step)
		ts = ts[:0]
		for v := math.Ceil(min/st) * st; v <= max*(1+1e-12)+1e-300; v += st {
			ts = append(ts, plot.Tick{Value: v, Label: formatNumber(roundSig(v, 6))})
		}
		return ts
	}
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = formatNumber(roundSig(ts[i].Value, 6))
		}
	}
	return ts
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
