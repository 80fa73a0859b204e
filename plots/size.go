package plots

import (
	"fmt"
	"math"
	"regexp"
	"strconv"

	"gonum.org/v1/plot/vg"
)

// The default theme's page. Figures that set their own page size
// (Output.Width, Height) set it for this page; a theme of another size
// scales theirs in proportion (Theme.page).
const (
	defaultWidth  = 16 * vg.Centimeter
	defaultHeight = 10 * vg.Centimeter
)

// lengthUnits are the units ParseLength reads, in points each.
var lengthUnits = map[string]vg.Length{
	"cm": vg.Centimeter,
	"mm": vg.Millimeter,
	"in": vg.Inch,
	"pt": 1,
}

// lengthRE is a plain decimal number directly followed by a unit: no sign,
// no exponent, no space.
var lengthRE = regexp.MustCompile(`^([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(cm|mm|in|pt)$`)

// ParseLength reads a length on paper as an author writes it: a decimal
// number directly followed by cm, mm, in or pt ("8.5cm", "3.5in",
// "240pt"). It is stricter than gonum's font.ParseLength, which takes a
// bare number for points: "8.5" meant as centimetres would draw a figure
// of 8.5 pt, a third of a centimetre, without a word.
func ParseLength(s string) (vg.Length, error) {
	m := lengthRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("%q is not a length: want a number directly followed by cm, mm, in or pt", s)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil || v == 0 || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a length a figure can have: want more than 0", s)
	}
	return vg.Length(v) * lengthUnits[m[2]], nil
}

// Resized returns th on a w x h page. A zero w or h is taken from the
// other at th's aspect ratio, so that an author who sets only a journal
// column's width gets the figure's proportions; both zero keep th's page.
func (th Theme) Resized(w, h vg.Length) Theme {
	switch {
	case w == 0 && h == 0:
		return th
	case h == 0:
		h = w * th.Height / th.Width
	case w == 0:
		w = h * th.Width / th.Height
	}
	th.Width, th.Height = w, h
	return th
}

// WithFontSize returns th with its body text (labels, legend; ticks and
// table notes are a point smaller, as before) at size and its titles in
// the same ratio to it as in th (11 pt to 9 in the default theme), so
// that a figure set smaller or larger keeps its hierarchy of text.
func (th Theme) WithFontSize(size vg.Length) Theme {
	th.TitleSize = size * th.TitleSize / th.FontSize
	th.FontSize = size
	return th
}

// page returns the page out is drawn on in th: th's own when out sets
// none, else out's scaled by th's page against the default one, so that
// a figure of several panels designed wider than the default page stays
// as much wider on a page of another size. The default theme scales by
// exactly 1, leaving every default figure's bytes as they were.
func (th Theme) page(out *Output) (w, h vg.Length) {
	if out.Width == 0 || out.Height == 0 {
		return th.Width, th.Height
	}
	return out.Width * (th.Width / defaultWidth), out.Height * (th.Height / defaultHeight)
}
