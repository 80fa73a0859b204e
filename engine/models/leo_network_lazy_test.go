package models

import (
	"reflect"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/vocab"
)

// nopObserver sees every packet event and does nothing: installed before
// the first packet, it keeps every link eager (netsim/lazy.go).
type nopObserver struct{}

func (nopObserver) Observe(netsim.Record) {}

// TestLEONetworkLazyMatchesEager runs scenarios of the model twice, once
// as it runs (its links lazy: no end-of-transmission events, delays
// changing at every routing step) and once with every link eager, and
// requires every row of every table to be equal: the lazy links are an
// optimisation, exact to the nanosecond, because the network's links end
// a transmission before anything else at its instant (EndsFirst). The
// scenarios cover the benchmark's load (100 TCP flows over Kuiper K1),
// TCP with UDP, bit errors from pointing jitter and handover gaps, and
// adaptive rates on Starlink S1 (rate changes turn links eager).
func TestLEONetworkLazyMatchesEager(t *testing.T) {
	for _, c := range []struct {
		name string
		over map[string]vocab.Value
	}{
		{"kuiper-k1, 100 TCP flows", map[string]vocab.Value{"traffic": vocab.S("random:100"), "tcp_flows": vocab.I(1), "duration": vocab.F(4), "sample_interval": vocab.F(1)}},
		{"TCP and UDP, bit errors, handover gaps", map[string]vocab.Value{"traffic": vocab.S("random:30"), "tcp_flows": vocab.I(2), "udp_flows": vocab.I(1), "duration": vocab.F(3),
			"sample_interval": vocab.F(0.5), "isl_errors": vocab.B(true), "jitter_urad": vocab.F(2), "handover_gap": vocab.F(0.05), "cca": vocab.S("cubic,bbr")}},
		{"starlink-s1, adaptive rates", map[string]vocab.Value{"traffic": vocab.S("random:30"), "tcp_flows": vocab.I(2), "duration": vocab.F(3), "sample_interval": vocab.F(0.5),
			"adaptive_rate": vocab.B(true), "isl_rate": vocab.F(20e6), "shells": vocab.S("starlink-s1")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := NewLEONetwork()
			p := m.Schema().Defaults()
			for k, v := range c.over {
				p = p.With(k, v)
			}
			var scs [2]*lnScenario
			lazy, err := m.run(t.Context(), p, 1, func(sc *lnScenario) { scs[0] = sc })
			if err != nil {
				t.Fatal(err)
			}
			eager, err := m.run(t.Context(), p, 1, func(sc *lnScenario) {
				sc.net.SetObserver(nopObserver{})
				scs[1] = sc
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(lazy, eager) {
				for ti := range lazy.Tables {
					for i := range min(len(lazy.Tables[ti]), len(eager.Tables[ti])) {
						if !reflect.DeepEqual(lazy.Tables[ti][i], eager.Tables[ti][i]) {
							t.Errorf("table %d row %d differs: lazy %v, eager %v", ti, i, lazy.Tables[ti][i], eager.Tables[ti][i])
							break
						}
					}
				}
				t.Fatalf("lazy and eager links give other results: main rows %v and %v", lazy.Metrics, eager.Metrics)
			}
			if lnMetric(lazy, "packets_received").Int() == 0 {
				t.Fatal("no packet received: the comparison is empty")
			}
			// Network.Events counts what an eager network would handle,
			// either way; the scheduler's own count shows the events the
			// lazy links did without.
			ev, lz, eg := scs[1].net.Events(), scs[0].s.Processed(), scs[1].s.Processed()
			if scs[0].net.Events() != ev || lz >= eg {
				t.Errorf("events: %d and %d counted, the scheduler handled %d lazy and %d eager: want the same count and fewer handled lazy", scs[0].net.Events(), ev, lz, eg)
			}
			t.Logf("the scheduler handled %d events with lazy links, %d with eager ones (%.0f %%)", lz, eg, 100*float64(lz)/float64(eg))
		})
	}
}
