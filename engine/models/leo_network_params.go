package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// lnConfig is leo-network's parameters, decoded once.
type lnConfig struct {
	fleet        orbit.FleetConfig
	stations     []orbit.Station
	earth        orbit.Earth
	mode         orbit.RouteMode
	traffic      lnTraffic
	tcpFlows     int
	udpFlows     int
	ccas         []string
	udpRate      unit.BitRate
	startSpread  des.Duration
	islRate      unit.BitRate // 0: the terminal's
	gslRate      unit.BitRate
	islQueue     int
	gslQueue     int
	interval     des.Duration
	duration     des.Time
	warmup       des.Time
	startTime    float64
	outages      []orbit.Outage
	handoverGap  des.Duration
	islErrors    bool
	terminal     phy.Terminal
	modes        []float64 // rate modes, bit/s, descending; nil: fixed capacity
	perThreshold float64
	sample       des.Duration
	window       unit.Bytes
	host         tcpHost
}

// lnTraffic is the traffic parameter: all pairs among the first n
// stations (n 0: all), k random ordered pairs, or a list.
type lnTraffic struct {
	kind  string // "all", "random", "list"
	n     int
	pairs [][2]string // list: station names or indices
}

// Pairs resolves the traffic among stations: ordered (source,
// destination) station indices, drawn from rng for random.
func (t lnTraffic) resolve(stations []orbit.Station, rng *rand.Rand) ([][2]int, error) {
	g := len(stations)
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
	}
	byName := map[string]int{}
	for i, s := range stations {
		if _, dup := byName[s.Name]; !dup {
			byName[s.Name] = i
		}
	}
	find := func(s string) (int, error) {
		if i, err := strconv.Atoi(s); err == nil {
			if i < 0 || i >= g {
				return 0, fmt.Errorf("traffic: station %d: stations are numbered 0..%d", i, g-1)
			}
			return i, nil
		}
		if i, ok := byName[s]; ok {
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

// count is the number of pairs among g stations.
func (t lnTraffic) count(g int) int {
	switch t.kind {
	case "all":
		n := t.n
		if n == 0 || n > g {
			n = g
		}
		return n * (n - 1)
	case "random":
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
	}
	t := lnTraffic{kind: "list"}
	for _, item := range strings.Split(s, ";") {
		a, b, ok := strings.Cut(item, ">")
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		if !ok || a == "" || b == "" {
			return lnTraffic{}, fmt.Errorf("pair %q: want source>destination (station names or numbers), or all, all:N, random:K", item)
		}
		t.pairs = append(t.pairs, [2]string{a, b})
	}
	return t, nil
}

// maxTrafficPairs bounds the pairs of a traffic matrix at spec time:
// each pair carries at least one flow of two endpoints and a path record
// (lnFlowBytes), so 2^20 pairs already take gigabytes.
const maxTrafficPairs = 1 << 20

// checkTraffic is the Syntax of traffic. The full memory estimate, which
// needs the stations and the flows per pair too, is lnMemory's.
func checkTraffic(s string) error {
	t, err := parseTraffic(s)
	if err != nil {
		return err
	}
	pairs := t.count(t.n)
	if pairs > maxTrafficPairs {
		return fmt.Errorf("%d pairs would need about %.1f GiB for one flow each; at most %d pairs", pairs,
			float64(int64(pairs)*lnFlowBytes)/(1<<30), maxTrafficPairs)
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
	return err
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

// The parts of lnMemory's estimate. lnFlowBytes is a rough upper figure
// for one flow's state (two TCP endpoints with their scoreboards, timers
// and the receiver's sequence map, or a UDP sender), not a measured one.
const (
	lnFlowBytes   = 64 << 10
	lnLinkBytes   = 1 << 10
	lnMaxBytes    = 4 << 30
	lnGroundLinks = 8 // ground links per station the estimate allows
)

// lnMemory estimates the memory of a scenario: the forwarding state, the
// links, every queue full of packets, and the flows.
func lnMemory(sats, isls, stations, pairs, flowsPerPair, islQueue, gslQueue int) int64 {
	links := int64(2*isls) + int64(2*lnGroundLinks*stations)
	pkt := int64(unsafe.Sizeof(netsim.Packet{}))
	return orbit.ForwardingBytes(sats, stations, isls) + links*lnLinkBytes +
		int64(2*isls*islQueue+2*lnGroundLinks*stations*gslQueue)*pkt +
		int64(pairs)*int64(max(flowsPerPair, 1))*lnFlowBytes
}

// decodeLN reads leo-network's parameters.
func decodeLN(p vocab.Params, seed uint64) (lnConfig, [][2]int, error) {
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
		perThreshold: p.Float("per_threshold"),
		sample:       des.FromSeconds(p.Float("sample_interval")),
		window:       unit.Bytes(p.Int("window")),
		host:         decodeHost(p),
	}
	if c.warmup >= c.duration {
		return c, nil, fmt.Errorf("warmup %v is not shorter than duration %v", c.warmup, c.duration)
	}
	var err error
	motion := leoMotion(p.Str("motion"))
	if c.fleet.Shells, err = parseShells(p.Str("shells")); err != nil {
		return c, nil, fmt.Errorf("shells: %w", err)
	}
	if t := p.Str("tles"); strings.TrimSpace(t) != "" {
		if c.fleet.TLEs, err = orbit.ParseTLEs("tles", t); err != nil {
			return c, nil, err
		}
		c.fleet.TLERule = orbit.GroundRule{MinElevation: orbit.Radians(p.Float("tle_min_elevation_deg"))}
	}
	c.fleet.Motion, c.fleet.UseCone, c.fleet.Epoch = motion, p.Str("ground_rule") == "cone", -0.5
	if c.stations, err = parseStations(p.Str("stations")); err != nil {
		return c, nil, fmt.Errorf("stations: %w", err)
	}
	if c.earth, err = orbit.EarthNamed(p.Str("earth")); err != nil {
		return c, nil, err
	}
	c.mode = orbit.OverISLs
	if p.Str("routing") == "ground-relays" {
		c.mode = orbit.GroundRelays
	}
	if c.ccas, err = parseCCAs(p.Str("cca")); err != nil {
		return c, nil, fmt.Errorf("cca: %w", err)
	}
	tr, err := parseTraffic(p.Str("traffic"))
	if err != nil {
		return c, nil, fmt.Errorf("traffic: %w", err)
	}
	if c.tcpFlows+c.udpFlows == 0 {
		return c, nil, fmt.Errorf("tcp_flows and udp_flows are both 0: no traffic")
	}
	// The memory estimate comes before anything is built, the pairs
	// included: a +Grid shell has two links per satellite.
	sats := len(c.fleet.TLEs)
	for _, sh := range c.fleet.Shells {
		sats += sh.Size()
	}
	isls, g := 2*(sats-len(c.fleet.TLEs)), len(c.stations)
	npairs := tr.count(g)
	flowsPer := c.tcpFlows + c.udpFlows
	if b := lnMemory(sats, isls, g, npairs, flowsPer, c.islQueue, c.gslQueue); b > lnMaxBytes {
		return c, nil, fmt.Errorf("traffic, stations and tcp_flows/udp_flows: %d satellites, %d stations and %d pairs of %d flows would need about %.1f GiB (forwarding state, full queues and flows), more than the %d GiB allowed: use fewer stations, pairs or flows",
			sats, g, npairs, flowsPer, float64(b)/(1<<30), lnMaxBytes>>30)
	}
	pairs, err := tr.resolve(c.stations, des.NewStreams(seed).New("leo-network/traffic"))
	if err != nil {
		return c, nil, err
	}
	if c.outages, err = parseOutages(p.Str("outages")); err != nil {
		return c, nil, fmt.Errorf("outages: %w", err)
	}
	for i := range c.outages {
		c.outages[i].From += c.startTime
		c.outages[i].To += c.startTime
	}
	if c.terminal, err = phy.TerminalNamed(p.Str("terminal")); err != nil {
		return c, nil, err
	}
	if p.Bool("adaptive_rate") {
		if c.modes, err = parseModes(p.Str("rate_modes")); err != nil {
			return c, nil, fmt.Errorf("rate_modes: %w", err)
		}
		if len(c.modes) == 0 {
			return c, nil, fmt.Errorf("adaptive_rate needs rate_modes")
		}
	}
	return c, pairs, nil
}
