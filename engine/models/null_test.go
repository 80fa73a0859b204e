package models

import (
	"fmt"
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// orNaN is a metric's float, NaN where it is null (not applicable), for
// tests that compare with NaN-aware arithmetic.
func orNaN(v vocab.Value) float64 {
	if v.Kind() == vocab.Invalid {
		return math.NaN()
	}
	return v.Float()
}

func TestNaNull(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		null bool
	}{{math.NaN(), true}, {0, false}, {math.Inf(1), false}, {-2.5, false}} {
		v := naNull(tc.x)
		if got := v.Kind() == vocab.Invalid; got != tc.null {
			t.Errorf("naNull(%v) null = %v, want %v", tc.x, got, tc.null)
		}
		if !tc.null && v.Float() != tc.x {
			t.Errorf("naNull(%v) = %v", tc.x, v)
		}
	}
}

// TestNoNaNMetrics runs small cases of every model, among them the ones
// where a metric does not apply (flows that never sample an RTT, an
// unfinished transfer, a probe that never starts, a run without TCP), and
// fails on any NaN in the main row or a second table: a value that does
// not apply is null, and none of these cases computes a NaN.
func TestNoNaNMetrics(t *testing.T) {
	type set = map[string]vocab.Value
	cases := []struct {
		model string
		name  string
		set   set
	}{
		{"fso-ber", "defaults", nil},
		{"ber-per", "zero ber", set{"ber": vocab.F(0)}},
		{"optical-osnr", "defaults", nil},
		{"orbit-geometry", "ground", set{"link": vocab.S("ground")}},
		{"orbit-geometry", "ring", set{"link": vocab.S("ring")}},
		{"tcp-bulk", "timed", set{"rate": vocab.F(10e6), "duration": vocab.F(1), "sample_interval": vocab.F(0.25)}},
		{"tcp-bulk", "unfinished", set{"rate": vocab.F(10e6), "duration": vocab.F(0.5), "size": vocab.I(1e8), "per": vocab.F(0.01)}},
		{"tcp-bulk", "channels", set{"rate": vocab.F(10e6), "duration": vocab.F(0.5), "channels": vocab.I(2), "flows": vocab.I(2), "trace_packets": vocab.I(20)}},
		{"tcp-transfer", "defaults", nil},
		// Flows start within 100 ms: in 50 ms some never sample an RTT.
		{"tcp-compete", "no rtt sample", set{"flows": vocab.I(4), "duration": vocab.F(0.05), "ccas": vocab.S("reno,cubic")}},
		// Nothing delivered in 10 ms: no shares for Jain's index.
		{"tcp-compete", "nothing delivered", set{"flows": vocab.I(2), "duration": vocab.F(0.01), "ccas": vocab.S("reno")}},
		{"tcp-compete", "short", set{"flows": vocab.I(2), "duration": vocab.F(1), "ccas": vocab.S("reno,cubic")}},
		{"sat-island", "no probe", set{"duration": vocab.F(3), "channels": vocab.I(4), "servers": vocab.I(2), "probe_start": vocab.F(100)}},
		{"sat-island", "no flows", set{"duration": vocab.F(2), "channels": vocab.I(0), "servers": vocab.I(1), "probe_size": vocab.I(0)}},
		{"multicast-video", "satellite", set{"path": vocab.S("satellite"), "duration": vocab.F(5)}},
		{"multicast-video", "terrestrial", set{"hops": vocab.I(2), "cross_flows": vocab.I(1), "duration": vocab.F(5)}},
		{"leo-path", "routing only", set{"flows": vocab.I(0), "duration": vocab.F(1)}},
		{"leo-path", "one flow", set{"flows": vocab.I(1), "duration": vocab.F(2)}},
		// Flows started over 100 s in a 1 s run: most have no RTT sample,
		// nothing delivered; and a UDP-only run with bit errors and jitter.
		{"leo-network", "flows never start", set{"stations": vocab.S("hypatia-100:10"), "traffic": vocab.S("random:3"), "start_spread": vocab.F(100), "duration": vocab.F(1), "sample_interval": vocab.F(0.5)}},
		{"leo-network", "udp with errors", set{"stations": vocab.S("hypatia-100:10"), "traffic": vocab.S("random:3"), "tcp_flows": vocab.I(0), "udp_flows": vocab.I(1),
			"isl_errors": vocab.B(true), "jitter_urad": vocab.F(2), "adaptive_rate": vocab.B(true), "duration": vocab.F(2), "sample_interval": vocab.F(0.5)}},
	}
	reg, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		seen[tc.model] = true
		t.Run(tc.model+"/"+tc.name, func(t *testing.T) {
			m, ok := reg.Lookup(tc.model)
			if !ok {
				t.Fatalf("no model %s", tc.model)
			}
			s := m.Schema()
			p := s.Defaults()
			for k, v := range tc.set {
				p = p.With(k, v)
			}
			r, err := m.Run(t.Context(), p, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, at := range nanCells(s, r) {
				t.Errorf("%s = NaN, want a number or null", at)
			}
		})
	}
	for _, m := range All() {
		if !seen[m.Schema().Name] {
			t.Errorf("model %s has no case", m.Schema().Name)
		}
	}
}

// nanCells names the cells of r that hold NaN.
func nanCells(s *vocab.Schema, r vocab.Result) []string {
	isNaN := func(v vocab.Value) bool { return v.Kind() == vocab.Float && math.IsNaN(v.Float()) }
	var out []string
	for i, v := range r.Metrics {
		if isNaN(v) {
			out = append(out, s.Metrics[i].Column())
		}
	}
	for k, rows := range r.Tables {
		for j, row := range rows {
			for i, v := range row {
				if isNaN(v) {
					out = append(out, fmt.Sprintf("%s row %d: %s", s.Tables[k].Name, j, s.Tables[k].Columns[i].Column()))
				}
			}
		}
	}
	return out
}
