package cli

import (
	"math"
	"reflect"
	"testing"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/crosslink-sim/crosslink/plots"
)

// TestLookFlags parses --width, --height, --font-size and --dpi as plot
// and figures register them. No flag leaves the default theme as it is,
// every field (16 x 10 cm, 9 and 11 pt, 150 dpi), so its figures keep
// their bytes; a width alone keeps the aspect 10/16 (8.5 cm: 5.3125 cm
// high); 3.5 in is 252 pt; 7-pt text gets 7 x 11/9 = 8.5556-pt titles.
// Each refusal names the flag (pflag's "invalid argument ... for" prefix)
// and a good value; a page whose PNG would be too large to draw is refused
// by theme, naming its pixels: 85 in x 53.125 in at 1200 dpi is 102000 x
// 63750.
func TestLookFlags(t *testing.T) {
	def := plots.DefaultTheme()
	type look struct {
		w, h, font, title vg.Length
		dpi               int
	}
	for _, tt := range []struct {
		args    []string
		want    look
		wantErr string
	}{
		{args: nil, want: look{def.Width, def.Height, 9, 11, 150}},
		{args: []string{"--width", "8.5cm"}, want: look{8.5 * vg.Centimeter, 5.3125 * vg.Centimeter, 9, 11, 150}},
		{args: []string{"--width", "3.5in", "--height", "240pt"}, want: look{252, 240, 9, 11, 150}},
		{args: []string{"--height", "5cm"}, want: look{8 * vg.Centimeter, 5 * vg.Centimeter, 9, 11, 150}},
		{args: []string{"--font-size", "7"}, want: look{def.Width, def.Height, 7, 7 * 11.0 / 9, 150}},
		{args: []string{"--font-size", "8pt", "--dpi", "300"}, want: look{def.Width, def.Height, 8, 8 * 11.0 / 9, 300}},
		{args: []string{"--dpi", "72"}, want: look{def.Width, def.Height, 9, 11, 72}},
		{args: []string{"--dpi", "1200"}, want: look{def.Width, def.Height, 9, 11, 1200}},
		{args: []string{"--width", "8.5"},
			wantErr: `invalid argument "8.5" for "--width" flag: "8.5" is not a length: want a number directly followed by cm, mm, in or pt, as in --width 8.5cm`},
		{args: []string{"--width", "240px"},
			wantErr: `invalid argument "240px" for "--width" flag: "240px" is not a length: want a number directly followed by cm, mm, in or pt, as in --width 8.5cm`},
		{args: []string{"--height", "5,3cm"},
			wantErr: `invalid argument "5,3cm" for "--height" flag: "5,3cm" is not a length: want a number directly followed by cm, mm, in or pt, as in --height 5.3cm`},
		{args: []string{"--height", "0mm"},
			wantErr: `invalid argument "0mm" for "--height" flag: "0mm" is not a length a figure can have: want more than 0, as in --height 5.3cm`},
		{args: []string{"--font-size", "3"},
			wantErr: `invalid argument "3" for "--font-size" flag: "3" is not a font size: want points from 4 to 72 (tick labels are 1 pt and some labels 3 pt smaller), as in --font-size 8`},
		{args: []string{"--font-size", "small"},
			wantErr: `invalid argument "small" for "--font-size" flag: "small" is not a font size: want points from 4 to 72 (tick labels are 1 pt and some labels 3 pt smaller), as in --font-size 8`},
		{args: []string{"--font-size", "NaN"},
			wantErr: `invalid argument "NaN" for "--font-size" flag: "NaN" is not a font size: want points from 4 to 72 (tick labels are 1 pt and some labels 3 pt smaller), as in --font-size 8`},
		{args: []string{"--dpi", "71"},
			wantErr: `invalid argument "71" for "--dpi" flag: "71" is not a resolution: want whole dots per inch from 72 to 1200, as in --dpi 300`},
		{args: []string{"--dpi", "300dpi"},
			wantErr: `invalid argument "300dpi" for "--dpi" flag: "300dpi" is not a resolution: want whole dots per inch from 72 to 1200, as in --dpi 300`},
		{args: []string{"--width", "85in", "--dpi", "1200"},
			wantErr: `a figure of 215.9 cm x 134.9 cm at 1200 dpi is a PNG of 102000 x 63750 pixels, more than the 40 million crosslink draws: lower --dpi or the size (the SVG and PDF do not depend on --dpi)`},
	} {
		var l lookFlags
		c := &cobra.Command{}
		l.register(c)
		err := c.ParseFlags(tt.args)
		var th plots.Theme
		if err == nil {
			th, err = l.theme()
		}
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%q: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		if tt.args == nil && !reflect.DeepEqual(th, def) {
			t.Errorf("no flag: theme %+v, want the default theme unchanged (its figures' bytes as before)", th)
		}
		got := look{th.Width, th.Height, th.FontSize, th.TitleSize, th.DPI}
		near := func(a, b vg.Length) bool { return math.Abs(float64(a-b)) < 1e-9 }
		if !near(got.w, tt.want.w) || !near(got.h, tt.want.h) || !near(got.font, tt.want.font) || !near(got.title, tt.want.title) || got.dpi != tt.want.dpi {
			t.Errorf("%q: theme %v x %v pt, text %v pt, titles %v pt, %d dpi; want %+v", tt.args, got.w, got.h, got.font, got.title, got.dpi, tt.want)
		}
	}
}
