package models

import (
	"context"
	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TCPCompete is the "tcp-compete" model: N bulk TCP flows of several
// congestion-control algorithms competing for one bottleneck, the
// experiment of document 002 ("On the interplay of congestion and OSNR
// degradation for TCP over optical networks").
//
// Set-up, after the document's published scripts: each flow has its own
// sender and receiver host behind 100 Mbit/s access links (a dumbbell);
// the backbone between the two routers is 100 Mbit/s with 10 ms one-way
// delay; its queue holds q % of the bandwidth-delay product of rate x
// one-way delay, 8.33 x (q/100) x 10 packets of 1500 bytes at 100 Mbit/s
// (DropTail, or RED, CoDel or FQ-CoDel of that limit); iperf3 sends with a
// 16 MB window and MSS 1460 for 200 s. The algorithms of the ccas list
// are repeated over the flows (10 flows of "bbr,bbr2,cubic,bic,reno" are
// two of each) and the flows start at uniform random times in the first
// 100 ms. Random loss on the backbone's data direction is given directly
// (as netem would apply it) or follows from a gOSNR through the
// calibrated coherent receiver of the optical-osnr model (32 GBd DP-QPSK,
// 1.19 dB penalty, 64B/66B), per packet size.
//
// Endpoints behave like Linux's defaults: SACK with RFC 6675 recovery and
// RACK-TLP loss detection (RFC 8985; loss_detection),
// window scaling, initial window 10, 200 ms minimum RTO, an ACK for every
// segment (quick-ack mode; delayed ACKs are a parameter), and a 1000
// packet queue on every access link (the default txqueuelen).
//
// Every link runs at the document's 100 Mbit/s, access links included, as
// in its Mininet set-up. Each host's outgoing access link adds a random
// delay of up to host_jitter to each packet after the link's queue,
// keeping order (netsim.LinkConfig.Jitter): real hosts and switches
// release packets with such jitter (interrupts, scheduling, forwarding).
// Without it a deterministic simulation locks flows of equal rate into
// fixed phases at a full DropTail queue, so that one flow takes every
// freed slot for ever (Floyd and Jacobson, "On traffic phase effects in
// packet-switched gateways", Internetworking: Research and Experience
// 3(3), 1992, who break it with a random time of up to one bottleneck
// service time, the default here). The jitter acts after the access
// queue because a flow faster than its access link (BBR probing at 1.25
// times the backbone's rate through an access link of the same rate)
// backlogs that queue, and a backlogged link releases its packets exactly
// one service time apart whatever happened before it: jitter at the
// sending host would be absorbed there, and the second flow of two would
// find the backbone's queue full at every arrival.
//
// The backbone parameter chooses what the queue limit counts. "link" is
// a router's output queue: the limit counts the packets waiting for the
// transmitter, as the document's "DropTail queue" reads. "tclink" is what
// Mininet builds for a link with bw, delay, loss and max_queue_size (its
// TCIntf: an HTB class at the rate whose leaf is "netem delay 10ms loss
// L limit N"): Linux's netem counts against its limit every packet it
// holds, those still being delayed included, so the 10 ms of propagation
// take room from the buffer (netsim.LinkConfig.NetemLimit). Then q = 100 %
// leaves no room to queue and a smaller q caps the backbone at q % of its
// rate, which is what "% of BDP" measures. Measured here over 200 s: with
// tclink, BBR's share grows and Jain's index falls as q shrinks, the
// document's shape; with link, a buffer of at most half the round trip's
// BDP lets BBR dominate at every q and Jain's index rises as BBRv2 gains
// on BBR v1 (TestCompeteDocument002Shape). Mininet would put RED above
// netem (its enable_red), where it sees netem's whole backlog; the model
// does not build that, so tclink takes the droptail aqm only. A TCLink
// given a loss applies it in both directions; here the loss stays on the
// data direction unless ack_loss is set.
//
// "mininet" is the testbed the document ran, built from its published
// scripts link by link (tcp_compete_testbed.go): every host on its own
// TCLink, the switches joined by 42-packet TCLinks, the backbone TCLink,
// all netem limits; and the Linux hosts' mechanisms below TCP, each
// switched by name in emulate: topology, gso (TSO/GSO aggregates that
// netem counts and loses as one skb, acknowledged once), tsq (TCP Small
// Queues), defer (TSO deferral), cwndlimited (CUBIC, BIC and Reno grow
// cwnd only while it limits the sender), sockbuf (iperf3's 16 MB windows
// capped at rmem_max/wmem_max, 16 MiB as Mininet sets them) and ackloss.
// The hosts' TCP is the one host of tcp_host.go with Linux's defaults.
// The ablation (specs/os-testbed.yaml, docs/os-testbed.md and its
// os-testbed-ablation table) shows which mechanism makes which feature of
// the document's figures; TestCompeteTestbedShape pins the shape the
// whole testbed gives.
//
// The main row carries the aggregates (total goodput, Jain's index over
// flows and over algorithm groups) and, for a fixed set of columns, one
// per algorithm the cc package knows (null when the algorithm is absent),
// the goodput and retransmissions of each algorithm's group, so that a
// figure needs no join with the per-flow table.
type TCPCompete struct {
	schema *vocab.Schema
	algos  []string // the per-algorithm columns, in schema order
}

// NewTCPCompete returns the tcp-compete model.
func NewTCPCompete() *TCPCompete {
	algos := cc.Names()
	return &TCPCompete{schema: tcpCompeteSchema(algos), algos: algos}
}

// Schema implements vocab.Model.
func (m *TCPCompete) Schema() *vocab.Schema { return m.schema }

// competeFlow is one flow of the scenario.
type competeFlow struct {
	cca      string
	src, dst *tcp.Conn
	source   workload.Source
	sink     workload.Sink
	start    des.Time
}

// competeRun is a built scenario; it starts the flows from its event
// handler.
type competeRun struct {
	s     *des.Scheduler
	net   *netsim.Network
	flows []*competeFlow
}

// Handle starts flow arg.
func (r *competeRun) Handle(now des.Time, _ int, arg uint64) {
	r.flows[arg].source.Start(now)
}

// Run implements vocab.Model.
func (m *TCPCompete) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	res, err := m.run(ctx, p, seed)
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: tcp-compete: %w", err)
	}
	return res, nil
}

func (m *TCPCompete) run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	return m.simulate(ctx, p, seed, nil)
}

// simulate runs a scenario. Flow i starts at starts[i] when starts is
// given (tests set the start times), otherwise at a time drawn from the
// scenario's "tcp-compete/start" stream.
func (m *TCPCompete) simulate(ctx context.Context, p vocab.Params, seed uint64, starts []des.Time) (vocab.Result, error) {
	sc, err := prepareCompete(p, seed, starts)
	if err != nil {
		return vocab.Result{}, err
	}
	if err := sc.run.s.Run(ctx, sc.c.duration); err != nil {
		return vocab.Result{}, err
	}
	return m.collect(sc.run, sc.cn, sc.c.rate.BitsPerSecond(), sc.c.duration, sc.c.warmup, sc.bb.limit, sc.bb.lossData)
}

// competeScenario is a scenario built and ready to run for its duration.
type competeScenario struct {
	c   competeConfig
	bb  competeBackbone
	cn  *competeNet
	run *competeRun
}

// prepareCompete builds a scenario's network and flows (simulate).
func prepareCompete(p vocab.Params, seed uint64, starts []des.Time) (competeScenario, error) {
	c, err := decodeCompete(p)
	if err != nil {
		return competeScenario{}, err
	}
	if starts != nil && len(starts) != c.flows {
		panic("models: bug: tcp-compete given start times for another number of flows")
	}
	bb, err := c.backboneOf()
	if err != nil {
		return competeScenario{}, err
	}
	s := des.New()
	net := netsim.New(s, seed)
	var cn *competeNet
	if c.emulate["topology"] {
		cn, err = buildTestbed(net, c.flows, c.rate, c.delay, bb, c.hostJitter)
	} else {
		cn, err = buildDumbbell(net, c, bb)
	}
	if err != nil {
		return competeScenario{}, err
	}
	run, err := c.addFlows(s, net, cn, starts)
	if err != nil {
		return competeScenario{}, err
	}
	return competeScenario{c: c, bb: bb, cn: cn, run: run}, nil
}

// competeBackbone is the backbone a competeConfig asks for: its queue,
// its loss in each direction and the netem limit of a TCLink.
type competeBackbone struct {
	limit         int // packets
	queue         netsim.QueueModel
	loss, ackLoss netsim.LossModel
	lossData      float64 // loss of a 1500-byte packet
	netemLimit    int     // 0 but for backbones tclink and mininet
	// frameOverhead is the header each packet adds at the TCLinks' rate
	// (emulate ethernet: HTB's count of the Ethernet header).
	frameOverhead unit.Bytes
	// htb: the TCLinks are HTB's token bucket (emulate htb).
	htb bool
}

// backboneOf works out the backbone's queue and loss.
func (c competeConfig) backboneOf() (competeBackbone, error) {
	limit, err := c.queue.limit(c.rate, c.delay, c.host.fullPacket())
	if err != nil {
		return competeBackbone{}, fmt.Errorf("models: tcp-compete: %w", err)
	}
	if (c.backbone == "tclink" || c.backbone == "mininet") && c.queue.bdp > 0 {
		limit = mininetNetemLimit(c.queue.bdp, c.rate, c.delay)
	}
	if limit == 0 {
		return competeBackbone{}, fmt.Errorf("models: tcp-compete: the backbone needs a queue limit: queue (packets) or queue_bdp (fraction of the BDP)")
	}
	bb := competeBackbone{limit: limit}
	if bb.queue, err = competeQueue(c.aqm, limit); err != nil {
		return competeBackbone{}, err
	}
	bb.loss, bb.lossData = c.competeLoss()
	if c.backbone == "tclink" || c.backbone == "mininet" {
		if c.aqm != "droptail" {
			return competeBackbone{}, fmt.Errorf("backbone %s takes aqm droptail, not %s: Mininet puts an AQM above netem, which this model does not build; use backbone link for %s", c.backbone, c.aqm, c.aqm)
		}
		bb.netemLimit = limit
	}
	if c.ackLoss || c.emulate["ackloss"] {
		bb.ackLoss = bb.loss
	}
	if c.emulate["ethernet"] {
		bb.frameOverhead = ethHeaderBytes
	}
	bb.htb = c.emulate["htb"]
	return bb, nil
}

// burst is the shaper's bucket of the TCLinks (emulate htb).
func (bb competeBackbone) burst() unit.Bytes {
	if bb.htb {
		return htbCburst
	}
	return 0
}

// mininetNetemLimit is the netem limit, in skbs, that document 002's
// script gives its backbone TCLink for a queue of fraction times the BDP:
// tcp_cc_mn_iperf4.py passes max_queue_size=8.33*(queue/100)*1*v_delay,
// 8.33 being 100 Mbit/s x 1 ms in 1500-byte packets cut to two decimals,
// and Mininet writes it into tc as "limit %d" (mininet/link.py,
// TCIntf.delayCmds), which truncates: 49 skbs at q = 60 % and 45 at
// 55 %, where the nearest packet to the BDP's fraction is 50 and 46. The
// product is taken in the script's order, so that the float64 arithmetic
// is Python's. At another rate the constant scales with it, cut to two
// decimals the same way; at least 1.
func mininetNetemLimit(fraction float64, rate unit.BitRate, delay des.Duration) int {
	perMs := math.Floor(rate.BitsPerSecond()/8/1000/1500*100) / 100 // 8.33 at 100 Mbit/s
	delayMs := float64(delay) / float64(des.Millisecond)
	return max(1, int(perMs*fraction*1*delayMs))
}

// addFlows opens one connection per flow between its sender and receiver
// and schedules its start.
func (c competeConfig) addFlows(s *des.Scheduler, net *netsim.Network, cn *competeNet, starts []des.Time) (*competeRun, error) {
	rcvBuf, sndBuf := c.window, c.window
	if c.emulate["sockbuf"] {
		rcvBuf, sndBuf = testbedBuffers(c.window)
	}
	cfg := c.host.config(rcvBuf, sndBuf)
	isn := net.Streams().New("tcp/isn")
	startRNG := net.Streams().New("tcp-compete/start")
	run := &competeRun{s: s, net: net}
	for i := range c.flows {
		f := &competeFlow{cca: c.algos[i%len(c.algos)]}
		f.sink.Warmup = c.warmup
		id := netsim.FlowID(i + 1)
		a, b := cn.senders[i], cn.receivers[i]
		ctrl, err := cc.New(f.cca, c.host.ccOptions(net.Streams().New(fmt.Sprintf("cc/%d", i)).Uint64()))
		if err != nil {
			return nil, err
		}
		// The receiver sends no data; its controller is never exercised.
		rctrl, _ := cc.New("reno", cc.Options{})
		pa := tcp.NodePort{Net: net, Node: a}
		pb := tcp.NodePort{Net: net, Node: b}
		if f.src, err = tcp.New(s, cfg, ctrl, pa, &f.source, id, a.ID(), b.ID(), isn.Uint32()); err != nil {
			return nil, err
		}
		if f.dst, err = tcp.New(s, cfg, rctrl, pb, &f.sink, id, b.ID(), a.ID(), isn.Uint32()); err != nil {
			return nil, err
		}
		f.src.SetHost(testbedHost(c.emulate))
		f.dst.SetHost(testbedHost(c.emulate))
		f.source.Conn = f.src
		f.source.Size = workload.Unlimited
		f.source.WriteSize = c.host.writeSize
		if err := a.Attach(id, f.src); err != nil {
			return nil, err
		}
		if err := b.Attach(id, f.dst); err != nil {
			return nil, err
		}
		f.dst.Listen()
		f.start = des.Time(des.FromSeconds(float64(i)*c.spacing + c.stagger*startRNG.Float64()))
		if starts != nil {
			f.start = starts[i]
		}
		s.Schedule(f.start, run, 0, uint64(i))
		run.flows = append(run.flows, f)
	}
	return run, nil
}

// buildDumbbell builds the dumbbell of backbones link and tclink: hosts
// behind plain access queues, the backbone's queue (with a netem limit
// for tclink).
func buildDumbbell(net *netsim.Network, c competeConfig, bb competeBackbone) (*competeNet, error) {
	accessQ := netsim.DropTail{Packets: c.accessQueue}
	// Host to router: the host's jitter after its queue; router to host:
	// none.
	fromHost := netsim.LinkConfig{Rate: c.accessRate, Delay: c.accessDelay, Queue: accessQ, Jitter: c.hostJitter}
	toHost := netsim.LinkConfig{Rate: c.accessRate, Delay: c.accessDelay, Queue: accessQ}
	d, err := netsim.NewDumbbell(net, netsim.DumbbellConfig{
		N: c.flows,
		// The sender's data and the receiver's ACKs leave their hosts.
		SenderAccess:   netsim.Hop{Forward: fromHost, Reverse: toHost},
		ReceiverAccess: netsim.Hop{Forward: toHost, Reverse: fromHost},
		Bottleneck: netsim.Hop{
			Forward: netsim.LinkConfig{Rate: c.rate, Delay: c.delay, Queue: bb.queue, Loss: bb.loss, NetemLimit: bb.netemLimit, FrameOverhead: bb.frameOverhead, Shaper: bb.htb, Burst: bb.burst()},
			Reverse: netsim.LinkConfig{Rate: c.rate, Delay: c.delay, Queue: bb.queue, Loss: bb.ackLoss, NetemLimit: bb.netemLimit, FrameOverhead: bb.frameOverhead, Shaper: bb.htb, Burst: bb.burst()},
		},
	})
	if err != nil {
		return nil, err
	}
	cn := &competeNet{senders: d.Senders, receivers: d.Receivers, bottleneck: d.Bottleneck}
	cn.links = append(cn.links, d.Bottleneck, d.BottleneckReverse)
	for _, ls := range [][]*netsim.Link{d.SenderAccess, d.SenderAccessReverse, d.ReceiverAccess, d.ReceiverAccessReverse} {
		cn.links = append(cn.links, ls...)
	}
	return cn, nil
}
