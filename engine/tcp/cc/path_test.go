package cc_test

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// These tests run controllers in the real engine/tcp sender over a netsim
// path, where the queue, the ACK clock and the delivery-rate samples are
// those every model sees.

const (
	mss     = 1460
	wireMSS = 1500 // a full segment on the wire (netsim packet size)
)

// countApp counts bytes handed to the receiving application.
type countApp struct{ got unit.Bytes }

func (a *countApp) Established(des.Time)                  {}
func (a *countApp) Delivered(_ des.Time, _, n unit.Bytes) { a.got += n }
func (a *countApp) PeerClosed(des.Time)                   {}
func (a *countApp) Done(des.Time)                         {}

// link is one bottleneck hop: rate in bit/s, one-way delay, a DropTail
// buffer of queue packets and Bernoulli loss on the data direction.
type link struct {
	rate  unit.BitRate
	delay des.Duration
	queue int
	loss  float64
	seed  uint64
	// window is the endpoints' receive and send buffer in bytes; 0 means
	// 256 MiB, larger than any window here.
	window unit.Bytes
}

// flow is one bulk transfer from sender to receiver over a link.
type flow struct {
	s      *des.Scheduler
	net    *netsim.Network
	path   *netsim.Path
	client *tcp.Conn
	app    *countApp
}

// fwd returns the bottleneck's data direction.
func (f *flow) fwd() *netsim.Link { return f.path.Forward[0] }

// run advances the simulation to virtual time until.
func (f *flow) run(t testing.TB, until des.Time) {
	t.Helper()
	if err := f.s.Run(t.Context(), until); err != nil {
		t.Fatal(err)
	}
}

// newFlow starts an unlimited bulk transfer at time 0 with SACK recovery
// (RFC 6675), IW10, no delayed ACKs (so that RTT samples carry no ACK
// delay) and buffers larger than any window here.
func newFlow(t testing.TB, l link, ctrl cc.Controller) *flow {
	t.Helper()
	s := des.New()
	net := netsim.New(s, l.seed)
	fwd := netsim.LinkConfig{Rate: l.rate, Delay: l.delay, Queue: netsim.DropTail{Packets: l.queue}}
	if l.loss > 0 {
		fwd.Loss = netsim.Bernoulli{P: l.loss}
	}
	rev := netsim.LinkConfig{Rate: l.rate, Delay: l.delay}
	p, err := netsim.NewPath(net, []netsim.Hop{{Forward: fwd, Reverse: rev}})
	if err != nil {
		t.Fatal(err)
	}
	buf := l.window
	if buf == 0 {
		buf = 256 << 20
	}
	cfg := tcp.Config{
		MSS: mss, RcvBuf: buf, SndBuf: buf, WindowScaling: true, SACK: true,
		Recovery: tcp.RecoverySACK, InitialWindow: 10, MinRTO: 200 * des.Millisecond,
		SACKRateSamples: true,
	}
	app := &countApp{}
	const id = netsim.FlowID(1)
	client, err := tcp.New(s, cfg, ctrl, tcp.NodePort{Net: net, Node: p.Sender}, &countApp{}, id, p.Sender.ID(), p.Receiver.ID(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	server, err := tcp.New(s, cfg, cc.NewReno(cc.ABCOff), tcp.NodePort{Net: net, Node: p.Receiver}, app, id, p.Receiver.ID(), p.Sender.ID(), 5000)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Sender.Attach(id, client); err != nil {
		t.Fatal(err)
	}
	if err := p.Receiver.Attach(id, server); err != nil {
		t.Fatal(err)
	}
	server.Listen()
	client.Write(0, 1<<50)
	client.Connect(0)
	return &flow{s: s, net: net, path: p, client: client, app: app}
}

// queueMean returns the bottleneck's time-averaged queue (packets) between
// two snapshots: LinkStats.QueueMean averages over [0, now].
func queueMean(a, b netsim.LinkStats, ta, tb des.Time) float64 {
	return (b.QueueMean*tb.Seconds() - a.QueueMean*ta.Seconds()) / (tb - ta).Seconds()
}

// mustNew builds a controller by name.
func mustNew(t testing.TB, name string, seed uint64) cc.Controller {
	t.Helper()
	c, err := cc.New(name, cc.Options{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
