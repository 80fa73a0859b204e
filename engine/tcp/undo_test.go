package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// reductionWatch records the window and threshold just before each
// congestion response.
type reductionWatch struct {
	cc.Controller
	before []cc.State
}

func (w *reductionWatch) OnCongestionEvent(now des.Time, s *cc.State, f unit.Bytes) {
	w.before = append(w.before, *s)
	w.Controller.OnCongestionEvent(now, s, f)
}

func (w *reductionWatch) OnRTO(now des.Time, s *cc.State, f unit.Bytes, rep bool) {
	w.before = append(w.before, *s)
	w.Controller.OnRTO(now, s, f, rep)
}

// watchedPair is rackPair's wire (10 Mbit/s, 10 ms one way) with the
// client's NewReno watched.
func watchedPair(t *testing.T, cfg Config) (*pair, *reductionWatch) {
	w := &reductionWatch{Controller: cc.NewReno(cc.ABCOff)}
	first := true
	pr := newPair(t, cfg, 10e6, 10*des.Millisecond, func() cc.Controller {
		if first {
			first = false
			return w
		}
		return cc.NewReno(cc.ABCOff)
	})
	return pr, w
}

// priorSsthresh is Linux's tcp_current_ssthresh outside a reduction, the
// threshold an undo restores: max(ssthresh, 3/4 cwnd).
func priorSsthresh(s cc.State) unit.Bytes { return max(s.Ssthresh, s.Cwnd/2+s.Cwnd/4) }

// hold stalls the data direction: every data segment sent in [from,
// until) waits and leaves, in order, at until, as when a path change
// lengthens the delay for a while. Nothing is lost.
type hold struct {
	pr          *pair
	from, until des.Time
	held        []*netsim.Packet
}

func (h *hold) drop(dir int, p *netsim.Packet) bool {
	now := h.pr.w.s.Now()
	if dir != 0 || p.Payload == 0 || now < h.from || now >= h.until {
		return false
	}
	cp := h.pr.w.pool.Get()
	*cp = *p
	if len(h.held) == 0 {
		h.pr.w.s.Schedule(h.until, h, 0, 0)
	}
	h.held = append(h.held, cp)
	return true
}

func (h *hold) Handle(des.Time, int, uint64) {
	for _, p := range h.held {
		port{h.pr.w, 0}.Send(p)
	}
	h.held = nil
}

// A spurious timeout: 2000 segments over the 10 Mbit/s, 10 ms wire of
// rackPair, whose data direction stalls for 500 ms from 150 ms (RTO 200
// ms, Linux's floor), losing nothing. The timer expires in the stall and
// resends the first unacknowledged segment; then the held segments
// arrive. RFC 5682's F-RTO (SACK-enhanced, section 3) sees its first ACK
// acknowledge that segment, sends two new segments, and finds the timeout
// spurious when the next ACK acknowledges a segment never retransmitted;
// the Eifel detection (RFC 3522 section 3.2) finds it on the first ACK,
// whose echoed timestamp predates the retransmission; the DSACK of the
// retransmission (RFC 3708 section 3) finds it once the retransmission
// arrives. Each restores cwnd and ssthresh as Linux's
// tcp_undo_cwnd_reduction does: cwnd = max(cwnd, prior cwnd)
// (tcp_reno_undo_cwnd) and ssthresh = max(ssthresh, 3/4 prior cwnd)
// (tcp_current_ssthresh), exactly. Without them the threshold stays
// reduced and the sender resends the outstanding window.
func TestSpuriousTimeoutUndo(t *testing.T) {
	tests := []struct {
		name                    string
		frto, undo, ts, dsack   bool
		wantUndos, wantSpurious int64
		wantRetrans, maxRetrans int64
		wantResponses           int
	}{
		{name: "none", wantRetrans: 2, wantResponses: 2},
		{name: "frto", frto: true, wantUndos: 1, wantSpurious: 1, wantRetrans: 1, maxRetrans: 1, wantResponses: 1},
		{name: "eifel", undo: true, ts: true, wantUndos: 1, wantRetrans: 1, maxRetrans: 1, wantResponses: 1},
		{name: "dsack", undo: true, dsack: true, wantUndos: 1, wantRetrans: 2, wantResponses: 1},
		{name: "dsack without undo", dsack: true, wantRetrans: 2, wantResponses: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.Recovery = RecoverySACK
			cfg.MinRTO = 200 * des.Millisecond
			cfg.FRTO, cfg.Undo, cfg.Timestamps, cfg.DSACK = tt.frto, tt.undo, tt.ts, tt.dsack
			pr, w := watchedPair(t, cfg)
			h := &hold{pr: pr, from: des.Time(150 * des.Millisecond), until: des.Time(650 * des.Millisecond)}
			pr.w.drop = h.drop
			pr.transfer(t, 2000*1000, des.Time(20*des.Second))
			st := pr.client.Stats
			t.Logf("RTOs %d, retransmissions %d, undos %d, spurious RTOs %d, DSACKs %d, cwnd %d, ssthresh %d",
				st.RTOs, st.RetransSegs, st.Undos, st.SpuriousRTOs, st.DSACKsRecv, pr.client.CC().Cwnd, pr.client.CC().Ssthresh)
			if st.RTOs != 1 || len(w.before) != tt.wantResponses {
				t.Fatalf("RTOs = %d, congestion responses = %d, want 1, %d", st.RTOs, len(w.before), tt.wantResponses)
			}
			if st.Undos != tt.wantUndos || st.SpuriousRTOs != tt.wantSpurious {
				t.Errorf("undos, spurious RTOs = %d, %d, want %d, %d", st.Undos, st.SpuriousRTOs, tt.wantUndos, tt.wantSpurious)
			}
			if tt.maxRetrans > 0 && st.RetransSegs > tt.maxRetrans {
				t.Errorf("retransmissions = %d, want at most %d", st.RetransSegs, tt.maxRetrans)
			}
			if st.RetransSegs < tt.wantRetrans {
				t.Errorf("retransmissions = %d, want at least %d", st.RetransSegs, tt.wantRetrans)
			}
			before := w.before[0]
			got := pr.client.CC()
			if restored := got.Ssthresh == priorSsthresh(before); restored != (tt.wantUndos > 0) {
				t.Errorf("ssthresh = %d, before the timeout %d (prior %d): restored = %v, want %v",
					got.Ssthresh, before.Ssthresh, priorSsthresh(before), restored, tt.wantUndos > 0)
			}
		})
	}
}

// RFC 3708 section 3 in fast recovery: segment 30 of 100 is held 4 ms on
// rackPair's wire (four segments, 0.84 ms each, overtake it), so the
// third SACK starts a fast retransmit that was not needed (RACK off:
// LossDupThreshOnly); the original arrives first and the receiver
// reports the retransmission in a DSACK, the only retransmission of the
// episode, so the sender undoes the reduction (Linux's
// tcp_try_undo_dsack after tcp_try_undo_recovery found nothing): ssthresh
// is back to its value before (slow start's, above 3/4 cwnd), exactly.
// Without Undo the halved threshold stays.
func TestUndoDSACKFastRecovery(t *testing.T) {
	for _, undo := range []bool{false, true} {
		t.Run(map[bool]string{false: "without undo", true: "undo"}[undo], func(t *testing.T) {
			cfg := baseConfig()
			cfg.Recovery, cfg.LossDetection, cfg.MinRTO = RecoverySACK, LossDupThreshOnly, 200*des.Millisecond
			cfg.DSACK, cfg.Undo = true, undo
			pr, w := watchedPair(t, cfg)
			r := &reorder{pr: pr, delay: map[int64]des.Duration{30000: 4 * des.Millisecond}}
			pr.w.drop = r.drop
			pr.transfer(t, 100*1000, des.Time(10*des.Second))
			st := pr.client.Stats
			if st.FastRecoveries != 1 || st.RetransSegs != 1 || st.RTOs != 0 || len(w.before) != 1 {
				t.Fatalf("fast recoveries, retransmissions, RTOs, responses = %d, %d, %d, %d, want 1, 1, 0, 1",
					st.FastRecoveries, st.RetransSegs, st.RTOs, len(w.before))
			}
			wantUndos := map[bool]int64{false: 0, true: 1}[undo]
			if st.DSACKsRecv != wantUndos || st.Undos != wantUndos {
				t.Errorf("DSACKs, undos = %d, %d, want %d, %d", st.DSACKsRecv, st.Undos, wantUndos, wantUndos)
			}
			got, prior := pr.client.CC().Ssthresh, priorSsthresh(w.before[0])
			if (got == prior) != undo {
				t.Errorf("ssthresh = %d, prior %d: restored = %v, want %v", got, prior, got == prior, undo)
			}
		})
	}
}

// With every Linux mechanism on (linuxRecovery, timestamps and delayed
// ACKs too), each recovery and loss detection completes a 500-segment
// transfer over rackPair's wire that drops every 17th data packet of the
// data direction and holds it back 300 ms from 200 ms on (a spurious
// timeout on top of real losses), the byte stream arriving whole and in
// order (app checks each delivery), and a second run gives the same
// statistics (determinism).
func TestLinuxRecoveryCompletes(t *testing.T) {
	for _, rec := range []Recovery{RecoveryNewReno, RecoverySACK, RecoveryPRR} {
		for _, ld := range []LossDetection{LossDupThresh, LossRACKTLP} {
			name := []string{"newreno", "reno", "sack", "prr"}[rec] + "/" + []string{"dupthresh", "rack-tlp"}[ld]
			t.Run(name, func(t *testing.T) {
				run := func() Stats {
					cfg := baseConfig()
					cfg.Recovery, cfg.LossDetection, cfg.MinRTO = rec, ld, 200*des.Millisecond
					cfg.Timestamps, cfg.DelayedACK = true, true
					linuxRecovery(&cfg)
					pr := newPair(t, cfg, 10e6, 10*des.Millisecond, newReno)
					h := &hold{pr: pr, from: des.Time(200 * des.Millisecond), until: des.Time(500 * des.Millisecond)}
					n := 0
					pr.w.drop = func(dir int, p *netsim.Packet) bool {
						if dir == 0 && p.Payload > 0 {
							n++
							if n%17 == 0 {
								return true
							}
						}
						return h.drop(dir, p)
					}
					pr.transfer(t, 500*1000, des.Time(60*des.Second))
					return pr.client.Stats
				}
				a, b := run(), run()
				if a != b {
					t.Errorf("two runs differ: %+v and %+v", a, b)
				}
				if a.RetransSegs < 500/17 {
					t.Errorf("retransmissions = %d, want at least the %d losses", a.RetransSegs, 500/17)
				}
			})
		}
	}
}

// F-RTO when the timeout was real (RFC 5682 section 3, step 3.a): every
// data segment sent from 150 ms until the timer expires is lost (an
// outage), so the timer resends the first; its ACK releases two new segments (step
// 2.b) and the ACKs they cause SACK them above the remaining holes, so
// the loss is real and the conventional recovery resends the rest. The
// new segments lie above the recovery point moved at step 2.b, so their
// SACKs must not count as originals delivered (Linux's
// FLAG_ORIG_SACK_ACKED covers only data at or below high_seq): no undo,
// and ssthresh stays reduced. Without F-RTO the same timeout, no undo.
func TestFRTOLossWasReal(t *testing.T) {
	for _, frto := range []bool{false, true} {
		t.Run(map[bool]string{false: "without frto", true: "frto"}[frto], func(t *testing.T) {
			cfg := baseConfig()
			cfg.Recovery, cfg.MinRTO, cfg.FRTO = RecoverySACK, 200*des.Millisecond, frto
			pr, w := watchedPair(t, cfg)
			var newAfterRTO int
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				now := pr.w.s.Now()
				if dir != 0 || p.Payload == 0 {
					return false
				}
				if pr.client.Stats.RTOs == 1 && !p.Retransmitted && pr.client.Stats.RetransSegs == 1 {
					newAfterRTO++ // new data between the timeout's resend and the next
				}
				return now >= des.Time(150*des.Millisecond) && pr.client.Stats.RTOs == 0
			}
			pr.transfer(t, 2000*1000, des.Time(20*des.Second))
			st := pr.client.Stats
			if st.RTOs != 1 || st.Undos != 0 || st.SpuriousRTOs != 0 {
				t.Errorf("RTOs, undos, spurious RTOs = %d, %d, %d, want 1, 0, 0", st.RTOs, st.Undos, st.SpuriousRTOs)
			}
			if want := map[bool]int{false: 0, true: 2}[frto]; newAfterRTO != want {
				t.Errorf("new segments right after the timeout's resend = %d, want %d", newAfterRTO, want)
			}
			if got := pr.client.CC().Ssthresh; got >= priorSsthresh(w.before[0]) {
				t.Errorf("ssthresh = %d, not reduced from %d", got, priorSsthresh(w.before[0]))
			}
		})
	}
}
