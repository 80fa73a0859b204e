package plots

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// MinTickLabels is the fewest labelled ticks an axis may have: with fewer
// a reader cannot tell the scale (one labelled decade on a log axis says
// nothing of its span).
const MinTickLabels = 3

// paneled is art made of gonum plots (panels) that the drawing check
// reads; figures that compose plots their own way implement it.
type paneled interface {
	panels() []*plot.Plot
}

// plotsOf returns the gonum plots a figure's art draws, for the checks of
// axisProblems; tables and other art without axes give none.
func plotsOf(d Drawer) []*plot.Plot {
	switch a := d.(type) {
	case *plot.Plot:
		return []*plot.Plot{a}
	case paneled:
		return a.panels()
	}
	return nil
}

func (b *besideLegend) panels() []*plot.Plot { return []*plot.Plot{b.plot} }

// axisProblems lists what makes a figure's axes hard to read: an axis
// with fewer than MinTickLabels labelled ticks over the range it shows.
func axisProblems(d Drawer) []string {
	var out []string
	for i, p := range plotsOf(d) {
		for _, ax := range []struct {
			name string
			a    *plot.Axis
		}{{"x", &p.X}, {"y", &p.Y}} {
			if ax.a.Min >= ax.a.Max {
				continue // an empty panel has no scale to read
			}
			n := 0
			var vs []float64
			numeric := true
			for _, t := range ax.a.Tick.Marker.Ticks(ax.a.Min, ax.a.Max) {
				if t.Label != "" && t.Value >= ax.a.Min && t.Value <= ax.a.Max {
					n++
					// Only labels that state their tick's position are
					// checked: a category axis (bars at 0, 1, 2 labelled
					// with queue sizes) has no scale to be round.
					v, err := strconv.ParseFloat(t.Label, 64)
					numeric = numeric && err == nil && math.Abs(v-t.Value) <= 1e-6*math.Max(1, math.Abs(t.Value))
					vs = append(vs, v)
				}
			}
			if numeric && !roundLabels(ax.a.Scale, vs) {
				out = append(out, fmt.Sprintf("panel %d: the %s axis (%q) labels %v, not round numbers (multiples of a 1-2-5 step, or 1-9 times a power of ten on a log axis)",
					i+1, ax.name, ax.a.Label.Text, vs))
			}
			if gap := unlabelledEnd(ax.a, vs); gap != "" && numeric {
				out = append(out, fmt.Sprintf("panel %d: the %s axis (%q) leaves %s without a label: data there cannot be read",
					i+1, ax.name, ax.a.Label.Text, gap))
			}
			if n < MinTickLabels {
				out = append(out, fmt.Sprintf("panel %d: the %s axis (%q, %g to %g) has %d labelled ticks, want at least %d",
					i+1, ax.name, ax.a.Label.Text, ax.a.Min, ax.a.Max, n, MinTickLabels))
			}
		}
	}
	return out
}

// unlabelledEnd says which end of axis a runs further beyond its first
// or last labelled value vs than the spacing of two labels (measured in
// logarithms on a log axis), or "" if neither does: the reader of data
// there has no label to read them by.
func unlabelledEnd(a *plot.Axis, vs []float64) string {
	if len(vs) < 2 {
		return ""
	}
	tr := func(v float64) float64 { return v }
	if _, ok := a.Scale.(plot.LogScale); ok {
		if !(a.Min > 0) {
			return ""
		}
		tr = math.Log10
	}
	first, last := tr(vs[0]), tr(vs[len(vs)-1])
	spacing := (last - first) / float64(len(vs)-1)
	tol := 1e-9 * math.Max(1, math.Abs(spacing))
	switch {
	case first-tr(a.Min) > spacing+tol:
		return fmt.Sprintf("%g to %g", a.Min, vs[0])
	case tr(a.Max)-last > spacing+tol:
		return fmt.Sprintf("%g to %g", vs[len(vs)-1], a.Max)
	}
	return ""
}

// roundLogRange widens the range of a log axis marked by decades to the
// nearest 1, 2 or 5 times a power of ten at an end the labels leave
// further from a label than two labels are apart (unlabelledEnd), so that
// the data there have a label to be read by.
func roundLogRange(a *plot.Axis) {
	if _, ok := a.Scale.(plot.LogScale); !ok || !(a.Min > 0) || !(a.Max > a.Min) {
		return
	}
	labels := func() []float64 {
		var vs []float64
		for _, t := range a.Tick.Marker.Ticks(a.Min, a.Max) {
			if t.Label != "" {
				vs = append(vs, t.Value)
			}
		}
		return vs
	}
	if unlabelledEnd(a, labels()) == "" {
		return
	}
	e := math.Pow10(int(math.Floor(math.Log10(a.Min))))
	for _, m := range []float64{5, 2, 1} {
		if m*e <= a.Min*(1+1e-12) {
			a.Min = m * e
			break
		}
	}
	if unlabelledEnd(a, labels()) == "" {
		return
	}
	e = math.Pow10(int(math.Floor(math.Log10(a.Max))))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*e >= a.Max*(1-1e-12) {
			a.Max = m * e
			break
		}
	}
}

// roundLabels reports whether the labelled tick values vs of an axis
// with scale sc are round: on a log axis each is 1 to 9 times a power of
// ten, on any other consecutive multiples of one 1-2-5 step (roundStep).
func roundLabels(sc plot.Normalizer, vs []float64) bool {
	if _, ok := sc.(plot.LogScale); ok {
		for _, v := range vs {
			m := v / math.Pow10(int(math.Floor(math.Log10(v)+1e-9)))
			if !(v > 0) || math.Abs(m-math.Round(m)) > 1e-6 {
				return false
			}
		}
		return true
	}
	return roundStep(vs)
}

// outsideAxes lists the drawn points of curves that fall outside the
// fixed axis ranges of d (xlim, ylim), which gonum would clip unseen.
func outsideAxes(d Def, ld *lineData) []string {
	var out []string
	drawn := 0
	for _, c := range ld.Curves {
		for _, pt := range c.Points {
			if pt.drawn() {
				drawn++
			}
		}
	}
	if drawn == 0 {
		out = append(out, "no point of any curve is drawn (the notes say why): the panel is empty")
	}
	for _, c := range ld.Curves {
		n := 0
		for _, pt := range c.Points {
			if !pt.drawn() {
				continue
			}
			if len(d.XLim) == 2 && (pt.X < d.XLim[0] || pt.X > d.XLim[1]) {
				n++
			} else if len(d.YLim) == 2 && (pt.Mean < d.YLim[0] || pt.Mean > d.YLim[1]) {
				n++
			}
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("curve %q: %d drawn points fall outside the fixed axis range", c.Label, n))
		}
	}
	return out
}
