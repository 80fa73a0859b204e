package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// lnRun runs leo-network with its defaults and the overrides.
func lnRun(t *testing.T, over map[string]vocab.Value, seed uint64) vocab.Result {
	t.Helper()
	return runModel(t, NewLEONetwork(), over, seed)
}

func lnMetric(r vocab.Result, name string) vocab.Value {
	s := leoNetworkSchema()
	for i, m := range s.Metrics {
		if m.Name == name {
			return r.Metrics[i]
		}
	}
	panic("no metric " + name)
}

// lnCol returns the column index of name in table ti.
func lnCol(ti int, name string) int {
	for i, c := range leoNetworkSchema().Tables[ti].Columns {
		if c.Name == name {
			return i
		}
	}
	panic("no column " + name)
}

// TestLEONetworkConservation loads 20 of Hypatia's cities and a station
// at the North Pole (which no satellite of the shell reaches: its packets
// have no route) with TCP and UDP flows over a sparse shell (8 planes of
// 8 at 1,000 km, ISLs about 5,600 km long, often out of reach of a
// station) on 10 Mbit/s links with 20-packet queues, lossy ISLs (the
// isl-100g optics run at 400 Gbit/s), a satellite outage and a handover gap; it stops mid-flight and
// counts: every packet the endpoints sent was received, dropped by
// reason, or is held in a queue or on a wire. Exact, counts of packets;
// every outcome must occur, so the balance is not vacuous.
func TestLEONetworkConservation(t *testing.T) {
	var st strings.Builder
	for _, c := range orbit.HypatiaCities()[:20] {
		fmt.Fprintf(&st, "%s,%g,%g\n", c.Name, orbit.Degrees(c.Lat), orbit.Degrees(c.Lon))
	}
	st.WriteString("north-pole,90,0\n")
	r := lnRun(t, map[string]vocab.Value{
		"shells": vocab.S("walker:1000/8/8/53/1/10"), "ground_rule": vocab.S("elevation"),
		"stations": vocab.S(st.String()), "traffic": vocab.S("random:14"), "tcp_flows": vocab.I(2), "udp_flows": vocab.I(1),
		"udp_rate": vocab.F(4e6), "cca": vocab.S("newreno,cubic"), "isl_queue": vocab.I(20), "gsl_queue": vocab.I(20),
		"isl_errors": vocab.B(true), "adaptive_rate": vocab.B(true), "rate_modes": vocab.S("400e9"),
		"outages": vocab.S("sat:5@0.3-0.8"), "start_time": vocab.F(500),
		"handover_gap": vocab.F(0.05), "duration": vocab.F(8), "start_spread": vocab.F(0.5), "sample_interval": vocab.F(0.5),
	}, 3)
	get := func(n string) int64 { return lnMetric(r, n).Int() }
	sent, recv, held := get("packets_sent"), get("packets_received"), get("packets_held")
	drops := get("drops_overflow") + get("drops_aqm") + get("drops_corrupt") + get("drops_noroute")
	t.Logf("sent %d: received %d, overflow %d, corrupt %d, noroute %d, held %d; %d path changes, %d handover gaps",
		sent, recv, get("drops_overflow"), get("drops_corrupt"), get("drops_noroute"), held, get("path_changes"), get("handover_gaps"))
	if sent != recv+drops+held {
		t.Errorf("sent %d != received %d + dropped %d + held %d", sent, recv, drops, held)
	}
	for _, n := range []string{"packets_received", "drops_overflow", "drops_corrupt", "drops_noroute", "packets_held", "handover_gaps"} {
		if get(n) == 0 {
			t.Errorf("%s = 0: the test means every outcome to occur", n)
		}
	}
}

// TestLEONetworkBottleneckShare: four long-lived TCP flows (two NewReno,
// two CUBIC) from Manila to Dalian, ground links infinitely fast, ISLs
// at 10 Mbit/s with Hypatia's 100-packet queues, the route of time 0
// held (route_interval longer than the run): the first ISL of the path is
// the bottleneck, and a queue above the path's bandwidth-delay product
// (about 40 packets at a 50 ms RTT) keeps it busy. Closed form: the flows
// together deliver the bottleneck's rate times payload over wire bytes
// (1448 of 1500). Tolerance 1 %, the issue's; measured after a 5 s
// warm-up so that slow start is not counted.
func TestLEONetworkBottleneckShare(t *testing.T) {
	r := lnRun(t, map[string]vocab.Value{
		"stations": vocab.S("manila;dalian"), "traffic": vocab.S("manila>dalian"), "tcp_flows": vocab.I(4),
		"cca": vocab.S("newreno,cubic"), "gsl_rate": vocab.F(0), "isl_rate": vocab.F(10e6), "route_interval": vocab.F(100),
		"duration": vocab.F(30), "warmup": vocab.F(5), "start_spread": vocab.F(0.2), "sample_interval": vocab.F(0),
	}, 1)
	h := decodeHost(NewLEONetwork().Schema().Defaults())
	want := 10e6 * float64(h.mss) / float64(h.fullPacket())
	got := lnMetric(r, "tcp_goodput").Float()
	var per []float64
	for _, row := range r.Tables[0] {
		per = append(per, row[lnCol(0, "goodput")].Float()/1e6)
	}
	t.Logf("flows %.3f Mbit/s: %.4f together, closed form %.4f", per, got/1e6, want/1e6)
	if math.Abs(got/want-1) > 0.01 {
		t.Errorf("four flows through a 10 Mbit/s ISL deliver %.4f Mbit/s, want %.4f within 1 %%", got/1e6, want/1e6)
	}
}

// TestLEONetworkRTTMatchesLEOPath: one pair (Manila, Dalian) on Kuiper K1
// with the default geometry: the propagation round trip leo-network
// samples every 100 ms over 30 s is leo-path's, which its tests check
// against Hypatia's satgenpy. Both route every 100 ms; leo-path with
// orbit.Router between two stations, leo-network with the forwarding
// state toward every station, so the agreement checks the second against
// the first. Tolerance 1e-12 s: the two add the same link lengths in
// another order (a few ulps of 0.05 s).
func TestLEONetworkRTTMatchesLEOPath(t *testing.T) {
	const dur = 30
	lp, err := NewLEOPath().Run(t.Context(), leoParams(t, map[string]vocab.Value{
		"flows": vocab.I(0), "duration": vocab.F(dur), "isl_errors": vocab.B(false),
	}), 1)
	if err != nil {
		t.Fatal(err)
	}
	ln := lnRun(t, map[string]vocab.Value{
		"stations": vocab.S("manila;dalian"), "traffic": vocab.S("0>1"), "tcp_flows": vocab.I(0), "udp_flows": vocab.I(1),
		"udp_rate": vocab.F(1e3), "duration": vocab.F(dur), "sample_interval": vocab.F(0.1),
	}, 1)
	want := map[int64]float64{} // by time in ms
	for _, row := range lp.Tables[0] {
		want[int64(math.Round(row[0].Float()*1e3))] = row[2].Float()
	}
	n := 0
	for _, row := range ln.Tables[3] {
		ms := int64(math.Round(row[lnCol(3, "time")].Float() * 1e3))
		w, ok := want[ms]
		if !ok {
			continue
		}
		n++
		if got := row[lnCol(3, "rtt")].Float(); math.Abs(got-w) > 1e-12 {
			t.Errorf("t = %d ms: rtt %.15f s, leo-path %.15f s", ms, got, w)
		}
	}
	if n < dur*10-1 {
		t.Errorf("compared %d samples, want %d", n, dur*10)
	}
	if pc := lnMetric(ln, "path_changes").Int(); pc == 0 {
		t.Errorf("no path change in %d s: the comparison did not cover one", dur)
	}
}

// TestLEONetworkAdaptiveRate: on a sparse shell (10 planes of 10 at
// 1,000 km, ISLs of some 3,000 to 4,700 km) with the 400, 100 and 40
// Gbit/s modes, every busy ISL's rate is the highest mode whose
// data-packet PER at its length stays at or under 1e-6, and its BER that
// mode's, checked link by link against the budget (engine/phy) at the
// sampled lengths; the rate is the mode scaled to isl_rate. Exact up to
// the link's whole bit/s (1 bit/s) and the BER's last bits (1e-12
// relative). At least two modes must be seen, so the choice is exercised.
func TestLEONetworkAdaptiveRate(t *testing.T) {
	modes := []float64{400e9, 100e9, 40e9}
	r := lnRun(t, map[string]vocab.Value{
		"shells": vocab.S("walker:1000/10/10/53/1/10"), "ground_rule": vocab.S("elevation"),
		"stations": vocab.S("hypatia-100:40"), "traffic": vocab.S("random:10"), "tcp_flows": vocab.I(1),
		"adaptive_rate": vocab.B(true), "rate_modes": vocab.S("400e9,100e9,40e9"), "isl_rate": vocab.F(40e6),
		"isl_errors": vocab.B(true), "duration": vocab.F(10), "sample_interval": vocab.F(1),
	}, 1)
	h := decodeHost(NewLEONetwork().Schema().Defaults())
	term, _ := phy.TerminalNamed("isl-100g")
	seen := map[float64]int{}
	for _, row := range r.Tables[1] {
		if row[lnCol(1, "kind")].Str() != "isl" {
			continue
		}
		z, rate, ber := row[lnCol(1, "length")].Float(), row[lnCol(1, "rate")].Float(), row[lnCol(1, "ber")].Float()
		want := len(modes) - 1
		for i, m := range modes {
			tm := term
			tm.Rate = m
			if phy.PERExact(phy.BERQ(tm.SNR(z)), phy.WireBits(float64(h.fullPacket()))) <= 1e-6 {
				want = i
				break
			}
		}
		tm := term
		tm.Rate = modes[want]
		if w := 40e6 * modes[want] / modes[0]; math.Abs(rate-w) > 1 {
			t.Errorf("ISL %s at %.0f km: rate %.0f bit/s, want %.0f (mode %g)", row[lnCol(1, "link")].Str(), z/1e3, rate, w, modes[want])
		}
		if wb := phy.BERQ(tm.SNR(z)); math.Abs(ber-wb) > 1e-12*wb {
			t.Errorf("ISL %s at %.0f km: BER %g, want %g", row[lnCol(1, "link")].Str(), z/1e3, ber, wb)
		}
		seen[rate]++
	}
	t.Logf("rates of busy ISLs: %v; capacity fraction %.3f", seen, lnMetric(r, "isl_capacity").Float())
	if len(seen) < 2 {
		t.Errorf("busy ISLs at %d rate(s) %v: want the choice between modes exercised", len(seen), seen)
	}
}

// TestLEONetworkBadInput: the errors a spec gets at its line, each naming
// what is wrong.
func TestLEONetworkBadInput(t *testing.T) {
	s := leoNetworkSchema()
	param := func(name string) vocab.Param {
		return s.Params[s.ParamIndex(name)]
	}
	goodTLE := "ISS (ZARYA)\n1 25544U 98067A   08264.51782528 -.00002182  00000-0 -11606-4 0  2927\n2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391563537\n"
	badTLE := strings.Replace(goodTLE, "0  2927", "0  2928", 1)
	cases := []struct {
		param, value, want string
	}{
		{"shells", "walker:550/0/22/53/0", "0 planes"},
		{"shells", "kuiper-k2", "unknown shell"},
		{"stations", "manila;atlantis", "atlantis"},
		{"stations", "manila", "at least two"},
		{"tles", badTLE, "checksum"},
		{"traffic", "random:0", "positive"},
		{"traffic", "all:2000", "GiB"},
		{"traffic", "manila-dalian", "source>destination"},
		{"outages", "sat:3@5-2", "FROM < TO"},
		{"cca", "newreno,tahoe", "tahoe"},
		{"rate_modes", "10e9,fast", "fast"},
	}
	for _, c := range cases {
		err := param(c.param).Check(vocab.S(c.value))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.param) {
			t.Errorf("%s = %q: error %v, want one naming %s and %q", c.param, c.value, err, c.param, c.want)
		}
	}
	if err := param("tles").Check(vocab.S(goodTLE)); err != nil {
		t.Errorf("a published element set (CelesTrak's ISS example) refused: %v", err)
	}
}

// TestLEONetworkMemoryRefused: Starlink S1 with 4,000 stations and all
// their pairs would need far more than the limit: the run is refused with
// the estimate before anything is built.
func TestLEONetworkMemoryRefused(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 4000; i++ {
		b.WriteString("s,")
		b.WriteString(strings.TrimSpace(vocab.F(float64(i%170) - 85).String()))
		b.WriteString(",")
		b.WriteString(vocab.F(float64(i%360) - 180).String())
		b.WriteString("\n")
	}
	p := NewLEONetwork().Schema().Defaults().With("stations", vocab.S(b.String())).With("traffic", vocab.S("all")).With("shells", vocab.S("starlink-s1"))
	_, err := NewLEONetwork().Run(t.Context(), p, 1)
	if err == nil || !strings.Contains(err.Error(), "GiB") || !strings.Contains(err.Error(), "traffic") {
		t.Fatalf("error %v, want a refusal naming traffic with its estimate in GiB", err)
	}
	t.Log(err)
}

// TestLEONetworkDeterministic: a scenario is a pure function of its
// parameters and seed (every row of every table equal on a second run,
// random ISL losses from pointing jitter included),
// and another seed draws other random pairs.
func TestLEONetworkDeterministic(t *testing.T) {
	over := map[string]vocab.Value{
		"stations": vocab.S("hypatia-100:30"), "traffic": vocab.S("random:5"), "tcp_flows": vocab.I(1), "udp_flows": vocab.I(1),
		"cca": vocab.S("cubic"), "duration": vocab.F(2), "sample_interval": vocab.F(0.5),
		"isl_errors": vocab.B(true), "jitter_urad": vocab.F(2),
	}
	a, b, c := lnRun(t, over, 7), lnRun(t, over, 7), lnRun(t, over, 8)
	if lnMetric(a, "drops_corrupt").Int() == 0 {
		t.Error("no ISL loss with 2 microradians of jitter: the random draws are not exercised")
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs of the same parameters and seed differ")
	}
	if reflect.DeepEqual(a.Tables[2], c.Tables[2]) {
		t.Error("seeds 7 and 8 gave the same pairs and paths")
	}
}

// TestLEONetworkFleet: several shells and an element set in one
// scenario, routed over ISLs and with ground relays. The fleet numbers
// the shells' satellites, then the element sets' (Kuiper K1 1,156 +
// Telesat T1 351 + the ISS 1), with two extra links between them; every pair of the list finds a path at
// some step; and the packets balance (sent = received + dropped + held).
func TestLEONetworkFleet(t *testing.T) {
	iss := "ISS (ZARYA)\n1 25544U 98067A   08264.51782528 -.00002182  00000-0 -11606-4 0  2927\n2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391563537\n"
	for _, routing := range []string{"over-isls", "ground-relays"} {
		t.Run(routing, func(t *testing.T) {
			r := lnRun(t, map[string]vocab.Value{
				"shells": vocab.S("kuiper-k1,telesat-t1"), "tles": vocab.S(iss), "routing": vocab.S(routing),
				"extra_isls": vocab.S("0-1156;5-1507"),
				"stations":   vocab.S("hypatia-100:30"), "traffic": vocab.S("0>1;2>3;tokyo>4"), "tcp_flows": vocab.I(1),
				"duration": vocab.F(2), "sample_interval": vocab.F(0),
			}, 1)
			if n := lnMetric(r, "satellite_count").Int(); n != 1156+351+1 {
				t.Errorf("%d satellites, want 1,508", n)
			}
			// +Grid: two links per satellite of each shell; and the two
			// extra links (Kuiper to Telesat, Kuiper to the ISS).
			if n := lnMetric(r, "isl_count").Int(); n != 2*1156+2*351+2 {
				t.Errorf("%d ISLs, want 3,016", n)
			}
			found := map[int64]bool{}
			for _, row := range r.Tables[2] {
				if row[lnCol(2, "satellites")].Str() != "" {
					found[row[lnCol(2, "pair")].Int()] = true
				}
			}
			if len(found) != 3 {
				t.Errorf("pairs with a path: %v, want all 3", found)
			}
			get := func(n string) int64 { return lnMetric(r, n).Int() }
			if s, d := get("packets_sent"), get("packets_received")+get("drops_overflow")+get("drops_corrupt")+get("drops_noroute")+get("packets_held"); s != d || s == 0 {
				t.Errorf("sent %d, received + dropped + held %d", s, d)
			}
		})
	}
}

// TestLEONetworkAQM: the bottleneck of TestLEONetworkBottleneckShare with
// a 1,000-packet limit under DropTail and under CoDel (RFC 8289). DropTail
// lets the standing queue grow until it overflows; CoDel drops from the
// head once packets have waited more than its 5 ms target for a 100 ms
// interval, so the flows' mean RTT stays within a few targets of the
// propagation RTT. Bounds: CoDel's mean RTT at most 30 ms above the
// path's (the path's about 8 hops of 1.2 ms serialisation, plus two
// targets and room for slow start's samples), DropTail's at
// least 100 ms above (a 1,000-packet queue at 10 Mbit/s holds 1.2 s; the
// flows fill it between losses); CoDel drops only by AQM, and the link
// stays at least 95 % busy (the flows keep a few packets queued).
func TestLEONetworkAQM(t *testing.T) {
	h := decodeHost(NewLEONetwork().Schema().Defaults())
	capacity := 10e6 * float64(h.mss) / float64(h.fullPacket())
	res := map[string]vocab.Result{}
	for _, aqm := range []string{"droptail", "codel"} {
		res[aqm] = lnRun(t, map[string]vocab.Value{
			"stations": vocab.S("manila;dalian"), "traffic": vocab.S("manila>dalian"), "tcp_flows": vocab.I(4),
			"cca": vocab.S("newreno,cubic"), "gsl_rate": vocab.F(0), "isl_rate": vocab.F(10e6), "route_interval": vocab.F(100),
			"isl_queue": vocab.I(1000), "aqm": vocab.S(aqm),
			"duration": vocab.F(30), "warmup": vocab.F(5), "start_spread": vocab.F(0.2), "sample_interval": vocab.F(0),
		}, 1)
	}
	// No samples table: the path RTT is the paths table's first row.
	prop := res["codel"].Tables[2][0][lnCol(2, "rtt")].Float()
	mean := func(r vocab.Result) float64 {
		s := 0.0
		for _, row := range r.Tables[0] {
			s += row[lnCol(0, "rtt_mean")].Float()
		}
		return s / float64(len(r.Tables[0]))
	}
	cd, dt := mean(res["codel"]), mean(res["droptail"])
	t.Logf("path RTT %.1f ms; mean RTT CoDel %.1f ms, DropTail %.1f ms; goodput CoDel %.3f, DropTail %.3f Mbit/s; CoDel drops %d aqm, %d overflow",
		prop*1e3, cd*1e3, dt*1e3, lnMetric(res["codel"], "tcp_goodput").Float()/1e6, lnMetric(res["droptail"], "tcp_goodput").Float()/1e6,
		lnMetric(res["codel"], "drops_aqm").Int(), lnMetric(res["codel"], "drops_overflow").Int())
	if cd-prop > 0.030 {
		t.Errorf("CoDel: mean RTT %.1f ms, more than 30 ms above the path's %.1f ms", cd*1e3, prop*1e3)
	}
	if dt-prop < 0.100 {
		t.Errorf("DropTail: mean RTT %.1f ms, less than 100 ms above the path's %.1f ms", dt*1e3, prop*1e3)
	}
	if lnMetric(res["codel"], "drops_aqm").Int() == 0 || lnMetric(res["codel"], "drops_overflow").Int() != 0 {
		t.Errorf("CoDel: %d AQM drops, %d overflows; want some and none", lnMetric(res["codel"], "drops_aqm").Int(), lnMetric(res["codel"], "drops_overflow").Int())
	}
	if g := lnMetric(res["codel"], "tcp_goodput").Float(); g < 0.95*capacity {
		t.Errorf("CoDel: goodput %.3f Mbit/s, under 95 %% of %.3f", g/1e6, capacity/1e6)
	}
}

// TestLEONetworkJitterLoss: with pointing jitter an ISL loses each packet
// with its PER averaged over the fade (phy.Terminal.MeanPER), which is
// the loss probability of leo-path's draw of one fade per packet. A
// 2,000 km link of the isl-100g terminal with 2 microradians of jitter
// per axis: 200,000 data packets and 200,000 ACKs, each size's loss
// fraction within 4 binomial standard deviations of its mean PER (a false
// alarm about once in 16,000 runs; the stream is seeded, so it is fixed).
func TestLEONetworkJitterLoss(t *testing.T) {
	term, _ := phy.TerminalNamed("isl-100g")
	sc := &lnScenario{terms: []phy.Terminal{term}, jitter: phy.Jitter{Sigma: 2e-6, Gain: term.Gain()}, perCache: map[perKey]float64{}}
	l := &islPhy{sc: sc, km: 2000}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{1500, 52} {
		want := term.MeanPER(2000e3, sc.jitter, size)
		if want <= 1e-4 || want >= 0.5 {
			t.Fatalf("mean PER %g of %d bytes at 2,000 km: not a useful test point", want, size)
		}
		const n = 200000
		lost := 0
		p := &netsim.Packet{Size: unit.Bytes(size)}
		for i := 0; i < n; i++ {
			if l.Lose(p, rng) {
				lost++
			}
		}
		sd := math.Sqrt(want * (1 - want) / n)
		t.Logf("%d bytes: lost %.5f, mean PER %.5f (sd %.5f)", size, float64(lost)/n, want, sd)
		if got := float64(lost) / n; math.Abs(got-want) > 4*sd {
			t.Errorf("%d bytes: lost %.5f, want %.5f within %.5f", size, got, want, 4*sd)
		}
	}
}
