package workload

import (
	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// call is a handler that runs a function.
type call func()

func (f call) Handle(des.Time, int, uint64) { f() }

// chain starts the next exchange as soon as one completes (in the same
// event), until n have, and records the client endpoints it saw.
type chain struct {
	t         *testing.T
	e         *Exchanges
	path      []Leg
	n, done   int
	size      unit.Bytes
	endpoints map[*tcp.Conn]bool
}

func (c *chain) Delivered(now des.Time, x *Exchange, n unit.Bytes) {
	c.endpoints[x.legs[0].near] = true
}

func (c *chain) Completed(now des.Time, x *Exchange) {
	c.done++
	if c.done < c.n {
		if _, err := c.e.Start(now, c.path, c.size, 300, c, c.done); err != nil {
			c.t.Fatal(err)
		}
	}
}

func exchangeNet(t *testing.T) (*des.Scheduler, *Exchanges, []Leg) {
	t.Helper()
	s := des.New()
	net := netsim.New(s, 1)
	hop := netsim.LinkConfig{Rate: 10e6, Delay: 5 * des.Millisecond}
	p, err := netsim.NewPath(net, []netsim.Hop{{Forward: hop, Reverse: hop}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := tcp.Config{MSS: 1000, RcvBuf: 1 << 20, SndBuf: 1 << 20, InitialWindow: 10, SACK: true, DelayedACK: true}
	path := []Leg{{Near: Endpoint{Node: p.Sender, Cfg: cfg, CCA: "cubic"}, Far: Endpoint{Node: p.Receiver, Cfg: cfg, CCA: "cubic"}}}
	return s, &Exchanges{S: s, Net: net, ISN: net.Streams().New("isn")}, path
}

// TestExchangesRenewEndpoints runs 40 exchanges one after another, each
// started in the event that completes the one before, and requires every
// response whole (the stream checks of Exchange) and the endpoints of
// finished legs used again: far fewer client endpoints than exchanges.
func TestExchangesRenewEndpoints(t *testing.T) {
	s, e, path := exchangeNet(t)
	c := &chain{t: t, e: e, path: path, n: 40, size: 50_000, endpoints: map[*tcp.Conn]bool{}}
	if _, err := e.Start(0, path, c.size, 300, c, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Run(context.Background(), des.Time(60*des.Second)); err != nil {
		t.Fatal(err)
	}
	if c.done != c.n || e.Err() != nil || e.Live != 0 {
		t.Fatalf("%d of %d exchanges completed, %d live, error %v", c.done, c.n, e.Live, e.Err())
	}
	if len(c.endpoints) > 4 {
		t.Errorf("%d client endpoints for %d exchanges, want a few renewed", len(c.endpoints), c.n)
	}
}

// TestExchangesRenewAfterTheEvent: an endpoint retired during an event
// (a handler of the connection may still be running) is not handed out
// again in that event, only in a later one.
func TestExchangesRenewAfterTheEvent(t *testing.T) {
	s, e, path := exchangeNet(t)
	ep := path[0].Near
	endpoint := func() *tcp.Conn {
		c, err := e.endpoint(ep.Cfg, cc.NewReno(cc.ABCOff), tcp.NodePort{Net: e.Net, Node: ep.Node}, &Sink{}, 1, ep.Node.ID(), path[0].Far.Node.ID())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	var retired, sameEvent, nextEvent *tcp.Conn
	s.Schedule(0, call(func() {
		retired = endpoint()
		e.retire(retired)
		sameEvent = endpoint()
	}), 0, 0)
	s.Schedule(0, call(func() { nextEvent = endpoint() }), 0, 0)
	if err := s.Run(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if sameEvent == retired {
		t.Error("an endpoint retired in the running event was handed out in it")
	}
	if nextEvent != retired {
		t.Error("the retired endpoint was not renewed in the next event")
	}
}
