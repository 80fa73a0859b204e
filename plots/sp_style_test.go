package plots

import (
	"image/color"
	"math"
	"testing"
)

// luma is the Rec. 601 grey level (0..255) a colour prints as in
// grey-scale.
func luma(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 257
}

// TestSPStylesGreyscale checks that the GEO and MEO series of the sp
// figures stay apart in grey-scale print: their colours differ in grey
// level by at least a fifth of the range (a step readers tell apart in
// print; the former blue and red differed by 2 %), and every (orbit,
// option) series of a figure with two options has its own glyph and dash.
func TestSPStylesGreyscale(t *testing.T) {
	if d := math.Abs(luma(spColours[0]) - luma(spColours[1])); d < 255/5 {
		t.Errorf("GEO and MEO colours differ by %.0f grey levels of 255, want at least 51", d)
	}
	glyphs, dashes := map[int]bool{}, map[int]bool{}
	for o := 0; o < 2; o++ {
		for k := 0; k < 2; k++ {
			i := spStyle([2]int{o, k})
			if glyphs[i%len(spGlyphs)] || dashes[i%len(spDashes)] {
				t.Errorf("series (orbit %d, option %d) shares its glyph or dash with another", o, k)
			}
			glyphs[i%len(spGlyphs)], dashes[i%len(spDashes)] = true, true
		}
	}
}

// TestSPPanelLabels checks the axis label of each metric the sp specs
// plot: a metric with no case of its own would be labelled with its bare
// column name.
func TestSPPanelLabels(t *testing.T) {
	tests := []struct{ y, want string }{
		{"payload_loss", "payload lost at the satellite input (%)"},
		{"residual_loss", "payload lost to TCP after decoding (%)"},
		{"coding_overhead", "parity over data bytes into the queue (%)"},
		{"queue_mean", "satellite input queue, mean (kB)"},
	}
	for _, tc := range tests {
		if got := spPanels([]string{tc.y})[0].label; got != tc.want {
			t.Errorf("spPanels(%q) label = %q, want %q", tc.y, got, tc.want)
		}
	}
}
