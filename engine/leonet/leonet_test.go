package leonet

import (
	"context"
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// kuiper returns Kuiper K1's forwarding state toward stations, default
// geometry, Hypatia's range limit.
func kuiper(t *testing.T, stations []orbit.Station, outages []orbit.Outage) *orbit.Forwarding {
	t.Helper()
	sh, err := orbit.ShellNamed("kuiper-k1")
	if err != nil {
		t.Fatal(err)
	}
	f, err := orbit.NewFleet(orbit.FleetConfig{Shells: []orbit.Shell{sh}, Motion: orbit.Motion{SGP4: true, GMST0: orbit.GMSTAt(-0.5)}, UseCone: true})
	if err != nil {
		t.Fatal(err)
	}
	fw, err := orbit.NewForwarding(f, orbit.WGS72, stations, orbit.OverISLs, outages)
	if err != nil {
		t.Fatal(err)
	}
	return fw
}

// recorder keeps the arrival time of each packet by sequence number.
type recorder struct {
	net *netsim.Network
	at  map[uint32]des.Time
	n   int64
}

func (r *recorder) Receive(now des.Time, p *netsim.Packet) {
	if r.at != nil {
		r.at[p.Seq] = now
	}
	r.n++
	r.net.Free(p)
}

// sender sends one packet of size bytes from a node to dst at each
// scheduled event, numbered by the event's arg.
type sender struct {
	net  *netsim.Network
	from *netsim.Node
	dst  netsim.NodeID
	flow netsim.FlowID
	size unit.Bytes
	sent int64
}

func (s *sender) Handle(now des.Time, kind int, arg uint64) {
	p := s.net.NewPacket()
	p.Flow, p.Dst, p.Seq, p.Size, p.Payload = s.flow, s.dst, uint32(arg), s.size, s.size
	s.from.Send(p)
	s.sent++
}

// TestLonePacketDelay sends one packet from Manila to Dalian 1 ms after
// each of 50 routing steps of 100 ms over idle links: it arrives after the
// forwarding state's path length over c plus its transmission on each
// hop. Tolerance: half a nanosecond per hop, each link's delay being
// rounded to the nanosecond (and the transmission times are exact).
// So the network follows the forwarding state at every step and its
// delays follow the links' lengths.
func TestLonePacketDelay(t *testing.T) {
	a, _ := orbit.City("manila")
	b, _ := orbit.City("dalian")
	fw := kuiper(t, []orbit.Station{a, b}, nil)
	s := des.New()
	net := netsim.New(s, 1)
	const rate = 1e9
	ln, err := New(net, fw, Config{ISLRate: rate, GSLRate: rate, Interval: 100 * des.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln.Start()
	rec := &recorder{net: net, at: map[uint32]des.Time{}}
	if err := ln.Station(1).Attach(1, rec); err != nil {
		t.Fatal(err)
	}
	snd := &sender{net: net, from: ln.Station(0), dst: ln.Station(1).ID(), flow: 1, size: 1500}
	const steps = 50
	want := make([]float64, steps)
	hops := make([]int, steps)
	var path []int
	// Record the state of each step when the packet leaves.
	for i := 0; i < steps; i++ {
		at := des.Time(i)*des.Time(100*des.Millisecond) + des.Time(des.Millisecond)
		s.Schedule(at, snd, 0, uint64(i))
		s.Schedule(at, handlerFunc(func(des.Time, int, uint64) {
			path = fw.Path(fw.Satellites(), 1, path[:0])
			hops[i] = len(path) - 1
			want[i] = float64(at) + fw.Dist(fw.Satellites(), 1)/orbit.LightSpeed*1e9 +
				float64(hops[i])*float64(unit.BitRate(rate).TxTime(1500))
		}), 0, 0)
	}
	if err := s.Run(context.Background(), des.Time(steps)*des.Time(100*des.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if len(rec.at) != steps {
		t.Fatalf("%d of %d packets arrived", len(rec.at), steps)
	}
	for i := 0; i < steps; i++ {
		got := float64(rec.at[uint32(i)])
		if tol := 0.5 * float64(hops[i]); math.Abs(got-want[i]) > tol {
			t.Errorf("step %d: arrived at %.0f ns, want %.1f (%d hops, tolerance %.1f ns)", i, got, want[i], hops[i], tol)
		}
	}
	if ln.Steps() != steps+1 && ln.Steps() != steps {
		t.Errorf("%d routing steps, want %d", ln.Steps(), steps)
	}
}

// TestConservation loads 20 of Hypatia's cities and a station at the
// North Pole (which no Kuiper satellite reaches: every packet for it is
// dropped for want of a route) with 10 Mbit/s flows over 10 Mbit/s links
// with 20-packet queues, stops mid-flight, and counts: every packet
// originated was received, dropped by a link (by reason) or for want of a
// route, or is in a queue or on a wire. Exact, counts of packets; and
// each link balances on its own.
func TestConservation(t *testing.T) {
	st := orbit.HypatiaCities()[:20]
	pole, _ := orbit.StationAt("north-pole", 90, 0)
	st = append(st, pole)
	fw := kuiper(t, st, []orbit.Outage{{From: 0.35, To: 0.75, Sat: 700}})
	s := des.New()
	net := netsim.New(s, 7)
	ln, err := New(net, fw, Config{ISLRate: 10e6, GSLRate: 10e6, ISLQueue: netsim.DropTail{Packets: 20},
		GSLQueue: netsim.DropTail{Packets: 20}, Interval: 100 * des.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln.Start()
	rec := &recorder{net: net}
	for i := range st {
		ln.Station(i).SetDefault(rec)
	}
	var senders []*sender
	// Each station i sends to station (i*7+3) mod 21, 1500 B every 1.2
	// ms (10 Mbit/s): several flows share links and queues overflow.
	for i := range st {
		d := (i*7 + 3) % len(st)
		if d == i {
			continue
		}
		sn := &sender{net: net, from: ln.Station(i), dst: ln.Station(d).ID(), flow: netsim.FlowID(i + 1), size: 1500}
		senders = append(senders, sn)
		for k := 0; k < 1000; k++ {
			s.Schedule(des.Time(k)*des.Time(1200*des.Microsecond)+des.Time(i)*des.Time(10*des.Microsecond), sn, 0, uint64(k))
		}
	}
	if err := s.Run(context.Background(), des.Time(1100*des.Millisecond)); err != nil {
		t.Fatal(err)
	}
	var sent, noRoute, drops, held int64
	var byReason [netsim.NumDropReasons]int64
	for _, sn := range senders {
		sent += sn.sent
	}
	for _, nd := range net.Nodes() {
		noRoute += nd.Stats().NoRoute
	}
	for _, l := range net.Links() {
		ls := l.Stats()
		var ld int64
		for r, x := range ls.Drops {
			ld += x
			byReason[r] += x
		}
		if ls.Sent != ls.Delivered+ld+int64(ls.Queued+ls.InFlight) {
			t.Errorf("link %s: sent %d != delivered %d + dropped %d + queued %d + on the wire %d", l.Name(), ls.Sent, ls.Delivered, ld, ls.Queued, ls.InFlight)
		}
		drops += ld
		held += int64(ls.Queued + ls.InFlight)
	}
	t.Logf("originated %d: received %d, link drops %d %v, no route %d, held %d; %d steps, %d route switches, %d links",
		sent, rec.n, drops, byReason, noRoute, held, ln.Steps(), ln.Switches(), len(net.Links()))
	if sent != rec.n+drops+noRoute+held {
		t.Errorf("originated %d != received %d + link drops %d + no route %d + held %d", sent, rec.n, drops, noRoute, held)
	}
	if noRoute == 0 || drops == 0 || held == 0 || rec.n == 0 {
		t.Errorf("want every outcome exercised: received %d, link drops %d, no route %d, held %d", rec.n, drops, noRoute, held)
	}
	if ln.Switches() == 0 {
		t.Error("no route changed in 11 steps of a moving shell")
	}
}

type handlerFunc func(now des.Time, kind int, arg uint64)

func (f handlerFunc) Handle(now des.Time, kind int, arg uint64) { f(now, kind, arg) }

// TestBottleneckShare: three 6 Mbit/s UDP flows from Manila to Dalian
// share 10 Mbit/s links (the first inter-satellite link of the path is the
// bottleneck; ground links are infinitely fast): what arrives is the
// bottleneck's rate. Over 0.5-2.0 s, while the path stays the same (the
// test checks that it does), the three flows together receive 10 Mbit/s
// within 1 % (the window holds some 1,250 packets; a packet more or less
// at each end is 0.2 %). How they split it is DropTail's with
// deterministic arrivals (here 6, 2 and 2 Mbit/s: the first flow's packets
// come just after a departure frees a place), not a claim.
func TestBottleneckShare(t *testing.T) {
	a, _ := orbit.City("manila")
	b, _ := orbit.City("dalian")
	fw := kuiper(t, []orbit.Station{a, b}, nil)
	s := des.New()
	net := netsim.New(s, 3)
	ln, err := New(net, fw, Config{ISLRate: 10e6, ISLQueue: netsim.DropTail{Packets: 50}, Interval: 100 * des.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ln.Start()
	var bytes [3]unit.Bytes
	var first, last des.Time = des.Time(500 * des.Millisecond), des.Time(2000 * des.Millisecond)
	for f := 0; f < 3; f++ {
		f := f
		if err := ln.Station(1).Attach(netsim.FlowID(f+1), receiverFunc(func(now des.Time, p *netsim.Packet) {
			if now >= first && now < last {
				bytes[f] += p.Size
			}
			net.Free(p)
		})); err != nil {
			t.Fatal(err)
		}
		sn := &sender{net: net, from: ln.Station(0), dst: ln.Station(1).ID(), flow: netsim.FlowID(f + 1), size: 1500}
		gap := des.Duration(2 * des.Millisecond) // 1500 B per 2 ms: 6 Mbit/s
		for k := 0; k < 1100; k++ {
			s.Schedule(des.Time(k)*des.Time(gap)+des.Time(f)*des.Time(300*des.Microsecond), sn, 0, uint64(k))
		}
	}
	var paths [][]int
	for i := 0; i <= 20; i++ {
		s.Schedule(des.Time(i)*des.Time(100*des.Millisecond)+1, handlerFunc(func(des.Time, int, uint64) {
			paths = append(paths, fw.Path(fw.Satellites(), 1, nil))
		}), 0, 0)
	}
	if err := s.Run(context.Background(), last); err != nil {
		t.Fatal(err)
	}
	for i := 4; i < len(paths); i++ {
		if len(paths[i]) != len(paths[4]) || paths[i][1] != paths[4][1] || paths[i][2] != paths[4][2] {
			t.Fatalf("the path's first hops changed at step %d: %v, then %v", i, paths[4], paths[i])
		}
	}
	total := 0.0
	for _, b := range bytes {
		total += float64(b) * 8
	}
	rate := total / (last - first).Seconds()
	t.Logf("flows received %v bytes: %.4f Mbit/s together", bytes, rate/1e6)
	if math.Abs(rate/10e6-1) > 0.01 {
		t.Errorf("three flows through a 10 Mbit/s bottleneck receive %.4f Mbit/s together, want 10 within 1 %%", rate/1e6)
	}
}

type receiverFunc func(now des.Time, p *netsim.Packet)

func (f receiverFunc) Receive(now des.Time, p *netsim.Packet) { f(now, p) }
