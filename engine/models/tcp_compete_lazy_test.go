package models

import (
	"reflect"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestCompeteLazyMatchesEager runs tcp-compete scenarios whose access
// links have a delay, so that every link of the dumbbell is lazy
// (netsim/lazy.go), twice: once as they run and once with every link
// eager (an observer installed), and requires every row of every table
// to be equal. Besides the document's mix, the cases are the regimes
// where same-instant events abound: a backbone of a fraction of a
// millisecond and random loss.
func TestCompeteLazyMatchesEager(t *testing.T) {
	m := NewTCPCompete()
	base := m.Schema().Defaults().With("rate", vocab.F(100e6)).With("delay", vocab.F(0.01)).
		With("access_rate", vocab.F(1e9)).With("access_delay", vocab.F(0.002)).With("duration", vocab.F(4))
	short := base.With("ccas", vocab.S("cubic")).With("delay", vocab.F(2e-4)).With("access_delay", vocab.F(0.001)).
		With("loss", vocab.F(0.02)).With("flows", vocab.I(1)).With("queue", vocab.I(20)).With("queue_bdp", vocab.F(0)).
		With("duration", vocab.F(2))
	for _, c := range []struct {
		name string
		p    vocab.Params
		seed uint64
	}{
		{"the document's mix", base, 3},
		{"CUBIC, 0.5 % loss, a queue of 20 packets", base.With("ccas", vocab.S("cubic")).With("loss", vocab.F(0.005)).With("queue", vocab.I(20)).With("queue_bdp", vocab.F(0)), 3},
		{"one CUBIC flow, a 0.2 ms backbone, 2 % loss", short, 68},
	} {
		t.Run(c.name, func(t *testing.T) {
			var res [2]vocab.Result
			for i, eager := range []bool{false, true} {
				sc, err := prepareCompete(c.p, c.seed, nil)
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
			}
			if !reflect.DeepEqual(res[0], res[1]) {
				t.Fatalf("lazy and eager links give other results:\n%v\n%v", res[0].Metrics, res[1].Metrics)
			}
			t.Logf("goodput %v", res[0].Metrics[0])
		})
	}
}
