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
		{"out", "", "specs/ed.yaml", "ed-fig (out/ed)", "draw it again with crosslink plot (make"},
		{"edo", "quick", "specs/ed.yaml", "ed-fig (edo/ed)", "draw it again with crosslink plot -p quick -o edo (make"},
		{"my runs", "", "specs/ed.yaml", "ed-fig (my runs/ed)", "draw it again with crosslink plot -o 'my runs' (make"},
		{"edo", "", "mine/ed.yaml", "ed-fig (edo/ed)", "draw it again with crosslink plot -o edo --specs mine (make"},
		{"out", "", "my specs/ed.yaml", "ed-fig (out/ed)", "draw it again with crosslink plot --specs 'my specs' (make"},
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

// TestStaleFiguresLeadsWithSpecsNotRun: figures whose datasets hold no row
// of the profile asked for (a report at full after make figures ran
// quick) are told first, by spec, with the command that runs them, since
// drawing again cannot help them; figures drawn from other rows come
// after, and counts of one are singular.
func TestStaleFiguresLeadsWithSpecsNotRun(t *testing.T) {
	unrun := func(id, spec string) *Figure {
		return &Figure{Entry: Entry{ID: id}, Drawn: true, drawnFrom: "quick rows", Run: &Run{Spec: spec, File: "specs/" + spec + ".yaml", Dataset: "no rows", Rows: 0}}
	}
	redrawn := &Figure{Entry: Entry{ID: "c-fig"}, Drawn: true, drawnFrom: "old", Run: &Run{Spec: "c", File: "specs/c.yaml", Dataset: "new", Rows: 3}}
	tests := []struct {
		name    string
		figs    []*Figure
		profile string
		want    string
	}{
		{"two specs not run", []*Figure{unrun("a-fig1", "a"), unrun("a-fig2", "a"), unrun("b-fig", "b")}, "full",
			"report: the datasets of 2 specs hold no row of profile full: a, b; run them first (make figures PROFILE=full runs, draws and reports, or crosslink run -p full specs/a.yaml specs/b.yaml, then crosslink plot -p full)"},
		{"one not run, one redrawn", []*Figure{redrawn, unrun("a-fig1", "a")}, "full",
			"report: the dataset of 1 spec holds no row of profile full: a; run it first (make figures PROFILE=full runs, draws and reports, or crosslink run -p full specs/a.yaml, then crosslink plot -p full); besides, 1 figure was drawn from other rows than its dataset holds now: c-fig (out/c); draw it again with crosslink plot -p full (make figures runs, draws and reports) and run report again"},
		{"the base profile has no make target", []*Figure{unrun("a-fig1", "a")}, "",
			"report: the dataset of 1 spec holds no row of profile base: a; run it first (crosslink run specs/a.yaml, then crosslink plot)"},
	}
	mine := unrun("m-fig", "m")
	mine.Run.File = "study/m.yaml"
	tests = append(tests, struct {
		name    string
		figs    []*Figure
		profile string
		want    string
	}{"a study of one's own, whose specs make figures does not run", []*Figure{mine}, "full",
		"report: the dataset of 1 spec holds no row of profile full: m; run it first (crosslink run -p full study/m.yaml, then crosslink plot -p full --specs study)"})
	for _, tt := range tests {
		err := staleFigures(tt.figs, tt.profile, "out")
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: staleFigures = %v\nwant %s", tt.name, err, tt.want)
		}
	}
}
