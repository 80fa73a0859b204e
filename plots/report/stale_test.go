package report

import (
	"strings"
	"testing"
)

// TestStaleFiguresNamesTheOutputRoot: the refusal names each stale
// figure's dataset under the output root the report was given, and the
// plot command it advises carries -o when that root is not out/.
func TestStaleFiguresNamesTheOutputRoot(t *testing.T) {
	fig := func() []*Figure {
		return []*Figure{{Entry: Entry{ID: "ed-fig"}, Drawn: true, drawnFrom: "old", Run: &Run{Spec: "ed", Dataset: "new", Rows: 3}}}
	}
	tests := []struct{ out, profile, dataset, advice string }{
		{"out", "", "ed-fig (out/ed)", "draw them again with crosslink plot (make"},
		{"edo", "quick", "ed-fig (edo/ed)", "draw them again with crosslink plot -p quick -o edo (make"},
		{"my runs", "", "ed-fig (my runs/ed)", "draw them again with crosslink plot -o 'my runs' (make"},
	}
	for _, tt := range tests {
		err := staleFigures(fig(), tt.profile, tt.out)
		if err == nil || !strings.Contains(err.Error(), tt.dataset) || !strings.Contains(err.Error(), tt.advice) {
			t.Errorf("staleFigures(out %q, profile %q) = %v; want %q and %q", tt.out, tt.profile, err, tt.dataset, tt.advice)
		}
	}
}
