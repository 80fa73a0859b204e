package plots

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"regexp"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Drawer is anything that draws itself onto a canvas: a *plot.Plot, a
// table, a plot with its legend beside it, a grid of aligned panels.
type Drawer interface {
	Draw(c draw.Canvas)
}

// Formats are the file formats every figure is written in.
var formats = [...]string{"png", "svg", "pdf"}

// Formats returns the file extensions every figure is written in.
func Formats() []string { return append([]string(nil), formats[:]...) }

// pdfDate is the creation and modification date written into every PDF.
// fpdf writes the wall clock and vgpdf does not let us set it; a fixed
// date makes the same figure the same bytes. Its value means nothing.
const pdfDate = "D:20000101000000"

var pdfDateRE = regexp.MustCompile(`/(CreationDate|ModDate) \(D:[0-9]{14}\)`)

// Render draws d on a w x h page and encodes it as format ("png", "svg" or
// "pdf"). The output is a function of d, the size and the theme only.
func Render(d Drawer, w, h vg.Length, format string, th Theme) ([]byte, error) {
	var buf bytes.Buffer
	switch format {
	case "svg":
		c := vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(th.EmbedFonts))
		d.Draw(draw.New(c))
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("plots: svg: %w", err)
		}
	case "pdf":
		c := vgpdf.New(w, h)
		c.EmbedFonts(th.EmbedFonts)
		d.Draw(draw.New(c))
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("plots: pdf: %w", err)
		}
		// The replacement has the same length as the wall-clock date, so
		// the cross-reference table's byte offsets stay right.
		b := pdfDateRE.ReplaceAllFunc(buf.Bytes(), func(m []byte) []byte {
			k := pdfDateRE.FindSubmatch(m)[1]
			return []byte("/" + string(k) + " (" + pdfDate + ")")
		})
		return b, nil
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(th.DPI))
		d.Draw(draw.New(c))
		if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("plots: png: %w", err)
		}
		return withResolution(buf.Bytes(), float64(th.DPI))
	default:
		return nil, fmt.Errorf("plots: unknown format %q (want png, svg or pdf)", format)
	}
	return buf.Bytes(), nil
}

// withResolution adds to a PNG the pHYs chunk that gives its resolution
// (PNG specification, 3rd edition, section 11.3.5.3: pixels per metre,
// unit 1), right after IHDR, as the chunk must come before IDAT. Without
// it, word processors and pdfLaTeX take 72 or 96 dpi and place a 16-cm
// figure drawn at 150 dpi some 25 to 33 cm wide.
func withResolution(png []byte, dpi float64) ([]byte, error) {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4 // signature, IHDR's length, type, data, CRC
	if len(png) < ihdrEnd || string(png[12:16]) != "IHDR" {
		return nil, fmt.Errorf("plots: png: no IHDR chunk where the encoder puts it")
	}
	ppm := uint32(math.Round(dpi / 0.0254))
	chunk := make([]byte, 0, 4+4+9+4)
	chunk = binary.BigEndian.AppendUint32(chunk, 9)
	chunk = append(chunk, "pHYs"...)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = append(chunk, 1) // the unit is the metre
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := make([]byte, 0, len(png)+len(chunk))
	out = append(out, png[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, png[ihdrEnd:]...), nil
}
