package models

import (
	"context"
	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
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

func buildLEO(c leoConfig, seed uint64) (*leoScenario, error) {
	cons, err := orbit.NewConstellation(c.shell, c.motion)
	if err != nil {
		return nil, err
	}
	router, err := orbit.NewRouter(cons, c.earth, c.src, c.dst, c.shell.Rule(c.cone))
	if err != nil {
		return nil, err
	}
	s := des.New()
	net := netsim.New(s, seed)
	term := c.terminal
	w := &leoWorld{s: s, router: router, cons: cons, t0: c.startTime, frozen: c.frozen,
		interval: c.routeInterval, errors: c.islErrors, term: term,
		jitter: phy.Jitter{Sigma: c.jitterURad * 1e-6, Gain: term.Gain()}, islRate: unit.BitRate(term.Rate),
		exceedLen: math.Inf(1)}
	if c.islRate > 0 {
		w.islRate = c.islRate
	}
	if w.errors {
		w.exceedLen = exceedLength(term, w.jitter, int(c.host.mss)+52, c.perThreshold)
		for k, l := range router.ISLs() {
			if !cons.IntraPlane(l[0], l[1]) {
				w.crossISLs = append(w.crossISLs, k)
			}
		}
	}
	sc := &leoScenario{s: s, net: net, w: w, sample: c.sample}
	s.Schedule(0, w, 0, 0)
	na, nb, err := sc.buildGround(c)
	if err != nil {
		return nil, err
	}
	if err := sc.addFlows(c, na, nb); err != nil {
		return nil, err
	}
	if sc.sample > 0 {
		s.Schedule(0, sc, 0, 0)
	}
	return sc, nil
}

// buildGround builds the ground stations, their ground links and the two
// ends of the space segment between them, and returns the stations.
func (sc *leoScenario) buildGround(c leoConfig) (na, nb *netsim.Node, err error) {
	net, s := sc.net, sc.s
	na, nb = net.AddNode("src"), net.AddNode("dst")
	sa, sb := net.AddNode("space-src"), net.AddNode("space-dst")
	gcfg := func(name string) netsim.LinkConfig {
		l := netsim.LinkConfig{Name: name, Rate: c.gslRate, Queue: netsim.DropTail{Packets: c.queue}}
		if c.gslLoss > 0 {
			l.Loss = netsim.Bernoulli{P: c.gslLoss}
		}
		return l
	}
	links := make([]*netsim.Link, 4)
	for i, e := range []struct {
		from, to *netsim.Node
		name     string
	}{{na, sa, "up-src"}, {sb, nb, "down-dst"}, {nb, sb, "up-dst"}, {sa, na, "down-src"}} {
		if links[i], err = net.Connect(e.from, e.to, gcfg(e.name)); err != nil {
			return nil, nil, err
		}
	}
	up, down, upB, downA := links[0], links[1], links[2], links[3]
	sc.ground = links
	sc.fwd = &spaceHop{w: sc.w, s: s, net: net, down: down, rng: net.Streams().New("leo/isl/forward")}
	sc.rev = &spaceHop{w: sc.w, s: s, net: net, down: downA, rng: net.Streams().New("leo/isl/reverse")}
	na.SetRoute(nb, up)
	sa.SetRoute(nb, sc.fwd)
	nb.SetRoute(na, upB)
	sb.SetRoute(na, sc.rev)
	return na, nb, nil
}

// addFlows opens c.flows connections from na to nb, each watched at the
// receiver for spurious retransmissions and reordering.
func (sc *leoScenario) addFlows(c leoConfig, na, nb *netsim.Node) error {
	s, net := sc.s, sc.net
	cfg := c.host.config(c.window, 1<<40)
	rng := net.Streams().New("tcp/isn")
	for i := 0; i < c.flows; i++ {
		f := &leoFlow{}
		id := netsim.FlowID(i + 1)
		ctrlA, err := cc.New(c.cca, c.host.ccOptions(net.Streams().New(fmt.Sprintf("cc/%d", i)).Uint64()))
		if err != nil {
			return err
		}
		ctrlB, _ := cc.New(c.cca, cc.Options{})
		isnA, isnB := rng.Uint32(), rng.Uint32()
		if f.src, err = tcp.New(s, cfg, ctrlA, tcp.NodePort{Net: net, Node: na}, &f.source, id, na.ID(), nb.ID(), isnA); err != nil {
			return err
		}
		if f.dst, err = tcp.New(s, cfg, ctrlB, tcp.NodePort{Net: net, Node: nb}, &f.sink, id, nb.ID(), na.ID(), isnB); err != nil {
			return err
		}
		f.source.Conn, f.source.Size = f.src, workload.Unlimited
		f.source.WriteSize = c.host.writeSize
		f.watch = seqWatch{conn: f.dst, isn: isnA, mss: int64(c.host.mss)}
		if err := na.Attach(id, f.src); err != nil {
			return err
		}
		if err := nb.Attach(id, &f.watch); err != nil {
			return err
		}
		f.dst.Listen()
		sc.flows = append(sc.flows, f)
	}
	return nil
}

// Run implements vocab.Model.
func (m *LEOPath) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	c, err := decodeLEO(p)
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: leo-path: %w", err)
	}
	sc, err := buildLEO(c, seed)
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: leo-path: %w", err)
	}
	for _, f := range sc.flows {
		f.source.Start(0)
	}
	end := c.duration
	if err := sc.s.Run(ctx, end); err != nil {
		return vocab.Result{}, fmt.Errorf("models: leo-path: %w", err)
	}
	return vocab.Result{Metrics: sc.metrics(end), Tables: [][][]vocab.Value{sc.series}}, nil
}
