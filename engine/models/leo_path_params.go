package models

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

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
			Doc: "Hypatia's shells, flown at the radius their mean motion gives (as in its TLEs): starlink-s1 72x22, 53 deg, 15.19 rev/day, so 509 km up (Hypatia's nominal 550 km sets only its ground-link cone); kuiper-k1 34x34, 51.9 deg, 14.80 rev/day, 629 km (nominal 630); telesat-t1 27x13, 98.98 deg, 13.66 rev/day, 1014 km (nominal 1015)"},
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
		hostParam("mss"),
		{Name: "window", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(16 << 20), Min: 1000, Max: 1 << 30,
			Doc: "receive buffer"},
		hostParam("sack"),
		hostParam("min_rto"),
	}
	params = append(params, leoHostParams()...)
	metrics := make([]vocab.Metric, lpCount)
	m := func(i int, name string, k vocab.Kind, u vocab.Unit, doc string) {
		metrics[i] = vocab.Metric{Name: name, Kind: k, Unit: u, Doc: doc}
	}
	m(lpGoodput, "goodput", vocab.Float, vocab.BitPerSecond, "in-order bytes delivered to the receivers over the duration, all flows; 0 with flows = 0, where no flow runs (the TCP counters below are then 0 as well)")
	m(lpBytes, "bytes_delivered", vocab.Int, vocab.Byte, "in-order bytes delivered, all flows")
	m(lpRetrans, "retrans_segs", vocab.Int, vocab.Packet, "segments retransmitted, all flows, spurious ones included")
	m(lpSpurious, "spurious_retrans", vocab.Int, vocab.Packet, "retransmissions whose data had already arrived (the receiver saw the segment twice)")
	m(lpRTOs, "rtos", vocab.Int, vocab.Dimensionless, "retransmission timer expiries of data (a SYN's timeouts are not counted)")
	m(lpRecoveries, "fast_recoveries", vocab.Int, vocab.Dimensionless, "fast recovery episodes entered")
	m(lpReordered, "reordered_segs", vocab.Int, vocab.Packet, "first transmissions that arrived after a segment sent later (overtaken on a path change)")
	m(lpPathChanges, "path_changes", vocab.Int, vocab.Dimensionless, "routing updates that changed the sequence of satellites")
	m(lpRTTMin, "rtt_min", vocab.Float, vocab.Second, "smallest path round trip (propagation only) over the routing updates that found a path; 0 when the path was never reachable (unreachable_frac 1), which means no path, not a zero one")
	m(lpRTTMean, "rtt_mean", vocab.Float, vocab.Second, "mean path round trip over the routing updates that found a path; 0 when the path was never reachable (unreachable_frac 1), which means no path, not a zero one")
	m(lpRTTMax, "rtt_max", vocab.Float, vocab.Second, "largest path round trip over the routing updates that found a path; 0 when the path was never reachable (unreachable_frac 1), which means no path, not a zero one")
	m(lpHopsMin, "hops_min", vocab.Int, vocab.Dimensionless, "fewest links on the path (ground links included) over the routing updates that found one; 0 when the path was never reachable (unreachable_frac 1), which means no path, not a zero one")
	m(lpHopsMax, "hops_max", vocab.Int, vocab.Dimensionless, "most links on the path over the routing updates that found one; 0 when the path was never reachable (unreachable_frac 1), which means no path, not a zero one")
	m(lpWorstBER, "worst_isl_ber", vocab.Float, vocab.Dimensionless, "largest fade-averaged BER of an ISL on the path over the run; 0 with isl_errors off (not computed), when the path was never reachable, or when no path used an ISL, none of which means error-free ISLs")
	m(lpExceedFrac, "worst_isl_exceed", vocab.Float, vocab.Fraction, "fraction of the routing updates that found a path at which the path's worst ISL has a fade-averaged PER (data packet) above per_threshold; 0 with isl_errors off (not computed) or when the path was never reachable")
	m(lpCrossExceed, "cross_plane_exceed", vocab.Float, vocab.Fraction, "fraction of (routing update, cross-plane ISL) pairs of the whole shell above per_threshold, over the updates that found a path; 0 with isl_errors off (not computed) or when the path was never reachable")
	m(lpISLDrops, "isl_error_drops", vocab.Int, vocab.Packet, "packets lost to ISL bit errors, both directions")
	m(lpQueueDrops, "queue_drops", vocab.Int, vocab.Packet, "packets dropped by the ground links' queues")
	m(lpGroundDrops, "ground_loss_drops", vocab.Int, vocab.Packet, "packets lost to gsl_loss")
	m(lpUnreachable, "unreachable", vocab.Float, vocab.Fraction, "fraction of routing updates with no path (a station sees no satellite)")
	m(lpNoPathDrops, "no_path_drops", vocab.Int, vocab.Packet, "packets dropped at the space segment while no path existed, both directions")
	m(lpSatellites, "satellites", vocab.Int, vocab.Dimensionless, "satellites in the shell")
	return &vocab.Schema{
		Name:    "leo-path",
		Version: 20, // 20: the RTT is sampled as Linux's tcp_ack_update_rtt does: an ACK that covers a segment ever retransmitted gives no sample from sequence numbers (Karn; FLAG_RETRANS_DATA_ACKED), otherwise the oldest segment it newly acknowledges and had not SACKed is timed, where the newest was, so the ACK that ended a repair timed the receiver's wait since it SACKed the segment (seconds after a timeout); without a sequence sample the oldest segment an ACK newly SACKs is timed (RACK-TLP senders), and without that an ACK of new data by its timestamp echo; the minimum RTT and the controller's RTT (HyStart, Vegas, BBR) follow the newest segment timed (ca_rtt_us); every sample ends the timer's back-off; 19: worst_isl_exceed_frac, cross_plane_exceed_frac and unreachable_frac carry the unit fraction, as every other _frac column (their metrics are worst_isl_exceed, cross_plane_exceed and unreachable; no computation changed, the rows are new draws as with every version); 18: with quick_ack (Linux's quick-ACK mode) the receiver also acknowledges every skb at once while its receive window grows from the first 65535 bytes towards the buffer's, each skb raising it by max(2 advmss, 2 x its length) (tcp_grow_window's icsk_ack.quick |= 1), as a real Linux 6.1 receiver does on document 002's testbed for the first 25-35 s of a flow of a few Mbit/s into a 16 MiB window (validation/linuxpeer's captures); past the first quick ACKs it delayed them; 17: with byte counting as Linux's (abc_limit 0) Reno's slow start stops at ssthresh and hands the segments a stretch ACK carries past it to congestion avoidance, as tcp_slow_start and tcp_reno_cong_avoid do (it overshot ssthresh by them); 16: byte counting as Linux's tcp_slow_start runs it: in slow start one ACK adds every segment it covers (was at most 2, RFC 3465's L), so a stretch ACK (GRO, an ACK lost or delayed) grows cwnd by all it acknowledges; the host parameter abc_limit sets an L (2 is RFC 3465's); 15: the host parameter edt_credit: a paced sender (BBR, BBRv2) paces from its 10th segment on, and an skb sent after its departure time had passed (an ACK let it go) shortens the gap after it by that delay, up to half its length, as Linux's tcp_update_skb_after_send does (on by default, as in Linux since 4.20; was every skb followed by its whole length from the first); and with TSO an aggregate that cwnd cut short is followed by its own length at the pacing rate (tcp_wstamp_ns moves per skb), where its pacing was carried into the next aggregate's gap; 14: BBRv2 judges its departure-time in-flight tests (PROBE_UP, DOWN, DRAIN) under the gain the previous ACK left, bbr->pacing_gain as bbr_update_gains sets it after the model update, where it used the new phase's gain on an ACK or after a loss mark that changed the phase; BBR v1's TSO burst goal is capped at 127 segments (tcp_bbr.c's bbr_tso_segs_goal), which binds only for segments under 514 bytes; 13: BBR and BBRv2 judge their gain cycle's and DRAIN's in-flight targets by what will be in the network at the next departure, as bbr_packets_in_net_at_edt does (prior_in_flight less what the bandwidth delivers until the pacing lets the next skb go, plus that skb while probing), where they judged prior_in_flight itself; 12: BIC grows by the segments each ACK covers and carries what slow start leaves past ssthresh into congestion avoidance, as tcp_bic.c does since Linux 5.7 ("tcp: fix stretch ACK bugs in BIC": tcp_cong_avoid_ai(tp, ca->cnt, acked), was one credit per ACK whatever it covered, the excess dropped); 11: BBR v1 models a token-bucket policer as tcp_bbr.c does (bbr_lt_bw_sampling: after two lossy intervals of 4-16 round trips, each with at least 50/256 of its delivery lost, whose rates agree within 1/8 or 4 kbit/s, it paces at and sizes cwnd from their mean with a gain of 1 for 48 round trips), where it was left out, and sets its gains on every ACK (bbr_update_gains); 10: the host parameter sack_compression: Linux's SACK compression (__tcp_ack_snd_check, tcp_sack_new_ofo_skb: a receiver holding out-of-order data sends the first three ACKs at one RCV.NXT at once, then one per 44 segments, per min(1 ms, SRTT/20) or when a SACK block would fall behind the first two), on by default as in Linux since 4.18; 9: BBR and BBRv2 pace from the handshake's RTT (bbr_init_pacing_rate_from_rtt: high_gain x IW / SRTT, was over a nominal 1 ms) and restart from high_gain x cwnd / SRTT at the first RTT known whatever the bandwidth sample (bbr_set_pacing_rate; STARTUP kept the nominal 331 Mbit/s); BBRv2 raises inflight_hi in PROBE_UP while the window was cwnd-limited as tcp_cwnd_validate records it (tp->is_cwnd_limited, bbr2_probe_inflight_hi_upward), not while the pipe at the ACK fills cwnd; 8: losses counted when a segment is marked lost (tcp_mark_skb_lost: RACK's marks, every unSACKed segment at a timeout, none of a timeout's marks among an ACK's losses), not when it is resent, which BBR and BBRv2 read; the host parameter skb_marked_lost: BBRv2 reacts to each segment the moment it is marked lost (bbr2_skb_marked_lost), on by default as in the BBRv2 alpha; 7: the rate sample and the cong_control call of every ACK that SACKs new data (tcp_rate_gen, tcp_cong_control: BBR and BBRv2 follow SACKs through a recovery, STARTUP ends on loss as in Linux); BBR's window grows by the bytes delivered, SACKed included (rs->acked_sacked); the host parameter sack_rate_samples; 6: the controllers of Linux 5.13 (the BBRv2 alpha kernel's base), with no PRR over BBR and BBRv2 (Linux's cong_control controllers): CUBIC in tcp_cubic.c's arithmetic (cubic_variant, rfc9438 kept) with Linux's HyStart (hystart_variant, rfc9406 kept), BIC as tcp_bic.c, BBR v1 with tcp_bbr.c's ACK-aggregation allowance and quantization budget, BBRv2 as the v2alpha tcp_bbr2.c (no recovery cut); 5: the built-in cities that Hypatia's top-100 list has (new-york, karachi, delhi, mumbai, mexico-city, cairo, buenos-aires, lagos, los-angeles) stand at its coordinates, 0.3 to 8.8 km from the GeoNames points before; 4: the flows are the shared Linux host: its defaults (IW 10, delayed and quick ACKs, RACK-TLP, PRR, timestamps, HyStart, byte counting) and its recovery mechanisms (dsack, undo, frto, adaptive_reordering, rto_min_on), where they were an RFC 3390, dupthresh host without them; 3: the parameter freeze is frozen_path (freeze is an SQL keyword; no rows change); 2: SGP4 motion by default (motion replaces j2), isl_rate, no_path_drops
		Doc: "TCP flows between two ground stations over a moving LEO constellation (Hypatia's Starlink, Kuiper and Telesat shells, " +
			"+Grid laser ISLs, shortest-delay routing every route_interval with atomic switching), each ISL's BER from document 000's " +
			"link budget at its current length with Rayleigh pointing jitter; goodput, retransmissions (spurious apart), reordering, " +
			"path changes and the path's RTT, hops and worst ISL.",
		Params:  params,
		Metrics: metrics,
		Tables: []vocab.Table{{Name: "timeseries", Doc: "every sample_interval: the path and each flow's sender (one row per flow; flow -1 when flows = 0)",
			Columns: []vocab.Metric{
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second,
					Doc: "sample time from the start of the run (after start_time): 0, sample_interval, 2 sample_interval, ... up to duration, which is sampled too when it is a whole number of sample_intervals"},
				{Name: "flow", Kind: vocab.Int, Doc: "flow index, 0-based; -1 on the path-only rows of flows = 0, whose cwnd, srtt and delivered are 0 (no flow)"},
				{Name: "rtt", Kind: vocab.Float, Unit: vocab.Second, Doc: "round trip of the current path, propagation only; 0 while unreachable, which means no path, not a zero RTT"},
				{Name: "hops", Kind: vocab.Int, Doc: "links on the current path, ground links included; 0 while unreachable (no path)"},
				{Name: "worst_isl_ber", Kind: vocab.Float, Doc: "fade-averaged BER of the current path's longest ISL; 0 with isl_errors off (not computed) or on a path without an ISL; while unreachable, the value of the last path found"},
				{Name: "path_changes", Kind: vocab.Int, Doc: "path changes so far"},
				{Name: "cwnd", Kind: vocab.Int, Unit: vocab.Byte,
					Doc: "the flow's congestion window at the sample time; 0 before its connection opens, which means no window yet"},
				{Name: "srtt", Kind: vocab.Float, Unit: vocab.Second,
					Doc: "the flow's smoothed RTT (RFC 6298 section 2), queueing included; 0 before its first RTT sample, which means no estimate yet, not a zero RTT"},
				{Name: "delivered", Kind: vocab.Int, Unit: vocab.Byte, Doc: "in-order bytes delivered to the receiver so far"},
			}}},
	}
}

// leoHostParams are the host parameters leo-path takes beside mss, sack
// and min_rto, with Linux's defaults as every TCP model has them: its
// flows are Linux senders on the path (before version 4 they were an RFC
// 3390, dupthresh, no-delayed-ACK host without Linux's recovery
// mechanisms, which timed out on every path change that lengthened the
// RTT).
func leoHostParams() []vocab.Param {
	return withRecovery("iw", "window_scaling", "delayed_ack", "limited_transmit", "loss_detection", "prr", "timestamps", "syn_timeout",
		"hystart", "hystart_variant", "cubic_variant", "byte_counting", "abc_limit", "write_size", "send_buffer", "ssthresh_basis", "prr_rounding", "grow_on_recovery_exit", "ack_first_segment")
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

// leoMotion returns the orbit motion of the motion parameter, from the
// shells' epoch 2000-01-01 00:00 UT: pyephem is SGP4 as PyEphem computes
// it for Hypatia, with libastro's sidereal angle.
func leoMotion(motion string) orbit.Motion {
	if motion == "pyephem" {
		return orbit.Motion{SGP4: true, PyEphem: true, GMST0: orbit.GMSTNewcomb(-0.5)}
	}
	return orbit.Motion{J2: motion == "j2", SGP4: motion == "sgp4", GMST0: orbit.GMSTAt(-0.5)}
}

// leoConfig is leo-path's parameters, decoded.
type leoConfig struct {
	shell         orbit.Shell
	motion        orbit.Motion
	src, dst      orbit.Station
	earth         orbit.Earth
	cone          bool    // ground_rule cone
	startTime     float64 // s after the shell's epoch
	duration      des.Time
	routeInterval des.Duration
	sample        des.Duration
	frozen        bool
	flows         int
	cca           string
	gslRate       unit.BitRate
	queue         int // packets of each ground link
	gslLoss       float64
	islErrors     bool
	terminal      phy.Terminal
	islRate       unit.BitRate // 0: the terminal's
	jitterURad    float64
	perThreshold  float64
	window        unit.Bytes
	host          tcpHost
}

// decodeLEO reads leo-path's parameters, the names of shells, stations,
// Earth models and terminals included.
func decodeLEO(p vocab.Params) (leoConfig, error) {
	c := leoConfig{
		motion:        leoMotion(p.Str("motion")),
		cone:          p.Str("ground_rule") == "cone",
		startTime:     p.Float("start_time"),
		duration:      des.Time(des.FromSeconds(p.Float("duration"))),
		routeInterval: des.FromSeconds(p.Float("route_interval")),
		sample:        des.FromSeconds(p.Float("sample_interval")),
		frozen:        p.Bool("frozen_path"),
		flows:         int(p.Int("flows")),
		cca:           p.Str("cca"),
		gslRate:       unit.BitRate(p.Float("gsl_rate")),
		queue:         int(p.Int("queue")),
		gslLoss:       p.Float("gsl_loss"),
		islErrors:     p.Bool("isl_errors"),
		islRate:       unit.BitRate(p.Float("isl_rate")),
		jitterURad:    p.Float("jitter_urad"),
		perThreshold:  p.Float("per_threshold"),
		window:        unit.Bytes(p.Int("window")),
		host:          decodeHost(p),
	}
	var err error
	if c.shell, err = orbit.ShellNamed(p.Str("shell")); err != nil {
		return c, err
	}
	if e := p.Float("min_elevation_deg"); e > 0 {
		c.shell.MinElevation = orbit.Radians(e)
	}
	if c.src, err = parseStation(p.Str("src")); err != nil {
		return c, fmt.Errorf("src: %w", err)
	}
	if c.dst, err = parseStation(p.Str("dst")); err != nil {
		return c, fmt.Errorf("dst: %w", err)
	}
	if c.earth, err = orbit.EarthNamed(p.Str("earth")); err != nil {
		return c, err
	}
	if c.terminal, err = phy.TerminalNamed(p.Str("terminal")); err != nil {
		return c, err
	}
	return c, nil
}
