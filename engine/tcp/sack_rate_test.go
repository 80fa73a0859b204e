package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// ackLog wraps a controller and keeps every Ack it is given.
type ackLog struct {
	cc.Controller
	acks []cc.Ack
}

func (l *ackLog) OnAck(s *cc.State, a *cc.Ack) {
	l.acks = append(l.acks, *a)
	l.Controller.OnAck(s, a)
}

// congLog is an ackLog over a cong_control controller: it carries the
// cc.CongController mark, so the sender treats it as Linux treats BBR.
type congLog struct{ ackLog }

func (*congLog) CongControl() {}

// TestCongControlOnSACKOnlyACKs: Linux's tcp_ack generates a rate sample
// on every ACK that delivers something, SACK-only ones included
// (tcp_rate_gen, from tcp_rate_skb_delivered on each newly SACKed skb),
// and calls a cong_control algorithm on every ACK (tcp_cong_control),
// while a window-based one grows only on newly acknowledged data
// (tcp_may_raise_cwnd). One segment of a 20-segment flight is lost, so
// the receiver sends 19 duplicate ACKs, each SACKing one more segment.
// Exact: each duplicate ACK delivers one 1000-byte segment, the sample's
// prior delivered is what had been delivered when its segment was sent
// (draft-cheng-iccrg-delivery-rate-estimation section 3.2: all 20 went
// out before anything was delivered, so 0; the SYN's sequence number
// counts one byte delivered), and the sample of the cumulative ACK that
// ends the episode starts from what its retransmission saw delivered,
// the SACKed segments included.
func TestCongControlOnSACKOnlyACKs(t *testing.T) {
	const mss = 1000
	for _, tc := range []struct {
		name      string
		cong      bool
		wantSACKs int // OnAck calls with a sample and nothing cumulatively acknowledged
	}{
		{"bbr (cong_control)", true, 19},
		{"reno", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.InitialWindow = 20
			cfg.DelayedACK = false
			var log *ackLog
			pr := newPair(t, cfg, 100e6, 20*des.Millisecond, func() cc.Controller {
				var c cc.Controller
				if tc.cong {
					l := &congLog{ackLog{Controller: cc.NewBBR(1)}}
					c = l
					if log == nil {
						log = &l.ackLog
					}
				} else {
					l := &ackLog{Controller: newReno()}
					c = l
					if log == nil {
						log = l
					}
				}
				return c
			})
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				return dir == 0 && p.Payload > 0 && !p.Retransmitted && int64(p.Seq-1000-1)/mss == 0
			}
			pr.transfer(t, 20*mss, des.Time(2*des.Second))
			var sackOnly []cc.Ack
			for _, a := range log.acks {
				if a.Acked == 0 && a.Rate.Delivered > 0 {
					sackOnly = append(sackOnly, a)
				}
			}
			if len(sackOnly) != tc.wantSACKs {
				t.Fatalf("%d OnAck calls on SACK-only ACKs, want %d", len(sackOnly), tc.wantSACKs)
			}
			for i, a := range sackOnly {
				// The SYN's sequence number counts as delivered (1 byte).
				if want := unit.Bytes(i+1)*mss + 1; a.Delivered != want || a.Rate.Delivered != want || a.Rate.PriorDelivered != 0 {
					t.Errorf("SACK-only ACK %d: delivered %d, sample delivered %d prior %d; want %d, %d, 0",
						i, a.Delivered, a.Rate.Delivered, a.Rate.PriorDelivered, want, want)
				}
			}
			if !tc.cong {
				return
			}
			// The ACK of the retransmission (the only cumulative one: it
			// covers the FIN too): its sample runs from what was
			// delivered when the retransmission left, which counts the
			// segments SACKed before it (more than the SYN's byte), to
			// everything.
			var fill *cc.Ack
			for i, a := range log.acks {
				if a.Acked > 0 {
					fill = &log.acks[i]
					break
				}
			}
			if fill == nil {
				t.Fatal("no cumulative ACK")
			}
			if r := fill.Rate; r.PriorDelivered <= 1 || r.PriorDelivered+r.Delivered != fill.Delivered {
				t.Errorf("ACK of the retransmission: sample prior %d + delivered %d, want prior > 1 (SACKs counted) and a sum of %d", r.PriorDelivered, r.Delivered, fill.Delivered)
			}
		})
	}
}
