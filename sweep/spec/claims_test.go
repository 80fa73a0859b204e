package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClaims checks that a plot's claims parse into the values written,
// with the defaults (op approx, agg mean) filled in and positions kept.
func TestClaims(t *testing.T) {
	src := `name: claims
model: fso-ber
grid:
  distance: [1000km, 2000km]
plots:
  - id: fig
    x: distance
    y: ber
    claims:
      - claim: BER at 1000 km
        source: "Document 000, Fig. 6"
        where: {distance_km: 1000, curve: "1 Gbps direct"}
        y: ber
        document: 1e-9
        tol: {rel: 0.5}
      - claim: 4 Gbps near 1 Gbps
        source: "Document 000, Table 3"
        where: {bit_rate: 4 Gbps}
        relative_to: {bit_rate: 1 Gbps}
        y: goodput_mbps
        document: 1
        op: ge
        tol: {abs: 0.02}
        agg: min
      - claim: in range
        source: "Document 000, Fig. 6"
        y: ber
        op: between
        bounds: [0, 1e-6]
`
	s, err := Parse("claims.yaml", []byte(src), registry(t))
	if err != nil {
		t.Fatal(err)
	}
	one, doc := 1.0, 1e-9
	at := func(line, col int) Position { return Position{File: "claims.yaml", Line: line, Column: col} }
	want := []Claim{
		{Claim: "BER at 1000 km", Source: "Document 000, Fig. 6",
			Where: []ClaimMatch{{"distance_km", "1000", at(12, 17)}, {"curve", "1 Gbps direct", at(12, 36)}},
			Y:     "ber", Document: &doc, Op: "approx", Rel: 0.5, Agg: "mean",
			Pos: at(10, 9), Number: 1, YPos: at(13, 12)},
		{Claim: "4 Gbps near 1 Gbps", Source: "Document 000, Table 3",
			Where: []ClaimMatch{{"bit_rate", "4 Gbps", at(18, 17)}}, RelativeTo: []ClaimMatch{{"bit_rate", "1 Gbps", at(19, 23)}},
			Y: "goodput_mbps", Document: &one, Op: "ge", Abs: 0.02, Agg: "min",
			Pos: at(16, 9), Number: 2, YPos: at(20, 12)},
		{Claim: "in range", Source: "Document 000, Fig. 6", Y: "ber", Op: "between",
			Bounds: []float64{0, 1e-6}, Agg: "mean",
			Pos: at(25, 9), Number: 3, YPos: at(27, 12)},
	}
	if diff := cmp.Diff(want, s.Plots[0].Claims); diff != "" {
		t.Errorf("claims differ (-want +got):\n%s", diff)
	}
}

// claimsSpec is a spec whose plot fig reads its claims from table.csv
// beside it, and whose plot other has a ranged, relative claim.
const claimsSpec = `name: claims
model: fso-ber
grid:
  distance: [1000km, 2000km]
plots:
  - id: fig
    x: distance
    y: ber
    claims:
      - table: data/table.csv
        source: "Document 002, Fig. 2 (read in pixels)"
  - id: other
    x: distance
    y: ber
    claims:
      - claim: "gain over fig within the range"
        source: "Document 002"
        where: {distance_km: 1000..2000, curve: all}
        relative_plot: fig
        relative: difference
        y: jain_flows
        document: 0.3
        tol: {abs: 0.04}
      - claim: "peak at 35"
        source: "Document 002"
        where: {curve: all}
        at_max: retrans_rate_per_s
        y: queue_bdp_pct
        document: 35
        tol: {abs: 5}
`

// writeClaimsSpec writes claimsSpec and table (the CSV's text) into a
// temporary directory and returns the spec's path.
func writeClaimsSpec(t *testing.T, table string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "table.csv"), []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "claims.yaml")
	if err := os.WriteFile(path, []byte(claimsSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestClaimsTable checks that a claims table's rows of the plot become
// its claims, with the generated text, the tolerance, the where columns
// and the CSV position of each row; rows of other plots are skipped.
func TestClaimsTable(t *testing.T) {
	table := "plot,where.queue_bdp_pct,where.algorithm,y,op,document,tol_abs,tol_rel,relative_plot,relative,read.image,read.px\n" +
		"fig,100,BBR,goodput_mbps,approx,8.2,1.5,0,,,Images/T.png,34\n" +
		"other,100,BBR,goodput_mbps,approx,9,1.5,0,,,Images/T.png,37\n" +
		"fig,35,all,retrans_rate_per_s,,503.7,5,0.2,,,Images/R.png,383\n" +
		"fig,10..30,BBRv2,goodput_mbps,le,2.2,1.5,,,,,\n" +
		"fig,100,all,jain_flows,approx,0.321,0.042,,other,difference,,\n"
	path := writeClaimsSpec(t, table)
	s, err := ParseFile(path, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	csvFile := filepath.Join(filepath.Dir(path), "data", "table.csv")
	cell := func(line, col int) Position { return Position{File: csvFile, Line: line, Column: col} }
	// The where columns are at their headings, y at its cell.
	bdp, alg := cell(1, 6), cell(1, 26)
	src := "Document 002, Fig. 2 (read in pixels)"
	d1, d2, d3, d4 := 8.2, 503.7, 2.2, 0.321
	want := []Claim{
		{Claim: "goodput_mbps where queue_bdp_pct=100, algorithm=BBR is about 8.2 (image Images/T.png; px 34)", Source: src,
			Where: []ClaimMatch{{"queue_bdp_pct", "100", bdp}, {"algorithm", "BBR", alg}}, Y: "goodput_mbps", Document: &d1, Op: "approx", Abs: 1.5, Agg: "mean",
			Pos: cell(2, 1), Number: 1, YPos: cell(2, 13)},
		{Claim: "retrans_rate_per_s where queue_bdp_pct=35, algorithm=all is about 503.7 (image Images/R.png; px 383)", Source: src,
			Where: []ClaimMatch{{"queue_bdp_pct", "35", bdp}, {"algorithm", "all", alg}}, Y: "retrans_rate_per_s", Document: &d2, Op: "approx", Abs: 5, Rel: 0.2, Agg: "mean",
			Pos: cell(4, 1), Number: 1, YPos: cell(4, 12)},
		{Claim: "goodput_mbps where queue_bdp_pct=10..30, algorithm=BBRv2 is at most 2.2", Source: src,
			Where: []ClaimMatch{{"queue_bdp_pct", "10..30", bdp}, {"algorithm", "BBRv2", alg}}, Y: "goodput_mbps", Document: &d3, Op: "le", Abs: 1.5, Agg: "mean",
			Pos: cell(5, 1), Number: 1, YPos: cell(5, 18)},
		{Claim: "jain_flows where queue_bdp_pct=100, algorithm=all minus that of other is about 0.321", Source: src,
			Where: []ClaimMatch{{"queue_bdp_pct", "100", bdp}, {"algorithm", "all", alg}}, RelativePlot: "other", Relative: "difference", Y: "jain_flows", Document: &d4, Op: "approx", Abs: 0.042, Agg: "mean",
			Pos: cell(6, 1), Number: 1, YPos: cell(6, 13)},
	}
	if diff := cmp.Diff(want, s.Plots[0].Claims); diff != "" {
		t.Errorf("table claims differ (-want +got):\n%s", diff)
	}
	gain, peak := 0.3, 35.0
	yml := func(line, col int) Position { return Position{File: path, Line: line, Column: col} }
	wantOther := []Claim{
		{Claim: "gain over fig within the range", Source: "Document 002", Where: []ClaimMatch{{"distance_km", "1000..2000", yml(18, 17)}, {"curve", "all", yml(18, 42)}},
			RelativePlot: "fig", Relative: "difference", Y: "jain_flows", Document: &gain, Op: "approx", Abs: 0.04, Agg: "mean",
			Pos: yml(16, 9), Number: 1, YPos: yml(21, 12)},
		{Claim: "peak at 35", Source: "Document 002", Where: []ClaimMatch{{"curve", "all", yml(26, 17)}}, AtMax: "retrans_rate_per_s",
			Y: "queue_bdp_pct", Document: &peak, Op: "approx", Abs: 5, Agg: "mean",
			Pos: yml(24, 9), Number: 2, YPos: yml(28, 12), AtMaxPos: yml(27, 17)},
	}
	if diff := cmp.Diff(wantOther, s.Plots[1].Claims); diff != "" {
		t.Errorf("claims of other differ (-want +got):\n%s", diff)
	}
	// The same spec text recorded in a dataset (no file on disk), or read
	// from standard input, parses without its table: running or
	// describing a sweep needs no claims.
	rec, err := Parse(filepath.Join(t.TempDir(), "(spec recorded in the dataset)"), []byte(claimsSpec), registry(t))
	if err != nil {
		t.Fatalf("recorded spec: %v", err)
	}
	if len(rec.Plots[0].Claims) != 0 {
		t.Errorf("recorded spec read %d table claims, want none", len(rec.Plots[0].Claims))
	}
	in, err := ParseFileLimited(Stdin, registry(t), Limits{Stdin: strings.NewReader(claimsSpec)})
	if err != nil {
		t.Fatalf("spec on standard input: %v", err)
	}
	if len(in.Plots[0].Claims) != 0 {
		t.Errorf("spec on standard input read %d table claims, want none", len(in.Plots[0].Claims))
	}
}

// TestClaimsTableErrors checks that each mistake in a claims table is an
// error naming the table's file, line and column (or the spec's, for the
// entry itself).
func TestClaimsTableErrors(t *testing.T) {
	const head = "plot,where.queue_bdp_pct,y,op,document,tol_abs,tol_rel\n"
	for _, tt := range []struct {
		name, table, want string
	}{
		{"unknown column", "plot,y,document,tol_ab\nfig,x,1,2\n", `table.csv:1:17: claims table: unknown column "tol_ab"`},
		{"missing column", "plot,document,tol_abs\nfig,1,2\n", `table.csv:1:1: claims table: needs a column "y"`},
		{"bad number", head + "fig,100,goodput,approx,8.x,1,\n", `table.csv:2:24: claims table: document must be a plain number, not "8.x"`},
		{"negative tolerance", head + "fig,100,goodput,approx,8,-1,\n", `table.csv:2:26: claims table: tol_abs -1 must not be negative`},
		{"approx without tolerance", head + "fig,100,goodput,approx,8,,\n", `table.csv:2:1: claims table: op approx needs tol_abs or tol_rel`},
		{"bad op", head + "fig,100,goodput,between,8,1,\n", `table.csv:2:17: claims table: op "between" is not one of approx, ge, le`},
		{"bad range", head + "fig,1..x,goodput,approx,8,1,\n", `table.csv:2:5: claims table: where.queue_bdp_pct: range "1..x" must be two numbers, lo..hi`},
		{"empty y", head + "fig,100,,approx,8,1,\n", `table.csv:2:9: claims table: y is empty`},
		{"bad relative", "plot,y,document,tol_abs,relative_plot,relative\nfig,g,1,1,other,ratios\n", `table.csv:2:17: claims table: relative "ratios" is not one of ratio, difference; did you mean "ratio"?`},
		{"relative without a plot", "plot,y,document,tol_abs,relative_plot,relative\nfig,g,1,1,,ratio\n", `table.csv:2:12: claims table: relative applies to a row with relative_plot`},
		{"no row of the plot", head + "nofig,100,goodput,approx,8,1,\n", `claims.yaml:10:16: plot fig claim 1: claims table `},
		{"bad quoting", head + "fig,100,\"goodput,approx,8,1,\n", `table.csv:2:`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile(writeClaimsSpec(t, tt.table), registry(t))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one with %q", err, tt.want)
			}
		})
	}
	t.Run("missing table", func(t *testing.T) {
		path := writeClaimsSpec(t, "")
		if err := os.Remove(filepath.Join(filepath.Dir(path), "data", "table.csv")); err != nil {
			t.Fatal(err)
		}
		_, err := ParseFile(path, registry(t))
		if err == nil || !strings.Contains(err.Error(), "claims.yaml:10:16: plot fig claim 1: claims table") || !strings.Contains(err.Error(), "does not exist") {
			t.Fatalf("error %v, want the spec's position and does not exist", err)
		}
	})
	t.Run("a directory for a table", func(t *testing.T) {
		path := writeClaimsSpec(t, "")
		tbl := filepath.Join(filepath.Dir(path), "data", "table.csv")
		if err := os.Remove(tbl); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(tbl, 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := ParseFile(path, registry(t))
		if err == nil || !strings.Contains(err.Error(), "claims.yaml:10:16: plot fig claim 1: claims table") || !strings.Contains(err.Error(), "must be a regular file") {
			t.Fatalf("error %v, want the spec's position and a regular file", err)
		}
	})
	t.Run("bad range in where", func(t *testing.T) {
		_, err := Parse("r.yaml", []byte(strings.Replace(claimsSpec, "1000..2000", "2000..1000", 1)), registry(t))
		if err == nil || !strings.Contains(err.Error(), "r.yaml:18:30: plot other claim 1 where: distance_km: range 2000..1000: lo must not exceed hi") {
			t.Fatalf("error %v, want the range's position", err)
		}
	})
	t.Run("relative without a reference", func(t *testing.T) {
		_, err := Parse("r.yaml", []byte(strings.Replace(claimsSpec, "        relative_plot: fig\n", "", 1)), registry(t))
		if err == nil || !strings.Contains(err.Error(), "r.yaml:19:19: plot other claim 1: relative applies to a claim with relative_to or relative_plot") {
			t.Fatalf("error %v, want relative's position", err)
		}
	})
}
