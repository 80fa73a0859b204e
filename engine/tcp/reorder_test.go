package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
)

// The adaptive duplicate-ACK threshold (Linux's tcp_check_sack_reordering)
// on rackPair's wire, 1000-byte segments 0.84 ms apart, segments held back
// by the reorder harness:
//   - RACK-TLP, segment 5 held 1.5 ms (two overtake it) then segment 25
//     held 4 ms (four overtake it), neither resent (RACK's window): when
//     25 arrives the cumulative ACK moves to 30, five segments above it,
//     so the threshold becomes 5 (exactly; the first event, 3 segments,
//     does not exceed the initial 3);
//   - the duplicate-ACK threshold with timestamps, segments 25 and 60
//     held 4 ms: the first causes a fast retransmit, whose partial ACK
//     echoes the original's timestamp, so the sender undoes it and
//     learns 5 (tcp_try_undo_partial), and the second, four SACKed
//     segments below the new threshold, causes none. Without the
//     adaptation both are resent; without the timestamps the threshold
//     cannot learn from a segment it resent (Linux counts only segments
//     never retransmitted) and stays 3.
func TestAdaptiveReordering(t *testing.T) {
	tests := []struct {
		name                    string
		ld                      LossDetection
		adaptive, undo, ts      bool
		delay                   map[int64]des.Duration
		wantReordering          int
		wantRecoveries, wantRtx int64
	}{
		{"rack-tlp", LossRACKTLP, true, false, false,
			map[int64]des.Duration{5000: 1500 * des.Microsecond, 25000: 4 * des.Millisecond}, 5, 1, 0},
		{"rack-tlp static", LossRACKTLP, false, false, false,
			map[int64]des.Duration{5000: 1500 * des.Microsecond, 25000: 4 * des.Millisecond}, 3, 1, 0},
		{"dupthresh eifel", LossDupThreshOnly, true, true, true,
			map[int64]des.Duration{25000: 4 * des.Millisecond, 150000: 4 * des.Millisecond}, 5, 1, 1},
		{"dupthresh eifel static", LossDupThreshOnly, false, true, true,
			map[int64]des.Duration{25000: 4 * des.Millisecond, 150000: 4 * des.Millisecond}, 3, 2, 2},
		{"dupthresh without timestamps", LossDupThreshOnly, true, false, false,
			map[int64]des.Duration{25000: 4 * des.Millisecond, 150000: 4 * des.Millisecond}, 3, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.Recovery, cfg.LossDetection, cfg.MinRTO = RecoverySACK, tt.ld, 200*des.Millisecond
			cfg.AdaptiveReordering, cfg.Undo, cfg.Timestamps = tt.adaptive, tt.undo, tt.ts
			// A 20-segment window, under the wire's 25-segment BDP, keeps
			// its queue empty: a held segment is overtaken by what its
			// hold lets pass, the same each time.
			cfg.RcvBuf = 20000
			pr := newPair(t, cfg, 10e6, 10*des.Millisecond, newReno)
			pr.w.drop = (&reorder{pr: pr, delay: tt.delay}).drop
			pr.transfer(t, 200*1000, des.Time(10*des.Second))
			st := pr.client.Stats
			if got := pr.client.Reordering(); got != tt.wantReordering {
				t.Errorf("reordering = %d, want %d", got, tt.wantReordering)
			}
			if st.FastRecoveries != tt.wantRecoveries || st.RetransSegs != tt.wantRtx || st.RTOs != 0 {
				t.Errorf("fast recoveries, retransmissions, RTOs = %d, %d, %d, want %d, %d, 0",
					st.FastRecoveries, st.RetransSegs, st.RTOs, tt.wantRecoveries, tt.wantRtx)
			}
		})
	}
}

// RACK's reordering window widens with DSACKs (RFC 8985 section 6.2 step
// 4, Linux's tcp_rack_update_reo_wnd) on rackPair's wire, RACK-TLP with
// the 20-segment window of TestAdaptiveReordering. Segment 5, held 1.5
// ms, is judged lost (three segments SACKed above it before any
// reordering was seen: no window) but arrives before it can be resent,
// which marks the path as reordering; segment 30, held 8 ms, outlasts
// the window (min_RTT/4, 5 ms) and is judged lost and resent, and the
// DSACK of that resend raises the multiplier to 2 (10 ms, below SRTT) a
// round trip later; so segment 150, held 8 ms as well, is not judged
// lost. Without the adaptation it is (three RACK losses against two; its
// original arrives before the reduced window lets the resend go, so one
// retransmission either way). Exact counts.
func TestRACKReoWndDSACK(t *testing.T) {
	for _, tt := range []struct {
		adaptive  bool
		wantLost  int64
		wantSteps int
	}{{false, 3, 1}, {true, 2, 2}} {
		t.Run(map[bool]string{false: "static", true: "adaptive"}[tt.adaptive], func(t *testing.T) {
			cfg := baseConfig()
			cfg.Recovery, cfg.LossDetection, cfg.MinRTO = RecoverySACK, LossRACKTLP, 200*des.Millisecond
			cfg.AdaptiveReordering, cfg.DSACK, cfg.RcvBuf = tt.adaptive, true, 20000
			pr := newPair(t, cfg, 10e6, 10*des.Millisecond, newReno)
			pr.w.drop = (&reorder{pr: pr, delay: map[int64]des.Duration{
				5000: 1500 * des.Microsecond, 30000: 8 * des.Millisecond, 150000: 8 * des.Millisecond}}).drop
			pr.transfer(t, 200*1000, des.Time(10*des.Second))
			st := pr.client.Stats
			if st.RACKLost != tt.wantLost || st.RetransSegs != 1 || st.RTOs != 0 {
				t.Errorf("RACK losses, retransmissions, RTOs = %d, %d, %d, want %d, 1, 0", st.RACKLost, st.RetransSegs, st.RTOs, tt.wantLost)
			}
			if steps := int(pr.client.snd.reoSteps()); steps != tt.wantSteps {
				t.Errorf("reo_wnd multiplier = %d, want %d", steps, tt.wantSteps)
			}
		})
	}
}

// reo_wnd_persist (RFC 8985 section 6.2 step 4, Linux's
// tcp_rack_update_reo_wnd and tcp_try_undo_recovery): the widened window
// lasts 16 recoveries that end without an undo, then returns to one
// step; an undo by DSACKs adds one recovery back; a DSACK within a round
// trip of the last raise (the ACK's prior delivery count below the count
// at the raise) does not raise it again.
func TestReoWndPersist(t *testing.T) {
	tests := []struct {
		name          string
		before, after int  // recoveries ended without an undo, before and after
		undoDSACK     bool // one undone by DSACKs between them
		wantSteps     int
	}{
		{"15 recoveries", 15, 0, false, 2},
		{"16 recoveries", 16, 0, false, 1},
		{"8, an undo, 8", 8, 8, true, 2},
		{"8, an undo, 9", 8, 9, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s sender
			s.reo = reordState{on: true, reordering: 3, steps: 1, seen: 1}
			s.rate.delivered = 1000
			s.reo.dsackSeen, s.reo.priorDelivered = true, 500
			s.reorderUpdateWnd() // the raise
			if s.reo.steps != 2 || s.reo.persist != rackRecoveryThresh {
				t.Fatalf("after a DSACK round: steps, persist = %d, %d, want 2, 16", s.reo.steps, s.reo.persist)
			}
			s.reo.dsackSeen, s.reo.priorDelivered = true, 999 // within the round trip
			s.reorderUpdateWnd()
			if s.reo.steps != 2 {
				t.Fatalf("a DSACK within a round trip raised steps to %d", s.reo.steps)
			}
			for i := 0; i < tt.before; i++ {
				s.reorderRecoveryEnd()
			}
			if tt.undoDSACK {
				s.reorderUndoDSACK()
			}
			for i := 0; i < tt.after; i++ {
				s.reorderRecoveryEnd()
			}
			s.reo.priorDelivered = 2000
			s.reorderUpdateWnd()
			if s.reo.steps != tt.wantSteps {
				t.Errorf("steps = %d, want %d", s.reo.steps, tt.wantSteps)
			}
		})
	}
}

// A DSACK, read under AdaptiveReordering alone, concerns its own ACK
// only: after segment 25's reordering causes a fast retransmit that the
// receiver reports duplicate, the loss of segment 150 still starts a
// fast recovery by its SACKs (RFC 6675), not a timeout.
func TestAdaptiveReorderingThenLoss(t *testing.T) {
	cfg := baseConfig()
	cfg.Recovery, cfg.LossDetection, cfg.MinRTO = RecoverySACK, LossDupThreshOnly, 200*des.Millisecond
	cfg.AdaptiveReordering, cfg.DSACK, cfg.RcvBuf = true, true, 20000
	pr := newPair(t, cfg, 10e6, 10*des.Millisecond, newReno)
	r := &reorder{pr: pr, delay: map[int64]des.Duration{25000: 4 * des.Millisecond}}
	lost := false
	pr.w.drop = func(dir int, p *netsim.Packet) bool {
		if dir == 0 && p.Payload > 0 && !p.Retransmitted && p.Seq-1001 == 150000 && !lost {
			lost = true
			return true
		}
		return r.drop(dir, p)
	}
	pr.transfer(t, 200*1000, des.Time(10*des.Second))
	st := pr.client.Stats
	if st.FastRecoveries != 2 || st.RTOs != 0 || st.DSACKsRecv != 1 {
		t.Errorf("fast recoveries, RTOs, DSACKs = %d, %d, %d, want 2, 0, 1", st.FastRecoveries, st.RTOs, st.DSACKsRecv)
	}
}
