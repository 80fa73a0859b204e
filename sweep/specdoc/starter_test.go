package specdoc

import (
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestGridAxis: the example axis is a parameter the plotted metric
// answers to. A window-limited TCP flow's goodput is W/RTT whatever the
// link rate (RFC 7323's window over the round trip), so a schema listing
// rate before delay sweeps delay; a simulated duration is never the axis;
// a by-product metric listed first is not the one plotted.
func TestGridAxis(t *testing.T) {
	f := func(name string, unit vocab.Unit, def, max float64) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.Float, Unit: unit, Default: vocab.F(def), Max: max, Doc: name}
	}
	m := func(name string) vocab.Metric { return vocab.Metric{Name: name, Kind: vocab.Float, Doc: name} }
	tests := []struct {
		name          string
		params        []vocab.Param
		metrics       []vocab.Metric
		param, metric string
		values        string
	}{
		{"delay before rate", []vocab.Param{f("rate", vocab.BitPerSecond, 1e9, 1e12), f("delay", vocab.Second, 0.0533, 10)},
			[]vocab.Metric{m("wire_rate"), m("goodput")}, "delay", "goodput", "53.3ms, 106.6ms, 213.2ms"},
		{"no duration", []vocab.Param{f("duration", vocab.Second, 200, 1e5), f("route_interval", vocab.Second, 0.1, 10)},
			[]vocab.Metric{m("goodput")}, "route_interval", "goodput", "100ms, 200ms, 400ms"},
		{"first doubling float", []vocab.Param{f("ber", vocab.Dimensionless, 1e-9, 1)},
			[]vocab.Metric{m("wire_size"), m("per_exact")}, "ber", "per_exact", "1e-09, 2e-09, 4e-09"},
	}
	for _, tt := range tests {
		a := gridAxis(&vocab.Schema{Name: "m", Params: tt.params, Metrics: tt.metrics})
		if a == nil || a.metric == nil {
			t.Fatalf("%s: gridAxis = %+v, want an axis and a metric", tt.name, a)
		}
		if got := strings.Join(a.values, ", "); a.param.Name != tt.param || a.metric.Name != tt.metric || got != tt.values {
			t.Errorf("%s: gridAxis = %s [%s] plotting %s, want %s [%s] plotting %s", tt.name, a.param.Name, got, a.metric.Name, tt.param, tt.values, tt.metric)
		}
	}
}
