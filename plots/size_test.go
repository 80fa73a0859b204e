package plots

import (
	"bytes"
	"encoding/binary"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/crosslink-sim/crosslink/sweep/units"
)

// TestParseLength: a length is a decimal number directly followed by cm,
// mm, in or pt. 1 in = 72 pt (PostScript point) = 2.54 cm, so 8.5 cm is
// 8.5 x 72 / 2.54 = 240.945 pt and 3.5 in is 252 pt. Anything else is
// refused, above all a bare number, which gonum's parser would take for
// points.
func TestParseLength(t *testing.T) {
	const notLength = "want a number directly followed by cm, mm, in or pt"
	for _, tt := range []struct {
		in      string
		want    float64 // points
		wantErr string
	}{
		{in: "8.5cm", want: 8.5 * 72 / 2.54},
		{in: "85mm", want: 8.5 * 72 / 2.54},
		{in: "3.5in", want: 252},
		{in: "240pt", want: 240},
		{in: ".5in", want: 36},
		{in: "8.5", wantErr: `"8.5" is not a length: ` + notLength},
		{in: "8.5 cm", wantErr: `"8.5 cm" is not a length: ` + notLength},
		{in: "8,5cm", wantErr: `"8,5cm" is not a length: ` + notLength},
		{in: "-8.5cm", wantErr: `"-8.5cm" is not a length: ` + notLength},
		{in: "+8cm", wantErr: `"+8cm" is not a length: ` + notLength},
		{in: "1e2pt", wantErr: `"1e2pt" is not a length: ` + notLength},
		{in: "8.5CM", wantErr: `"8.5CM" is not a length: ` + notLength},
		{in: "240px", wantErr: `"240px" is not a length: ` + notLength},
		{in: "cm", wantErr: `"cm" is not a length: ` + notLength},
		{in: "", wantErr: `"" is not a length: ` + notLength},
		{in: "0cm", wantErr: `"0cm" is not a length a figure can have: want more than 0`},
		{in: "0.000mm", wantErr: `"0.000mm" is not a length a figure can have: want more than 0`},
		{in: strings.Repeat("9", 400) + "in", wantErr: "is not a length a figure can have"},
	} {
		got, err := ParseLength(tt.in)
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("ParseLength(%q) = %v, %v; want the error %q", tt.in, got, err, tt.wantErr)
		case tt.wantErr == "" && (err != nil || math.Abs(float64(got)-tt.want) > 1e-9):
			t.Errorf("ParseLength(%q) = %v pt, %v; want %v pt", tt.in, float64(got), err, tt.want)
		}
	}
}

// FuzzParseLength: whatever the input, ParseLength does not panic, and a
// length it accepts is a finite size above zero.
func FuzzParseLength(f *testing.F) {
	for _, s := range []string{"8.5cm", "3.5in", "240pt", "85mm", "8.5", "0cm", ".in", "1e9in"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLength(s)
		if err == nil && !(l > 0 && !math.IsInf(float64(l), 0)) {
			t.Errorf("ParseLength(%q) = %v, accepted", s, float64(l))
		}
	})
}

// TestResized: a width alone keeps the default aspect 10/16 (8.5 cm wide
// is 8.5 x 10/16 = 5.3125 cm high), a height alone likewise (5 cm high is
// 8 cm wide), both set both, neither leaves the 16 x 10 cm page.
func TestResized(t *testing.T) {
	cm := func(l vg.Length) float64 { return float64(l / vg.Centimeter) }
	for _, tt := range []struct {
		w, h         vg.Length
		wantW, wantH float64 // cm
	}{
		{8.5 * vg.Centimeter, 0, 8.5, 5.3125},
		{0, 5 * vg.Centimeter, 8, 5},
		{12 * vg.Centimeter, 3 * vg.Inch, 12, 7.62},
		{0, 0, 16, 10},
	} {
		th := DefaultTheme().Resized(tt.w, tt.h)
		if math.Abs(cm(th.Width)-tt.wantW) > 1e-9 || math.Abs(cm(th.Height)-tt.wantH) > 1e-9 {
			t.Errorf("Resized(%.4g cm, %.4g cm) = %.6g x %.6g cm, want %g x %g", cm(tt.w), cm(tt.h), cm(th.Width), cm(th.Height), tt.wantW, tt.wantH)
		}
	}
}

// TestWithFontSize: titles keep the default theme's 11 to 9 to the body
// text, so 7-pt text has 7 x 11/9 = 8.556-pt titles; 9 pt gives the
// default theme's 11 pt exactly.
func TestWithFontSize(t *testing.T) {
	for _, tt := range []struct{ size, title vg.Length }{{7, 7 * 11.0 / 9}, {9, 11}, {12, 12 * 11.0 / 9}} {
		th := DefaultTheme().WithFontSize(tt.size)
		if th.FontSize != tt.size || math.Abs(float64(th.TitleSize-tt.title)) > 1e-9 {
			t.Errorf("WithFontSize(%v): body %v pt, titles %v pt; want %v and %v", tt.size, th.FontSize, th.TitleSize, tt.size, tt.title)
		}
	}
}

// TestPageScales: a figure that sets its own page (os-compete's 18 x 10
// cm, rc13-tab3's 32 x 13 cm) is drawn on a page scaled by the theme's
// against the default 16 x 10 cm, so an 8.5-cm theme (5.3125 cm high)
// draws them 18 x 8.5/16 = 9.5625 by 5.3125 cm and 17 by 6.90625 cm; in
// the default theme the page is the figure's own, bit for bit, which keeps
// the default figures' bytes.
func TestPageScales(t *testing.T) {
	small := DefaultTheme().Resized(8.5*vg.Centimeter, 0)
	for _, tt := range []struct {
		th           Theme
		out          Output
		wantW, wantH vg.Length
		exact        bool
	}{
		{small, Output{Width: 18 * vg.Centimeter, Height: 10 * vg.Centimeter}, 9.5625 * vg.Centimeter, 5.3125 * vg.Centimeter, false},
		{small, Output{Width: 32 * vg.Centimeter, Height: 13 * vg.Centimeter}, 17 * vg.Centimeter, 6.90625 * vg.Centimeter, false},
		{small, Output{}, small.Width, small.Height, true},
		{DefaultTheme(), Output{Width: 18 * vg.Centimeter, Height: 10 * vg.Centimeter}, 18 * vg.Centimeter, 10 * vg.Centimeter, true},
		{DefaultTheme(), Output{Width: 32 * vg.Centimeter, Height: 13 * vg.Centimeter}, 32 * vg.Centimeter, 13 * vg.Centimeter, true},
	} {
		w, h := tt.th.page(&tt.out)
		near := math.Abs(float64(w-tt.wantW)) < 1e-9 && math.Abs(float64(h-tt.wantH)) < 1e-9
		if tt.exact && (w != tt.wantW || h != tt.wantH) || !near {
			t.Errorf("page of a %v x %v pt figure in a %v x %v pt theme = %v x %v pt, want %v x %v (exactly: %v)",
				tt.out.Width, tt.out.Height, tt.th.Width, tt.th.Height, w, h, tt.wantW, tt.wantH, tt.exact)
		}
	}
}

// TestSizedFigure draws rc13-fig6's kind of figure as a journal column
// asks: 8.5 cm wide (240.94 pt as vgsvg prints it, to five digits; the
// height 5.3125 cm is 150.59 pt), 7-pt text (ticks 6 pt, title 8.5556 pt),
// and its PNG at 300 dpi: 8.5 / 2.54 x 300 = 1003.9, so 1004 pixels wide,
// with a pHYs of 300 / 0.0254 = 11811 pixels per metre.
func TestSizedFigure(t *testing.T) {
	th := DefaultTheme().Resized(8.5*vg.Centimeter, 0).WithFontSize(7)
	th.DPI = 300
	in := Input{Def: fig6Def, Schema: testSchema(), Theme: th, Scale: units.Scale}
	out, err := Line(in, testFrame(t, berRows()))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, "fig", out, th); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "fig.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<svg width="240.94pt" height="150.59pt"`, `font-size:7px"`, `font-size:6px"`, `font-size:8.5556px"`} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG at 8.5 cm and 7 pt has no %s", want)
		}
	}
	if bytes.Contains(svg, []byte(`font-size:9px"`)) || bytes.Contains(svg, []byte(`font-size:11px"`)) {
		t.Errorf("SVG at 7 pt still has text at the default 9 or 11 pt")
	}
	b, err := os.ReadFile(filepath.Join(dir, "fig.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != 1004 || h != 627 {
		t.Errorf("PNG at 8.5 cm and 300 dpi is %d x %d pixels, want 1004 x 627 (5.3125 cm at 300 dpi is 627.46 pixels)", w, h)
	}
	if ppm, ok := pngPHYs(b); !ok || ppm != 11811 {
		t.Errorf("PNG at 300 dpi: pHYs %d pixels per metre (found %v), want 11811", ppm, ok)
	}
}

// pngPHYs returns the horizontal pixels per metre of a PNG's pHYs chunk.
func pngPHYs(b []byte) (uint32, bool) {
	for p := 8; p+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[p:]))
		if string(b[p+4:p+8]) == "pHYs" && p+8+n <= len(b) && b[p+8+8] == 1 {
			return binary.BigEndian.Uint32(b[p+8:]), true
		}
		p += 12 + n
	}
	return 0, false
}
