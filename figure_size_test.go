package main

import (
	"bytes"
	"encoding/binary"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotSize draws the starter figure of fso-ber with plot's and
// figures' size flags, each step on the figures the step before left:
//
//   - the defaults given as flags (16 cm x 10 cm, 9 pt, 150 dpi) draw the
//     same bytes as no flag, every file: the flags change nothing unless
//     they change a value;
//   - --width 8.5cm --font-size 7 --dpi 300 draws an SVG 240.94 pt wide
//     (8.5 x 72 / 2.54 = 240.945, five digits as vgsvg prints) with 7-pt
//     text and no 9-pt text, and a PNG 8.5 / 2.54 x 300 = 1003.9, so 1004,
//     pixels wide whose pHYs says 300 / 0.0254 = 11811 pixels per metre;
//     its sidecar is the default one's, byte for byte, as it names the
//     rows drawn (a size is not data), so report does not take it for
//     stale;
//   - figures redraws every figure at the size it is given even when
//     no scenario is left to run;
//   - plot without flags draws the default bytes again: nothing of a
//     size is kept between runs.
func TestPlotSize(t *testing.T) {
	_, specs, out := ownStudy(t)
	figs := filepath.Join(out, "figures")
	base := readFigures(t, figs)
	column := []string{"--width", "8.5cm", "--font-size", "7", "--dpi", "300"}
	for _, tt := range []struct {
		args        []string
		same        bool // every file as the default drawing's
		svgWidth    string
		font, not   string // a text size the SVG has, one it must not have
		pngWidth    int
		pngPHYs     uint32
		sameSidecar bool
	}{
		{args: []string{"plot", "--width", "16cm", "--height", "10cm", "--font-size", "9", "--dpi", "150"}, same: true},
		{args: append([]string{"plot"}, column...), svgWidth: `<svg width="240.94pt"`, font: `font-size:7px"`, not: `font-size:9px"`, pngWidth: 1004, pngPHYs: 11811, sameSidecar: true},
		{args: append([]string{"figures", "-q"}, column...), svgWidth: `<svg width="240.94pt"`, font: `font-size:7px"`, not: `font-size:9px"`, pngWidth: 1004, pngPHYs: 11811, sameSidecar: true},
		{args: []string{"plot"}, same: true},
	} {
		args := append(tt.args, "--specs", specs, "-o", out)
		if code, _, stderr := crosslink(t, args...); code != exitOK {
			t.Fatalf("crosslink %q: exit %d: %s", args, code, stderr)
		}
		got := readFigures(t, figs)
		if tt.same {
			for name, b := range base {
				if !bytes.Equal(got[name], b) {
					t.Errorf("%q: %s differs from the drawing without flags", tt.args, name)
				}
			}
			continue
		}
		svg := got["first-example.svg"]
		if !bytes.Contains(svg, []byte(tt.svgWidth)) || !bytes.Contains(svg, []byte(tt.font)) || bytes.Contains(svg, []byte(tt.not)) {
			t.Errorf("%q: SVG starts %q; want %s, text %s and none %s", tt.args, svg[:min(len(svg), 120)], tt.svgWidth, tt.font, tt.not)
		}
		img, err := png.Decode(bytes.NewReader(got["first-example.png"]))
		if err != nil {
			t.Fatalf("%q: the PNG does not decode: %v", tt.args, err)
		}
		if w := img.Bounds().Dx(); w != tt.pngWidth {
			t.Errorf("%q: PNG %d pixels wide, want %d", tt.args, w, tt.pngWidth)
		}
		if ppm := pHYs(got["first-example.png"]); ppm != tt.pngPHYs {
			t.Errorf("%q: PNG pHYs %d pixels per metre, want %d", tt.args, ppm, tt.pngPHYs)
		}
		if tt.sameSidecar && !bytes.Equal(got["first-example.json"], base["first-example.json"]) {
			t.Errorf("%q: sidecar\n%s\ndiffers from the default drawing's\n%s", tt.args, got["first-example.json"], base["first-example.json"])
		}
		code, _, stderr := crosslink(t, "report", "--specs", specs, "-o", out, "--strict")
		if code != exitOK || strings.Contains(stderr, "drawn from other rows") {
			t.Errorf("report after %q: exit %d, stderr %q; want 0, the figure not stale", tt.args, code, stderr)
		}
	}
}

// readFigures returns the figure files of dir (images, data, sidecars) by
// name; the report's own files are left out, as report rewrites them.
func readFigures(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "first-example.*"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no figure in %s (%v)", dir, err)
	}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = b
	}
	return files
}

// pHYs returns the horizontal pixels per metre of a PNG's pHYs chunk, 0
// when it has none.
func pHYs(b []byte) uint32 {
	for p := 8; p+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[p:]))
		if string(b[p+4:p+8]) == "pHYs" && p+8+4 <= len(b) {
			return binary.BigEndian.Uint32(b[p+8:])
		}
		p += 12 + n
	}
	return 0
}
