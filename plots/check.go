package plots

import (
	"fmt"
	"image/color"
	"math"
	"reflect"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The drawing check: what a reader of a figure would trip over, found
// from how the figure is laid out and styled rather than from its pixels.
// Draw adds these to Output.Problems, the sidecar lists them, and the
// figure tests fail on any.

// entryStyle is how one legend entry is drawn: its kind ("line", "bar"),
// colour and marker.
type entryStyle struct {
	label string
	kind  string
	color color.Color
	glyph draw.GlyphDrawer
}

// legendStyled is art with a legend whose entries' styles the drawing
// check compares; figures with legends of their own implement it.
type legendStyled interface {
	legendStyles() []entryStyle
}

func (b *besideLegend) legendStyles() []entryStyle { return b.entries }

// sameStyle reports whether a reader cannot tell a and b apart in a
// legend: the same kind, colour and marker.
func sameStyle(a, b entryStyle) bool {
	return a.kind == b.kind && colorKey(a.color) == colorKey(b.color) && reflect.TypeOf(a.glyph) == reflect.TypeOf(b.glyph)
}

func colorKey(c color.Color) [4]uint32 {
	if c == nil {
		return [4]uint32{}
	}
	r, g, b, a := c.RGBA()
	return [4]uint32{r, g, b, a}
}

// styleProblems lists pairs of legend entries drawn alike.
func styleProblems(es []entryStyle) []string {
	var out []string
	for j := range es {
		for i := 0; i < j; i++ {
			if sameStyle(es[i], es[j]) {
				out = append(out, fmt.Sprintf("legend: %q and %q are drawn in one colour and marker", es[i].label, es[j].label))
				break
			}
		}
	}
	return out
}

// drawingProblems lists the layout and style defects of art drawn at
// w x h: the axis checks (axisProblems), a legend over the data area or
// squeezing it, and legend entries drawn alike.
func drawingProblems(art Drawer, w, h vg.Length) []string {
	out := axisProblems(art)
	for i, p := range plotsOf(art) {
		if legendSize(p.Legend).X > 0 {
			out = append(out, fmt.Sprintf("panel %d: the legend is drawn inside the data area, over the data", i+1))
		}
	}
	switch a := art.(type) {
	case *besideLegend:
		l, da := a.placed(w, h)
		out = append(out, placementProblems(l, da, w, a.legend)...)
	}
	if a, ok := art.(legendStyled); ok {
		out = append(out, styleProblems(a.legendStyles())...)
	}
	return out
}

// legendSize is the size of legend's entries (zero when it has none).
func legendSize(l plot.Legend) vg.Point {
	r := l.Rectangle(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 1e4, Y: 1e4}}})
	return r.Size()
}

// placementProblems checks a legend placed beside or below the plot: it
// must not overlap the data area, must fit the space it is given, and
// the data area must keep at least half the figure's width.
func placementProblems(l legendLayout, da draw.Canvas, w vg.Length, legend plot.Legend) []string {
	var out []string
	lr := legend.Rectangle(l.legend)
	if lr.Min.X < da.Max.X && lr.Max.X > da.Min.X && lr.Min.Y < da.Max.Y && lr.Max.Y > da.Min.Y {
		out = append(out, "the legend overlaps the data area")
	}
	// gonum draws the first entry one descent below the top of its space.
	s := legend.Rectangle(l.legend).Size()
	s.Y += legend.TextStyle.FontExtents().Descent
	if s.Y > l.legend.Size().Y+0.5 || s.X > l.legend.Size().X+0.5 {
		out = append(out, fmt.Sprintf("the legend (%.0f x %.0f pt) does not fit the %.0f x %.0f pt left for it: entries run off the figure",
			float64(s.X), float64(s.Y), float64(l.legend.Size().X), float64(l.legend.Size().Y)))
	}
	if f := float64(da.Size().X / w); f < MinDataWidth {
		out = append(out, fmt.Sprintf("the data area takes %.0f %% of the figure's width (want at least %g %%): the legend squeezes it", 100*f, 100*MinDataWidth))
	}
	return out
}

// lineProblems lists the defects of the curves of a line figure drawn in
// styles: a curve entirely hidden under another drawn over it, a marker
// on every point of a dense curve, and a missing value drawn as zero.
func lineProblems(d Def, ld *lineData, styles []curveStyle, same map[int]int) []string {
	var out []string
	for i, a := range ld.Curves {
		if _, dup := same[i]; dup {
			continue
		}
		for j := i + 1; j < len(ld.Curves); j++ {
			if _, dup := same[j]; dup {
				continue
			}
			if coincide(d, ld, a, ld.Curves[j]) && !apart(styles[i], styles[j]) {
				out = append(out, fmt.Sprintf("curve %q lies entirely under %q, drawn over it", a.Label, ld.Curves[j].Label))
			}
		}
		if n := drawnCount(a); n > DenseCurve && styles[i].Every <= 1 {
			out = append(out, fmt.Sprintf("curve %q has a marker on each of its %d points: draw a dense curve as a line", a.Label, n))
		}
		if z := zerosInside(a); z > 0 {
			out = append(out, fmt.Sprintf("curve %q drops to exactly 0 at %d points between values far from 0: a missing value drawn as zero?", a.Label, z))
		}
	}
	return out
}

// apart reports whether two coinciding curves drawn in styles a (below)
// and b (on top) both show: a wider than b, or the two taking turns along
// one line (a shared group) with their markers side by side.
func apart(a, b curveStyle) bool {
	if a.Width > b.Width {
		return true
	}
	return a.Shared > 1 && a.Shared == b.Shared && a.Rank != b.Rank && a.Dx != b.Dx
}

// zerosInside counts the drawn points of c at exactly 0 that lie between
// non-zero points, on a curve whose non-zero values never come near 0:
// their smallest magnitude exceeds twice the largest step between
// consecutive non-zero points. The zeros are then a missing value (no
// path, no sample) written as 0 (leo-rtt's RTT without a path: 95 to
// 137 ms in steps of at most 24 ms, and 0), not values of the curve (a
// frame rate of 0, 1 or 2 frames per second). A count whose non-zero
// values are all 1 (frames shown in a second: 0 or 1) is not flagged
// either: 0 is the count one below them.
func zerosInside(c Curve) int {
	ps := drawnPoints(c)
	var nz []float64
	first, last := -1, -1
	for k, p := range ps {
		if p.Mean != 0 {
			nz = append(nz, p.Mean)
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if len(nz) < 2 {
		return 0
	}
	low, step := math.Inf(1), 0.0
	for k, v := range nz {
		low = math.Min(low, math.Abs(v))
		if k > 0 {
			step = math.Max(step, math.Abs(v-nz[k-1]))
		}
	}
	if !(low > 2*step) {
		return 0
	}
	if low == 1 && whole(nz) {
		return 0 // a count of 1 and 0: 0 is its next value, not a gap
	}
	n := 0
	for k := first + 1; k < last; k++ {
		if ps[k].Mean == 0 {
			n++
		}
	}
	return n
}

// whole reports whether every value of vs is a whole number.
func whole(vs []float64) bool {
	for _, v := range vs {
		if v != math.Trunc(v) {
			return false
		}
	}
	return true
}
