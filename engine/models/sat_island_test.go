package models

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// runSat runs sat-island with the given overrides and returns its metrics
// by name.
func runSat(t testing.TB, set map[string]vocab.Value, seed uint64) map[string]float64 {
	t.Helper()
	m := NewSatIsland()
	p := m.Schema().Defaults()
	for k, v := range set {
		p = p.With(k, v)
	}
	r, err := m.Run(context.Background(), p, seed)
	if err != nil {
		t.Fatalf("sat-island %v: %v", set, err)
	}
	out := map[string]float64{}
	for i, mt := range m.Schema().Metrics {
		out[mt.Name] = math.NaN() // null: not applicable
		if r.Metrics[i].Kind() != vocab.Invalid {
			out[mt.Name] = r.Metrics[i].Float()
		}
	}
	return out
}

// TestSatDelay checks the orbit delays against the closed-form slant range
// (document 004: O3b "around 120 ms" round trip, GEO "500 ms plus").
func TestSatDelay(t *testing.T) {
	for _, tc := range []struct {
		name   string
		alt    float64
		wantMs float64 // 2 x slant range at 45 degrees / c + 5 ms, by hand
		rttLo  float64
		rttHi  float64
	}{
		{"geo", orbit.AltitudeGEO, 254.59, 500, 560},
		{"meo", orbit.AltitudeO3b, 66.43, 110, 140},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SatOneWayDelay(tc.alt, 45, 5*des.Millisecond).Seconds() * 1e3
			if math.Abs(got-tc.wantMs) > 0.01 {
				t.Errorf("SatOneWayDelay(%s) = %.3f ms, want %.2f ms", tc.name, got, tc.wantMs)
			}
			if rtt := 2 * got; rtt < tc.rttLo || rtt > tc.rttHi {
				t.Errorf("round trip %s = %.1f ms, want within [%g, %g] ms (document 004)", tc.name, rtt, tc.rttLo, tc.rttHi)
			}
		})
	}
}

// TestShortFlowIdle: on an idle link a flow of 10 segments completes in 2
// RTT (SYN/SYN-ACK, then request/response with IW10) plus the
// serialisation of its 10 packets at the satellite rate (RFC 6928's IW10
// sends them in one flight). Tolerance 1 %: the LAN and terrestrial
// serialisation and the 100-byte request add well under that.
func TestShortFlowIdle(t *testing.T) {
	for _, o := range []string{"geo", "meo"} {
		t.Run(o, func(t *testing.T) {
			got := runSat(t, map[string]vocab.Value{
				"orbit": vocab.S(o), "channels": vocab.I(1), "probe_size": vocab.I(0),
				"flow_cdf": vocab.S("14600:1"), "terr_delay_min": vocab.F(0.02), "terr_delay_max": vocab.F(0.02),
				"duration": vocab.F(20), "warmup": vocab.F(2), "stagger": vocab.F(0),
			}, 1)
			rtt := 2 * (got["sat_one_way_delay"] + 0.02 + 0.0005)
			ser := float64(netsim.TransmissionTime(10*1500, 32e6)) / 1e9
			want := 2*rtt + ser
			if math.Abs(got["short_fct_mean"]-want)/want > 0.01 {
				t.Errorf("short_fct_mean(%s) = %.4f s, want 2 RTT + serialisation = %.4f s", o, got["short_fct_mean"], want)
			}
			if got["payload_loss"] != 0 {
				t.Errorf("payload_loss(%s) = %g %%, want 0 on an idle link", o, got["payload_loss"])
			}
		})
	}
}

// TestShapes checks document 004's results at 200 channels (30 s, one
// seed). The orderings: MEO completes more flows and more goodput, loses
// more payload and its probe is slower. The values: the document prints
// the payload loss at 200 channels, "MEO loses nearly twice as much of
// its data (~4.8%) as GEO (~2.5%)"; their ratio must hold within
// [1.5, 2.5] ("nearly twice"). The levels themselves are sp-loss's claims,
// judged on the full profile (docs/verdicts-full.md), not here: this one
// seed measured 2.56 % and 5.36 %, within 20 % of the document's, while
// the sender timed an ACK that ended a loss repair by the segments the
// receiver had SACKed long before; with Linux's RTT samples (no sample
// from an ACK that covers a retransmission) the flows meet fewer timeouts
// (12 against 19 for GEO) and the queue drops more: 3.18 % and 6.49 %,
// 27 % and 35 % above the document's (ratio 2.04). And the closed form no
// run can pass: goodput is at most the satellite rate's payload share,
// 32 Mbit/s x 1448 / 1500 (mss over mss + 40 header + 12 timestamp
// bytes), since every byte delivered after the warm-up crossed the
// satellite link within as long a time.
func TestShapes(t *testing.T) {
	set := func(o string) map[string]vocab.Value {
		p := map[string]vocab.Value{"orbit": vocab.S(o), "channels": vocab.I(200), "duration": vocab.F(30),
			"warmup": vocab.F(5), "probe_start": vocab.F(5), "sample_interval": vocab.F(0)}
		// The host of specs/sp-fig1.yaml, whose figures are the ones
		// compared with document 004 (on the Linux host, MEO loses 5.90 %;
		// with only its CUBIC as Linux's, tcp_cubic.c and Linux's HyStart,
		// GEO 3.17 % and MEO 5.86 %).
		for k, v := range map[string]vocab.Value{"mss": vocab.I(1460), "prr": vocab.B(false), "timestamps": vocab.B(false),
			"byte_counting": vocab.B(false), "delayed_ack": vocab.B(false), "quick_ack": vocab.B(false), "dsack": vocab.B(false),
			"undo": vocab.B(false), "frto": vocab.B(false), "adaptive_reordering": vocab.B(false), "rto_min_on": vocab.S("rto"),
			"sack_compression": vocab.B(false), "hystart_variant": vocab.S("rfc9406"), "cubic_variant": vocab.S("rfc9438")} {
			p[k] = v
		}
		return p
	}
	geo, meo := runSat(t, set("geo"), 3), runSat(t, set("meo"), 3)
	for _, name := range []string{"flows_completed", "goodput", "payload_loss"} {
		if !(meo[name] > geo[name]) {
			t.Errorf("%s: meo %g <= geo %g, want meo higher", name, meo[name], geo[name])
		}
	}
	if !(meo["probe_goodput"] < geo["probe_goodput"]) {
		t.Errorf("probe_goodput: meo %g >= geo %g, want meo slower", meo["probe_goodput"], geo["probe_goodput"])
	}
	for _, tc := range []struct {
		orbit string
		got   map[string]float64
		doc   float64
	}{{"geo", geo, 0.025}, {"meo", meo, 0.048}} {
		t.Logf("%s payload_loss = %.2f %%, document 004's %.1f %%", tc.orbit, 100*tc.got["payload_loss"], 100*tc.doc)
		if g, bound := tc.got["goodput"], 32e6*1448/1500; g > bound {
			t.Errorf("%s goodput = %.4g bit/s, above the payload rate %.4g bit/s", tc.orbit, g, bound)
		}
	}
	if r := meo["payload_loss"] / geo["payload_loss"]; r < 1.5 || r > 2.5 {
		t.Errorf("payload loss meo/geo = %.2f, want nearly twice (document 004: 4.8/2.5), in [1.5, 2.5]", r)
	}
	t.Logf("200 channels: loss geo %.2f %% meo %.2f %% (document 2.5, 4.8)", 100*geo["payload_loss"], 100*meo["payload_loss"])
}

// TestOptions runs each option once: the coder must rebuild packets and
// leave TCP less loss than the queue dropped; the proxy and FQ-CoDel must
// run to the end with flows completing.
func TestOptions(t *testing.T) {
	base := func() map[string]vocab.Value {
		return map[string]vocab.Value{"orbit": vocab.S("meo"), "channels": vocab.I(150), "duration": vocab.F(20),
			"warmup": vocab.F(3), "probe_start": vocab.F(3), "sample_interval": vocab.F(0)}
	}
	t.Run("coding", func(t *testing.T) {
		s := base()
		s["coding"] = vocab.B(true)
		got := runSat(t, s, 5)
		if got["coding_recovered"] <= 0 || !(got["residual_loss"] < got["payload_loss"]) {
			t.Errorf("coding: recovered %g, residual %g vs dropped %g (fractions); want recoveries and less residual loss",
				got["coding_recovered"], got["residual_loss"], got["payload_loss"])
		}
		// 10+2 costs at least 20 % (partial blocks cost more).
		if got["coding_overhead"] < 0.20 {
			t.Errorf("coding_overhead = %g, want >= 0.20", got["coding_overhead"])
		}
	})
	for _, opt := range []struct {
		name string
		k    string
		v    vocab.Value
	}{{"pep", "pep", vocab.B(true)}, {"fq_codel", "aqm", vocab.S("fq_codel")}} {
		t.Run(opt.name, func(t *testing.T) {
			s := base()
			s[opt.k] = opt.v
			got := runSat(t, s, 5)
			if got["flows"] < 1000 {
				t.Errorf("%s: %g flows completed, want > 1000", opt.name, got["flows"])
			}
		})
	}
}

// TestFlowSizes checks the default distribution against its closed form:
// P(size <= 10 segments) ~ 0.9 and the sample mean near the mean (shape
// 1.5 for the sample test, whose variance is finite enough for 2e5 draws
// to land within 2 %).
func TestFlowSizes(t *testing.T) {
	bp := workload.BoundedPareto{Alpha: defaultFlowAlpha, Min: defaultFlowMin, Max: defaultFlowMax}
	if got := bp.CDF(14600); math.Abs(got-0.9) > 0.005 {
		t.Errorf("CDF(14600) = %.4f, want 0.90", got)
	}
	if got := bp.Mean(); math.Abs(got-13170)/13170 > 0.005 {
		t.Errorf("Mean() = %.0f, want 13170 (spec sp-fig1)", got)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range []workload.FlowSizes{
		workload.BoundedPareto{Alpha: 1.5, Min: 1000, Max: 1e6},
		func() workload.FlowSizes { e, _ := workload.ParseCDF("1460:0.5, 14600:0.9\n# tail\n1e6:1"); return e }(),
	} {
		var sum float64
		const n = 200000
		for range n {
			sum += float64(d.Sample(r))
		}
		if got, want := sum/n, d.Mean(); math.Abs(got-want)/want > 0.02 {
			t.Errorf("%T: sample mean %.0f, want %.0f", d, got, want)
		}
	}
	for _, bad := range []string{"", "1460", "1460:0.5", "2000:0.5 1000:1", "x:1"} {
		if _, err := workload.ParseCDF(bad); err == nil {
			t.Errorf("ParseCDF(%q) = nil error, want an error", bad)
		}
	}
}

// BenchmarkSatIsland200 is the speed check of the issue: 200 channels over
// 32 Mbit/s for 600 simulated seconds.
func BenchmarkSatIsland200(b *testing.B) {
	for _, o := range []string{"geo", "meo"} {
		b.Run(o, func(b *testing.B) {
			b.ReportAllocs()
			var ev float64
			for b.Loop() {
				got := runSat(b, map[string]vocab.Value{"orbit": vocab.S(o), "channels": vocab.I(200),
					"duration": vocab.F(600), "warmup": vocab.F(10)}, 1)
				ev = got["events"]
			}
			b.ReportMetric(ev*float64(b.N)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/scenario")
		})
	}
}

// TestSatTimeouts: rtos and rto_episodes count the timeouts of every
// connection: none over a lossless path (one channel, a 16 MB buffer),
// some once a 3 kB satellite buffer drops whole flights of 100 channels'
// flows (at least one timeout a second over 20 s), never fewer expiries
// than sequences, and after a warm-up no more than over the whole run.
func TestSatTimeouts(t *testing.T) {
	base := map[string]vocab.Value{"duration": vocab.F(20), "probe_size": vocab.I(0), "sample_interval": vocab.F(0)}
	with := func(kv ...any) map[string]vocab.Value {
		m := map[string]vocab.Value{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1].(vocab.Value)
		}
		return m
	}
	clean := runSat(t, with("channels", vocab.I(1), "buffer", vocab.I(16e6)), 1)
	if clean["rtos"] != 0 || clean["rto_episodes"] != 0 {
		t.Errorf("lossless path: rtos %v, rto_episodes %v, want 0", clean["rtos"], clean["rto_episodes"])
	}
	lossy := runSat(t, with("buffer", vocab.I(3000)), 1)
	if lossy["rtos"] < 20 || lossy["rto_episodes"] < 1 || lossy["rto_episodes"] > lossy["rtos"] {
		t.Errorf("3 kB buffer: rtos %v, rto_episodes %v, want at least 20 and 1 <= episodes <= rtos (payload loss %.3g)",
			lossy["rtos"], lossy["rto_episodes"], lossy["payload_loss"])
	}
	late := runSat(t, with("buffer", vocab.I(3000), "warmup", vocab.F(10)), 1)
	t.Logf("rtos: lossless %v, 3 kB buffer %v (%v episodes, payload loss %.3g), after 10 s %v", clean["rtos"], lossy["rtos"], lossy["rto_episodes"], lossy["payload_loss"], late["rtos"])
	if late["rtos"] > lossy["rtos"] || late["rtos"] == 0 {
		t.Errorf("rtos after a 10 s warm-up %v, over the whole run %v: want fewer, but some", late["rtos"], lossy["rtos"])
	}
}

// TestSatQueueForms: sat-island's satellite input queue takes its limit
// in the shared forms (queue, queue_bdp) or in bytes (buffer, as document
// 004's specs set it), one at a time. Worked by hand for sp-fig1's GEO
// link (32 Mbit/s, 1460-byte MSS without timestamps: 1500-byte packets):
// the one-way delay is 2 x 37,412.2 km / c + 5 ms = 254.587 ms
// (TestSatDelay), the BDP 32e6 / 8 x 0.254587 = 1,018,350 B = 678.90
// packets, so queue_bdp 100 % is 679 packets and 10 % is 67.89, 68.
func TestSatQueueForms(t *testing.T) {
	sp := map[string]vocab.Value{"mss": vocab.I(1460), "timestamps": vocab.B(false)}
	params := func(set map[string]vocab.Value) vocab.Params {
		p := NewSatIsland().Schema().Defaults()
		for k, v := range sp {
			p = p.With(k, v)
		}
		for k, v := range set {
			p = p.With(k, v)
		}
		return p
	}
	for _, tc := range []struct {
		name  string
		set   map[string]vocab.Value
		queue netsim.QueueModel
		err   []string // an error naming these, the fix included
	}{
		{"none-geo", nil, netsim.DropTail{Bytes: 250_000}, nil},
		{"none-meo", map[string]vocab.Value{"orbit": vocab.S("meo")}, netsim.DropTail{Bytes: 200_000}, nil},
		{"buffer", map[string]vocab.Value{"buffer": vocab.I(2e6)}, netsim.DropTail{Bytes: 2e6}, nil},
		{"queue", map[string]vocab.Value{"queue": vocab.I(300)}, netsim.DropTail{Packets: 300}, nil},
		{"queue_bdp-100", map[string]vocab.Value{"queue_bdp": vocab.F(1)}, netsim.DropTail{Packets: 679}, nil},
		{"queue_bdp-10", map[string]vocab.Value{"queue_bdp": vocab.F(0.1)}, netsim.DropTail{Packets: 68}, nil},
		{"queue_bdp-codel", map[string]vocab.Value{"queue_bdp": vocab.F(1), "aqm": vocab.S("codel")},
			netsim.CoDel{Target: 0, Interval: 2*SatOneWayDelay(orbit.AltitudeGEO, 45, 5*des.Millisecond) + 100*des.Millisecond, Limit: 679}, nil},
		{"buffer+queue", map[string]vocab.Value{"buffer": vocab.I(2e6), "queue": vocab.I(300)}, nil,
			[]string{"buffer 2", "queue 300", "not both"}},
		{"buffer+queue_bdp", map[string]vocab.Value{"buffer": vocab.I(2e6), "queue_bdp": vocab.F(1)}, nil,
			[]string{"buffer 2", "queue_bdp 100%", "not both"}},
		{"queue+queue_bdp", map[string]vocab.Value{"queue": vocab.I(300), "queue_bdp": vocab.F(1)}, nil,
			[]string{"queue 300", "queue_bdp 100%", "not both"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := decodeSatIsland(params(tc.set))
			if tc.err != nil {
				if err == nil {
					t.Fatalf("%v accepted, want an error naming %q", tc.set, tc.err)
				}
				for _, w := range tc.err {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.queue != tc.queue {
				t.Errorf("satellite queue %+v, want %+v", c.queue, tc.queue)
			}
		})
	}
	// The forms set the same queue, so the same scenario: 10 % of the BDP
	// and 68 packets give equal metrics (same seed), with the queue
	// dropping so that its limit shows.
	run := func(set map[string]vocab.Value) vocab.Result {
		set["duration"], set["probe_size"] = vocab.F(20), vocab.I(0)
		r, err := NewSatIsland().Run(t.Context(), params(set), 3)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := run(map[string]vocab.Value{"queue_bdp": vocab.F(0.1)}), run(map[string]vocab.Value{"queue": vocab.I(68)})
	for i, c := range NewSatIsland().Schema().Metrics {
		if !a.Metrics[i].Equal(b.Metrics[i]) {
			t.Errorf("%s: %v with queue_bdp 10 %%, %v with queue 68", c.Name, a.Metrics[i], b.Metrics[i])
		}
	}
	if a.Metrics[siLoss].Kind() == vocab.Invalid || a.Metrics[siLoss].Float() == 0 {
		t.Errorf("payload loss %v: the 68-packet queue does not limit, the comparison shows nothing", a.Metrics[siLoss])
	}
}

// TestSatUtilisationPerInterval: the timeseries' utilisation is the
// transmitter's busy share of each interval, so on a saturated link
// (400 channels and the probe into 32 Mbit/s, sp-fig1's heaviest load)
// it stays within [0, 1], where counting the bytes of the packets that
// ended in an interval gave up to 1.00037 (sp-fig1's full profile); and
// the intervals after warm-up add up to the main table's busy time over
// the same span, to float rounding (1e-12 relative: the busy times are
// whole nanoseconds, the shares their quotients).
func TestSatUtilisationPerInterval(t *testing.T) {
	m := NewSatIsland()
	p := m.Schema().Defaults().
		With("duration", vocab.F(30)).
		With("warmup", vocab.F(5)).
		With("sample_interval", vocab.F(0.1)).
		With("channels", vocab.I(400))
	r, err := m.Run(context.Background(), p, 3)
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int {
		for i, c := range m.Schema().Tables[0].Columns {
			if c.Name == name {
				return i
			}
		}
		t.Fatalf("no timeseries column %q", name)
		return -1
	}
	ti, ui := col("time"), col("utilisation")
	var busy, span, top float64
	prev := 0.0
	for _, row := range r.Tables[0] {
		at, u := row[ti].Float(), row[ui].Float()
		if u < 0 || u > 1 {
			t.Errorf("t = %.1f s: utilisation %v, outside [0, 1]", at, u)
		}
		top = max(top, u)
		if prev >= 5-1e-9 {
			busy += u * (at - prev)
			span += at - prev
		}
		prev = at
	}
	if span == 0 {
		t.Fatal("no interval after warm-up: the identity has nothing to check")
	}
	if top < 0.99 {
		t.Fatalf("largest interval utilisation %.4f: the link is not saturated, so the test shows nothing", top)
	}
	var main float64
	for i, mt := range m.Schema().Metrics {
		if mt.Name == "utilisation" {
			main = r.Metrics[i].Float()
		}
	}
	if got := busy / span; math.Abs(got-main) > 1e-12*main {
		t.Errorf("intervals after warm-up average %.15f busy, main table %.15f", got, main)
	}
}
