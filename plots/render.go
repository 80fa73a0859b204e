package plots

import (
	"bytes"
	"fmt"
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
	default:
		return nil, fmt.Errorf("plots: unknown format %q (want png, svg or pdf)", format)
	}
	return buf.Bytes(), nil
}
