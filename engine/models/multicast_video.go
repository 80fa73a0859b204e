package models

import (
	"context"
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// MulticastVideo is the "multicast-video" model: document 001's MBone
// experiment (Zhang et al., the ACTS link between NASA LeRC and HRL). A
// vic-like video stream (128 kbit/s at 8 frames/s by default, each frame
// split into UDP/RTP packets) crosses either a terrestrial path of H hops,
// each hop a bottleneck router shared with TCP cross traffic of its own
// (greedy bulk flows, or on/off bursts of a given load), or one GEO
// satellite hop of its own capacity and about 250 ms one-way delay. The
// receiver measures what vic shows: packet loss, the interarrival jitter
// of RFC 3550 (section 6.4.1, appendix A.8), received bandwidth and the
// rate of complete frames, over time (the timeseries table) and on
// average.
type MulticastVideo struct{ schema *vocab.Schema }

// NewMulticastVideo returns the multicast-video model.
func NewMulticastVideo() *MulticastVideo { return &MulticastVideo{schema: multicastVideoSchema()} }

// Schema implements vocab.Model.
func (m *MulticastVideo) Schema() *vocab.Schema { return m.schema }

// videoFlow is the flow id of the video stream; cross flows count up
// from crossFlow0.
const (
	videoFlow  netsim.FlowID = 1
	crossFlow0 netsim.FlowID = 1000
)

// drainTime is how long the run continues after the last frame, so that
// packets still queued arrive (or are dropped) before counting.
const drainTime = 10 * des.Second

// crossFlow is one TCP cross-traffic connection.
type crossFlow struct {
	src, dst *tcp.Conn
	bulk     workload.Source
	bursts   workload.Bursts
	sink     workload.Sink
}

// Run implements vocab.Model.
func (m *MulticastVideo) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	c := decodeVideo(p)
	if err := c.format.Validate(); err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}
	s := des.New()
	net := netsim.New(s, seed)
	path, err := netsim.NewPath(net, c.pathHops())
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}
	var cross []*crossFlow
	if !c.satellite && c.cross != "none" && c.crossFlows > 0 {
		if cross, err = addCross(net, path, c); err != nil {
			return vocab.Result{}, err
		}
	}
	rcv := &workload.VideoReceiver{Format: c.format, Net: net}
	if err := path.Receiver.Attach(videoFlow, rcv); err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}
	video := &workload.Video{Format: c.format, Net: net, Node: path.Sender, Dst: path.Receiver.ID(), Flow: videoFlow}
	// Frame k is captured at k/fps exactly; cross traffic starts within
	// the first second.
	if err := video.Start(s, 0, c.duration); err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}
	if err := s.Run(ctx, c.duration.Add(drainTime)); err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}
	return videoResult(c, path, video, rcv, cross)
}

// pathHops is the video's path: one satellite hop, or hops terrestrial
// ones.
func (c videoConfig) pathHops() []netsim.Hop {
	if c.satellite {
		l := netsim.LinkConfig{Rate: c.satRate, Delay: c.satDelay, Queue: netsim.DropTail{Packets: c.satQueue}}
		return []netsim.Hop{{Forward: l, Reverse: l}}
	}
	l := netsim.LinkConfig{Rate: c.hopRate, Delay: c.hopDelay, Queue: netsim.DropTail{Packets: c.hopQueue}}
	hops := make([]netsim.Hop, c.hops)
	for i := range hops {
		hops[i] = netsim.Hop{Forward: l, Reverse: l}
	}
	return hops
}

// addCross adds the cross traffic of every terrestrial hop: a sender node
// before the hop's router and a receiver node after it, each on a fast
// access link (100 times the hop rate, 1 ms), so the hop is the flows'
// only bottleneck; cross_flows TCP connections between them start at
// random times in the first second.
func addCross(net *netsim.Network, path *netsim.Path, c videoConfig) ([]*crossFlow, error) {
	stop := c.duration
	access := netsim.LinkConfig{Rate: c.hopRate.Scale(100), Delay: des.Millisecond}
	nodes := append(append([]*netsim.Node{path.Sender}, path.Routers...), path.Receiver)
	type pair struct{ a, b *netsim.Node }
	var pairs []pair
	for i := range path.Forward {
		a := net.AddNode(fmt.Sprintf("cross%d-src", i))
		b := net.AddNode(fmt.Sprintf("cross%d-dst", i))
		for _, c := range []struct{ from, to *netsim.Node }{{a, nodes[i]}, {nodes[i], a}, {b, nodes[i+1]}, {nodes[i+1], b}} {
			if _, err := net.Connect(c.from, c.to, access); err != nil {
				return nil, fmt.Errorf("models: multicast-video: %w", err)
			}
		}
		pairs = append(pairs, pair{a, b})
	}
	net.ComputeRoutes()

	host := c.crossHost()
	cfg := host.config(c.crossWindow, 1<<40)
	mode := c.cross
	n := c.crossFlows
	burst := float64(c.crossBurst)
	rate := c.crossLoad * c.hopRate.BytesPerSecond() / burst / float64(n) // bursts per second per flow
	s := net.Scheduler()
	isn := net.Streams().New("cross/isn")
	starts := net.Streams().New("cross/start")
	var flows []*crossFlow
	for i, pr := range pairs {
		for k := range n {
			id := crossFlow0 + netsim.FlowID(i*n+k)
			f := &crossFlow{}
			var app tcp.App = &f.bulk
			if mode == "onoff" {
				f.bursts = workload.Bursts{Rate: rate, MeanBytes: burst, Rand: net.Streams().New(fmt.Sprintf("cross/%d", id))}
				app = &f.bursts
			}
			ca, err := cc.New(c.crossCCA, host.ccOptions(0))
			if err != nil {
				return nil, fmt.Errorf("models: multicast-video: %w", err)
			}
			cb, _ := cc.New(c.crossCCA, cc.Options{})
			if f.src, err = tcp.New(s, cfg, ca, tcp.NodePort{Net: net, Node: pr.a}, app, id, pr.a.ID(), pr.b.ID(), isn.Uint32()); err != nil {
				return nil, fmt.Errorf("models: multicast-video: %w", err)
			}
			if f.dst, err = tcp.New(s, cfg, cb, tcp.NodePort{Net: net, Node: pr.b}, &f.sink, id, pr.b.ID(), pr.a.ID(), isn.Uint32()); err != nil {
				return nil, fmt.Errorf("models: multicast-video: %w", err)
			}
			if err := pr.a.Attach(id, f.src); err != nil {
				return nil, fmt.Errorf("models: multicast-video: %w", err)
			}
			if err := pr.b.Attach(id, f.dst); err != nil {
				return nil, fmt.Errorf("models: multicast-video: %w", err)
			}
			f.dst.Listen()
			at := des.Time(des.FromSeconds(starts.Float64()))
			s.Schedule(at, starter{f, s, mode, stop}, 0, 0)
			flows = append(flows, f)
		}
	}
	return flows, nil
}

// starter opens one cross flow when its start time comes.
type starter struct {
	f    *crossFlow
	s    *des.Scheduler
	mode string
	stop des.Time
}

// Handle implements des.Handler.
func (st starter) Handle(now des.Time, kind int, arg uint64) {
	f := st.f
	if st.mode == "onoff" {
		f.bursts.Conn = f.src
		if err := f.bursts.Start(st.s, now, st.stop); err != nil {
			panic("bug: models: " + err.Error())
		}
		return
	}
	f.bulk.Conn = f.src
	f.bulk.Size = workload.Unlimited
	f.bulk.Start(now)
}
