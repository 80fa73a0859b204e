package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// DefaultMaxReordering is Linux's net.ipv4.tcp_max_reordering: the
// adaptive duplicate-ACK threshold grows to at most 300 segments.
const DefaultMaxReordering = 300

// rackRecoveryThresh is Linux's TCP_RACK_RECOVERY_THRESH (RFC 8985
// section 6.2 step 4's 16): a widened reordering window persists for 16
// loss recoveries.
const rackRecoveryThresh = 16

// reordState is the sender's measure of the path's reordering under
// Config.AdaptiveReordering, as Linux keeps it.
//
// The duplicate-ACK threshold (Linux's tp->reordering, starting at
// DupThresh, net.ipv4.tcp_reordering = 3) grows whenever a segment never
// retransmitted is delivered (SACKed or cumulatively acknowledged) below
// the highest SACKed one: to the distance between them in segments,
// rounded up, at most MaxReordering (tcp_check_sack_reordering; it never
// shrinks). RFC 6675's IsLost and the threshold of duplicate ACKs use it
// (sender.dupThresh), and RACK's reordering window counts it as
// reordering seen.
//
// RACK's reordering window (RFC 8985 section 6.2 step 4) is steps times
// min_RTT/4, at most SRTT. A round trip that saw a DSACK of a
// retransmission after reordering was seen raises steps by one
// (tcp_rack_update_reo_wnd, Linux's rack.reo_wnd_steps; a DSACK of a
// probe does not count, and a DSACK within a round trip of the last
// raise does not either); steps returns to one once 16 recoveries have
// ended without an undo since the last raise (reo_wnd_persist).
type reordState struct {
	on         bool
	reordering int // segments
	seen       int // reordering events (Linux's tp->reord_seen)

	// highSack is the start of the highest SACKed segment (Linux's
	// tcp_highest_sack_seq, with SND.UNA when nothing is SACKed).
	highSack seqnum.Value
	highSet  bool
	// Per ACK: low is the lowest start of a segment never retransmitted
	// that the ACK delivered below priorFack, the fack before the ACK
	// (Linux's state->reord, prior_fack).
	low       seqnum.Value
	lowSet    bool
	priorFack seqnum.Value

	steps         int // reo_wnd_steps
	persist       int // reo_wnd_persist
	dsackSeen     bool
	lastDelivered unit.Bytes // rate.delivered when steps last grew
	// priorDelivered is the largest delivery count at sending among the
	// records the ACK delivered (the rate sample's prior_delivered).
	priorDelivered unit.Bytes
}

// dupThresh is the duplicate-ACK threshold in segments: Config.DupThresh,
// or the adaptive one.
func (s *sender) dupThresh() int {
	if s.reo.on {
		return s.reo.reordering
	}
	return s.c.cfg.DupThresh
}

// Reordering returns the sender's duplicate-ACK threshold in segments
// (Linux's tcpi_reordering): Config.DupThresh unless
// Config.AdaptiveReordering has raised it.
func (c *Conn) Reordering() int { return c.snd.dupThresh() }

// fack is Linux's tcp_highest_sack_seq.
func (s *sender) fack() seqnum.Value {
	if s.sb.Empty() || !s.reo.highSet {
		return s.una
	}
	return s.reo.highSack
}

// reorderAckStart notes the fack before an ACK.
func (s *sender) reorderAckStart() {
	o := &s.reo
	if !o.on {
		return
	}
	if s.sb.Empty() {
		o.highSet = false
	}
	o.priorFack = s.fack()
	o.lowSet = false
	o.priorDelivered = 0
}

// reorderDelivered notes a record the ACK newly delivers; sacked says a
// SACK block (not the cumulative ACK) delivered it. A record never
// retransmitted delivered below the fack before the ACK was overtaken
// (Linux's tcp_sacktag_one, which walks the blocks in ascending order so
// that a segment is compared with the fack before the ACK or with a
// lower one, and tcp_clean_rtx_queue).
func (s *sender) reorderDelivered(r *sendRecord, sacked bool) {
	o := &s.reo
	if !o.on {
		return
	}
	o.priorDelivered = max(o.priorDelivered, r.delivered)
	if !r.retx && r.seq.LessThan(o.priorFack) && (!o.lowSet || r.seq.LessThan(o.low)) {
		o.low, o.lowSet = r.seq, true
	}
	if sacked && (!o.highSet || o.highSack.LessThan(r.seq)) {
		o.highSack, o.highSet = r.seq, true
	}
}

// reorderCheck is Linux's tcp_check_sack_reordering once an ACK's
// deliveries are known: the distance from the overtaken segment to the
// fack raises the threshold if it is larger.
//
// It runs twice per ACK and mostly has nothing to do: only
// reorderDelivered sets lowSet, and only with AdaptiveReordering on, so
// the test of lowSet alone is inlined.
func (s *sender) reorderCheck() {
	if s.reo.lowSet {
		s.reorderCheckLow()
	}
}

// reorderCheckLow is reorderCheck once a segment below the prior fack
// was delivered.
func (s *sender) reorderCheckLow() {
	o := &s.reo
	if !o.on || !o.low.LessThan(o.priorFack) {
		return
	}
	o.lowSet = false
	s.reorderCheckFrom(o.low)
}

// reorderCheckFrom is tcp_check_sack_reordering from low.
func (s *sender) reorderCheckFrom(low seqnum.Value) {
	o := &s.reo
	fack := s.fack()
	if !o.on || !low.LessThan(fack) {
		return
	}
	mss := seqnum.Size(s.smss)
	if metric := low.Size(fack); metric > seqnum.Size(o.reordering)*mss {
		o.reordering = min(int((metric+mss-1)/mss), s.c.cfg.MaxReordering)
	}
	o.seen++
}

// reorderDSACK notes a DSACK of a retransmission (Linux's
// tcp_dsack_seen): after reordering was seen it asks for a wider RACK
// window, unless it reports a probe.
func (s *sender) reorderDSACK(probe bool) {
	if s.reo.on && s.reordSeen() && !probe {
		s.reo.dsackSeen = true
	}
}

// reordSeen reports reordering seen, by RACK's step 3 or by the
// threshold's measure.
func (s *sender) reordSeen() bool { return s.rack.reord || s.reo.seen > 0 }

// reorderUpdateWnd is Linux's tcp_rack_update_reo_wnd, once per ACK that
// delivered something.
func (s *sender) reorderUpdateWnd() {
	o := &s.reo
	if !o.on || o.priorDelivered == 0 {
		return
	}
	if o.priorDelivered < o.lastDelivered {
		o.dsackSeen = false // within a round trip of the last raise
	}
	switch {
	case o.dsackSeen:
		o.steps = min(o.steps+1, 0xff)
		o.dsackSeen = false
		o.lastDelivered = s.rate.delivered
		o.persist = rackRecoveryThresh
	case o.persist == 0:
		o.steps = 1
	}
}

// reorderRecoveryEnd counts a recovery that ended without an undo
// (Linux's tcp_try_undo_recovery decrements reo_wnd_persist).
func (s *sender) reorderRecoveryEnd() {
	if s.reo.on && s.reo.persist > 0 {
		s.reo.persist--
	}
}

// reorderUndoDSACK is tcp_try_undo_dsack's persistence: a recovery undone
// by DSACKs keeps the window one recovery longer.
func (s *sender) reorderUndoDSACK() {
	if s.reo.on {
		s.reo.persist = min(rackRecoveryThresh, s.reo.persist+1)
	}
}

// reoSteps is the multiplier of RACK's min_RTT/4 (1 without adaptation).
func (s *sender) reoSteps() des.Duration {
	if !s.reo.on {
		return 1
	}
	return des.Duration(s.reo.steps)
}
