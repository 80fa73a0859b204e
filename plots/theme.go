package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Theme is the look every figure shares: size, font, colours, markers and
// dashes. One theme for all figures keeps them consistent side by side.
type Theme struct {
	// Width and Height are the page of a figure; figures that set their
	// own page (Output.Width, Height) scale it by these against the
	// default 16 x 10 cm (Resized sets both at once).
	Width, Height vg.Length
	DPI           int // PNG resolution, recorded in its pHYs chunk

	// Font is the one typeface of every text. It must stay a single face:
	// vgpdf writes font objects in map order, so two faces would make PDF
	// bytes differ between runs.
	Font      font.Font
	FontSize  vg.Length // ticks, legend, labels
	TitleSize vg.Length

	Colors []color.Color      // curve i uses Colors[i%len]
	Glyphs []draw.GlyphDrawer // curve i uses Glyphs[i%len]
	Dashes [][]vg.Length      // curve i uses Dashes[i%len]
	Line   vg.Length          // curve line width
	Glyph  vg.Length          // marker radius
	Band   uint8              // alpha of confidence bands (0..255)

	// EmbedFonts embeds the font in SVG and PDF output so a figure looks the
	// same on machines without Liberation installed.
	EmbedFonts bool
}

// OkabeIto is the colour-blind-safe palette of Okabe and Ito, "Color
// Universal Design" (2008), ordered so the first colours are the most
// distinct on white; yellow comes last because it is faint on white paper.
var okabeIto = [...]color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x00, 0x00, 0xFF}, // black
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
}

// OkabeIto returns the Okabe-Ito palette.
func OkabeIto() []color.Color {
	cs := make([]color.Color, len(okabeIto))
	for i, c := range okabeIto {
		cs[i] = c
	}
	return cs
}

// DefaultTheme returns the theme of crosslink's figures: 16 cm x 10 cm,
// Liberation Serif (gonum/plot's bundled default, so no system font is
// read), Okabe-Ito colours, and a marker and dash pattern per curve so
// curves stay apart in grey-scale print too.
func DefaultTheme() Theme {
	return Theme{
		Width:     defaultWidth,
		Height:    defaultHeight,
		DPI:       150,
		Font:      plot.DefaultFont,
		FontSize:  9,
		TitleSize: 11,
		Colors:    OkabeIto(),
		Glyphs: []draw.GlyphDrawer{
			draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
			draw.CrossGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{},
			draw.PyramidGlyph{}, draw.PlusGlyph{},
		},
		Dashes: [][]vg.Length{
			nil,
			{vg.Points(6), vg.Points(2)},
			{vg.Points(2), vg.Points(2)},
			{vg.Points(6), vg.Points(2), vg.Points(2), vg.Points(2)},
			{vg.Points(10), vg.Points(3)},
			{vg.Points(3), vg.Points(1), vg.Points(1), vg.Points(1)},
		},
		Line:       vg.Points(1.2),
		Glyph:      vg.Points(2.5),
		Band:       0x40,
		EmbedFonts: true,
	}
}

// style returns the colour, marker and dash of curve i. The marker
// moves on by one each time the colours start over, so that no two of the
// first len(Colors) x len(Glyphs) curves share a colour and a marker: a
// legend tells them apart by those two (a dash is hard to read in a short
// legend sample).
func (th Theme) style(i int) (color.Color, draw.GlyphDrawer, []vg.Length) {
	g := (i + i/len(th.Colors)) % len(th.Glyphs)
	return th.Colors[i%len(th.Colors)], th.Glyphs[g], th.Dashes[i%len(th.Dashes)]
}

// textStyle returns a text style in the theme's font at size.
func (th Theme) textStyle(size vg.Length) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(th.Font, size),
		Handler: plot.DefaultTextHandler,
	}
}

// newPlot returns a gonum plot with every text in the theme's font.
func (th Theme) newPlot() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle.Font = font.From(th.Font, th.TitleSize)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Tick.Marker = linear{}
		ax.Label.TextStyle.Font = font.From(th.Font, th.FontSize)
		ax.Tick.Label.Font = font.From(th.Font, th.FontSize-1)
	}
	p.Legend.TextStyle.Font = font.From(th.Font, th.FontSize)
	return p
}
