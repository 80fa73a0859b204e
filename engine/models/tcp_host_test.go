package models

import (
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestPRRSelectable: every TCP model takes prr, and with SACK it changes
// the run (PRR sends during the reduction where RFC 6675 waits) while the
// packet conservation of tcp-bulk still holds. tcp-bulk over a lossy
// 10 Mbit/s, 50 ms link (PER 1 %, some 100 recoveries in 20 s) with SACK
// and three flows sharing a 30-packet queue.
func TestPRRSelectable(t *testing.T) {
	for _, m := range []vocab.Model{NewTCPBulk(), NewTCPTransfer(), NewTCPCompete(), NewSatIsland()} {
		if m.Schema().ParamIndex("prr") < 0 {
			t.Errorf("model %s has no prr parameter", m.Schema().Name)
		}
	}
	set := map[string]vocab.Value{
		"rate": vocab.F(10e6), "delay": vocab.F(0.025), "per": vocab.F(0.01), "sack": vocab.B(true),
		"window": vocab.I(1 << 20), "window_scaling": vocab.B(true), "flows": vocab.I(3), "queue": vocab.I(30),
		"duration": vocab.F(20), "warmup": vocab.F(0),
	}
	var res [2]vocab.Result
	for i, prr := range []bool{false, true} {
		set["prr"] = vocab.B(prr)
		res[i] = runModel(t, NewTCPBulk(), set, 3)
		r := res[i].Metrics
		sent, del, drop, fl := r[tmPktsSent].Int(), r[tmPktsDelivered].Int(), r[tmPktsDropped].Int(), r[tmPktsInFlight].Int()
		if sent != del+drop+fl {
			t.Errorf("prr %v: sent %d != delivered %d + dropped %d + in flight %d", prr, sent, del, drop, fl)
		}
		if r[tmFastRecoveries].Int() < 20 {
			t.Errorf("prr %v: %d fast recoveries, want the lossy link to cause many", prr, r[tmFastRecoveries].Int())
		}
		t.Logf("prr %v: goodput %.4g bit/s, %d fast recoveries, %d RTOs", prr, r[tmGoodput].Float(), r[tmFastRecoveries].Int(), r[tmRTOs].Int())
	}
	if res[0].Metrics[tmPktsSent].Equal(res[1].Metrics[tmPktsSent]) && res[0].Metrics[tmGoodput].Equal(res[1].Metrics[tmGoodput]) {
		t.Errorf("prr on and off give the same run: the parameter does not reach the sender")
	}
}
