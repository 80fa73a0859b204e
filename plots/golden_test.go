package plots

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/internal/golden"
	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenFile compares got with testdata/name byte for byte, or rewrites
// it with -update.
func goldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got, *update)
}

// fig6Def is a spec entry like rc13-fig6's: BER vs distance, one curve per
// detection and bit rate, log y.
var fig6Def = Def{
	ID: "rc13-fig6", Title: "BER vs distance", X: "distance", XUnit: "km",
	Y: []string{"ber"}, Series: []string{"detection", "bit_rate"}, LogY: true,
}

// replicatedDef draws a curve with five noisy replicates per point, to show
// the confidence band.
var replicatedDef = Def{ID: "band", Title: "Replicates", X: "distance", XUnit: "km", Y: []string{"one_way_delay"}, YUnit: "ms", Series: []string{"detection"}}

func replicatedRows() []row {
	var rows []row
	noise := []float64{-2, -1, 0, 1, 2}
	for _, det := range []string{"direct", "coherent"} {
		for _, km := range []float64{1000, 2000, 3000, 4000} {
			for r, e := range noise {
				base := km / 300
				if det == "coherent" {
					base += 4
				}
				rows = append(rows, row{rep: int64(r), distance: km * 1000, bitRate: 1e9, detection: det, mtu: 1500,
					delay: (base + e*km/4000) * 1e-3})
			}
		}
	}
	return rows
}

// drawTest draws def with Line from rows, or from f when rows is nil.
func drawTest(t *testing.T, def Def, rows []row, f ...*Frame) *Output {
	t.Helper()
	in := Input{Def: def, Schema: testSchema(), Theme: DefaultTheme(), Scale: units.Scale}
	fr := f
	if rows != nil || len(fr) == 0 {
		fr = []*Frame{testFrame(t, rows)}
	}
	out, err := Line(in, fr[0])
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGoldenSVG renders fixed datasets to SVG without embedded fonts (so
// the golden files stay small and their diffs readable) and compares them
// byte for byte.
func TestGoldenSVG(t *testing.T) {
	th := DefaultTheme()
	th.EmbedFonts = false
	tests := []struct {
		name string
		def  Def
		rows []row
	}{
		{"rc13-fig6", fig6Def, berRows()},
		{"band", replicatedDef, replicatedRows()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := drawTest(t, tt.def, tt.rows)
			b, err := Render(out.Art, th.Width, th.Height, "svg", th)
			if err != nil {
				t.Fatal(err)
			}
			goldenFile(t, tt.name+".golden.svg", b)
			var csv bytes.Buffer
			if err := out.Data.WriteCSV(&csv); err != nil {
				t.Fatal(err)
			}
			goldenFile(t, tt.name+".golden.csv", csv.Bytes())
		})
	}
}

// TestDeterministic renders every format twice, with embedded fonts as
// Draw writes them, and wants identical bytes: no wall clock in the PDF,
// no map order anywhere.
func TestDeterministic(t *testing.T) {
	th := DefaultTheme()
	for _, f := range Formats() {
		t.Run(f, func(t *testing.T) {
			var prev []byte
			for i := 0; i < 2; i++ {
				out := drawTest(t, fig6Def, berRows())
				b, err := Render(out.Art, th.Width, th.Height, f, th)
				if err != nil {
					t.Fatal(err)
				}
				if i == 1 && !bytes.Equal(b, prev) {
					t.Errorf("Render(%s) differs between two runs (%d and %d bytes)", f, len(prev), len(b))
				}
				prev = b
			}
			if f == "pdf" && !bytes.Contains(prev, []byte("/CreationDate ("+pdfDate+")")) {
				t.Errorf("pdf: no fixed /CreationDate %s", pdfDate)
			}
			if f == "svg" && !bytes.Contains(prev, []byte("@font-face")) {
				t.Errorf("svg: font not embedded")
			}
		})
	}
}

func TestRC13Tab2(t *testing.T) {
	// Our delays are distance / c with c = 299 792 458 m/s (SI definition
	// of the metre); the document's are distance / 3e8 to four decimals.
	var rows []row
	for _, km := range []float64{16000, 25000, 50000, 80000} {
		for _, rate := range []float64{1e9, 4e9} {
			rows = append(rows, row{distance: km * 1000, bitRate: rate, detection: "direct", mtu: 1500, delay: km * 1000 / 299792458})
		}
	}
	src := memSource("rc13-tab2", testSchema(), []Def{{ID: "rc13-tab2", Kind: KindTable}}, testFrame(t, rows))
	reg := NewRegistry()
	dir := t.TempDir()
	if err := Draw(context.Background(), reg, dir, nil, []*Source{src}); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"png", "svg", "pdf", "csv", "md"} {
		if _, err := os.Stat(filepath.Join(dir, "rc13-tab2."+ext)); err != nil {
			t.Errorf("Draw wrote no rc13-tab2.%s: %v", ext, err)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "rc13-tab2.md"))
	if err != nil {
		t.Fatal(err)
	}
	goldenFile(t, "rc13-tab2.golden.md", md)
	// 16000 km / c = 0.053370 s: 4 significant digits give 0.05337, +0.13 %
	// over the printed 0.0533.
	if want := "| 16000 | 0.0533 | 0.05337 | +0.13 % |"; !strings.Contains(string(md), want) {
		t.Errorf("rc13-tab2.md has no row %q:\n%s", want, md)
	}

	// A table whose key does not fix the value is an error, not an average.
	rows[1].delay *= 2
	src = memSource("rc13-tab2", testSchema(), []Def{{ID: "rc13-tab2", Kind: KindTable}}, testFrame(t, rows))
	if err := Draw(context.Background(), reg, t.TempDir(), nil, []*Source{src}); err == nil {
		t.Errorf("Draw with two delays at 16000 km: nil error, want one")
	}
}

func TestDrawSelects(t *testing.T) {
	defs := []Def{fig6Def, {ID: "delay", X: "distance", Y: []string{"one_way_delay"}, Where: []Where{{"detection", vocab.S("direct")}, {"bit_rate", vocab.F(1e9)}}}}
	src := memSource("rc13-fig6", testSchema(), defs, testFrame(t, berRows()))
	reg := NewRegistry()
	dir := t.TempDir()
	if err := Draw(context.Background(), reg, dir, []string{"delay"}, []*Source{src}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "delay.svg")); err != nil {
		t.Errorf("delay.svg not written: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "rc13-fig6.svg")); err == nil {
		t.Errorf("rc13-fig6.svg written though not asked for")
	}
	if err := Draw(context.Background(), reg, dir, []string{"rc13-fig9"}, []*Source{src}); err == nil {
		t.Errorf("Draw of an undeclared figure: nil error, want one")
	}
}
