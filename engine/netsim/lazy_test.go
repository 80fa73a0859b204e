package netsim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// nopObserver sees every packet event and does nothing; installed before
// the first packet, it keeps every link eager (lazy.go), which is how the
// differential test below runs the reference.
type nopObserver struct{}

func (nopObserver) Observe(Record) {}

// pinger is a closed-loop sender: it keeps a window of packets out and
// sends one (sometimes two, or an skb of three) for each echo, plus one
// every gap so that drops do not starve it: ACK clocking, the source of
// the same-instant coincidences a deterministic simulation is full of.
type pinger struct {
	net    *Network
	from   *Node
	dst    NodeID
	flow   FlowID
	window int
	gap    des.Duration
	skb    bool
	rng    *rand.Rand
	until  des.Time
	seq    uint32
	skbID  uint64
}

func (p *pinger) send(now des.Time, n int) {
	skb := uint64(0)
	if p.skb && n > 1 {
		p.skbID++
		skb = uint64(p.flow)<<32 | p.skbID
	}
	for range n {
		k := p.net.NewPacket()
		p.seq++
		k.Flow, k.Dst, k.Seq, k.Size, k.Payload, k.Skb = p.flow, p.dst, p.seq, 1500, 1460, skb
		p.from.Send(k)
	}
}

// Handle is the pinger's timer.
func (p *pinger) Handle(now des.Time, kind int, arg uint64) {
	if now >= p.until {
		return
	}
	p.send(now, 1)
	p.net.sched.Schedule(now.Add(p.gap), p, 0, 0)
}

// Receive takes an echo.
func (p *pinger) Receive(now des.Time, k *Packet) {
	p.net.Free(k)
	if now >= p.until {
		return
	}
	n := 1
	if r := p.rng.IntN(8); r == 0 {
		n = 3
	} else if r == 1 {
		n = 2
	}
	p.send(now, n)
}

// echo records the data packets it receives and answers each with a
// 52-byte packet.
type echo struct {
	net  *Network
	node *Node
	got  []arrival
}

func (e *echo) Receive(now des.Time, k *Packet) {
	e.got = append(e.got, arrival{now, k.ID, k.Seq, k.Size})
	a := e.net.NewPacket()
	a.Flow, a.Dst, a.Size, a.Ack = k.Flow, k.Src, 52, k.Seq
	e.net.Free(k)
	e.node.Send(a)
}

// lazyRun is one run of the differential test: what the receivers got,
// every link's statistics, the events handled, and how many links were
// lazy.
type lazyRun struct {
	Got   [][]arrival
	Links []LinkStats
	NoRt  int64
	// Events is Network.Events: the eager count whichever way links run.
	Events uint64
}

// TestLazyLinkMatchesEager runs closed-loop traffic over dumbbells, once
// with lazy transmitters and once with every link eager (an observer
// installed), and requires the same deliveries (time, packet id,
// sequence) at every receiver and the same statistics on every link: the
// lazy transmitter is an optimisation, exact to the nanosecond and to the
// order of simultaneous events that touch a link. The cases force the
// coincidences: round rates whose packet times divide each other, a small
// queue that is full most of the time, skb batches, jitter and random
// loss on the access links, and rates with odd packet times.
func TestLazyLinkMatchesEager(t *testing.T) {
	tests := []lazyCase{
		{"lockstep 10G/1G", 10e9, 1e9, des.Millisecond, 5 * des.Millisecond, DropTail{Packets: 30}, 0, 0, false, 6, 40, 50 * des.Microsecond, true, 0, 0},
		{"lockstep skbs", 10e9, 1e9, des.Millisecond, 5 * des.Millisecond, DropTail{Packets: 30}, 0, 0, true, 6, 40, 50 * des.Microsecond, true, 0, 0},
		{"jitter and loss", 100e6, 10e6, 2 * des.Millisecond, 10 * des.Millisecond, DropTail{Packets: 20}, 120 * des.Microsecond, 0.01, false, 4, 20, des.Millisecond, true, 0, 0},
		{"odd rates, byte limit", 7_777_777, 3_333_333, 3333 * des.Microsecond, 7 * des.Millisecond, DropTail{Bytes: 20_000}, 0, 0.002, false, 5, 15, 3 * des.Millisecond, true, 0, 0},
		// Losses leave the flight empty behind a packet still being sent.
		{"heavy loss, delay just over a packet time", 100e6, 10e6, 2 * des.Millisecond, 1500 * des.Microsecond, DropTail{Packets: 20}, 0, 0.3, false, 3, 10, des.Millisecond, true, 0, 0},
		{"skbs longer than the access delay", 100e6, 10e6, 2 * des.Millisecond, 100 * des.Millisecond, DropTail{Packets: 40}, 0, 0, true, 4, 20, des.Millisecond, false, 0, 0},
		{"one flow, short delays", 1e9, 100e6, des.Microsecond, 12 * des.Microsecond, DropTail{Packets: 5}, 0, 0, false, 1, 10, 20 * des.Microsecond, false, 0, 0},
		// Host links as tcp-compete builds them: no delay, a packet time
		// of jitter, the backbone's rate; they draw arrivals early
		// (early.go).
		{"host links: no delay, jitter", 100e6, 100e6, 0, 10 * des.Millisecond, DropTail{Packets: 20}, 120 * des.Microsecond, 0.01, false, 4, 20, des.Millisecond, false, 0, 0},
		{"host links with skbs", 100e6, 100e6, 0, 10 * des.Millisecond, DropTail{Packets: 20}, 120 * des.Microsecond, 0, true, 4, 20, des.Millisecond, false, 0, 0},
		{"host links, a slow backbone", 1e9, 10e6, 0, 2 * des.Millisecond, DropTail{Packets: 10}, 7 * des.Microsecond, 0.001, false, 6, 30, 100 * des.Microsecond, false, 0, 0},
		// Equal rates over a long bottleneck: arrivals at the routers
		// coincide with ends of transmission all the time.
		{name: "lockstep 100M/100M, 25 ms", access: 100e6, bottle: 100e6, accDelay: des.Millisecond, botDelay: 25 * des.Millisecond,
			flows: 3, window: 19, gap: des.Second},
		// Access links slower than the bottleneck, whose queue is short.
		{name: "slow access, fast bottleneck", access: 200e6, bottle: 1e9, accDelay: 5 * des.Millisecond, botDelay: 20 * des.Millisecond,
			queue: DropTail{Packets: 11}, flows: 10, window: 23, gap: 1100343},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkLazy(t, tc, 2*des.Second) })
	}
}

// TestLazyLinkEndsFirstMatchesEager is TestLazyLinkMatchesEager with
// LinkConfig.EndsFirst on every link, over the cases where links in
// lockstep (equal rates, equal packets) make ends of transmission and
// arrivals coincide all the time, with and without moving delays, and
// over random dumbbells: the same deliveries and statistics, and no
// same-instant order taken by default (the lazy link knows every one).
func TestLazyLinkEndsFirstMatchesEager(t *testing.T) {
	ms := des.Millisecond
	first := lazyMove{endsFirst: true}
	tests := []struct {
		tc lazyCase
		mv lazyMove
	}{
		{lazyCase{name: "lockstep 10M/10M", access: 10e6, bottle: 10e6, accDelay: 2 * ms, botDelay: 4 * ms, queue: DropTail{Packets: 20},
			flows: 6, window: 30, gap: 1200 * des.Microsecond, lazy: true}, first},
		{lazyCase{name: "lockstep 10M/10M, moving every 10 ms", access: 10e6, bottle: 10e6, accDelay: 2 * ms, botDelay: 4 * ms, queue: DropTail{Packets: 20},
			flows: 6, window: 30, gap: 1200 * des.Microsecond, lazy: true}, lazyMove{move: 10 * ms, minMove: 2 * ms, maxMove: 7 * ms, endsFirst: true}},
		{lazyCase{name: "lockstep 10G/1G, moving every packet time", access: 10e9, bottle: 1e9, accDelay: ms, botDelay: 5 * ms, queue: DropTail{Packets: 30},
			flows: 6, window: 40, gap: 50 * des.Microsecond, lazy: true}, lazyMove{move: 12 * des.Microsecond, minMove: 2 * ms, maxMove: 8 * ms, endsFirst: true}},
		{lazyCase{name: "lossy, jittered access, moving", access: 100e6, bottle: 10e6, accDelay: 2 * ms, botDelay: 10 * ms, queue: DropTail{Packets: 20},
			jitter: 120 * des.Microsecond, loss: 0.01, flows: 4, window: 20, gap: ms, lazy: true}, lazyMove{move: 7 * ms, minMove: 1300 * des.Microsecond, maxMove: 9 * ms, endsFirst: true}},
		{lazyCase{name: "skbs", access: 10e9, bottle: 1e9, accDelay: ms, botDelay: 5 * ms, queue: DropTail{Packets: 30}, skb: true,
			flows: 6, window: 40, gap: 50 * des.Microsecond, lazy: true}, first},
		// Host links (no delay, jitter) draw arrivals early (early.go).
		{lazyCase{name: "host links", access: 100e6, bottle: 100e6, botDelay: 10 * ms, queue: DropTail{Packets: 20},
			jitter: 120 * des.Microsecond, loss: 0.01, flows: 4, window: 20, gap: ms}, first},
		{lazyCase{name: "host links with skbs", access: 100e6, bottle: 100e6, botDelay: 10 * ms, queue: DropTail{Packets: 20},
			jitter: 120 * des.Microsecond, skb: true, flows: 4, window: 20, gap: ms}, first},
	}
	for _, c := range tests {
		t.Run(c.tc.name, func(t *testing.T) { checkLazy(t, c.tc, 2*des.Second, c.mv) })
	}
	rng := rand.New(rand.NewPCG(25, 8985))
	rates := []unit.BitRate{1e6, 10e6, 10e6, 100e6, 1e9}
	delays := []des.Duration{des.Microsecond, 1500 * des.Microsecond, 5 * ms, 25 * ms}
	for i := range 24 {
		tc := lazyCase{
			name: fmt.Sprint("random ", i), access: rates[rng.IntN(len(rates))], bottle: rates[rng.IntN(len(rates))],
			accDelay: delays[rng.IntN(len(delays))], botDelay: delays[1+rng.IntN(len(delays)-1)],
			queue: DropTail{Packets: 1 + rng.IntN(60)}, flows: 1 + rng.IntN(6), window: 1 + rng.IntN(40),
			gap: des.Duration(1+rng.IntN(2000)) * des.Microsecond, skb: rng.IntN(3) == 0,
		}
		mv := first
		if rng.IntN(2) == 0 {
			tc.loss = []float64{0.001, 0.01, 0.1}[rng.IntN(3)]
		}
		if rng.IntN(2) == 0 {
			mv.move, mv.minMove, mv.maxMove = des.Duration(1+rng.IntN(20))*ms, 2*ms, 9*ms
		}
		t.Run(tc.name, func(t *testing.T) { checkLazy(t, tc, des.Second/2, mv) })
	}
}

// TestLazyLinkMatchesEagerRandom is TestLazyLinkMatchesEager over
// dumbbells drawn at random (fixed seed): rates, delays, queue limits,
// jitter, loss and skbs in ranges that make links lazy or not.
func TestLazyLinkMatchesEagerRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 8985))
	rates := []unit.BitRate{1e6, 1.544e6, 10e6, 33_333_333, 100e6, 1e9, 10e9}
	delays := []des.Duration{0, des.Microsecond, 100 * des.Microsecond, 1500 * des.Microsecond, 5 * des.Millisecond, 25 * des.Millisecond}
	for i := range 48 {
		tc := lazyCase{
			name:     fmt.Sprint("random ", i),
			access:   rates[rng.IntN(len(rates))],
			bottle:   rates[rng.IntN(len(rates))],
			accDelay: delays[rng.IntN(len(delays))],
			botDelay: delays[1+rng.IntN(len(delays)-1)],
			queue:    DropTail{Packets: 1 + rng.IntN(60)},
			flows:    1 + rng.IntN(6),
			window:   1 + rng.IntN(40),
			gap:      des.Duration(1+rng.IntN(2000)) * des.Microsecond,
			skb:      rng.IntN(3) == 0,
		}
		if rng.IntN(2) == 0 {
			tc.jitter = des.Duration(rng.IntN(200)) * des.Microsecond
		}
		if rng.IntN(2) == 0 {
			tc.loss = []float64{0.001, 0.01, 0.1, 0.3}[rng.IntN(4)]
		}
		t.Run(tc.name, func(t *testing.T) { checkLazy(t, tc, des.Second/2) })
	}
}

// TestLazyFrameOverheadMatchesEager is the differential test with a
// frame overhead on every link (LinkConfig.FrameOverhead: 14 bytes, an
// Ethernet header counted by HTB): lazy links, links that draw arrivals
// early and netem limits give the eager deliveries and statistics.
func TestLazyFrameOverheadMatchesEager(t *testing.T) {
	tests := []lazyCase{
		{name: "lockstep", access: 10e9, bottle: 1e9, accDelay: des.Millisecond, botDelay: 5 * des.Millisecond,
			queue: DropTail{Packets: 30}, flows: 6, window: 40, gap: 50 * des.Microsecond, lazy: true},
		{name: "tclink, skbs and loss", access: 1e9, bottle: 100e6, accDelay: des.Millisecond, botDelay: 10 * des.Millisecond,
			netem: 60, loss: 0.01, skb: true, flows: 5, window: 40, gap: 200 * des.Microsecond, lazy: true},
		{name: "mininet host links", access: 100e6, bottle: 100e6, botDelay: 10 * des.Millisecond,
			netem: 42, accNetem: 5, skb: true, jitter: 120 * des.Microsecond, flows: 6, window: 30, gap: 500 * des.Microsecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkLazy(t, tc, 2*des.Second, lazyMove{overhead: 14}) })
	}
}

// TestLazyNetemLinkMatchesEager is TestLazyLinkMatchesEager with a netem
// limit on the bottleneck (a Mininet TCLink: an unlimited DropTail behind
// netem's limit, which counts the packets in the delay line too): its
// admission, its losses on admission, skbs counted and lost whole, and
// the access links with or without delay and jitter; then dumbbells drawn
// at random (fixed seed) in the same way.
func TestLazyNetemLinkMatchesEager(t *testing.T) {
	tests := []lazyCase{
		{name: "tclink, lockstep", access: 1e9, bottle: 100e6, accDelay: des.Millisecond, botDelay: 10 * des.Millisecond,
			netem: 90, flows: 5, window: 40, gap: 200 * des.Microsecond, lazy: true},
		{name: "tclink, skbs and loss", access: 1e9, bottle: 100e6, accDelay: des.Millisecond, botDelay: 10 * des.Millisecond,
			netem: 60, loss: 0.01, skb: true, flows: 5, window: 40, gap: 200 * des.Microsecond, lazy: true},
		{name: "tclink, queue limit too, jitter", access: 100e6, bottle: 10e6, accDelay: 2 * des.Millisecond, botDelay: 20 * des.Millisecond,
			queue: DropTail{Packets: 10}, netem: 30, jitter: 120 * des.Microsecond, loss: 0.002, flows: 4, window: 20, gap: des.Millisecond, lazy: true},
		{name: "mininet-like, access without delay", access: 100e6, bottle: 100e6, botDelay: 10 * des.Millisecond,
			netem: 42, skb: true, jitter: 120 * des.Microsecond, flows: 6, window: 30, gap: 500 * des.Microsecond},
		// Host links as Mininet's TCLinks: no delay, jitter, a netem
		// limit small enough to drop; they draw arrivals early (early.go).
		{name: "mininet host links", access: 100e6, bottle: 100e6, botDelay: 10 * des.Millisecond,
			netem: 42, accNetem: 5, skb: true, jitter: 120 * des.Microsecond, flows: 6, window: 30, gap: 500 * des.Microsecond},
		{name: "mininet host links, loss", access: 100e6, bottle: 10e6, botDelay: 10 * des.Millisecond,
			netem: 20, accNetem: 3, loss: 0.01, jitter: 120 * des.Microsecond, flows: 4, window: 20, gap: des.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkLazy(t, tc, 2*des.Second) })
	}
	rng := rand.New(rand.NewPCG(42, 2009))
	rates := []unit.BitRate{1e6, 10e6, 33_333_333, 100e6, 1e9}
	delays := []des.Duration{0, des.Microsecond, 1500 * des.Microsecond, 5 * des.Millisecond, 25 * des.Millisecond}
	for i := range 24 {
		tc := lazyCase{
			name: fmt.Sprint("random ", i),
			// An access link of at least 10 Mbit/s: at 1 Mbit/s a first
			// window sent as one skb outlasts the run.
			access:   rates[1+rng.IntN(len(rates)-1)],
			bottle:   rates[rng.IntN(len(rates))],
			accDelay: delays[rng.IntN(len(delays))],
			botDelay: delays[1+rng.IntN(len(delays)-1)],
			netem:    1 + rng.IntN(100),
			flows:    1 + rng.IntN(6),
			window:   1 + rng.IntN(40),
			gap:      des.Duration(1+rng.IntN(2000)) * des.Microsecond,
			skb:      rng.IntN(3) == 0,
		}
		if rng.IntN(2) == 0 {
			tc.queue = DropTail{Packets: 1 + rng.IntN(60)}
		}
		if rng.IntN(2) == 0 {
			tc.jitter = des.Duration(rng.IntN(200)) * des.Microsecond
		}
		if rng.IntN(2) == 0 {
			tc.loss = []float64{0.001, 0.01, 0.1}[rng.IntN(3)]
		}
		t.Run(tc.name, func(t *testing.T) { checkLazy(t, tc, des.Second/2) })
	}
}

// lazyCase is one dumbbell of the differential tests.
type lazyCase struct {
	name               string
	access, bottle     unit.BitRate
	accDelay, botDelay des.Duration
	queue              DropTail
	jitter             des.Duration
	loss               float64
	skb                bool
	flows, window      int
	gap                des.Duration
	lazy               bool // every link lazy (else: links whose delay is shorter than a packet's time are not)
	netem              int  // the bottleneck's netem limit in both directions (a Mininet TCLink); 0: none
	accNetem           int  // the access links' netem limit; 0: none
}

// lazyMove is what TestLazyLinkEndsFirstMatchesEager adds to a lazyCase:
// move, when set, changes every link's delay every move (SetDelay, as a
// satellite network's routing step does) to a value drawn from [minMove,
// maxMove) on a stream of its own; endsFirst sets LinkConfig.EndsFirst on
// every link, and the lazy run must then take no same-instant order by
// default.
type lazyMove struct {
	move, minMove, maxMove des.Duration
	endsFirst              bool
	// overhead is every link's LinkConfig.FrameOverhead.
	overhead unit.Bytes
}

// mover changes the delay of every link every gap, as leonet's routing
// step does; the same draws in both runs of a differential test.
type mover struct {
	net      *Network
	gap      des.Duration
	lo, span des.Duration
	rng      *rand.Rand
	t        *testing.T
}

func (m *mover) Handle(now des.Time, kind int, arg uint64) {
	for _, l := range m.net.Links() {
		if err := l.SetDelay(m.lo + des.Duration(m.rng.Int64N(int64(m.span)))); err != nil {
			m.t.Fatal(err)
		}
	}
	m.net.sched.Schedule(now.Add(m.gap), m, 0, 0)
}

// checkLazy runs tc for dur with lazy and with eager links and compares.
func checkLazy(t *testing.T, tc lazyCase, dur des.Duration, moves ...lazyMove) {
	t.Helper()
	var mv lazyMove
	if len(moves) > 0 {
		mv = moves[0]
	}
	early := 0
	run := func(eager bool) (lazyRun, uint64, int, int64) {
		var obs Observer
		if eager {
			obs = nopObserver{}
		}
		r, c := runLazyCase(t, tc, dur, mv, obs, false)
		if !eager {
			early = c.early
		}
		return r, c.processed, c.lazy, c.ties
	}
	want, evEager, lazyEager, _ := run(true)
	got, evLazy, lazy, ties := run(false)
	if lazyEager != 0 {
		t.Fatalf("%d links lazy with an observer installed, want 0", lazyEager)
	}
	if tc.lazy && lazy != len(got.Links) {
		t.Errorf("%d of %d links lazy, want all", lazy, len(got.Links))
	}
	for i := range want.Got {
		if k := firstDiff(want.Got[i], got.Got[i]); k >= 0 {
			t.Errorf("flow %d: arrival %d of %d differs: eager %v, lazy %v", i+1, k, len(want.Got[i]), at(want.Got[i], k), at(got.Got[i], k))
		}
	}
	if diff := cmp.Diff(want.Links, got.Links); diff != "" {
		t.Errorf("link statistics differ (-eager +lazy):\n%s", diff)
	}
	// Links that draw arrivals early order ties otherwise unless their
	// ends come first (early.go); lazy links count exactly.
	if (mv.endsFirst || early == 0) && want.Events != got.Events {
		t.Errorf("Network.Events: eager %d, lazy %d", want.Events, got.Events)
	}
	if want.NoRt != got.NoRt {
		t.Errorf("no-route drops: eager %d, lazy %d", want.NoRt, got.NoRt)
	}
	var n int
	for _, g := range got.Got {
		n += len(g)
	}
	if n == 0 || tc.lazy && got.Links[0].Dropped() == 0 {
		t.Errorf("%d deliveries and %d bottleneck drops: the case does not load the queue", n, got.Links[0].Dropped())
	}
	// A same-instant order the link could not work out need not
	// change anything; the comparison above is the test. With EndsFirst
	// there is none to work out.
	if mv.endsFirst && ties != 0 {
		t.Errorf("%d same-instant orders taken by default with EndsFirst, want none", ties)
	}
	t.Logf("%d deliveries, %d bottleneck drops; %d of %d links lazy; events %d eager, %d lazy; %d same-instant orders taken by default",
		n, got.Links[0].Dropped(), lazy, len(got.Links), evEager, evLazy, ties)
	if tc.lazy && evLazy >= evEager {
		t.Errorf("lazy run handled %d events, eager %d: want fewer", evLazy, evEager)
	}
}

// firstDiff returns the first index where a and b differ, or -1.
func firstDiff(a, b []arrival) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func at(a []arrival, i int) any {
	if i < len(a) {
		return a[i]
	}
	return "none"
}

// TestLazyMaxBits checks the threshold a lazy link compares packets with
// against its definition, bitTime(b, bps) < delay, on both sides of it:
// at b = lazyMaxBits the transmission is shorter than the delay, at b+1
// it is not. The cases include rates that do not divide 1e9 (ceil
// rounding), a delay of 1 ns (no bit fits), and products that overflow 64
// bits; random cases cover the rest. Exact: integer arithmetic, tolerance 0.
func TestLazyMaxBits(t *testing.T) {
	type tc struct {
		delay des.Duration
		bps   uint64
	}
	cases := []tc{
		{des.Millisecond, 10e9}, {25 * des.Millisecond, 1e9}, {1, 1e9}, {2, 1e9}, {1, 3},
		{7, 3}, {des.Microsecond, 100e6}, {1000, 999_999_999}, {1 << 40, 1 << 40},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 2000 {
		cases = append(cases, tc{des.Duration(1 + rng.Int64N(int64(10*des.Second))), 1 + rng.Uint64N(1e12)})
	}
	for _, c := range cases {
		b := lazyMaxBits(c.delay, c.bps)
		if b == math.MaxUint64 {
			// Saturated: every size a link can send fits.
			if got := bitTime(1<<40, c.bps); got >= uint64(c.delay) {
				t.Errorf("lazyMaxBits(%v, %d) saturated, but bitTime(2^40) = %d >= delay", c.delay, c.bps, got)
			}
			continue
		}
		if b > 0 && bitTime(b, c.bps) >= uint64(c.delay) {
			t.Errorf("lazyMaxBits(%v, %d) = %d: bitTime = %d, want < %d", c.delay, c.bps, b, bitTime(b, c.bps), c.delay)
		}
		if bitTime(b+1, c.bps) < uint64(c.delay) {
			t.Errorf("lazyMaxBits(%v, %d) = %d: bitTime(b+1) = %d < %d, want the largest", c.delay, c.bps, b, bitTime(b+1, c.bps), c.delay)
		}
	}
}

// lazyCounts is what a run of runLazyCase did besides its result: the
// scheduler's queued events and followers, the links that ran lazy and
// that drew arrivals early, and the same-instant orders lazy links took
// by default.
type lazyCounts struct {
	processed, followed uint64
	lazy, early         int
	ties                int64
}

// runLazyCase runs tc for dur with the moves of mv, with obs as the
// network's observer (nil: none, so links may run lazy) and, if noFollow,
// every end of transmission queued (follow.go).
func runLazyCase(t *testing.T, tc lazyCase, dur des.Duration, mv lazyMove, obs Observer, noFollow bool) (lazyRun, lazyCounts) {
	t.Helper()
	s := des.New()
	net := New(s, 7)
	net.noFollow = noFollow
	if obs != nil {
		net.SetObserver(obs)
	}
	access := Hop{
		Forward: LinkConfig{Rate: tc.access, Delay: tc.accDelay, Queue: DropTail{Packets: 1000}, Jitter: tc.jitter, EndsFirst: mv.endsFirst, NetemLimit: tc.accNetem, FrameOverhead: mv.overhead},
		Reverse: LinkConfig{Rate: tc.access, Delay: tc.accDelay, Queue: DropTail{Packets: 1000}, Jitter: tc.jitter, EndsFirst: mv.endsFirst, NetemLimit: tc.accNetem, FrameOverhead: mv.overhead},
	}
	var loss LossModel
	if tc.loss > 0 {
		loss = Bernoulli{P: tc.loss}
	}
	d, err := NewDumbbell(net, DumbbellConfig{
		N: tc.flows, SenderAccess: access, ReceiverAccess: access,
		Bottleneck: Hop{
			Forward: LinkConfig{Rate: tc.bottle, Delay: tc.botDelay, Queue: tc.queue, Loss: loss, NetemLimit: tc.netem, EndsFirst: mv.endsFirst, FrameOverhead: mv.overhead},
			Reverse: LinkConfig{Rate: tc.bottle, Delay: tc.botDelay, Queue: tc.queue, NetemLimit: tc.netem, EndsFirst: mv.endsFirst, FrameOverhead: mv.overhead},
		},
	})
	if err != nil {
		t.Fatal(err)
	}

	var echoes []*echo
	for i := range tc.flows {
		f := FlowID(i + 1)
		p := &pinger{net: net, from: d.Senders[i], dst: d.Receivers[i].ID(), flow: f, window: tc.window,
			gap: tc.gap, skb: tc.skb, rng: rand.New(rand.NewPCG(uint64(i), 1)), until: des.Time(dur - 100*des.Millisecond)}
		e := &echo{net: net, node: d.Receivers[i]}
		if err := d.Senders[i].Attach(f, p); err != nil {
			t.Fatal(err)
		}
		if err := d.Receivers[i].Attach(f, e); err != nil {
			t.Fatal(err)
		}
		echoes = append(echoes, e)
		// Every flow opens its window at the same instant.
		p.send(0, tc.window)
		s.Schedule(0, p, 0, 0)
	}
	if mv.move > 0 {
		s.Schedule(des.Time(mv.move), &mover{net: net, gap: mv.move, lo: mv.minMove, span: mv.maxMove - mv.minMove,
			rng: rand.New(rand.NewPCG(5, 5)), t: t}, 0, 0)
	}
	if err := s.Run(context.Background(), des.Time(dur)); err != nil {
		t.Fatal(err)
	}
	var r lazyRun
	var c lazyCounts
	for _, e := range echoes {
		r.Got = append(r.Got, e.got)
	}
	for _, l := range net.Links() {
		r.Links = append(r.Links, l.Stats())
		if l.lz.on {
			c.lazy++
		}
		if l.early.on {
			c.early++
		}
		c.ties += l.lz.ties
	}
	for _, n := range net.Nodes() {
		r.NoRt += n.noRoute
	}
	r.Events = net.Events()
	c.processed, c.followed = s.Processed(), s.Handled()-s.Processed()
	return r, c
}
