package models

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"context"
	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
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

// Cost is simulated seconds times link rate times channels.
func (m *TCPBulk) Cost(p vocab.Params) float64 {
	return p.Float("duration") * p.Float("rate") * float64(p.Int("channels"))
}

// tcpLinkParams are the parameters tcp-bulk and tcp-transfer share.
func tcpLinkParams() []vocab.Param {
	return append([]vocab.Param{
		{Name: "rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(1e9), Min: 1e3, Max: 1e12,
			Doc: "link rate (per channel)"},
		{Name: "delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0.0533), Min: 0, Max: 10,
			Doc: "one-way propagation delay"},
		queueParam(0),
		queueBDPParam(0),
		hostParam("mss"),
		{Name: "window", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(65535), Min: 1000, Max: 1 << 30,
			Doc: "receive buffer: the largest window advertised (65535 caps it without window scaling)"},
		hostParam("window_scaling"),
		hostParam("sack"),
		hostParam("iw"),
		hostParam("delayed_ack"),
		hostParam("limited_transmit"),
		hostParam("min_rto"),
		hostParam("loss_detection"),
		{Name: "cca", Kind: vocab.String, Default: vocab.S("newreno"), Choices: cc.Names(),
			Doc: "congestion control (engine/tcp/cc): reno uses RFC 5681 loss recovery, every other controller RFC 6582 NewReno recovery, or RFC 6675 with sack"},
		{Name: "per", Kind: vocab.Float, Default: vocab.F(0), Min: 0, Max: 1,
			Doc: "packet error rate of the data direction (used when ber is 0)"},
		{Name: "ber", Kind: vocab.Float, Default: vocab.F(0), Min: 0, Max: 0.5,
			Doc: "bit error rate of the data direction, turned into a PER per packet size (64B/66B coded)"},
		{Name: "per_formula", Kind: vocab.String, Default: vocab.S("exact"), Choices: []string{"exact", "worst"},
			Doc: "BER to PER: exact 1-(1-BER)^bits or the worst-case linear bound (document 000 Eq. 8)"},
	}, hostParams("prr", "timestamps", "syn_timeout", "hystart", "byte_counting", "write_size", "send_buffer", "ssthresh_basis", "prr_rounding", "grow_on_recovery_exit")...)
}

func tcpBulkSchema() *vocab.Schema {
	params := append(tcpLinkParams(),
		vocab.Param{Name: "duration", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(10), Min: 0.001, Max: 1e5,
			Doc: "simulated time"},
		vocab.Param{Name: "warmup", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0), Min: 0, Max: 1e5,
			Doc: "goodput counts bytes delivered from this time on; 0, the default, counts the whole run (a warm-up is asked for, never implied)"},
		vocab.Param{Name: "size", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(0), Min: 0, Max: 1 << 50,
			Doc: "bytes each flow sends; 0 sends for the whole duration"},
		vocab.Param{Name: "flows", Kind: vocab.Int, Default: vocab.I(1), Min: 1, Max: 10000, Doc: "number of TCP flows"},
		vocab.Param{Name: "channels", Kind: vocab.Int, Default: vocab.I(1), Min: 1, Max: 64,
			Doc: "parallel channels (wavelengths), each at rate"},
		vocab.Param{Name: "striping", Kind: vocab.Bool, Default: vocab.B(true),
			Doc: "with several channels, stripe packets round-robin (true) or bind each flow to one channel"},
		vocab.Param{Name: "sample_interval", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0), Min: 0, Max: 1e5,
			Doc: "period of the cwnd/ssthresh/RTT time series; 0 writes none"},
		vocab.Param{Name: "ssthresh", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(0), Min: 0, Max: 1 << 40,
			Doc: "initial slow-start threshold; 0 keeps the controller's (65535 is document 000's conventional 65 KB SST)"},
		vocab.Param{Name: "loss_model", Kind: vocab.String, Default: vocab.S("given"), Choices: []string{"given", "fso"},
			Doc: "given: per or ber as set; fso: BER of each channel from the FSO link budget of document 000 (Table 1, Eqs. 1-7) at distance and the channel's rate, PER per packet size in both directions"},
		vocab.Param{Name: "distance", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(0), Min: 0, Max: 1e9,
			Doc: "inter-satellite distance; when > 0 the one-way delay is distance/c (c of constants) and delay is ignored"},
		vocab.Param{Name: "detection", Kind: vocab.String, Default: vocab.S("auto"), Choices: []string{"auto", "direct", "coherent"},
			Doc: "fso detection: direct (thermal noise), coherent (shot noise), or auto: direct below 20,000 km and coherent above, as document 000 section 6.1 advises"},
		vocab.Param{Name: "constants", Kind: vocab.String, Default: vocab.S("codata"), Choices: []string{"codata", "paper"},
			Doc: "physical constants of the fso budget and of distance/c: CODATA 2018 or document 000 Table 1 as printed"},
		vocab.Param{Name: "ber_formula", Kind: vocab.String, Default: vocab.S("eq7"), Choices: []string{"eq7", "q"},
			Doc: "fso BER from SNR: eq7 = exp(-SNR/2)/sqrt(2 pi SNR) (document 000 Eq. 7) or q = Q(sqrt(SNR))"},
		vocab.Param{Name: "channel_spacing", Kind: vocab.Float, Unit: vocab.Meter, Default: vocab.F(0.8e-9), Min: 0, Max: 100e-9,
			Doc: "fso wavelength spacing of parallel channels around 1550 nm (0.8 nm is the ITU-T G.694.1 100 GHz grid), so each channel has its own BER"},
		vocab.Param{Name: "trace_packets", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(0), Min: 0, Max: 1e6,
			Doc: "with striping over several channels, record the first this many striped packets in the stripes table"},
	)
	return &vocab.Schema{
		Name:    "tcp-bulk",
		Version: 11, // 11: the wire rate is wire_rate (was throughput); 10: timeseries ssthresh null while infinite (was -1); 9: t0, completion and response times null where not applicable (was NaN); 8: warmup defaults to 0 (was 1 s); the shared host options prr, timestamps, syn_timeout, hystart, byte_counting, write_size, loss_detection dupthresh-only; 7: limited_transmit parameter, t0 metric; 6: rto metric (Padhye's T0); 4: RACK finds lost retransmissions, SACK state kept over timeouts, BBR as Linux; 5: RACK sees reordering only where the wire reorders
		Doc: "Bulk TCP flows (any congestion controller of engine/tcp/cc, optional SACK and window scaling) over a link or parallel channels with " +
			"random loss; goodput after warm-up, retransmissions, recoveries, RTT and queueing delay.",
		Params:  params,
		Metrics: append(tcpMetrics(), bulkMetrics()...),
		Tables: []vocab.Table{
			{Name: "flows", Doc: "one row per flow", Columns: []vocab.Metric{
				{Name: "flow", Kind: vocab.Int},
				{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond},
				{Name: "bytes_delivered", Kind: vocab.Int, Unit: vocab.Byte},
				{Name: "retrans_segs", Kind: vocab.Int, Unit: vocab.Packet},
				{Name: "fast_recoveries", Kind: vocab.Int},
				{Name: "rtos", Kind: vocab.Int},
				{Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second},
				{Name: "completion_time", Kind: vocab.Float, Unit: vocab.Second},
			}},
			{Name: "timeseries", Doc: "cwnd, ssthresh and smoothed RTT of every flow every sample_interval", Columns: []vocab.Metric{
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second},
				{Name: "flow", Kind: vocab.Int},
				{Name: "cwnd", Kind: vocab.Int, Unit: vocab.Byte},
				{Name: "ssthresh", Kind: vocab.Int, Unit: vocab.Byte, Doc: "slow-start threshold; null while there is none: the initial infinite one (no loss yet, no ssthresh parameter) or before the connection opens"},
				{Name: "srtt", Kind: vocab.Float, Unit: vocab.Second},
			}},
			{Name: "stripes", Doc: "wavelength striping trace: the first trace_packets packets spread round-robin over the channels, " +
				"one time slot per round (document 000 Fig. 2)", Columns: []vocab.Metric{
				{Name: "slot", Kind: vocab.Int, Doc: "time slot: the round of the round-robin, one packet per wavelength"},
				{Name: "wavelength", Kind: vocab.Int, Doc: "channel index"},
				{Name: "flow", Kind: vocab.Int, Doc: "source flow, 0-based as in the flows table"},
				{Name: "packet", Kind: vocab.Int, Doc: "packet number within its flow, from 1 (the SYN)"},
				{Name: "time", Kind: vocab.Float, Unit: vocab.Second, Doc: "when the packet was handed to its channel"},
				{Name: "size", Kind: vocab.Int, Unit: vocab.Byte, Doc: "size on the wire before line coding"},
			}},
		},
	}
}

// The positions of tcp-bulk's own metrics after the shared ones.
const (
	bmBER = tmCount + iota
	bmPERData
	bmPERAck
	bmOneWayDelay
	bmCount
)

func bulkMetrics() []vocab.Metric {
	return []vocab.Metric{
		{Name: "link_ber", Kind: vocab.Float,
			Doc: "bit error rate of the data direction: the given ber, or the mean over the channels of the fso budget's"},
		{Name: "per_data", Kind: vocab.Float,
			Doc: "packet error rate of a full data segment (mss + 40 header bytes), mean over the channels (the given per if set)"},
		{Name: "per_ack", Kind: vocab.Float,
			Doc: "packet error rate of a 40-byte ACK on the return channel (0 unless loss_model is fso)"},
		{Name: "one_way_delay", Kind: vocab.Float, Unit: vocab.Second,
			Doc: "propagation delay used: delay, or distance/c"},
	}
}

// The metric positions shared by tcp-bulk and tcp-transfer.
const (
	tmGoodput = iota
	tmWireRate
	tmBytesDelivered
	tmRetransSegs
	tmRetransBytes
	tmFastRecoveries
	tmRTOs
	tmRTOEpisodes
	tmDropsOverflow
	tmDropsCorrupt
	tmRTTMean
	tmRTTMax
	tmRTO
	tmT0
	tmQueueDelayMean
	tmQueueDelayMax
	tmCompletion
	tmResponse
	tmPktsSent
	tmPktsDelivered
	tmPktsDropped
	tmPktsInFlight
	tmCount
)

func tcpMetrics() []vocab.Metric {
	m := make([]vocab.Metric, tmCount)
	m[tmGoodput] = vocab.Metric{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond,
		Doc: "application goodput: payload bytes delivered in order to the receiving applications per second, all flows, from warmup on (0 unless asked: the whole run)"}
	m[tmWireRate] = vocab.Metric{Name: "wire_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond,
		Doc: "bits transmitted on the data-direction links per second over the whole run, warmup not applied: headers, options and retransmissions included (goodput is the application's rate)"}
	m[tmBytesDelivered] = vocab.Metric{Name: "bytes_delivered", Kind: vocab.Int, Unit: vocab.Byte}
	m[tmRetransSegs] = vocab.Metric{Name: "retrans_segs", Kind: vocab.Int, Unit: vocab.Packet}
	m[tmRetransBytes] = vocab.Metric{Name: "retrans_bytes", Kind: vocab.Int, Unit: vocab.Byte}
	m[tmFastRecoveries] = vocab.Metric{Name: "fast_recoveries", Kind: vocab.Int}
	m[tmRTOs] = vocab.Metric{Name: "rtos", Kind: vocab.Int, Doc: "retransmission timer expiries"}
	m[tmRTOEpisodes] = vocab.Metric{Name: "rto_episodes", Kind: vocab.Int,
		Doc: "sequences of timeouts: expiries before any back-off (Padhye et al. 1998's timeout loss indications)"}
	m[tmDropsOverflow] = vocab.Metric{Name: "drops_overflow", Kind: vocab.Int, Unit: vocab.Packet}
	m[tmDropsCorrupt] = vocab.Metric{Name: "drops_corrupt", Kind: vocab.Int, Unit: vocab.Packet}
	m[tmRTTMean] = vocab.Metric{Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second}
	m[tmRTTMax] = vocab.Metric{Name: "rtt_max", Kind: vocab.Float, Unit: vocab.Second}
	m[tmRTO] = vocab.Metric{Name: "rto", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "retransmission timeout at the end of the run (RFC 6298, with any back-off), mean over flows"}
	m[tmT0] = vocab.Metric{Name: "t0", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "mean duration of the first timeout of each sequence of timeouts (the timer's run from its last arming to expiry, before back-off), all flows: the T0 of Padhye et al. 1998; null without timeouts (not applicable)"}
	m[tmQueueDelayMean] = vocab.Metric{Name: "queue_delay_mean", Kind: vocab.Float, Unit: vocab.Second}
	m[tmQueueDelayMax] = vocab.Metric{Name: "queue_delay_max", Kind: vocab.Float, Unit: vocab.Second}
	m[tmCompletion] = vocab.Metric{Name: "completion_time", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "from the first SYN until the last flow's data and FIN are acknowledged; null if unfinished"}
	m[tmResponse] = vocab.Metric{Name: "response_time", Kind: vocab.Float, Unit: vocab.Second,
		Doc: "from the first SYN until the last byte reaches the receiving application; null if unfinished"}
	m[tmPktsSent] = vocab.Metric{Name: "packets_sent", Kind: vocab.Int, Unit: vocab.Packet, Doc: "offered to links"}
	m[tmPktsDelivered] = vocab.Metric{Name: "packets_delivered", Kind: vocab.Int, Unit: vocab.Packet}
	m[tmPktsDropped] = vocab.Metric{Name: "packets_dropped", Kind: vocab.Int, Unit: vocab.Packet}
	m[tmPktsInFlight] = vocab.Metric{Name: "packets_in_flight", Kind: vocab.Int, Unit: vocab.Packet,
		Doc: "queued or on the wire at the end: sent = delivered + dropped + in flight"}
	return m
}

// tcpRunConfig is everything a TCP scenario needs, read from Params.
type tcpRunConfig struct {
	rate      float64
	delay     des.Duration
	queue     int
	conn      tcp.Config
	cca       string
	per, ber  float64
	worst     bool
	duration  des.Time
	warmup    des.Time
	size      unit.Bytes
	flows     int
	channels  int
	striping  bool
	sample    des.Duration
	noHandshk bool
	// fwdQueue, when set, replaces the DropTail of the data direction
	// (tcp-transfer's RED gateway at the bottleneck).
	fwdQueue netsim.QueueModel

	// Set by tcp-bulk only; zero values keep the shared behaviour.
	chanLoss []netsim.LossModel // per-channel forward loss, overriding loss()
	revLoss  netsim.LossModel   // loss on the reverse (ACK) link
	ssthresh unit.Bytes         // initial ssthresh; 0 keeps the controller's
	params   vocab.Params       // for the controllers' options (ccOptions)
	trace    int                // striped packets to record
}

func readTCPConfig(p vocab.Params) tcpRunConfig {
	c := tcpRunConfig{
		rate:  p.Float("rate"),
		delay: des.FromSeconds(p.Float("delay")),
		cca:   p.Str("cca"),
		per:   p.Float("per"),
		ber:   p.Float("ber"),
		worst: p.Str("per_formula") == "worst",
	}
	c.conn = tcp.Config{
		MSS:             unit.Bytes(p.Int("mss")),
		InitialWindow:   int(p.Int("iw")),
		RcvBuf:          unit.Bytes(p.Int("window")),
		SndBuf:          1 << 40, // the application is never limited by the send buffer
		WindowScaling:   p.Bool("window_scaling"),
		SACK:            p.Bool("sack"),
		DelayedACK:      p.Bool("delayed_ack"),
		MinRTO:          des.FromSeconds(p.Float("min_rto")),
		LimitedTransmit: p.Bool("limited_transmit"),
		Recovery:        tcp.RecoveryNewReno,
	}
	if c.cca == "reno" {
		c.conn.Recovery = tcp.RecoveryReno
	}
	if c.conn.SACK {
		c.conn.Recovery = sackRecovery(p.Bool("prr"))
	}
	c.conn.LossDetection = lossDetection(p.Str("loss_detection"))
	c.conn = withHostOptions(c.conn, p)
	c.params = p
	return c
}

// lossDetectionChoices are the values of the loss_detection parameter.
var lossDetectionChoices = []string{"dupthresh", "rack-tlp", "dupthresh-only"}

const lossDetectionDoc = "loss detection: dupthresh, RFC 5681/6675's duplicate-ACK threshold (RACK only for lost retransmissions); " +
	"rack-tlp, RFC 8985's RACK for every segment and Tail Loss Probes, Linux's default since 4.18 (needs sack, else dupthresh); " +
	"dupthresh-only, the threshold without RACK, so a lost retransmission waits for the timer (ns-3 up to 3.37)"

// lossDetection maps a loss_detection value to the sender's setting; the
// schema's choices have been checked.
func lossDetection(v string) tcp.LossDetection {
	switch v {
	case "rack-tlp":
		return tcp.LossRACKTLP
	case "dupthresh-only":
		return tcp.LossDupThreshOnly
	}
	return tcp.LossDupThresh
}

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

func (c *tcpRunConfig) loss() netsim.LossModel {
	switch {
	case c.ber > 0:
		ber, worst := c.ber, c.worst
		return netsim.PER{Func: func(size int) float64 { return phy.PER(ber, size, worst) }}
	case c.per > 0:
		return netsim.Bernoulli{P: c.per}
	}
	return nil
}

func buildTCP(c tcpRunConfig, seed uint64) (*tcpScenario, error) {
	s := des.New()
	net := netsim.New(s, seed)
	var q netsim.QueueModel
	if c.queue > 0 {
		q = netsim.DropTail{Packets: c.queue}
	}
	fwd := netsim.LinkConfig{Rate: unit.BitRate(c.rate), Delay: c.delay, Queue: q, Loss: c.loss()}
	if c.fwdQueue != nil {
		fwd.Queue = c.fwdQueue
	}
	rev := netsim.LinkConfig{Rate: unit.BitRate(c.rate), Delay: c.delay, Queue: q, Loss: c.revLoss}
	sc := &tcpScenario{s: s, net: net}
	if len(c.chanLoss) > 0 {
		fwd.Loss = c.chanLoss[0]
	}
	var a, b *netsim.Node
	if c.channels <= 1 {
		path, err := netsim.NewPath(net, []netsim.Hop{{Forward: fwd, Reverse: rev}})
		if err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		a, b = path.Sender, path.Receiver
		sc.forward = path.Forward
		sc.all = append(append(sc.all, path.Forward...), path.Reverse...)
	} else {
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
		par, err := netsim.NewParallel(net, chans, rev, mode)
		if err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		a, b = par.A, par.B
		if c.striping && c.trace > 0 {
			st := &stripeTrace{links: par.Channels, now: s.Now, limit: c.trace}
			a.SetRoute(b, st)
			sc.stripes = st
		}
		sc.forward = par.Channels
		sc.all = append(append(sc.all, par.Channels...), par.Reverse)
		if fc, ok := par.Egress.(*netsim.FlowChannels); ok {
			for i := 0; i < c.flows; i++ {
				if err := fc.Bind(netsim.FlowID(i+1), i%c.channels); err != nil {
					return nil, fmt.Errorf("models: %w", err)
				}
			}
		}
	}
	rng := net.Streams().New("tcp/isn")
	cfg := c.conn
	cfg.NoHandshake = c.noHandshk
	for i := 0; i < c.flows; i++ {
		f := &flow{}
		f.sink.Warmup = des.Time(c.warmup)
		id := netsim.FlowID(i + 1)
		ctrlA, err := cc.New(c.cca, ccOptions(c.params, net.Streams().New(fmt.Sprintf("cc/%d", i)).Uint64()))
		if err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		if c.ssthresh > 0 {
			ctrlA = initialSsthresh{Controller: ctrlA, bytes: c.ssthresh}
		}
		ctrlB, _ := cc.New(c.cca, cc.Options{})
		isnA, isnB := rng.Uint32(), rng.Uint32()
		if f.src, err = tcp.New(s, cfg, ctrlA, tcp.NodePort{Net: net, Node: a}, &f.source, id, a.ID(), b.ID(), isnA); err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		if f.dst, err = tcp.New(s, cfg, ctrlB, tcp.NodePort{Net: net, Node: b}, &f.sink, id, b.ID(), a.ID(), isnB); err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		f.source.Conn = f.src
		f.source.Size = c.size
		f.source.WriteSize = unit.Bytes(c.params.Int("write_size"))
		f.source.Close = c.size < workload.Unlimited
		if err := a.Attach(id, f.src); err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		if err := b.Attach(id, f.dst); err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		f.dst.Listen()
		sc.flows = append(sc.flows, f)
	}
	if c.sample > 0 {
		sc.interval = c.sample
		s.Schedule(0, sc, 0, 0)
	}
	return sc, nil
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

// metrics fills the shared metric columns.
func (sc *tcpScenario) metrics(c tcpRunConfig, elapsed des.Time) ([]vocab.Value, error) {
	out := make([]vocab.Value, tmCount)
	var delivered, after unit.Bytes
	var st tcp.Stats
	rtoSum := 0.0
	completion, response := 0.0, 0.0
	finished := true
	for _, f := range sc.flows {
		if err := f.sink.Check(f.source.Size, f.source.Finished()); err != nil {
			return nil, fmt.Errorf("models: flow %d: %w", f.src.Flow(), err)
		}
		delivered += f.sink.Got
		after += f.sink.AfterWarmup
		fs := f.src.Stats
		st.RetransSegs += fs.RetransSegs
		st.RetransBytes += fs.RetransBytes
		st.FastRecoveries += fs.FastRecoveries
		st.RTOs += fs.RTOs
		st.FirstRTOs += fs.FirstRTOs
		st.FirstRTOTime += fs.FirstRTOTime
		st.RTTSamples += fs.RTTSamples
		st.RTTSum += fs.RTTSum
		st.RTTMax = max(st.RTTMax, fs.RTTMax)
		rtoSum += float64(f.src.RTO()) / 1e9
		if f.source.Finished() {
			completion = max(completion, f.source.DoneAt.Sub(f.source.StartAt).Seconds())
			response = max(response, f.sink.LastAt.Sub(f.source.StartAt).Seconds())
		} else {
			finished = false
		}
	}
	if !finished {
		completion, response = math.NaN(), math.NaN()
	}
	span := elapsed.Sub(c.warmup).Seconds()
	goodput := 0.0
	if span > 0 {
		goodput = float64(after) * 8 / span
	}
	var txBytes unit.Bytes
	var sent, deliv, dropped, inflight, overflow, corrupt int64
	var qdSum float64
	var qdN int64
	var qdMax des.Duration
	for _, l := range sc.forward {
		ls := l.Stats()
		txBytes += ls.TransmittedBytes
		qdSum += float64(ls.QueueDelayMean) * float64(ls.Transmitted)
		qdN += ls.Transmitted
		qdMax = max(qdMax, ls.QueueDelayMax)
	}
	for _, l := range sc.all {
		ls := l.Stats()
		sent += ls.Sent
		deliv += ls.Delivered
		dropped += ls.Dropped()
		inflight += int64(ls.Queued + ls.InFlight)
		overflow += ls.Drops[netsim.DropOverflow]
		corrupt += ls.Drops[netsim.DropCorrupt]
	}
	rttMean := 0.0
	if st.RTTSamples > 0 {
		rttMean = float64(st.RTTSum) / float64(st.RTTSamples) / 1e9
	}
	qdMean := 0.0
	if qdN > 0 {
		qdMean = qdSum / float64(qdN) / 1e9
	}
	out[tmGoodput] = vocab.F(goodput)
	out[tmWireRate] = vocab.F(float64(txBytes) * 8 / elapsed.Seconds())
	out[tmBytesDelivered] = vocab.I(int64(delivered))
	out[tmRetransSegs] = vocab.I(st.RetransSegs)
	out[tmRetransBytes] = vocab.I(int64(st.RetransBytes))
	out[tmFastRecoveries] = vocab.I(st.FastRecoveries)
	out[tmRTOs] = vocab.I(st.RTOs)
	out[tmDropsOverflow] = vocab.I(overflow)
	out[tmDropsCorrupt] = vocab.I(corrupt)
	out[tmRTTMean] = vocab.F(rttMean)
	out[tmRTTMax] = vocab.F(float64(st.RTTMax) / 1e9)
	out[tmRTO] = vocab.F(rtoSum / float64(max(len(sc.flows), 1)))
	out[tmRTOEpisodes] = vocab.I(st.FirstRTOs)
	out[tmT0] = vocab.Value{} // null: no timeout, no T0
	if st.FirstRTOs > 0 {
		out[tmT0] = vocab.F(float64(st.FirstRTOTime) / float64(st.FirstRTOs) / 1e9)
	}
	out[tmQueueDelayMean] = vocab.F(qdMean)
	out[tmQueueDelayMax] = vocab.F(qdMax.Seconds())
	out[tmCompletion] = naNull(completion)
	out[tmResponse] = naNull(response)
	out[tmPktsSent] = vocab.I(sent)
	out[tmPktsDelivered] = vocab.I(deliv)
	out[tmPktsDropped] = vocab.I(dropped)
	out[tmPktsInFlight] = vocab.I(inflight)
	return out, nil
}

// Run implements vocab.Model.
func (m *TCPBulk) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	c := readTCPConfig(p)
	c.duration = des.Time(des.FromSeconds(p.Float("duration")))
	c.warmup = des.Time(des.FromSeconds(p.Float("warmup")))
	if c.warmup >= c.duration {
		return vocab.Result{}, fmt.Errorf("models: tcp-bulk: warmup %v must be shorter than duration %v", c.warmup, c.duration)
	}
	c.size = unit.Bytes(p.Int("size"))
	if c.size == 0 {
		c.size = workload.Unlimited
	}
	c.flows = int(p.Int("flows"))
	c.channels = int(p.Int("channels"))
	c.striping = p.Bool("striping")
	c.sample = des.FromSeconds(p.Float("sample_interval"))
	c.ssthresh = unit.Bytes(p.Int("ssthresh"))
	c.trace = int(p.Int("trace_packets"))
	phys, err := bulkPhysics(&c, p)
	if err != nil {
		return vocab.Result{}, err
	}
	// After the physics, which may replace delay by distance/c.
	if c.queue, err = queueLimit(p, c.rate, c.delay); err != nil {
		return vocab.Result{}, fmt.Errorf("models: tcp-bulk: %w", err)
	}
	sc, err := buildTCP(c, seed)
	if err != nil {
		return vocab.Result{}, err
	}
	if err := sc.run(ctx, c.duration); err != nil {
		return vocab.Result{}, err
	}
	metrics, err := sc.metrics(c, c.duration)
	if err != nil {
		return vocab.Result{}, err
	}
	metrics = append(metrics, vocab.F(phys.ber), vocab.F(phys.perData), vocab.F(phys.perAck), vocab.F(c.delay.Seconds()))
	var stripes [][]vocab.Value
	if sc.stripes != nil {
		stripes = sc.stripes.rows
	}
	span := c.duration.Sub(c.warmup).Seconds()
	flows := make([][]vocab.Value, len(sc.flows))
	for i, f := range sc.flows {
		fs := f.src.Stats
		rtt := 0.0
		if fs.RTTSamples > 0 {
			rtt = float64(fs.RTTSum) / float64(fs.RTTSamples) / 1e9
		}
		ct := vocab.Value{} // null while unfinished
		if f.source.Finished() {
			ct = vocab.F(f.source.DoneAt.Sub(f.source.StartAt).Seconds())
		}
		flows[i] = []vocab.Value{
			vocab.I(int64(i)), vocab.F(float64(f.sink.AfterWarmup) * 8 / span), vocab.I(int64(f.sink.Got)),
			vocab.I(fs.RetransSegs), vocab.I(fs.FastRecoveries), vocab.I(fs.RTOs), vocab.F(rtt), ct,
		}
	}
	return vocab.Result{Metrics: metrics, Tables: [][][]vocab.Value{flows, sc.series, stripes}}, nil
}

// linkPhysics is what the physical layer gives a tcp-bulk scenario: the
// data direction's BER and PERs, for the metrics.
type linkPhysics struct {
	ber, perData, perAck float64
}

// fsoDirectBelow is the distance under which document 000 advises direct
// detection and above which coherent (sections 3 and 6.1: "direct
// detection for distances below 20,000 km and coherent detection for
// distances above 20,000 km").
const fsoDirectBelow = 20000e3

// bulkPhysics applies distance and loss_model to c: the one-way delay from
// the distance, and with loss_model fso a BER per channel from the FSO
// link budget of document 000 (phy.Table1 with the chosen detection and
// constants, electrical bandwidth 2 x the channel's rate, Table 1) and a
// PER per packet size from it (phy.PER: 64B/66B coded bits, Eq. 8 or
// exact), in both directions.
func bulkPhysics(c *tcpRunConfig, p vocab.Params) (linkPhysics, error) {
	k, err := phy.ConstantsNamed(p.Str("constants"))
	if err != nil {
		return linkPhysics{}, fmt.Errorf("models: tcp-bulk: %w", err)
	}
	z := p.Float("distance")
	if z > 0 {
		c.delay = des.FromSeconds(phy.PropagationDelay(z, k))
	}
	mss := int(p.Int("mss"))
	if p.Str("loss_model") != "fso" {
		ph := linkPhysics{ber: c.ber, perData: c.per}
		if c.ber > 0 {
			ph.perData = phy.PER(c.ber, mss+tcp.HeaderBytes, c.worst)
		}
		return ph, nil
	}
	if z <= 0 {
		return linkPhysics{}, fmt.Errorf("models: tcp-bulk: loss_model fso needs a distance")
	}
	if c.ber > 0 || c.per > 0 {
		return linkPhysics{}, fmt.Errorf("models: tcp-bulk: loss_model fso computes the BER; leave ber and per at 0")
	}
	link := phy.Table1()
	link.Constants = k
	switch d := p.Str("detection"); d {
	case "auto":
		link.Detection = phy.Coherent
		if z < fsoDirectBelow {
			link.Detection = phy.Direct
		}
	default:
		if link.Detection, err = phy.ParseDetection(d); err != nil {
			return linkPhysics{}, fmt.Errorf("models: tcp-bulk: %w", err)
		}
	}
	berOf := phy.BEREq7
	if p.Str("ber_formula") == "q" {
		berOf = phy.BERQ
	}
	// Be = 2 x bit rate for OOK (Table 1: 2e9 Hz at 1 Gbps, 8e9 at 4 Gbps).
	be := 2 * c.rate
	spacing := p.Float("channel_spacing")
	n := max(c.channels, 1)
	center := link.Wavelength
	var ph linkPhysics
	c.chanLoss = make([]netsim.LossModel, n)
	for i := range n {
		l := link
		if n > 1 {
			l.Wavelength = center + (float64(i)-float64(n-1)/2)*spacing
		}
		ber := berOf(l.Budget(z, be).SNR)
		c.chanLoss[i] = perLoss(ber, c.worst)
		ph.ber += ber / float64(n)
		ph.perData += phy.PER(ber, mss+tcp.HeaderBytes, c.worst) / float64(n)
	}
	// ACKs go back over the first wavelength's budget (the reverse link
	// runs at the same rate).
	back := link
	if n > 1 {
		back.Wavelength = center - float64(n-1)/2*spacing
	}
	rber := berOf(back.Budget(z, be).SNR)
	c.revLoss = perLoss(rber, c.worst)
	ph.perAck = phy.PER(rber, tcp.HeaderBytes, c.worst)
	return ph, nil
}

// perLoss draws each packet's loss from its size on the wire at BER ber,
// or is nil when the channel is error-free to float precision.
func perLoss(ber float64, worst bool) netsim.LossModel {
	if ber <= 0 {
		return nil
	}
	return netsim.PER{Func: func(size int) float64 { return phy.PER(ber, size, worst) }}
}
