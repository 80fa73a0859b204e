package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/crosslink-sim/crosslink/plots"
)

// lookFlags are the size, font size and resolution of the figures, which
// an author sets to a journal's column and type (plot and figures share
// them). A flag not given keeps the default theme's, so that figures
// drawn without any are the same bytes as before the flags existed.
type lookFlags struct {
	width    lengthFlag
	height   lengthFlag
	fontSize fontSizeFlag
	dpi      dpiFlag
}

// register adds --width, --height, --font-size and --dpi to c.
func (l *lookFlags) register(c *cobra.Command) {
	l.width.example, l.height.example = "--width 8.5cm", "--height 5.3cm"
	c.Flags().Var(&l.width, "width", "page width of the figures: a number and cm, mm, in or pt, e.g. 8.5cm (default 16cm; figures of several panels in proportion; without --height, the height keeps the aspect 10/16)")
	c.Flags().Var(&l.height, "height", "page height of the figures, e.g. 5.3cm (default 10cm)")
	c.Flags().Var(&l.fontSize, "font-size", "size in points of the figures' text (default 9; titles keep their ratio to it, 11/9)")
	c.Flags().Var(&l.dpi, "dpi", "resolution of the PNGs, 72 to 1200, recorded in them (default 150)")
}

// maxPixels bounds the PNG of the theme's page: the default page at the
// highest --dpi, 1200, is 7559 x 4724 pixels (35.7 million, 143 MB to
// draw), and a figure of several panels up to twice that. A mistyped
// size (85in for 8.5cm) would otherwise be drawn until memory runs out.
const maxPixels = 40e6

// theme returns the default theme with the flags given applied, or an
// error when the PNG of that page and resolution would be too large to
// draw.
func (l *lookFlags) theme() (plots.Theme, error) {
	th := plots.DefaultTheme().Resized(l.width.v, l.height.v)
	if l.fontSize.v != 0 {
		th = th.WithFontSize(l.fontSize.v)
	}
	if l.dpi.v != 0 {
		th.DPI = l.dpi.v
	}
	w, h := pngPixels(th)
	if w*h > maxPixels {
		return th, fmt.Errorf("a figure of %s x %s at %d dpi is a PNG of %.0f x %.0f pixels, more than the %.0f million crosslink draws: lower --dpi or the size (the SVG and PDF do not depend on --dpi)",
			cm(th.Width), cm(th.Height), th.DPI, w, h, maxPixels/1e6)
	}
	return th, nil
}

// pngPixels is the size in pixels of th's page at th's DPI, in floats so
// that an absurd size cannot overflow an int before it is refused.
func pngPixels(th plots.Theme) (w, h float64) {
	return float64(th.Width/vg.Inch) * float64(th.DPI), float64(th.Height/vg.Inch) * float64(th.DPI)
}

// cm formats l in centimetres, the unit of the default page.
func cm(l vg.Length) string {
	return strconv.FormatFloat(float64(l/vg.Centimeter), 'g', 4, 64) + " cm"
}

// lengthFlag is --width or --height: a length as plots.ParseLength reads
// it, zero when the flag is not given.
type lengthFlag struct {
	example string // the flag with a good value, for the error
	s       string
	v       vg.Length
}

// Set parses s, naming a good value when it is not one.
func (f *lengthFlag) Set(s string) error {
	v, err := plots.ParseLength(s)
	if err != nil {
		return fmt.Errorf("%w, as in %s", err, f.example)
	}
	f.s, f.v = s, v
	return nil
}

// String is the value as given ("" when not given, so help prints the
// default its text names).
func (f *lengthFlag) String() string { return f.s }

// Type names the value in the help: --width LENGTH.
func (f *lengthFlag) Type() string { return "LENGTH" }

// The range of --font-size. The smallest texts are 3 pt below the body's
// (rc13-fig2's cell labels), so 4 pt is the least that leaves them a
// size; 72 pt, an inch-high letter, is more than a poster needs.
const minFontSize, maxFontSize = 4, 72

// fontSizeFlag is --font-size: points, as a bare number or with "pt".
type fontSizeFlag struct {
	s string
	v vg.Length
}

// Set parses s, naming the range when it is not in it.
func (f *fontSizeFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "pt"), 64)
	if err != nil || !(v >= minFontSize && v <= maxFontSize) {
		return fmt.Errorf("%q is not a font size: want points from %d to %d (tick labels are 1 pt and some labels 3 pt smaller), as in --font-size 8", s, minFontSize, maxFontSize)
	}
	f.s, f.v = s, vg.Length(v)
	return nil
}

// String is the value as given ("" when not given).
func (f *fontSizeFlag) String() string { return f.s }

// Type names the value in the help: --font-size PT.
func (f *fontSizeFlag) Type() string { return "PT" }

// The range of --dpi: 72 is the screen resolution word processors assume
// of a PNG without one, 1200 that of line art for print, and more only
// makes the PNG larger than a printer resolves.
const minDPI, maxDPI = 72, 1200

// dpiFlag is --dpi: a whole number of dots per inch.
type dpiFlag struct {
	s string
	v int
}

// Set parses s, naming the range when it is not in it.
func (f *dpiFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil || v < minDPI || v > maxDPI {
		return fmt.Errorf("%q is not a resolution: want whole dots per inch from %d to %d, as in --dpi 300", s, minDPI, maxDPI)
	}
	f.s, f.v = s, v
	return nil
}

// String is the value as given ("" when not given).
func (f *dpiFlag) String() string { return f.s }

// Type names the value in the help: --dpi N.
func (f *dpiFlag) Type() string { return "N" }
