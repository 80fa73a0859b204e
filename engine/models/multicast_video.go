package models

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

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

// Cost is simulated seconds times the bits the links carry per second.
func (m *MulticastVideo) Cost(p vocab.Params) float64 {
	if p.Str("path") == "satellite" {
		return p.Float("duration") * p.Float("video_rate")
	}
	return p.Float("duration") * p.Float("hop_rate") * float64(p.Int("hops"))
}

func multicastVideoSchema() *vocab.Schema {
	return &vocab.Schema{
		Name:    "multicast-video",
		Version: 3, // 3: the parameter cross is cross_traffic (cross is an SQL keyword; no rows change); 2: the TCP cross traffic: RACK, SACK state kept over timeouts, BBR as Linux
		Doc: "MBone video (document 001): a constant-rate UDP/RTP video stream over a terrestrial path of congested hops " +
			"(each shared with TCP cross traffic) or one GEO satellite hop; loss, RFC 3550 jitter, received bandwidth and " +
			"frame rate over time and on average.",
		Params: []vocab.Param{
			{Name: "path", Kind: vocab.String, Default: vocab.S("terrestrial"), Choices: []string{"terrestrial", "satellite"},
				Doc: "terrestrial: hops routers each shared with cross traffic; satellite: one GEO hop of its own"},
			{Name: "duration", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(120), Min: 1, Max: 1e5,
				Doc: "how long the video is sent"},
			{Name: "sample_interval", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(1), Min: 0.01, Max: 1e4,
				Doc: "interval of the time series (vic and RTCP report every few seconds)"},
			{Name: "video_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(128e3), Min: 1e3, Max: 1e9,
				Doc: "video bit rate, headers excluded (document 001: 128 kbit/s)"},
			{Name: "fps", Kind: vocab.Float, Default: vocab.F(8), Min: 0.1, Max: 1000,
				Doc: "frames per second (document 001: 8)"},
			{Name: "packet_size", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(1000), Min: 16, Max: 65000,
				Doc: "video bytes per packet at most; each packet adds 40 bytes of IP, UDP and RTP headers"},
			{Name: "hops", Kind: vocab.Int, Default: vocab.I(10), Min: 1, Max: 100,
				Doc: "terrestrial hops, each a bottleneck shared with cross traffic (document 001: tens of hops)"},
			{Name: "hop_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(1.544e6), Min: 1e3, Max: 1e12,
				Doc: "rate of each terrestrial hop (T1)"},
			{Name: "hop_delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0.005), Min: 0, Max: 1,
				Doc: "one-way propagation delay of each terrestrial hop"},
			{Name: "hop_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(50), Min: 1, Max: 1e6,
				Doc: "DropTail limit of each router's output queue"},
			{Name: "cross_traffic", Kind: vocab.String, Default: vocab.S("bulk"), Choices: []string{"none", "bulk", "onoff"},
				Doc: "TCP cross traffic per hop: none, greedy bulk flows, or on/off flows (Poisson bursts of exponential size)"},
			{Name: "cross_flows", Kind: vocab.Int, Default: vocab.I(4), Min: 0, Max: 1000,
				Doc: "TCP cross-traffic flows on each hop (each enters before the hop and leaves after it)"},
			{Name: "cross_load", Kind: vocab.Float, Default: vocab.F(0.9), Min: 0, Max: 10,
				Doc: "on/off cross traffic: offered load of each hop's flows together, as a fraction of hop_rate"},
			{Name: "cross_burst", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(50000), Min: 1, Max: 1 << 40,
				Doc: "on/off cross traffic: mean burst (transfer) size"},
			{Name: "cross_window", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(65535), Min: 1000, Max: 1 << 30,
				Doc: "receive window of the cross-traffic TCPs"},
			{Name: "cross_cca", Kind: vocab.String, Default: vocab.S("newreno"), Choices: cc.Names(),
				Doc: "congestion control of the cross traffic"},
			{Name: "sat_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(2e6), Min: 1e3, Max: 1e12,
				Doc: "capacity of the satellite hop"},
			{Name: "sat_delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0.25), Min: 0, Max: 10,
				Doc: "one-way delay of the satellite hop (GEO: at least 250 ms, document 001)"},
			{Name: "sat_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(50), Min: 1, Max: 1e6,
				Doc: "DropTail limit of the satellite uplink queue"},
		},
		Metrics: []vocab.Metric{
			{Name: "loss", Kind: vocab.Float, Doc: "fraction of the video packets sent that never arrived"},
			{Name: "jitter_mean", Kind: vocab.Float, Unit: vocab.Second, Doc: "mean of the interval samples of RFC 3550 jitter"},
			{Name: "jitter_max", Kind: vocab.Float, Unit: vocab.Second, Doc: "largest RFC 3550 jitter estimate"},
			{Name: "bandwidth_mean", Kind: vocab.Float, Unit: vocab.BitPerSecond, Doc: "video bits received per second of duration"},
			{Name: "frame_rate_mean", Kind: vocab.Float, Unit: vocab.PerSecond, Doc: "complete frames received per second of duration"},
			{Name: "delay_mean", Kind: vocab.Float, Unit: vocab.Second, Doc: "mean one-way delay of the packets received"},
			{Name: "delay_max", Kind: vocab.Float, Unit: vocab.Second, Doc: "largest one-way delay"},
			{Name: "packets_sent", Kind: vocab.Int, Unit: vocab.Packet},
			{Name: "packets_received", Kind: vocab.Int, Unit: vocab.Packet},
			{Name: "cross_goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond,
				Doc: "cross-traffic bytes delivered per second per hop, mean over hops"},
			{Name: "hop_drops", Kind: vocab.Int, Unit: vocab.Packet, Doc: "packets dropped by the forward queues, all traffic"},
		},
		Tables: []vocab.Table{
			{Name: "timeseries", Doc: "video quality every sample_interval (interval start time)", Columns: []vocab.Metric{
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second},
				{Name: "loss_rate", Kind: vocab.Float, Doc: "lost / sent of the packets captured in the interval"},
				{Name: "jitter", Kind: vocab.Float, Unit: vocab.Second, Doc: "RFC 3550 jitter at the interval's end"},
				{Name: "bandwidth", Kind: vocab.Float, Unit: vocab.BitPerSecond, Doc: "video bits received per second"},
				{Name: "frame_rate", Kind: vocab.Float, Unit: vocab.PerSecond, Doc: "complete frames received per second"},
				{Name: "packets_sent", Kind: vocab.Int, Unit: vocab.Packet},
				{Name: "packets_lost", Kind: vocab.Int, Unit: vocab.Packet},
			}},
		},
	}
}

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
	format := workload.VideoFormat{Rate: p.Float("video_rate"), FPS: p.Float("fps"), Payload: int(p.Int("packet_size"))}
	if err := format.Validate(); err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}
	duration := des.Time(des.FromSeconds(p.Float("duration")))
	interval := des.FromSeconds(p.Float("sample_interval"))
	s := des.New()
	net := netsim.New(s, seed)

	var hops []netsim.Hop
	satellite := p.Str("path") == "satellite"
	if satellite {
		l := netsim.LinkConfig{Rate: unit.BitRate(p.Float("sat_rate")), Delay: des.FromSeconds(p.Float("sat_delay")),
			Queue: netsim.DropTail{Packets: int(p.Int("sat_queue"))}}
		hops = []netsim.Hop{{Forward: l, Reverse: l}}
	} else {
		l := netsim.LinkConfig{Rate: unit.BitRate(p.Float("hop_rate")), Delay: des.FromSeconds(p.Float("hop_delay")),
			Queue: netsim.DropTail{Packets: int(p.Int("hop_queue"))}}
		for range p.Int("hops") {
			hops = append(hops, netsim.Hop{Forward: l, Reverse: l})
		}
	}
	path, err := netsim.NewPath(net, hops)
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}
	var cross []*crossFlow
	if !satellite && p.Str("cross_traffic") != "none" && p.Int("cross_flows") > 0 {
		if cross, err = addCross(net, path, p, duration); err != nil {
			return vocab.Result{}, err
		}
	}

	rcv := &workload.VideoReceiver{Format: format, Net: net}
	if err := path.Receiver.Attach(videoFlow, rcv); err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}
	video := &workload.Video{Format: format, Net: net, Node: path.Sender, Dst: path.Receiver.ID(), Flow: videoFlow}
	// Frame k is captured at k/fps exactly; cross traffic starts within
	// the first second.
	if err := video.Start(s, 0, duration); err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}
	if err := s.Run(ctx, duration.Add(drainTime)); err != nil {
		return vocab.Result{}, fmt.Errorf("models: multicast-video: %w", err)
	}

	series := rcv.Series(video.SentAt, video.Sent, interval, duration)
	rows := make([][]vocab.Value, len(series))
	jsum := 0.0
	for i, x := range series {
		rows[i] = []vocab.Value{
			vocab.F(x.Start.Seconds()), vocab.F(x.Loss), vocab.F(x.Jitter.Seconds()), vocab.F(x.Bandwidth),
			vocab.F(x.FrameRate), vocab.I(x.Sent), vocab.I(x.Lost),
		}
		jsum += x.Jitter.Seconds()
	}
	// The means count every arrival, those of the drain time included
	// (the last frames arrive a path delay after the sender stops).
	var bits, frames float64
	for _, x := range rcv.Series(video.SentAt, video.Sent, duration.Sub(0)+drainTime, duration.Add(drainTime)) {
		bits += x.Bandwidth * (duration.Sub(0) + drainTime).Seconds()
		frames += x.FrameRate * (duration.Sub(0) + drainTime).Seconds()
	}
	sec := duration.Seconds()
	loss := 0.0
	if video.Sent > 0 {
		loss = 1 - float64(rcv.Received())/float64(video.Sent)
	}
	dMean, dMax := rcv.Delays()
	var crossBytes unit.Bytes
	for _, f := range cross {
		if err := f.sink.Check(workload.Unlimited, false); err != nil {
			return vocab.Result{}, fmt.Errorf("models: multicast-video: cross flow %d: %w", f.src.Flow(), err)
		}
		crossBytes += f.sink.Got
	}
	var drops int64
	for _, l := range path.Forward {
		drops += l.Stats().Dropped()
	}
	metrics := []vocab.Value{
		vocab.F(loss), vocab.F(jsum / float64(max(1, len(series)))), vocab.F(rcv.MaxJitter().Seconds()),
		vocab.F(bits / sec), vocab.F(frames / sec), vocab.F(dMean.Seconds()), vocab.F(dMax.Seconds()),
		vocab.I(video.Sent), vocab.I(rcv.Received()),
		vocab.F(float64(crossBytes) * 8 / (duration.Add(drainTime)).Seconds() / float64(len(hops))),
		vocab.I(drops),
	}
	return vocab.Result{Metrics: metrics, Tables: [][][]vocab.Value{rows}}, nil
}

// addCross adds the cross traffic of every terrestrial hop: a sender node
// before the hop's router and a receiver node after it, each on a fast
// access link (100 times the hop rate, 1 ms), so the hop is the flows'
// only bottleneck; cross_flows TCP connections between them start at
// random times in the first second.
func addCross(net *netsim.Network, path *netsim.Path, p vocab.Params, stop des.Time) ([]*crossFlow, error) {
	hopRate := p.Float("hop_rate")
	access := netsim.LinkConfig{Rate: unit.BitRate(100 * hopRate), Delay: des.Millisecond}
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

	cfg := tcp.Config{
		MSS: 1460, RcvBuf: unit.Bytes(p.Int("cross_window")), SndBuf: 1 << 40, WindowScaling: p.Int("cross_window") > 65535,
		MinRTO: des.Second, LimitedTransmit: true, Recovery: tcp.RecoveryNewReno,
	}
	mode := p.Str("cross_traffic")
	n := int(p.Int("cross_flows"))
	burst := float64(p.Int("cross_burst"))
	rate := p.Float("cross_load") * hopRate / 8 / burst / float64(n) // bursts per second per flow
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
			ca, err := cc.New(p.Str("cross_cca"), cc.Options{})
			if err != nil {
				return nil, fmt.Errorf("models: multicast-video: %w", err)
			}
			cb, _ := cc.New(p.Str("cross_cca"), cc.Options{})
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
