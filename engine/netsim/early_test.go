package netsim

import (
	"context"
	"slices"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// orderLog records, in the order they run, the deliveries to a receiver
// and the events of a probe.
type orderLog struct {
	net    *Network
	ran    []string
	arrive des.Time
}

func (o *orderLog) Receive(now des.Time, p *Packet) {
	o.ran = append(o.ran, "arrival")
	o.arrive = now
	o.net.Free(p)
}

// Event kinds of orderLog as a handler.
const (
	kindProbe    = iota // record "probe"
	kindSchedule        // schedule a kindProbe event at arg (ns)
)

func (o *orderLog) Handle(now des.Time, kind int, arg uint64) {
	switch kind {
	case kindProbe:
		o.ran = append(o.ran, "probe")
	case kindSchedule:
		o.net.sched.Schedule(des.Time(arg), o, kindProbe, 0)
	}
}

// TestEarlyArrivalTieOrder pins down the same-instant order in which a
// link that draws arrivals early (early.go) departs from an eager link,
// as netsim's doc says: the early link schedules the arrival event when
// the transmission starts, so at the arrival's nanosecond it runs before
// an event that was scheduled while the transmission lasted; the eager
// link schedules it when the transmission ends, after that event. A host
// link (no delay, jitter) sends one packet at 0; 1 ns later an event
// schedules a probe for the instant the packet arrives (found by a first
// run: the jitter draw is the same whichever way the link runs).
func TestEarlyArrivalTieOrder(t *testing.T) {
	const txEnd = des.Time(12 * des.Microsecond) // 1500 B at 1 Gbit/s
	run := func(t *testing.T, eager bool, probeAt des.Time) (*orderLog, *Link) {
		s := des.New()
		n := New(s, 1)
		if eager {
			n.SetObserver(nopObserver{})
		}
		h, r := n.AddNode("host"), n.AddNode("router")
		l, err := n.Connect(h, r, LinkConfig{Rate: 1e9, Queue: DropTail{Packets: 10}, Jitter: 10 * des.Microsecond})
		if err != nil {
			t.Fatal(err)
		}
		n.ComputeRoutes()
		log := &orderLog{net: n}
		if err := r.Attach(1, log); err != nil {
			t.Fatal(err)
		}
		src := &source{net: n, from: h, dst: r.ID(), flow: 1, size: 1500, n: 1}
		s.Schedule(0, src, 0, 0)
		if probeAt > 0 {
			s.Schedule(1, log, kindSchedule, uint64(probeAt))
		}
		if err := s.Run(context.Background(), des.Forever); err != nil {
			t.Fatal(err)
		}
		return log, l
	}
	first, _ := run(t, true, 0)
	if first.arrive <= txEnd {
		// A jitter draw of 0 delivers at the end of the transmission,
		// in its event; the case needs an arrival event.
		t.Fatalf("arrival at %v, not after the end of transmission at %v: pick another seed", first.arrive, txEnd)
	}
	for _, c := range []struct {
		eager bool
		want  []string
	}{
		{eager: true, want: []string{"probe", "arrival"}},
		{eager: false, want: []string{"arrival", "probe"}},
	} {
		log, l := run(t, c.eager, first.arrive)
		if l.early.on == c.eager {
			t.Errorf("eager %v: the link draws arrivals early %v, want %v", c.eager, l.early.on, !c.eager)
		}
		if log.arrive != first.arrive {
			t.Errorf("eager %v: arrival at %v, want %v", c.eager, log.arrive, first.arrive)
		}
		if !slices.Equal(log.ran, c.want) {
			t.Errorf("eager %v: at %v the handlers ran in the order %v, want %v", c.eager, first.arrive, log.ran, c.want)
		}
	}
}
