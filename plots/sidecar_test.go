package plots

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/plot/vg"
)

// TestSidecar draws one line figure and one figure with a comparison
// table, and checks what each tells the report: its spec, the digest of
// the rows it was drawn from, caption, notes and files, each of which must
// exist.
func TestSidecar(t *testing.T) {
	reg := NewRegistry()
	cmpFig := Figure{ID: "cmp", Caption: "with numbers", Draw: func(ctx context.Context, in Input) (*Output, error) {
		c := Comparison{Keys: []string{"k"}, Quantities: []string{"q"}, Digits: 3}
		tab := &Table{Header: c.Header()}
		tab.AddRow(c.Row([]string{"1"}, []string{"2.0"}, []float64{2}, []float64{2.1})...)
		return &Output{Art: tab, Width: 5 * vg.Centimeter, Height: 3 * vg.Centimeter, Comparison: tab, Notes: []string{"a note"}}, nil
	}}
	if err := reg.Add(cmpFig); err != nil {
		t.Fatal(err)
	}
	frame := testFrame(t, berRows())
	src := memSource("spec-a", testSchema(), []Def{fig6Def, {ID: "cmp"}}, frame)
	digest := DatasetDigest(frame)
	if digest == "" {
		t.Fatal("the fixture's frame has no digest")
	}
	dir := t.TempDir()
	if err := Draw(context.Background(), reg, dir, nil, []*Source{src}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id   string
		want Sidecar
	}{
		{"rc13-fig6", Sidecar{ID: "rc13-fig6", Spec: "spec-a", Dataset: digest, Caption: rc13Fig6().Caption,
			// The fixture's delay model gives these two curves the same values.
			Notes: []string{`"detection direct, bit rate 1 Gbit/s" is identical to "detection coherent, bit rate 4 Gbit/s" and drawn once`},
			Files: []string{"rc13-fig6.png", "rc13-fig6.svg", "rc13-fig6.pdf", "rc13-fig6.csv"}}},
		{"cmp", Sidecar{ID: "cmp", Spec: "spec-a", Dataset: digest, Caption: "with numbers", Notes: []string{"a note"},
			Files:      []string{"cmp.png", "cmp.svg", "cmp.pdf", "cmp.compare.csv", "cmp.compare.md"},
			Comparison: "cmp.compare.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got, err := ReadSidecar(dir, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tt.want, got); diff != "" {
				t.Errorf("ReadSidecar(%s) mismatch (-want +got):\n%s", tt.id, diff)
			}
			for _, f := range got.Files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("sidecar lists %s: %v", f, err)
				}
			}
		})
	}
}
