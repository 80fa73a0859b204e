package cc

import "github.com/crosslink-sim/crosslink/engine/unit"

// caState is the sender's loss-recovery state as Linux's BBR sees it
// (icsk_ca_state): open, fast recovery, or the recovery from a
// retransmission timeout.
type caState uint8

const (
	caOpen caState = iota
	caRecovery
	caLoss
)

// bbrRecovery is the part of BBR's window control that follows the
// sender's loss recovery, shared by BBR v1 and v2 as tcp_bbr.c and
// tcp_bbr2.c share it (draft-cardwell-iccrg-bbr-congestion-control-00
// section 4.2.3.4; bbr_save_cwnd, bbr_set_cwnd_to_recover_or_restore,
// bbr_set_state):
//   - the window is saved when recovery or a timeout begins from the open
//     state; later saves (a timeout during recovery, PROBE_RTT) keep the
//     larger value, and a repeated timeout saves nothing, so the one
//     segment a timeout leaves never overwrites it;
//   - on entering fast recovery cwnd is cut to what is in the network
//     (Linux's packets_in_flight, the sender's pipe) and packet
//     conservation holds for one round: cwnd >= pipe + newly acknowledged;
//     a lost retransmission during the same recovery does not start it
//     again (Linux does not re-enter Recovery);
//   - a timeout leaves cwnd at pipe + 1 segment (one segment, since the
//     sender counts everything outstanding lost) and BBR grows it again on
//     every ACK; a lost retransmission then starts fast recovery's
//     conservation (Linux moves from Loss to Recovery);
//   - leaving recovery or the timeout's recovery restores the saved window;
//   - every ACK takes the bytes newly marked lost off cwnd (an ACK for P
//     packets releases at most 2P).
type bbrRecovery struct {
	state        caState
	priorCwnd    unit.Bytes
	conservation bool
}

// save is bbr_save_cwnd.
func (r *bbrRecovery) save(s *State, probeRTT bool) {
	if r.state == caOpen && !probeRTT {
		r.priorCwnd = s.Cwnd
	} else {
		r.priorCwnd = max(r.priorCwnd, s.Cwnd)
	}
}

// enter starts fast recovery; it reports false when already in it.
func (r *bbrRecovery) enter(s *State, probeRTT bool) bool {
	if r.state == caRecovery {
		return false
	}
	r.save(s, probeRTT)
	r.state = caRecovery
	r.conservation = true
	s.Cwnd = max(s.Pipe+s.SMSS, s.SMSS)
	return true
}

// exit leaves fast recovery or a timeout's recovery and restores the
// saved window.
func (r *bbrRecovery) exit(s *State) {
	if r.state == caOpen {
		return
	}
	r.state = caOpen
	r.conservation = false
	s.Cwnd = max(s.Cwnd, r.priorCwnd)
}

// timeout is a retransmission timeout (tcp_enter_loss calls BBR's
// ssthresh hook, which saves cwnd, only from the open state).
func (r *bbrRecovery) timeout(s *State, probeRTT bool) {
	if r.state == caOpen {
		r.save(s, probeRTT)
	}
	r.state = caLoss
	r.conservation = false
	s.Cwnd = s.Pipe + s.SMSS
}

// onAck applies an ACK's losses, notices the end of a timeout's recovery
// and returns the window before BBR's growth; conserve is true while
// packet conservation decides cwnd (then cwnd is final).
func (r *bbrRecovery) onAck(s *State, a *Ack, acked unit.Bytes) (cwnd unit.Bytes, conserve bool) {
	cwnd = s.Cwnd
	if a.Lost > 0 {
		cwnd = max(cwnd-a.Lost, s.SMSS)
	}
	if r.state != caOpen && !a.InLoss && !a.InRecovery {
		// The sender left the timeout's recovery (fast recovery ends
		// through OnExitRecovery, before the ACK that ends it).
		r.state = caOpen
		r.conservation = false
		cwnd = max(cwnd, r.priorCwnd)
	}
	if r.conservation {
		return max(cwnd, s.Pipe+acked), true
	}
	return cwnd, false
}
