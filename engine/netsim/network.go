package netsim

import (
	"math"

	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// Network is a simulated network: nodes, links, the packet pool and the
// random streams of its links, driven by one des.Scheduler.
type Network struct {
	sched    *des.Scheduler
	streams  des.Streams
	pool     Pool
	nodes    []*Node
	links    []*Link
	names    map[string]bool
	observer Observer
	// lastArrival is the arrival event a link scheduled last (follow.go).
	lastArrival arrivalMark
	// noFollow queues every end of transmission (the tests' reference).
	noFollow bool
}

// New returns an empty network driven by s; seed is the scenario seed from
// which every link derives its random stream.
func New(s *des.Scheduler, seed uint64) *Network {
	return &Network{sched: s, streams: des.NewStreams(seed), names: map[string]bool{}}
}

// Scheduler returns the scheduler that drives the network.
func (n *Network) Scheduler() *des.Scheduler { return n.sched }

// Now returns the current virtual time.
func (n *Network) Now() des.Time { return n.sched.Now() }

// Streams returns the scenario's random streams (links use "link/<name>").
func (n *Network) Streams() des.Streams { return n.streams }

// NewPacket returns a zeroed packet from the pool.
func (n *Network) NewPacket() *Packet { return n.pool.Get() }

// Free returns a packet to the pool, releasing it from its owner first.
func (n *Network) Free(p *Packet) {
	n.orphan(p)
	n.pool.Put(p)
}

// Pool returns the packet pool (for its counters).
func (n *Network) Pool() *Pool { return &n.pool }

// SetObserver installs o to see every packet event; nil removes it.
func (n *Network) SetObserver(o Observer) { n.observer = o }

// Nodes returns the nodes in creation order.
func (n *Network) Nodes() []*Node { return n.nodes }

// Links returns the links in creation order.
func (n *Network) Links() []*Link { return n.links }

// AddNode adds a node.
func (n *Network) AddNode(name string) *Node {
	nd := &Node{net: n, id: NodeID(len(n.nodes)), name: name, receivers: map[FlowID]Receiver{}}
	n.nodes = append(n.nodes, nd)
	return nd
}

// Connect adds a one-way link from one node to another.
func (n *Network) Connect(from, to *Node, cfg LinkConfig) (*Link, error) {
	if from.net != n || to.net != n {
		return nil, fmt.Errorf("netsim: connect: node of another network")
	}
	if !(cfg.Rate >= 0) || math.IsInf(cfg.Rate.BitsPerSecond(), 1) || cfg.Delay < 0 || cfg.Jitter < 0 || cfg.NetemLimit < 0 || cfg.FrameOverhead < 0 {
		return nil, fmt.Errorf("netsim: link %s->%s: negative or not finite rate %g bit/s, negative delay %v, jitter %v, netem limit %d or frame overhead %d",
			from.name, to.name, cfg.Rate, cfg.Delay, cfg.Jitter, cfg.NetemLimit, cfg.FrameOverhead)
	}
	if cfg.Burst < 0 || cfg.Burst > 0 && !cfg.Shaper || cfg.Shaper && cfg.Rate == 0 {
		return nil, fmt.Errorf("netsim: link %s->%s: a shaper needs a rate and a burst of 0 or more bytes, and only a shaper takes a burst (rate %g bit/s, shaper %t, burst %d)",
			from.name, to.name, cfg.Rate, cfg.Shaper, cfg.Burst)
	}
	name := cfg.Name
	if name == "" {
		name = from.name + "->" + to.name
		for i := 2; n.names[name]; i++ {
			name = fmt.Sprintf("%s->%s#%d", from.name, to.name, i)
		}
	}
	if n.names[name] {
		return nil, fmt.Errorf("netsim: duplicate link name %q", name)
	}
	qm := cfg.Queue
	if qm == nil {
		qm = DropTail{}
	}
	if v, ok := qm.(Validator); ok {
		if err := v.Validate(); err != nil {
			return nil, fmt.Errorf("netsim: link %s: %w", name, err)
		}
	}
	l := &Link{
		net: n, name: name, from: from, to: to,
		rate: unit.BitRate(wholeBitRate(cfg.Rate)), bps: wholeBitRate(cfg.Rate), delay: cfg.Delay,
		overhead:   uint64(cfg.FrameOverhead),
		netemLimit: cfg.NetemLimit,
		endsFirst:  cfg.EndsFirst,
		shaper:     cfg.Shaper,
		queue:      qm.NewQueue(),
		rng:        n.streams.New("link/" + name),
	}
	l.dropTail, _ = l.queue.(*dropTail)
	if cfg.Shaper {
		l.burst = TransmissionTime(cfg.Burst, l.rate)
		// The bucket starts full: the last busy period ended long ago.
		l.txEnd = math.MinInt64 / 2
	}
	if cfg.Jitter > 0 {
		l.jitter = cfg.Jitter
		l.jrng = n.streams.New("link/" + name + "/jitter")
	}
	if a, ok := l.queue.(Attacher); ok {
		a.Attach(LinkInfo{Name: name, Rate: l.rate, Rand: n.streams.New("queue/" + name)})
	}
	if cfg.Loss != nil {
		loss, err := cfg.Loss.NewLoss()
		if err != nil {
			return nil, fmt.Errorf("netsim: link %s: %w", name, err)
		}
		l.loss = loss
	}
	n.names[name] = true
	n.links = append(n.links, l)
	from.out = append(from.out, l)
	return l, nil
}

// ComputeRoutes fills every route not set by hand with the first link of
// a shortest path (fewest hops; ties go to the link created first), found
// by breadth-first search. Call it after the topology is complete.
func (n *Network) ComputeRoutes() {
	next := make([]*Link, len(n.nodes))
	queue := make([]*Node, 0, len(n.nodes))
	for _, src := range n.nodes {
		clear(next)
		queue = append(queue[:0], src)
		seen := make([]bool, len(n.nodes))
		seen[src.id] = true
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, l := range u.out {
				v := l.to
				if seen[v.id] {
					continue
				}
				seen[v.id] = true
				if u == src {
					next[v.id] = l
				} else {
					next[v.id] = next[u.id]
				}
				queue = append(queue, v)
			}
		}
		for dst, l := range next {
			if l != nil && src.Route(NodeID(dst)) == nil {
				src.SetRoute(n.nodes[dst], l)
			}
		}
	}
}

// TraceKind is the kind of a trace Record.
type TraceKind uint8

// Trace kinds.
const (
	TraceSend     TraceKind = iota // offered to a link's queue
	TraceTransmit                  // left the queue, serialisation starts
	TraceDeliver                   // reached the far end of a link
	TraceDrop                      // dropped (Reason says why)
)

var traceKindNames = [...]string{"send", "transmit", "deliver", "drop"}

func (k TraceKind) String() string {
	if int(k) < len(traceKindNames) {
		return traceKindNames[k]
	}
	return fmt.Sprintf("TraceKind(%d)", uint8(k))
}

// Record is one packet event. Link is nil for drops at a node.
type Record struct {
	At     des.Time
	Kind   TraceKind
	Link   *Link
	Node   *Node
	Packet *Packet
	Reason DropReason
}

// Observer sees every packet event of a network, for traces and probes.
// The packet must not be retained: it returns to the pool.
type Observer interface {
	Observe(r Record)
}
