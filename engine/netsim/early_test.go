package netsim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// earlyCase is a dumbbell whose access links are hosts' links as
// tcp-compete builds them (no delay, jitter), with what happens to it
// during the run.
type earlyCase struct {
	name           string
	access, bottle unit.BitRate
	jitter         des.Duration
	queue          int // DropTail limit of the access links, packets
	netem          int // the access links' netem limit; 0: none
	loss           float64
	skb            bool
	flows, window  int
	gap            des.Duration
	// During the run: every link's statistics read every read (an
	// interaction at times no packet event picks), the access links'
	// rate changed every rerate, an observer installed at observeAt.
	read, rerate des.Duration
	observeAt    des.Time
}

// earlyRun is what a run of an earlyCase gives.
type earlyRun struct {
	Got    [][]arrival
	Reads  [][]LinkStats
	Links  []LinkStats
	Events uint64
}

// reader reads every link's statistics every gap.
type reader struct {
	net   *Network
	gap   des.Duration
	reads [][]LinkStats
}

func (r *reader) Handle(now des.Time, _ int, _ uint64) {
	var s []LinkStats
	for _, l := range r.net.Links() {
		s = append(s, l.Stats())
	}
	r.reads = append(r.reads, s)
	r.net.sched.Schedule(now.Add(r.gap), r, 0, 0)
}

// rerater changes the access links' rate every gap, between two values.
type rerater struct {
	links []*Link
	gap   des.Duration
	rates [2]unit.BitRate
	n     int
	t     *testing.T
}

func (r *rerater) Handle(now des.Time, _ int, _ uint64) {
	r.n++
	for _, l := range r.links {
		if err := l.SetRate(r.rates[r.n%2]); err != nil {
			r.t.Fatal(err)
		}
	}
	r.links[0].net.sched.Schedule(now.Add(r.gap), r, 0, 0)
}

// observerAt installs an observer when its event runs.
type observerAt struct{ net *Network }

func (o observerAt) Handle(des.Time, int, uint64) { o.net.SetObserver(nopObserver{}) }

// runEarly runs c for dur, with every start of an early link an event
// (the reference) or not.
func runEarly(t *testing.T, c earlyCase, dur des.Duration, startEvents bool) (earlyRun, uint64, int64) {
	s := des.New()
	net := New(s, 11)
	net.earlyStartEvents = startEvents
	var loss LossModel
	if c.loss > 0 {
		loss = Bernoulli{P: c.loss}
	}
	host := LinkConfig{Rate: c.access, Queue: DropTail{Packets: c.queue}, Jitter: c.jitter, NetemLimit: c.netem, Loss: loss}
	d, err := NewDumbbell(net, DumbbellConfig{
		N: c.flows, SenderAccess: Hop{Forward: host, Reverse: host}, ReceiverAccess: Hop{Forward: host, Reverse: host},
		Bottleneck: Hop{
			Forward: LinkConfig{Rate: c.bottle, Delay: 5 * des.Millisecond, Queue: DropTail{Packets: 30}},
			Reverse: LinkConfig{Rate: c.bottle, Delay: 5 * des.Millisecond, Queue: DropTail{Packets: 30}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var echoes []*echo
	for i := range c.flows {
		f := FlowID(i + 1)
		p := &pinger{net: net, from: d.Senders[i], dst: d.Receivers[i].ID(), flow: f, window: c.window,
			gap: c.gap, skb: c.skb, rng: rand.New(rand.NewPCG(uint64(i), 3)), until: des.Time(dur - 50*des.Millisecond)}
		e := &echo{net: net, node: d.Receivers[i]}
		if err := d.Senders[i].Attach(f, p); err != nil {
			t.Fatal(err)
		}
		if err := d.Receivers[i].Attach(f, e); err != nil {
			t.Fatal(err)
		}
		echoes = append(echoes, e)
		p.send(0, c.window)
		s.Schedule(0, p, 0, 0)
	}
	rd := &reader{net: net, gap: c.read}
	if c.read > 0 {
		s.Schedule(des.Time(c.read), rd, 0, 0)
	}
	if c.rerate > 0 {
		var access []*Link
		for _, ls := range [][]*Link{d.SenderAccess, d.SenderAccessReverse, d.ReceiverAccess, d.ReceiverAccessReverse} {
			access = append(access, ls...)
		}
		s.Schedule(des.Time(c.rerate), &rerater{links: access, gap: c.rerate, rates: [2]unit.BitRate{c.access / 2, c.access}, t: t}, 0, 0)
	}
	if c.observeAt > 0 {
		s.Schedule(c.observeAt, observerAt{net}, 0, 0)
	}
	if err := s.Run(context.Background(), des.Time(dur)); err != nil {
		t.Fatal(err)
	}
	var r earlyRun
	for _, e := range echoes {
		r.Got = append(r.Got, e.got)
	}
	r.Reads = rd.reads
	var ties int64
	for _, l := range net.Links() {
		r.Links = append(r.Links, l.Stats())
		ties += l.early.ties
	}
	r.Events = net.Events()
	return r, s.Processed(), ties
}

// TestEarlyStartsWithoutEventsMatch runs hosts' links (no delay, jitter:
// they draw arrivals early) with the start at the end of a transmission
// done without its event while a packet is still on the wire (early.go),
// and with every start an event, and requires the same deliveries (time,
// packet id, sequence), the same statistics of every link read during the
// run and at its end, and the same Network.Events: the starts without
// events are an optimisation, exact to the nanosecond and to the order of
// simultaneous events. The cases read statistics, change the links' rate
// and install an observer during the run (each an interaction that must
// find the starts due done, or turn the next into an event), and cover
// skbs, netem limits with loss, small queues that drop, and rates whose
// packet times coincide.
func TestEarlyStartsWithoutEventsMatch(t *testing.T) {
	ms := des.Millisecond
	us := des.Microsecond
	cases := []earlyCase{
		{name: "probe-like", access: 10e9, bottle: 1e9, jitter: 1200 * des.Nanosecond, queue: 1000, flows: 6, window: 40, gap: 50 * us, read: 777 * us},
		{name: "skbs, small queues", access: 1e9, bottle: 100e6, jitter: 12 * us, queue: 4, skb: true, flows: 5, window: 30, gap: 200 * us, read: 333 * us},
		{name: "mininet host links", access: 100e6, bottle: 100e6, jitter: 120 * us, queue: 1000, netem: 5, loss: 0.01, skb: true, flows: 4, window: 20, gap: ms, read: 1300 * us},
		{name: "rates changing", access: 1e9, bottle: 300e6, jitter: 5 * us, queue: 20, flows: 4, window: 30, gap: 100 * us, rerate: 3 * ms, read: 2 * ms},
		{name: "observer from 0.4 s", access: 1e9, bottle: 100e6, jitter: 12 * us, queue: 20, skb: true, flows: 4, window: 30, gap: 100 * us, observeAt: des.Time(400 * ms)},
		// Jitter of 2 ns (a draw of 0 or 1 ns): the packet ahead arrives
		// as the next starts about half the time, and that start keeps
		// its event; the links' rates coincide.
		{name: "jitter of two nanoseconds", access: 1e9, bottle: 1e9, jitter: 2, queue: 20, flows: 4, window: 30, gap: 12 * us, read: 120 * us},
	}
	rng := rand.New(rand.NewPCG(5, 19))
	rates := []unit.BitRate{10e6, 100e6, 1e9, 10e9}
	for i := range 12 {
		cases = append(cases, earlyCase{
			name: fmt.Sprint("random ", i), access: rates[1+rng.IntN(3)], bottle: rates[rng.IntN(4)],
			jitter: des.Duration(1 + rng.IntN(200_000)), queue: 1 + rng.IntN(50), skb: rng.IntN(2) == 0,
			flows: 1 + rng.IntN(6), window: 1 + rng.IntN(40), gap: des.Duration(1+rng.IntN(2000)) * us,
			read: des.Duration(1+rng.IntN(5000)) * us, loss: []float64{0, 0, 0.01}[rng.IntN(3)], netem: []int{0, 0, 3}[rng.IntN(3)],
		})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			const dur = des.Second / 2
			want, evRef, _ := runEarly(t, c, dur, true)
			got, ev, ties := runEarly(t, c, dur, false)
			for i := range want.Got {
				if k := firstDiff(want.Got[i], got.Got[i]); k >= 0 {
					t.Errorf("flow %d: arrival %d of %d differs: with start events %v, without %v", i+1, k, len(want.Got[i]), at(want.Got[i], k), at(got.Got[i], k))
				}
			}
			if diff := cmp.Diff(want.Reads, got.Reads); diff != "" {
				t.Errorf("statistics read during the run differ (-with start events +without):\n%s", diff)
			}
			if diff := cmp.Diff(want.Links, got.Links); diff != "" {
				t.Errorf("link statistics differ (-with start events +without):\n%s", diff)
			}
			if want.Events != got.Events {
				t.Errorf("Network.Events: %d with start events, %d without", want.Events, got.Events)
			}
			var n int
			for _, g := range got.Got {
				n += len(g)
			}
			if n == 0 {
				t.Error("nothing delivered")
			}
			t.Logf("%d deliveries; events %d with start events, %d without; %d same-instant orders taken by default", n, evRef, ev, ties)
		})
	}
}
