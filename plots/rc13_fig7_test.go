package plots

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestRC13Fig7ClosedForms checks the closed forms rc13-fig7's card sets
// beside ours against values worked by hand (1 Gbit/s, 53.3 ms, 40-byte
// headers): without window scaling, 65,535 bytes hold 5 segments of
// 12000 B, RTT = 0.1066 + 12040 x 8e-9 + 320e-9 = 0.10669664 s, so
// 480,000 / 0.10669664 = 4.49873 Mbit/s; with scaling up and MSS 1500,
// Eq. 8's PER = 1e-9 x 8 x 1540 x 66/64 = 1.27050e-5, RTT = 0.10661264 s,
// Mathis 12,000 / RTT x sqrt(1.5 / PER) = 38.676 Mbit/s. Tolerance: half a
// unit of the fourth significant digit, the table's rounding.
func TestRC13Fig7ClosedForms(t *testing.T) {
	s := &vocab.Schema{
		Name: "tcp-bulk",
		Params: []vocab.Param{
			{Name: "delay", Kind: vocab.Float, Unit: vocab.Second},
			{Name: "mss", Kind: vocab.Int, Unit: vocab.Byte},
			{Name: "window", Kind: vocab.Int, Unit: vocab.Byte},
			{Name: "window_scaling", Kind: vocab.Bool},
			{Name: "rate", Kind: vocab.Float, Unit: vocab.BitPerSecond},
			{Name: "ber", Kind: vocab.Float},
			{Name: "per_formula", Kind: vocab.String},
		},
		Metrics: []vocab.Metric{{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond}},
	}
	fr, err := NewFrame(
		&Column{Name: "delay_s", Kind: vocab.Float, Float: []float64{0.0533, 0.0533, 0.0533}},
		&Column{Name: "mss_bytes", Kind: vocab.Int, Int: []int64{12000, 1500, 1500}},
		&Column{Name: "window_bytes", Kind: vocab.Int, Int: []int64{65535, 1 << 30, 1 << 30}},
		&Column{Name: "window_scaling", Kind: vocab.Bool, Bool: []bool{false, true, true}},
		&Column{Name: "rate_bps", Kind: vocab.Float, Float: []float64{1e9, 1e9, 1e9}},
		&Column{Name: "ber", Kind: vocab.Float, Float: []float64{1e-9, 1e-9, 1e-9}},
		&Column{Name: "per_formula", Kind: vocab.String, Str: []string{"worst", "worst", "worst"}},
		&Column{Name: "goodput_bps", Kind: vocab.Float, Float: []float64{4.4e6, 40e6, 42e6}},
	)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := rc13Fig7ClosedForms(Input{Def: Def{ID: "rc13-fig7"}, Schema: s}, fr)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		scaling     string
		mss         string
		runs        string
		ours, model float64
	}{
		{"false", "12000", "1", 4.4, 4.49873},
		{"true", "1500", "2", 41, 38.676},
	}
	if len(tbl.Rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%v", len(tbl.Rows), len(want), tbl.Rows)
	}
	for i, w := range want {
		r := tbl.Rows[i]
		ours, _ := strconv.ParseFloat(r[4], 64)
		model, _ := strconv.ParseFloat(r[5], 64)
		if r[0] != w.scaling || r[2] != w.mss || r[3] != w.runs || math.Abs(ours-w.ours) > halfDigit(w.ours) || math.Abs(model-w.model) > halfDigit(w.model) {
			t.Errorf("row %d = %s, want scaling %s, MSS %s, %s runs, ours %g, closed form %g", i, strings.Join(r, " | "), w.scaling, w.mss, w.runs, w.ours, w.model)
		}
	}
}

// halfDigit is half a unit of the fourth significant digit of x.
func halfDigit(x float64) float64 { return 0.5 * math.Pow10(int(math.Floor(math.Log10(x)))-3) }
