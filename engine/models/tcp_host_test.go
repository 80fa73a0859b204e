package models

import (
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestPRRSelectable: every TCP model takes the shared host options (prr,
// timestamps, syn_timeout) with one doc, default and unit; and with SACK it changes
// the run (PRR sends during the reduction where RFC 6675 waits) while the
// packet conservation of tcp-bulk still holds. tcp-bulk over a lossy
// 10 Mbit/s, 50 ms link (PER 1 %, some 100 recoveries in 20 s) with SACK
// and three flows sharing a 30-packet queue.
func TestPRRSelectable(t *testing.T) {
	for _, m := range []vocab.Model{NewTCPBulk(), NewTCPTransfer(), NewTCPCompete(), NewSatIsland()} {
		for _, hp := range hostOptionParams() {
			i := m.Schema().ParamIndex(hp.Name)
			if i < 0 {
				t.Errorf("model %s has no %s parameter", m.Schema().Name, hp.Name)
				continue
			}
			if got := m.Schema().Params[i]; got.Doc != hp.Doc || !got.Default.Equal(hp.Default) || got.Unit != hp.Unit {
				t.Errorf("model %s: parameter %s differs from the shared host option", m.Schema().Name, hp.Name)
			}
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

// TestTimestampsReachTheWire: with timestamps every data segment is 12
// bytes longer, so a window-limited tcp-transfer of 100 full segments
// over 1 Mbit/s takes longer by 100 x 12 x 8 bits / 1 Mbit/s = 9.6 ms
// of serialisation at the bottleneck (the ACKs' 12 bytes travel on the
// idle reverse link); tolerance 1 ms for the handshake and final ACK.
func TestTimestampsReachTheWire(t *testing.T) {
	var rt [2]float64
	for i, ts := range []bool{false, true} {
		r := runModel(t, NewTCPTransfer(), map[string]vocab.Value{
			"rate": vocab.F(1e6), "delay": vocab.F(0.01), "mss": vocab.I(1448), "size": vocab.I(100 * 1448),
			"window": vocab.I(1 << 20), "window_scaling": vocab.B(true), "iw": vocab.I(100), "timestamps": vocab.B(ts),
		}, 1)
		rt[i] = r.Metrics[tmTransferResponse(t)].Float()
	}
	if d := rt[1] - rt[0]; d < 0.0096-0.001 || d > 0.0096+0.001 {
		t.Errorf("response time with timestamps - without = %.4f s, want 0.0096 (+-0.001)", d)
	}
}

// tmTransferResponse is the index of tcp-transfer's response_time metric.
func tmTransferResponse(t *testing.T) int {
	for i, m := range NewTCPTransfer().Schema().Metrics {
		if m.Name == "response_time" {
			return i
		}
	}
	t.Fatal("tcp-transfer has no response_time metric")
	return -1
}
