package models

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"context"
	"fmt"
	"math"
	"strings"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
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
// all netem limits; and the Linux hosts' mechanisms, each switched by
// name in emulate: topology, gso (TSO/GSO aggregates that netem counts
// and loses as one skb, acknowledged once), tsq (TCP Small Queues),
// sockbuf (iperf3's 16 MB windows capped at rmem_max/wmem_max) and
// ackloss. The ablation (specs/os-testbed.yaml, docs/os-testbed.md, 60 s,
// 2 replicates) shows which makes which feature of the document's
// figures: gso alone the flat total at q >= 50 % (93 Mbit/s at q = 50 %
// against 47 without it); tsq, with topology and gso, the loss-based
// flows' dominance there (share 0.80 against 0.19 without it) and the
// absence of retransmissions (none per minute against 26,000); sockbuf
// Jain's index of about 1 with 0.2 % loss (0.97 at q = 100 %); and all
// together the BBR take-over below q = 45 % (share 0.98 at q = 30 %). Not
// reproduced: the lossless index at large q (0.85 against the document's
// 0.68; 0.67 without sockbuf, whose cap makes the loss-based flows
// equal) and the total at q = 45-15 %, 13-38 % above the document's
// (TestCompeteTestbedShape pins what is).
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

// Cost is simulated seconds times the bottleneck rate: the packets the
// scenario moves.
func (m *TCPCompete) Cost(p vocab.Params) float64 {
	return p.Float("duration") * p.Float("rate")
}

// Document 002's set-up, the defaults.
const (
	tcRate        = 100e6    // every link, bit/s
	tcDelay       = 0.010    // backbone one-way delay, s
	tcWindow      = 16 << 20 // iperf3 -w 16M
	tcPacket      = 1500     // a full packet (MSS 1460 + 40), the size loss_data is given for
	tcAccessQueue = 1000     // Linux txqueuelen
	tcStagger     = 0.1      // flows start within the first 100 ms
	tcHostJitter  = 120e-6   // 1500 B at 100 Mbit/s
)

// PaperCCAs is document 002's algorithm mix.
const PaperCCAs = "bbr,bbr2,cubic,bic,reno"

const (
	tcGoodput = iota
	tcUtilisation
	tcJainFlows
	tcJainAlgos
	tcRetrans
	tcRTOs
	tcRTOEpisodes
	tcDropsOverflow
	tcDropsCorrupt
	tcDropsAQM
	tcLossData
	tcBackbonePackets
	tcQueueLimit
	tcRTTMean
	tcQueueDelayMean
	tcEvents
	tcFixed // the per-algorithm columns follow
)

func tcpCompeteSchema(algos []string) *vocab.Schema {
	params := []vocab.Param{
		{Name: "flows", Kind: vocab.Int, Default: vocab.I(10), Min: 1, Max: 1000,
			Doc: "number of flows, each with its own sender and receiver host"},
		{Name: "ccas", Kind: vocab.String, Default: vocab.S(PaperCCAs),
			Syntax: func(v string) error { _, err := ParseCCAs(v); return err },
			Doc: "comma-separated congestion controls repeated over the flows in order (10 flows of 5 names: two each); names as in cc: " +
				strings.Join(algos, ", ")},
		{Name: "rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(tcRate), Min: 1e5, Max: 1e11,
			Doc: "rate of the backbone, and of the access links unless access_rate is set"},
		{Name: "delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(tcDelay), Min: 1e-6, Max: 10,
			Doc: "one-way propagation delay of the backbone"},
		{Name: "access_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(0), Min: 0, Max: 1e12,
			Doc: "rate of every access link; 0: the backbone's rate, as document 002's Mininet set-up (ns-3's dumbbell examples use 10 times the bottleneck)"},
		{Name: "access_delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0), Min: 0, Max: 10,
			Doc: "one-way propagation delay of each access link"},
		queueParam(0),
		queueBDPParam(1),
		{Name: "aqm", Kind: vocab.String, Default: vocab.S("droptail"), Choices: []string{"droptail", "red", "codel", "fq_codel"},
			Doc: "backbone queue discipline, each limited to the queue size: DropTail; RED (gentle, thresholds 1/4 and 3/4 of the limit); CoDel (RFC 8289 defaults); FQ-CoDel (RFC 8290 defaults)"},
		{Name: "backbone", Kind: vocab.String, Default: vocab.S("link"), Choices: []string{"link", "tclink", "mininet"},
			Doc: "link: the queue holds the packets waiting for the backbone's transmitter; tclink: the backbone is a Mininet TCLink (an HTB shaper whose leaf is a netem delay line), whose queue limit is netem's, counting the packets being delayed too, so the limit caps the packets in flight on the backbone and its throughput at limit packets per delay; mininet: document 002's Mininet testbed with the mechanisms of emulate (with emulate none it is tclink); tclink and mininet take aqm droptail only, and their random loss stays on the data direction unless ack_loss (or emulate's ackloss)"},
		emulateParam(),
		{Name: "access_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(tcAccessQueue), Min: 1, Max: 1e7,
			Doc: "DropTail limit of every access link (Linux txqueuelen 1000)"},
		{Name: "window", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(tcWindow), Min: 1000, Max: 1 << 30,
			Doc: "socket buffers, receive and send (iperf3 -w)"},
		hostParam("mss"),
		hostParam("iw"),
		hostParam("window_scaling"),
		hostParam("sack"),
		hostParam("limited_transmit"),
		hostParam("delayed_ack"),
		hostParam("min_rto"),
		hostParam("loss_detection"),
		{Name: "duration", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(200), Min: 0.01, Max: 1e5,
			Doc: "simulated time (iperf3 -t)"},
		{Name: "warmup", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0), Min: 0, Max: 1e5,
			Doc: "goodput, goodput_<cca>, utilisation, the Jain indices and the flows' goodput count bytes delivered after this time; the other columns cover the whole run (iperf3 averages over the whole run: 0)"},
		{Name: "stagger", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(tcStagger), Min: 0, Max: 1e4,
			Doc: "flows start at independent uniform times in [0, stagger) (seeded)"},
		{Name: "host_jitter", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(tcHostJitter), Min: 0, Max: 1,
			Doc: "each host's outgoing access link delays each packet, after the link's queue, by a further uniform random time in [0, host_jitter), in order; the default is one 1500-byte packet time at 100 Mbit/s, which removes the phase effects of a deterministic simulation (Floyd and Jacobson 1992); 0 turns it off"},
		{Name: "loss_model", Kind: vocab.String, Default: vocab.S("given"), Choices: []string{"given", "gosnr"},
			Doc: "given: Bernoulli loss of probability loss per packet; gosnr: loss per packet size from gosnr through the calibrated receiver of optical-osnr"},
		{Name: "loss", Kind: vocab.Float, Unit: vocab.Fraction, Default: vocab.F(0), Min: 0, Max: 1,
			Doc: "random packet loss on the backbone in loss_model given (document 002: 0, 0.2, 0.5, 0.8 %)"},
		{Name: "gosnr", Kind: vocab.Float, Unit: vocab.Decibel, Default: vocab.F(25), Min: -20, Max: 80,
			Doc: "generalised OSNR (0.1 nm) of the backbone in loss_model gosnr (document 002: 19.45, 19.15, 18.95 dB)"},
		{Name: "ack_loss", Kind: vocab.Bool, Default: vocab.B(false),
			Doc: "apply the loss process to the ACK direction of the backbone too (per packet size under gosnr)"},
	}
	metrics := []vocab.Metric{
		tcGoodput: {Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond,
			Doc: "application goodput: payload bytes delivered in order to the receiving applications per second after warmup, all flows (iperf3's receiver sum, the throughput of document 002)"},
		tcUtilisation: {Name: "utilisation", Kind: vocab.Float, Doc: "goodput / rate"},
		tcJainFlows: {Name: "jain_flows", Kind: vocab.Float,
			Doc: "Jain's fairness index over the flows' goodputs, (sum x)^2 / (n sum x^2) (Jain, Chiu, Hawe 1984)"},
		tcJainAlgos: {Name: "jain_algorithms", Kind: vocab.Float,
			Doc: "Jain's index over the algorithms present, each represented by the mean goodput of its flows"},
		tcRetrans: {Name: "retrans_segs", Kind: vocab.Int, Unit: vocab.Packet, Doc: "retransmitted segments, all flows (iperf3 Retr)"},
		tcRTOs:    {Name: "rtos", Kind: vocab.Int, Doc: "retransmission timer expiries, all flows"},
		tcRTOEpisodes: {Name: "rto_episodes", Kind: vocab.Int,
			Doc: "sequences of timeouts, all flows: expiries before any back-off (as tcp-bulk's rto_episodes)"},
		tcDropsOverflow: {Name: "drops_overflow", Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "packets dropped by a full queue, all links"},
		tcDropsCorrupt: {Name: "drops_corrupt", Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "packets lost to the random (optical) loss process"},
		tcDropsAQM: {Name: "drops_aqm", Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "packets dropped early by the AQM (RED, CoDel, FQ-CoDel)"},
		tcLossData: {Name: "loss_data", Kind: vocab.Float,
			Doc: "loss probability of a 1500-byte packet on the backbone (the given loss, or the PER at gosnr)"},
		tcBackbonePackets: {Name: "backbone_packets", Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "packets offered to the backbone's data direction (the denominator of its loss)"},
		tcQueueLimit: {Name: "queue_limit", Kind: vocab.Int, Unit: vocab.Packet, Doc: "backbone queue limit"},
		tcRTTMean:    {Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second, Doc: "mean RTT sample, all flows"},
		tcQueueDelayMean: {Name: "queue_delay_mean", Kind: vocab.Float, Unit: vocab.Second,
			Doc: "mean waiting time in the backbone queue (data direction)"},
		tcEvents: {Name: "events", Kind: vocab.Int, Doc: "simulation events processed"},
	}
	for _, a := range algos {
		metrics = append(metrics, vocab.Metric{Name: "goodput_" + columnSafe(a), Kind: vocab.Float, Unit: vocab.BitPerSecond,
			Doc: "summed goodput of the " + a + " flows after warmup; null without such flows"})
	}
	for _, a := range algos {
		metrics = append(metrics, vocab.Metric{Name: "retrans_" + columnSafe(a), Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "retransmitted segments of the " + a + " flows; null without such flows"})
	}
	for _, a := range algos {
		metrics = append(metrics, vocab.Metric{Name: "retrans_rate_" + columnSafe(a), Kind: vocab.Float, Unit: vocab.PerSecond,
			Doc: "retransmitted segments per second per flow of the " + a + " flows: iperf3's Retr of each 1 s interval averaged over the run and the algorithm's flows, the quantity of document 002's Figs. 3, 5, 7 and 9; null without such flows"})
	}
	return &vocab.Schema{
		Name:    "tcp-compete",
		Version: 11, // 11: goodput, goodput_<cca> and the flows' goodput (were throughput, throughput_<cca>, throughput); the queue limit as queue_bdp (was queue) or queue in packets; the host parameters sack, window_scaling and limited_transmit (were always on); 10: queue and loss stored as fractions in queue_frac and loss_frac (were percent in queue_pct, loss_pct); 9: throughput_<cca>, retrans_<cca>, retrans_rate_<cca> of absent algorithms null (not NaN), retrans_<cca> an integer; 8: access_rate; hystart, byte_counting, write_size and one definition of mss, iw, delayed_ack, min_rto, loss_detection (the shared host parameters); 7: backbone mininet and emulate (document 002's testbed); netem limits count skbs; retrans_rate_<algo>; 6: rto_episodes; prr, timestamps, syn_timeout (the shared host options); 5: backbone parameter (Mininet TCLink netem limit); 2: host jitter after the access queue; RACK, SACK kept over timeouts, BBR as Linux; 3: RACK-TLP (RFC 8985) by default; 4: RACK sees reordering only where the wire reorders
		Doc: "N bulk TCP flows of several congestion controls (repeated from a list) over a dumbbell with a shared " +
			"100 Mbit/s, 10 ms backbone whose queue is q % of the BDP (DropTail or AQM), random loss given or from " +
			"gOSNR; total goodput, Jain's index over flows and algorithms, per-algorithm goodput and " +
			"retransmissions (document 002).",
		Params:  append(params, hostParams("prr", "timestamps", "syn_timeout", "hystart", "byte_counting", "write_size", "send_buffer", "ssthresh_basis", "prr_rounding", "grow_on_recovery_exit")...),
		Metrics: metrics,
		Tables: []vocab.Table{
			{Name: "flows", Doc: "one row per flow", Columns: []vocab.Metric{
				{Name: "flow", Kind: vocab.Int},
				{Name: "cca", Kind: vocab.String},
				{Name: "start", Kind: vocab.Float, Unit: vocab.Second, Doc: "when the flow sent its SYN"},
				{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond, Doc: "the flow's application goodput after warmup"},
				{Name: "bytes_delivered", Kind: vocab.Int, Unit: vocab.Byte},
				{Name: "retrans_segs", Kind: vocab.Int, Unit: vocab.Packet},
				{Name: "rtos", Kind: vocab.Int},
				{Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second},
			}},
		},
	}
}

// columnSafe turns an algorithm name into a column-name fragment.
func columnSafe(name string) string {
	return strings.NewReplacer("-", "_", "+", "p", ".", "_").Replace(name)
}

// ParseCCAs splits a ccas list and checks every name against cc.
func ParseCCAs(list string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if _, err := cc.New(f, cc.Options{}); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no congestion control in %q", list)
	}
	return out, nil
}

// Jain returns Jain's fairness index (sum x)^2 / (n sum x^2) of xs
// (Jain, Chiu and Hawe, DEC-TR-301, 1984): 1 when all are equal, 1/n when
// one takes everything. It is NaN for no values or all zeros.
func Jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if len(xs) == 0 || s2 == 0 {
		return math.NaN()
	}
	return s * s / (float64(len(xs)) * s2)
}

// competeLoss returns the loss process of the backbone and the loss of a
// 1500-byte packet under it.
func competeLoss(p vocab.Params) (netsim.LossModel, float64, error) {
	switch m := p.Str("loss_model"); m {
	case "given":
		l := p.Float("loss")
		if l == 0 {
			return nil, 0, nil
		}
		return netsim.Bernoulli{P: l}, l, nil
	case "gosnr":
		// The receiver and line code of optical-osnr's defaults, the
		// calibration to document 002's three loss points.
		rx := phy.Receiver{Modulation: phy.DPQPSK, SymbolRate: 32e9, Penalty: phy.Document002Penalty}
		ber := rx.BER(phy.FromDB(p.Float("gosnr")), phy.RefBandwidth)
		per := func(size int) float64 { return phy.PERExact(ber, phy.LineBits(float64(size), true)) }
		return netsim.PER{Func: per}, per(tcPacket), nil
	default:
		return nil, 0, fmt.Errorf("unknown loss_model %q (want given or gosnr)", m)
	}
}

// competeQueue returns the backbone queue: limit packets of the chosen
// discipline.
func competeQueue(aqm string, limit int) (netsim.QueueModel, error) {
	switch aqm {
	case "droptail":
		return netsim.DropTail{Packets: limit}, nil
	case "red":
		// Floyd's guideline max_th = 3 min_th, both inside the buffer.
		return netsim.RED{MinTh: float64(limit) / 4, MaxTh: float64(limit) * 3 / 4, Gentle: true, LimitPackets: limit}, nil
	case "codel":
		return netsim.CoDel{Limit: limit}, nil
	case "fq_codel":
		return netsim.FQCoDel{Limit: limit}, nil
	}
	return nil, fmt.Errorf("unknown aqm %q", aqm)
}

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
	algos, err := ParseCCAs(p.Str("ccas"))
	if err != nil {
		return vocab.Result{}, err
	}
	n := int(p.Int("flows"))
	rate := p.Float("rate")
	delay := des.FromSeconds(p.Float("delay"))
	duration := des.Time(des.FromSeconds(p.Float("duration")))
	warmup := des.Time(des.FromSeconds(p.Float("warmup")))
	if warmup >= duration {
		return vocab.Result{}, fmt.Errorf("warmup %v must be shorter than duration %v", warmup, duration)
	}
	if starts != nil && len(starts) != n {
		panic("models: bug: tcp-compete given start times for another number of flows")
	}
	limit, err := queueLimit(p, rate, delay)
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: tcp-compete: %w", err)
	}
	if limit == 0 {
		return vocab.Result{}, fmt.Errorf("models: tcp-compete: the backbone needs a queue limit: queue (packets) or queue_bdp (fraction of the BDP)")
	}
	lim := netsim.Limit{Packets: limit}
	q, err := competeQueue(p.Str("aqm"), lim.Packets)
	if err != nil {
		return vocab.Result{}, err
	}
	loss, lossData, err := competeLoss(p)
	if err != nil {
		return vocab.Result{}, err
	}
	netemLimit := 0
	backbone := p.Str("backbone")
	emulate := map[string]bool{}
	if backbone == "tclink" || backbone == "mininet" {
		if aqm := p.Str("aqm"); aqm != "droptail" {
			return vocab.Result{}, fmt.Errorf("backbone %s takes aqm droptail, not %s: Mininet puts an AQM above netem, which this model does not build; use backbone link for %s", backbone, aqm, aqm)
		}
		netemLimit = lim.Packets
	}
	if backbone == "mininet" {
		if emulate, err = parseEmulate(p.Str("emulate")); err != nil {
			return vocab.Result{}, err
		}
	}
	var ackLoss netsim.LossModel
	if p.Bool("ack_loss") || emulate["ackloss"] {
		ackLoss = loss
	}

	s := des.New()
	net := netsim.New(s, seed)
	jitter := des.FromSeconds(p.Float("host_jitter"))
	var cn *competeNet
	if emulate["topology"] {
		cn, err = buildTestbed(net, n, unit.BitRate(rate), delay, netemLimit, loss, ackLoss, jitter)
	} else {
		cn, err = buildDumbbell(net, p, n, q, delay, netemLimit, loss, ackLoss, jitter)
	}
	if err != nil {
		return vocab.Result{}, err
	}
	rcvBuf, sndBuf := unit.Bytes(p.Int("window")), unit.Bytes(p.Int("window"))
	if emulate["sockbuf"] {
		rcvBuf, sndBuf = testbedBuffers(unit.Bytes(p.Int("window")))
	}
	cfg := tcp.Config{
		MSS:             unit.Bytes(p.Int("mss")),
		InitialWindow:   int(p.Int("iw")),
		RcvBuf:          rcvBuf,
		SndBuf:          sndBuf,
		WindowScaling:   p.Bool("window_scaling"),
		SACK:            p.Bool("sack"),
		DelayedACK:      p.Bool("delayed_ack"),
		MinRTO:          des.FromSeconds(p.Float("min_rto")),
		LimitedTransmit: p.Bool("limited_transmit"),
		Recovery:        tcp.RecoveryNewReno,
		LossDetection:   lossDetection(p.Str("loss_detection")),
	}
	if cfg.SACK {
		cfg.Recovery = sackRecovery(p.Bool("prr"))
	}
	cfg = withHostOptions(cfg, p)
	isn := net.Streams().New("tcp/isn")
	startRNG := net.Streams().New("tcp-compete/start")
	stagger := p.Float("stagger")
	run := &competeRun{s: s}
	for i := range n {
		f := &competeFlow{cca: algos[i%len(algos)]}
		f.sink.Warmup = warmup
		id := netsim.FlowID(i + 1)
		a, b := cn.senders[i], cn.receivers[i]
		ctrl, err := cc.New(f.cca, ccOptions(p, net.Streams().New(fmt.Sprintf("cc/%d", i)).Uint64()))
		if err != nil {
			return vocab.Result{}, err
		}
		// The receiver sends no data; its controller is never exercised.
		rctrl, _ := cc.New("reno", cc.Options{})
		pa := tcp.NodePort{Net: net, Node: a}
		pb := tcp.NodePort{Net: net, Node: b}
		if f.src, err = tcp.New(s, cfg, ctrl, pa, &f.source, id, a.ID(), b.ID(), isn.Uint32()); err != nil {
			return vocab.Result{}, err
		}
		if f.dst, err = tcp.New(s, cfg, rctrl, pb, &f.sink, id, b.ID(), a.ID(), isn.Uint32()); err != nil {
			return vocab.Result{}, err
		}
		f.src.SetHost(testbedHost(emulate))
		f.dst.SetHost(testbedHost(emulate))
		f.source.Conn = f.src
		f.source.Size = workload.Unlimited
		f.source.WriteSize = unit.Bytes(p.Int("write_size"))
		if err := a.Attach(id, f.src); err != nil {
			return vocab.Result{}, err
		}
		if err := b.Attach(id, f.dst); err != nil {
			return vocab.Result{}, err
		}
		f.dst.Listen()
		f.start = des.Time(des.FromSeconds(stagger * startRNG.Float64()))
		if starts != nil {
			f.start = starts[i]
		}
		s.Schedule(f.start, run, 0, uint64(i))
		run.flows = append(run.flows, f)
	}
	if err := s.Run(ctx, duration); err != nil {
		return vocab.Result{}, err
	}
	return m.collect(run, cn, rate, duration, warmup, lim.Packets, lossData)
}

// buildDumbbell builds the dumbbell of backbones link and tclink: hosts
// behind plain access queues, the backbone's queue (with a netem limit
// for tclink).
func buildDumbbell(net *netsim.Network, p vocab.Params, n int, q netsim.QueueModel, delay des.Duration, netemLimit int, loss, ackLoss netsim.LossModel, jitter des.Duration) (*competeNet, error) {
	rate := unit.BitRate(p.Float("rate"))
	accessQ := netsim.DropTail{Packets: int(p.Int("access_queue"))}
	adelay := des.FromSeconds(p.Float("access_delay"))
	arate := rate
	if a := p.Float("access_rate"); a > 0 {
		arate = unit.BitRate(a)
	}
	// Host to router: the host's jitter after its queue; router to host:
	// none.
	fromHost := netsim.LinkConfig{Rate: arate, Delay: adelay, Queue: accessQ, Jitter: jitter}
	toHost := netsim.LinkConfig{Rate: arate, Delay: adelay, Queue: accessQ}
	d, err := netsim.NewDumbbell(net, netsim.DumbbellConfig{
		N: n,
		// The sender's data and the receiver's ACKs leave their hosts.
		SenderAccess:   netsim.Hop{Forward: fromHost, Reverse: toHost},
		ReceiverAccess: netsim.Hop{Forward: toHost, Reverse: fromHost},
		Bottleneck: netsim.Hop{
			Forward: netsim.LinkConfig{Rate: rate, Delay: delay, Queue: q, Loss: loss, NetemLimit: netemLimit},
			Reverse: netsim.LinkConfig{Rate: rate, Delay: delay, Queue: q, Loss: ackLoss, NetemLimit: netemLimit},
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

// collect turns a finished run into the main row and the per-flow rows.
func (m *TCPCompete) collect(run *competeRun, cn *competeNet, rate float64, duration, warmup des.Time, limit int, lossData float64) (vocab.Result, error) {
	span := duration.Sub(warmup).Seconds()
	nAlg := len(m.algos)
	groupThr := make([]float64, nAlg)
	groupRetr := make([]float64, nAlg)
	groupN := make([]int, nAlg)
	index := make(map[string]int, nAlg)
	for i, a := range m.algos {
		index[a] = i
	}
	var thr []float64
	var total float64
	var retr, rtos, episodes, rttN int64
	var rttSum des.Duration
	flows := make([][]vocab.Value, len(run.flows))
	for i, f := range run.flows {
		if err := f.sink.Check(f.source.Size, false); err != nil {
			return vocab.Result{}, fmt.Errorf("flow %d: %w", i, err)
		}
		st := f.src.Stats
		x := float64(f.sink.AfterWarmup) * 8 / span
		thr = append(thr, x)
		total += x
		retr += st.RetransSegs
		rtos += st.RTOs
		episodes += st.FirstRTOs
		rttN += st.RTTSamples
		rttSum += st.RTTSum
		k, ok := index[f.cca]
		if !ok {
			panic("models: bug: algorithm " + f.cca + " accepted by cc.New but missing from cc.Names")
		}
		groupThr[k] += x
		groupRetr[k] += float64(st.RetransSegs)
		groupN[k]++
		rtt := math.NaN()
		if st.RTTSamples > 0 {
			rtt = float64(st.RTTSum) / float64(st.RTTSamples) / 1e9
		}
		flows[i] = []vocab.Value{
			vocab.I(int64(i)), vocab.S(f.cca), vocab.F(f.start.Seconds()), vocab.F(x),
			vocab.I(int64(f.sink.Got)), vocab.I(st.RetransSegs), vocab.I(st.RTOs), vocab.F(rtt),
		}
	}
	var means []float64
	for k := range m.algos {
		if groupN[k] > 0 {
			means = append(means, groupThr[k]/float64(groupN[k]))
		}
	}
	var overflow, corrupt, aqm int64
	for _, l := range cn.links {
		st := l.Stats()
		overflow += st.Drops[netsim.DropOverflow]
		corrupt += st.Drops[netsim.DropCorrupt]
		aqm += st.Drops[netsim.DropAQM]
	}
	bst := cn.bottleneck.Stats()
	rttMean := math.NaN()
	if rttN > 0 {
		rttMean = float64(rttSum) / float64(rttN) / 1e9
	}
	out := make([]vocab.Value, tcFixed+3*nAlg)
	out[tcGoodput] = vocab.F(total)
	out[tcUtilisation] = vocab.F(total / rate)
	out[tcJainFlows] = vocab.F(Jain(thr))
	out[tcJainAlgos] = vocab.F(Jain(means))
	out[tcRetrans] = vocab.I(retr)
	out[tcRTOs] = vocab.I(rtos)
	out[tcRTOEpisodes] = vocab.I(episodes)
	out[tcDropsOverflow] = vocab.I(overflow)
	out[tcDropsCorrupt] = vocab.I(corrupt)
	out[tcDropsAQM] = vocab.I(aqm)
	out[tcLossData] = vocab.F(lossData)
	out[tcBackbonePackets] = vocab.I(bst.Sent)
	out[tcQueueLimit] = vocab.I(int64(limit))
	out[tcRTTMean] = vocab.F(rttMean)
	out[tcQueueDelayMean] = vocab.F(bst.QueueDelayMean.Seconds())
	out[tcEvents] = vocab.I(int64(run.s.Processed()))
	for k := range m.algos {
		// Null, not NaN, for an algorithm not in the run: not applicable.
		out[tcFixed+k], out[tcFixed+nAlg+k], out[tcFixed+2*nAlg+k] = vocab.Value{}, vocab.Value{}, vocab.Value{}
		if groupN[k] > 0 {
			out[tcFixed+k], out[tcFixed+nAlg+k] = vocab.F(groupThr[k]), vocab.I(int64(groupRetr[k]))
			out[tcFixed+2*nAlg+k] = vocab.F(groupRetr[k] / float64(groupN[k]) / duration.Seconds())
		}
	}
	return vocab.Result{Metrics: out, Tables: [][][]vocab.Value{flows}}, nil
}
