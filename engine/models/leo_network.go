package models

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/leonet"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// LEONetwork is the "leo-network" model: traffic between many ground
// stations over a whole constellation, on engine/leonet's
// packet-level network, every inter-satellite and ground link a netsim
// link with its own DropTail queue and its propagation delay from its
// current length, routes toward every station recomputed each step by
// orbit.Forwarding (satgenpy's free_one_only_over_isls, or its
// ground-relay routing) and switched at once at every node.
//
// Each ISL's bit error rate follows its length through document 000's
// link budget for the chosen terminal (engine/phy, as leo-path's
// isl_errors), each packet lost with the exact PER of its size. With
// adaptive_rate, each ISL's terminal picks, at every step, the highest of
// its rate modes whose PER for a full data packet stays at or under
// per_threshold at the link's current length, so the link's capacity
// follows its length.
type LEONetwork struct{ schema *vocab.Schema }

// NewLEONetwork returns the leo-network model.
func NewLEONetwork() *LEONetwork { return &LEONetwork{schema: leoNetworkSchema()} }

// Schema implements vocab.Model.
func (m *LEONetwork) Schema() *vocab.Schema { return m.schema }

// Cost is routing steps times the size of the forwarding state, plus the
// simulated packets, roughly.
func (m *LEONetwork) Cost(p vocab.Params) float64 {
	d := p.Float("duration")
	flows := float64(p.Int("tcp_flows") + p.Int("udp_flows"))
	return d/p.Float("route_interval")*1e4 + d*flows*p.Float("gsl_rate")/1e4
}

// islPhy is the loss process of one ISL direction. Without pointing
// jitter, each packet is lost with the exact PER of its size at the
// link's current BER (set at every step). With jitter, with the PER of
// its size averaged over the pointing fade (phy.Terminal.MeanPER, as
// leo-path draws a fade per packet), at the link's length rounded to the
// kilometre so that the averages can be cached (lnScenario.meanPER). It
// draws one uniform number per packet while the loss probability is
// positive.
type islPhy struct {
	ber  float64
	sc   *lnScenario
	term int   // index of the terminal (mode) in sc.terms
	km   int32 // length, whole km, with jitter
}

func (l *islPhy) Lose(p *netsim.Packet, rng *rand.Rand) bool {
	if l.sc.jitter.Sigma > 0 {
		// A deep fade can make errors on a link whose unfaded BER
		// underflows to 0: the average decides.
		per := l.sc.meanPER(l.term, l.km, int32(p.Size))
		return per > 0 && rng.Float64() < per
	}
	if l.ber == 0 {
		return false
	}
	return rng.Float64() < phy.PERExact(l.ber, phy.WireBits(float64(p.Size)))
}

// perKey names a cached fade-averaged PER: terminal, length in km, size.
type perKey struct {
	term, km, size int32
}

// meanPER is the fade-averaged PER of a packet of size bytes on an ISL of
// km kilometres with terminal t, cached.
func (sc *lnScenario) meanPER(t int, km, size int32) float64 {
	k := perKey{int32(t), km, size}
	if v, ok := sc.perCache[k]; ok {
		return v
	}
	v := sc.terms[t].MeanPER(float64(km)*1e3, sc.jitter, int(size))
	sc.perCache[k] = v
	return v
}

type islPhyModel struct{ l *islPhy }

func (m islPhyModel) NewLoss() (netsim.Loss, error) { return m.l, nil }

// lnPair is one station pair with its current path.
type lnPair struct {
	a, b    int
	path    []int // forward path, node numbers, of the last step
	have    bool
	changes int64
	rtt     float64 // propagation round trip of the last step, s; 0 unreachable
	flows   []int
}

// lnFlow is one flow: a TCP connection or a constant-rate UDP sender.
type lnFlow struct {
	pair  int
	cca   string
	start des.Time
	// TCP
	src, dst *tcp.Conn
	source   workload.Source
	sink     workload.Sink
	watch    seqWatch
	// UDP
	udp *lnCBR
}

// lnCBR sends packets of size at a constant rate from start to the end of
// the run, and counts what arrives.
type lnCBR struct {
	net          *netsim.Network
	from         *netsim.Node
	dst          netsim.NodeID
	flow         netsim.FlowID
	size         unit.Bytes
	gap          des.Duration
	seq          uint32
	sent         int64
	got, gotWarm unit.Bytes
	warmup       des.Time
}

func (u *lnCBR) Handle(now des.Time, kind int, arg uint64) {
	p := u.net.NewPacket()
	u.seq++
	p.Flow, p.Dst, p.Seq, p.Size, p.Payload = u.flow, u.dst, u.seq, u.size, u.size
	u.sent++
	u.from.Send(p)
	u.net.Scheduler().After(u.gap, u, 0, 0)
}

func (u *lnCBR) Receive(now des.Time, p *netsim.Packet) {
	u.got += p.Payload
	if now >= u.warmup {
		u.gotWarm += p.Payload
	}
	u.net.Free(p)
}

// lnScenario is one built run.
type lnScenario struct {
	c    lnConfig
	s    *des.Scheduler
	net  *netsim.Network
	fw   *orbit.Forwarding
	ln   *leonet.Network
	phys [][2]*islPhy
	// terms are the ISL terminal at each rate mode (one, the terminal's
	// own, without adaptive_rate); jitter its pointing jitter.
	terms    []phy.Terminal
	jitter   phy.Jitter
	perCache map[perKey]float64
	rates    []float64 // current simulated rate of each ISL, bit/s
	modeOf   []int     // current mode of each ISL
	// exceed[i] is the length above which mode i's data PER passes the
	// threshold.
	exceed   []float64
	pairs    []lnPair
	flows    []*lnFlow
	scratch  []int
	capSum   float64 // sum over steps of the mean ISL capacity fraction
	capSteps int64
	// Tables.
	paths, samples, links [][]vocab.Value
	last                  []netsim.LinkStats // per link, at the last sample
	lastAt                des.Time
}

// lnDataBytes is the size on the wire of a full data segment.
func (c lnConfig) dataBytes() int { return int(c.host.fullPacket()) }

func buildLN(c lnConfig, pairs [][2]int, seed uint64) (*lnScenario, error) {
	fleet, err := orbit.NewFleet(c.fleet)
	if err != nil {
		return nil, err
	}
	fw, err := orbit.NewForwarding(fleet, c.earth, c.stations, c.mode, c.outages)
	if err != nil {
		return nil, err
	}
	s := des.New()
	net := netsim.New(s, seed)
	sc := &lnScenario{c: c, s: s, net: net, fw: fw}
	nisl := len(fleet.ISLs())
	sc.phys = make([][2]*islPhy, nisl)
	for k := range sc.phys {
		sc.phys[k] = [2]*islPhy{{sc: sc}, {sc: sc}}
	}
	sc.jitter = phy.Jitter{Sigma: c.jitterURad * 1e-6, Gain: c.terminal.Gain()}
	sc.perCache = map[perKey]float64{}
	sc.terms = []phy.Terminal{c.terminal}
	islRate := c.islRate
	if islRate == 0 {
		islRate = unit.BitRate(c.terminal.Rate)
	}
	if c.modes != nil {
		// Each mode's threshold length, found once: the PER of a data
		// packet grows with the length (exceedLength bisects on it).
		sc.terms = sc.terms[:0]
		for _, m := range c.modes {
			t := c.terminal
			t.Rate = m
			sc.terms = append(sc.terms, t)
			sc.exceed = append(sc.exceed, exceedLength(t, sc.jitter, c.dataBytes(), c.perThreshold))
		}
		sc.rates = make([]float64, nisl)
		sc.modeOf = make([]int, nisl)
		for k := range sc.rates {
			sc.rates[k] = sc.modeRate(0)
		}
		islRate = unit.BitRate(sc.modeRate(0))
	}
	for _, p := range pairs {
		sc.pairs = append(sc.pairs, lnPair{a: p[0], b: p[1]})
	}
	cfg := leonet.Config{ISLRate: islRate, GSLRate: c.gslRate, ISLQueue: c.queue(c.islQueue),
		GSLQueue: c.queue(c.gslQueue), Interval: c.interval, T0: c.startTime,
		HandoverGap: c.handoverGap, AfterStep: sc.afterStep}
	if c.islErrors {
		cfg.ISLLoss = func(k, dir int) netsim.LossModel { return islPhyModel{sc.phys[k][dir]} }
	}
	if sc.ln, err = leonet.New(net, fw, cfg); err != nil {
		return nil, err
	}
	if err := sc.addFlows(); err != nil {
		return nil, err
	}
	return sc, nil
}

// modeRate is the simulated rate of mode i: the mode's rate scaled so
// that the top mode runs at isl_rate (the mode's own rate with isl_rate 0).
func (sc *lnScenario) modeRate(i int) float64 {
	if sc.c.islRate == 0 {
		return sc.c.modes[i]
	}
	return sc.c.islRate.BitsPerSecond() * sc.c.modes[i] / sc.c.modes[0]
}

// afterStep sets every ISL's error rate and capacity from its new length
// and notes each pair's path.
func (sc *lnScenario) afterStep(n *leonet.Network, now des.Time) error {
	fw, c := sc.fw, sc.c
	capFrac := 0.0
	up := 0
	for k := range sc.phys {
		z := fw.ISLLength(k)
		if math.IsInf(z, 1) {
			continue // down: routes avoid it, its queue drains as it was
		}
		ti := 0
		if c.modes != nil {
			i := 0
			for i < len(c.modes)-1 && z > sc.exceed[i] {
				i++
			}
			ti = i
			if i != sc.modeOf[k] || sc.rates[k] != sc.modeRate(i) {
				sc.modeOf[k], sc.rates[k] = i, sc.modeRate(i)
				for _, lk := range n.ISL(k) {
					if err := lk.SetRate(unit.BitRate(sc.rates[k])); err != nil {
						return err
					}
				}
			}
			capFrac += c.modes[i] / c.modes[0]
			up++
		}
		if c.islErrors {
			// The unfaded BER; with jitter it only says whether the
			// link can err at all (a fade only lowers the SNR).
			ber := phy.BERQ(sc.terms[ti].SNR(z))
			km := int32(math.Round(z / 1e3))
			for _, l := range sc.phys[k] {
				l.ber, l.term, l.km = ber, ti, km
			}
		}
	}
	if up > 0 {
		sc.capSum += capFrac / float64(up)
		sc.capSteps++
	}
	ns := fw.Satellites()
	for i := range sc.pairs {
		p := &sc.pairs[i]
		sc.scratch = fw.Path(ns+p.a, p.b, sc.scratch[:0])
		ok := len(sc.scratch) > 0
		rtt := 0.0
		if ok {
			rtt = (fw.Dist(ns+p.a, p.b) + fw.Dist(ns+p.b, p.a)) / orbit.LightSpeed
		}
		p.rtt = rtt
		same := ok == p.have && equalInts(sc.scratch, p.path)
		// Steps counts this step already: the first is step 1, whose
		// path is the pair's first, not a change.
		first := n.Steps() == 1
		if same && !first {
			continue
		}
		if !first {
			p.changes++
		}
		p.have = ok
		p.path = append(p.path[:0], sc.scratch...)
		sc.paths = append(sc.paths, []vocab.Value{vocab.F(now.Seconds()), vocab.I(int64(i)),
			vocab.S(c.stations[p.a].Name), vocab.S(c.stations[p.b].Name), vocab.F(rtt),
			vocab.I(int64(max(len(p.path)-1, 0))), vocab.S(satList(p.path, ns)), vocab.I(p.changes)})
	}
	return nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// satList writes the satellites of a path of node numbers ("12 13 47";
// a relaying station as "gs5"); "" for no path.
func satList(path []int, ns int) string {
	var b strings.Builder
	for i, v := range path {
		if i == 0 || i == len(path)-1 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if v >= ns {
			b.WriteString("gs")
			v -= ns
		}
		b.WriteString(strconv.Itoa(v))
	}
	return b.String()
}

// addFlows opens each pair's TCP and UDP flows, starting each at a time
// drawn uniformly from [0, start_spread) on its own stream.
func (sc *lnScenario) addFlows() error {
	c, s, net := sc.c, sc.s, sc.net
	cfg := c.host.config(c.window, 1<<40)
	isn := net.Streams().New("tcp/isn")
	starts := net.Streams().New("leo-network/starts")
	for pi := range sc.pairs {
		p := &sc.pairs[pi]
		na, nb := sc.ln.Station(p.a), sc.ln.Station(p.b)
		for j := 0; j < c.tcpFlows+c.udpFlows; j++ {
			id := netsim.FlowID(len(sc.flows) + 1)
			f := lnFlow{pair: pi}
			if c.startSpread > 0 {
				f.start = des.Time(starts.Int64N(int64(c.startSpread)))
			}
			if j < c.tcpFlows {
				f.cca = c.ccas[j%len(c.ccas)]
				ctrlA, err := cc.New(f.cca, c.host.ccOptions(net.Streams().New(fmt.Sprintf("cc/%d", id)).Uint64()))
				if err != nil {
					return err
				}
				ctrlB, _ := cc.New(f.cca, cc.Options{})
				isnA, isnB := isn.Uint32(), isn.Uint32()
				fl := &f
				sc.flows = append(sc.flows, fl)
				if fl.src, err = tcp.New(s, cfg, ctrlA, tcp.NodePort{Net: net, Node: na}, &fl.source, id, na.ID(), nb.ID(), isnA); err != nil {
					return err
				}
				if fl.dst, err = tcp.New(s, cfg, ctrlB, tcp.NodePort{Net: net, Node: nb}, &fl.sink, id, nb.ID(), na.ID(), isnB); err != nil {
					return err
				}
				fl.source.Conn, fl.source.Size, fl.source.WriteSize = fl.src, workload.Unlimited, c.host.writeSize
				fl.sink.Warmup = c.warmup
				fl.watch = seqWatch{conn: fl.dst, isn: isnA, mss: int64(c.host.mss)}
				if err := na.Attach(id, fl.src); err != nil {
					return err
				}
				if err := nb.Attach(id, &fl.watch); err != nil {
					return err
				}
				fl.dst.Listen()
			} else {
				size := c.host.fullPacket()
				f.udp = &lnCBR{net: net, from: na, dst: nb.ID(), flow: id, size: size, warmup: c.warmup,
					gap: des.FromSeconds(float64(size) * 8 / c.udpRate.BitsPerSecond())}
				if f.udp.gap <= 0 {
					return fmt.Errorf("udp_rate %v sends a %d-byte packet in under a nanosecond", c.udpRate, size)
				}
				if err := nb.Attach(id, f.udp); err != nil {
					return err
				}
				sc.flows = append(sc.flows, &f)
			}
			p.flows = append(p.flows, len(sc.flows)-1)
		}
	}
	return nil
}

// start schedules the flows, the routing steps and the samples.
func (sc *lnScenario) start() {
	for _, f := range sc.flows {
		if f.udp != nil {
			sc.s.Schedule(f.start, f.udp, 0, 0)
		} else {
			sc.s.Schedule(f.start, (*lnStarter)(f), 0, 0)
		}
	}
	sc.ln.Start()
	sc.last = make([]netsim.LinkStats, 0, 1024)
	if sc.c.sample > 0 {
		sc.s.After(sc.c.sample, sc, 0, 0)
	}
}

// lnStarter opens a TCP flow at its start time.
type lnStarter lnFlow

func (f *lnStarter) Handle(now des.Time, kind int, arg uint64) { f.source.Start(now) }

// Run implements vocab.Model.
func (m *LEONetwork) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	return m.run(ctx, p, seed, nil)
}

// run is Run, with built called on the scenario before it starts (a test
// installs an observer there, which keeps every link eager).
func (m *LEONetwork) run(ctx context.Context, p vocab.Params, seed uint64, built func(*lnScenario)) (vocab.Result, error) {
	c, pairs, err := decodeLN(p, seed)
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: leo-network: %w", err)
	}
	sc, err := buildLN(c, pairs, seed)
	if err != nil {
		return vocab.Result{}, fmt.Errorf("models: leo-network: %w", err)
	}
	if built != nil {
		built(sc)
	}
	sc.start()
	if err := sc.s.Run(ctx, c.duration); err != nil {
		return vocab.Result{}, fmt.Errorf("models: leo-network: %w", err)
	}
	if sc.c.sample > 0 && sc.lastAt < c.duration {
		sc.Handle(c.duration, 0, 0) // the last, partial interval
	}
	return vocab.Result{Metrics: sc.metrics(), Tables: [][][]vocab.Value{sc.flowRows(), sc.links, sc.paths, sc.samples}}, nil
}
