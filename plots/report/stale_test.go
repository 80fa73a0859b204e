package report

import (
	"strings"
	"testing"
)

// TestStaleFiguresNamesTheOutputRoot: the refusal names each stale
// figure's dataset under the output root the report was given, and the
// plot command it advises carries -o when that root is not out/, and
// --specs when the figure's spec is not in specs/.
func TestStaleFiguresNamesTheOutputRoot(t *testing.T) {
	tests := []struct{ out, profile, file, dataset, advice string }{
		{"out", "", "specs/ed.yaml", "ed-fig (out/ed)", "draw them again with crosslink plot (make"},
		{"edo", "quick", "specs/ed.yaml", "ed-fig (edo/ed)", "draw them again with crosslink plot -p quick -o edo (make"},
		{"my runs", "", "specs/ed.yaml", "ed-fig (my runs/ed)", "draw them again with crosslink plot -o 'my runs' (make"},
		{"edo", "", "mine/ed.yaml", "ed-fig (edo/ed)", "draw them again with crosslink plot -o edo --specs mine (make"},
		{"out", "", "my specs/ed.yaml", "ed-fig (out/ed)", "draw them again with crosslink plot --specs 'my specs' (make"},
	}
	for _, tt := range tests {
		fig := func() []*Figure {
			return []*Figure{{Entry: Entry{ID: "ed-fig"}, Drawn: true, drawnFrom: "old", Run: &Run{Spec: "ed", File: tt.file, Dataset: "new", Rows: 3}}}
		}
		err := staleFigures(fig(), tt.profile, tt.out)
		if err == nil || !strings.Contains(err.Error(), tt.dataset) || !strings.Contains(err.Error(), tt.advice) {
			t.Errorf("staleFigures(out %q, profile %q) = %v; want %q and %q", tt.out, tt.profile, err, tt.dataset, tt.advice)
		}
	}
}
