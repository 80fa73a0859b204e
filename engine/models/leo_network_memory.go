package models

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/vocab"
)

// leo-network's memory estimate (Memory, and decodeLN at run time): the
// live data of a scenario, part by part, from the sizes of the structures
// that hold it, then the resident memory of a process that runs it. The
// figures below are each an upper reading of the structure named; the
// estimate as a whole is checked against the peak resident memory the
// benchmarks measure (TestLEONetworkMemoryEstimate).
const (
	// lnRouteGrowth: netsim.Node keeps a route (an Egress, two words) to
	// each destination from the lowest to the highest it has one to (the
	// stations), grown one at a time by append, which doubles a slice up
	// to 256 elements and grows it by about a quarter beyond
	// (runtime/slice.go, nextslicecap): lnAppendCap.
	lnRouteGrowth = 1.25
	// lnSatBytes is a satellite's propagator and position state
	// (orbit.Fleet: SGP4 elements and scratch), read off a heap profile
	// of Kuiper K1 (0.41 MB for 1,156 satellites, 360 B each) with room.
	lnSatBytes = 512
	// lnLinkExtra is what a link direction holds beside netsim.Link: its
	// queue, its name, the network's name map entry, loss state.
	lnLinkExtra = 256
	// lnEventBytes is a packet's share of the scheduler (a pooled event
	// and its heap slot) beside the packet itself.
	lnEventBytes = 96
	// lnRecordBytes is a TCP sender's record of a segment in flight (80
	// bytes, tcp's sendRecord) in a ring that doubles: up to twice that.
	lnRecordBytes = 160
	// lnAckShare: the ACKs in flight beside a flow's data segments: one
	// per data segment, or one per two with delayed ACKs (RFC 1122
	// section 4.2.3.2, the host's default).
	lnAckShare, lnDelayedAckShare = 1.0, 0.5
	// lnFlowExtra is a flow's fixed state beside its two tcp.Conn: the
	// workload's source and sink, the receive map's first blocks, the
	// flow's table row.
	lnFlowExtra = 4 << 10
	// lnSawtooth is the mean of a window that grows to W and halves:
	// 3/4 W.
	lnSawtooth = 0.75
	// lnOrbitRadius is the orbit radius the round trip of a fleet of
	// element sets only is taken at (a low orbit, 630 km up).
	lnOrbitRadius = orbit.EarthRadius + 630e3
	// lnPathChangeRate is an upper figure for how often a pair's path
	// changes, per second: 100 random pairs of Hypatia's cities change
	// 0.0125 (Kuiper K1) and 0.033 (Starlink S1) times per pair and
	// second over the first 4 s (TestLEONetworkMemoryEstimate's paths
	// rows) and 0.021 over 20 s of Kuiper K1 (42 changes); 0.1 leaves a
	// margin of 3 on the highest.
	lnPathChangeRate = 0.1
	// lnLatConcentration: an inclined shell's satellites crowd toward
	// the latitudes of its inclination, up to about twice the uniform
	// density over the cities' latitudes.
	lnLatConcentration = 2.0
	// lnValueBytes is a table cell (vocab.Value) plus the share of a
	// string a text cell holds; lnRowBytes a row's slice header.
	lnValueBytes = int64(unsafe.Sizeof(vocab.Value{})) + 8
	lnRowBytes   = 24
	// The resident heap is taken as the live data: after the build, a run
	// allocates next to nothing (packets and events are pooled: 96,305
	// allocations in the 200 s of BenchmarkLEONetworkKuiperK1, against
	// 15 million packets), so the collector's headroom of up to the live
	// data again (GOGC=100, runtime/mgcpacer.go) fills only with the
	// build's garbage, which the parts above overstate by more (the
	// live parts come out 1.2x to 1.5x the measured live heap,
	// TestLEONetworkMemoryEstimate).
	// lnRuntimeBytes is a Go process's own resident memory beside the
	// heap: the runtime, the stacks and the touched pages of the binary.
	lnRuntimeBytes = 16 << 20
	// lnMaxBytes is the most the model lets one scenario take.
	lnMaxBytes = 4 << 30
)

// lnMem is the estimate, part by part, bytes of live data.
type lnMem struct {
	routes, forwarding, fleet, links, packets, flows, tables int64
	// rows of the paths and links tables the estimate takes
	pathRows, linkRows float64
	// what each part grows with, for the parameter a refusal names
	bigNodes string // "shells" or "stations"
	bigFlows string // "traffic" or "tcp_flows"
}

func (m lnMem) live() int64 {
	return m.routes + m.forwarding + m.fleet + m.links + m.packets + m.flows + m.tables
}

// resident is the peak resident memory of a process running the
// scenario alone.
func (m lnMem) resident() int64 { return m.live() + lnRuntimeBytes }

// param names the parameter behind the largest part.
func (m lnMem) param() string {
	best, name := m.routes+m.forwarding+m.fleet, m.bigNodes
	if m.links > best {
		best, name = m.links, "shells"
	}
	if m.packets+m.flows > best {
		best, name = m.packets+m.flows, m.bigFlows
	}
	if m.tables > best {
		name = "sample_interval"
	}
	return name
}

func (m lnMem) String() string {
	mib := func(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }
	return fmt.Sprintf("%s of routes at the nodes, %s of forwarding state, %s of links, %s of packets in flight, %s of flows, %s of tables, and the runtime",
		mib(m.routes), mib(m.forwarding), mib(m.links), mib(m.packets), mib(m.flows), mib(m.tables+m.fleet))
}

// lnAppendCap is the capacity of a slice grown to n elements one append
// at a time: the next power of two up to 256, then about a quarter more.
func lnAppendCap(n int64) int64 {
	if n <= 256 {
		c := int64(1)
		for c < n {
			c *= 2
		}
		return c
	}
	return int64(float64(n) * lnRouteGrowth)
}

// lnMemory estimates scenario c with npairs pairs.
func lnMemory(c lnConfig, npairs int) lnMem {
	var m lnMem
	tles := len(c.fleet.TLEs)
	sats := tles
	for _, sh := range c.fleet.Shells {
		sats += sh.Size()
	}
	isls := 2*(sats-tles) + len(c.fleet.ExtraISLs)
	g := len(c.stations)
	nodes := int64(sats + g)
	m.bigNodes = "stations"
	if sats > g {
		m.bigNodes = "shells"
	}
	egress := int64(unsafe.Sizeof((*netsim.Egress)(nil))) * 2 // an interface: two words
	m.routes = nodes * lnAppendCap(int64(g)) * egress
	m.forwarding = orbit.ForwardingBytes(sats, g, isls)
	m.fleet = int64(sats) * lnSatBytes
	dur := c.duration.Seconds()

	// Ground links: created when a route first uses one and kept. A
	// station sees, of a shell of N satellites on orbits of radius r,
	// those within the Earth central angle theta of its maximum ground
	// range: N (1 - cos theta)/2 at a time, and N theta T/period more
	// enter that cap over T seconds (the cap's width 2 theta swept at
	// the orbital rate through a density N/4pi).
	perStation := float64(tles)
	for _, sh := range c.fleet.Shells {
		r, rho, re := sh.Radius(), sh.MaxGroundRange(), orbit.EarthRadius
		theta := math.Acos(math.Max(-1, math.Min(1, (re*re+r*r-rho*rho)/(2*re*r))))
		period := 2 * math.Pi * math.Sqrt(r*r*r/orbit.MuWGS72)
		n := float64(sh.Size())
		perStation += math.Min(n, lnLatConcentration*(n*(1-math.Cos(theta))/2+n*theta*dur/period))
	}
	gslDirs := 2 * int64(float64(g)*math.Min(perStation, float64(sats)))
	dirs := int64(2*isls) + gslDirs
	m.links = dirs * (int64(unsafe.Sizeof(netsim.Link{})) + lnLinkExtra)

	// Packets: the pool holds as many as were ever out at once, and the
	// flows' windows rise and fall out of step, so the sum of their means
	// is the figure. A TCP flow's window runs up to its bottleneck's
	// queue plus a round trip's packets and is cut by half on a loss: it
	// averages three quarters of that (Reno's sawtooth, Mathis et al.
	// 1997), no more than its receive window; ACKs go beside. A UDP flow
	// keeps its bottleneck's queue and a round trip at its rate. All of
	// them, no more than every queue full. The round trip is the mean
	// over the shell: two random points of a sphere lie a quarter of a
	// great circle apart on average, so pi r / c there and back.
	full := float64(c.dataBytes())
	rate := math.Inf(1)
	for _, r := range []float64{c.islRate.BitsPerSecond(), c.gslRate.BitsPerSecond()} {
		if r > 0 {
			rate = math.Min(rate, r)
		}
	}
	if c.islRate == 0 && c.modes == nil {
		rate = math.Min(rate, c.terminal.Rate)
	}
	queue := float64(max(c.islQueue, c.gslQueue))
	radius := 0.0
	for _, sh := range c.fleet.Shells {
		radius = math.Max(radius, sh.Radius())
	}
	if radius == 0 {
		radius = lnOrbitRadius
	}
	rtt := math.Pi * radius / orbit.LightSpeed
	tcpPkts := math.Min(float64(c.window)/float64(c.host.mss), lnSawtooth*(queue+rate*rtt/(8*full)))
	udpPkts := queue + math.Min(rate, c.udpRate.BitsPerSecond())*rtt/(8*full)
	acks := lnAckShare
	if c.host.delayedACK {
		acks = lnDelayedAckShare
	}
	inFlight := float64(npairs) * (float64(c.tcpFlows)*tcpPkts*(1+acks) + float64(c.udpFlows)*udpPkts)
	inFlight = math.Min(inFlight, float64(2*isls*c.islQueue)+float64(gslDirs)*float64(c.gslQueue))
	m.packets = int64(inFlight * float64(int64(unsafe.Sizeof(netsim.Packet{}))+lnEventBytes))
	flows := int64(npairs) * int64(c.tcpFlows+c.udpFlows)
	m.flows = int64(npairs)*int64(c.tcpFlows)*(2*int64(unsafe.Sizeof(tcp.Conn{}))+int64(tcpPkts*lnRecordBytes)) + flows*lnFlowExtra
	m.bigFlows = "traffic"
	if c.tcpFlows+c.udpFlows > npairs {
		m.bigFlows = "tcp_flows"
	}

	// Tables: rows x columns. Paths: a row per pair at the start and at
	// each path change (at most one per step, lnPathChangeRate per
	// second); samples: a row per pair and interval; links: a row per
	// busy link direction and interval: at most every direction built,
	// and about both directions (data and ACKs) of each pair's path. A
	// path crosses a +Grid shell in a quarter of its planes and a quarter
	// of a plane on average (the mean Manhattan distance on the torus;
	// half of each at most), plus its two ground links and any extra
	// link or element-set satellite; relaying through stations at most
	// doubles it. (Kuiper K1 with 100 random pairs: 1,031 busy link
	// directions an interval, against 3,800 estimated, 20 s sampled
	// every second.)
	hops := 2 + len(c.fleet.ExtraISLs) + tles
	for _, sh := range c.fleet.Shells {
		hops += sh.Planes/4 + sh.PerPlane/4
	}
	if c.mode == orbit.GroundRelays {
		hops *= 2
	}
	busy := math.Min(float64(dirs), float64(npairs)*2*float64(hops))
	row := func(rows float64, cols int) int64 {
		return int64(rows * float64(lnRowBytes+int64(cols)*lnValueBytes))
	}
	steps := math.Ceil(dur / c.interval.Seconds())
	m.pathRows = float64(npairs) * (1 + math.Min(steps, lnPathChangeRate*dur))
	m.tables = row(float64(flows), 15) + row(m.pathRows, 8)
	if c.sample > 0 {
		samples := math.Ceil(dur / c.sample.Seconds())
		m.linkRows = samples * busy
		m.tables += row(samples*float64(npairs), 8) + row(m.linkRows, 16)
	}
	return m
}

// Memory implements vocab.MemoryEstimator: the estimate at spec time, so
// that a spec whose scenario would not fit is refused at its line.
func (m *LEONetwork) Memory(p vocab.Params) (vocab.MemoryEstimate, error) {
	c, npairs, err := decodeLNShape(p)
	if err != nil {
		return vocab.MemoryEstimate{}, err
	}
	est := lnMemory(c, npairs)
	return vocab.MemoryEstimate{Bytes: est.resident(), Limit: lnMaxBytes, Param: est.param(), Detail: est.String()}, nil
}

// decodeLNShape decodes what the memory estimate needs, the pairs
// counted rather than drawn.
func decodeLNShape(p vocab.Params) (lnConfig, int, error) {
	c, tr, err := decodeLNConfig(p)
	if err != nil {
		return c, 0, err
	}
	return c, tr.count(len(c.stations)), nil
}

// lnTooBig is the refusal of a scenario whose estimate passes lnMaxBytes.
func lnTooBig(c lnConfig, npairs int) error {
	est := lnMemory(c, npairs)
	if b := est.resident(); b > lnMaxBytes {
		return fmt.Errorf("%s: %d stations and %d pairs of %d flows would need about %.1f GiB (%s), more than the %d GiB the model allows one scenario: use fewer stations, pairs, flows or samples",
			est.param(), len(c.stations), npairs, c.tcpFlows+c.udpFlows, float64(b)/(1<<30), est, lnMaxBytes>>30)
	}
	return nil
}
