package models

import (
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// The positions of leo-network's main-row metrics.
const (
	lnSatellites = iota
	lnISLs
	lnStations
	lnPairs
	lnFlows
	lnGoodput
	lnTCPGoodput
	lnUDPGoodput
	lnPktSent
	lnPktReceived
	lnDropOverflow
	lnDropAQM
	lnDropCorrupt
	lnDropNoRoute
	lnPktHeld
	lnRetrans
	lnSpurious
	lnRTOs
	lnPathChanges
	lnRouteSwitches
	lnHandoverGaps
	lnSteps
	lnCapFrac
	lnFlowMean
	lnFlowMin
	lnJain
	lnCount
)

func leoNetworkSchema() *vocab.Schema {
	sf := func(name string, def, lo, hi float64, unit vocab.Unit, doc string) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.Float, Unit: unit, Default: vocab.F(def), Min: lo, Max: hi, Doc: doc}
	}
	str := func(name, def string, syntax func(string) error, doc string) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.String, Default: vocab.S(def), Syntax: syntax, Doc: doc}
	}
	params := []vocab.Param{
		str("shells", "kuiper-k1", checkShells, "the Walker shells, comma-separated: Hypatia's presets (starlink-s1, kuiper-k1, telesat-t1) or walker:ALT_KM/PLANES/PER_PLANE/INC_DEG/PHASING[/MIN_ELEV_DEG] (minimum elevation 25 deg unless given); each shell has its +Grid links, none between shells; \"\" with tles only"),
		str("tles", "", checkTLEs, "satellites as two-line element sets (the text itself, with its checksums; a YAML block scalar), numbered after the shells' satellites, propagated by SGP4 from 2000-01-01 00:00 UT; they have no inter-satellite links, so they carry traffic with routing ground-relays"),
		sf("tle_min_elevation_deg", 25, 0, 89, vocab.Dimensionless, "minimum elevation at which a station uses an element-set satellite, degrees"),
		{Name: "motion", Kind: vocab.String, Default: vocab.S("sgp4"), Choices: []string{"kepler", "j2", "sgp4", "pyephem"},
			Doc: "how the shells' satellites move, as leo-path's motion (pyephem: Hypatia's PyEphem positions, shells only)"},
		str("stations", "hypatia-100", checkStations, "the ground stations: hypatia-100 (Hypatia's 100 most populous cities, in its order), hypatia-100:N (its first N), a ;-separated list of built-in cities and \"lat,lon\" in degrees, or lines \"name,lat,lon\" / \"lat,lon\" / Hypatia's \"gid,name,lat,lon,elevation\" (a YAML block scalar)"),
		{Name: "earth", Kind: vocab.String, Default: vocab.S("wgs72"), Choices: []string{"sphere", "wgs72", "wgs84", "pyephem"},
			Doc: "surface the stations stand on, as leo-path's earth"},
		{Name: "ground_rule", Kind: vocab.String, Default: vocab.S("cone"), Choices: []string{"cone", "elevation"},
			Doc: "which satellites a station uses: cone, Hypatia's range limit; elevation, each shell's minimum elevation"},
		{Name: "routing", Kind: vocab.String, Default: vocab.S("over-isls"), Choices: []string{"over-isls", "ground-relays"},
			Doc: "over-isls: satgenpy's free_one_only_over_isls (station, satellites over ISLs, station); ground-relays: shortest paths that may go down to a station and up again (satgenpy's ground-relay routing)"},
		str("traffic", "random:10", checkTraffic, "the station pairs that exchange traffic: all (every ordered pair), all:N (every ordered pair among the first N stations), random:K (K distinct ordered pairs drawn from the scenario's seed), or a ;-separated list source>destination of station names or numbers"),
		{Name: "tcp_flows", Kind: vocab.Int, Default: vocab.I(1), Min: 0, Max: 64, Doc: "long-lived TCP flows from source to destination of each pair"},
		str("cca", "newreno", checkCCAs, "congestion controllers of the TCP flows, comma-separated: a pair's flow j takes the (j mod n)-th (engine/tcp/cc)"),
		{Name: "udp_flows", Kind: vocab.Int, Default: vocab.I(0), Min: 0, Max: 64, Doc: "constant-rate UDP flows from source to destination of each pair"},
		sf("udp_rate", 1e6, 1e3, 1e11, vocab.BitPerSecond, "rate of each UDP flow, full-sized packets"),
		sf("start_spread", 1, 0, 1e5, vocab.Second, "each flow starts at a time drawn uniformly from [0, start_spread) on its own stream"),
		sf("isl_rate", 10e6, 0, 1e13, vocab.BitPerSecond, "rate of each ISL direction (Hypatia's TCP runs: 10 Mbit/s); 0 takes the terminal's. With adaptive_rate, the rate of the top mode, the others scaled with it"),
		sf("gsl_rate", 10e6, 0, 1e13, vocab.BitPerSecond, "rate of each ground link direction (Hypatia: 10 Mbit/s); 0 is infinitely fast"),
		{Name: "isl_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(100), Min: 1, Max: 1e6, Doc: "DropTail limit of each ISL direction (Hypatia: 100 packets)"},
		{Name: "gsl_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(100), Min: 1, Max: 1e6, Doc: "DropTail limit of each ground link direction (Hypatia: 100 packets)"},
		sf("route_interval", 0.1, 0.001, 1e5, vocab.Second, "routing step: forwarding state, link delays, BERs and capacities recomputed (Hypatia: 100 ms)"),
		sf("start_time", 0, 0, 1e7, vocab.Second, "time after the epoch 2000-01-01 00:00 UT at which the run starts"),
		sf("duration", 20, 0.001, 1e5, vocab.Second, "simulated time"),
		sf("warmup", 0, 0, 1e5, vocab.Second, "goodput counts bytes delivered from this time on"),
		str("outages", "", checkOutages, "satellites and ISLs taken down, ;-separated: sat:K@FROM-TO or isl:A-B@FROM-TO (fleet satellite numbers, seconds from the start of the run)"),
		sf("handover_gap", 0, 0, 10, vocab.Second, "when a route moves to another ground link, it has no next hop (its packets dropped, noroute) for this long while the terminal acquires the new satellite; 0 switches at once, as Hypatia"),
		{Name: "isl_errors", Kind: vocab.Bool, Default: vocab.B(false), Doc: "bit errors on the ISLs from document 000's link budget at each link's current length; off: lossless ISLs, as Hypatia"},
		{Name: "terminal", Kind: vocab.String, Default: vocab.S("isl-100g"), Choices: []string{"oct-10g", "isl-100g"},
			Doc: "ISL terminal (engine/phy): document 000's Table 1 optics at 10 or 100 Gbit/s, direct detection"},
		{Name: "adaptive_rate", Kind: vocab.Bool, Default: vocab.B(false), Doc: "capacity that follows the link: at each step every ISL takes the highest of rate_modes whose PER of a full data packet stays at or under per_threshold at its current length (the lowest if none does)"},
		str("rate_modes", "100e9,40e9,10e9", checkModes, "the terminal's rate modes, bit/s, comma-separated; the BER of each is the budget's at that rate"),
		sf("per_threshold", 1e-6, 1e-15, 1, vocab.Dimensionless, "PER of a full data packet a rate mode may reach"),
		sf("sample_interval", 1, 0, 1e5, vocab.Second, "period of the links and samples tables; 0 writes neither"),
		hostParam("mss"),
		{Name: "window", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(16 << 20), Min: 1000, Max: 1 << 30, Doc: "receive buffer"},
		hostParam("sack"),
		hostParam("min_rto"),
	}
	params = append(params, leoHostParams()...)
	metrics := make([]vocab.Metric, lnCount)
	m := func(i int, name string, k vocab.Kind, u vocab.Unit, doc string) {
		metrics[i] = vocab.Metric{Name: name, Kind: k, Unit: u, Doc: doc}
	}
	m(lnSatellites, "satellite_count", vocab.Int, vocab.Dimensionless, "satellites of the fleet, shells and element sets")
	m(lnISLs, "isl_count", vocab.Int, vocab.Dimensionless, "inter-satellite links (each two link directions)")
	m(lnStations, "station_count", vocab.Int, vocab.Dimensionless, "ground stations")
	m(lnPairs, "pair_count", vocab.Int, vocab.Dimensionless, "station pairs with traffic")
	m(lnFlows, "flow_count", vocab.Int, vocab.Dimensionless, "flows, TCP and UDP")
	m(lnGoodput, "goodput_total", vocab.Float, vocab.BitPerSecond, "payload delivered in order to the receivers from warmup to the end, all flows, over that time")
	m(lnTCPGoodput, "tcp_goodput", vocab.Float, vocab.BitPerSecond, "goodput_total of the TCP flows")
	m(lnUDPGoodput, "udp_goodput", vocab.Float, vocab.BitPerSecond, "goodput_total of the UDP flows")
	m(lnPktSent, "packets_sent", vocab.Int, vocab.Packet, "packets the endpoints sent: TCP segments of both ends (ACKs included) and UDP packets")
	m(lnPktReceived, "packets_received", vocab.Int, vocab.Packet, "packets handed to an endpoint at a station")
	m(lnDropOverflow, "drops_overflow", vocab.Int, vocab.Packet, "packets dropped by a full DropTail queue, every link")
	m(lnDropAQM, "drops_aqm", vocab.Int, vocab.Packet, "packets dropped by an AQM (none with DropTail queues)")
	m(lnDropCorrupt, "drops_corrupt", vocab.Int, vocab.Packet, "packets lost to bit errors on an ISL")
	m(lnDropNoRoute, "drops_noroute", vocab.Int, vocab.Packet, "packets dropped at a node without a next hop (no path, an outage, a handover gap)")
	m(lnPktHeld, "packets_held", vocab.Int, vocab.Packet, "packets in a queue or on a wire at the end; packets_sent = packets_received + every drop + packets_held")
	m(lnRetrans, "retrans_segs", vocab.Int, vocab.Packet, "TCP segments retransmitted, spurious ones included")
	m(lnSpurious, "spurious_retrans", vocab.Int, vocab.Packet, "retransmissions whose data had already arrived")
	m(lnRTOs, "rtos", vocab.Int, vocab.Dimensionless, "retransmission timer expiries, all TCP flows")
	m(lnPathChanges, "path_changes", vocab.Int, vocab.Dimensionless, "changes of a pair's path (its sequence of nodes) from one step to the next, all pairs")
	m(lnRouteSwitches, "route_switches", vocab.Int, vocab.Dimensionless, "(node, station) next hops that changed from one step to the next")
	m(lnHandoverGaps, "handover_gaps", vocab.Int, vocab.Dimensionless, "routes that waited handover_gap for a new ground link")
	m(lnSteps, "routing_steps", vocab.Int, vocab.Dimensionless, "routing steps, the first at time 0 included")
	m(lnCapFrac, "isl_capacity_frac", vocab.Float, vocab.Dimensionless, "mean over the steps and the ISLs up of the chosen mode's rate over the top mode's; 1 without adaptive_rate (not computed), which means fixed capacity")
	m(lnFlowMean, "tcp_flow_goodput_mean", vocab.Float, vocab.BitPerSecond, "mean goodput of a TCP flow; 0 without TCP flows")
	m(lnFlowMin, "tcp_flow_goodput_min", vocab.Float, vocab.BitPerSecond, "smallest goodput of a TCP flow; 0 without TCP flows")
	m(lnJain, "tcp_jain_index", vocab.Float, vocab.Dimensionless, "Jain's fairness index of the TCP flows' goodputs, (sum x)^2 / (n sum x^2) (Jain, Chiu and Hawe 1984): 1 when all are equal, 1/n when one takes all; 0 without TCP flows or when none delivered anything")
	return &vocab.Schema{
		Name: "leo-network", Version: 1,
		Doc:     "traffic between many ground stations over a whole constellation (several shells and element sets): every ISL and ground link a queued link whose delay, BER (document 000's budget) and optionally capacity (rate modes under a PER threshold) follow its length, routes toward every station recomputed each step as Hypatia's satgenpy does, outages and handover gaps; TCP (Linux host) and constant-rate UDP flows (Kassing et al., IMC 2020)",
		Params:  params,
		Metrics: metrics,
		Tables: []vocab.Table{
			{Name: "flows", Doc: "one row per flow", Columns: []vocab.Metric{
				{Name: "flow", Kind: vocab.Int, Doc: "flow number, 0 up, pair after pair"},
				{Name: "pair", Kind: vocab.Int, Doc: "the flow's pair, numbered as the paths table"},
				{Name: "src", Kind: vocab.String, Doc: "source station"},
				{Name: "dst", Kind: vocab.String, Doc: "destination station"},
				{Name: "kind", Kind: vocab.String, Doc: "tcp or udp"},
				{Name: "controller", Kind: vocab.String, Doc: "the flow's congestion controller; \"\" for a UDP flow, which has none"},
				{Name: "start", Kind: vocab.Float, Unit: vocab.Second, Doc: "when the flow started"},
				{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond, Doc: "payload delivered in order from warmup to the end, over that time"},
				{Name: "bytes_delivered", Kind: vocab.Int, Unit: vocab.Byte, Doc: "payload delivered in order over the whole run"},
				{Name: "packets_sent", Kind: vocab.Int, Unit: vocab.Packet, Doc: "data packets sent, retransmissions included"},
				{Name: "retrans_segs", Kind: vocab.Int, Unit: vocab.Packet, Doc: "TCP segments retransmitted, spurious ones included; 0 for UDP, which never retransmits"},
				{Name: "spurious_retrans", Kind: vocab.Int, Unit: vocab.Packet, Doc: "retransmissions whose data had already arrived (the receiver saw the segment twice); 0 for UDP"},
				{Name: "rtos", Kind: vocab.Int, Doc: "retransmission timer expiries; 0 for UDP"},
				{Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second, Doc: "mean of the flow's RTT samples (RFC 6298), queueing included; 0 for UDP or before a first sample, which means no measurement"},
				{Name: "rtt_max", Kind: vocab.Float, Unit: vocab.Second, Doc: "largest RTT sample; 0 for UDP or before a first sample"},
			}},
			{Name: "links", Doc: "one row per sample interval and link direction that was busy in it (sent, queued or dropped a packet); an idle link has no row", Columns: []vocab.Metric{
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second, Doc: "end of the interval"},
				{Name: "link", Kind: vocab.String, Doc: "the link direction, from->to (satK, gsI)"},
				{Name: "kind", Kind: vocab.String, Doc: "isl, gsl-up or gsl-down"},
				{Name: "from_node", Kind: vocab.Int, Doc: "transmitting node: satellite number, or satellites + station index"},
				{Name: "to_node", Kind: vocab.Int, Doc: "receiving node, numbered as from_node"},
				{Name: "lat", Kind: vocab.Float, Doc: "latitude of the link's midpoint at the end of the interval, degrees (geocentric)"},
				{Name: "lon", Kind: vocab.Float, Doc: "longitude of the midpoint, degrees"},
				{Name: "lat_band", Kind: vocab.Float, Doc: "the midpoint's 10-degree latitude band, by its centre (-45 for [-50, -40)), degrees"},
				{Name: "utilisation", Kind: vocab.Float, Doc: "fraction of the interval the transmitter was busy"},
				{Name: "rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Doc: "the link's rate at the end of the interval (changes with adaptive_rate)"},
				{Name: "length", Kind: vocab.Float, Unit: vocab.Meter, Doc: "the link's length at the last step"},
				{Name: "ber", Kind: vocab.Float, Doc: "the ISL's BER at the last step; 0 for a ground link or with isl_errors off (not computed)"},
				{Name: "queue", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets waiting at the end of the interval"},
				{Name: "sent", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets offered in the interval"},
				{Name: "drops_overflow", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets dropped by the full queue in the interval"},
				{Name: "drops_corrupt", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets lost to bit errors in the interval"},
			}},
			{Name: "paths", Doc: "one row per pair at the first step and at every step its path changed", Columns: []vocab.Metric{
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second, Doc: "the step"},
				{Name: "pair", Kind: vocab.Int, Doc: "pair number, in the order of traffic"},
				{Name: "src", Kind: vocab.String, Doc: "source station"},
				{Name: "dst", Kind: vocab.String, Doc: "destination station"},
				{Name: "rtt", Kind: vocab.Float, Unit: vocab.Second, Doc: "propagation round trip of the new path, both directions' shortest paths; 0 when there is no path, which means unreachable, not a zero RTT"},
				{Name: "hops", Kind: vocab.Int, Doc: "links of the forward path, ground links included; 0 with no path"},
				{Name: "satellites", Kind: vocab.String, Doc: "the forward path's satellites in order, space-separated fleet numbers (a relaying station as gsI); \"\" with no path"},
				{Name: "path_changes", Kind: vocab.Int, Doc: "the pair's path changes so far"},
			}},
			{Name: "samples", Doc: "one row per sample interval and pair", Columns: []vocab.Metric{
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second, Doc: "sample time"},
				{Name: "pair", Kind: vocab.Int, Doc: "pair number"},
				{Name: "rtt", Kind: vocab.Float, Unit: vocab.Second, Doc: "propagation round trip at the last step; 0 while unreachable (no path)"},
				{Name: "hops", Kind: vocab.Int, Doc: "links of the forward path at the last step; 0 while unreachable"},
				{Name: "path_changes", Kind: vocab.Int, Doc: "the pair's path changes so far"},
				{Name: "srtt", Kind: vocab.Float, Unit: vocab.Second, Doc: "smoothed RTT of the pair's first TCP flow, queueing included; 0 without a TCP flow or before its first sample"},
				{Name: "cwnd", Kind: vocab.Int, Unit: vocab.Byte, Doc: "congestion window of the pair's first TCP flow; 0 without one or before it opens"},
				{Name: "delivered", Kind: vocab.Int, Unit: vocab.Byte, Doc: "payload delivered in order so far, all the pair's flows"},
			}},
		},
	}
}

// Handle writes the samples of the interval ending now.
func (sc *lnScenario) Handle(now des.Time, kind int, arg uint64) {
	dt := now.Sub(sc.lastAt)
	sc.lastAt = now
	fw := sc.fw
	ns := fw.Satellites()
	pos := fw.Positions()
	links := sc.net.Links()
	for len(sc.last) < len(links) {
		sc.last = append(sc.last, netsim.LinkStats{})
	}
	// ISL directions are the first links (leonet.New builds them first),
	// k's two at 2k and 2k+1; ground links follow.
	gl := sc.ln.GroundLinks()
	for i, l := range links {
		st := l.Stats()
		prev := sc.last[i]
		sc.last[i] = st
		sent := st.Sent - prev.Sent
		if sent == 0 && st.Queued == 0 && st.Dropped() == prev.Dropped() {
			continue
		}
		var from, to int
		var length, ber float64
		kindName := "isl"
		if k := i / 2; k < sc.ln.ISLs() {
			isl := fw.ISLs()[k]
			from, to = isl[0], isl[1]
			if i%2 == 1 {
				from, to = to, from
			}
			length = fw.ISLLength(k)
			ber = sc.phys[k][i%2].ber
		} else {
			g := gl[i-2*sc.ln.ISLs()]
			from, to, kindName = ns+g.Station, g.Sat, "gsl-up"
			if !g.Up {
				from, to, kindName = g.Sat, ns+g.Station, "gsl-down"
			}
			length = math.NaN()
			if l, ok := groundLen(fw, g.Station, g.Sat); ok {
				length = l
			}
		}
		lat, lon := midLatLon(sc, pos, from, to)
		sc.links = append(sc.links, []vocab.Value{vocab.F(now.Seconds()), vocab.S(l.Name()), vocab.S(kindName),
			vocab.I(int64(from)), vocab.I(int64(to)), vocab.F(lat), vocab.F(lon), vocab.F(math.Floor(lat/10)*10 + 5),
			vocab.F(float64(st.Busy-prev.Busy) / float64(dt)), vocab.F(l.Rate().BitsPerSecond()), vocab.F(length), vocab.F(ber),
			vocab.I(int64(st.Queued)), vocab.I(sent),
			vocab.I(st.Drops[netsim.DropOverflow] - prev.Drops[netsim.DropOverflow]),
			vocab.I(st.Drops[netsim.DropCorrupt] - prev.Drops[netsim.DropCorrupt])})
	}
	for i := range sc.pairs {
		p := &sc.pairs[i]
		var srtt float64
		var cwnd, got int64
		first := true
		for _, fi := range p.flows {
			f := sc.flows[fi]
			if f.udp != nil {
				got += int64(f.udp.got)
				continue
			}
			got += int64(f.sink.Got)
			if first {
				srtt, cwnd, first = f.src.SRTT().Seconds(), int64(f.src.CC().Cwnd), false
			}
		}
		hops := 0
		if p.have {
			hops = len(p.path) - 1
		}
		sc.samples = append(sc.samples, []vocab.Value{vocab.F(now.Seconds()), vocab.I(int64(i)), vocab.F(p.rtt),
			vocab.I(int64(hops)), vocab.I(p.changes), vocab.F(srtt), vocab.I(cwnd), vocab.I(got)})
	}
	if kind == 0 && now < sc.c.duration {
		sc.s.After(sc.c.sample, sc, 0, 0)
	}
}

// groundLen is the current length of the ground link between station s
// and satellite k, if the station sees it.
func groundLen(fw *orbit.Forwarding, s, k int) (float64, bool) {
	sats, lens := fw.GroundLinks(s)
	for i, x := range sats {
		if int(x) == k {
			return lens[i], true
		}
	}
	return 0, false
}

// midLatLon is the geocentric latitude and longitude of the midpoint of
// the segment between nodes a and b (Earth-fixed positions), degrees.
func midLatLon(sc *lnScenario, pos []orbit.Vec, a, b int) (float64, float64) {
	p := func(v int) orbit.Vec {
		if ns := sc.fw.Satellites(); v >= ns {
			return sc.c.earth.Position(sc.c.stations[v-ns])
		}
		return pos[v]
	}
	x, y := p(a), p(b)
	m := orbit.Vec{(x[0] + y[0]) / 2, (x[1] + y[1]) / 2, (x[2] + y[2]) / 2}
	return orbit.Degrees(math.Asin(m[2] / m.Norm())), orbit.Degrees(math.Atan2(m[1], m[0]))
}

// flowRows is the flows table.
func (sc *lnScenario) flowRows() [][]vocab.Value {
	c := sc.c
	span := (c.duration - c.warmup).Seconds()
	var rows [][]vocab.Value
	for i, f := range sc.flows {
		p := sc.pairs[f.pair]
		src, dst := c.stations[p.a].Name, c.stations[p.b].Name
		var row []vocab.Value
		if f.udp != nil {
			row = []vocab.Value{vocab.I(int64(i)), vocab.I(int64(f.pair)), vocab.S(src), vocab.S(dst), vocab.S("udp"), vocab.S(""),
				vocab.F(f.start.Seconds()), vocab.F(rateOver(f.udp.gotWarm, span).BitsPerSecond()), vocab.I(int64(f.udp.got)),
				vocab.I(f.udp.sent), vocab.I(0), vocab.I(0), vocab.I(0), vocab.F(0), vocab.F(0)}
		} else {
			st := f.src.Stats
			mean := 0.0
			if st.RTTSamples > 0 {
				mean = (st.RTTSum / des.Duration(st.RTTSamples)).Seconds()
			}
			row = []vocab.Value{vocab.I(int64(i)), vocab.I(int64(f.pair)), vocab.S(src), vocab.S(dst), vocab.S("tcp"), vocab.S(f.cca),
				vocab.F(f.start.Seconds()), vocab.F(rateOver(f.sink.AfterWarmup, span).BitsPerSecond()), vocab.I(int64(f.sink.Got)),
				vocab.I(st.DataSegsSent), vocab.I(st.RetransSegs), vocab.I(f.watch.dup), vocab.I(st.RTOs),
				vocab.F(mean), vocab.F(st.RTTMax.Seconds())}
		}
		rows = append(rows, row)
	}
	return rows
}

// metrics is the main row.
func (sc *lnScenario) metrics() []vocab.Value {
	c := sc.c
	out := make([]vocab.Value, lnCount)
	span := (c.duration - c.warmup).Seconds()
	var tcpB, udpB unit.Bytes
	var sent, retrans, spur, rtos, changes int64
	for _, f := range sc.flows {
		if f.udp != nil {
			udpB += f.udp.gotWarm
			sent += f.udp.sent
			continue
		}
		tcpB += f.sink.AfterWarmup
		sent += f.src.Stats.SegsSent + f.dst.Stats.SegsSent
		retrans += f.src.Stats.RetransSegs
		spur += f.watch.dup
		rtos += f.src.Stats.RTOs
	}
	for _, p := range sc.pairs {
		changes += p.changes
	}
	var n, sum, sum2 float64
	minG := math.Inf(1)
	for _, f := range sc.flows {
		if f.udp == nil {
			g := rateOver(f.sink.AfterWarmup, span).BitsPerSecond()
			n, sum, sum2, minG = n+1, sum+g, sum2+g*g, math.Min(minG, g)
		}
	}
	if n > 0 {
		out[lnFlowMean], out[lnFlowMin] = vocab.F(sum/n), vocab.F(minG)
		jain := 0.0
		if sum2 > 0 {
			jain = sum * sum / (n * sum2)
		}
		out[lnJain] = vocab.F(jain)
	} else {
		out[lnFlowMean], out[lnFlowMin], out[lnJain] = vocab.F(0), vocab.F(0), vocab.F(0)
	}
	var drops [netsim.NumDropReasons]int64
	var held, received, noRoute int64
	for _, l := range sc.net.Links() {
		st := l.Stats()
		for r, x := range st.Drops {
			drops[r] += x
		}
		held += int64(st.Queued + st.InFlight)
	}
	for _, n := range sc.net.Nodes() {
		st := n.Stats()
		received += st.Received
		noRoute += st.NoRoute
	}
	capFrac := 1.0
	if c.modes != nil && sc.capSteps > 0 {
		capFrac = sc.capSum / float64(sc.capSteps)
	}
	out[lnSatellites] = vocab.I(int64(sc.fw.Satellites()))
	out[lnISLs] = vocab.I(int64(sc.ln.ISLs()))
	out[lnStations] = vocab.I(int64(sc.fw.Stations()))
	out[lnPairs] = vocab.I(int64(len(sc.pairs)))
	out[lnFlows] = vocab.I(int64(len(sc.flows)))
	out[lnGoodput] = vocab.F(rateOver(tcpB+udpB, span).BitsPerSecond())
	out[lnTCPGoodput] = vocab.F(rateOver(tcpB, span).BitsPerSecond())
	out[lnUDPGoodput] = vocab.F(rateOver(udpB, span).BitsPerSecond())
	out[lnPktSent] = vocab.I(sent)
	out[lnPktReceived] = vocab.I(received)
	out[lnDropOverflow] = vocab.I(drops[netsim.DropOverflow])
	out[lnDropAQM] = vocab.I(drops[netsim.DropAQM])
	out[lnDropCorrupt] = vocab.I(drops[netsim.DropCorrupt])
	out[lnDropNoRoute] = vocab.I(noRoute + drops[netsim.DropNoRoute])
	out[lnPktHeld] = vocab.I(held)
	out[lnRetrans] = vocab.I(retrans)
	out[lnSpurious] = vocab.I(spur)
	out[lnRTOs] = vocab.I(rtos)
	out[lnPathChanges] = vocab.I(changes)
	out[lnRouteSwitches] = vocab.I(sc.ln.Switches())
	out[lnHandoverGaps] = vocab.I(sc.ln.HandoverGaps())
	out[lnSteps] = vocab.I(sc.ln.Steps())
	out[lnCapFrac] = vocab.F(capFrac)
	return out
}
