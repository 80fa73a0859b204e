package plots

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// claimModel is a model of the names CheckClaims meets: a dimensionless
// x (ber), a series with a unit (mtu in bytes), two y, and a rate that
// figures show in Mbit/s.
type claimModel struct{}

func (claimModel) Schema() *vocab.Schema {
	return &vocab.Schema{
		Name: "perlink", Version: 1,
		Params: []vocab.Param{
			{Name: "ber", Kind: vocab.Float, Default: vocab.F(1e-9)},
			{Name: "mtu", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(1500)},
			{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(1e6)},
		},
		Metrics: []vocab.Metric{
			{Name: "per_worst", Kind: vocab.Float},
			{Name: "per_exact", Kind: vocab.Float},
			{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond},
		},
	}
}

func (claimModel) Run(context.Context, vocab.Params, uint64) (vocab.Result, error) {
	return vocab.Result{}, errors.New("test: not run")
}

// claimSpecText is a spec of claimModel with four figures: fig (PER
// against BER per MTU), rate and rate2 (goodput against distance, in
// km and in m per MTU) and own, which claimRegistry draws with a Draw of
// its own. Each has one claim that holds; %s is where a case's claim
// goes, under the plot the case names.
const claimSpecText = `name: claimcheck
model: perlink
grid:
  ber: [1e-9, 1e-6]
  mtu: [1500B, 9000B]
  distance: [1000km, 2000km]
plots:
  - id: fig
    x: ber
    y: [per_worst, per_exact]
    series: [mtu]
    claims:
      - claim: holds
        source: test
        where: {mtu_bytes: 1500, ber: 1e-9}
        relative_to: {mtu_bytes: 9000}
        at_max: per_exact
        y: per_worst
        document: 1
        tol: {rel: 0.1}
%[1]s  - id: rate
    x: distance
    xunit: km
    y: goodput
    yunit: Mbps
    claims:
      - claim: holds
        source: test
        where: {distance_km: 1000, curve: goodput}
        y: goodput_mbps
        document: 1
        tol: {rel: 0.1}
%[2]s  - id: rate2
    x: distance
    y: goodput
    yunit: Mbps
    series: [mtu]
    claims:
      - claim: holds
        source: test
        where: {curve: goodput}
        relative_plot: rate
        relative_to: {distance_km: 1000}
        y: goodput_mbps
        document: 1
        tol: {rel: 0.1}
%[3]s  - id: own
    x: ber
    y: per_worst
    claims:
      - claim: holds
        source: test
        y: anything the figure draws
        document: 1
        tol: {rel: 0.1}
%[4]s`

// claimRegistry registers own with a Draw of its own, and fig as a
// caption only: a registered figure without Draw is drawn generically.
func claimRegistry(t *testing.T) *Registry {
	t.Helper()
	r := &Registry{figs: map[string]Figure{}}
	for _, f := range []Figure{
		{ID: "fig", Caption: "drawn generically"},
		{ID: "own", Draw: func(context.Context, Input) (*Output, error) { return nil, errors.New("test: not drawn") }},
	} {
		if err := r.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// claimSpec is claimSpecText with one claim added to plot (none for
// plot ""), made of the YAML lines of claim and a claim, source, document
// and tolerance.
func claimSpec(plot, claim string) string {
	var b strings.Builder
	b.WriteString("      - claim: the case\n        source: test\n        document: 1\n        tol: {rel: 0.1}\n")
	for _, l := range strings.Split(claim, "\n") {
		b.WriteString("        " + l + "\n")
	}
	return withItem(plot, b.String())
}

// withItem is claimSpecText with item, the YAML of one entry of a claims
// list, added to plot's (none for plot "").
func withItem(plot, item string) string {
	items := []any{"", "", "", ""}
	if i, ok := map[string]int{"fig": 0, "rate": 1, "rate2": 2, "own": 3}[plot]; ok {
		items[i] = item
	}
	return fmt.Sprintf(claimSpecText, items...)
}

// at is the "file:line:col" of the first mark in src after the case's
// claim starts.
func at(t *testing.T, src, mark string) string {
	t.Helper()
	start := strings.Index(src, "the case")
	i := strings.Index(src[start:], mark)
	if start < 0 || i < 0 {
		t.Fatalf("no %q in the case's claim", mark)
	}
	before := src[:start+i]
	line := strings.Count(before, "\n") + 1
	col := len(before) - strings.LastIndex(before, "\n")
	return fmt.Sprintf("c.yaml:%d:%d", line, col)
}

// checkSpec parses src and returns what CheckClaims says of it.
func checkSpec(t *testing.T, src string) spec.ErrorList {
	t.Helper()
	reg, err := vocab.NewRegistry(claimModel{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse("c.yaml", []byte(src), reg)
	if err != nil {
		t.Fatalf("the spec does not parse: %v", err)
	}
	return claimRegistry(t).CheckClaims(s, claimModel{}.Schema())
}

const (
	figCols   = "curve, mtu_bytes, ber, per_worst, per_worst_lo, per_worst_hi, per_worst_n, per_exact, per_exact_lo, per_exact_hi, per_exact_n, interval, note"
	rateCols  = "curve, distance_km, goodput_mbps, goodput_mbps_lo, goodput_mbps_hi, goodput_n, interval, note"
	rate2Cols = "curve, mtu_bytes, distance_m, goodput_mbps, goodput_mbps_lo, goodput_mbps_hi, goodput_n, interval, note"
)

// TestCheckClaims checks that each column a claim of a generic figure
// names and the figure's data lacks is one error at the name, with the
// likely fix; claims that name columns of the data, and those of a figure
// drawn by its own Draw, give none.
func TestCheckClaims(t *testing.T) {
	type want struct{ mark, msg string } // the error at the first mark of the claim
	for _, tt := range []struct {
		name, plot, claim string
		want              []want
	}{
		{"misspelt y", "fig", "y: per_wrst", []want{{"per_wrst",
			`y "per_wrst" is not a column of the figure's data; did you mean "per_worst"? (columns: ` + figCols + ")"}}},
		{"misspelt where", "fig", "where: {bre: 1e-7}\ny: per_worst", []want{{"bre",
			`where "bre" is not a column of the figure's data; did you mean "ber"? (columns: ` + figCols + ")"}}},
		{"misspelt at_max", "fig", "at_max: per_exct\ny: ber", []want{{"per_exct",
			`at_max "per_exct" is not a column of the figure's data; did you mean "per_exact"? (columns: ` + figCols + ")"}}},
		{"misspelt relative_to", "fig", "where: {mtu_bytes: 9000}\nrelative_to: {mtu_byts: 1500}\ny: per_worst", []want{{"mtu_byts",
			`relative_to "mtu_byts" is not a column of the figure's data; did you mean "mtu_bytes"? (columns: ` + figCols + ")"}}},
		{"y without its display unit", "rate", "y: goodput", []want{{"goodput",
			`y "goodput" is the figure's goodput_mbps (its data names columns with their display unit)`}}},
		{"x without its display unit", "rate", "where: {distance: 1000}\ny: goodput_mbps", []want{{"distance",
			`where "distance" is the figure's distance_km (its data names columns with their display unit)`}}},
		{"x by its dataset column", "rate", "where: {distance_m: 1e6}\ny: goodput_mbps", []want{{"distance_m",
			`where "distance_m" is the figure's distance_km (its data names columns with their display unit)`}}},
		{"series without its unit", "fig", "relative_to: {mtu: 9000}\ny: per_worst", []want{{"mtu",
			`relative_to "mtu" is the figure's mtu_bytes (its data names columns with their display unit)`}}},
		{"a parameter the figure does not plot", "fig", "where: {distance: 1e6}\ny: per_worst", []want{{"distance",
			`where "distance" is a parameter or metric of perlink but not a column of the figure's data, which holds only its series, x and y (columns: ` + figCols + ")"}}},
		{"several at once, in order", "fig", "where: {bre: 1e-7, mtu_bytes: 1500}\nat_max: nothing\ny: per_wrst", []want{
			{"bre", `where "bre" is not a column of the figure's data; did you mean "ber"? (columns: ` + figCols + ")"},
			{"nothing", `at_max "nothing" is not a column of the figure's data (columns: ` + figCols + ")"},
			{"per_wrst", `y "per_wrst" is not a column of the figure's data; did you mean "per_worst"? (columns: ` + figCols + ")"}}},
		// rate's where and y are also looked up in rate2, its reference,
		// and relative_to only there.
		{"where missing from relative_plot's data", "rate", "where: {distance_km: 1000}\nrelative_plot: rate2\nrelative_to: {mtu_bytes: 1500}\ny: goodput_mbps", []want{{"distance_km",
			`where "distance_km" is not a column of relative_plot rate2's data; did you mean "distance_m"? (columns: ` + rate2Cols + ")"}}},
		{"relative_to of relative_plot", "rate2", "where: {curve: goodput}\nrelative_plot: rate\nrelative_to: {mtu_bytes: 1500}\ny: goodput_mbps", []want{{"mtu_bytes",
			`relative_to "mtu_bytes" is a parameter or metric of perlink but not a column of relative_plot rate's data, which holds only its series, x and y (columns: ` + rateCols + ")"}}},
		{"a name missing from both is said once", "rate", "where: {distnce_km: 1000}\nrelative_plot: rate2\ny: goodput_mbps", []want{{"distnce_km",
			`where "distnce_km" is not a column of the figure's data; did you mean "distance_km"? (columns: ` + rateCols + ")"}}},
		{"relative_plot drawn by its own Draw", "fig", "where: {mtu_bytes: 1500}\nrelative_plot: own\nrelative_to: {anything: 1}\ny: per_worst", nil},
		{"relative_plot of another spec", "fig", "where: {mtu_bytes: 1500}\nrelative_plot: elsewhere\nrelative_to: {anything: 1}\ny: per_worst", nil},
		{"a figure drawn by its own Draw", "own", "where: {bre: 1e-7}\nat_max: nothing\ny: per_wrst", nil},
		{"every name a column", "fig", "where: {curve: \"mtu 1500 B\", ber: 1e-9, per_exact_n: 3}\nat_max: per_worst_hi\ny: per_worst_lo", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := claimSpec(tt.plot, tt.claim)
			var wantLines []string
			for _, w := range tt.want {
				wantLines = append(wantLines, fmt.Sprintf("%s: plot %s claim 2: %s", at(t, src, w.mark), tt.plot, w.msg))
			}
			errs := checkSpec(t, src)
			if got, want := errs.Error(), strings.Join(wantLines, "\n"); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
	t.Run("every claim of the spec holds its columns", func(t *testing.T) {
		if errs := checkSpec(t, claimSpec("", "")); len(errs) > 0 {
			t.Errorf("errors in the claims that hold:\n%v", errs)
		}
	})
}

// TestCheckClaimsTable checks the rows of a claims table: a where.<column>
// heading the figure's data lacks is one error at the heading, however
// many rows use it, and a bad y one at its cell.
func TestCheckClaimsTable(t *testing.T) {
	dir := t.TempDir()
	table := "plot,where.mtu_byts,y,document,tol_abs\n" +
		"fig,1500,per_worst,1,1\n" +
		"fig,9000,per_wrst,1,1\n"
	if err := os.WriteFile(filepath.Join(dir, "t.csv"), []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(path, []byte(withItem("fig", "      - table: t.csv\n        source: test\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := vocab.NewRegistry(claimModel{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.ParseFile(path, reg)
	if err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "t.csv")
	want := csv + `:1:6: plot fig claim 2: where "mtu_byts" is not a column of the figure's data; did you mean "mtu_bytes"? (columns: ` + figCols + ")\n" +
		csv + `:3:10: plot fig claim 2: y "per_wrst" is not a column of the figure's data; did you mean "per_worst"? (columns: ` + figCols + ")"
	if got := claimRegistry(t).CheckClaims(s, claimModel{}.Schema()).Error(); got != want {
		t.Errorf("errors:\n%s\nwant:\n%s", got, want)
	}
}

// TestLineColumnsAsDrawn checks that the columns CheckClaims reads from a
// figure's entry and schema alone are the header Line writes when it draws
// the figure from rows: series with units, x and y in display units.
func TestLineColumnsAsDrawn(t *testing.T) {
	r := &Registry{figs: map[string]Figure{}}
	for _, tt := range []struct {
		def  Def
		rows []row
	}{
		{fig6Def, berRows()},
		{replicatedDef, replicatedRows()},
		{Def{ID: "mtu", X: "distance", Y: []string{"one_way_delay"}, Series: []string{"mtu", "detection"}}, berRows()},
		{Def{ID: "delay", X: "bit_rate", XUnit: "Gbps", Y: []string{"one_way_delay"}, YUnit: "ms"}, berRows()},
	} {
		t.Run(tt.def.ID, func(t *testing.T) {
			cols, ok := r.genericColumns(tt.def, testSchema())
			if !ok {
				t.Fatalf("%s: not a generic figure", tt.def.ID)
			}
			var names []string
			for _, c := range cols {
				names = append(names, c.name)
			}
			drawn := drawTest(t, tt.def, tt.rows).Data.Header
			if got, want := strings.Join(names, ","), strings.Join(drawn, ","); got != want {
				t.Errorf("columns from the schema %s, drawn %s", got, want)
			}
		})
	}
}
