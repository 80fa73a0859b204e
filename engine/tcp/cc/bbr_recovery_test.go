package cc_test

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"testing"

	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// BBR v1's window around loss recovery, as tcp_bbr.c keeps it
// (bbr_save_cwnd, bbr_set_cwnd_to_recover_or_restore, bbr_set_state),
// driven hook by hook the way the sender calls them. Windows in segments;
// exact.
//   - a timeout leaves pipe + 1 segment (the sender counts everything
//     outstanding lost: pipe 0) and saves the window; a repeated timeout
//     does not overwrite the saved window with its one segment; the first
//     ACK after the timeout's recovery restores it, and STARTUP's growth
//     adds what that ACK acknowledged (one segment: 101);
//   - fast recovery starts with cwnd = pipe + 1 segment (what the
//     duplicate ACK delivered) and conserves packets: cwnd >= pipe +
//     acknowledged; a second congestion signal in the same recovery (a
//     lost retransmission) changes nothing; leaving restores the window
//     saved on entry;
//   - a timeout during fast recovery keeps the window saved on entering
//     recovery.
//
// BBRv2's window, in the v2alpha tcp_bbr2.c, which dropped v1's packet
// conservation: bbr_set_cwnd has no
// bbr_set_cwnd_to_recover_or_restore, and tcp_cong_control hands a
// cong_control algorithm the whole window (no PRR). So fast recovery
// leaves cwnd alone (100 stays 100 through entry, ACKs, a second signal
// and the exit); a timeout leaves tcp_enter_loss's packets in flight + 1
// (1 segment, every time, repeated or not), and leaving the timeout's
// recovery restores the window bbr2_ssthresh saved (bbr2_set_state: max(cwnd,
// prior_cwnd) = 100; the ACK adds nothing in STARTUP, cwnd being past
// both the initial-window target and twice the initial window). Windows
// in segments; exact.
func TestBBRRecoveryWindow(t *testing.T) {
	const seg = unit.Bytes(mss)
	// Each ACK delivers one more segment (rs->acked_sacked, what BBR's
	// bbr_set_cwnd grows and restores by).
	var delivered unit.Bytes
	ack := func(c cc.Controller, s *cc.State, pipe unit.Bytes, inRec, inLoss bool) {
		s.Pipe = pipe * seg
		delivered += seg
		c.OnAck(s, &cc.Ack{Now: 1e9, Acked: seg, Inflight: (pipe + 1) * seg, PriorPipe: (pipe + 1) * seg,
			InRecovery: inRec, InLoss: inLoss, Delivered: delivered})
	}
	// The windows after each step, in segments.
	type want struct {
		afterTimeout                     unit.Bytes // the first ACK after the timeout's recovery
		enter, inRecovery, second, leave unit.Bytes // fast recovery
		afterTimeoutInRecovery           unit.Bytes
	}
	for _, tc := range []struct {
		name string
		want want
	}{
		{"bbr", want{afterTimeout: 101, enter: 51, inRecovery: 51, second: 51, leave: 100, afterTimeoutInRecovery: 101}},
		{"bbr2", want{afterTimeout: 100, enter: 100, inRecovery: 100, second: 100, leave: 100, afterTimeoutInRecovery: 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check := func(step string, s *cc.State, want unit.Bytes) {
				t.Helper()
				if got := s.Cwnd / seg; got != want {
					t.Errorf("%s: cwnd = %d segments, want %d", step, got, want)
				}
			}
			newState := func() (cc.Controller, *cc.State) {
				c := mustNew(t, tc.name, 1)
				delivered = 0
				s := &cc.State{Cwnd: 10 * seg, SMSS: seg}
				c.Init(s)
				s.Cwnd = 100 * seg
				return c, s
			}

			c, s := newState()
			s.Pipe = 0
			c.OnRTO(0, s, 100*seg, false)
			check("timeout", s, 1)
			s.Cwnd = 3 * seg
			c.OnRTO(0, s, 100*seg, true)
			check("repeated timeout", s, 1)
			ack(c, s, 1, false, true)
			if s.Cwnd >= 100*seg {
				t.Errorf("cwnd %d segments restored while still recovering from the timeout", s.Cwnd/seg)
			}
			ack(c, s, 1, false, false)
			check("end of the timeout's recovery", s, tc.want.afterTimeout)

			c, s = newState()
			s.Pipe = 50 * seg
			c.OnCongestionEvent(0, s, 100*seg)
			check("entering recovery", s, tc.want.enter)
			ack(c, s, 49, true, false)
			check("an ACK in recovery", s, tc.want.inRecovery)
			s.Pipe = 20 * seg
			c.OnCongestionEvent(0, s, 51*seg)
			check("second signal in recovery", s, tc.want.second)
			c.OnExitRecovery(0, s)
			check("leaving recovery", s, tc.want.leave)

			c, s = newState()
			s.Pipe = 50 * seg
			c.OnCongestionEvent(0, s, 100*seg)
			s.Pipe = 0
			c.OnRTO(0, s, 100*seg, false)
			check("timeout in recovery", s, 1)
			ack(c, s, 1, false, false)
			check("after the timeout in recovery", s, tc.want.afterTimeoutInRecovery)
		})
	}
}
