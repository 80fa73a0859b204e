package models

import (
	"math"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestPRRSelectable: with SACK, prr changes
// the run (PRR sends during the reduction where RFC 6675 waits) while the
// packet conservation of tcp-bulk still holds. tcp-bulk over a lossy
// 10 Mbit/s, 50 ms link (PER 1 %, some 100 recoveries in 20 s) with SACK
// and three flows sharing a 30-packet queue.
func TestPRRSelectable(t *testing.T) {
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
// goodput is bounded by the access rate less the 52 header and timestamp
// bytes of each 1500-byte packet of the default (Linux) host,
// 10e6 x 1448/1500 = 9.65 Mbit/s, and a bulk flow with a 1000-packet
// access queue fills it (at least 95 % after a 2 s warm-up); left at 0
// the access links run at the backbone's rate.
func TestCompeteAccessRate(t *testing.T) {
	m := NewTCPCompete()
	p := m.Schema().Defaults().With("flows", vocab.I(1)).With("ccas", vocab.S("cubic")).
		With("access_rate", vocab.F(10e6)).With("duration", vocab.F(10)).With("warmup", vocab.F(2))
	r, err := m.Run(t.Context(), p, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := metric(t, m, r, "goodput").Float()
	if bound := 10e6 * 1448 / 1500; got > bound*1.001 || got < 0.95*bound {
		t.Errorf("goodput through 10 Mbit/s access links = %.4g bit/s, want 95-100 %% of %.4g", got, bound)
	}
}

// TestByteCountingReachesTheController: with delayed ACKs (one ACK per two
// segments) slow start grows cwnd by one segment per ACK, 1.5 times per
// round, unless byte counting (RFC 3465 section 2.2, L = 2 SMSS) counts
// the two segments each ACK covers and doubles it; over a 100 ms path
// from IW 2 a 1 MB transfer then needs fewer rounds and completes sooner.
// quick_ack is off: with it a Linux receiver acknowledges every segment at
// once while its window grows, as this 16 MiB one does all through a 1 MB
// transfer (tcp_grow_window), and no ACK covers two.
func TestByteCountingReachesTheController(t *testing.T) {
	var done [2]float64
	for i, abc := range []bool{false, true} {
		r := runModel(t, NewTCPBulk(), map[string]vocab.Value{
			"rate": vocab.F(1e9), "delay": vocab.F(0.05), "size": vocab.I(1 << 20), "window": vocab.I(1 << 24),
			"window_scaling": vocab.B(true), "delayed_ack": vocab.B(true), "quick_ack": vocab.B(false), "iw": vocab.I(2), "byte_counting": vocab.B(abc),
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

// hostAbsent lists the host parameters a TCP model does not take, each
// with the reason: the model's hosts always behave one way.
var hostAbsent = map[string]map[string]string{
	"sat-island": {
		"write_size": "servers write each response whole, as a web server hands a file to the kernel",
	},
}

// TestHostParamsShared: the four TCP models take every host parameter of
// hostTable with the table's name, kind, unit, range, choices, doc and
// default (Linux's), or leave it out for a reason hostAbsent states. A
// parameter renamed in one model shows as absent there. All four take the
// bottleneck queue limit in the shared forms, queue (packets) and
// queue_bdp (a fraction of rate x one-way delay), with one name, kind,
// unit, range and doc; only their defaults are each model's
// (queueDefaults).
func TestHostParamsShared(t *testing.T) {
	for _, m := range []vocab.Model{NewTCPBulk(), NewTCPTransfer(), NewTCPCompete(), NewSatIsland()} {
		s := m.Schema()
		for _, want := range []vocab.Param{queueParam(0), queueBDPParam(0)} {
			t.Run(s.Name+"/"+want.Name, func(t *testing.T) {
				i := s.ParamIndex(want.Name)
				if i < 0 {
					t.Fatalf("model %s has no %s", s.Name, want.Name)
				}
				g := s.Params[i]
				if g.Kind != want.Kind || g.Unit != want.Unit || g.Doc != want.Doc || g.Min != want.Min || g.Max != want.Max {
					t.Errorf("model %s: %s is not the shared definition:\n got %+v\nwant %+v", s.Name, want.Name, g, want)
				}
				def, ok := queueDefaults[s.Name][want.Name]
				if !ok {
					def = want.Default
				}
				if !g.Default.Equal(def) {
					t.Errorf("model %s: %s defaults to %v, want %v", s.Name, want.Name, g.Default, def)
				}
			})
		}
		for _, h := range hostTable() {
			want := h.param
			t.Run(s.Name+"/"+want.Name, func(t *testing.T) {
				i := s.ParamIndex(want.Name)
				if i < 0 {
					if hostAbsent[s.Name][want.Name] == "" {
						t.Errorf("model %s has no host parameter %s, and hostAbsent gives no reason", s.Name, want.Name)
					}
					return
				}
				if why := hostAbsent[s.Name][want.Name]; why != "" {
					t.Errorf("model %s takes %s, which hostAbsent says it leaves out (%s)", s.Name, want.Name, why)
				}
				g := s.Params[i]
				if g.Kind != want.Kind || g.Unit != want.Unit || g.Min != want.Min || g.Max != want.Max || g.Doc != want.Doc ||
					strings.Join(g.Choices, ",") != strings.Join(want.Choices, ",") {
					t.Errorf("model %s: parameter %s is not the host table's definition:\n got %+v\nwant %+v", s.Name, want.Name, g, want)
				}
				if !g.Default.Equal(want.Default) {
					t.Errorf("model %s: %s defaults to %v, Linux's (the host table's) is %v", s.Name, want.Name, g.Default, want.Default)
				}
			})
		}
	}
}

// queueDefaults are the models' defaults of the shared queue limit where
// they are not 0 (no limit set): tcp-compete's queue is 100 % of the BDP,
// the reference queue of document 002's Fig. 2.
var queueDefaults = map[string]map[string]vocab.Value{
	"tcp-compete": {"queue_bdp": vocab.F(1)},
}

// TestHostTableSourced: every row of the host table says where Linux
// sets its value, its doc states Linux's value, and its default is valid.
func TestHostTableSourced(t *testing.T) {
	seen := map[string]bool{}
	for _, h := range hostTable() {
		if seen[h.param.Name] {
			t.Errorf("host parameter %s listed twice", h.param.Name)
		}
		seen[h.param.Name] = true
		if len(h.linux) < 20 {
			t.Errorf("host parameter %s: no source for Linux's value (%q)", h.param.Name, h.linux)
		}
		if h.param.Name != "write_size" && !strings.Contains(h.param.Doc, "Linux") {
			t.Errorf("host parameter %s: its doc does not state Linux's value", h.param.Name)
		}
		if err := h.param.Check(h.param.Default); err != nil {
			t.Errorf("host parameter %s: default: %v", h.param.Name, err)
		}
	}
}

// TestLinuxHost: the defaults are a Linux host in a 1500-byte MTU, so a
// saturating tcp-bulk flow with them puts 1500-byte packets on the wire:
// 1448 payload bytes + 12 timestamp option bytes + 40 header bytes. Over
// 60 s at 10 Mbit/s (20 ms RTT, 64 KiB window) the wire rate over the
// goodput is then 1500/1448, the handshake and the bytes in flight at the
// end (at most one 64 KiB window of some 75 MB) adding under 0.3 %.
func TestLinuxHost(t *testing.T) {
	m := NewTCPBulk()
	p := m.Schema().Defaults().With("rate", vocab.F(10e6)).With("delay", vocab.F(0.01)).
		With("window", vocab.I(64<<10)).With("duration", vocab.F(60))
	r, err := m.Run(t.Context(), p, 1)
	if err != nil {
		t.Fatal(err)
	}
	good, wire := r.Metrics[tmGoodput].Float(), r.Metrics[tmWireRate].Float()
	if ratio, want := wire/good, 1500.0/1448; ratio < want || ratio > want*1.003 {
		t.Errorf("wire rate / goodput = %.5f with the default host, want %.5f (+0.3 %%): packets are not 1500 bytes", ratio, want)
	}
	if u := wire / 10e6; u < 0.99 {
		t.Errorf("wire rate %.4g bit/s is %.3f of the link: the default host does not fill it", wire, u)
	}
}

// TestHostMetricsShared: the TCP models' rate columns have one meaning
// each. goodput (bit/s) is the application's in every one, its doc says
// so; the wire rate, where a model reports it, is wire_rate, whose doc
// counts headers and retransmissions; no main-table column is called
// throughput (which meant the wire rate in one model and goodput in
// another); rtos and rto_episodes are in all four.
func TestHostMetricsShared(t *testing.T) {
	for _, m := range []vocab.Model{NewTCPBulk(), NewTCPTransfer(), NewTCPCompete(), NewSatIsland()} {
		s := m.Schema()
		by := map[string]vocab.Metric{}
		for _, c := range s.Metrics {
			by[c.Name] = c
			if strings.HasPrefix(c.Name, "throughput") {
				t.Errorf("model %s: column %s: say goodput or wire_rate", s.Name, c.Name)
			}
		}
		if g, ok := by["goodput"]; !ok || g.Unit != vocab.BitPerSecond || !strings.HasPrefix(g.Doc, "application goodput") {
			t.Errorf("model %s: goodput %+v, want bit/s and a doc that starts 'application goodput'", s.Name, g)
		}
		if w, ok := by["wire_rate"]; ok && (w.Unit != vocab.BitPerSecond || !strings.Contains(w.Doc, "headers") || !strings.Contains(w.Doc, "retransmissions")) {
			t.Errorf("model %s: wire_rate %+v, want bit/s with headers and retransmissions", s.Name, w)
		}
		for _, n := range []string{"rtos", "rto_episodes"} {
			if c, ok := by[n]; !ok || c.Kind != vocab.Int {
				t.Errorf("model %s: no integer column %s", s.Name, n)
			}
		}
	}
}

// TestQueueForms: in tcp-bulk the two forms of the shared queue limit
// (TestHostParamsShared checks their definition in all four models) set
// the same queue. A 100 % BDP at 10 Mbit/s and 10 ms in 1500-byte packets
// is 12,500 B / 1500 B = 8.33, so 8 packets: tcp-bulk runs the same
// scenario with queue_bdp 100 % as with queue 8 (same seed, every metric
// equal), and setting both is an error. TestSatQueueForms does the same
// for sat-island.
func TestQueueForms(t *testing.T) {
	set := map[string]vocab.Value{"rate": vocab.F(10e6), "delay": vocab.F(0.01), "per": vocab.F(0.005), "window": vocab.I(1 << 20),
		"window_scaling": vocab.B(true), "flows": vocab.I(2), "duration": vocab.F(5)}
	bdp := map[string]vocab.Value{"queue_bdp": vocab.F(1)}
	pk := map[string]vocab.Value{"queue": vocab.I(8)}
	for k, v := range set {
		bdp[k], pk[k] = v, v
	}
	a, b := runModel(t, NewTCPBulk(), bdp, 4), runModel(t, NewTCPBulk(), pk, 4)
	for i, c := range NewTCPBulk().Schema().Metrics {
		if !a.Metrics[i].Equal(b.Metrics[i]) {
			t.Errorf("%s: %v with queue_bdp 100 %%, %v with queue 8", c.Name, a.Metrics[i], b.Metrics[i])
		}
	}
	if a.Metrics[tmDropsOverflow].Int() == 0 {
		t.Errorf("no overflow drops: the 8-packet queue does not limit, the comparison shows nothing")
	}
	p := rfcDefaults(NewTCPBulk()).With("queue", vocab.I(8)).With("queue_bdp", vocab.F(1))
	if _, err := NewTCPBulk().Run(t.Context(), p, 1); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("queue and queue_bdp both set: error %v, want one that says not both", err)
	}
}
