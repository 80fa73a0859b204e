package models

import (
	"context"
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// SatIsland is the "sat-island" model of document 004 (Speidel, APNIC
// blog): an island network fed by one satellite link, GEO or MEO, under a
// load of closed-loop "channels". Topology:
//
//	server_i --terrestrial d_i--> gateway --[input queue] satellite--> island router --LAN--> island clients
//	         <-------------------         <---------- satellite -----              <-------
//
// Each world server has its own one-way terrestrial delay d_i, drawn once
// per scenario from a uniform distribution. Every channel is a client
// socket on the island that connects to a random server, sends a small
// request, downloads one flow whose size the server draws from the flow-
// size distribution, disconnects and starts again. An iperf3-like probe
// downloads probe_size bytes from its own server alongside. Payload flows
// towards the island only; ACKs and requests cross the return link.
//
// The satellite's one-way delay is two ground-to-satellite slant ranges
// at the given elevation over c, plus the modem's processing delay: at
// 45 degrees and 5 ms that is 254.6 ms for GEO (35,786 km; round trip 509
// ms, document 004's "500 ms plus") and 66.4 ms for O3b's MEO (8,062 km;
// round trip 133 ms, the document's "around 120 ms").
//
// Options beyond the document: split-TCP performance-enhancing proxies
// at the gateway and the island router (pep), a systematic block code over
// the satellite hop (coding), CoDel or FQ-CoDel at the satellite input
// (aqm). The satellite input queue's limit takes one of three forms: bytes
// as document 004 gives it (buffer), or the limit every TCP model shares,
// packets (queue) or a fraction of the bandwidth-delay product rate x
// satellite one-way delay (queue_bdp, see tcp_queue.go).
type SatIsland struct{ schema *vocab.Schema }

// NewSatIsland returns the sat-island model.
func NewSatIsland() *SatIsland { return &SatIsland{schema: satIslandSchema()} }

// Schema implements vocab.Model.
func (m *SatIsland) Schema() *vocab.Schema { return m.schema }

// SatOneWayDelay returns the one-way delay of a bent-pipe satellite hop:
// gateway up to the satellite and down to the island, both seen at
// elevation elevDeg, plus processing.
func SatOneWayDelay(altitude, elevDeg float64, processing des.Duration) des.Duration {
	d := 2 * orbit.SlantRange(altitude, orbit.Radians(elevDeg))
	return des.Duration(orbit.DelayNanos(d, orbit.LightSpeed)) + processing
}

// satScenario is one built scenario.
type satScenario struct {
	c      satConfig
	s      *des.Scheduler
	net    *netsim.Network
	fwd    *netsim.Link
	q      *meteredQueue
	ex     *workload.Exchanges
	ch     *workload.Channels
	probe  probe
	enc    *blockCoder
	atWarm netsim.LinkStats
	// warmTimeouts are the connections' timeouts at the warm-up.
	warmTimeouts workload.Timeouts
	series       [][]vocab.Value
	// last: the counters at the previous sample, for the interval's rates
	// and its busy time.
	last struct {
		bytes, probe unit.Bytes
		busy         des.Duration
	}
	lastAt  des.Time
	probeP  []workload.Leg
	startEr error
}

// probe observes the probe exchange.
type probe struct {
	x            *workload.Exchange
	warmup       des.Time
	bytes, after unit.Bytes
}

func (p *probe) Delivered(now des.Time, x *workload.Exchange, n unit.Bytes) {
	p.bytes += n
	if now >= p.warmup {
		p.after += n
	}
}

func (p *probe) Completed(now des.Time, x *workload.Exchange) {}

// Event kinds of satScenario.
const (
	siEvWarmup = iota
	siEvSample
	siEvProbe
)

func buildSatIsland(c satConfig, seed uint64) (*satScenario, error) {
	s := des.New()
	net := netsim.New(s, seed)
	sc := &satScenario{c: c, s: s, net: net}
	n, err := sc.buildNet()
	if err != nil {
		return nil, err
	}
	sc.addWorkload(n)
	return sc, nil
}

// satNodes are the nodes the workload runs between.
type satNodes struct {
	gw, isr, isl *netsim.Node // gateway, island router, island
	servers      []*netsim.Node
	iperf        *netsim.Node // the probe's server
}

// buildNet builds the servers' terrestrial links, the satellite hop (with
// its block coder) and the island LAN.
func (sc *satScenario) buildNet() (satNodes, error) {
	c, net := sc.c, sc.net
	gw := net.AddNode("gateway")
	isr := net.AddNode("island-router")
	isl := net.AddNode("island")
	terr := net.Streams().New("sat-island/terrestrial")
	link := func(a, b *netsim.Node, rate unit.BitRate, d des.Duration) error {
		if _, err := net.Connect(a, b, netsim.LinkConfig{Rate: rate, Delay: d}); err != nil {
			return err
		}
		_, err := net.Connect(b, a, netsim.LinkConfig{Rate: rate, Delay: d})
		return err
	}
	servers := make([]*netsim.Node, c.servers)
	for i := range servers {
		servers[i] = net.AddNode(fmt.Sprintf("server%d", i))
		d := c.terrMin
		if c.terrMax > c.terrMin {
			d += des.Duration(terr.Int64N(int64(c.terrMax-c.terrMin) + 1))
		}
		if err := link(servers[i], gw, c.terrRate, d); err != nil {
			return satNodes{}, fmt.Errorf("models: %w", err)
		}
	}
	iperf := net.AddNode("iperf")
	if err := link(iperf, gw, c.terrRate, c.probeDelay); err != nil {
		return satNodes{}, fmt.Errorf("models: %w", err)
	}
	// With coding, the satellite link ends at a terminal node whose
	// decoder passes packets on to the island router over an ideal link.
	satEnd := isr
	if c.coding {
		satEnd = net.AddNode("sat-terminal")
	}
	var err error
	sc.fwd, err = net.Connect(gw, satEnd, netsim.LinkConfig{Name: "sat-forward", Rate: c.rate, Delay: c.satDelay,
		Queue: meteredModel{inner: c.queue, from: c.warmup, out: &sc.q}})
	if err != nil {
		return satNodes{}, fmt.Errorf("models: %w", err)
	}
	var termOut *netsim.Link
	if c.coding {
		if termOut, err = net.Connect(satEnd, isr, netsim.LinkConfig{Name: "sat-terminal-out"}); err != nil {
			return satNodes{}, fmt.Errorf("models: %w", err)
		}
	}
	if _, err := net.Connect(isr, gw, netsim.LinkConfig{Name: "sat-return", Rate: c.ret, Delay: c.satDelay,
		Queue: netsim.DropTail{Bytes: c.buffer, Packets: c.packets}}); err != nil {
		return satNodes{}, fmt.Errorf("models: %w", err)
	}
	if err := link(isr, isl, c.lanRate, c.lanDelay); err != nil {
		return satNodes{}, fmt.Errorf("models: %w", err)
	}
	net.ComputeRoutes()
	if c.coding {
		sc.enc = newBlockCoder(net, c.codeK, c.codeM, c.codeTimeout, c.warmup)
		if err := sc.enc.install(gw, satEnd, sc.fwd, termOut); err != nil {
			return satNodes{}, err
		}
	}
	return satNodes{gw: gw, isr: isr, isl: isl, servers: servers, iperf: iperf}, nil
}

// addWorkload sets up the closed-loop channels between the island and
// the servers, and the probe, each direct or through the proxies.
func (sc *satScenario) addWorkload(n satNodes) {
	c, s, net := sc.c, sc.s, sc.net
	gw, isr, isl := n.gw, n.isr, n.isl
	conn, pepConn, opt := c.conn(), c.pepConn(), c.ccOptions()
	client := workload.Endpoint{Node: isl, Cfg: conn, CCA: c.ccaIsl, CC: opt}
	server := func(n *netsim.Node) workload.Endpoint {
		return workload.Endpoint{Node: n, Cfg: conn, CCA: c.cca, CC: opt}
	}
	path := func(srv *netsim.Node) []workload.Leg {
		if !c.pep {
			return []workload.Leg{{Near: client, Far: server(srv)}}
		}
		// The island proxy answers the client on the LAN and sends like a
		// server there; the two proxies run their own window and
		// controller over the satellite; the gateway proxy fetches from
		// the server like a client.
		return []workload.Leg{
			{Near: client, Far: workload.Endpoint{Node: isr, Cfg: conn, CCA: c.cca, CC: opt}},
			{Near: workload.Endpoint{Node: isr, Cfg: pepConn, CCA: c.pepCCA, CC: opt}, Far: workload.Endpoint{Node: gw, Cfg: pepConn, CCA: c.pepCCA, CC: opt}},
			{Near: workload.Endpoint{Node: gw, Cfg: conn, CCA: c.ccaIsl, CC: opt}, Far: server(srv)},
		}
	}
	sc.ex = &workload.Exchanges{S: s, Net: net, ISN: net.Streams().New("sat-island/isn")}
	sc.ch = &workload.Channels{
		Ex: sc.ex, Sizes: c.sizes, Request: c.request, Think: c.think, Stagger: c.stagger,
		Rand: net.Streams().New("sat-island/channels"), Warmup: c.warmup, ShortBytes: 10 * conn.MSS,
	}
	for _, srv := range n.servers {
		sc.ch.Paths = append(sc.ch.Paths, path(srv))
	}
	sc.probeP = path(n.iperf)
	sc.probe.warmup = c.warmup
}

// Handle implements des.Handler.
func (sc *satScenario) Handle(now des.Time, kind int, arg uint64) {
	switch kind {
	case siEvWarmup:
		sc.atWarm = sc.fwd.Stats()
		sc.warmTimeouts = sc.ex.Timeouts()
	case siEvProbe:
		x, err := sc.ex.Start(now, sc.probeP, sc.c.probeSize, sc.c.request, &sc.probe, -1)
		if err != nil {
			sc.startEr = err
			return
		}
		sc.probe.x = x
	case siEvSample:
		st := sc.fwd.Stats()
		dt := now.Sub(sc.lastAt).Seconds()
		bytes := sc.ch.Bytes + sc.probe.bytes
		sc.series = append(sc.series, []vocab.Value{
			vocab.F(now.Seconds()),
			vocab.I(int64(sc.q.Bytes())),
			vocab.F(rateOver(bytes-sc.last.bytes, dt).BitsPerSecond()),
			vocab.F(rateOver(sc.probe.bytes-sc.last.probe, dt).BitsPerSecond()),
			// The transmitter's busy time in the interval, a transmission
			// that spans a sample counted on both sides of it: the bytes of
			// the packets that ended in the interval over its length would
			// count the part of one that began in the interval before, and
			// exceed 1 on a saturated link.
			vocab.F(float64(st.Busy-sc.last.busy) / float64(now.Sub(sc.lastAt))),
			vocab.I(int64(sc.ex.Live)),
		})
		sc.last.bytes, sc.last.probe, sc.last.busy = bytes, sc.probe.bytes, st.Busy
		sc.lastAt = now
		sc.s.After(sc.c.sample, sc, siEvSample, 0)
	}
}

// Run implements vocab.Model.
func (m *SatIsland) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	c, err := decodeSatIsland(p)
	if err != nil {
		return vocab.Result{}, err
	}
	sc, err := buildSatIsland(c, seed)
	if err != nil {
		return vocab.Result{}, err
	}
	return sc.run(ctx)
}

func (sc *satScenario) run(ctx context.Context) (vocab.Result, error) {
	c := sc.c
	sc.s.Schedule(c.warmup, sc, siEvWarmup, 0)
	if c.probeSize > 0 {
		sc.s.Schedule(c.probeStart, sc, siEvProbe, 0)
	}
	if c.sample > 0 {
		sc.s.Schedule(des.Time(c.sample), sc, siEvSample, 0)
	}
	sc.ch.Run(c.channels)
	if err := sc.s.Run(ctx, c.duration); err != nil {
		return vocab.Result{}, fmt.Errorf("models: sat-island: %w", err)
	}
	for _, err := range []error{sc.startEr, sc.ch.Err(), sc.ex.Err()} {
		if err != nil {
			return vocab.Result{}, fmt.Errorf("models: sat-island: %w", err)
		}
	}
	return vocab.Result{Metrics: sc.metrics(), Tables: [][][]vocab.Value{sc.series}}, nil
}
