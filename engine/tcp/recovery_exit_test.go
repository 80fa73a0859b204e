package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// exitWatch wraps a controller and records cwnd once the controller has
// handled the ACK that ended fast recovery (the first OnAck after
// OnExitRecovery).
type exitWatch struct {
	cc.Controller
	exited  bool
	atExit  unit.Bytes
	inRecov bool // the exit ACK's Ack.InRecovery
	seen    bool
}

func (w *exitWatch) OnExitRecovery(now des.Time, s *cc.State) {
	w.Controller.OnExitRecovery(now, s)
	w.exited = true
}

func (w *exitWatch) OnAck(s *cc.State, a *cc.Ack) {
	w.Controller.OnAck(s, a)
	if w.exited && !w.seen {
		w.seen, w.atExit, w.inRecov = true, s.Cwnd, a.InRecovery
	}
}

// TestRecoveryExitCwnd checks cwnd right after the ACK that ends fast
// recovery from one loss in a 20-segment window under Reno (ssthresh =
// FlightSize/2 = 10 segments of 1000 bytes). By RFC 5681 section 3.2
// step 6 and RFC 6937 section 3.1 it is ssthresh, 10000 bytes, with
// RFC 6675 and with PRR. With GrowOnRecoveryExit it is ns-3 3.37's:
// cwnd = ssthresh, then one congestion-avoidance step on the same ACK,
// SMSS*SMSS/cwnd = 100 bytes (TcpSocketBase::ProcessAck calling
// TcpNewReno::IncreaseWindow in CA_OPEN), 10100 bytes. Exact: the
// arithmetic is in whole bytes on both sides.
func TestRecoveryExitCwnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		rec  Recovery
		grow bool
		want unit.Bytes
	}{
		{"sack/rfc", RecoverySACK, false, 10000},
		{"prr/rfc", RecoveryPRR, false, 10000},
		{"sack/ns-3", RecoverySACK, true, 10100},
		{"prr/ns-3", RecoveryPRR, true, 10100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const mss = 1000
			cfg := baseConfig()
			cfg.Recovery = tc.rec
			cfg.InitialWindow = 20
			cfg.LimitedTransmit = false
			cfg.GrowOnRecoveryExit = tc.grow
			var w *exitWatch
			pr := newPair(t, cfg, 100e6, 50*des.Millisecond, func() cc.Controller {
				c := &exitWatch{Controller: newReno()}
				if w == nil {
					w = c // the client's
				}
				return c
			})
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				return dir == 0 && p.Payload > 0 && !p.Retransmitted && int64(p.Seq-1000-1)/mss == 0
			}
			pr.transfer(t, 40*mss, des.Time(2*des.Second))
			if n := pr.client.Stats.FastRecoveries; n != 1 {
				t.Fatalf("%d fast recoveries, want 1", n)
			}
			if !w.seen {
				t.Fatal("no ACK after the exit from recovery")
			}
			if w.atExit != tc.want {
				t.Errorf("cwnd after the ACK ending recovery = %d B, want %d B", w.atExit, tc.want)
			}
			if w.inRecov == tc.grow {
				t.Errorf("the exit ACK's Ack.InRecovery = %v with GrowOnRecoveryExit %v", w.inRecov, tc.grow)
			}
		})
	}
}
