package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// wire is a two-ended point-to-point link for endpoint tests: each
// direction serialises packets at rate and delays them by delay, with no
// queue limit, and drops what the drop function selects.
type wire struct {
	s     *des.Scheduler
	pool  netsim.Pool
	rate  float64 // bit/s
	delay des.Duration
	dirs  [2]direction
	drop  func(dir int, p *netsim.Packet) bool
	sent  [2]int
}

type direction struct {
	w        *wire
	i        int
	to       *Conn
	busy     des.Time
	inflight []*netsim.Packet
}

func (d *direction) Handle(now des.Time, kind int, arg uint64) {
	p := d.inflight[0]
	d.inflight = d.inflight[1:]
	d.to.Receive(now, p)
}

type port struct {
	w   *wire
	dir int
}

func (p port) NewPacket() *netsim.Packet { return p.w.pool.Get() }
func (p port) Free(pk *netsim.Packet)    { p.w.pool.Put(pk) }
func (p port) Send(pk *netsim.Packet) {
	w := p.w
	d := &w.dirs[p.dir]
	w.sent[p.dir]++
	if w.drop != nil && w.drop(p.dir, pk) {
		w.pool.Put(pk)
		return
	}
	start := max(w.s.Now(), d.busy)
	d.busy = start.Add(des.Duration(float64(pk.Size*8) * 1e9 / w.rate))
	d.inflight = append(d.inflight, pk)
	w.s.Schedule(d.busy.Add(w.delay), d, 0, 0)
}

// app records what an endpoint's application sees and checks that the
// byte stream arrives contiguous and in order.
type app struct {
	t *testing.T
	// onEstablished, when set, runs as the application's Established.
	onEstablished func(now des.Time)
	established   des.Time
	got           unit.Bytes
	lastAt        des.Time
	closedAt      des.Time
	doneAt        des.Time
}

func (a *app) Established(now des.Time) {
	a.established = now
	if a.onEstablished != nil {
		a.onEstablished(now)
	}
}
func (a *app) Delivered(now des.Time, off, n unit.Bytes) {
	if off != a.got {
		a.t.Fatalf("Delivered at offset %d, want %d (stream not contiguous)", off, a.got)
	}
	a.got += n
	a.lastAt = now
}
func (a *app) PeerClosed(now des.Time) { a.closedAt = now }
func (a *app) Done(now des.Time)       { a.doneAt = now }

// pair connects a client (sender) and a server over a wire.
type pair struct {
	w                    *wire
	client, server       *Conn
	clientApp, serverApp *app
}

func newPair(t *testing.T, cfg Config, rate float64, delay des.Duration, ctrl func() cc.Controller) *pair {
	t.Helper()
	s := des.New()
	w := &wire{s: s, rate: rate, delay: delay}
	pr := &pair{w: w, clientApp: &app{t: t}, serverApp: &app{t: t}}
	var err error
	pr.client, err = New(s, cfg, ctrl(), port{w, 0}, pr.clientApp, 1, 0, 1, 1000)
	if err != nil {
		t.Fatal(err)
	}
	pr.server, err = New(s, cfg, ctrl(), port{w, 1}, pr.serverApp, 1, 1, 0, 0xfffff000) // ISN near the wrap
	if err != nil {
		t.Fatal(err)
	}
	w.dirs[0] = direction{w: w, i: 0, to: pr.server}
	w.dirs[1] = direction{w: w, i: 1, to: pr.client}
	pr.server.Listen()
	return pr
}

func newReno() cc.Controller { return cc.NewReno(cc.ABCOff) }

// transfer sends size bytes from client to server and runs to completion.
func (pr *pair) transfer(t *testing.T, size unit.Bytes, until des.Time) {
	t.Helper()
	pr.client.Write(0, size)
	pr.client.Close(0)
	pr.client.Connect(0)
	if err := pr.w.s.Run(context.Background(), until); err != nil {
		t.Fatal(err)
	}
	if pr.serverApp.got != size {
		t.Fatalf("server application got %d bytes, want %d", pr.serverApp.got, size)
	}
	if pr.clientApp.doneAt == 0 {
		t.Fatalf("transfer not acknowledged by %v", until)
	}
}

func baseConfig() Config {
	return Config{MSS: 1000, RcvBuf: 1 << 20, SndBuf: 1 << 20, WindowScaling: true, SACK: true, InitialWindow: 10, LimitedTransmit: true, SACKRateSamples: true}
}
