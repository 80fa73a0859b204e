package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// hostRun sends 4 MB from a sender behind a 10 Mbit/s link with an
// unlimited queue (a host's qdisc) through a router and a 10 ms netem
// delay line (which orphans what it admits) to a receiver, with the given
// host model on both ends; it returns the host link's largest backlog in
// bytes, the time the transfer took and the receiver's ACK count per
// data segment.
func hostRun(t *testing.T, h Host) (maxQueue unit.Bytes, took des.Time, acksPerSeg float64) {
	t.Helper()
	s := des.New()
	net := netsim.New(s, 1)
	a, r, b := net.AddNode("a"), net.AddNode("r"), net.AddNode("b")
	hostLink, err := net.Connect(a, r, netsim.LinkConfig{Rate: 10e6})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, to *netsim.Node
		cfg      netsim.LinkConfig
	}{
		{r, b, netsim.LinkConfig{Rate: 100e6, Delay: 10 * des.Millisecond, NetemLimit: 100000}},
		{b, r, netsim.LinkConfig{Rate: 100e6, Delay: 10 * des.Millisecond}},
		{r, a, netsim.LinkConfig{Rate: 100e6}},
	} {
		if _, err := net.Connect(c.from, c.to, c.cfg); err != nil {
			t.Fatal(err)
		}
	}
	net.ComputeRoutes()
	cfg := baseConfig()
	cfg.RcvBuf = 128 << 10
	ca, cb := &app{t: t}, &app{t: t}
	src, err := New(s, cfg, cc.NewReno(false), NodePort{Net: net, Node: a}, ca, 1, a.ID(), b.ID(), 1)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := New(s, cfg, cc.NewReno(false), NodePort{Net: net, Node: b}, cb, 1, b.ID(), a.ID(), 2)
	if err != nil {
		t.Fatal(err)
	}
	src.SetHost(h)
	dst.SetHost(h)
	if err := a.Attach(1, src); err != nil {
		t.Fatal(err)
	}
	if err := b.Attach(1, dst); err != nil {
		t.Fatal(err)
	}
	dst.Listen()
	const size = 4 << 20
	src.Write(0, size)
	src.Close(0)
	src.Connect(0)
	if err := s.Run(context.Background(), des.Time(60*des.Second)); err != nil {
		t.Fatal(err)
	}
	if cb.got != size || ca.doneAt == 0 {
		t.Fatalf("delivered %d of %d bytes, done at %v", cb.got, size, ca.doneAt)
	}
	return hostLink.Stats().QueueMaxBytes, ca.doneAt, float64(dst.Stats.AcksSent) / float64(src.Stats.DataSegsSent)
}

// TestHostTSQ: TCP Small Queues keeps a flow's backlog in its host's
// qdisc to about max(2 skbs, 1 ms at the pacing rate) (tcp_output.c,
// tcp_small_queue_check): with a 128 kB window over a 10 Mbit/s, 20 ms
// path the backlog without TSQ is the window less the BDP, about 100 kB;
// with TSQ (pacing rate 1.2 x 128 kB / 21 ms, 7.3 kB per ms; 7-segment
// aggregates of 7.9 kB truesize) it stays under 2 x 7.9 kB + one
// aggregate, 24 kB, and the transfer takes no longer (the link stays
// busy: 4 MB at 10 Mbit/s is 3.4 s of payload, within 5 %).
func TestHostTSQ(t *testing.T) {
	plain, tookPlain, _ := hostRun(t, Host{})
	tsq, tookTSQ, _ := hostRun(t, Host{TSO: true, TSQ: true})
	t.Logf("backlog %d B without TSQ, %d B with; transfer %v and %v", plain, tsq, tookPlain, tookTSQ)
	if plain < 80e3 {
		t.Errorf("backlog without TSQ %d B, want over 80 kB (window less BDP)", plain)
	}
	if tsq > 24e3 {
		t.Errorf("backlog with TSQ %d B, want at most 24 kB", tsq)
	}
	if float64(tookTSQ) > 1.05*float64(tookPlain) {
		t.Errorf("transfer took %v with TSQ, %v without: want within 5 %%", tookTSQ, tookPlain)
	}
}

// TestHostGRO: a receiver that gets aggregates whole acknowledges each
// once (tcp_input.c, __tcp_ack_snd_check), so with TSO aggregates it
// sends fewer ACKs than segments, where a segment-by-segment receiver in
// quick-ack mode sends one each. An ACK-clocked Reno flow without TSQ
// sends aggregates as large as the ACKs that release them (one ACK's
// segments plus the window's growth), so after the initial window they
// hold one to two segments: at most 0.8 ACKs per segment.
func TestHostGRO(t *testing.T) {
	_, _, plain := hostRun(t, Host{})
	_, _, gro := hostRun(t, Host{TSO: true, GRO: true})
	t.Logf("ACKs per data segment: %.2f plain, %.2f with TSO and GRO", plain, gro)
	if plain < 0.99 {
		t.Errorf("plain receiver: %.2f ACKs per segment, want 1", plain)
	}
	if gro > 0.8 {
		t.Errorf("with aggregates: %.2f ACKs per segment, want at most 0.8", gro)
	}
}
