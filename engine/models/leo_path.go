package models

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// LEOPath is the "leo-path" model: TCP flows between two ground stations
// over a moving LEO constellation with laser inter-satellite links.
//
// The constellation (package orbit: a Walker shell, +Grid ISLs, ground
// links above a minimum elevation) is routed by shortest propagation
// delay every route_interval, as Hypatia does (Kassing et al., IMC 2020).
// The forwarding state switches atomically: a packet takes the path, and
// the delay, in force when it leaves the source's ground link, so packets
// in flight keep their old path and a shorter new path lets later packets
// overtake earlier ones (the reordering of Frederiksen et al. 2024).
//
// Each ISL on the path has the bit error rate of document 000's link
// budget at its current length for the chosen terminal, with a random
// pointing fade drawn per packet and link (phy.Jitter); a packet is lost on
// a link with its exact PER. The ground links are RF: a rate, a DropTail
// queue and an optional random loss, with their delay from geometry. ISLs
// add their serialisation time but no queue: at 10 Gbit/s and more they
// are three orders of magnitude faster than the ground links.
//
// With flows = 0 the model only routes and samples the path (its RTT,
// hops and worst ISL), which is how the Hypatia RTT comparison runs.
type LEOPath struct{ schema *vocab.Schema }

// NewLEOPath returns the leo-path model.
func NewLEOPath() *LEOPath { return &LEOPath{schema: leoPathSchema()} }

// Schema implements vocab.Model.
func (m *LEOPath) Schema() *vocab.Schema { return m.schema }

// Cost is the number of route updates (each a Dijkstra over the shell)
// plus the simulated packets, roughly.
func (m *LEOPath) Cost(p vocab.Params) float64 {
	d := p.Float("duration")
	return d/p.Float("route_interval")*1e3 + d*float64(p.Int("flows"))*p.Float("gsl_rate")/1e4
}

// The positions of the main-row metrics.
const (
	lpGoodput = iota
	lpBytes
	lpRetrans
	lpSpurious
	lpRTOs
	lpRecoveries
	lpReordered
	lpPathChanges
	lpRTTMin
	lpRTTMean
	lpRTTMax
	lpHopsMin
	lpHopsMax
	lpWorstBER
	lpExceedFrac
	lpCrossExceed
	lpISLDrops
	lpQueueDrops
	lpGroundDrops
	lpUnreachable
	lpNoPathDrops
	lpSatellites
	lpCount
)

func leoPathSchema() *vocab.Schema {
	sf := func(name string, def, lo, hi float64, unit vocab.Unit, doc string) vocab.Param {
		return vocab.Param{Name: name, Kind: vocab.Float, Unit: unit, Default: vocab.F(def), Min: lo, Max: hi, Doc: doc}
	}
	params := []vocab.Param{
		{Name: "shell", Kind: vocab.String, Default: vocab.S("kuiper-k1"), Choices: []string{"starlink-s1", "kuiper-k1", "telesat-t1"},
			Doc: "Hypatia's shells: starlink-s1 72x22 at 550 km, 53 deg; kuiper-k1 34x34 at 630 km, 51.9 deg; telesat-t1 27x13 at 1015 km, 98.98 deg"},
		{Name: "motion", Kind: vocab.String, Default: vocab.S("sgp4"), Choices: []string{"kepler", "j2", "sgp4", "pyephem"},
			Doc: "how satellites move: kepler, circles fixed in inertial space; j2, with the secular J2 drift of node and argument of latitude; sgp4, the near-Earth SGP4 model without drag from the shell's mean elements, as Hypatia propagates them; pyephem, SGP4 with PyEphem's element rounding, constants and sidereal time, the positions Hypatia measures its links on (with earth pyephem)"},
		{Name: "src", Kind: vocab.String, Default: vocab.S("manila"), Syntax: checkStation,
			Doc: "source ground station: a built-in city (manila, dalian, istanbul, nairobi, rio-de-janeiro, saint-petersburg, london, new-york, ...) or \"lat,lon\" in degrees"},
		{Name: "dst", Kind: vocab.String, Default: vocab.S("dalian"), Syntax: checkStation, Doc: "destination ground station, as src"},
		{Name: "earth", Kind: vocab.String, Default: vocab.S("wgs72"), Choices: []string{"sphere", "wgs72", "wgs84", "pyephem"},
			Doc: "surface the stations stand on (wgs72: Hypatia's station file; pyephem: PyEphem's observers, which Hypatia's link lengths use); satellites keep their orbit radius from the centre"},
		{Name: "ground_rule", Kind: vocab.String, Default: vocab.S("cone"), Choices: []string{"cone", "elevation"},
			Doc: "which satellites a station uses: cone, Hypatia's range limit sqrt(cone^2+h^2) (1260 km for Kuiper at 30 deg); elevation, the true elevation over the local vertical"},
		sf("min_elevation_deg", 0, 0, 89, vocab.Dimensionless, "minimum elevation for ground_rule elevation; 0 takes the shell's (25 Starlink, 30 Kuiper, 10 Telesat)"),
		sf("start_time", 0, 0, 1e7, vocab.Second, "time after the shell's epoch (2000-01-01 00:00 UT, Hypatia's) at which the run starts"),
		sf("duration", 200, 0.001, 1e5, vocab.Second, "simulated time"),
		sf("route_interval", 0.1, 0.001, 100, vocab.Second, "period of the routing update (Hypatia: 100 ms)"),
		sf("sample_interval", 0.1, 0, 100, vocab.Second, "period of the time-series table; 0 writes none"),
		{Name: "frozen_path", Kind: vocab.Bool, Default: vocab.B(false), Doc: "keep the geometry and path of time start_time for the whole run (the static comparison)"},
		{Name: "flows", Kind: vocab.Int, Default: vocab.I(1), Min: 0, Max: 64, Doc: "TCP flows from src to dst; 0 routes and samples the path only"},
		{Name: "cca", Kind: vocab.String, Default: vocab.S("newreno"), Choices: cc.Names(), Doc: "congestion control of every flow (engine/tcp/cc)"},
		sf("gsl_rate", 10e6, 1e3, 1e11, vocab.BitPerSecond, "rate of each ground-to-satellite link, both directions (Hypatia's TCP runs: 10 Mbit/s)"),
		{Name: "queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(100), Min: 1, Max: 1e6,
			Doc: "DropTail limit of each ground link's queue (Hypatia: 100 packets)"},
		sf("gsl_loss", 0, 0, 1, vocab.Dimensionless, "random loss probability of each packet on each ground link (rain, interference)"),
		{Name: "isl_errors", Kind: vocab.Bool, Default: vocab.B(true), Doc: "bit errors on the ISLs from the link budget; off: delay only, as in Hypatia"},
		{Name: "terminal", Kind: vocab.String, Default: vocab.S("isl-100g"), Choices: []string{"oct-10g", "isl-100g"},
			Doc: "ISL terminal (engine/phy): document 000's Table 1 optics at 10 or 100 Gbit/s, direct detection"},
		sf("isl_rate", 0, 0, 1e13, vocab.BitPerSecond, "rate at which each ISL serialises a packet; 0 takes the terminal's (Hypatia's TCP runs give ISLs 10 Mbit/s, like the ground links). ISLs have no queue: the ground link upstream paces packets at or below this rate"),
		sf("jitter_urad", 0, 0, 100, vocab.Dimensionless, "standard deviation of each axis of the transmitter's pointing error, microradians (Rayleigh radial error; 0: perfect pointing)"),
		sf("per_threshold", 1e-6, 1e-15, 1, vocab.Dimensionless, "PER above which an ISL counts as exceeding, for the exceed fractions"),
		{Name: "mss", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(1448), Min: 88, Max: 65495, Doc: "maximum segment size"},
		{Name: "window", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(16 << 20), Min: 1000, Max: 1 << 30,
			Doc: "receive buffer (with window scaling)"},
		{Name: "sack", Kind: vocab.Bool, Default: vocab.B(true), Doc: "SACK with RFC 6675 recovery (off: NewReno recovery)"},
		sf("min_rto", 0.2, 0.001, 60, vocab.Second, "minimum RTO (Linux 0.2 s; RFC 6298 1 s)"),
	}
	metrics := make([]vocab.Metric, lpCount)
	m := func(i int, name string, k vocab.Kind, u vocab.Unit, doc string) {
		metrics[i] = vocab.Metric{Name: name, Kind: k, Unit: u, Doc: doc}
	}
	m(lpGoodput, "goodput", vocab.Float, vocab.BitPerSecond, "in-order bytes delivered to the receivers over the duration, all flows")
	m(lpBytes, "bytes_delivered", vocab.Int, vocab.Byte, "in-order bytes delivered, all flows")
	m(lpRetrans, "retrans_segs", vocab.Int, vocab.Packet, "segments retransmitted, all flows, spurious ones included")
	m(lpSpurious, "spurious_retrans", vocab.Int, vocab.Packet, "retransmissions whose data had already arrived (the receiver saw the segment twice)")
	m(lpRTOs, "rtos", vocab.Int, vocab.Dimensionless, "retransmission timer expiries")
	m(lpRecoveries, "fast_recoveries", vocab.Int, vocab.Dimensionless, "fast recovery episodes entered")
	m(lpReordered, "reordered_segs", vocab.Int, vocab.Packet, "first transmissions that arrived after a segment sent later (overtaken on a path change)")
	m(lpPathChanges, "path_changes", vocab.Int, vocab.Dimensionless, "routing updates that changed the sequence of satellites")
	m(lpRTTMin, "rtt_min", vocab.Float, vocab.Second, "smallest path round trip (propagation only) over the routing updates")
	m(lpRTTMean, "rtt_mean", vocab.Float, vocab.Second, "mean path round trip over the routing updates")
	m(lpRTTMax, "rtt_max", vocab.Float, vocab.Second, "largest path round trip over the routing updates")
	m(lpHopsMin, "hops_min", vocab.Int, vocab.Dimensionless, "fewest links on the path (ground links included)")
	m(lpHopsMax, "hops_max", vocab.Int, vocab.Dimensionless, "most links on the path")
	m(lpWorstBER, "worst_isl_ber", vocab.Float, vocab.Dimensionless, "largest fade-averaged BER of an ISL on the path over the run (0 with isl_errors off)")
	m(lpExceedFrac, "worst_isl_exceed_frac", vocab.Float, vocab.Dimensionless, "fraction of routing updates at which the path's worst ISL has a fade-averaged PER (data packet) above per_threshold")
	m(lpCrossExceed, "cross_plane_exceed_frac", vocab.Float, vocab.Dimensionless, "fraction of (routing update, cross-plane ISL) pairs of the whole shell above per_threshold")
	m(lpISLDrops, "isl_error_drops", vocab.Int, vocab.Packet, "packets lost to ISL bit errors, both directions")
	m(lpQueueDrops, "queue_drops", vocab.Int, vocab.Packet, "packets dropped by the ground links' queues")
	m(lpGroundDrops, "ground_loss_drops", vocab.Int, vocab.Packet, "packets lost to gsl_loss")
	m(lpUnreachable, "unreachable_frac", vocab.Float, vocab.Dimensionless, "fraction of routing updates with no path (a station sees no satellite)")
	m(lpNoPathDrops, "no_path_drops", vocab.Int, vocab.Packet, "packets dropped at the space segment while no path existed, both directions")
	m(lpSatellites, "satellites", vocab.Int, vocab.Dimensionless, "satellites in the shell")
	return &vocab.Schema{
		Name:    "leo-path",
		Version: 3, // 3: the parameter freeze is frozen_path (freeze is an SQL keyword; no rows change); 2: SGP4 motion by default (motion replaces j2), isl_rate, no_path_drops
		Doc: "TCP flows between two ground stations over a moving LEO constellation (Hypatia's Starlink, Kuiper and Telesat shells, " +
			"+Grid laser ISLs, shortest-delay routing every route_interval with atomic switching), each ISL's BER from document 000's " +
			"link budget at its current length with Rayleigh pointing jitter; goodput, retransmissions (spurious apart), reordering, " +
			"path changes and the path's RTT, hops and worst ISL.",
		Params:  params,
		Metrics: metrics,
		Tables: []vocab.Table{{Name: "timeseries", Doc: "every sample_interval: the path and each flow's sender (one row per flow; flow -1 when flows = 0)",
			Columns: []vocab.Metric{
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second},
				{Name: "flow", Kind: vocab.Int},
				{Name: "rtt", Kind: vocab.Float, Unit: vocab.Second, Doc: "round trip of the current path, propagation only (0 when unreachable)"},
				{Name: "hops", Kind: vocab.Int, Doc: "links on the current path, ground links included"},
				{Name: "worst_isl_ber", Kind: vocab.Float, Doc: "fade-averaged BER of the path's longest ISL"},
				{Name: "path_changes", Kind: vocab.Int, Doc: "path changes so far"},
				{Name: "cwnd", Kind: vocab.Int, Unit: vocab.Byte},
				{Name: "srtt", Kind: vocab.Float, Unit: vocab.Second},
				{Name: "delivered", Kind: vocab.Int, Unit: vocab.Byte, Doc: "in-order bytes delivered to the receiver so far"},
			}}},
	}
}

// parseStation reads a city name or "lat,lon".
func parseStation(s string) (orbit.Station, error) {
	if lat, lon, ok := strings.Cut(s, ","); ok {
		la, err1 := strconv.ParseFloat(strings.TrimSpace(lat), 64)
		lo, err2 := strconv.ParseFloat(strings.TrimSpace(lon), 64)
		if err1 != nil || err2 != nil {
			return orbit.Station{}, fmt.Errorf("station %q: want a city or \"lat,lon\" in degrees", s)
		}
		return orbit.StationAt(s, la, lo)
	}
	return orbit.City(s)
}

// leoWorld is the moving constellation and its forwarding state.
type leoWorld struct {
	s        *des.Scheduler
	router   *orbit.Router
	cons     *orbit.Constellation
	t0       float64
	frozen   bool
	interval des.Duration

	cur, next orbit.Path
	ok        bool
	// oneWay is the current path's propagation delay, ns.
	oneWay int64

	// ISL physics.
	errors    bool
	term      phy.Terminal
	jitter    phy.Jitter
	islRate   float64
	islSNR    []float64 // unfaded SNR of each ISL on the current path
	islBER    []float64 // unfaded BER of each
	exceedLen float64   // ISL length above which the mean PER passes the threshold
	crossISLs []int     // indices of the cross-plane ISLs
	worstBER  float64   // mean BER of the current path's longest ISL

	// Statistics over routing updates.
	updates, reachable, changes int64
	rttMin, rttMax, rttSum      float64
	hopsMin, hopsMax            int
	maxWorstBER                 float64
	exceed                      int64
	crossExceed, crossTotal     int64
}

// Handle recomputes the route (kind 0).
func (w *leoWorld) Handle(now des.Time, kind int, arg uint64) {
	w.update(now)
	if !w.frozen {
		w.s.After(w.interval, w, 0, 0)
	}
}

func (w *leoWorld) update(now des.Time) {
	t := w.t0
	if !w.frozen {
		t += now.Seconds()
	}
	ok := w.router.Route(t, &w.next)
	w.updates++
	if ok != w.ok || (ok && !w.next.Same(&w.cur)) {
		if w.updates > 1 {
			w.changes++
		}
	}
	w.ok = ok
	w.cur.CopyFrom(&w.next)
	if !ok {
		return
	}
	w.reachable++
	w.oneWay = int64(math.Round(w.cur.Length / orbit.LightSpeed * 1e9))
	rtt := 2 * w.cur.Length / orbit.LightSpeed
	if w.reachable == 1 || rtt < w.rttMin {
		w.rttMin = rtt
	}
	w.rttMax = math.Max(w.rttMax, rtt)
	w.rttSum += rtt
	hops := len(w.cur.Hops)
	if w.reachable == 1 || hops < w.hopsMin {
		w.hopsMin = hops
	}
	w.hopsMax = max(w.hopsMax, hops)
	if !w.errors {
		return
	}
	w.islSNR, w.islBER = w.islSNR[:0], w.islBER[:0]
	longest := 0.0
	for _, k := range w.cur.ISLs {
		z := w.router.ISLLength(k)
		snr := w.term.SNR(z)
		w.islSNR = append(w.islSNR, snr)
		w.islBER = append(w.islBER, phy.BERQ(snr))
		longest = math.Max(longest, z)
	}
	// Every ISL has the same terminal and jitter, so the worst is the
	// longest (the BER grows with length).
	w.worstBER = 0
	if longest > 0 {
		w.worstBER = w.term.MeanBER(longest, w.jitter)
	}
	w.maxWorstBER = math.Max(w.maxWorstBER, w.worstBER)
	if longest > w.exceedLen {
		w.exceed++
	}
	for _, k := range w.crossISLs {
		if w.router.ISLLength(k) > w.exceedLen {
			w.crossExceed++
		}
	}
	w.crossTotal += int64(len(w.crossISLs))
}

// spaceHop carries packets from one ground link to the other over the
// current path: it fixes a packet's delay and its ISL losses when the
// packet arrives, then hands it to the far ground link when the delay has
// passed. Arrivals are events of their own, so packets on a new, shorter
// path overtake those still on the old one.
type spaceHop struct {
	w     *leoWorld
	s     *des.Scheduler
	net   *netsim.Network
	down  *netsim.Link
	rng   *rand.Rand
	slots []*netsim.Packet
	free  []uint64
	lost  int64
	noWay int64
}

// Send implements netsim.Egress.
func (h *spaceHop) Send(p *netsim.Packet) {
	w := h.w
	if !w.ok {
		h.noWay++
		h.net.Free(p)
		return
	}
	delay := w.oneWay
	if n := len(w.cur.ISLs); n > 0 {
		delay += int64(n) * int64(math.Round(float64(p.Size*8)/w.islRate*1e9))
		if w.errors && h.islLoss(p.Size) {
			h.lost++
			h.net.Free(p)
			return
		}
	}
	var slot uint64
	if k := len(h.free); k > 0 {
		slot = h.free[k-1]
		h.free = h.free[:k-1]
		h.slots[slot] = p
	} else {
		slot = uint64(len(h.slots))
		h.slots = append(h.slots, p)
	}
	h.s.After(des.Duration(delay), h, 0, slot)
}

// islLoss draws whether a packet of size bytes is lost on any ISL of the
// path: on each, a pointing fade, the BER of the faded SNR and the exact
// PER of the packet.
func (h *spaceHop) islLoss(size unit.Bytes) bool {
	w := h.w
	bits := phy.WireBits(float64(size))
	for i, snr := range w.islSNR {
		ber := w.islBER[i]
		if w.jitter.Sigma > 0 {
			ber = phy.BERQ(w.term.FadedSNR(snr, w.jitter.Draw(h.rng)))
		}
		if ber == 0 {
			continue
		}
		if h.rng.Float64() < phy.PERExact(ber, bits) {
			return true
		}
	}
	return false
}

// Handle delivers a packet to the far ground link.
func (h *spaceHop) Handle(now des.Time, kind int, arg uint64) {
	p := h.slots[arg]
	h.slots[arg] = nil
	h.free = append(h.free, arg)
	h.down.Send(p)
}

// seqWatch sits in front of a receiving endpoint and classifies arriving
// data segments by their offset in the stream: seen before (a spurious
// retransmission), or a first transmission below the highest offset seen
// (overtaken: reordered). Offsets are unwrapped from the 32-bit sequence
// space around the highest one seen (RFC 9293 section 3.4: a segment is
// never more than 2^31 away from it), so streams past 4 GB count right.
type seqWatch struct {
	conn      *tcp.Conn
	isn       uint32
	seen      []uint64 // bitmap of segment offsets / mss
	mss       int64
	high      int64 // highest offset seen, unwrapped
	any       bool
	dup, reor int64
}

// Receive implements netsim.Receiver.
func (r *seqWatch) Receive(now des.Time, p *netsim.Packet) {
	r.note(p)
	r.conn.Receive(now, p)
}

// note classifies one arriving packet.
func (r *seqWatch) note(p *netsim.Packet) {
	if p.Payload > 0 {
		rel := p.Seq - r.isn - 1 // the SYN takes one sequence number
		off := r.high + int64(int32(rel-uint32(r.high)))
		if off >= 0 {
			k := off / r.mss
			for k/64 >= int64(len(r.seen)) {
				r.seen = append(r.seen, 0)
			}
			bit := uint64(1) << (k % 64)
			switch {
			case r.seen[k/64]&bit != 0:
				r.dup++
			case !p.Retransmitted && r.any && off < r.high:
				r.reor++
			}
			r.seen[k/64] |= bit
			if !r.any || off > r.high {
				r.high, r.any = off, true
			}
		}
	}
}

type leoFlow struct {
	src, dst *tcp.Conn
	source   workload.Source
	sink     workload.Sink
	watch    seqWatch
}

// leoScenario is one built run.
type leoScenario struct {
	s        *des.Scheduler
	net      *netsim.Network
	w        *leoWorld
	fwd, rev *spaceHop
	ground   []*netsim.Link
	flows    []*leoFlow
	sample   des.Duration
	series   [][]vocab.Value
}

// Handle samples the time series.
func (sc *leoScenario) Handle(now des.Time, kind int, arg uint64) {
	w := sc.w
	rtt, hops := 0.0, 0
	if w.ok {
		rtt, hops = 2*w.cur.Length/orbit.LightSpeed, len(w.cur.Hops)
	}
	row := func(flow int, cwnd int64, srtt float64, delivered int64) []vocab.Value {
		return []vocab.Value{vocab.F(now.Seconds()), vocab.I(int64(flow)), vocab.F(rtt), vocab.I(int64(hops)),
			vocab.F(w.worstBER), vocab.I(w.changes), vocab.I(cwnd), vocab.F(srtt), vocab.I(delivered)}
	}
	if len(sc.flows) == 0 {
		sc.series = append(sc.series, row(-1, 0, 0, 0))
	}
	for i, f := range sc.flows {
		sc.series = append(sc.series, row(i, int64(f.src.CC().Cwnd), f.src.SRTT().Seconds(), int64(f.sink.Got)))
	}
	sc.s.After(sc.sample, sc, 0, 0)
}

// leoMotion returns the orbit motion of the motion parameter, from the
// shells' epoch 2000-01-01 00:00 UT: pyephem is SGP4 as PyEphem computes
// it for Hypatia, with libastro's sidereal angle.
func leoMotion(motion string) orbit.Motion {
	if motion == "pyephem" {
		return orbit.Motion{SGP4: true, PyEphem: true, GMST0: orbit.GMSTNewcomb(-0.5)}
	}
	return orbit.Motion{J2: motion == "j2", SGP4: motion == "sgp4", GMST0: orbit.GMSTAt(-0.5)}
}

func buildLEO(p vocab.Params, seed uint64) (*leoScenario, error) {
	shell, err := orbit.ShellNamed(p.Str("shell"))
	if err != nil {
		return nil, err
	}
	if e := p.Float("min_elevation_deg"); e > 0 {
		shell.MinElevation = orbit.Radians(e)
	}
	motion := p.Str("motion")
	cons, err := orbit.NewConstellation(shell, leoMotion(motion))
	if err != nil {
		return nil, err
	}
	a, err := parseStation(p.Str("src"))
	if err != nil {
		return nil, fmt.Errorf("src: %w", err)
	}
	b, err := parseStation(p.Str("dst"))
	if err != nil {
		return nil, fmt.Errorf("dst: %w", err)
	}
	earth, err := orbit.EarthNamed(p.Str("earth"))
	if err != nil {
		return nil, err
	}
	router, err := orbit.NewRouter(cons, earth, a, b, shell.Rule(p.Str("ground_rule") == "cone"))
	if err != nil {
		return nil, err
	}
	term, err := phy.TerminalNamed(p.Str("terminal"))
	if err != nil {
		return nil, err
	}
	s := des.New()
	net := netsim.New(s, seed)
	w := &leoWorld{s: s, router: router, cons: cons, t0: p.Float("start_time"), frozen: p.Bool("frozen_path"),
		interval: des.FromSeconds(p.Float("route_interval")), errors: p.Bool("isl_errors"), term: term,
		jitter: phy.Jitter{Sigma: p.Float("jitter_urad") * 1e-6, Gain: term.Gain()}, islRate: term.Rate,
		exceedLen: math.Inf(1)}
	if r := p.Float("isl_rate"); r > 0 {
		w.islRate = r
	}
	if w.errors {
		mss := int(p.Int("mss"))
		w.exceedLen = exceedLength(term, w.jitter, mss+52, p.Float("per_threshold"))
		for k, l := range router.ISLs() {
			if !cons.IntraPlane(l[0], l[1]) {
				w.crossISLs = append(w.crossISLs, k)
			}
		}
	}
	sc := &leoScenario{s: s, net: net, w: w, sample: des.FromSeconds(p.Float("sample_interval"))}
	s.Schedule(0, w, 0, 0)

	// Ground stations and the two ends of the space segment.
	na, nb := net.AddNode("src"), net.AddNode("dst")
	sa, sb := net.AddNode("space-src"), net.AddNode("space-dst")
	gcfg := func(name string) netsim.LinkConfig {
		c := netsim.LinkConfig{Name: name, Rate: unit.BitRate(p.Float("gsl_rate")), Queue: netsim.DropTail{Packets: int(p.Int("queue"))}}
		if l := p.Float("gsl_loss"); l > 0 {
			c.Loss = netsim.Bernoulli{P: l}
		}
		return c
	}
	up, err := net.Connect(na, sa, gcfg("up-src"))
	if err != nil {
		return nil, err
	}
	down, err := net.Connect(sb, nb, gcfg("down-dst"))
	if err != nil {
		return nil, err
	}
	upB, err := net.Connect(nb, sb, gcfg("up-dst"))
	if err != nil {
		return nil, err
	}
	downA, err := net.Connect(sa, na, gcfg("down-src"))
	if err != nil {
		return nil, err
	}
	sc.ground = []*netsim.Link{up, down, upB, downA}
	sc.fwd = &spaceHop{w: w, s: s, net: net, down: down, rng: net.Streams().New("leo/isl/forward")}
	sc.rev = &spaceHop{w: w, s: s, net: net, down: downA, rng: net.Streams().New("leo/isl/reverse")}
	na.SetRoute(nb, up)
	sa.SetRoute(nb, sc.fwd)
	nb.SetRoute(na, upB)
	sb.SetRoute(na, sc.rev)

	mss := int(p.Int("mss"))
	cfg := tcp.Config{MSS: unit.Bytes(mss), RcvBuf: unit.Bytes(p.Int("window")), SndBuf: 1 << 40, WindowScaling: true,
		SACK: p.Bool("sack"), MinRTO: des.FromSeconds(p.Float("min_rto")), LimitedTransmit: true,
		Recovery: tcp.RecoveryNewReno}
	if cfg.SACK {
		cfg.Recovery = tcp.RecoverySACK
	}
	rng := net.Streams().New("tcp/isn")
	for i := 0; i < int(p.Int("flows")); i++ {
		f := &leoFlow{}
		id := netsim.FlowID(i + 1)
		ctrlA, err := cc.New(p.Str("cca"), cc.Options{Seed: net.Streams().New(fmt.Sprintf("cc/%d", i)).Uint64()})
		if err != nil {
			return nil, err
		}
		ctrlB, _ := cc.New(p.Str("cca"), cc.Options{})
		isnA, isnB := rng.Uint32(), rng.Uint32()
		if f.src, err = tcp.New(s, cfg, ctrlA, tcp.NodePort{Net: net, Node: na}, &f.source, id, na.ID(), nb.ID(), isnA); err != nil {
			return nil, err
		}
		if f.dst, err = tcp.New(s, cfg, ctrlB, tcp.NodePort{Net: net, Node: nb}, &f.sink, id, nb.ID(), na.ID(), isnB); err != nil {
			return nil, err
		}
		f.source.Conn, f.source.Size = f.src, workload.Unlimited
		f.watch = seqWatch{conn: f.dst, isn: isnA, mss: int64(mss)}
		if err := na.Attach(id, f.src); err != nil {
			return nil, err
		}
		if err := nb.Attach(id, &f.watch); err != nil {
			return nil, err
		}
		f.dst.Listen()
		sc.flows = append(sc.flows, f)
	}
	if sc.sample > 0 {
		s.Schedule(0, sc, 0, 0)
	}
	return sc, nil
}

// exceedLength returns the ISL length above which the fade-averaged PER
// of a packet of size bytes passes threshold, by bisection on the length
// (the PER grows with it); +Inf if even 1e8 m stays below.
func exceedLength(t phy.Terminal, j phy.Jitter, size int, threshold float64) float64 {
	lo, hi := 1e3, 1e8
	if t.MeanPER(hi, j, size) <= threshold {
		return math.Inf(1)
	}
	if t.MeanPER(lo, j, size) > threshold {
		return 0
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if t.MeanPER(mid, j, size) > threshold {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}

// Run implements vocab.Model.
func (m *LEOPath) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	sc, err := buildLEO(p, seed)
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: leo-path: %w", err)
	}
	for _, f := range sc.flows {
		f.source.Start(0)
	}
	end := des.Time(des.FromSeconds(p.Float("duration")))
	if err := sc.s.Run(ctx, end); err != nil {
		return vocab.Result{}, fmt.Errorf("models: leo-path: %w", err)
	}
	return vocab.Result{Metrics: sc.metrics(end), Tables: [][][]vocab.Value{sc.series}}, nil
}

func (sc *leoScenario) metrics(end des.Time) []vocab.Value {
	w := sc.w
	out := make([]vocab.Value, lpCount)
	var got, retrans, rtos, rec, spur, reor int64
	for _, f := range sc.flows {
		got += int64(f.sink.Got)
		retrans += f.src.Stats.RetransSegs
		rtos += f.src.Stats.RTOs
		rec += f.src.Stats.FastRecoveries
		spur += f.watch.dup
		reor += f.watch.reor
	}
	var qd, gd int64
	for _, l := range sc.ground {
		st := l.Stats()
		qd += st.Drops[netsim.DropOverflow]
		gd += st.Drops[netsim.DropCorrupt]
	}
	frac := func(a, b int64) float64 {
		if b == 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	rttMean := 0.0
	if w.reachable > 0 {
		rttMean = w.rttSum / float64(w.reachable)
	}
	out[lpGoodput] = vocab.F(float64(got) * 8 / end.Seconds())
	out[lpBytes] = vocab.I(got)
	out[lpRetrans] = vocab.I(retrans)
	out[lpSpurious] = vocab.I(spur)
	out[lpRTOs] = vocab.I(rtos)
	out[lpRecoveries] = vocab.I(rec)
	out[lpReordered] = vocab.I(reor)
	out[lpPathChanges] = vocab.I(w.changes)
	out[lpRTTMin] = vocab.F(w.rttMin)
	out[lpRTTMean] = vocab.F(rttMean)
	out[lpRTTMax] = vocab.F(w.rttMax)
	out[lpHopsMin] = vocab.I(int64(w.hopsMin))
	out[lpHopsMax] = vocab.I(int64(w.hopsMax))
	out[lpWorstBER] = vocab.F(w.maxWorstBER)
	out[lpExceedFrac] = vocab.F(frac(w.exceed, w.reachable))
	out[lpCrossExceed] = vocab.F(frac(w.crossExceed, w.crossTotal))
	out[lpISLDrops] = vocab.I(sc.fwd.lost + sc.rev.lost)
	out[lpQueueDrops] = vocab.I(qd)
	out[lpGroundDrops] = vocab.I(gd)
	out[lpUnreachable] = vocab.F(1 - frac(w.reachable, w.updates))
	out[lpNoPathDrops] = vocab.I(sc.fwd.noWay + sc.rev.noWay)
	out[lpSatellites] = vocab.I(int64(w.cons.Len()))
	return out
}
