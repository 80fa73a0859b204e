package netsim

import (
	"fmt"
)

// Hop is one hop of a path: the link towards the receiver and the link
// back towards the sender (for ACKs). The two directions are configured
// independently (asymmetric satellite links).
type Hop struct {
	Forward, Reverse LinkConfig
}

// Path is a chain sender -> router 1 -> ... -> receiver.
type Path struct {
	Sender, Receiver *Node
	// Routers are the intermediate nodes, len(Hops)-1 of them.
	Routers []*Node
	// Forward[i] and Reverse[i] are the two directions of hop i, counted
	// from the sender.
	Forward, Reverse []*Link
}

// NewPath builds a path of hops and computes its routes. Unnamed links
// are named "fwd<i>" and "rev<i>".
func NewPath(net *Network, hops []Hop) (*Path, error) {
	if len(hops) == 0 {
		return nil, fmt.Errorf("netsim: path without hops")
	}
	p := &Path{Sender: net.AddNode("sender")}
	prev := p.Sender
	for i, h := range hops {
		var next *Node
		if i == len(hops)-1 {
			next = net.AddNode("receiver")
			p.Receiver = next
		} else {
			next = net.AddNode(fmt.Sprintf("router%d", i+1))
			p.Routers = append(p.Routers, next)
		}
		f, err := net.Connect(prev, next, named(h.Forward, fmt.Sprintf("fwd%d", i)))
		if err != nil {
			return nil, err
		}
		r, err := net.Connect(next, prev, named(h.Reverse, fmt.Sprintf("rev%d", i)))
		if err != nil {
			return nil, err
		}
		p.Forward = append(p.Forward, f)
		p.Reverse = append(p.Reverse, r)
		prev = next
	}
	net.ComputeRoutes()
	return p, nil
}

func named(c LinkConfig, name string) LinkConfig {
	if c.Name == "" {
		c.Name = name
	}
	return c
}

// DumbbellConfig describes a dumbbell: N senders, each with its own access
// link to the left router, a shared bottleneck from the left to the right
// router, and N receivers behind their own access links.
type DumbbellConfig struct {
	// N is the number of sender/receiver pairs.
	N int
	// SenderAccess and ReceiverAccess configure the access links, both
	// directions alike; a non-nil per-pair function overrides them (for
	// different RTTs per flow).
	SenderAccess, ReceiverAccess Hop
	PerSender, PerReceiver       func(i int) Hop
	// Bottleneck is the shared link, Forward from left to right.
	Bottleneck Hop
}

// Dumbbell is the classic shared-bottleneck topology.
type Dumbbell struct {
	Senders, Receivers []*Node
	Left, Right        *Node
	// Bottleneck goes left to right (data), BottleneckReverse right to
	// left (ACKs).
	Bottleneck, BottleneckReverse *Link
	// SenderAccess[i] and ReceiverAccess[i] are the forward (data
	// direction) access links of pair i; the reverse ones are
	// SenderAccessReverse and ReceiverAccessReverse.
	SenderAccess, SenderAccessReverse     []*Link
	ReceiverAccess, ReceiverAccessReverse []*Link
}

// NewDumbbell builds a dumbbell and computes its routes. Links are named
// "bottleneck", "bottleneck-rev", "s<i>-access", "s<i>-access-rev",
// "r<i>-access", "r<i>-access-rev" unless their configs name them.
func NewDumbbell(net *Network, c DumbbellConfig) (*Dumbbell, error) {
	if c.N < 1 {
		return nil, fmt.Errorf("netsim: dumbbell with %d pairs", c.N)
	}
	d := &Dumbbell{Left: net.AddNode("left"), Right: net.AddNode("right")}
	var err error
	if d.Bottleneck, err = net.Connect(d.Left, d.Right, named(c.Bottleneck.Forward, "bottleneck")); err != nil {
		return nil, err
	}
	if d.BottleneckReverse, err = net.Connect(d.Right, d.Left, named(c.Bottleneck.Reverse, "bottleneck-rev")); err != nil {
		return nil, err
	}
	for i := range c.N {
		sh, rh := c.SenderAccess, c.ReceiverAccess
		if c.PerSender != nil {
			sh = c.PerSender(i)
		}
		if c.PerReceiver != nil {
			rh = c.PerReceiver(i)
		}
		s := net.AddNode(fmt.Sprintf("s%d", i))
		r := net.AddNode(fmt.Sprintf("r%d", i))
		d.Senders = append(d.Senders, s)
		d.Receivers = append(d.Receivers, r)
		links := []struct {
			from, to *Node
			cfg      LinkConfig
			name     string
			dst      *[]*Link
		}{
			{s, d.Left, sh.Forward, fmt.Sprintf("s%d-access", i), &d.SenderAccess},
			{d.Left, s, sh.Reverse, fmt.Sprintf("s%d-access-rev", i), &d.SenderAccessReverse},
			{d.Right, r, rh.Forward, fmt.Sprintf("r%d-access", i), &d.ReceiverAccess},
			{r, d.Right, rh.Reverse, fmt.Sprintf("r%d-access-rev", i), &d.ReceiverAccessReverse},
		}
		for _, x := range links {
			l, err := net.Connect(x.from, x.to, named(x.cfg, x.name))
			if err != nil {
				return nil, err
			}
			*x.dst = append(*x.dst, l)
		}
	}
	net.ComputeRoutes()
	return d, nil
}

// Parallel is two nodes joined by several channels side by side (the
// wavelengths of a WDM link) plus a reverse link for ACKs.
type Parallel struct {
	A, B     *Node
	Channels []*Link
	Reverse  *Link
	// Egress is A's route to B: a *Stripe or a *FlowChannels.
	Egress Egress
}

// ChannelMode says how packets from A to B are spread over the channels.
type ChannelMode int

// Channel modes.
const (
	// BindFlows sends all packets of a flow on one channel
	// (FlowChannels).
	BindFlows ChannelMode = iota
	// StripePackets spreads consecutive packets round-robin over the
	// channels, whatever their flow (Stripe).
	StripePackets
)

// NewParallel builds the channels A->B (named "ch<i>" unless configured
// otherwise), a reverse link B->A ("rev"), and routes A->B through the
// channels in the given mode.
func NewParallel(net *Network, channels []LinkConfig, reverse LinkConfig, mode ChannelMode) (*Parallel, error) {
	if len(channels) == 0 {
		return nil, fmt.Errorf("netsim: parallel link without channels")
	}
	p := &Parallel{A: net.AddNode("a"), B: net.AddNode("b")}
	for i, c := range channels {
		l, err := net.Connect(p.A, p.B, named(c, fmt.Sprintf("ch%d", i)))
		if err != nil {
			return nil, err
		}
		p.Channels = append(p.Channels, l)
	}
	var err error
	if p.Reverse, err = net.Connect(p.B, p.A, named(reverse, "rev")); err != nil {
		return nil, err
	}
	switch mode {
	case BindFlows:
		p.Egress = NewFlowChannels(p.Channels)
	case StripePackets:
		p.Egress = NewStripe(p.Channels)
	default:
		return nil, fmt.Errorf("netsim: unknown channel mode %d", mode)
	}
	p.A.SetRoute(p.B, p.Egress)
	net.ComputeRoutes()
	return p, nil
}

// Stripe sends consecutive packets over its links in round-robin order.
type Stripe struct {
	links []*Link
	next  int
}

// NewStripe returns a round-robin striper over links.
func NewStripe(links []*Link) *Stripe { return &Stripe{links: links} }

// Send implements Egress.
func (s *Stripe) Send(p *Packet) {
	l := s.links[s.next]
	s.next++
	if s.next == len(s.links) {
		s.next = 0
	}
	l.Send(p)
}

// FlowChannels sends every packet of a flow over the same link: the one
// bound with Bind, or else link flow mod len(links).
type FlowChannels struct {
	links []*Link
	bound map[FlowID]int
}

// NewFlowChannels returns a flow-to-channel binder over links.
func NewFlowChannels(links []*Link) *FlowChannels {
	return &FlowChannels{links: links, bound: map[FlowID]int{}}
}

// Bind puts flow on channel ch.
func (f *FlowChannels) Bind(flow FlowID, ch int) error {
	if ch < 0 || ch >= len(f.links) {
		return fmt.Errorf("netsim: channel %d of %d", ch, len(f.links))
	}
	f.bound[flow] = ch
	return nil
}

// Channel returns the index of the channel that carries flow.
func (f *FlowChannels) Channel(flow FlowID) int {
	if ch, ok := f.bound[flow]; ok {
		return ch
	}
	ch := int(flow) % len(f.links)
	if ch < 0 {
		ch += len(f.links)
	}
	return ch
}

// Send implements Egress.
func (f *FlowChannels) Send(p *Packet) { f.links[f.Channel(p.Flow)].Send(p) }
