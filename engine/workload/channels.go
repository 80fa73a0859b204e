package workload

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math/rand/v2"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// Endpoint is where one end of a TCP connection lives: a host node, the
// endpoint configuration and its congestion controller.
type Endpoint struct {
	Node *netsim.Node
	Cfg  tcp.Config
	CCA  string
	// CC configures the controller (HyStart for CUBIC, which Linux's
	// CUBIC runs by default).
	CC cc.Options
}

// Leg is one TCP connection of an exchange's path: Near (the island side,
// which connects and sends the request) to Far (the world side, which
// answers). A plain path is one leg, client to server; a split-TCP path
// through performance-enhancing proxies is several legs, each proxy the
// Far end of one leg and the Near end of the next.
type Leg struct {
	Near, Far Endpoint
}

// Observer learns what an exchange delivers to the client.
type Observer interface {
	// Delivered: n response bytes reached the client application.
	Delivered(now des.Time, x *Exchange, n unit.Bytes)
	// Completed: the whole response and the server's FIN arrived.
	Completed(now des.Time, x *Exchange)
}

// Exchanges creates request/response exchanges on a network: it hands out
// flow ids, draws initial sequence numbers and detaches connections once
// both ends are done, so a long run with many short flows keeps only the
// live ones in memory; their endpoints are rebuilt for later exchanges
// (tcp.Renew) rather than allocated and collected each time.
type Exchanges struct {
	S    *des.Scheduler
	Net  *netsim.Network
	ISN  *rand.Rand // initial sequence numbers (RFC 9293 section 3.4.1)
	next netsim.FlowID
	// Opened counts connections opened; Live those not yet detached.
	Opened, Live int
	err          error

	// live holds the legs not yet detached and gone the timeouts of those
	// that were, so Timeouts covers every connection of the run.
	live map[*leg]struct{}
	gone Timeouts

	// Endpoints of finished legs: spare ones to renew, and those
	// retired during the event numbered retiredIn (Scheduler.Handled),
	// whose handlers may still be running.
	spare, retiring []*tcp.Conn
	retiredIn       uint64
}

// retire keeps the endpoints of a finished leg for a later exchange.
func (e *Exchanges) retire(cs ...*tcp.Conn) {
	e.ready()
	e.retiring = append(e.retiring, cs...)
	e.retiredIn = e.S.Handled()
}

// ready makes spare the endpoints retired in an event that has ended.
func (e *Exchanges) ready() {
	if len(e.retiring) > 0 && e.S.Handled() != e.retiredIn {
		e.spare = append(e.spare, e.retiring...)
		clear(e.retiring)
		e.retiring = e.retiring[:0]
	}
}

// endpoint returns a spare endpoint renewed, or a new one.
func (e *Exchanges) endpoint(cfg tcp.Config, ctrl cc.Controller, port tcp.Port, app tcp.App, flow netsim.FlowID, src, dst netsim.NodeID) (*tcp.Conn, error) {
	isn := e.ISN.Uint32()
	e.ready()
	if n := len(e.spare); n > 0 {
		c := e.spare[n-1]
		e.spare[n-1] = nil
		e.spare = e.spare[:n-1]
		return tcp.Renew(c, e.S, cfg, ctrl, port, app, flow, src, dst, isn)
	}
	return tcp.New(e.S, cfg, ctrl, port, app, flow, src, dst, isn)
}

// Timeouts counts retransmission timer expiries (tcp.Stats.RTOs) and the
// sequences of them (tcp.Stats.FirstRTOs), both ends of every connection.
type Timeouts struct{ RTOs, Episodes int64 }

// add adds the timeouts of both ends of l.
func (t *Timeouts) add(l *leg) {
	for _, c := range []*tcp.Conn{l.near, l.far} {
		t.RTOs += c.Stats.RTOs
		t.Episodes += c.Stats.FirstRTOs
	}
}

// Timeouts returns the timeouts of every connection opened so far, open
// or detached.
func (e *Exchanges) Timeouts() Timeouts {
	t := e.gone
	for l := range e.live {
		t.add(l)
	}
	return t
}

// Err returns the first stream error seen (a delivery out of order), or
// nil.
func (e *Exchanges) Err() error { return e.err }

// Exchange is one request/response: the client connects, sends Request
// bytes and its FIN (an HTTP/1.0-style half close), the server answers
// with Size bytes and closes. Across proxies each leg opens when the
// request has arrived whole at the leg before it, and response bytes are
// relayed as they arrive (the proxies buffer without limit: packets carry
// sizes, not bytes, so a buffer is a counter).
type Exchange struct {
	Size, Request unit.Bytes
	Start         des.Time   // the client's first SYN
	Got           unit.Bytes // response bytes delivered to the client
	DoneAt        des.Time   // when the response completed (0 while running)
	Tag           int        // the owner's label (a channel number)

	set  *Exchanges
	obs  Observer
	legs []leg
}

type leg struct {
	x         *Exchange
	i         int
	spec      Leg
	flow      netsim.FlowID
	near, far *tcp.Conn
	nearApp   end
	farApp    end
	got       unit.Bytes // bytes delivered at the near end (stream check)
	reqGot    unit.Bytes
	done      uint8 // bit 0 near done, bit 1 far done
}

// end is the tcp.App of one end of a leg.
type end struct {
	l   *leg
	far bool
}

// Start opens the first leg of a new exchange at now.
func (e *Exchanges) Start(now des.Time, path []Leg, size, request unit.Bytes, obs Observer, tag int) (*Exchange, error) {
	if len(path) == 0 {
		return nil, fmt.Errorf("workload: exchange needs at least one leg")
	}
	x := &Exchange{Size: size, Request: request, Start: now, Tag: tag, set: e, obs: obs, legs: make([]leg, len(path))}
	for i := range x.legs {
		l := &x.legs[i]
		l.x, l.i, l.spec = x, i, path[i]
		l.nearApp = end{l: l}
		l.farApp = end{l: l, far: true}
	}
	if err := x.open(now, 0); err != nil {
		return nil, err
	}
	return x, nil
}

// open creates leg i's two endpoints, makes the far end listen and the near
// end write the request, half-close and connect.
func (x *Exchange) open(now des.Time, i int) error {
	e, l := x.set, &x.legs[i]
	e.next++
	l.flow = e.next
	cn, err := cc.New(l.spec.Near.CCA, l.spec.Near.CC)
	if err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	cf, err := cc.New(l.spec.Far.CCA, l.spec.Far.CC)
	if err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	nn, fn := l.spec.Near.Node, l.spec.Far.Node
	if l.near, err = e.endpoint(l.spec.Near.Cfg, cn, tcp.NodePort{Net: e.Net, Node: nn}, &l.nearApp, l.flow, nn.ID(), fn.ID()); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	if l.far, err = e.endpoint(l.spec.Far.Cfg, cf, tcp.NodePort{Net: e.Net, Node: fn}, &l.farApp, l.flow, fn.ID(), nn.ID()); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	if err := nn.Attach(l.flow, l.near); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	if err := fn.Attach(l.flow, l.far); err != nil {
		return fmt.Errorf("workload: %w", err)
	}
	e.Opened++
	e.Live++
	if e.live == nil {
		e.live = map[*leg]struct{}{}
	}
	e.live[l] = struct{}{}
	l.far.Listen()
	l.near.Write(now, x.Request)
	l.near.Close(now)
	l.near.Connect(now)
	return nil
}

func (x *Exchange) fail(err error) {
	if x.set.err == nil {
		x.set.err = err
	}
}

// Established implements tcp.App.
func (a *end) Established(now des.Time) {}

// Delivered implements tcp.App: the far end reads the request; the near
// end passes response bytes on towards the client.
func (a *end) Delivered(now des.Time, off, n unit.Bytes) {
	l := a.l
	if a.far {
		if off != l.reqGot {
			l.x.fail(fmt.Errorf("workload: flow %d: request at offset %d, want %d", l.flow, off, l.reqGot))
		}
		l.reqGot += n
		return
	}
	if off != l.got {
		l.x.fail(fmt.Errorf("workload: flow %d: delivery at offset %d, want %d", l.flow, off, l.got))
	}
	l.got += n
	if l.i == 0 {
		l.x.Got += n
		l.x.obs.Delivered(now, l.x, n)
		return
	}
	prev := &l.x.legs[l.i-1]
	prev.far.Write(now, n)
}

// PeerClosed implements tcp.App: at the far end the request is complete
// (answer it, or open the next leg); at the near end the response is.
func (a *end) PeerClosed(now des.Time) {
	l, x := a.l, a.l.x
	if a.far {
		if l.reqGot != x.Request {
			x.fail(fmt.Errorf("workload: flow %d: request of %d bytes, want %d", l.flow, l.reqGot, x.Request))
		}
		if l.i == len(x.legs)-1 {
			l.far.Write(now, x.Size)
			l.far.Close(now)
			return
		}
		if err := x.open(now, l.i+1); err != nil {
			x.fail(err)
		}
		return
	}
	if l.i > 0 {
		l.x.legs[l.i-1].far.Close(now)
		return
	}
	if x.Got != x.Size {
		x.fail(fmt.Errorf("workload: flow %d: response of %d bytes, want %d", l.flow, x.Got, x.Size))
	}
	x.DoneAt = now
	x.obs.Completed(now, x)
}

// Done implements tcp.App: once both ends have everything they sent
// acknowledged, the leg leaves the network.
func (a *end) Done(now des.Time) {
	l := a.l
	if a.far {
		l.done |= 2
	} else {
		l.done |= 1
	}
	if l.done == 3 {
		l.x.set.gone.add(l)
		delete(l.x.set.live, l)
		l.spec.Near.Node.Detach(l.flow)
		l.spec.Far.Node.Detach(l.flow)
		l.x.set.retire(l.near, l.far)
		l.near, l.far = nil, nil
		l.x.set.Live--
	}
}

// Channels is the closed-loop load of document 004: each channel is a
// client socket that connects to a server, downloads one flow whose size
// is drawn from Sizes, disconnects and, after Think, starts again. The
// channels start at times drawn uniformly from [0, Stagger), each server
// uniformly from Paths.
type Channels struct {
	Ex      *Exchanges
	Paths   [][]Leg // one path per server
	Sizes   FlowSizes
	Request unit.Bytes
	Think   des.Duration
	Stagger des.Duration
	Rand    *rand.Rand
	// Warmup is the time from which deliveries and completions count in
	// the *After counters.
	Warmup des.Time
	// ShortBytes: flows of at most this size count in the short-flow
	// completion statistics.
	ShortBytes unit.Bytes

	Bytes, BytesAfter unit.Bytes // response bytes delivered to clients
	Flows, FlowsAfter int64      // flows completed
	// ShortN and ShortSum are the count and the summed completion times of
	// short flows completed after Warmup.
	ShortN   int64
	ShortSum des.Duration
	// SizeSum is the summed size of flows started (the realised mean).
	Started int64
	SizeSum unit.Bytes

	n   int
	err error
}

// Err returns the first error met while starting a flow.
func (c *Channels) Err() error { return c.err }

// Run schedules the first flow of n channels.
func (c *Channels) Run(n int) {
	c.n = n
	for i := range n {
		var at des.Time
		if c.Stagger > 0 {
			at = des.Time(c.Rand.Int64N(int64(c.Stagger)))
		}
		c.Ex.S.Schedule(at, c, 0, uint64(i))
	}
}

// Handle implements des.Handler: start channel arg's next flow.
func (c *Channels) Handle(now des.Time, kind int, arg uint64) {
	size := c.Sizes.Sample(c.Rand)
	path := c.Paths[c.Rand.IntN(len(c.Paths))]
	c.Started++
	c.SizeSum += size
	if _, err := c.Ex.Start(now, path, size, c.Request, c, int(arg)); err != nil && c.err == nil {
		c.err = err
	}
}

// Delivered implements Observer.
func (c *Channels) Delivered(now des.Time, x *Exchange, n unit.Bytes) {
	c.Bytes += n
	if now >= c.Warmup {
		c.BytesAfter += n
	}
}

// Completed implements Observer: count the flow and start the channel's
// next one.
func (c *Channels) Completed(now des.Time, x *Exchange) {
	c.Flows++
	if now >= c.Warmup {
		c.FlowsAfter++
		if x.Size <= c.ShortBytes {
			c.ShortN++
			c.ShortSum += now.Sub(x.Start)
		}
	}
	c.Ex.S.Schedule(now.Add(c.Think), c, 0, uint64(x.Tag))
}
