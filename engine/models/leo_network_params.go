package models

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// leoNetworkSchema is leo-network's parameters, metrics and tables.
func leoNetworkSchema() *vocab.Schema {
	sf := func(name string, def, lo, hi float64, unit vocab.Unit, doc string) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.Float, Unit: unit, Default: vocab.F(def), Min: lo, Max: hi, Doc: doc}
	}
	str := func(name, def string, syntax func(string) error, doc string) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.String, Default: vocab.S(def), Syntax: syntax, Doc: doc}
	}
	fileStr := func(name, def string, syntax func(string) error, doc string) vocab.Param {
		p := str(name, def, syntax, doc)
		p.File = true
		return p
	}
	params := []vocab.Param{
		str("shells", "kuiper-k1", checkShells, "the Walker shells, comma-separated: Hypatia's presets (starlink-s1, kuiper-k1, telesat-t1) or walker:ALT_KM/PLANES/PER_PLANE/INC_DEG/PHASING[/MIN_ELEV_DEG] (minimum elevation 25 deg unless given); each shell has its +Grid links, links between shells only as extra_isls names them; \"\" with tles only"),
		fileStr("tles", "", checkTLEs, "satellites as two-line element sets (the text itself, with its checksums; a YAML block scalar; or {file: PATH}, a file of them relative to the spec, such as CelesTrak's), numbered after the shells' satellites, propagated by SGP4; with element sets, time 0 (start_time's origin) is the first set's epoch instead of 2000-01-01 00:00 UT; they have no inter-satellite links unless extra_isls names them, so they carry traffic with routing ground-relays"),
		sf("tle_min_elevation_deg", 25, 0, 89, vocab.Dimensionless, "minimum elevation at which a station uses an element-set satellite, degrees"),
		{Name: "motion", Kind: vocab.String, Default: vocab.S("sgp4"), Choices: []string{"kepler", "j2", "sgp4", "pyephem"},
			Doc: "how the shells' satellites move, as leo-path's motion (pyephem: Hypatia's PyEphem positions, shells only)"},
		fileStr("stations", "hypatia-100", checkStations, "the ground stations: hypatia-100 (Hypatia's 100 most populous cities, in its order), hypatia-100:N (its first N), a ;-separated list of built-in cities and \"lat,lon\" in degrees, or lines \"name,lat,lon\" / \"lat,lon\" / Hypatia's \"gid,name,lat,lon,elevation\" (a YAML block scalar, or {file: PATH}, a file of such lines relative to the spec, such as Hypatia's ground_stations_*.basic.txt)"),
		{Name: "earth", Kind: vocab.String, Default: vocab.S("wgs72"), Choices: []string{"sphere", "wgs72", "wgs84", "pyephem"},
			Doc: "surface the stations stand on, as leo-path's earth"},
		{Name: "ground_rule", Kind: vocab.String, Default: vocab.S("cone"), Choices: []string{"cone", "elevation"},
			Doc: "which satellites a station uses: cone, Hypatia's range limit; elevation, each shell's minimum elevation"},
		{Name: "routing", Kind: vocab.String, Default: vocab.S("over-isls"), Choices: []string{"over-isls", "ground-relays"},
			Doc: "over-isls: satgenpy's free_one_only_over_isls (station, satellites over ISLs, station); ground-relays: shortest paths that may go down to a station and up again (satgenpy's ground-relay routing)"},
		str("traffic", "random:10", checkTraffic, "the station pairs that exchange traffic: all (every ordered pair), all:N (every ordered pair among the first N stations), random:K (K distinct ordered pairs drawn from the scenario's seed), population:K (K ordered pairs drawn from the seed with probability proportional to the product of the two stations' populations, a gravity model; pairs may repeat, each drawn pair carrying its own flows; the stations need populations: hypatia-100's, the UN's 2015 estimates), population-2025:K (the same with the UN's 2025 projections), or a ;-separated list source>destination of station names (any case) or numbers from 0"),
		{Name: "tcp_flows", Kind: vocab.Int, Default: vocab.I(1), Min: 0, Max: 64, Doc: "long-lived TCP flows from source to destination of each pair"},
		str("cca", "newreno", checkCCAs, "congestion controllers of the TCP flows, comma-separated: a pair's flow j takes the (j mod n)-th (engine/tcp/cc)"),
		{Name: "udp_flows", Kind: vocab.Int, Default: vocab.I(0), Min: 0, Max: 64, Doc: "constant-rate UDP flows from source to destination of each pair"},
		sf("udp_rate", 1e6, 1e3, 1e11, vocab.BitPerSecond, "rate of each UDP flow, full-sized packets"),
		sf("start_spread", 1, 0, 1e5, vocab.Second, "each flow starts at a time drawn uniformly from [0, start_spread) on its own stream"),
		sf("isl_rate", 10e6, 0, 1e13, vocab.BitPerSecond, "rate of each ISL direction (Hypatia's TCP runs: 10 Mbit/s); 0 takes the terminal's. With adaptive_rate, the rate of the top mode, the others scaled with it"),
		sf("gsl_rate", 10e6, 0, 1e13, vocab.BitPerSecond, "rate of each ground link direction (Hypatia: 10 Mbit/s); 0 is infinitely fast"),
		{Name: "isl_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(100), Min: 1, Max: 1e6, Doc: "queue limit of each ISL direction (Hypatia: DropTail, 100 packets)"},
		{Name: "gsl_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(100), Min: 1, Max: 1e6, Doc: "queue limit of each ground link direction (Hypatia: DropTail, 100 packets)"},
		{Name: "aqm", Kind: vocab.String, Default: vocab.S("droptail"), Choices: []string{"droptail", "codel", "fq-codel"},
			Doc: "queue discipline of every link direction: droptail; codel (RFC 8289, 5 ms target, 100 ms interval); fq-codel (RFC 8290, 1024 queues); isl_queue and gsl_queue are their packet limits"},
		str("extra_isls", "", checkExtraISLs, "inter-satellite links beyond each shell's +Grid, ;-separated A-B by fleet satellite number: links between shells, or to element-set satellites; none by default"),
		sf("route_interval", 0.1, 0.001, 1e5, vocab.Second, "routing step: forwarding state, link delays, BERs and capacities recomputed (Hypatia: 100 ms)"),
		sf("start_time", 0, 0, 1e7, vocab.Second, "time after the epoch 2000-01-01 00:00 UT at which the run starts"),
		sf("duration", 20, 0.001, 1e5, vocab.Second, "simulated time"),
		sf("warmup", 0, 0, 1e5, vocab.Second, "goodput counts bytes delivered from this time on"),
		str("outages", "", checkOutages, "satellites and ISLs taken down, ;-separated: sat:K@FROM-TO or isl:A-B@FROM-TO (fleet satellite numbers, seconds from the start of the run)"),
		sf("handover_gap", 0, 0, 10, vocab.Second, "when a route moves to another ground link, it has no next hop (its packets dropped, noroute) for this long while the terminal acquires the new satellite; 0 switches at once, as Hypatia"),
		{Name: "isl_errors", Kind: vocab.Bool, Default: vocab.B(false), Doc: "bit errors on the ISLs from document 000's link budget at each link's current length, at the terminal's rate (with adaptive_rate, the chosen mode's); off: lossless ISLs, as Hypatia"},
		{Name: "terminal", Kind: vocab.String, Default: vocab.S("isl-100g"), Choices: []string{"oct-10g", "isl-100g"},
			Doc: "ISL terminal (engine/phy): document 000's Table 1 optics at 10 or 100 Gbit/s, direct detection"},
		sf("jitter_urad", 0, 0, 100, vocab.Dimensionless, "standard deviation of each axis of the ISL transmitters' pointing error, microradians (Rayleigh radial error, as leo-path): each packet's loss is its PER averaged over the fade, at the link's length to the kilometre; 0: perfect pointing"),
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
	m(lnDropOverflow, "drops_overflow", vocab.Int, vocab.Packet, "packets dropped by a full queue, every link")
	m(lnDropAQM, "drops_aqm", vocab.Int, vocab.Packet, "packets dropped by the AQM (CoDel, FQ-CoDel), every link; 0 with droptail")
	m(lnDropCorrupt, "drops_corrupt", vocab.Int, vocab.Packet, "packets lost to bit errors on an ISL")
	m(lnDropNoRoute, "drops_noroute", vocab.Int, vocab.Packet, "packets dropped at a node without a next hop (no path, an outage, a handover gap)")
	m(lnPktHeld, "packets_held", vocab.Int, vocab.Packet, "packets in a queue or on a wire at the end; packets_sent = packets_received + every drop + packets_held")
	m(lnRetrans, "retrans_segs", vocab.Int, vocab.Packet, "TCP segments retransmitted, spurious ones included")
	m(lnSpurious, "spurious_retrans", vocab.Int, vocab.Packet, "retransmissions whose data had already arrived")
	m(lnRTOs, "rtos", vocab.Int, vocab.Dimensionless, "retransmission timer expiries of data, all TCP flows (a SYN's timeouts are not counted)")
	m(lnPathChanges, "path_changes", vocab.Int, vocab.Dimensionless, "changes of a pair's path (its sequence of nodes) from one step to the next, all pairs")
	m(lnRouteSwitches, "route_switches", vocab.Int, vocab.Dimensionless, "(node, station) next hops that changed from one step to the next")
	m(lnHandoverGaps, "handover_gaps", vocab.Int, vocab.Dimensionless, "routes that waited handover_gap for a new ground link")
	m(lnSteps, "routing_steps", vocab.Int, vocab.Dimensionless, "routing steps, the first at time 0 included")
	m(lnCapFrac, "isl_capacity", vocab.Float, vocab.Fraction, "mean over the steps and the ISLs up of the chosen mode's rate over the top mode's; 1 without adaptive_rate (not computed), which means fixed capacity")
	m(lnFlowMean, "tcp_flow_goodput_mean", vocab.Float, vocab.BitPerSecond, "mean goodput of a TCP flow; 0 without TCP flows")
	m(lnFlowMin, "tcp_flow_goodput_min", vocab.Float, vocab.BitPerSecond, "smallest goodput of a TCP flow; 0 without TCP flows")
	m(lnJain, "tcp_jain_index", vocab.Float, vocab.Dimensionless, "Jain's fairness index of the TCP flows' goodputs, (sum x)^2 / (n sum x^2) (Jain, Chiu and Hawe 1984): 1 when all are equal, 1/n when one takes all; 0 without TCP flows or when none delivered anything")
	return &vocab.Schema{
		Name: "leo-network",
		// 3: every link ends a transmission before anything else at that instant
		// (netsim.LinkConfig.EndsFirst), where the event scheduled first ran
		// first: rows change only where an end and an arrival fall on one
		// nanosecond in an order that differed (the 20 s Kuiper K1 load of the
		// benchmark gives the same rows; 30 pairs with TCP, 1 Mbit/s UDP, bit
		// errors and handover gaps deliver 0.4 % less), and the links run
		// without their end-of-transmission events; path_changes (main row and
		// paths table) no longer counts a pair's first path as a change (it was
		// one more per pair with a path); traffic population:K; tles and
		// stations from files
		// 2: BBR and BBRv2 flows take rate samples from SACKs and are called
		// on every ACK, as Linux's tcp_cong_control does (host parameter
		// sack_rate_samples). 4: BBR and BBRv2 pace from the handshake's
		// RTT (bbr_init_pacing_rate_from_rtt) and restart from high_gain x
		// cwnd / SRTT at the first RTT known whatever the bandwidth sample
		// (bbr_set_pacing_rate); BBRv2 raises inflight_hi while the window
		// was cwnd-limited as tcp_cwnd_validate records it. 5: the TCP
		// receivers compress SACKs as Linux does (the shared host's
		// sack_compression, on: __tcp_ack_snd_check, tcp_sack_new_ofo_skb).
		// 6: BBR v1 models a token-bucket policer as tcp_bbr.c does
		// (bbr_lt_bw_sampling), where it was left out. 7: BIC grows by the
		// segments each ACK covers and carries what slow start leaves past
		// ssthresh into congestion avoidance, as tcp_bic.c does since Linux
		// 5.7 ("tcp: fix stretch ACK bugs in BIC"). 8: BBR and BBRv2 judge
		// their in-flight targets by what will be in the network at the
		// next departure (bbr_packets_in_net_at_edt). 9: BBRv2 judges those
		// in-flight tests under the gain the previous ACK left
		// (bbr->pacing_gain, set by bbr_update_gains after the model
		// update); BBR v1's TSO burst goal is capped at 127 segments. 10:
		// the shared host's edt_credit, on: a paced sender paces from its
		// 10th segment on and an skb sent late shortens the gap after it by
		// the delay, up to half (tcp_update_skb_after_send). 11: byte
		// counting as Linux's tcp_slow_start: in slow start one ACK adds
		// every segment it covers (was at most 2, RFC 3465's L). 12:
		// Reno's slow start stops at ssthresh and hands what a stretch
		// ACK carries past it to congestion avoidance (tcp_slow_start).
		Version: 15, // 15: the RTT is sampled as Linux's tcp_ack_update_rtt does: an ACK that covers a segment ever retransmitted gives no sample from sequence numbers (Karn; FLAG_RETRANS_DATA_ACKED), otherwise the oldest segment it newly acknowledges and had not SACKed is timed, where the newest was, so the ACK that ended a repair timed the receiver's wait since it SACKed the segment (seconds after a timeout); without a sequence sample the oldest segment an ACK newly SACKs is timed (RACK-TLP senders), and without that an ACK of new data by its timestamp echo; the minimum RTT and the controller's RTT (HyStart, Vegas, BBR) follow the newest segment timed (ca_rtt_us); every sample ends the timer's back-off; 14: isl_capacity_frac carries the unit fraction, as every other _frac column (its metric is isl_capacity; no computation changed, the rows are new draws as with every version); 13: with quick_ack (Linux's quick-ACK mode) the receiver also acknowledges every skb at once while its receive window grows from the first 65535 bytes towards the buffer's, each skb raising it by max(2 advmss, 2 x its length) (tcp_grow_window's icsk_ack.quick |= 1), as a real Linux 6.1 receiver does on document 002's testbed for the first 25-35 s of a flow of a few Mbit/s into a 16 MiB window (validation/linuxpeer's captures); past the first quick ACKs it delayed them
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
				{Name: "rtos", Kind: vocab.Int, Doc: "retransmission timer expiries of data (a SYN's timeouts are not counted); 0 for UDP"},
				{Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second, Doc: "mean of the flow's RTT samples, queueing included (the samples Linux's tcp_ack_update_rtt takes: the handshake's, and per ACK the oldest segment it newly acknowledges that was neither SACKed nor ever retransmitted, none from an ACK that covers a retransmission (Karn's rule as tcp_clean_rtx_queue applies it); without one, with loss_detection rack-tlp, the oldest segment it newly SACKs, and then, with timestamps, its echo); 0 for UDP or before a first sample, which means no measurement"},
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
				{Name: "length", Kind: vocab.Float, Unit: vocab.Meter, Doc: "the link's length at the last step; 0 for a ground link whose station no longer sees its satellite (it drains at its last delay) or an ISL that is down, which means no link, not a zero length"},
				{Name: "ber", Kind: vocab.Float, Doc: "the ISL's BER at the last step (averaged over the pointing fade with jitter_urad, at the length to the kilometre); 0 for a ground link or with isl_errors off (not computed)"},
				{Name: "queue", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets waiting at the end of the interval"},
				{Name: "sent", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets offered in the interval"},
				{Name: "drops_overflow", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets dropped by the full queue in the interval"},
				{Name: "drops_aqm", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets the AQM dropped in the interval (0 with droptail)"},
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

// lnConfig is leo-network's parameters, decoded once.
type lnConfig struct {
	fleet        orbit.FleetConfig
	stations     []orbit.Station
	earth        orbit.Earth
	mode         orbit.RouteMode
	tcpFlows     int
	udpFlows     int
	ccas         []string
	udpRate      unit.BitRate
	startSpread  des.Duration
	islRate      unit.BitRate // 0: the terminal's
	gslRate      unit.BitRate
	islQueue     int
	gslQueue     int
	aqm          string
	interval     des.Duration
	duration     des.Time
	warmup       des.Time
	startTime    float64
	outages      []orbit.Outage
	handoverGap  des.Duration
	islErrors    bool
	jitterURad   float64
	terminal     phy.Terminal
	modes        []float64 // rate modes, bit/s, descending; nil: fixed capacity
	perThreshold float64
	sample       des.Duration
	window       unit.Bytes
	host         tcpHost
}

// lnTraffic is the traffic parameter: all pairs among the first n
// stations (n 0: all), k random ordered pairs, k pairs weighted by
// population, or a list.
type lnTraffic struct {
	kind  string // "all", "random", "population", "list"
	n     int
	proj  bool        // population: the 2025 projections, not the 2015 estimates
	pairs [][2]string // list: station names or indices
}

// Pairs resolves the traffic among stations: ordered (source,
// destination) station indices, drawn from rng for random.
func (t lnTraffic) resolve(stations []orbit.Station, rng *rand.Rand) ([][2]int, error) {
	g := len(stations)
	if g < 2 {
		return nil, fmt.Errorf("stations: %d station, want at least two for a pair", g)
	}
	switch t.kind {
	case "all":
		n := t.n
		if n == 0 {
			n = g
		}
		if n > g {
			return nil, fmt.Errorf("traffic: all pairs among %d stations, but stations gives %d", n, g)
		}
		var out [][2]int
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				if a != b {
					out = append(out, [2]int{a, b})
				}
			}
		}
		return out, nil
	case "random":
		all := g * (g - 1)
		if t.n > all {
			return nil, fmt.Errorf("traffic: %d random pairs, but %d stations have only %d ordered pairs", t.n, g, all)
		}
		// A partial Fisher-Yates over the ordered pairs, numbered
		// a*(g-1)+b' (b' skips a): k distinct pairs, seeded.
		idx := make([]int, all)
		for i := range idx {
			idx[i] = i
		}
		out := make([][2]int, t.n)
		for i := 0; i < t.n; i++ {
			j := i + rng.IntN(all-i)
			idx[i], idx[j] = idx[j], idx[i]
			a, b := idx[i]/(g-1), idx[i]%(g-1)
			if b >= a {
				b++
			}
			out[i] = [2]int{a, b}
		}
		return out, nil
	case "population":
		return t.gravity(stations, rng)
	}
	byName := map[string]int{}
	for i, s := range stations {
		if _, dup := byName[strings.ToLower(s.Name)]; !dup {
			byName[strings.ToLower(s.Name)] = i
		}
	}
	find := func(s string) (int, error) {
		if i, err := strconv.Atoi(s); err == nil {
			if i < 0 || i >= g {
				return 0, fmt.Errorf("traffic: station %d: stations are numbered 0..%d", i, g-1)
			}
			return i, nil
		}
		if i, ok := byName[strings.ToLower(s)]; ok {
			return i, nil
		}
		return 0, fmt.Errorf("traffic: no station called %q among the stations", s)
	}
	var out [][2]int
	for _, p := range t.pairs {
		a, err := find(p[0])
		if err != nil {
			return nil, err
		}
		b, err := find(p[1])
		if err != nil {
			return nil, err
		}
		if a == b {
			return nil, fmt.Errorf("traffic: pair %s>%s joins a station to itself", p[0], p[1])
		}
		out = append(out, [2]int{a, b})
	}
	return out, nil
}

// gravity draws t.n ordered pairs (a, b), a != b, each independently with
// probability P_a P_b / sum over a' != b' of P_a' P_b', P the stations'
// populations: the gravity model of traffic matrices, in which the traffic
// from a to b is proportional to the product of the two ends' sizes
// (Roughan, "Simplifying the synthesis of Internet traffic matrices", ACM
// SIGCOMM CCR 35(5), 2005, section 3; Zhang et al., SIGMETRICS 2003, for
// the population form). Draws are with replacement, so that the number of
// times a pair is drawn is binomial with that probability: a populous pair
// drawn twice carries twice the flows. One uniform number per draw, on the
// traffic stream, picks the pair by bisection of the cumulative weights in
// the order a*g+b.
func (t lnTraffic) gravity(stations []orbit.Station, rng *rand.Rand) ([][2]int, error) {
	g := len(stations)
	w := make([]float64, g)
	for i, s := range stations {
		w[i] = s.Population
		if t.proj {
			w[i] = s.Population2025
		}
		if !(w[i] > 0) {
			return nil, fmt.Errorf("traffic: population pairs need each station's population, and station %d %q has none: use stations hypatia-100 (the UN's World Urbanization Prospects populations), or random:K", i, s.Name)
		}
	}
	cum := make([]float64, 0, g*(g-1))
	idx := make([][2]int, 0, g*(g-1))
	sum := 0.0
	for a := 0; a < g; a++ {
		for b := 0; b < g; b++ {
			if a != b {
				sum += w[a] * w[b]
				cum = append(cum, sum)
				idx = append(idx, [2]int{a, b})
			}
		}
	}
	out := make([][2]int, t.n)
	for i := range out {
		u := rng.Float64() * sum
		// The first pair whose cumulative weight exceeds u: a pair of
		// weight w covers [cum-w, cum), width w.
		j := sort.Search(len(cum), func(k int) bool { return cum[k] > u })
		out[i] = idx[min(j, len(idx)-1)]
	}
	return out, nil
}

// count is the number of pairs among g stations.
func (t lnTraffic) count(g int) int {
	switch t.kind {
	case "all":
		n := t.n
		if n == 0 || n > g {
			n = g
		}
		return n * (n - 1)
	case "random", "population":
		return t.n
	}
	return len(t.pairs)
}

// parseTraffic reads "all", "all:N", "random:K" or "a>b;c>d;..." (station
// names or numbers).
func parseTraffic(s string) (lnTraffic, error) {
	s = strings.TrimSpace(s)
	num := func(v, what string) (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return 0, fmt.Errorf("%s %q is not a positive whole number", what, v)
		}
		return n, nil
	}
	switch {
	case s == "all":
		return lnTraffic{kind: "all"}, nil
	case strings.HasPrefix(s, "all:"):
		n, err := num(s[4:], "the number of stations")
		if n == 1 {
			return lnTraffic{}, fmt.Errorf("all pairs among 1 station is no pair")
		}
		return lnTraffic{kind: "all", n: n}, err
	case strings.HasPrefix(s, "random:"):
		n, err := num(s[7:], "the number of pairs")
		return lnTraffic{kind: "random", n: n}, err
	case strings.HasPrefix(s, "population-2025:"):
		n, err := num(s[len("population-2025:"):], "the number of pairs")
		return lnTraffic{kind: "population", n: n, proj: true}, err
	case strings.HasPrefix(s, "population:"):
		n, err := num(s[len("population:"):], "the number of pairs")
		return lnTraffic{kind: "population", n: n}, err
	}
	t := lnTraffic{kind: "list"}
	for _, item := range strings.Split(s, ";") {
		a, b, ok := strings.Cut(item, ">")
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		if !ok || a == "" || b == "" {
			return lnTraffic{}, fmt.Errorf("pair %q: want source>destination (station names or numbers), or all, all:N, random:K, population:K, population-2025:K", item)
		}
		t.pairs = append(t.pairs, [2]string{a, b})
	}
	return t, nil
}

// maxTrafficPairs bounds the pairs of a traffic matrix at spec time:
// each pair carries at least one flow of two endpoints (lnPairBytes), so
// 2^20 pairs already take gigabytes.
const maxTrafficPairs = 1 << 20

// lnPairBytes is the least a pair takes: one TCP flow's two endpoints and
// its fixed state (lnMemory).
const lnPairBytes = 2*int64(unsafe.Sizeof(tcp.Conn{})) + lnFlowExtra

// checkTraffic is the Syntax of traffic. The full memory estimate, which
// needs the stations and the flows per pair too, is lnMemory's, which the
// sweep asks when a spec loads (LEONetwork.Memory).
func checkTraffic(s string) error {
	t, err := parseTraffic(s)
	if err != nil {
		return err
	}
	pairs := t.count(t.n)
	if pairs > maxTrafficPairs {
		return fmt.Errorf("%d pairs would need about %.1f GiB for one flow each; at most %d pairs", pairs,
			float64(int64(pairs)*lnPairBytes)/(1<<30), maxTrafficPairs)
	}
	return nil
}

// parseShells reads a comma-separated list of shells: preset names or
// "walker:ALT_KM/PLANES/PER_PLANE/INC_DEG/PHASING[/MIN_ELEV_DEG]".
func parseShells(s string) ([]orbit.Shell, error) {
	var out []orbit.Shell
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		spec, ok := strings.CutPrefix(item, "walker:")
		if !ok {
			sh, err := orbit.ShellNamed(item)
			if err != nil {
				return nil, fmt.Errorf("shell %d: %w, or walker:ALT_KM/PLANES/PER_PLANE/INC_DEG/PHASING[/MIN_ELEV_DEG]", i+1, err)
			}
			out = append(out, sh)
			continue
		}
		f := strings.Split(spec, "/")
		if len(f) != 5 && len(f) != 6 {
			return nil, fmt.Errorf("shell %d %q: want walker:ALT_KM/PLANES/PER_PLANE/INC_DEG/PHASING[/MIN_ELEV_DEG]", i+1, item)
		}
		v := make([]float64, len(f))
		for k, x := range f {
			var err error
			if v[k], err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil {
				return nil, fmt.Errorf("shell %d %q: field %d %q is not a number", i+1, item, k+1, x)
			}
		}
		for k := 1; k <= 2; k++ {
			if v[k] != math.Trunc(v[k]) {
				return nil, fmt.Errorf("shell %d %q: planes and satellites per plane are whole numbers", i+1, item)
			}
		}
		sh := orbit.Shell{Name: fmt.Sprintf("walker-%d", i+1), Altitude: v[0] * 1e3, Planes: int(v[1]), PerPlane: int(v[2]),
			Inclination: orbit.Radians(v[3]), Phasing: int(v[4]), MinElevation: orbit.Radians(25)}
		if len(v) == 6 {
			sh.MinElevation = orbit.Radians(v[5])
		}
		// SGP4 takes a mean motion: the altitude's, by Kepler's third
		// law with the WGS-72 constant SGP4 uses.
		if r := orbit.Radius(sh.Altitude); r > orbit.EarthRadius {
			sh.MeanMotion = math.Sqrt(orbit.MuWGS72/(r*r*r)) * 86400 / (2 * math.Pi)
		}
		if err := sh.Validate(); err != nil {
			return nil, fmt.Errorf("shell %d: %w", i+1, err)
		}
		out = append(out, sh)
	}
	return out, nil
}

func checkShells(s string) error {
	_, err := parseShells(s)
	return err
}

// checkTLEs is the Syntax of tles: element sets in the two-line format,
// errors at their line and column within the value.
func checkTLEs(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	_, err := orbit.ParseTLEs("tles", s)
	return textErrors(err)
}

// textErrors turns the positioned errors of orbit's readers into
// vocab.TextErrors, which the spec reader places in the file a value
// came from; other errors pass unchanged.
func textErrors(err error) error {
	var list orbit.TLEErrors
	var one *orbit.TLEError
	switch {
	case errors.As(err, &list):
		out := make(vocab.TextErrors, len(list))
		for i, e := range list {
			out[i] = vocab.TextError{Line: e.Line, Col: e.Col, Msg: e.Msg}
		}
		return out
	case errors.As(err, &one):
		return vocab.TextErrors{{Line: one.Line, Col: one.Col, Msg: one.Msg}}
	}
	return err
}

// parseStations reads "hypatia-100", "hypatia-100:N" (the first N),
// lines of orbit.ParseStations' formats (a value holding a line break),
// or a ";"-separated list of built-in cities and "lat,lon" pairs.
func parseStations(s string) ([]orbit.Station, error) {
	t := strings.TrimSpace(s)
	switch {
	case t == "hypatia-100":
		return orbit.HypatiaCities(), nil
	case strings.HasPrefix(t, "hypatia-100:"):
		n, err := strconv.Atoi(t[len("hypatia-100:"):])
		all := orbit.HypatiaCities()
		if err != nil || n < 1 || n > len(all) {
			return nil, fmt.Errorf("%q: want hypatia-100:N with N from 1 to %d", t, len(all))
		}
		return all[:n], nil
	case strings.Contains(s, "\n"):
		return orbit.ParseStations("stations", s)
	}
	var out []orbit.Station
	for _, item := range strings.Split(t, ";") {
		st, err := parseStation(strings.TrimSpace(item))
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

func checkStations(s string) error {
	st, err := parseStations(s)
	if err == nil && len(st) < 2 {
		err = fmt.Errorf("want at least two stations")
	}
	return textErrors(err)
}

// parseOutages reads ";"-separated outages, "sat:K@FROM-TO" or
// "isl:A-B@FROM-TO", satellites by fleet number and times in seconds from
// the start of the run.
func parseOutages(s string) ([]orbit.Outage, error) {
	var out []orbit.Outage
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, item := range strings.Split(s, ";") {
		item = strings.TrimSpace(item)
		what, when, ok := strings.Cut(item, "@")
		from, to, ok2 := strings.Cut(when, "-")
		bad := fmt.Errorf("outage %q: want sat:K@FROM-TO or isl:A-B@FROM-TO (satellite numbers, seconds from the start)", item)
		if !ok || !ok2 {
			return nil, bad
		}
		f, err1 := strconv.ParseFloat(from, 64)
		e, err2 := strconv.ParseFloat(to, 64)
		if err1 != nil || err2 != nil || !(f >= 0) || !(e > f) {
			return nil, fmt.Errorf("outage %q: times %q-%q must be numbers with 0 <= FROM < TO", item, from, to)
		}
		o := orbit.Outage{From: f, To: e, Sat: -1}
		switch {
		case strings.HasPrefix(what, "sat:"):
			k, err := strconv.Atoi(what[4:])
			if err != nil || k < 0 {
				return nil, bad
			}
			o.Sat = k
		case strings.HasPrefix(what, "isl:"):
			a, b, ok := strings.Cut(what[4:], "-")
			x, err1 := strconv.Atoi(a)
			y, err2 := strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 {
				return nil, bad
			}
			o.Link = [2]int{x, y}
		default:
			return nil, bad
		}
		out = append(out, o)
	}
	return out, nil
}

// parseExtraISLs reads ";"-separated links "A-B" by fleet satellite
// number.
func parseExtraISLs(s string) ([][2]int, error) {
	var out [][2]int
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, item := range strings.Split(s, ";") {
		a, b, ok := strings.Cut(strings.TrimSpace(item), "-")
		x, err1 := strconv.Atoi(strings.TrimSpace(a))
		y, err2 := strconv.Atoi(strings.TrimSpace(b))
		if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 {
			return nil, fmt.Errorf("link %q: want A-B, two fleet satellite numbers", item)
		}
		out = append(out, [2]int{x, y})
	}
	return out, nil
}

func checkExtraISLs(s string) error {
	_, err := parseExtraISLs(s)
	return err
}

func checkOutages(s string) error {
	_, err := parseOutages(s)
	return err
}

// parseModes reads a comma-separated list of rates, bit/s.
func parseModes(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v >= 1) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("rate mode %q: want a rate in bit/s of at least 1 (1e10 for 10 Gbit/s)", f)
		}
		out = append(out, v)
	}
	slices.Sort(out)
	slices.Reverse(out)
	return slices.Compact(out), nil
}

func checkModes(s string) error {
	_, err := parseModes(s)
	return err
}

// parseCCAs reads a comma-separated list of congestion controllers.
func parseCCAs(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if !slices.Contains(cc.Names(), f) {
			return nil, fmt.Errorf("%q is not a congestion controller (%s)", f, strings.Join(cc.Names(), ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

func checkCCAs(s string) error {
	_, err := parseCCAs(s)
	return err
}

// queue returns the queue model of a link direction with limit packets.
func (c lnConfig) queue(limit int) netsim.QueueModel {
	switch c.aqm {
	case "codel":
		return netsim.CoDel{Limit: limit}
	case "fq-codel":
		return netsim.FQCoDel{Limit: limit}
	}
	return netsim.DropTail{Packets: limit}
}

// decodeLNConfig reads leo-network's parameters but for the pairs, which
// decodeLN draws.
func decodeLNConfig(p vocab.Params) (lnConfig, lnTraffic, error) {
	c := lnConfig{
		tcpFlows:     int(p.Int("tcp_flows")),
		udpFlows:     int(p.Int("udp_flows")),
		udpRate:      unit.BitRate(p.Float("udp_rate")),
		startSpread:  des.FromSeconds(p.Float("start_spread")),
		islRate:      unit.BitRate(p.Float("isl_rate")),
		gslRate:      unit.BitRate(p.Float("gsl_rate")),
		islQueue:     int(p.Int("isl_queue")),
		gslQueue:     int(p.Int("gsl_queue")),
		interval:     des.FromSeconds(p.Float("route_interval")),
		duration:     des.Time(des.FromSeconds(p.Float("duration"))),
		warmup:       des.Time(des.FromSeconds(p.Float("warmup"))),
		startTime:    p.Float("start_time"),
		handoverGap:  des.FromSeconds(p.Float("handover_gap")),
		islErrors:    p.Bool("isl_errors"),
		jitterURad:   p.Float("jitter_urad"),
		perThreshold: p.Float("per_threshold"),
		sample:       des.FromSeconds(p.Float("sample_interval")),
		window:       unit.Bytes(p.Int("window")),
		host:         decodeHost(p),
	}
	if c.warmup >= c.duration {
		return c, lnTraffic{}, fmt.Errorf("warmup %v is not shorter than duration %v", c.warmup, c.duration)
	}
	var err error
	motion := leoMotion(p.Str("motion"))
	if c.fleet.Shells, err = parseShells(p.Str("shells")); err != nil {
		return c, lnTraffic{}, fmt.Errorf("shells: %w", err)
	}
	if t := p.Str("tles"); strings.TrimSpace(t) != "" {
		if c.fleet.TLEs, err = orbit.ParseTLEs("tles", t); err != nil {
			return c, lnTraffic{}, err
		}
		c.fleet.TLERule = orbit.GroundRule{MinElevation: orbit.Radians(p.Float("tle_min_elevation_deg"))}
	}
	c.fleet.Motion, c.fleet.UseCone, c.fleet.Epoch = motion, p.Str("ground_rule") == "cone", -0.5
	if c.fleet.ExtraISLs, err = parseExtraISLs(p.Str("extra_isls")); err != nil {
		return c, lnTraffic{}, fmt.Errorf("extra_isls: %w", err)
	}
	c.aqm = p.Str("aqm")
	if len(c.fleet.TLEs) > 0 {
		// Element sets are valid near their epoch: time 0 is the first
		// set's (SGP4 drifts by kilometres a day away from it).
		c.fleet.Epoch = c.fleet.TLEs[0].Epoch
	}
	if c.stations, err = parseStations(p.Str("stations")); err != nil {
		return c, lnTraffic{}, fmt.Errorf("stations: %w", err)
	}
	if c.earth, err = orbit.EarthNamed(p.Str("earth")); err != nil {
		return c, lnTraffic{}, err
	}
	c.mode = orbit.OverISLs
	if p.Str("routing") == "ground-relays" {
		c.mode = orbit.GroundRelays
	}
	if c.ccas, err = parseCCAs(p.Str("cca")); err != nil {
		return c, lnTraffic{}, fmt.Errorf("cca: %w", err)
	}
	tr, err := parseTraffic(p.Str("traffic"))
	if err != nil {
		return c, lnTraffic{}, fmt.Errorf("traffic: %w", err)
	}
	if c.tcpFlows+c.udpFlows == 0 {
		return c, lnTraffic{}, fmt.Errorf("tcp_flows and udp_flows are both 0: no traffic")
	}
	if c.outages, err = parseOutages(p.Str("outages")); err != nil {
		return c, tr, fmt.Errorf("outages: %w", err)
	}
	for i := range c.outages {
		c.outages[i].From += c.startTime
		c.outages[i].To += c.startTime
	}
	if c.terminal, err = phy.TerminalNamed(p.Str("terminal")); err != nil {
		return c, tr, err
	}
	if p.Bool("adaptive_rate") {
		if c.modes, err = parseModes(p.Str("rate_modes")); err != nil {
			return c, tr, fmt.Errorf("rate_modes: %w", err)
		}
		if len(c.modes) == 0 {
			return c, tr, fmt.Errorf("adaptive_rate needs rate_modes")
		}
	}
	return c, tr, nil
}

// decodeLN reads leo-network's parameters and draws its pairs, after the
// memory estimate (lnMemory) has let the scenario through: before
// anything is built.
func decodeLN(p vocab.Params, seed uint64) (lnConfig, [][2]int, error) {
	c, tr, err := decodeLNConfig(p)
	if err != nil {
		return c, nil, err
	}
	if err := lnTooBig(c, tr.count(len(c.stations))); err != nil {
		return c, nil, err
	}
	pairs, err := tr.resolve(c.stations, des.NewStreams(seed).New("leo-network/traffic"))
	if err != nil {
		return c, nil, err
	}
	return c, pairs, nil
}
