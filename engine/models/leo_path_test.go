package models

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/vocab"
)

// leoParams returns leo-path's parameters with the given overrides.
func leoParams(t testing.TB, over map[string]vocab.Value) vocab.Params {
	t.Helper()
	s := NewLEOPath().Schema()
	vals := make([]vocab.Value, len(s.Params))
	for i, p := range s.Params {
		vals[i] = p.Default
		if v, ok := over[p.Name]; ok {
			vals[i] = v
			delete(over, p.Name)
		}
	}
	if len(over) > 0 {
		t.Fatalf("unknown parameters %v", over)
	}
	return vocab.NewParams(s, vals)
}

func runLEO(t testing.TB, over map[string]vocab.Value) vocab.Result {
	t.Helper()
	m := NewLEOPath()
	res, err := m.Run(context.Background(), leoParams(t, over), 1)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func leoMetric(res vocab.Result, name string) vocab.Value {
	s := NewLEOPath().Schema()
	for i, m := range s.Metrics {
		if m.Name == name {
			return res.Metrics[i]
		}
	}
	panic("no metric " + name)
}

// TestLEOPathDeterministic runs the same scenario twice (bit errors and
// jitter on, so random draws matter) and wants identical rows.
func TestLEOPathDeterministic(t *testing.T) {
	over := func() map[string]vocab.Value {
		return map[string]vocab.Value{"duration": vocab.F(20), "jitter_urad": vocab.F(2), "sample_interval": vocab.F(1)}
	}
	a, b := runLEO(t, over()), runLEO(t, over())
	for i := range a.Metrics {
		if a.Metrics[i] != b.Metrics[i] {
			t.Errorf("metric %s: %v then %v", NewLEOPath().Schema().Metrics[i].Name, a.Metrics[i], b.Metrics[i])
		}
	}
	if len(a.Tables[0]) != len(b.Tables[0]) {
		t.Fatalf("time series: %d then %d rows", len(a.Tables[0]), len(b.Tables[0]))
	}
}

// TestLEOPathMoving checks what the moving path does to one NewReno flow
// against the frozen path of the same start: over 200 s Manila-Dalian on
// Kuiper K1 the route changes (Hypatia's data has 5 changes for this pair
// in these 200 s), packets overtake one another only when it does, and the
// path RTT range is the geometry's.
func TestLEOPathMoving(t *testing.T) {
	if testing.Short() {
		t.Skip("200 s of simulated TCP")
	}
	moving := runLEO(t, map[string]vocab.Value{"isl_errors": vocab.B(false), "sample_interval": vocab.F(0)})
	frozen := runLEO(t, map[string]vocab.Value{"isl_errors": vocab.B(false), "sample_interval": vocab.F(0), "frozen_path": vocab.B(true)})
	if got := leoMetric(moving, "path_changes").Int(); got < 3 || got > 8 {
		t.Errorf("moving: %d path changes, want about 5", got)
	}
	if got := leoMetric(frozen, "path_changes").Int(); got != 0 {
		t.Errorf("frozen: %d path changes, want 0", got)
	}
	if got := leoMetric(frozen, "reordered_segs").Int(); got != 0 {
		t.Errorf("frozen: %d reordered segments, want 0 (one path, FIFO links)", got)
	}
	if got := leoMetric(moving, "reordered_segs").Int(); got == 0 {
		t.Error("moving: no segment overtaken at any path change")
	}
	if lo, hi := leoMetric(moving, "rtt_min").Float(), leoMetric(moving, "rtt_max").Float(); !(lo > 0.02 && hi > lo+0.005 && hi < 0.06) {
		t.Errorf("moving: path RTT %.4f..%.4f s, want a spread of several ms between 20 and 60 ms", lo, hi)
	}
	if g := leoMetric(moving, "goodput").Float(); g < 8e6 || g > 10e6 {
		t.Errorf("moving: goodput %.3g bit/s, want most of the 10 Mbit/s ground link", g)
	}
}

// TestLEOPathBitErrors checks the ISL physics end to end: perfect pointing
// with the 10 Gbit/s terminal loses nothing on Kuiper's ISLs (at most
// 2,800 km, where the unfaded SNR is over 5,000: BER below 1e-300); strong
// jitter loses packets, and the path's worst fade-averaged BER grows with
// the jitter.
func TestLEOPathBitErrors(t *testing.T) {
	run := func(term string, jit float64) vocab.Result {
		return runLEO(t, map[string]vocab.Value{"duration": vocab.F(10), "terminal": vocab.S(term),
			"jitter_urad": vocab.F(jit), "sample_interval": vocab.F(0)})
	}
	clean := run("oct-10g", 0)
	if got := leoMetric(clean, "isl_error_drops").Int(); got != 0 {
		t.Errorf("oct-10g, no jitter: %d ISL drops, want 0", got)
	}
	mild, strong := run("isl-100g", 1), run("isl-100g", 4)
	if got := leoMetric(strong, "isl_error_drops").Int(); got == 0 {
		t.Error("isl-100g, 4 urad jitter: no ISL drops")
	}
	if a, b := leoMetric(mild, "worst_isl_ber").Float(), leoMetric(strong, "worst_isl_ber").Float(); !(b > a) {
		t.Errorf("worst ISL BER %g at 1 urad, %g at 4 urad: want growth", a, b)
	}
	if g1, g4 := leoMetric(mild, "goodput").Float(), leoMetric(strong, "goodput").Float(); !(g4 < g1) {
		t.Errorf("goodput %g at 1 urad, %g at 4 urad: want a loss", g1, g4)
	}
}

// TestLEOPathReorderingRetransmits is the qualitative check of Hypatia's
// TCP result (Kassing et al., IMC 2020, section 5: over a moving path,
// RTT steps at path changes, reordering triggers retransmissions, cwnd
// drops). One NewReno flow with SACK (ns-3's default, which Hypatia runs)
// at 10 Mbit/s, Istanbul to Nairobi on Kuiper K1 for 200 s, no bit
// errors, and queues too large to overflow, so that every retransmission
// has another cause than congestion loss. The path shortens by 15.8 ms at
// t = 145.2 s (62.7 to 46.9 ms, the step Hypatia's own series shows, see
// engine/orbit/testdata/hypatia): segments on the new path overtake those
// in flight on the old one, the SACK scoreboard declares them lost, and
// the sender retransmits data that had arrived and halves its window.
func TestLEOPathReorderingRetransmits(t *testing.T) {
	if testing.Short() {
		t.Skip("200 s of simulated TCP")
	}
	// The former host (no undo, no adaptive reordering) shows the
	// reordering's cost that the Linux host's mechanisms take back.
	over := formerLEOHost()
	for k, v := range map[string]vocab.Value{"isl_errors": vocab.B(false), "src": vocab.S("istanbul"), "dst": vocab.S("nairobi"),
		"queue": vocab.I(1 << 20), "window": vocab.I(400000), "isl_rate": vocab.F(10e6)} {
		over[k] = v
	}
	res := runLEO(t, over)
	if d := leoMetric(res, "queue_drops").Int(); d != 0 {
		t.Fatalf("%d queue drops: the check needs a loss-free network", d)
	}
	retrans, spurious := leoMetric(res, "retrans_segs").Int(), leoMetric(res, "spurious_retrans").Int()
	if retrans == 0 || spurious != retrans || leoMetric(res, "fast_recoveries").Int() == 0 {
		t.Errorf("retransmissions %d, spurious %d, fast recoveries %d: want reordering-driven (all spurious) recoveries",
			retrans, spurious, leoMetric(res, "fast_recoveries").Int())
	}
	if leoMetric(res, "reordered_segs").Int() == 0 {
		t.Error("no segment overtaken")
	}
	// The time series: find the shortening step and the cwnd on each side.
	var stepAt float64
	var before, after int64
	rows := res.Tables[0]
	for i := 1; i < len(rows); i++ {
		r0, r1 := rows[i-1][2].Float(), rows[i][2].Float()
		if stepAt == 0 && r1 > 0 && r0-r1 > 0.010 {
			stepAt, before = rows[i][0].Float(), rows[i-1][6].Int()
			if i+5 < len(rows) {
				after = rows[i+5][6].Int()
			}
		}
	}
	if stepAt < 145 || stepAt > 145.5 {
		t.Fatalf("RTT drop of more than 10 ms at t = %.1f s, want the one at 145.2 s", stepAt)
	}
	if !(after < before*3/4) {
		t.Errorf("cwnd %d before the step at %.1f s, %d half a second after: want a drop", before, stepAt, after)
	}
}

// TestExceedLength checks the bisection behind the exceed fractions: at
// the length it returns the fade-averaged PER is at most the threshold,
// and a few metres farther it is above.
func TestExceedLength(t *testing.T) {
	for _, name := range []string{"oct-10g", "isl-100g"} {
		term, _ := phy.TerminalNamed(name)
		for _, sigma := range []float64{0.5e-6, 1e-6, 2e-6} {
			j := phy.Jitter{Sigma: sigma, Gain: term.Gain()}
			l := exceedLength(term, j, 1500, 1e-6)
			if math.IsInf(l, 1) || l <= 0 {
				t.Fatalf("%s, sigma %g: exceed length %g", name, sigma, l)
			}
			if below, above := term.MeanPER(l, j, 1500), term.MeanPER(l+2, j, 1500); !(below <= 1e-6 && above > 1e-6) {
				t.Errorf("%s, sigma %g: PER %.3g at %.0f m and %.3g 2 m farther, want the 1e-6 crossing between", name, sigma, below, l, above)
			}
		}
	}
}

// TestSeqWatch feeds the receiver-side classifier a stream whose sequence
// numbers wrap past 2^32: a segment overtaken by the next one counts as
// reordered, a segment seen twice as a spurious retransmission, and a
// retransmission that fills a hole as neither.
func TestSeqWatch(t *testing.T) {
	const mss = 1000
	isn := uint32(1<<32 - 2500) // the third segment's sequence numbers wrap
	w := seqWatch{isn: isn, mss: mss}
	seg := func(i int, retrans bool) *netsim.Packet {
		return &netsim.Packet{Seq: isn + 1 + uint32(i*mss), Payload: mss, Retransmitted: retrans}
	}
	for _, s := range []struct {
		i       int
		retrans bool
	}{{0, false}, {1, false}, {3, false}, {2, false}, {4, false}, {4, true}, {6, false}, {5, true}, {7, false}} {
		w.note(seg(s.i, s.retrans))
	}
	// Segment 2 arrived after 3 (reordered); 4 came twice (spurious); the
	// retransmitted 5 filled a hole.
	if w.reor != 1 || w.dup != 1 {
		t.Errorf("reordered %d, duplicates %d, want 1 and 1", w.reor, w.dup)
	}
	if w.high != 7*mss {
		t.Errorf("highest offset %d, want %d (unwrapped)", w.high, 7*mss)
	}
	// Past 4 GB of stream the relative sequence number wraps; the offset
	// keeps growing.
	v := seqWatch{isn: 0, mss: mss, high: 1<<32 - 2*mss, any: true}
	v.note(&netsim.Packet{Seq: 1 + uint32(1<<32-mss), Payload: mss})
	v.note(&netsim.Packet{Seq: 1, Payload: mss}) // offset 2^32
	if v.high != 1<<32 || v.reor != 0 || v.dup != 0 {
		t.Errorf("after the wrap: highest offset %d, reordered %d, duplicates %d; want 2^32, 0, 0", v.high, v.reor, v.dup)
	}
}

// leoArrivals records the packets a node receives and when.
type leoArrivals struct {
	ids []uint64
	at  []des.Time
}

func (a *leoArrivals) Receive(now des.Time, p *netsim.Packet) {
	a.ids = append(a.ids, p.ID)
	a.at = append(a.at, now)
}

// TestSpaceHopKeepsPath checks the atomic switch of the forwarding state:
// a packet keeps the delay of the path in force when it entered the space
// segment, so after a switch to a path 10 ms shorter a packet sent 1 ms
// later arrives 9 ms earlier, and each arrives exactly after its own
// path's delay.
func TestSpaceHopKeepsPath(t *testing.T) {
	s := des.New()
	net := netsim.New(s, 1)
	sb, dst := net.AddNode("space-dst"), net.AddNode("dst")
	down, err := net.Connect(sb, dst, netsim.LinkConfig{Name: "down"}) // infinitely fast, no delay
	if err != nil {
		t.Fatal(err)
	}
	rec := &leoArrivals{}
	dst.SetDefault(rec)
	w := &leoWorld{ok: true, oneWay: int64(50 * des.Millisecond), islRate: 1e10}
	h := &spaceHop{w: w, s: s, net: net, down: down}
	send := func() uint64 {
		p := net.NewPacket()
		p.Dst, p.Size = dst.ID(), 1500
		h.Send(p)
		return p.ID
	}
	var first, second uint64
	s.Schedule(0, leoHandlerFunc(func(now des.Time) { first = send() }), 0, 0)
	s.Schedule(des.Time(des.Millisecond), leoHandlerFunc(func(now des.Time) {
		w.oneWay = int64(40 * des.Millisecond) // the new, shorter path
		second = send()
	}), 0, 0)
	if err := s.Run(t.Context(), des.Time(des.Second)); err != nil {
		t.Fatal(err)
	}
	if len(rec.ids) != 2 || rec.ids[0] != second || rec.ids[1] != first {
		t.Fatalf("arrival order %v, want the second packet (%d) before the first (%d)", rec.ids, second, first)
	}
	if want := des.Time(41 * des.Millisecond); rec.at[0] != want {
		t.Errorf("second packet at %v, want %v (1 ms + the new path's 40 ms)", rec.at[0], want)
	}
	if want := des.Time(50 * des.Millisecond); rec.at[1] != want {
		t.Errorf("first packet at %v, want %v (the old path's 50 ms)", rec.at[1], want)
	}
}

// leoHandlerFunc adapts a function to des.Handler.
type leoHandlerFunc func(now des.Time)

func (f leoHandlerFunc) Handle(now des.Time, kind int, arg uint64) { f(now) }

// TestLEOPathPyEphem checks that motion and earth pyephem give the model
// Hypatia's geometry: the Manila - Dalian path RTT at t = 0 and 0.1 s
// equals satgenpy's (engine/orbit/testdata/hypatia: 29.423138 and
// 29.420275 ms, written to the nanosecond) within 1 ns; sgp4 on wgs72
// is about 100 ns off.
func TestLEOPathPyEphem(t *testing.T) {
	for _, c := range []struct{ t, want float64 }{{0, 29.423138e-3}, {0.1, 29.420275e-3}} {
		cfg, err := decodeLEO(leoParams(t, map[string]vocab.Value{"motion": vocab.S("pyephem"), "earth": vocab.S("pyephem"),
			"src": vocab.S("manila"), "dst": vocab.S("dalian"), "shell": vocab.S("kuiper-k1"), "ground_rule": vocab.S("cone")}))
		if err != nil {
			t.Fatal(err)
		}
		sc, err := buildLEO(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		var p orbit.Path
		if !sc.w.router.Route(c.t, &p) {
			t.Fatalf("t=%g s: no path", c.t)
		}
		if got := 2 * p.Length / orbit.LightSpeed; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("t=%g s: RTT %.6f ms, Hypatia %.6f ms", c.t, got*1e3, c.want*1e3)
		}
	}
}

// TestLEOPathLinuxHost holds that leo-path's flows are the Linux host of
// tcp_host.go: every host parameter with the table's definition and
// default, and the endpoint config those defaults give written out by
// hand from the Linux settings the table cites (IW 10, delayed and quick
// ACKs, RACK-TLP, PRR, timestamps, DSACK, undo, F-RTO, adaptive
// reordering, min_rto on RTTVAR, the per-segment loss report to BBRv2,
// HyStart, byte counting, SACK compression).
func TestLEOPathLinuxHost(t *testing.T) {
	s := NewLEOPath().Schema()
	for _, h := range hostTable() {
		want := h.param
		i := s.ParamIndex(want.Name)
		if i < 0 {
			t.Errorf("leo-path has no host parameter %s", want.Name)
			continue
		}
		g := s.Params[i]
		if g.Kind != want.Kind || g.Unit != want.Unit || g.Min != want.Min || g.Max != want.Max ||
			strings.Join(g.Choices, ",") != strings.Join(want.Choices, ",") || g.Default != want.Default {
			t.Errorf("leo-path: %s is not the host table's definition:\n got %+v\nwant %+v", want.Name, g, want)
		}
	}
	c, err := decodeLEO(s.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	linux := tcp.Config{MSS: 1448, InitialWindow: 10, RcvBuf: 16 << 20, SndBuf: 1 << 40, WindowScaling: true,
		SACK: true, DelayedACK: true, MinRTO: 200 * des.Millisecond, LimitedTransmit: true, Recovery: tcp.RecoveryPRR,
		LossDetection: tcp.LossRACKTLP, Timestamps: true, SYNTimeout: des.Second,
		QuickAck: true, DSACK: true, Undo: true, FRTO: true, AdaptiveReordering: true, RTOVarFloor: true, SkbMarkedLost: true, SACKRateSamples: true, SACKCompression: true, EDTCredit: true}
	if diff := cmp.Diff(linux, c.host.config(c.window, 1<<40)); diff != "" {
		t.Errorf("leo-path's default host is not Linux's (-linux +now):\n%s", diff)
	}
	if got, want := c.host.ccOptions(7), (cc.Options{HyStart: true, HyStartVariant: cc.HyStartLinux, CubicVariant: cc.CubicLinuxVariant, ABC: cc.ABCUnlimited, Seed: 7}); got != want {
		t.Errorf("leo-path's controller options = %+v, want Linux's %+v", got, want)
	}
}

// formerLEOHost is the host leo-path's flows had before they were the
// Linux host (version 3): RFC 3390's initial window, no delayed ACKs,
// timestamps, RACK-TLP, PRR, HyStart, byte counting, and none of Linux's
// recovery mechanisms, with RFC 6298's RTO floor.
func formerLEOHost() map[string]vocab.Value {
	return map[string]vocab.Value{
		"iw": vocab.I(0), "delayed_ack": vocab.B(false), "loss_detection": vocab.S("dupthresh"),
		"prr": vocab.B(false), "timestamps": vocab.B(false), "hystart": vocab.B(false), "byte_counting": vocab.B(false),
		"quick_ack": vocab.B(false), "dsack": vocab.B(false), "undo": vocab.B(false), "frto": vocab.B(false),
		"adaptive_reordering": vocab.B(false), "rto_min_on": vocab.S("rto"),
	}
}

// TestLEOPathLinuxSender runs one CUBIC flow for 200 s from Tokyo to
// Sydney over Kuiper K1 with loss-free 10 Mbit/s ISLs, where the path's
// RTT steps up and down at every path change (219-266 ms over the run).
// A Linux sender rides it out: its RTO is SRTT + max(4 RTTVAR, 200 ms), so
// the longer path does not fire the timer, and DSACKs undo the reductions
// that reordering caused. The bounds: goodput at least 9 Mbit/s (90 % of
// the ISL rate; the ground links are 4x faster), at most 2 RTOs and at most
// 10 % of the retransmissions spurious. The former host, RFC 6298's RTO
// without Linux's recovery mechanisms, timed out 19 times and sent 2,189
// spurious retransmissions of 2,841 on the same path; the test checks that
// it still falls short, so that the bounds measure the mechanisms.
func TestLEOPathLinuxSender(t *testing.T) {
	if testing.Short() {
		t.Skip("two runs of 200 s of simulated TCP")
	}
	path := func() map[string]vocab.Value {
		return map[string]vocab.Value{"shell": vocab.S("kuiper-k1"), "src": vocab.S("tokyo"), "dst": vocab.S("sydney"),
			"flows": vocab.I(1), "cca": vocab.S("cubic"), "isl_errors": vocab.B(false), "isl_rate": vocab.F(10e6),
			"duration": vocab.F(200)}
	}
	type outcome struct {
		goodput                 float64
		rtos, retrans, spurious int64
	}
	run := func(over map[string]vocab.Value) outcome {
		res := runLEO(t, over)
		return outcome{leoMetric(res, "goodput").Float(), leoMetric(res, "rtos").Int(),
			leoMetric(res, "retrans_segs").Int(), leoMetric(res, "spurious_retrans").Int()}
	}
	good := func(o outcome) bool {
		return o.goodput >= 9e6 && o.rtos <= 2 && float64(o.spurious) <= 0.10*float64(o.retrans)
	}
	linux := run(path())
	t.Logf("Linux host: %.2f Mbit/s, %d RTOs, %d of %d retransmissions spurious", linux.goodput/1e6, linux.rtos, linux.spurious, linux.retrans)
	if !good(linux) {
		t.Errorf("Linux host: %.2f Mbit/s, %d RTOs, %d of %d retransmissions spurious; want >= 9 Mbit/s, <= 2 RTOs, <= 10 %% spurious",
			linux.goodput/1e6, linux.rtos, linux.spurious, linux.retrans)
	}
	over := path()
	for k, v := range formerLEOHost() {
		over[k] = v
	}
	former := run(over)
	t.Logf("former host: %.2f Mbit/s, %d RTOs, %d of %d retransmissions spurious", former.goodput/1e6, former.rtos, former.spurious, former.retrans)
	if good(former) {
		t.Errorf("former host also meets the bounds (%+v): they no longer tell the Linux mechanisms apart", former)
	}
}
