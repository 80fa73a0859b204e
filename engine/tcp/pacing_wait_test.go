package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// rateLog is a congLog that also keeps the pacing rate each ACK finds.
type rateLog struct {
	congLog
	rates []unit.BitRate
}

func (l *rateLog) OnAck(s *cc.State, a *cc.Ack) {
	l.rates = append(l.rates, s.PacingRate)
	l.congLog.OnAck(s, a)
}

// TestPacingWait: every ACK tells the controller how long until pacing
// lets the next segment go (Linux's max(tcp_wstamp_ns, now) - now, which
// bbr_packets_in_net_at_edt reads). A paced sender (BBR) waits at most
// one segment's time at the pacing rate of its last send (bounded here
// by the lowest rate so far), and some ACKs find
// it waiting; a sender that does not pace (Reno) never waits.
func TestPacingWait(t *testing.T) {
	const mss = 1000
	cfg := baseConfig()
	cfg.DelayedACK = false

	var bbr *rateLog
	pr := newPair(t, cfg, 10e6, 20*des.Millisecond, func() cc.Controller {
		l := &rateLog{congLog: congLog{ackLog{Controller: cc.NewBBR(1)}}}
		if bbr == nil {
			bbr = l
		}
		return l
	})
	pr.transfer(t, 2000*mss, des.Time(10*des.Second))
	waited := 0
	var slowest unit.BitRate // the lowest pacing rate so far: the last send's may be older than the last ACK's
	for i, a := range bbr.acks {
		if r := bbr.rates[i]; r > 0 && (slowest == 0 || r < slowest) {
			slowest = r
		}
		if a.PacingWait < 0 || slowest > 0 && a.PacingWait > slowest.TxTime(mss)+des.Nanosecond {
			t.Fatalf("ACK %d at %v: pacing wait %v, want 0 to one segment's time at %v (%v)", i, a.Now, a.PacingWait, slowest, slowest.TxTime(mss))
		}
		if a.PacingWait > 0 {
			waited++
		}
	}
	if waited == 0 {
		t.Errorf("none of %d ACKs found BBR waiting for its pacing", len(bbr.acks))
	}

	var reno *ackLog
	pr = newPair(t, cfg, 10e6, 20*des.Millisecond, func() cc.Controller {
		l := &ackLog{Controller: newReno()}
		if reno == nil {
			reno = l
		}
		return l
	})
	pr.transfer(t, 200*mss, des.Time(10*des.Second))
	for i, a := range reno.acks {
		if a.PacingWait != 0 {
			t.Fatalf("Reno ACK %d: pacing wait %v, want 0 (not paced)", i, a.PacingWait)
		}
	}
	t.Logf("BBR: %d of %d ACKs found a pacing wait", waited, len(bbr.acks))
}
