package leonet

import (
	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// Config sets the links of a Network.
type Config struct {
	// ISLRate and GSLRate are the rates of the inter-satellite and the
	// ground links, each direction; 0 is infinitely fast.
	ISLRate, GSLRate unit.BitRate
	// ISLQueue and GSLQueue are the queues in front of each link
	// direction (nil: an unlimited DropTail).
	ISLQueue, GSLQueue netsim.QueueModel
	// Interval is the routing step: every Interval of simulated time the
	// forwarding state, the link delays and the nodes' routes are
	// recomputed (Hypatia's default is 100 ms).
	Interval des.Duration
	// T0 is the fleet time, s, at simulated time 0.
	T0 float64
	// LightSpeed turns lengths into delays; 0 is orbit.LightSpeed.
	LightSpeed float64
	// ISLLoss, when set, gives the loss process of direction dir (0:
	// a->b, 1: b->a) of inter-satellite link k; nil is lossless.
	ISLLoss func(k, dir int) netsim.LossModel
	// AfterStep, when set, runs after every routing step (the first, in
	// New, included), with the step's forwarding state in place: where a
	// model sets each link's error rate and capacity from its new length
	// and reads the pairs' paths.
	AfterStep func(n *Network, now des.Time) error
	// HandoverGap is how long a route that moves to a different ground
	// link stays without a next hop (its packets dropped as
	// netsim.DropNoRoute at the node) before the new ground link carries
	// it: the time a terminal needs to acquire a new satellite. 0 is none
	// (Hypatia's switch at once).
	HandoverGap des.Duration
}

// Network is the packet-level network of a constellation: a netsim node
// for every satellite and ground station (the Forwarding's node numbers),
// a link for each direction of every inter-satellite link and of every
// ground link a route has used, and a step every Config.Interval that
// recomputes the forwarding state, sets every link's propagation delay
// from its current length and switches every node's routes toward every
// station at once.
//
// Every link ends a transmission before anything else happens at that
// instant (netsim.LinkConfig.EndsFirst): the links run at equal rates with
// equal packets, so ends and arrivals coincide all the time, and this
// order, which does not depend on the order the events were scheduled
// in, lets the links run without their end-of-transmission events
// (netsim's lazy links, which their changing delays keep lazy) and still
// give exactly the results of links that have them.
//
// A ground link is created the first time a route uses it and kept: when
// its satellite leaves the station's view, routes stop using it and its
// queue drains at its last delay (there is no handover gap). An
// inter-satellite link that goes down (an outage) likewise keeps its
// queue and last delay while routes avoid it. A node without a next hop
// toward a station drops the packet (netsim.DropNoRoute).
type Network struct {
	net      *netsim.Network
	fw       *orbit.Forwarding
	cfg      Config
	c        float64
	nodes    []*netsim.Node
	isl      [][2]*netsim.Link // per ISL: a->b, b->a
	out      [][]hop           // per node: its links by far node
	gsl      []gslLink         // every ground link direction created
	steps    int64
	switches int64 // route changes over all steps after the first
	last     []int32
	gaps     int64 // routes held back by a handover gap
	gap      gapInstaller
}

// gapInstaller installs, at the end of a handover gap, the route of a
// (node, station) pair that is still the one the gap began for.
type gapInstaller struct {
	n *Network
}

// Handle installs the route of pair index arg (node*stations+station)
// if its next hop is still the one the gap was for (kind).
func (g gapInstaller) Handle(now des.Time, kind int, arg uint64) {
	n := g.n
	gs := n.fw.Stations()
	i := int(arg)
	u, d := i/gs, i%gs
	if n.last[i] != int32(kind) {
		return // routed elsewhere since: that change installed its own
	}
	lk, err := n.link(u, kind)
	if err != nil {
		panic(fmt.Sprintf("leonet: bug: %v", err))
	}
	n.nodes[u].SetRoute(n.nodes[n.fw.Satellites()+d], lk)
}

type hop struct {
	to   int32
	link *netsim.Link
}

type gslLink struct {
	sat, station int32 // station as its station index
	link         *netsim.Link
}

// New builds the network of fw on net: nodes "sat<k>" and "gs<i>", the
// inter-satellite links, and the first step's routes at the current
// simulated time. Call Start to schedule the steps.
func New(net *netsim.Network, fw *orbit.Forwarding, cfg Config) (*Network, error) {
	if cfg.Interval <= 0 {
		return nil, fmt.Errorf("leonet: routing interval %v is not positive", cfg.Interval)
	}
	if cfg.LightSpeed == 0 {
		cfg.LightSpeed = orbit.LightSpeed
	}
	if !(cfg.LightSpeed > 0) {
		return nil, fmt.Errorf("leonet: light speed %g m/s is not positive", cfg.LightSpeed)
	}
	if cfg.HandoverGap < 0 {
		return nil, fmt.Errorf("leonet: handover gap %v is negative", cfg.HandoverGap)
	}
	n := &Network{net: net, fw: fw, cfg: cfg, c: cfg.LightSpeed}
	n.gap.n = n
	ns, g := fw.Satellites(), fw.Stations()
	for k := 0; k < ns; k++ {
		n.nodes = append(n.nodes, net.AddNode(fmt.Sprintf("sat%d", k)))
	}
	for i := 0; i < g; i++ {
		n.nodes = append(n.nodes, net.AddNode(fmt.Sprintf("gs%d", i)))
	}
	n.out = make([][]hop, ns+g)
	n.last = make([]int32, (ns+g)*g)
	for i := range n.last {
		n.last[i] = -1
	}
	for _, l := range fw.ISLs() {
		var pair [2]*netsim.Link
		for j, ends := range [2][2]int{{l[0], l[1]}, {l[1], l[0]}} {
			lc := netsim.LinkConfig{Rate: cfg.ISLRate, Queue: cfg.ISLQueue, EndsFirst: true}
			if cfg.ISLLoss != nil {
				lc.Loss = cfg.ISLLoss(len(n.isl), j)
			}
			lk, err := net.Connect(n.nodes[ends[0]], n.nodes[ends[1]], lc)
			if err != nil {
				return nil, err
			}
			pair[j] = lk
			n.out[ends[0]] = append(n.out[ends[0]], hop{int32(ends[1]), lk})
		}
		n.isl = append(n.isl, pair)
	}
	if err := n.step(net.Now()); err != nil {
		return nil, err
	}
	return n, nil
}

// Start schedules the routing steps, every Interval from now.
func (n *Network) Start() { n.net.Scheduler().After(n.cfg.Interval, n, 0, 0) }

// Handle runs a routing step (des.Handler).
func (n *Network) Handle(now des.Time, kind int, arg uint64) {
	if err := n.step(now); err != nil {
		panic(fmt.Sprintf("leonet: bug: %v", err))
	}
	n.net.Scheduler().After(n.cfg.Interval, n, 0, 0)
}

// Station returns the node of ground station i.
func (n *Network) Station(i int) *netsim.Node { return n.nodes[n.fw.Satellites()+i] }

// Satellite returns the node of satellite k.
func (n *Network) Satellite(k int) *netsim.Node { return n.nodes[k] }

// ISL returns the two directions of inter-satellite link k (a->b, b->a
// for the link's pair (a, b)).
func (n *Network) ISL(k int) [2]*netsim.Link { return n.isl[k] }

// Forwarding returns the forwarding state of the last step.
func (n *Network) Forwarding() *orbit.Forwarding { return n.fw }

// Steps returns the number of routing steps so far (the first, at New,
// included); Switches the number of (node, station) routes that changed
// from one step to the next.
func (n *Network) Steps() int64    { return n.steps }
func (n *Network) Switches() int64 { return n.switches }

// HandoverGaps returns the number of routes that waited for a handover
// gap.
func (n *Network) HandoverGaps() int64 { return n.gaps }

// GroundLink is one direction of a ground link the network has built.
type GroundLink struct {
	Sat, Station int // satellite number, station index
	Up           bool
	Link         *netsim.Link
}

// GroundLinks returns every ground link direction built so far, in the
// order the routes first used them.
func (n *Network) GroundLinks() []GroundLink {
	out := make([]GroundLink, len(n.gsl))
	ns := n.fw.Satellites()
	for i, g := range n.gsl {
		out[i] = GroundLink{Sat: int(g.sat), Station: int(g.station), Up: g.link.From() == n.nodes[ns+int(g.station)], Link: g.link}
	}
	return out
}

// ISLs returns the number of inter-satellite links.
func (n *Network) ISLs() int { return len(n.isl) }

// delay is the propagation time of length m in whole nanoseconds.
func (n *Network) delay(m float64) des.Duration {
	return des.Duration(math.Round(m / n.c * 1e9))
}

// step recomputes the state at simulated time now.
func (n *Network) step(now des.Time) error {
	fw := n.fw
	fw.Step(n.cfg.T0 + now.Seconds())
	for k, pair := range n.isl {
		if l := fw.ISLLength(k); !math.IsInf(l, 1) {
			d := n.delay(l)
			for _, lk := range pair {
				if err := lk.SetDelay(d); err != nil {
					return err
				}
			}
		}
	}
	for _, gl := range n.gsl {
		if l, ok := n.groundLength(int(gl.station), int(gl.sat)); ok {
			if err := gl.link.SetDelay(n.delay(l)); err != nil {
				return err
			}
		}
	}
	ns, g := fw.Satellites(), fw.Stations()
	for u := 0; u < ns+g; u++ {
		for d := 0; d < g; d++ {
			if u == ns+d {
				continue
			}
			nh := fw.NextHop(u, d)
			if i := u*g + d; n.last[i] != int32(nh) {
				if n.steps > 0 {
					n.switches++
				}
				prev := n.last[i]
				n.last[i] = int32(nh)
				var e netsim.Egress // nil: no route
				if nh >= 0 && n.cfg.HandoverGap > 0 && n.steps > 0 && prev >= 0 && (u >= ns || nh >= ns) {
					// A new ground link: no next hop until it is
					// acquired (gapInstaller).
					n.gaps++
					if _, err := n.link(u, nh); err != nil {
						return err
					}
					n.net.Scheduler().After(n.cfg.HandoverGap, n.gap, nh, uint64(i))
				} else if nh >= 0 {
					lk, err := n.link(u, nh)
					if err != nil {
						return err
					}
					e = lk
				}
				n.nodes[u].SetRoute(n.nodes[ns+d], e)
			}
		}
	}
	n.steps++
	if n.cfg.AfterStep != nil {
		return n.cfg.AfterStep(n, now)
	}
	return nil
}

// groundLength returns the current length of the ground link between
// station s and satellite k, if the station sees the satellite.
func (n *Network) groundLength(s, k int) (float64, bool) {
	sats, lens := n.fw.GroundLinks(s)
	for i, x := range sats {
		if int(x) == k {
			return lens[i], true
		}
	}
	return 0, false
}

// link returns the link from node u to node v, creating a ground link
// (both directions) the first time a route uses it.
func (n *Network) link(u, v int) (*netsim.Link, error) {
	for _, h := range n.out[u] {
		if int(h.to) == v {
			return h.link, nil
		}
	}
	ns := n.fw.Satellites()
	if (u >= ns) == (v >= ns) {
		return nil, fmt.Errorf("no link from node %d to node %d", u, v)
	}
	sat, st := u, v-ns
	if u >= ns {
		sat, st = v, u-ns
	}
	l, ok := n.groundLength(st, sat)
	if !ok {
		return nil, fmt.Errorf("station %d does not see satellite %d", st, sat)
	}
	for _, ends := range [2][2]int{{sat, ns + st}, {ns + st, sat}} {
		lk, err := n.net.Connect(n.nodes[ends[0]], n.nodes[ends[1]], netsim.LinkConfig{Rate: n.cfg.GSLRate, Queue: n.cfg.GSLQueue, Delay: n.delay(l), EndsFirst: true})
		if err != nil {
			return nil, err
		}
		n.out[ends[0]] = append(n.out[ends[0]], hop{int32(ends[1]), lk})
		n.gsl = append(n.gsl, gslLink{sat: int32(sat), station: int32(st), link: lk})
	}
	return n.link(u, v)
}
