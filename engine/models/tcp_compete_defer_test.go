package models

import (
	"reflect"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestCompeteDeferredMatchesEager runs tcp-compete scenarios whose
// routers hand the backbone's packets on without arrival events
// (access links with a delay, netsim/defer.go) twice, once as they run
// and once with every link eager (an observer installed), and requires
// every row of every table to be equal: the deferral is an
// optimisation, exact to the nanosecond.
func TestCompeteDeferredMatchesEager(t *testing.T) {
	m := NewTCPCompete()
	base := m.Schema().Defaults().With("rate", vocab.F(100e6)).With("delay", vocab.F(0.01)).
		With("access_rate", vocab.F(1e9)).With("access_delay", vocab.F(0.002)).With("duration", vocab.F(4))
	for _, c := range []struct {
		name string
		p    vocab.Params
	}{
		{"the document's mix", base},
		{"CUBIC, 0.5 % loss, a queue of 20 packets", base.With("ccas", vocab.S("cubic")).With("loss", vocab.F(0.005)).With("queue", vocab.I(20)).With("queue_bdp", vocab.F(0))},
	} {
		t.Run(c.name, func(t *testing.T) {
			var res [2]vocab.Result
			var handed [2]uint64
			for i, eager := range []bool{false, true} {
				sc, err := prepareCompete(c.p, 3, nil)
				if err != nil {
					t.Fatal(err)
				}
				if eager {
					sc.run.net.SetObserver(nopObserver{})
				}
				if err := sc.run.s.Run(t.Context(), sc.c.duration); err != nil {
					t.Fatal(err)
				}
				if res[i], err = m.collect(sc.run, sc.cn, sc.c.rate.BitsPerSecond(), sc.c.duration, sc.c.warmup, sc.bb.limit, sc.bb.lossData); err != nil {
					t.Fatal(err)
				}
				handed[i] = sc.run.net.DeferredArrivals()
			}
			if handed[0] == 0 || handed[1] != 0 {
				t.Fatalf("packets handed on late: %d as the scenario runs, %d eager: want some and none", handed[0], handed[1])
			}
			if !reflect.DeepEqual(res[0], res[1]) {
				t.Fatalf("deferred and eager arrivals give other results:\n%v\n%v", res[0].Metrics, res[1].Metrics)
			}
			t.Logf("%d packets handed on late; goodput %v", handed[0], res[0].Metrics[0])
		})
	}
}
