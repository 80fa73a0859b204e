package plots

import (
	"bytes"
	"encoding/binary"
	"image/png"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// TestPNGResolution: a PNG says the resolution it was drawn at (a pHYs
// chunk before the image data, in pixels per metre), so that a word
// processor places it at the theme's size; and it still decodes (Go's
// decoder checks every chunk's CRC). 150 dpi is 5905.5 pixels per metre,
// 5906 rounded; 300 dpi 11811.
func TestPNGResolution(t *testing.T) {
	for _, tc := range []struct {
		dpi  int
		want uint32
	}{{150, 5906}, {300, 11811}, {72, 2835}} {
		th := DefaultTheme()
		th.DPI = tc.dpi
		b, err := Render(plot.New(), th.Width, th.Height, "png", th)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%d dpi: the PNG does not decode: %v", tc.dpi, err)
		}
		if w := img.Bounds().Dx(); w != int(float64(th.Width/vg.Inch)*float64(tc.dpi)+0.5) {
			t.Errorf("%d dpi: %d pixels wide, want the theme's %.1f in at %d dpi", tc.dpi, w, float64(th.Width/vg.Inch), tc.dpi)
		}
		var seen []string
		found := false
		for p := 8; p+8 <= len(b); {
			n := int(binary.BigEndian.Uint32(b[p:]))
			typ := string(b[p+4 : p+8])
			seen = append(seen, typ)
			if typ == "pHYs" {
				found = true
				data := b[p+8 : p+8+n]
				x, y, unit := binary.BigEndian.Uint32(data), binary.BigEndian.Uint32(data[4:]), data[8]
				if x != tc.want || y != tc.want || unit != 1 {
					t.Errorf("%d dpi: pHYs %d x %d per unit %d, want %d per metre (unit 1)", tc.dpi, x, y, unit, tc.want)
				}
			}
			if typ == "IDAT" && !found {
				t.Errorf("%d dpi: chunks %v: pHYs must come before the image data", tc.dpi, seen)
				break
			}
			p += 12 + n
		}
		if !found {
			t.Errorf("%d dpi: chunks %v, no pHYs", tc.dpi, seen)
		}
	}
}
