package plots

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// testSchema is a schema shaped like the fso-ber model's: the parameters
// and metrics the rc13 figures use, in the same units.
func testSchema() *vocab.Schema {
	return &vocab.Schema{
		Name:    "fso-ber",
		Version: 1,
		Params: []vocab.Param{
			{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(16e6)},
			{Name: "bit_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(1e9)},
			{Name: "detection", Kind: vocab.String, Default: vocab.S("direct"), Choices: []string{"direct", "coherent"}},
			{Name: "mtu", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(1500)},
		},
		Metrics: []vocab.Metric{
			{Name: "ber", Kind: vocab.Float},
			{Name: "one_way_delay", Kind: vocab.Float, Unit: vocab.Second},
			{Name: "received_power", Kind: vocab.Float, Unit: vocab.Watt},
		},
	}
}

// row is one scenario's values for testFrame.
type row struct {
	id        string
	rep       int64
	distance  float64
	bitRate   float64
	detection string
	mtu       int64
	ber       float64
	delay     float64
	power     float64
	status    string
}

// testFrame builds a main-table frame with the columns the dataset writes.
func testFrame(t *testing.T, rows []row) *Frame {
	t.Helper()
	c := map[string]*Column{}
	add := func(name string, k vocab.Kind) *Column {
		col := &Column{Name: name, Kind: k}
		c[name] = col
		return col
	}
	id, rep := add("scenario_id", vocab.String), add("replicate", vocab.Int)
	dist, rate := add("distance_m", vocab.Float), add("bit_rate_bps", vocab.Float)
	det, mtu := add("detection", vocab.String), add("mtu_bytes", vocab.Int)
	ber, delay, pw := add("ber", vocab.Float), add("one_way_delay_s", vocab.Float), add("received_power_w", vocab.Float)
	st := add("status", vocab.String)
	for i, r := range rows {
		if r.id == "" {
			r.id = fmt.Sprintf("s%03d", i)
		}
		if r.status == "" {
			r.status = "ok"
		}
		id.Str = append(id.Str, r.id)
		rep.Int = append(rep.Int, r.rep)
		dist.Float = append(dist.Float, r.distance)
		rate.Float = append(rate.Float, r.bitRate)
		det.Str = append(det.Str, r.detection)
		mtu.Int = append(mtu.Int, r.mtu)
		ber.Float = append(ber.Float, r.ber)
		delay.Float = append(delay.Float, r.delay)
		pw.Float = append(pw.Float, r.power)
		st.Str = append(st.Str, r.status)
	}
	f, err := NewFrame(id, rep, dist, rate, det, mtu, ber, delay, pw, st)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// berRows is a small fixed BER-vs-distance dataset: two detections, two
// bit rates, four distances. The numbers only need to be positive,
// distinct and fixed; they follow exp(-a/z²) so the curves look like BER
// curves on a log axis.
func berRows() []row {
	var rows []row
	for _, det := range []string{"direct", "coherent"} {
		for _, rate := range []float64{1e9, 4e9} {
			for _, km := range []float64{16000, 25000, 50000, 80000} {
				a := 4e9 / rate
				if det == "coherent" {
					a *= 4
				}
				z := km / 1e4
				rows = append(rows, row{
					distance: km * 1000, bitRate: rate, detection: det, mtu: 1500,
					ber: math.Exp(-20 * a / (z * z)), delay: km * 1000 / 299792458,
				})
			}
		}
	}
	return rows
}

// memSource serves fixed frames as a Source.
func memSource(name string, s *vocab.Schema, defs []Def, main *Frame) *Source {
	return &Source{
		Name: name, Schema: s, Plots: defs,
		Load: func(ctx context.Context, table string) (*Frame, error) {
			if table != "" {
				return nil, fmt.Errorf("test: no table %q", table)
			}
			return main, nil
		},
	}
}
