package tcp

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// wirePacket is what a test records of a packet put on the wire.
type wirePacket struct {
	At            des.Time
	Dir           int
	Seq, Ack      uint32
	Payload       unit.Bytes
	Flags         netsim.Flags
	NSACK         int
	Window        uint32
	TSVal, TSEcr  uint32
	Retransmitted bool
}

// TestRenewMatchesNew runs a lossy transfer (SACK, RACK-TLP, timestamps,
// the Linux recovery mechanisms, CUBIC) to its end, then a second
// connection on the same scheduler and wire (its SYN lost, losses, a lost
// tail), once with endpoints from New
// and once with the first pair's endpoints renewed (Renew), and requires
// the same packets on the wire, the same deliveries and the same Stats:
// nothing of the first connection's rings, scoreboards, timers or state
// survives in the renewed one.
func TestRenewMatchesNew(t *testing.T) {
	cfg := baseConfig()
	cfg.Recovery, cfg.LossDetection, cfg.Timestamps, cfg.DelayedACK = RecoverySACK, LossRACKTLP, true, true
	linuxRecovery(&cfg)
	const size = 1 << 20
	second := func(renew bool) ([]wirePacket, Stats, Stats, unit.Bytes) {
		pr := newPair(t, cfg, 10e6, 10*des.Millisecond, newCubic)
		n := 0
		pr.w.drop = func(dir int, p *netsim.Packet) bool { n++; return dir == 0 && n%37 == 0 && n < 1500 }
		pr.transfer(t, size, des.Time(30*des.Second))
		for i, d := range pr.w.dirs {
			if len(d.inflight) != 0 {
				t.Fatalf("direction %d: %d packets still in flight after the first transfer", i, len(d.inflight))
			}
		}
		for _, c := range []*Conn{pr.client, pr.server} {
			if c.snd.rtoTimer.Pending() || c.snd.paceTimer.Pending() || c.snd.rack.timer.Pending() || c.rcv.delack.Pending() {
				t.Fatalf("a timer of the first connection is pending after it ended")
			}
		}
		s, w := pr.w.s, pr.w
		now := s.Now()
		var trace []wirePacket
		m, fins := 0, 0
		w.drop = func(dir int, p *netsim.Packet) bool {
			trace = append(trace, wirePacket{s.Now(), dir, p.Seq, p.Ack, p.Payload, p.Flags, int(p.NSACK), p.Window, p.TSval, p.TSecr, p.Retransmitted})
			m++
			if m == 1 {
				return true // the SYN, resent after the initial RTO
			}
			if dir == 0 && p.Flags&netsim.FIN != 0 {
				// The tail: the first two FINs are lost, for a tail
				// loss probe and a timeout, timed by the RTT estimate.
				fins++
				return fins <= 2
			}
			return dir == 0 && m%23 == 0 && m < 1200
		}
		clientApp, serverApp := &app{t: t}, &app{t: t}
		mk := func(old *Conn, a *app, flow netsim.FlowID, src, dst netsim.NodeID, dir int, isn uint32) *Conn {
			var c *Conn
			var err error
			if renew {
				c, err = Renew(old, s, cfg, newCubic(), port{w, dir}, a, flow, src, dst, isn)
				if c != old {
					t.Fatal("Renew returned another connection")
				}
			} else {
				c, err = New(s, cfg, newCubic(), port{w, dir}, a, flow, src, dst, isn)
			}
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		client := mk(pr.client, clientApp, 2, 0, 1, 0, 77)
		server := mk(pr.server, serverApp, 2, 1, 0, 1, 0xffff0000)
		w.dirs[0].to, w.dirs[1].to = server, client
		server.Listen()
		client.Write(now, size)
		client.Close(now)
		client.Connect(now)
		if err := s.Run(context.Background(), now.Add(30*des.Second)); err != nil {
			t.Fatal(err)
		}
		if clientApp.doneAt == 0 || serverApp.got != size {
			t.Fatalf("second transfer: %d of %d bytes, done at %v", serverApp.got, size, clientApp.doneAt)
		}
		return trace, client.Stats, server.Stats, serverApp.got
	}
	wantTrace, wantC, wantS, wantGot := second(false)
	gotTrace, gotC, gotS, gotGot := second(true)
	if diff := cmp.Diff(wantTrace, gotTrace); diff != "" {
		t.Errorf("packets on the wire (-new +renewed):\n%s", diff)
	}
	if diff := cmp.Diff([]Stats{wantC, wantS}, []Stats{gotC, gotS}); diff != "" {
		t.Errorf("Stats (-new +renewed):\n%s", diff)
	}
	if wantGot != gotGot || wantC.RetransSegs == 0 || wantC.TLPProbes == 0 || wantC.RTOs == 0 {
		t.Errorf("delivered %d and %d bytes; %d retransmissions, %d tail loss probes, %d timeouts: want equal deliveries and a lossy transfer with each", wantGot, gotGot, wantC.RetransSegs, wantC.TLPProbes, wantC.RTOs)
	}
	t.Logf("%d packets, %d retransmissions, %d fast recoveries, %d probes, %d RTOs", len(wantTrace), wantC.RetransSegs, wantC.FastRecoveries, wantC.TLPProbes, wantC.RTOs)
}
