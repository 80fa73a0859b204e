package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// rack is the time-based loss detection of RFC 8985 (RACK): a segment is
// lost when a segment sent after it has been delivered (SACKed or
// cumulatively acknowledged) and RACK.rtt + RACK.reo_wnd has passed since
// it was sent (section 6.2). Under LossRACKTLP it judges every segment;
// under LossDupThresh only retransmissions.
//
// With LossDupThresh, RFC 6675's IsLost (DupThresh SACKed segments above)
// decides the first loss of a segment; it cannot see the loss of a
// retransmission, whose sequence number lies below HighRxt, so without
// RACK a lost retransmission waits for the retransmission timer, backed
// off and without RTT samples (Karn) until something new is acknowledged.
// Linux detects it the same way (tcp_rack_detect_loss).
//
// Sections 6.1-6.2 keep a transmit time per segment; the send records
// carry it (sendRecord.sentAt, updated by every retransmission). Sends at
// one instant are ordered by a transmission count (sendRecord.xmitN) where
// the RFC, whose clock is coarse, falls back on sequence numbers
// (RACK_sent_after): a retransmission sent in the same nanosecond as new
// data but after it must not count as sent before it. The
// retransmissions wait in rxq in the order they were sent, the order in
// which section 6.2 step 5 examines them, so detection stops at the first
// that is not yet late.
type rack struct {
	// all: RACK judges every segment (RACK-TLP), not only
	// retransmissions; set once by newRecovery.
	all bool

	xmit   des.Time     // RACK.xmit_ts: latest send time of a delivered segment
	xmitN  uint64       // its transmission count (RACK.end_seq's role)
	rtt    des.Duration // RACK.rtt: the RTT of that delivery
	fack   seqnum.Value // RACK.fack: highest end of a delivered segment
	reord  bool         // RACK.reord: reordering seen (section 6.2 step 3)
	set    bool         // xmit, xmitN and rtt hold a delivery
	fackOK bool         // fack holds a delivery

	// prevFack is RACK.fack before the ACK being processed (prevFackOK:
	// it held a delivery). Step 3 walks an ACK's newly delivered
	// segments in ascending order of end, so a segment is behind the
	// running fack exactly when it is behind this one; the sender visits
	// them in another order (SACK blocks as the receiver lists them, most
	// recent first, then the cumulatively acknowledged ones).
	prevFack   seqnum.Value
	prevFackOK bool

	// Per ACK: the most recently sent segment this ACK delivers.
	candAt des.Time
	candN  uint64
	cand   bool

	// scan is where the walk over segments sent once resumes
	// (rackDetectFirst): below it each is delivered, marked lost or
	// retransmitted.
	scan seqnum.Value

	// reo is reoWnd for the detection under way, once reoOK
	// (reoCache).
	reo   des.Duration
	reoOK bool

	rxq    ring[rxEntry]      // retransmissions in send order
	relost ring[seqnum.Value] // records marked relost, to resend
	timer  des.Timer          // section 6.2's reordering timer
}

// rxEntry is one retransmission: the record's start and its transmission
// count. An entry whose record has since been delivered or resent is
// stale.
type rxEntry struct {
	seq seqnum.Value
	n   uint64
}

// rackAckStart notes RACK.fack before an ACK delivers anything
// (rackDelivered compares with it).
func (s *sender) rackAckStart() {
	k := &s.rack
	k.prevFack, k.prevFackOK = k.fack, k.fackOK
}

// rackDelivered notes a record this ACK newly delivers (section 6.2 step
// 2, RACK_update, and step 3, RACK_detect_reordering).
func (s *sender) rackDelivered(now des.Time, r *sendRecord) {
	k := &s.rack
	end := r.end()
	if !r.retx && k.prevFackOK && end.LessThan(k.prevFack) {
		k.reord = true
	}
	if !k.fackOK || k.fack.LessThan(end) {
		k.fack, k.fackOK = end, true
	}
	// A retransmitted segment acknowledged sooner than the minimum RTT
	// after its last transmission was delivered by an earlier copy: its
	// send time says nothing (step 2; there are no timestamps here).
	if r.retx && now.Sub(r.sentAt) < s.rtt.minRTT {
		return
	}
	if !k.cand || r.xmitN > k.candN {
		k.candAt, k.candN, k.cand = r.sentAt, r.xmitN, true
	}
}

// rackUpdate ends an ACK's RACK_update: RACK.rtt is the RTT of the most
// recently sent segment the ACK delivered, and RACK.xmit_ts moves forward
// to it.
func (s *sender) rackUpdate(now des.Time) {
	k := &s.rack
	if !k.cand {
		return
	}
	k.cand = false
	k.rtt = now.Sub(k.candAt)
	if !k.set || k.candN > k.xmitN {
		k.xmit, k.xmitN = k.candAt, k.candN
	}
	k.set = true
}

// reoWnd is section 6.2 step 4: no reordering window once reordering has
// never been seen and the sender is in loss recovery or DupThresh segments
// are SACKed; otherwise min(min_RTT/4, SRTT).
func (s *sender) reoWnd() des.Duration {
	if !s.reordSeen() && (s.inRecovery || s.inLoss || s.sb.Sacked() >= seqnum.Size(s.dupThresh())*seqnum.Size(s.smss)) {
		return 0
	}
	// Under Config.AdaptiveReordering, DSACKs widen it (reorder.go).
	return min(s.rtt.minRTT/4*s.reoSteps(), s.rtt.srtt)
}

// reoCache is reoWnd for the detection under way (rackDetect clears
// reoOK), computed at its first use: that comes before the detection
// marks anything lost, so it is the window at the detection's start,
// as section 6.2 step 5 computes it.
func (s *sender) reoCache() des.Duration {
	k := &s.rack
	if !k.reoOK {
		k.reo, k.reoOK = s.reoWnd(), true
	}
	return k.reo
}

// rackDetect is section 6.2 step 5 (RACK_detect_loss): a segment sent
// before RACK.xmit_ts whose RACK.rtt + reo_wnd has passed since it was
// sent is lost and queued to be resent; the earliest of those not yet
// late arms the reordering timer (section 6.3) for when it will be. The
// RFC's pseudocode, and Linux's tcp_rack_detect_loss, arm it for the
// latest instead (timeout = max(remaining, timeout)), so that one expiry
// judges every waiting segment; docs/os-testbed.md gives what that
// changes on document 002's figures.
// Segments are examined in the order they were sent, in two runs that are
// each in send order: the retransmissions (rxq) and, with RACK-TLP, the
// segments sent once, in sequence order from the scan cursor (first
// transmissions leave in sequence order). Each run stops at its first
// segment not yet late, as the RFC's walk over the time-sorted list does.
func (s *sender) rackDetect(now des.Time) {
	k := &s.rack
	if !k.set {
		return
	}
	// reo_wnd is needed only once a segment sent before RACK.xmit_ts is
	// examined, which most ACKs, finding the oldest outstanding segment
	// sent after the one they deliver, never do (reoCache).
	s.rack.reoOK = false
	var wait des.Duration // the soonest a segment not yet lost will be; 0: none
	again := false
	for k.rxq.len() > 0 {
		e := k.rxq.front()
		i := s.recs.find(e.seq)
		if i < 0 {
			k.rxq.pop() // cumulatively acknowledged
			continue
		}
		r := s.recs.at(i)
		if r.sacked || r.relost || r.xmitN != e.n {
			k.rxq.pop() // delivered, or already judged, or resent since
			continue
		}
		if r.xmitN > k.xmitN {
			break // neither it nor any later retransmission is behind
		}
		if remaining := r.sentAt.Add(k.rtt + s.reoCache()).Sub(now); remaining > 0 {
			wait = remaining
			break
		}
		k.rxq.pop()
		s.markLost(now, r)
		s.c.Stats.LostRetrans++
		again = again || r.sentAt >= s.reducedAt
	}
	if k.all && k.scan != s.max {
		if remaining := s.rackDetectFirst(now); remaining > 0 && (wait == 0 || remaining < wait) {
			wait = remaining
		}
	}
	if wait > 0 && (!k.timer.Pending() || now.Add(wait) < k.timer.When()) {
		k.timer.ResetAfter(wait)
	}
	if again {
		s.lostRetransmission(now)
	}
}

// rackDetectFirst runs section 6.2 step 5 over the segments sent only
// once, from the scan cursor: every segment below it is delivered, marked
// lost or retransmitted (and so in rxq). Below a timeout's recovery point
// a segment not yet resent already counts as lost (lostBound) and is
// passed over. It returns how long until the first segment not yet late
// will be, or 0.
func (s *sender) rackDetectFirst(now des.Time) des.Duration {
	k := &s.rack
	if k.scan == s.max {
		return 0 // everything sent has been judged
	}
	i := 0
	if k.scan.InRange(s.una, s.max) {
		if j := s.recs.cover(k.scan); j >= 0 {
			i = j
		}
	}
	for ; i < s.recs.len(); i++ {
		r := s.recs.at(i)
		if r.sacked || r.relost || r.retx || (s.inLoss && r.seq.LessThan(s.lossHigh)) {
			k.scan = r.end()
			continue
		}
		if r.xmitN > k.xmitN {
			return 0 // sent after the latest delivered segment: not behind
		}
		if remaining := r.sentAt.Add(k.rtt + s.reoCache()).Sub(now); remaining > 0 {
			return remaining
		}
		s.markLost(now, r)
		s.c.Stats.RACKLost++
		k.scan = r.end()
	}
	return 0
}

// markLost marks a record lost (markSegmentLost): it leaves pipe and
// waits to be resent.
func (s *sender) markLost(now des.Time, r *sendRecord) {
	s.markSegmentLost(now, r)
	r.relost = true
	s.relostBytes += r.payloadBytes()
	s.rack.relost.push(r.seq)
}

// rackRecover starts fast recovery when RACK has marked segments lost
// outside any recovery (RFC 8985 section 6.2 step 5 hands them to the
// recovery algorithm; the controller sees OnCongestionEvent once, as for
// duplicate ACKs). Outside recovery the plain output loop never resends
// them, so the recovery must start now.
func (s *sender) rackRecover(now des.Time) {
	if !s.rack.all || s.inRecovery || s.inLoss {
		return
	}
	if _, ok := s.nextRelost(); ok {
		s.enterRecovery(now, false)
	}
}

// lostRetransmission is the congestion response to a lost retransmission
// sent since the latest response: RFC 5681 section 4.3 ("the loss of a
// retransmission [...] should be taken as two indications of congestion
// and, therefore, cwnd (and ssthresh) MUST be lowered twice"), which RFC
// 8985 section 9.3 asks of senders that detect such losses. The
// controller reduces again from the current window (passed as the flight
// size). In fast recovery the reduction covers everything sent so far, so
// the recovery point moves to HighData and retransmissions sent before
// this do not count again; in a timeout's recovery the timeout's recovery
// point stays (Linux enters Recovery, a reduction, on a lost
// retransmission in the Loss state); outside both, the lost
// retransmission starts a fast recovery, which resends it.
func (s *sender) lostRetransmission(now des.Time) {
	switch {
	case s.inRecovery:
		s.recover = s.max
	case s.inLoss:
	case !s.una.LessThan(s.recover):
		s.enterRecovery(now, false)
		return
	}
	s.reducedAt = now
	s.refreshCC()
	s.ctrl.OnCongestionEvent(now, &s.cc, s.cc.Cwnd)
	s.cc.Cwnd = max(s.cc.Cwnd, s.smss)
}

// rackTimeout is the reordering timer's expiry (section 6.3).
func (s *sender) rackTimeout(now des.Time) {
	if s.c.state != stateEstablished || s.done {
		return
	}
	// Marks made by the timer are no ACK's newly lost bytes (Linux's
	// tcp_rack_reo_timeout marks outside tcp_ack).
	before := s.rate.lost
	s.rackDetect(now)
	s.rate.lostTold += s.rate.lost - before
	s.rackRecover(now)
	s.output(now)
	s.tlpSchedule(now)
}

// nextRelost returns the oldest record waiting to be resent after RACK
// judged its retransmission lost, dropping queue entries that were
// delivered meanwhile.
func (s *sender) nextRelost() (seqnum.Value, bool) {
	k := &s.rack
	for k.relost.len() > 0 {
		seq := k.relost.front()
		if i := s.recs.find(seq); i >= 0 && s.recs.at(i).relost {
			return seq, true
		}
		k.relost.pop()
	}
	return 0, false
}

// rackForget drops the retransmissions and the queue of lost ones, as a
// timeout does: it marks everything outstanding lost anew.
func (s *sender) rackForget() {
	k := &s.rack
	s.clearRelost()
	k.rxq.clear()
	k.timer.Stop()
	// Everything sent so far is below the timeout's recovery point.
	k.scan = s.max
}

// clearRelost forgets the records marked relost: none is to be resent.
func (s *sender) clearRelost() {
	k := &s.rack
	for k.relost.len() > 0 {
		if i := s.recs.find(k.relost.front()); i >= 0 {
			s.recs.at(i).relost = false
		}
		k.relost.pop()
	}
	s.relostBytes = 0
}
