package tcp

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// lossRecorder is NewReno with Linux's skb_marked_lost hook
// (cc.LossMarker): it records every segment the sender reports lost and
// the lost bytes the ACKs report.
type lossRecorder struct {
	cc.Controller
	marks   []cc.LostSegment
	ackLost unit.Bytes
}

func (r *lossRecorder) OnSegmentLost(_ des.Time, _ *cc.State, seg cc.LostSegment) {
	seg.Delivered = 0 // not compared: it depends on the ACK timing
	r.marks = append(r.marks, seg)
}

func (r *lossRecorder) OnAck(s *cc.State, a *cc.Ack) {
	r.ackLost += a.Lost
	r.Controller.OnAck(s, a)
}

// The sender reports each segment it marks lost once, at the mark, with
// the segment's state at its transmission (tcp_notify_skb_loss_event
// calling skb_marked_lost; scb->tx.in_flight, tp->lost - scb->tx.lost).
// A 10-segment transfer of 1000-byte segments leaves in one initial
// window of 10, so the segment at offset k*1000 was sent with (k+1)*1000
// bytes in flight and nothing lost yet; the connection's lost count then
// includes the segment itself and those marked before it. The cases: RACK
// marks two first transmissions lost (offsets 2000 and 5000); RFC 6675's
// IsLost marks them (their fast retransmission is the mark); the last two
// segments are lost with duplicate-ACK detection, so no ACK follows and
// the timeout marks both (tcp_timeout_mark_lost), which, made outside an
// ACK, no ACK reports among its lost bytes (rs->losses). With the switch
// off the hook is never called. Exact: these are counts.
func TestSegmentLostHook(t *testing.T) {
	two := []cc.LostSegment{
		{Bytes: 1000, TxInFlight: 3000, Lost: 1000},
		{Bytes: 1000, TxInFlight: 6000, Lost: 2000},
	}
	tail := []cc.LostSegment{
		{Bytes: 1000, TxInFlight: 9000, Lost: 1000},
		{Bytes: 1000, TxInFlight: 10000, Lost: 2000},
	}
	for _, tc := range []struct {
		name        string
		ld          LossDetection
		hook        bool
		lost        []int64 // offsets whose first transmission is dropped
		want        []cc.LostSegment
		wantAckLost unit.Bytes
		wantRTOs    int64
	}{
		{"rack-tlp", LossRACKTLP, true, []int64{2000, 5000}, two, 2000, 0},
		{"dupthresh", LossDupThresh, true, []int64{2000, 5000}, two, 2000, 0},
		{"timeout", LossDupThresh, true, []int64{8000, 9000}, tail, 0, 1},
		{"switch off", LossRACKTLP, false, []int64{2000, 5000}, nil, 2000, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &lossRecorder{Controller: cc.NewReno(cc.ABCOff)}
			first := true
			cfg := baseConfig()
			cfg.Recovery = RecoverySACK
			cfg.LossDetection = tc.ld
			cfg.MinRTO = 200 * des.Millisecond
			cfg.SkbMarkedLost = tc.hook
			pr := newPair(t, cfg, 10e6, 10*des.Millisecond, func() cc.Controller {
				if first {
					first = false
					return rec
				}
				return cc.NewReno(cc.ABCOff)
			})
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				if dir != 0 || p.Payload == 0 || p.Retransmitted {
					return false
				}
				off := int64(p.Seq - 1001)
				for _, l := range tc.lost {
					if off == l {
						return true
					}
				}
				return false
			}
			pr.transfer(t, 10000, des.Time(10*des.Second))
			st := pr.client.Stats
			if st.RTOs != tc.wantRTOs {
				t.Errorf("RTOs = %d, want %d", st.RTOs, tc.wantRTOs)
			}
			if diff := cmp.Diff(tc.want, rec.marks); diff != "" {
				t.Errorf("segments reported lost (-want +got):\n%s", diff)
			}
			if rec.ackLost != tc.wantAckLost {
				t.Errorf("lost bytes the ACKs report = %d, want %d", rec.ackLost, tc.wantAckLost)
			}
		})
	}
}
