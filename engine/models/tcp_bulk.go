package models

import (
	"context"
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TCPBulk is the "tcp-bulk" model: one or more TCP flows sending bulk data
// (timed, or a given size each) over a single link or over parallel
// channels (the wavelengths of a WDM link), with random loss given as a
// PER or as a BER turned into a PER per packet size. It reports goodput
// after a warm-up, wire throughput, retransmissions, recoveries, drops by
// reason, RTT and queueing delay, per-flow rows and a cwnd/ssthresh/RTT
// time series.
//
// It checks itself against closed forms in its tests: window-limited
// goodput W/RTT, and the loss-limited Mathis et al. (1997) and Padhye et
// al. (1998) formulas.
type TCPBulk struct{ schema *vocab.Schema }

// NewTCPBulk returns the tcp-bulk model.
func NewTCPBulk() *TCPBulk { return &TCPBulk{schema: tcpBulkSchema()} }

// Schema implements vocab.Model.
func (m *TCPBulk) Schema() *vocab.Schema { return m.schema }

// flow is one connection of a scenario.
type flow struct {
	src, dst *tcp.Conn
	source   workload.Source
	sink     workload.Sink
}

// tcpScenario is a built network with its flows.
type tcpScenario struct {
	s        *des.Scheduler
	net      *netsim.Network
	flows    []*flow
	forward  []*netsim.Link // data-direction links
	all      []*netsim.Link
	series   [][]vocab.Value
	interval des.Duration
	stripes  *stripeTrace
}

// initialSsthresh sets the slow-start threshold a controller starts from
// (document 000's conventional TCP starts at 65 KB, section 5.1) and
// otherwise leaves the controller alone.
type initialSsthresh struct {
	cc.Controller
	bytes unit.Bytes
}

// Init implements cc.Controller.
func (c initialSsthresh) Init(s *cc.State) {
	c.Controller.Init(s)
	s.Ssthresh = c.bytes
}

// stripeTrace is the egress of a striped WDM link that records what it
// does: packets from every flow are spread round-robin over the
// wavelengths, one packet per wavelength per time slot (document 000
// section 3.1 and Fig. 2, with a stripe of one packet). It chooses the
// channel itself, as netsim.Stripe does, so the trace is the truth.
type stripeTrace struct {
	links []*netsim.Link
	now   func() des.Time
	limit int
	n     int64   // packets striped so far
	sent  []int64 // packets per flow id
	rows  [][]vocab.Value
}

// Send implements netsim.Egress.
func (t *stripeTrace) Send(p *netsim.Packet) {
	ch := int(t.n % int64(len(t.links)))
	if len(t.rows) < t.limit {
		f := int(p.Flow)
		if f >= len(t.sent) {
			t.sent = append(t.sent, make([]int64, f+1-len(t.sent))...)
		}
		t.sent[f]++
		t.rows = append(t.rows, []vocab.Value{
			vocab.I(t.n / int64(len(t.links))), vocab.I(int64(ch)), vocab.I(int64(f - 1)),
			vocab.I(t.sent[f]), vocab.F(t.now().Seconds()), vocab.I(int64(p.Size)),
		})
	}
	t.n++
	t.links[ch].Send(p)
}

// tcpRun is a tcp-bulk or tcp-transfer scenario ready to build: the
// decoded link and what the model derived from its parameters.
type tcpRun struct {
	link            tcpLinkConfig
	queue           int // DropTail limit in packets of both directions; 0 unlimited
	size            unit.Bytes
	flows, channels int
	striping        bool
	sample          des.Duration
	warmup          des.Time
	noHandshake     bool
	// fwdQueue, when set, replaces the DropTail of the data direction
	// (tcp-transfer's RED gateway at the bottleneck).
	fwdQueue netsim.QueueModel

	// Set by tcp-bulk only; zero values keep the shared behaviour.
	chanLoss []netsim.LossModel // per-channel forward loss, overriding loss()
	revLoss  netsim.LossModel   // loss on the reverse (ACK) link
	ssthresh unit.Bytes         // initial ssthresh; 0 keeps the controller's
	trace    int                // striped packets to record
}

// loss is the given random loss of the data direction: a PER per packet
// size from ber, or per as a Bernoulli probability.
func (c tcpLinkConfig) loss() netsim.LossModel {
	switch {
	case c.ber > 0:
		ber, worst := c.ber, c.worst
		return netsim.PER{Func: func(size int) float64 { return phy.PER(ber, size, worst) }}
	case c.per > 0:
		return netsim.Bernoulli{P: c.per}
	}
	return nil
}

// buildTCP builds the links of c and its flows between their two ends.
func buildTCP(c tcpRun, seed uint64) (*tcpScenario, error) {
	s := des.New()
	net := netsim.New(s, seed)
	sc := &tcpScenario{s: s, net: net}
	a, b, err := sc.buildLinks(c)
	if err != nil {
		return nil, err
	}
	if err := sc.addFlows(c, a, b); err != nil {
		return nil, err
	}
	if c.sample > 0 {
		sc.interval = c.sample
		s.Schedule(0, sc, 0, 0)
	}
	return sc, nil
}

// buildLinks builds one link each way, or with several channels the
// parallel channels and one reverse link, and returns the two ends.
func (sc *tcpScenario) buildLinks(c tcpRun) (a, b *netsim.Node, err error) {
	var q netsim.QueueModel
	if c.queue > 0 {
		q = netsim.DropTail{Packets: c.queue}
	}
	fwd := netsim.LinkConfig{Rate: c.link.rate, Delay: c.link.delay, Queue: q, Loss: c.link.loss()}
	if c.fwdQueue != nil {
		fwd.Queue = c.fwdQueue
	}
	rev := netsim.LinkConfig{Rate: c.link.rate, Delay: c.link.delay, Queue: q, Loss: c.revLoss}
	if len(c.chanLoss) > 0 {
		fwd.Loss = c.chanLoss[0]
	}
	if c.channels <= 1 {
		path, err := netsim.NewPath(sc.net, []netsim.Hop{{Forward: fwd, Reverse: rev}})
		if err != nil {
			return nil, nil, fmt.Errorf("models: %w", err)
		}
		sc.forward = path.Forward
		sc.all = append(append(sc.all, path.Forward...), path.Reverse...)
		return path.Sender, path.Receiver, nil
	}
	return sc.buildChannels(c, fwd, rev)
}

// buildChannels builds the parallel channels of a WDM link, striped or
// with each flow bound to one channel.
func (sc *tcpScenario) buildChannels(c tcpRun, fwd, rev netsim.LinkConfig) (a, b *netsim.Node, err error) {
	chans := make([]netsim.LinkConfig, c.channels)
	for i := range chans {
		chans[i] = fwd
		if i < len(c.chanLoss) {
			chans[i].Loss = c.chanLoss[i]
		}
	}
	mode := netsim.BindFlows
	if c.striping {
		mode = netsim.StripePackets
	}
	par, err := netsim.NewParallel(sc.net, chans, rev, mode)
	if err != nil {
		return nil, nil, fmt.Errorf("models: %w", err)
	}
	a, b = par.A, par.B
	if c.striping && c.trace > 0 {
		st := &stripeTrace{links: par.Channels, now: sc.s.Now, limit: c.trace}
		a.SetRoute(b, st)
		sc.stripes = st
	}
	sc.forward = par.Channels
	sc.all = append(append(sc.all, par.Channels...), par.Reverse)
	if fc, ok := par.Egress.(*netsim.FlowChannels); ok {
		for i := 0; i < c.flows; i++ {
			if err := fc.Bind(netsim.FlowID(i+1), i%c.channels); err != nil {
				return nil, nil, fmt.Errorf("models: %w", err)
			}
		}
	}
	return a, b, nil
}

// addFlows opens c.flows connections from a to b, each sending c.size
// bytes (or for ever) from time 0.
func (sc *tcpScenario) addFlows(c tcpRun, a, b *netsim.Node) error {
	s, net := sc.s, sc.net
	rng := net.Streams().New("tcp/isn")
	cfg := c.link.conn()
	cfg.NoHandshake = c.noHandshake
	cfg.CCOption = c.noHandshake // T/TCP (RFC 1644) carries its CC option in every segment
	for i := 0; i < c.flows; i++ {
		f := &flow{}
		f.sink.Warmup = c.warmup
		id := netsim.FlowID(i + 1)
		ctrlA, err := cc.New(c.link.cca, c.link.host.ccOptions(net.Streams().New(fmt.Sprintf("cc/%d", i)).Uint64()))
		if err != nil {
			return fmt.Errorf("models: %w", err)
		}
		if c.ssthresh > 0 {
			ctrlA = initialSsthresh{Controller: ctrlA, bytes: c.ssthresh}
		}
		ctrlB, _ := cc.New(c.link.cca, cc.Options{})
		isnA, isnB := rng.Uint32(), rng.Uint32()
		if f.src, err = tcp.New(s, cfg, ctrlA, tcp.NodePort{Net: net, Node: a}, &f.source, id, a.ID(), b.ID(), isnA); err != nil {
			return fmt.Errorf("models: %w", err)
		}
		if f.dst, err = tcp.New(s, cfg, ctrlB, tcp.NodePort{Net: net, Node: b}, &f.sink, id, b.ID(), a.ID(), isnB); err != nil {
			return fmt.Errorf("models: %w", err)
		}
		f.source.Conn = f.src
		f.source.Size = c.size
		f.source.WriteSize = c.link.host.writeSize
		f.source.Close = c.size < workload.Unlimited
		if err := a.Attach(id, f.src); err != nil {
			return fmt.Errorf("models: %w", err)
		}
		if err := b.Attach(id, f.dst); err != nil {
			return fmt.Errorf("models: %w", err)
		}
		f.dst.Listen()
		sc.flows = append(sc.flows, f)
	}
	return nil
}

// Handle samples the time series.
func (sc *tcpScenario) Handle(now des.Time, kind int, arg uint64) {
	for i, f := range sc.flows {
		st := f.src.CC()
		// Before the first loss (with no initial ssthresh given) the
		// threshold is "infinite" (RFC 5681 section 3.1: arbitrarily
		// high), and before the connection opens it is not set (0, below
		// the 2 SMSS floor of RFC 5681 equation (4)): there is no
		// threshold to store, so the column is null, which avg() and
		// max() skip, rather than a sentinel.
		ss := vocab.I(int64(st.Ssthresh))
		if st.Ssthresh <= 0 || st.Ssthresh > 1<<40 {
			ss = vocab.Value{}
		}
		sc.series = append(sc.series, []vocab.Value{
			vocab.F(now.Seconds()), vocab.I(int64(i)), vocab.I(int64(st.Cwnd)), ss,
			vocab.F(float64(f.src.SRTT()) / 1e9),
		})
	}
	sc.s.After(sc.interval, sc, 0, 0)
}

// run starts every flow at 0 and runs until the duration, or (for sized
// transfers) until all are done.
func (sc *tcpScenario) run(ctx context.Context, until des.Time) error {
	for _, f := range sc.flows {
		f.source.Start(0)
	}
	if err := sc.s.Run(ctx, until); err != nil {
		return fmt.Errorf("models: %w", err)
	}
	return nil
}

// Run implements vocab.Model.
func (m *TCPBulk) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	c, err := decodeBulk(p)
	if err != nil {
		return vocab.Result{}, err
	}
	run := tcpRun{link: c.link, size: c.size, flows: c.flows, channels: c.channels, striping: c.striping,
		sample: c.sample, warmup: c.warmup, ssthresh: c.ssthresh, trace: c.trace}
	phys, err := bulkPhysics(&run, c.phys)
	if err != nil {
		return vocab.Result{}, err
	}
	// After the physics, which may replace delay by distance/c.
	if run.queue, err = c.link.queue.limit(run.link.rate, run.link.delay, c.link.host.fullPacket()); err != nil {
		return vocab.Result{}, fmt.Errorf("models: tcp-bulk: %w", err)
	}
	sc, err := buildTCP(run, seed)
	if err != nil {
		return vocab.Result{}, err
	}
	if err := sc.run(ctx, c.duration); err != nil {
		return vocab.Result{}, err
	}
	metrics, err := sc.metrics(run.warmup, c.duration)
	if err != nil {
		return vocab.Result{}, err
	}
	metrics = append(metrics, vocab.F(phys.ber), vocab.F(phys.perData), vocab.F(phys.perAck), vocab.F(run.link.delay.Seconds()))
	var stripes [][]vocab.Value
	if sc.stripes != nil {
		stripes = sc.stripes.rows
	}
	return vocab.Result{Metrics: metrics, Tables: [][][]vocab.Value{sc.flowRows(c.duration.Sub(c.warmup).Seconds()), sc.series, stripes}}, nil
}
