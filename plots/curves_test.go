package plots

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

func TestBuildCurvesGrouping(t *testing.T) {
	tests := []struct {
		name   string
		def    Def
		labels []string
		points []int // points per curve
	}{
		{
			name:   "no series: one curve over every row's x",
			def:    Def{ID: "f", X: "distance", Y: []string{"one_way_delay"}, Where: []Where{{"detection", vocab.S("direct")}, {"bit_rate", vocab.F(1e9)}}},
			labels: []string{"one way delay"},
			points: []int{4},
		},
		{
			name:   "one series parameter",
			def:    Def{ID: "f", X: "distance", Y: []string{"ber"}, Series: []string{"detection"}, Where: []Where{{"bit_rate", vocab.F(4e9)}}},
			labels: []string{"detection coherent", "detection direct"},
			points: []int{4, 4},
		},
		{
			name: "two series parameters, sorted by value not by row order",
			def:  Def{ID: "f", X: "distance", Y: []string{"ber"}, Series: []string{"detection", "bit_rate"}},
			labels: []string{
				"detection coherent, bit rate 1 Gbit/s", "detection coherent, bit rate 4 Gbit/s",
				"detection direct, bit rate 1 Gbit/s", "detection direct, bit rate 4 Gbit/s",
			},
			points: []int{4, 4, 4, 4},
		},
		{
			name:   "several y make several curves",
			def:    Def{ID: "f", X: "distance", Y: []string{"ber", "one_way_delay"}, Where: []Where{{"detection", vocab.S("direct")}, {"bit_rate", vocab.F(1e9)}}},
			labels: nil, // rejected: y units differ
		},
		{
			name:   "int where matches a float value",
			def:    Def{ID: "f", X: "distance", Y: []string{"ber"}, Series: []string{"bit_rate"}, Where: []Where{{"mtu", vocab.F(1500)}, {"detection", vocab.S("coherent")}}},
			labels: []string{"bit rate 1 Gbit/s", "bit rate 4 Gbit/s"},
			points: []int{4, 4},
		},
	}
	f := testFrame(t, berRows())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ld, err := buildCurves(tt.def, testSchema(), f, units.Scale)
			if tt.labels == nil {
				if err == nil {
					t.Fatalf("buildCurves(%+v) = nil error, want one", tt.def)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var labels []string
			var points []int
			for _, c := range ld.Curves {
				labels = append(labels, c.Label)
				points = append(points, len(c.Points))
				for i := 1; i < len(c.Points); i++ {
					if c.Points[i].X <= c.Points[i-1].X {
						t.Errorf("curve %q: x not increasing at %d: %v", c.Label, i, c.Points)
					}
				}
			}
			if diff := cmp.Diff(tt.labels, labels); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.points, points); diff != "" {
				t.Errorf("points per curve (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildCurvesReplicates(t *testing.T) {
	// Five replicates at x = 1 km with y = 1..5 ms and one at 2 km: the
	// mean and interval at 1 km are Summarize's of 1..5 (the scaling to ms
	// is linear, so it commutes with the interval); one replicate has a
	// zero-width interval.
	var rows []row
	for i, y := range []float64{1, 2, 3, 4, 5} {
		rows = append(rows, row{rep: int64(i), distance: 1000, bitRate: 1e9, detection: "direct", mtu: 1500, delay: y * 1e-3})
	}
	rows = append(rows, row{distance: 2000, bitRate: 1e9, detection: "direct", mtu: 1500, delay: 7e-3})
	rows = append(rows, row{distance: 3000, bitRate: 1e9, detection: "direct", mtu: 1500, delay: math.NaN(), status: "failed"})
	def := Def{ID: "f", X: "distance", XUnit: "km", Y: []string{"one_way_delay"}, YUnit: "ms"}
	ld, err := buildCurves(def, testSchema(), testFrame(t, rows), units.Scale)
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Curves) != 1 || len(ld.Curves[0].Points) != 2 {
		t.Fatalf("buildCurves = %+v, want one curve of two points", ld.Curves)
	}
	p := ld.Curves[0].Points
	want := Summarize([]float64{1, 2, 3, 4, 5}, Confidence)
	tol := 1e-9
	if p[0].X != 1 || p[0].N != 5 || math.Abs(p[0].Mean-3) > 1e-12 ||
		math.Abs(p[0].Lo-want.Lo) > tol || math.Abs(p[0].Hi-want.Hi) > tol || p[0].Lo < 1 || p[0].Hi > 5 {
		t.Errorf("point at 1 km = %+v, want n 5, mean 3 ms, [%.4f, %.4f] inside [1, 5]", p[0], want.Lo, want.Hi)
	}
	if p[1].X != 2 || p[1].N != 1 || p[1].Lo != p[1].Mean || p[1].Hi != p[1].Mean {
		t.Errorf("point at 2 km = %+v, want one replicate with a zero-width interval", p[1])
	}
	if want := "1 rows of failed scenarios are not drawn"; !contains(ld.Notes, want) {
		t.Errorf("notes = %q, want %q", ld.Notes, want)
	}
}

func TestBuildCurvesUnits(t *testing.T) {
	// 16000 km = 1.6e7 m; 1.6e7 m / 299792458 m/s = 0.05337 s = 53.37 ms.
	rows := []row{{distance: 1.6e7, bitRate: 1e9, detection: "direct", mtu: 1500, delay: 1.6e7 / 299792458}}
	tests := []struct {
		xu, yu         string
		x, y           float64
		xlabel, ylabel string
	}{
		{"", "", 1.6e7, 1.6e7 / 299792458, "distance (m)", "one way delay (s)"},
		{"km", "ms", 16000, 1.6e7 / 299792458 * 1000, "distance (km)", "one way delay (ms)"},
		{"km", "µs", 16000, 1.6e7 / 299792458 * 1e6, "distance (km)", "one way delay (µs)"},
	}
	for _, tt := range tests {
		t.Run(tt.xu+"/"+tt.yu, func(t *testing.T) {
			def := Def{ID: "f", X: "distance", XUnit: tt.xu, Y: []string{"one_way_delay"}, YUnit: tt.yu}
			ld, err := buildCurves(def, testSchema(), testFrame(t, rows), units.Scale)
			if err != nil {
				t.Fatal(err)
			}
			p := ld.Curves[0].Points[0]
			if math.Abs(p.X-tt.x) > 1e-9*tt.x || math.Abs(p.Mean-tt.y) > 1e-12*tt.y {
				t.Errorf("point = (%g, %g), want (%g, %g)", p.X, p.Mean, tt.x, tt.y)
			}
			if ld.XLabel != tt.xlabel || ld.YLabel != tt.ylabel {
				t.Errorf("labels = %q, %q, want %q, %q", ld.XLabel, ld.YLabel, tt.xlabel, tt.ylabel)
			}
		})
	}
	t.Run("wrong dimension", func(t *testing.T) {
		def := Def{ID: "f", X: "distance", XUnit: "ms", Y: []string{"ber"}}
		if _, err := buildCurves(def, testSchema(), testFrame(t, rows), units.Scale); err == nil {
			t.Errorf("x unit ms for a distance: nil error, want one")
		}
	})
}

func TestBuildCurvesLogAxes(t *testing.T) {
	rows := []row{
		{distance: 1e6, bitRate: 1e9, detection: "direct", mtu: 1500, ber: 1e-9},
		{distance: 2e6, bitRate: 1e9, detection: "direct", mtu: 1500, ber: 0}, // underflow
		{distance: 3e6, bitRate: 1e9, detection: "direct", mtu: 1500, ber: 1e-3},
	}
	def := Def{ID: "f", X: "distance", Y: []string{"ber"}, LogY: true}
	ld, err := buildCurves(def, testSchema(), testFrame(t, rows), units.Scale)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, p := range ld.Curves[0].Points {
		notes = append(notes, p.Note)
	}
	if diff := cmp.Diff([]string{"", "y <= 0 on a log axis", ""}, notes); diff != "" {
		t.Errorf("point notes (-want +got):\n%s", diff)
	}
	if !contains(ld.Notes, "1 points are not drawn: y <= 0 on a log axis") {
		t.Errorf("notes = %q, want the skipped point counted", ld.Notes)
	}
	// The figure still draws (gonum's log scale panics on a zero; the
	// skipped point must not reach it).
	if _, err := lineArt(def, ld, DefaultTheme()); err != nil {
		t.Errorf("lineArt: %v", err)
	}

	def.LogX = true
	rows = []row{{distance: 0, bitRate: 1e9, detection: "direct", mtu: 1500, ber: 1e-9}}
	_, err = buildCurves(def, testSchema(), testFrame(t, rows), units.Scale)
	if err == nil || !strings.Contains(err.Error(), "log axis") {
		t.Errorf("every point at x = 0 on a log axis: error %v, want one naming the log axis", err)
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name, col, err string
	}{
		{"distance", "distance_m", ""},
		{"ber", "ber", ""},
		{"received_power", "received_power_w", ""},
		{"distanse", "", `did you mean "distance"`},
	}
	for _, tt := range tests {
		q, err := Lookup(testSchema(), "", tt.name)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Lookup(%q) error = %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || q.Column != tt.col {
			t.Errorf("Lookup(%q) = %q, %v, want %q", tt.name, q.Column, err, tt.col)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestFractionShownInPercent: a quantity stored as a fraction (loss 0.009
// for "0.9%") is drawn and tabulated in percent unless the spec names
// another unit, and reads back as typed: 0.9, not the 0.8999999999999999
// that 0.009 / 0.01 gives in binary.
func TestFractionShownInPercent(t *testing.T) {
	s := &vocab.Schema{
		Name: "frac", Version: 1,
		Params:  []vocab.Param{{Name: "loss", Kind: vocab.Float, Unit: vocab.Fraction, Default: vocab.F(0)}},
		Metrics: []vocab.Metric{{Name: "payload_loss", Kind: vocab.Float, Unit: vocab.Fraction}},
	}
	id := &Column{Name: "scenario_id", Kind: vocab.String, Str: []string{"a", "b"}}
	rep := &Column{Name: "replicate", Kind: vocab.Int, Int: []int64{0, 0}}
	st := &Column{Name: "status", Kind: vocab.String, Str: []string{"ok", "ok"}}
	loss := &Column{Name: "loss_frac", Kind: vocab.Float, Float: []float64{0.009, 0.002}}
	pl := &Column{Name: "payload_loss_frac", Kind: vocab.Float, Float: []float64{0.025, 0.048}}
	f, err := NewFrame(id, rep, st, loss, pl)
	if err != nil {
		t.Fatal(err)
	}
	def := Def{ID: "f", X: "loss", Y: []string{"payload_loss"}}
	ld, err := buildCurves(def, s, f, units.Scale)
	if err != nil {
		t.Fatal(err)
	}
	if ld.XLabel != "loss (%)" || ld.YLabel != "payload loss (%)" {
		t.Errorf("labels %q, %q, want loss (%%), payload loss (%%)", ld.XLabel, ld.YLabel)
	}
	want := map[float64]float64{0.9: 2.5, 0.2: 4.8}
	for _, p := range ld.Curves[0].Points {
		y, ok := want[p.X]
		if !ok || math.Abs(p.Mean-y) > 1e-12 {
			t.Errorf("point (%v, %v), want x one of 0.9, 0.2 exactly and y %v", p.X, p.Mean, y)
		}
	}
	tb := lineTable(def, ld)
	if got := strings.Join(tb.Header[:3], ","); got != "curve,loss_pct,payload_loss_pct" {
		t.Errorf("table header starts %q, want curve,loss_pct,payload_loss_pct", got)
	}
	if got := legendPart(Quantity{Name: "loss", Unit: vocab.Fraction}, vocab.F(0.009)); got != "loss 0.9 %" {
		t.Errorf("legend %q, want loss 0.9 %%", got)
	}
	if c := axisColumn("", "loss", "", vocab.Dimensionless); c != "loss" {
		t.Errorf("a dimensionless column is %q, want loss", c)
	}
}
