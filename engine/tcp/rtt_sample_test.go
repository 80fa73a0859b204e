package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// rttRecorder is NewReno that notes the RTT sample of the first ACK whose
// SND.UNA passes a stream offset: the ACK that ends a repair.
type rttRecorder struct {
	cc.Controller
	conn   *Conn
	past   unit.Bytes // the offset
	seen   bool
	sample des.Duration
}

func (r *rttRecorder) OnAck(s *cc.State, a *cc.Ack) {
	if !r.seen && r.conn.snd.unaOff > r.past+1 { // +1: the SYN's sequence number
		r.seen, r.sample = true, a.RTT
	}
	r.Controller.OnAck(s, a)
}

// The ACK that ends a repair gives no RTT sample from sequence numbers:
// it covers a retransmitted segment, which either copy may have
// delivered, and segments the receiver SACKed long before, whose wait is
// no round trip (RFC 6298 section 3, Karn; Linux's tcp_clean_rtx_queue
// takes no seq_rtt_us with FLAG_RETRANS_DATA_ACKED). With timestamps its
// echo times it instead (tcp_ack_update_rtt's fallback to
// tcp_rtt_tsopt_us): the retransmission's own round trip.
//
// A 200 kB transfer over 10 Mbit/s with 10 ms each way and a 100 kB
// receive window loses the segment at offset 50,000 and its first
// retransmission. Without RACK the lost retransmission waits for the
// timer (200 ms minimum); with RACK-TLP it is found lost, and resent,
// once segments sent after it are delivered. No RTT the path can show
// exceeds its 20 ms of propagation plus a whole window queued at the
// bottleneck (100 segments of 1000 bytes with 52-byte headers, 84.2 ms),
// plus 1 ms for an ACK's own serialisation and the 1 ms timestamp clock:
// 105.2 ms bounds every sample. Timing the ACK that ends the repair by
// the newest segment it covers, sent before the first retransmission,
// gave 163 ms after the timeout and 34 ms under RACK-TLP: what the
// bound misses there, the check that the ACK gives no sample catches.
func TestRepairAckRTT(t *testing.T) {
	const (
		rate   = 10e6
		delay  = 10 * des.Millisecond
		lost   = 50000
		window = 100000
	)
	bound := 2*delay + des.Duration(window/1000*1052*8/rate*1e9) + des.Millisecond
	for _, tc := range []struct {
		name string
		ld   LossDetection
		ts   bool
	}{
		{"dupthresh only, timeout", LossDupThreshOnly, false},
		{"dupthresh only, timeout, timestamps", LossDupThreshOnly, true},
		{"rack-tlp", LossRACKTLP, false},
		{"rack-tlp, timestamps", LossRACKTLP, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.RcvBuf = window
			cfg.Recovery = RecoverySACK
			cfg.LossDetection = tc.ld
			cfg.Timestamps = tc.ts
			cfg.MinRTO = 200 * des.Millisecond
			rec := &rttRecorder{Controller: cc.NewReno(cc.ABCOff), past: lost}
			first := true
			pr := newPair(t, cfg, rate, delay, func() cc.Controller {
				if first {
					first = false
					return rec
				}
				return cc.NewReno(cc.ABCOff)
			})
			rec.conn = pr.client
			drops := 0
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				if dir != 0 || p.Payload == 0 || int64(p.Seq-1001) != lost || drops == 2 {
					return false
				}
				drops++
				return true
			}
			pr.transfer(t, 200000, des.Time(20*des.Second))
			st := pr.client.Stats
			t.Logf("RTOs %d, retransmitted %d, RTT samples %d, max %v, the repair's ACK %v", st.RTOs, st.RetransSegs, st.RTTSamples, st.RTTMax, rec.sample)
			if drops != 2 {
				t.Fatalf("dropped %d transmissions of offset %d, want 2", drops, lost)
			}
			if wantRTO := tc.ld == LossDupThreshOnly; (st.RTOs > 0) != wantRTO {
				t.Errorf("RTOs = %d, want a timeout: %v", st.RTOs, wantRTO)
			}
			if st.RTTMax > bound {
				t.Errorf("largest RTT sample %v, want at most %v", st.RTTMax, bound)
			}
			switch {
			case !rec.seen:
				t.Errorf("no ACK passed offset %d", lost)
			case !tc.ts && rec.sample != 0:
				t.Errorf("the repair's ACK gave the controller an RTT of %v, want none", rec.sample)
			case tc.ts && (rec.sample <= 0 || rec.sample > bound):
				t.Errorf("the repair's ACK gave the controller an RTT of %v, want its echo's, in (0, %v]", rec.sample, bound)
			}
		})
	}
}
