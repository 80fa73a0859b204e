package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// hostRun sends 4 MB from a sender behind a 10 Mbit/s link with an
// unlimited queue (a host's qdisc) through a router and a 10 ms netem
// delay line (which orphans what it admits) to a receiver, with the given
// host model on both ends; it returns the host link's largest backlog in
// bytes, the time the transfer took and the receiver's ACK count per
// data segment.
func hostRun(t *testing.T, h Host) (maxQueue unit.Bytes, took des.Time, acksPerSeg float64) {
	t.Helper()
	q, took, acks, _ := hostRunLossy(t, h, nil, nil)
	return q, took, acks
}

// observeFunc makes a function a netsim.Observer.
type observeFunc func(netsim.Record)

func (f observeFunc) Observe(r netsim.Record) { f(r) }

// hostRunLossy is hostRun with loss on the delay line and, when there is
// some, SACK recovery with RACK-TLP; sent, if not nil, sees each packet
// the sender puts on its host link, as it does. It also returns the
// sender's fast recoveries.
func hostRunLossy(t *testing.T, h Host, loss netsim.LossModel, sent func(src *Conn, p *netsim.Packet)) (maxQueue unit.Bytes, took des.Time, acksPerSeg float64, recoveries int64) {
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
		{r, b, netsim.LinkConfig{Rate: 100e6, Delay: 10 * des.Millisecond, NetemLimit: 100000, Loss: loss}},
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
	if loss != nil {
		cfg.Recovery, cfg.LossDetection = RecoverySACK, LossRACKTLP
	}
	ca, cb := &app{t: t}, &app{t: t}
	src, err := New(s, cfg, cc.NewReno(cc.ABCOff), NodePort{Net: net, Node: a}, ca, 1, a.ID(), b.ID(), 1)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := New(s, cfg, cc.NewReno(cc.ABCOff), NodePort{Net: net, Node: b}, cb, 1, b.ID(), a.ID(), 2)
	if err != nil {
		t.Fatal(err)
	}
	src.SetHost(h)
	dst.SetHost(h)
	if sent != nil {
		net.SetObserver(observeFunc(func(r netsim.Record) {
			if r.Kind == netsim.TraceSend && r.Link == hostLink {
				sent(src, r.Packet)
			}
		}))
	}
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
	return hostLink.Stats().QueueMaxBytes, ca.doneAt, float64(dst.Stats.AcksSent) / float64(src.Stats.DataSegsSent), src.Stats.FastRecoveries
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

// TestHostTSQRecovery: TCP Small Queues holds a sender in SACK recovery
// too. Linux checks it before each skb tcp_xmit_retransmit_queue resends
// (tcp_small_queue_check(sk, skb, 1): twice the limit) and before each
// skb of new data tcp_write_xmit sends (the limit). A transfer loses
// bursts of 8 packets on the delay line, and every skb the sender starts
// in recovery is checked as it leaves: what the socket had charged
// before it, plus sk_wmem_alloc's 1, is within the limit, or twice the
// limit for a retransmission. Without the checks in recovery, skbs of new
// data went past the limit.
func TestHostTSQRecovery(t *testing.T) {
	var bursts netsim.DropList
	for k := 300; k <= 3900; k += 300 {
		for i := range 8 {
			bursts.Data = append(bursts.Data, k+i)
		}
	}
	var checked [2]int
	var over [2]int
	sent := func(src *Conn, p *netsim.Packet) {
		h := src.host
		if p.Payload == 0 || p.Skb != p.ID || !src.snd.inRecovery {
			return // only an skb's first segment is checked
		}
		kind, factor := 0, uint(0)
		if p.Retransmitted {
			kind, factor = 1, 1
		}
		checked[kind]++
		if h.charged-truesize(p)+1 > h.tsqLimit()<<factor {
			over[kind]++
		}
	}
	_, _, _, recoveries := hostRunLossy(t, Host{TSO: true, TSQ: true}, bursts, sent)
	t.Logf("%d fast recoveries: %d skbs of new data and %d retransmissions checked", recoveries, checked[0], checked[1])
	if recoveries < 5 || checked[0] < 20 || checked[1] < 5 {
		t.Fatalf("too little recovery for the test to mean something")
	}
	if over[0] > 0 || over[1] > 0 {
		t.Errorf("%d skbs of new data and %d retransmissions left past TCP Small Queues' limit in recovery", over[0], over[1])
	}
}

// TestHostTSQSparesTimerResend: the retransmission timer resends the
// oldest segment past TCP Small Queues, as Linux's tcp_retransmit_timer
// calls tcp_retransmit_skb itself; with the socket's bytes below TCP
// far over the limit, the timeout still resends one segment at once,
// under SACK recovery and under go-back-N alike.
func TestHostTSQSparesTimerResend(t *testing.T) {
	for _, tc := range []struct {
		name     string
		recovery Recovery
		loss     LossDetection
	}{{"SACK with RACK-TLP", RecoverySACK, LossRACKTLP}, {"go-back-N", RecoveryNewReno, LossDupThresh}} {
		t.Run(tc.name, func(t *testing.T) {
			sch := des.New()
			net := netsim.New(sch, 1)
			a, b := net.AddNode("a"), net.AddNode("b")
			cfg := baseConfig()
			cfg.NoHandshake, cfg.Recovery, cfg.LossDetection = true, tc.recovery, tc.loss
			c, err := New(sch, cfg, cc.NewReno(cc.ABCOff), NodePort{Net: net, Node: a}, &app{t: t}, 1, a.ID(), b.ID(), 1)
			if err != nil {
				t.Fatal(err)
			}
			c.SetHost(Host{TSO: true, TSQ: true})
			c.Connect(0)
			c.Write(0, 1<<20)
			if c.Stats.DataSegsSent == 0 {
				t.Fatal("nothing sent")
			}
			c.host.charged = 100 * c.host.tsqLimit()
			before := c.Stats.RetransSegs
			c.snd.onRTO(des.Time(des.Second))
			if got := c.Stats.RetransSegs - before; got != 1 {
				t.Errorf("the timeout resent %d segments, want 1", got)
			}
		})
	}
}

// TestHostTSQCheck drives tcp_small_queue_check's test (Linux 5.13,
// net/ipv4/tcp_output.c) by hand. The sender: MSS 1448 and a pacing
// rate of 10 Mbit/s, whose 1 ms quantum (1220 bytes) is below the
// two-segment aggregate's truesize T = 2 x 1448 + 896 = 3792 bytes, so
// the limit is 2T. sk_wmem_alloc starts at 1 (sk_alloc), so new data
// waits once the bytes charged reach 2T, where a count from 0 would let
// a third skb go; a retransmission (factor 1) waits at 4T. Nothing in
// flight never waits. Every expectation is exact.
func TestHostTSQCheck(t *testing.T) {
	const mss, truesize = 1448, 2*1448 + skbOverhead
	tests := []struct {
		name       string
		charged    unit.Bytes
		flight     int // segments
		retransmit bool
		wait       bool
	}{
		{"nothing charged", 0, 10, false, false},
		{"one skb", truesize, 10, false, false},
		{"a byte short of the limit", 2*truesize - 1, 10, false, false},
		{"two skbs: the limit, with the socket's own reference past it", 2 * truesize, 10, false, true},
		{"two skbs, nothing in flight", 2 * truesize, 0, false, false},
		{"retransmission, two skbs", 2 * truesize, 10, true, false},
		{"retransmission, a byte short of twice the limit", 4*truesize - 1, 10, true, false},
		{"retransmission, four skbs", 4 * truesize, 10, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := hostConn(t, cc.NewReno(cc.ABCOff), Host{TSO: true, TSQ: true})
			s := &c.snd
			s.smss = mss
			s.cc.PacingRate = 10e6
			s.cc.Cwnd = 30 * mss // halfcwnd, 15 segments, leaves the aggregate at autosize's 2
			s.nxt = s.una.Add(seqnum.Size(tt.flight * mss))
			s.max = s.nxt
			h := c.host
			if got := h.tsqLimit(); got != 2*truesize {
				t.Fatalf("limit %d bytes, want %d", got, 2*truesize)
			}
			h.charged = tt.charged
			blocked := h.blocked
			if tt.retransmit {
				blocked = h.blockedRetransmit
			}
			if got := blocked(des.Time(des.Second)); got != tt.wait {
				t.Errorf("waits %v, want %v", got, tt.wait)
			}
		})
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

// hostConn returns an unconnected sender on node a of a two-node network
// with the controller cca and the host model h, for the tests that put it
// in a state by hand. SetHost keeps no model for a host with every
// mechanism off, so the tests that turn the one under test off keep TSQ on.
func hostConn(t *testing.T, cca cc.Controller, h Host) *Conn {
	t.Helper()
	sch := des.New()
	net := netsim.New(sch, 1)
	a, b := net.AddNode("a"), net.AddNode("b")
	c, err := New(sch, baseConfig(), cca, NodePort{Net: net, Node: a}, &app{t: t}, 1, a.ID(), b.ID(), 1)
	if err != nil {
		t.Fatal(err)
	}
	c.SetHost(h)
	return c
}

// TestHostDefer drives tcp_tso_should_defer's branches (net/ipv4/
// tcp_output.c) on a sender put by hand in the state each one tests.
// The state: MSS 1448, a pacing rate of 100 Mbit/s, whose 1 ms quantum,
// 12.5e6 >> 10 = 12207 bytes, makes tcp_tso_autosize's aggregate 8
// segments; cwnd 30 segments with 27 in flight, so the windows allow 3
// segments (below the aggregate and below a third of cwnd, 10); srtt
// 20 ms; the oldest segment in flight sent 19.5 ms ago, its ACK due in
// 0.5 ms, within srtt/2 (Linux 5.13); the last write 0.2 ms ago. Each case
// changes one thing and names the kernel's test that decides it; a
// deferral for want of cwnd marks the pass cwnd-limited. Every
// expectation is exact (the function is a predicate).
func TestHostDefer(t *testing.T) {
	const mss = 1448
	now := des.Time(10 * des.Second)
	type state struct {
		defer_, tso, recovery bool
		cwnd, flight, wnd     int // segments
		headAge, lastWrite    des.Duration
		written               int // segments written and not yet sent
		// headSkb is what is left unsent of the write-queue skb at the
		// send head (the skbs tcp_sendmsg built, skbRoom), in segments.
		headSkb int
	}
	base := state{defer_: true, tso: true, cwnd: 30, flight: 27, wnd: 1000, headAge: 19500 * des.Microsecond, lastWrite: 200 * des.Microsecond, written: 100, headSkb: 18}
	tests := []struct {
		name string
		edit func(*state)
		want bool
		// limited: the deferral marks the pass cwnd-limited (cwnd, not
		// the receive window, is what the skb, min(written, aggregate),
		// does not fit: cong_win < send_win && cong_win <= skb->len).
		limited bool
	}{
		{"windows allow 3 of an 8-segment aggregate, ACK due in 0.5 ms: defer", func(*state) {}, true, true},
		{"Defer off", func(s *state) { s.defer_ = false }, false, false},
		{"no TSO: every segment its own skb, nothing to defer", func(s *state) { s.tso = false }, false, false},
		{"in recovery (icsk_ca_state >= TCP_CA_Recovery)", func(s *state) { s.recovery = true }, false, false},
		{"last write 1.2 ms ago (delta > NSEC_PER_MSEC)", func(s *state) { s.lastWrite = 1200 * des.Microsecond }, false, false},
		{"a full aggregate fits (limit >= max_segs * mss)", func(s *state) { s.flight = 22 }, false, false},
		{"a third of the window is free (tcp_tso_win_divisor 3)", func(s *state) { s.cwnd, s.flight = 9, 6 }, false, false},
		{"the receive window limits, 3 of 30 segments: defer, rwnd-limited", func(s *state) { s.cwnd, s.wnd, s.flight = 100, 30, 27 }, true, false},
		{"ACK due in 9.5 ms, within srtt/2 (Linux 5.13; a later Linux would not defer past 1 ms)", func(s *state) { s.headAge = 10500 * des.Microsecond }, true, true},
		{"ACK due in 10 ms, at srtt/2 (delta = srtt/2 is not < srtt/2)", func(s *state) { s.headAge = 10 * des.Millisecond }, true, true},
		{"ACK due in 10.5 ms, later than srtt/2", func(s *state) { s.headAge = 9500 * des.Microsecond }, false, false},
		{"one segment written: an skb of one segment is never deferred", func(s *state) { s.written = 1 }, false, false},
		{"2 segments written, cwnd allows 3: deferred, the skb fits cwnd, not cwnd-limited", func(s *state) { s.written = 2 }, true, false},
		{"the write-queue skb at the head has 3 segments left and more follow: sent (a middle skb gets no more data, limit >= skb->len)", func(s *state) { s.headSkb = 3 }, false, false},
		{"the same 3 segments are the last written (the tail skb): deferred, cwnd-limited", func(s *state) { s.headSkb, s.written = 3, 3 }, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := base
			tt.edit(&st)
			c := hostConn(t, cc.NewReno(cc.ABCOff), Host{TSO: st.tso, Defer: st.defer_})
			if c.host == nil {
				if st.defer_ || st.tso {
					t.Fatal("SetHost kept no host model")
				}
				return
			}
			s := &c.snd
			s.smss = mss
			s.cc.SMSS = mss
			s.cc.Cwnd = unit.Bytes(st.cwnd * mss)
			s.cc.Ssthresh = s.cc.Cwnd
			s.cc.PacingRate = unit.BitRate(100e6)
			s.wnd = unit.Bytes(st.wnd * mss)
			s.rtt.srtt = 20 * des.Millisecond
			s.inRecovery = st.recovery
			for i := range st.flight {
				r := s.recs.push()
				r.seq = s.una.Add(seqnum.Size(i * mss))
				r.payload, r.len = mss, mss
				r.sentAt = now.Add(-st.headAge)
			}
			s.nxt = s.una.Add(seqnum.Size(st.flight * mss))
			s.max = s.nxt
			s.written = unit.Bytes((st.flight + st.written) * mss)
			g := &c.host.grid
			g.set, g.goal1, g.phase2 = true, unit.Bytes((st.flight+st.headSkb)*mss), 1<<40
			c.host.wstamp = now.Add(-st.lastWrite)
			if got := c.host.deferSend(now, s.remaining(s.nxt)); got != tt.want || c.host.deferLimited != tt.limited {
				t.Errorf("deferSend = %v, cwnd-limited %v; want %v, %v", got, c.host.deferLimited, tt.want, tt.limited)
			}
		})
	}
}

// TestHostCwndLimited checks tcp_is_cwnd_limited (include/net/tcp.h) and
// tcp_cwnd_validate (net/ipv4/tcp_output.c, Linux 5.13) on a sender put
// by hand in each state: after a sending pass with the given flight and
// cwnd, an ACK that grew cwnd by one segment keeps that growth only when
// Linux's loss-based controllers would have grown it. In congestion
// avoidance that is when the pass was cwnd-limited (no further segment
// fitted, packets in flight >= cwnd); in slow start, while cwnd is below
// twice the largest flight of the window. BBR sets cwnd from its model
// and is never held. Every expectation is exact.
func TestHostCwndLimited(t *testing.T) {
	const mss = 1448
	tests := []struct {
		name               string
		cca                cc.Controller
		cwnd, ssthresh     int // segments
		flight             int // segments in flight after the sending pass
		recovering, gateOn bool
		want               int // cwnd after the ACK, segments
	}{
		{"congestion avoidance, cwnd-limited: grows", cc.NewReno(cc.ABCOff), 20, 10, 20, false, true, 21},
		{"congestion avoidance, half of cwnd in flight: held", cc.NewReno(cc.ABCOff), 20, 10, 10, false, true, 20},
		{"congestion avoidance, one segment short of cwnd: held", cc.NewReno(cc.ABCOff), 20, 10, 18, false, true, 20},
		{"slow start, cwnd 20 below twice a flight of 11: grows", cc.NewReno(cc.ABCOff), 20, 100, 11, false, true, 21},
		{"slow start, cwnd 20 not below twice a flight of 10: held", cc.NewReno(cc.ABCOff), 20, 100, 10, false, true, 20},
		{"in recovery the recovery algorithm owns cwnd", cc.NewReno(cc.ABCOff), 20, 10, 10, true, true, 21},
		{"BBR is not held", cc.NewBBR(1), 20, 10, 10, false, true, 21},
		{"CwndLimited off", cc.NewReno(cc.ABCOff), 20, 10, 10, false, false, 21},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := hostConn(t, tt.cca, Host{CwndLimited: tt.gateOn, TSQ: true})
			s := &c.snd
			s.smss = mss
			s.cc.Cwnd = unit.Bytes(tt.cwnd * mss)
			s.cc.Ssthresh = unit.Bytes(tt.ssthresh * mss)
			s.nxt = s.una.Add(seqnum.Size(tt.flight * mss))
			s.max = s.nxt
			c.host.cwndValidate(true)
			prior := s.cc.Cwnd
			s.cc.Cwnd += mss // what the controller's ACK hook did
			var a cc.Ack
			a.CwndLimited = s.isCwndLimited()
			c.host.markGate(&a, tt.recovering)
			c.host.gateGrowth(prior, &a)
			if got := int(s.cc.Cwnd / mss); got != tt.want {
				t.Errorf("cwnd after the ACK = %d segments, want %d", got, tt.want)
			}
		})
	}
}

// TestHostCwndValidatePass checks when a sending pass renews
// tcp_cwnd_validate's record (tcp_write_xmit, Linux 5.13: "if
// (likely(sent_pkts || is_cwnd_limited))"). A first pass fills cwnd (20
// segments in flight): the record says cwnd-limited. Once that window is
// acknowledged, a second pass finds 10 segments in flight: one that sent
// nothing and was not stopped by cwnd (TCP Small Queues or pacing held
// it) leaves the record as it was; one that sent renews it, not limited;
// one that deferred an aggregate cwnd could not take (tcp_tso_should_defer
// setting *is_cwnd_limited, Linux 5.11's "tcp: fix cwnd-limited bug for
// TSO deferral where we send nothing") renews it, limited. Every
// expectation is exact.
func TestHostCwndValidatePass(t *testing.T) {
	const mss = 1448
	tests := []struct {
		name            string
		sent, deferred  bool
		wantLimited     bool
		wantMaxOutSegs  int
		wantWindowAhead bool // the record's window ends at the second pass's snd.nxt
	}{
		{"nothing sent, not cwnd-limited: record kept", false, false, true, 20, false},
		{"sent, not cwnd-limited: record renewed", true, false, false, 10, true},
		{"nothing sent, an aggregate deferred for cwnd: limited", false, true, true, 10, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := hostConn(t, cc.NewReno(cc.ABCOff), Host{CwndLimited: true, TSQ: true})
			s := &c.snd
			s.smss = mss
			s.cc.Cwnd = 20 * mss
			s.cc.Ssthresh = 10 * mss
			s.nxt = s.una.Add(seqnum.Size(20 * mss))
			s.max = s.nxt
			c.host.cwndValidate(true)
			if !c.host.cwndLimited {
				t.Fatal("a pass that filled cwnd is not cwnd-limited")
			}
			s.una = s.nxt // the window is acknowledged: a new one starts
			s.nxt = s.una.Add(seqnum.Size(10 * mss))
			s.max = s.nxt
			c.host.deferLimited = tt.deferred
			c.host.cwndValidate(tt.sent)
			h := c.host
			if h.cwndLimited != tt.wantLimited || h.maxOut != unit.Bytes(tt.wantMaxOutSegs*mss) || (h.maxOutSeq == s.nxt) != tt.wantWindowAhead {
				t.Errorf("record: limited %v, max out %d segments, window to snd.nxt %v; want %v, %d, %v",
					h.cwndLimited, h.maxOut/mss, h.maxOutSeq == s.nxt, tt.wantLimited, tt.wantMaxOutSegs, tt.wantWindowAhead)
			}
			if h.deferLimited {
				t.Error("the deferral's mark outlives its pass")
			}
		})
	}
}

// TestAckCwndLimited checks what the sender tells a controller of
// tp->is_cwnd_limited (cc.Ack.CwndLimited), which BBRv2's
// bbr2_probe_inflight_hi_upward reads: with a Linux host model that
// records it, tcp_cwnd_validate's record of the window (Linux 5.13,
// set by the last sending pass, whatever the pipe when the ACK comes);
// without one, whether the pipe before the ACK left less than a segment
// of cwnd. Every expectation is exact.
func TestAckCwndLimited(t *testing.T) {
	const mss = 1448
	tests := []struct {
		name      string
		host      bool
		flight    int // segments in flight at the sending pass
		priorPipe int // segments in the pipe before the ACK
		want      bool
	}{
		{"record: the pass filled cwnd, the pipe has drained since", true, 20, 10, true},
		{"record: the pass left half of cwnd, the pipe is full now", true, 10, 20, false},
		{"no record: pipe one segment short of cwnd", false, 20, 19, true},
		{"no record: pipe two segments short of cwnd", false, 20, 18, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := hostConn(t, cc.NewBBR2(1), Host{CwndLimited: tt.host, TSQ: true})
			s := &c.snd
			s.smss = mss
			s.cc.Cwnd = 20 * mss
			s.nxt = s.una.Add(seqnum.Size(tt.flight * mss))
			s.max = s.nxt
			c.host.cwndValidate(true)
			s.priorPipe = unit.Bytes(tt.priorPipe * mss)
			if got := s.isCwndLimited(); got != tt.want {
				t.Errorf("is_cwnd_limited = %v, want %v", got, tt.want)
			}
		})
	}
}

// feed is a des.Handler that runs a function at its time.
type feed func(now des.Time)

func (f feed) Handle(now des.Time, _ int, _ uint64) { f(now) }

// TestHostGROAckPerSkb: a receiver that gets aggregates whole decides
// once per skb whether to acknowledge (Linux 5.13, tcp_input.c): an
// out-of-order aggregate of three segments is answered by one duplicate
// ACK (tcp_data_queue_ofo), not three, and so is the skb that fills the
// hole (ICSK_ACK_NOW); an in-order skb is acknowledged at once only when
// more than one full frame is unacknowledged (__tcp_ack_snd_check), so a
// lone one-segment skb waits for the next skb or for the delayed-ACK
// timer, 40 ms (tcp_send_delayed_ack, TCP_ATO_MIN). Every count is exact:
// the segments are put on the receiver by hand after the handshake.
func TestHostGROAckPerSkb(t *testing.T) {
	cfg := baseConfig()
	cfg.DelayedACK = true
	pr := newPair(t, cfg, 1e9, des.Millisecond, newReno)
	pr.server.SetHost(Host{TSO: true, GRO: true})
	pr.client.Connect(0)
	s := pr.w.s
	if err := s.Run(context.Background(), des.Time(10*des.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if pr.server.state != stateEstablished {
		t.Fatal("handshake did not complete")
	}
	iss := pr.client.snd.iss
	rcvAck := pr.server.snd.nxt
	const mss = 1000
	next := uint64(1 << 40)
	// skb puts segments [from, from+n) of the stream on the receiver as
	// one aggregate at time at.
	skb := func(at des.Time, from, n int) {
		s.Schedule(at, feed(func(now des.Time) {
			next++
			id := next
			for i := range n {
				p := pr.w.pool.Get()
				p.Flow, p.Src, p.Dst = 1, 0, 1
				p.Seq = uint32(iss + 1 + seqnum.Value((from+i)*mss))
				p.Ack = uint32(rcvAck)
				p.Flags = netsim.ACK
				p.Payload = mss
				p.Size = mss + 40
				p.Window = 65535
				p.Skb = id
				pr.server.Receive(now, p)
			}
		}), 0, 0)
	}
	acks := func() int { return pr.w.sent[1] }
	run := func(until des.Duration) {
		t.Helper()
		if err := s.Run(context.Background(), des.Time(until)); err != nil {
			t.Fatal(err)
		}
	}
	ms := func(x float64) des.Time { return des.Time(x * float64(des.Millisecond)) }
	// Use up quick-ACK mode with in-order two-segment skbs, each
	// acknowledged at once.
	seg := 0
	for i := range 20 {
		skb(ms(20+float64(i)), seg, 2)
		seg += 2
	}
	run(45 * des.Millisecond)
	if pr.server.rcv.quick != 0 {
		t.Fatalf("still in quick-ACK mode (%d left)", pr.server.rcv.quick)
	}
	base := acks()
	steps := []struct {
		name     string
		at       float64
		from, n  int
		until    float64 // ms to run to
		wantAcks int     // ACKs since base
	}{
		{"lone one-segment skb: delayed", 50, seg, 1, 50.5, 0},
		{"the next one-segment skb: two frames, ACK", 51, seg + 1, 1, 51.5, 1},
		{"three-segment skb beyond a hole: one ACK", 52, seg + 3, 3, 52.5, 2},
		{"the hole filled by one skb: one ACK", 53, seg + 2, 1, 53.5, 3},
		{"lone one-segment skb", 54, seg + 6, 1, 93.9, 3},
		{"its delayed ACK 40 ms later", 0, 0, 0, 94.1, 4},
	}
	for _, st := range steps {
		if st.n > 0 {
			skb(ms(st.at), st.from, st.n)
		}
		run(des.Duration(ms(st.until)))
		if got := acks() - base; got != st.wantAcks {
			t.Errorf("%s: %d ACKs by %.1f ms, want %d", st.name, got, st.until, st.wantAcks)
		}
	}
	if got, want := pr.server.rcv.nxt, iss+1+seqnum.Value((seg+7)*mss); got != want {
		t.Errorf("rcv.nxt %d, want %d", got, want)
	}
}

// TestHostTagSkbRetransmission drives host.tagSkb by hand: a
// retransmission takes into its skb the segments after it that went in
// the same skb and are still lost, in sequence, up to tcp_tso_segs
// (tcp_xmit_retransmit_queue, tcp_retransmit_skb: Linux resends a lost
// skb as one, split where SACKs split it), and no more than the run it
// was started for; new data never joins it, nor it new data's. The
// sender: MSS 1448 and a pacing rate of 100 Mbit/s, whose 1 ms quantum
// makes tcp_tso_autosize's aggregate 8 segments. The records, sent in
// skbs 7 and 8: 1-3 in skb 7 and lost, 4 in skb 7 and SACKed, 5 in skb
// 7 and lost, 6-7 in skb 8 and lost.
func TestHostTagSkbRetransmission(t *testing.T) {
	c := hostConn(t, cc.NewReno(cc.ABCOff), Host{TSO: true})
	s := &c.snd
	s.smss = 1448
	s.cc.PacingRate = 100e6
	s.cc.Cwnd = 20 * 1448 // halfcwnd, 10 segments, leaves new data's aggregate at autosize's 8
	h := c.host
	if got := h.autosize(); got != 8 {
		t.Fatalf("autosize %d segments, want 8", got)
	}
	type rec struct {
		skb            uint32
		marked, sacked bool
	}
	recs := []rec{{7, false, false}, {7, true, false}, {7, true, false}, {7, false, true}, {7, true, false}, {8, true, false}, {8, true, false}}
	for i, r := range recs {
		x := s.recs.push()
		x.seq, x.payload, x.len = seqnum.Value(1000+i*1448), 1448, 1448
		x.skb, x.marked, x.sacked = r.skb, r.marked, r.sacked
	}
	h.skbN = 8
	now := des.Time(des.Second)
	var id uint64
	send := func(i int, retx bool) *netsim.Packet {
		r := s.recs.at(i)
		r.marked = false // sendData clears the mark of what it resends
		id++
		p := &netsim.Packet{ID: id, Payload: 1448, Retransmitted: retx}
		h.tagSkb(now, p, r)
		return p
	}
	if got := s.lostRun(s.recs.at(0)); got != 3 {
		t.Errorf("lostRun of record 1: %d, want 3 (records 1-3: 4 is SACKed)", got)
	}
	p1, p2, p3 := send(0, true), send(1, true), send(2, true)
	if p2.Skb != p1.Skb || p3.Skb != p1.Skb || p1.Skb != p1.ID {
		t.Errorf("records 1-3 resent in skbs %d, %d, %d, want one, %d", p1.Skb, p2.Skb, p3.Skb, p1.ID)
	}
	if h.skbGoal != 3 {
		t.Errorf("the retransmission's skb sized %d segments, want 3", h.skbGoal)
	}
	p5 := send(4, true)
	if p5.Skb == p1.Skb {
		t.Errorf("record 5 joined records 1-3's skb across the SACKed record 4")
	}
	p6 := send(5, true)
	if p6.Skb == p5.Skb {
		t.Errorf("record 6 (first sent in skb 8) joined record 5's (skb 7)")
	}
	if s.recs.at(5).skb != h.skbN || s.recs.at(0).skb != s.recs.at(2).skb {
		t.Errorf("records keep skbs %d (record 1), %d (record 3), %d (record 6): want 1 and 3 alike and 6 in the open one, %d",
			s.recs.at(0).skb, s.recs.at(2).skb, s.recs.at(5).skb, h.skbN)
	}
	// New data starts an skb of its own after a retransmission's, and
	// fills it to autosize.
	x := s.recs.push()
	x.seq, x.payload, x.len = seqnum.Value(1000+7*1448), 1448, 1448
	pn := send(7, false)
	if pn.Skb == p6.Skb || h.skbGoal != 8 {
		t.Errorf("new data in skb %d (the retransmission's %d), sized %d, want its own of 8", pn.Skb, p6.Skb, h.skbGoal)
	}
	// A retransmission later than the open skb's instant starts anew.
	now += des.Time(des.Millisecond)
	if p7 := send(6, true); p7.Skb == p6.Skb {
		t.Errorf("record 7 resent 1 ms after record 6 joined its skb")
	}
}

// TestHostHalfCwnd: new data's aggregate is tcp_write_xmit's split,
// min(tcp_tso_segs, tcp_cwnd_test's cwnd_quota), and the quota is at
// most halfcwnd = max(cwnd >> 1, 1) (net/ipv4/tcp_output.c, the same in
// Linux 5.13 and 6.1), so that at least two skbs are in flight: below
// four segments of cwnd every skb holds one segment. A retransmission's
// aggregate is sized without it (tcp_xmit_retransmit_queue). The sender:
// MSS 1448 and a pacing rate of 100 Mbit/s, autosize 8 segments.
func TestHostHalfCwnd(t *testing.T) {
	for _, tt := range []struct {
		cwnd, goal int // segments
	}{{1, 1}, {2, 1}, {3, 1}, {4, 2}, {5, 2}, {9, 4}, {16, 8}, {100, 8}} {
		c := hostConn(t, cc.NewReno(cc.ABCOff), Host{TSO: true})
		s := &c.snd
		s.smss = 1448
		s.cc.PacingRate = 100e6
		s.cc.Cwnd = unit.Bytes(tt.cwnd) * 1448
		h := c.host
		for i := range 3 {
			x := s.recs.push()
			x.seq, x.payload, x.len = seqnum.Value(1000+i*1448), 1448, 1448
			x.skb, x.marked = 1, true
		}
		h.skbN = 1
		h.tagSkb(des.Time(des.Second), &netsim.Packet{ID: 10, Payload: 1448}, s.recs.at(0))
		if h.skbGoal != tt.goal {
			t.Errorf("cwnd %d segments: new data's aggregate %d segments, want %d", tt.cwnd, h.skbGoal, tt.goal)
		}
		// At this pacing rate the 1 ms quantum, 12207 bytes, exceeds twice
		// the truesize of an aggregate of one or two segments: from cwnd
		// 9 on the limit follows the aggregate.
		if got, want := h.tsqLimit(), max(2*(unit.Bytes(tt.goal)*1448+skbOverhead), h.pacingQuantum()); got != want {
			t.Errorf("cwnd %d segments: TSQ limit %d bytes, want %d (twice the aggregate's truesize or the pacing quantum)", tt.cwnd, got, want)
		}
		// A retransmission of the two lost segments of skb 1, a
		// millisecond later: its lost run, whatever cwnd.
		h.tagSkb(des.Time(des.Second+des.Millisecond), &netsim.Packet{ID: 11, Payload: 1448, Retransmitted: true}, s.recs.at(1))
		if h.skbGoal != 2 {
			t.Errorf("cwnd %d segments: retransmission's aggregate %d segments, want its lost run, 2", tt.cwnd, h.skbGoal)
		}
	}
}

// TestHostResendsLostSkbWhole: over a transfer whose wire drops every
// 25th skb whole, a sender with TSO, SACK and RACK-TLP resends lost
// segments in skbs each of which holds segments of one skb first sent,
// in sequence, and some hold more than one (as many as cwnd lets go at
// once); without TSO each goes alone.
func TestHostResendsLostSkbWhole(t *testing.T) {
	cfg := baseConfig()
	cfg.Recovery, cfg.LossDetection = RecoverySACK, LossRACKTLP
	pr := newPair(t, cfg, 100e6, 5*des.Millisecond, newReno)
	pr.client.SetHost(Host{TSO: true})
	firstSkb := map[uint32]uint64{} // a dropped segment's first skb
	type group struct {
		from  uint64 // first skb of its segments, 0 when they differ
		segs  int
		next  uint32
		order bool
	}
	groups := map[uint64]*group{}
	seen := map[uint64]bool{}
	pr.w.drop = func(dir int, p *netsim.Packet) bool {
		if dir != 0 || p.Payload == 0 {
			return false
		}
		if p.Retransmitted {
			g := groups[p.Skb]
			if g == nil {
				g = &group{from: firstSkb[p.Seq], order: true}
				groups[p.Skb] = g
			} else if p.Seq != g.next {
				g.order = false
			}
			if firstSkb[p.Seq] != g.from {
				g.from = 0
			}
			g.segs++
			g.next = p.Seq + uint32(p.Payload)
			return false
		}
		seen[p.Skb] = true
		if len(seen)%25 == 0 {
			firstSkb[p.Seq] = p.Skb
			return true
		}
		return false
	}
	pr.transfer(t, 4<<20, des.Time(60*des.Second))
	multi := 0
	for skb, g := range groups {
		if g.from == 0 || !g.order {
			t.Errorf("retransmission skb %d: segments of one first skb %v, in sequence %v; want both", skb, g.from != 0, g.order)
		}
		if g.segs > 1 {
			multi++
		}
	}
	t.Logf("%d segments dropped, resent in %d skbs, %d of them of two or more", len(firstSkb), len(groups), multi)
	if multi == 0 {
		t.Errorf("no retransmission skb of more than one segment")
	}
}

// TestHostWriteQueueSkbs checks the write queue's skbs (skbRoom): a bulk
// sender that writes at connect fills its send buffer with skbs of
// tcp_xmit_size_goal's size for the SYN-ACK's window, half of 65535
// bytes in whole segments, 22 of 1448 bytes; once SO_SNDBUF's worth of
// truesize is queued it writes again under the full goal (the 64 KiB
// GSO limit less header room, 45 segments), topping up the last skb of
// the first fill. New data's aggregates stop at each of their ends.
func TestHostWriteQueueSkbs(t *testing.T) {
	const mss = 1448
	for _, tt := range []struct {
		maxWnd, goal unit.Bytes // goal in segments
	}{{65535, 22}, {14480, 5}, {16 << 20, 45}, {400, 1}, {536, 1}} {
		if got := sizeGoal(tt.maxWnd, mss) / mss; got != tt.goal {
			t.Errorf("size goal for a largest window of %d bytes: %d segments, want %d", tt.maxWnd, got, tt.goal)
		}
	}
	// 32 MiB of send buffer: 1013 skbs of 22 segments (truesize 33136
	// each) reach it; the 1013th starts at 1012 x 22 segments and the
	// later writes make it one of 45.
	const phase2 = 1012 * 22
	for _, tt := range []struct {
		name    string
		sndBuf  unit.Bytes
		seg     int // stream offset, in segments
		room    int
		pacing  unit.BitRate
		cwnd    int // segments
		newGoal int
	}{
		{"first segment of the first skb", 32 << 20, 0, 22, 1e9, 1000, 22},
		{"second segment", 32 << 20, 1, 21, 1e9, 1000, 21},
		{"last segment of an skb", 32 << 20, 21, 1, 1e9, 1000, 1},
		{"second skb", 32 << 20, 22, 22, 1e9, 1000, 22},
		{"autosize below the room", 32 << 20, 22, 22, 100e6, 1000, 8},
		{"halfcwnd below the room", 32 << 20, 25, 19, 1e9, 10, 5},
		{"the skb that ends the first fill, topped up", 32 << 20, phase2, 45, 1e9, 1000, 45},
		{"its last segment", 32 << 20, phase2 + 44, 1, 1e9, 1000, 1},
		{"the next, of the full goal", 32 << 20, phase2 + 45 + 3, 42, 1e9, 1000, 42},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := hostConn(t, cc.NewReno(cc.ABCOff), Host{TSO: true})
			c.cfg.SndBuf = tt.sndBuf
			s := &c.snd
			s.smss = mss
			s.cc.PacingRate = tt.pacing
			s.cc.Cwnd = unit.Bytes(tt.cwnd) * mss
			// The window the first write sees is the SYN-ACK's; the
			// peer's later windows are large.
			s.wnd = 65535
			if got := c.host.skbRoom(0); got != 22 {
				t.Fatalf("first skb: %d segments, want 22", got)
			}
			s.wnd = 16 << 20
			off := unit.Bytes(tt.seg) * mss
			if got := c.host.skbRoom(off); got != tt.room {
				t.Errorf("room at segment %d: %d segments, want %d", tt.seg, got, tt.room)
			}
			if got := c.host.newSkbGoal(off); got != tt.newGoal {
				t.Errorf("new data's aggregate at segment %d: %d segments, want %d", tt.seg, got, tt.newGoal)
			}
		})
	}
}

// TestHostSkbsStayInWriteQueueSkbs: over a 4 MiB transfer whose
// stretched ACKs let the sender send large aggregates, every skb a sender
// with TSO puts on the wire holds segments of one write-queue skb. With MSS 1000 and the SYN-ACK's 65535-byte window the first fill
// of the 1 MiB send buffer is 32 skbs of 32 segments (truesize 33280
// each); the 32nd, at stream offset 992000, is topped up to the full
// goal of 65 segments, and the later ones are of 65 too.
func TestHostSkbsStayInWriteQueueSkbs(t *testing.T) {
	cfg := baseConfig()
	pr := newPair(t, cfg, 100e6, 5*des.Millisecond, newReno)
	pr.client.SetHost(Host{TSO: true})
	const first = 1001 // the client's ISN is 1000
	wqSkb := func(off uint32) uint32 {
		if off < 31*32000 {
			return off / 32000
		}
		return 31 + (off-31*32000)/65000
	}
	type span struct {
		wq   uint32
		segs int
	}
	skbs := map[uint64]*span{}
	crossed, large, acks := 0, 0, 0
	pr.w.drop = func(dir int, p *netsim.Packet) bool {
		if dir == 1 {
			// Seven ACKs of eight are lost: each that arrives frees a
			// window's worth at once, and the sender sends aggregates
			// as large as tcp_tso_autosize allows.
			acks++
			return acks%8 != 0 && p.Flags&netsim.SYN == 0
		}
		if p.Payload == 0 || p.Retransmitted {
			return false
		}
		wq := wqSkb(p.Seq - first)
		sp := skbs[p.Skb]
		if sp == nil {
			skbs[p.Skb] = &span{wq: wq, segs: 1}
			return false
		}
		if wq != sp.wq {
			crossed++
		}
		if sp.segs++; sp.segs == 8 {
			large++
		}
		return false
	}
	pr.transfer(t, 4<<20, des.Time(60*des.Second))
	if crossed > 0 {
		t.Errorf("%d segments went in an skb that began in another write-queue skb", crossed)
	}
	if large < 20 {
		t.Errorf("only %d skbs of 8 segments or more: the transfer does not test the ends", large)
	}
	t.Logf("%d skbs, %d of 8 segments or more", len(skbs), large)
}

// TestGrowWindow follows tcp_grow_window (net/ipv4/tcp_input.c) by hand
// on a receiver with a 16 MiB buffer, MSS 1448 and timestamps (advmss
// 1460): the window starts at 65535 bytes (tcp_select_initial_window)
// and is clamped at the buffer less one advmss (tcp_init_buffer_space);
// an skb of n bytes raises it by max(2 advmss, 2n) and asks for an
// immediate ACK (quick |= 1); a GRO aggregate is one skb; an in-order
// skb under 128 bytes does not grow it (tcp_event_data_recv); at the
// clamp nothing changes. Every expectation is exact.
func TestGrowWindow(t *testing.T) {
	const buf, advmss = 16 << 20, 1460
	c := hostConn(t, cc.NewReno(cc.ABCOff), Host{TSO: true, GRO: true})
	c.cfg.MSS, c.cfg.RcvBuf, c.cfg.QuickAck = 1448, buf, true
	c.rcvShift, c.tsOK = wscaleFor(buf), true
	r, h := &c.rcv, c.host
	steps := []struct {
		name  string
		do    func()
		want  unit.Bytes
		quick int
	}{
		{"a one-segment skb: 65535 + 2 advmss", func() { r.growWindow(1448) }, 65535 + 2*advmss, 1},
		{"a two-segment aggregate, once: + 2 x 2896", func() {
			h.noteGrowth(1448, true)
			h.noteGrowth(1448, true)
			h.growWindow()
		}, 65535 + 2*advmss + 2*2896, 1},
		{"held out of order: + 2 advmss", func() { h.noteGrowth(1448, false); h.growWindow() }, 65535 + 4*advmss + 2*2896, 1},
		{"100 bytes in order: none", func() { h.noteGrowth(100, true); h.growWindow() }, 65535 + 4*advmss + 2*2896, 0},
		{"1000 bytes short of the clamp: to it", func() { r.rcvSsthresh = buf - advmss - 1000; r.growWindow(1448) }, buf - advmss, 1},
		{"at the clamp: none", func() { r.growWindow(1448) }, buf - advmss, 0},
	}
	for _, st := range steps {
		r.quick = 0
		st.do()
		if r.rcvSsthresh != st.want || r.quick != st.quick {
			t.Errorf("%s: rcv_ssthresh %d, quick %d; want %d, %d", st.name, r.rcvSsthresh, r.quick, st.want, st.quick)
		}
	}
}
