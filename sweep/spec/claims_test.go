package spec

import (
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
	want := []Claim{
		{Claim: "BER at 1000 km", Source: "Document 000, Fig. 6",
			Where: []ClaimMatch{{"distance_km", "1000"}, {"curve", "1 Gbps direct"}},
			Y:     "ber", Document: &doc, Op: "approx", Rel: 0.5, Agg: "mean",
			Pos: Position{File: "claims.yaml", Line: 10, Column: 9}},
		{Claim: "4 Gbps near 1 Gbps", Source: "Document 000, Table 3",
			Where: []ClaimMatch{{"bit_rate", "4 Gbps"}}, RelativeTo: []ClaimMatch{{"bit_rate", "1 Gbps"}},
			Y: "goodput_mbps", Document: &one, Op: "ge", Abs: 0.02, Agg: "min",
			Pos: Position{File: "claims.yaml", Line: 16, Column: 9}},
		{Claim: "in range", Source: "Document 000, Fig. 6", Y: "ber", Op: "between",
			Bounds: []float64{0, 1e-6}, Agg: "mean",
			Pos: Position{File: "claims.yaml", Line: 25, Column: 9}},
	}
	if diff := cmp.Diff(want, s.Plots[0].Claims); diff != "" {
		t.Errorf("claims differ (-want +got):\n%s", diff)
	}
}
