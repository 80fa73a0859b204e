package models

import (
	"math"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestPRRSelectable: every TCP model takes the shared host options (prr,
// timestamps, syn_timeout, hystart, byte_counting) with one doc, default
// and unit; and with SACK it changes
// the run (PRR sends during the reduction where RFC 6675 waits) while the
// packet conservation of tcp-bulk still holds. tcp-bulk over a lossy
// 10 Mbit/s, 50 ms link (PER 1 %, some 100 recoveries in 20 s) with SACK
// and three flows sharing a 30-packet queue.
func TestPRRSelectable(t *testing.T) {
	for _, m := range []vocab.Model{NewTCPBulk(), NewTCPTransfer(), NewTCPCompete(), NewSatIsland()} {
		for _, hp := range append(hostOptionParams(), hystartParam(false), byteCountingParam(false)) {
			i := m.Schema().ParamIndex(hp.Name)
			if i < 0 {
				t.Errorf("model %s has no %s parameter", m.Schema().Name, hp.Name)
				continue
			}
			// hystart keeps sat-island's earlier default (on).
			sameDefault := got(m, i).Default.Equal(hp.Default) || hp.Name == "hystart"
			if g := got(m, i); g.Doc != hp.Doc || !sameDefault || g.Unit != hp.Unit {
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

// TestCompeteAccessRate: access_rate reaches the access links. With
// 10 Mbit/s access links in front of the 100 Mbit/s backbone, one flow's
// throughput is bounded by the access rate less the 40 header bytes of
// each 1500-byte packet, 10e6 x 1460/1500 = 9.73 Mbit/s, and a bulk flow
// with a 1000-packet access queue fills it (at least 95 % after a 2 s
// warm-up); left at 0 the access links run at the backbone's rate.
func TestCompeteAccessRate(t *testing.T) {
	m := NewTCPCompete()
	p := m.Schema().Defaults().With("flows", vocab.I(1)).With("ccas", vocab.S("cubic")).
		With("access_rate", vocab.F(10e6)).With("duration", vocab.F(10)).With("warmup", vocab.F(2))
	r, err := m.Run(t.Context(), p, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := metric(t, m, r, "throughput").Float()
	if bound := 10e6 * 1460 / 1500; got > bound*1.001 || got < 0.95*bound {
		t.Errorf("throughput through 10 Mbit/s access links = %.4g bit/s, want 95-100 %% of %.4g", got, bound)
	}
}

func got(m vocab.Model, i int) vocab.Param { return m.Schema().Params[i] }

// TestByteCountingReachesTheController: with delayed ACKs (one ACK per two
// segments) slow start grows cwnd by one segment per ACK, 1.5 times per
// round, unless byte counting (RFC 3465 section 2.2, L = 2 SMSS) counts
// the two segments each ACK covers and doubles it; over a 100 ms path
// from IW 2 a 1 MB transfer then needs fewer rounds and completes sooner.
func TestByteCountingReachesTheController(t *testing.T) {
	var done [2]float64
	for i, abc := range []bool{false, true} {
		r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
			"rate": vocab.F(1e9), "delay": vocab.F(0.05), "size": vocab.I(1 << 20), "window": vocab.I(1 << 24),
			"window_scaling": vocab.B(true), "delayed_ack": vocab.B(true), "iw": vocab.I(2), "byte_counting": vocab.B(abc),
			"duration": vocab.F(10), "warmup": vocab.F(0),
		}, 1)
		done[i] = r.Metrics[tmCompletion].Float()
	}
	t.Logf("completion: %.3f s counting ACKs, %.3f s counting bytes", done[0], done[1])
	if !(done[1] < done[0]-0.1) {
		t.Errorf("completion with byte counting %.3f s, without %.3f s: want at least one 100 ms round sooner", done[1], done[0])
	}
}

// TestWriteSize: a 5120-byte transfer (IW 10 admits it whole) written
// 512 bytes at a time leaves as the same three 1448-byte segments and one
// of 776 B as when written at once: the writes of one instant coalesce,
// as in ns-3 (TcpSocketBase::Send defers transmission one time step) and
// Linux (tcp_sendmsg_locked fills the tail skb), so the response time is
// the same to the nanosecond. Sent one segment per write it would be ten
// 552-byte packets and 1.92 ms longer over this 1 Mbit/s link.
func TestWriteSize(t *testing.T) {
	var rt [2]float64
	for i, w := range []int64{0, 512} {
		r := runModel(t, NewTCPTransfer(), map[string]vocab.Value{
			"rate": vocab.F(1e6), "delay": vocab.F(0.01), "mss": vocab.I(1448), "size": vocab.I(5120),
			"iw": vocab.I(10), "write_size": vocab.I(w),
		}, 1)
		rt[i] = r.Metrics[tmTransferResponse(t)].Float()
	}
	if rt[1] != rt[0] {
		t.Errorf("response time with 512-byte writes %.6f s, written at once %.6f s: want equal", rt[1], rt[0])
	}
}

// TestSendBufferReachesTheConnection: a 64 KiB send buffer bounds the
// window of a 1 MB transfer over 1 Gbit/s, 50 ms (RTT 100 ms), where the
// receive window would not. Counted in round trips: the handshake, slow
// start from IW 10 (14480, 28960 B; the third round is capped at
// 65536 B), then ceil((1e6 - 43440) / 65536) = 15 rounds of a full
// buffer, 18 in all: 1.8 s, where an unlimited buffer needs the handshake
// and 7 doubling rounds, 0.8 s. Tolerance: half a round trip for the
// final ACK and the partial rounds.
func TestSendBufferReachesTheConnection(t *testing.T) {
	for _, tc := range []struct {
		buf  int64
		want float64
	}{{0, 0.8}, {65536, 1.8}} {
		r := runModel(t, NewTCPTransfer(), map[string]vocab.Value{
			"rate": vocab.F(1e9), "delay": vocab.F(0.05), "mss": vocab.I(1448), "size": vocab.I(1_000_000),
			"iw": vocab.I(10), "window": vocab.I(16 << 20), "window_scaling": vocab.B(true), "send_buffer": vocab.I(tc.buf),
		}, 1)
		if got := r.Metrics[tmTransferResponse(t)].Float(); math.Abs(got-tc.want) > 0.05 {
			t.Errorf("send_buffer %d: response time %.3f s, want %.1f (+-0.05)", tc.buf, got, tc.want)
		}
	}
}

// TestHostParamsShared: the host parameters the TCP models have in common
// are one definition each: the same kind, unit, range, choices and doc in
// every model that has them (defaults may differ and are each model's).
func TestHostParamsShared(t *testing.T) {
	shared := []vocab.Param{mssParam(0), iwParam(0), delayedACKParam(false), minRTOParam(1), sackParam(false), lossDetectionParam("dupthresh")}
	for _, m := range []vocab.Model{NewTCPBulk(), NewTCPTransfer(), NewTCPCompete(), NewSatIsland()} {
		s := m.Schema()
		for _, want := range shared {
			i := s.ParamIndex(want.Name)
			if i < 0 {
				continue // tcp-compete always offers SACK
			}
			g := s.Params[i]
			if g.Kind != want.Kind || g.Unit != want.Unit || g.Min != want.Min || g.Max != want.Max || g.Doc != want.Doc || strings.Join(g.Choices, ",") != strings.Join(want.Choices, ",") {
				t.Errorf("model %s: parameter %s is not the shared definition", s.Name, want.Name)
			}
		}
	}
}
