package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// sender is the sending half of a connection (RFC 9293 section 3.3.1's
// SND variables plus the congestion and recovery state of RFC 5681, 6582,
// 6675 and 8985).
type sender struct {
	c    *Conn
	ctrl cc.Controller
	cc   cc.State
	rtt  rttEstimator
	// Per ACK: the send times of the oldest and the newest segment it
	// newly SACKs that were never retransmitted (Linux's first_sackt and
	// last_sackt; sackTimed: it SACKs one), for its RTT sample (ackRTT).
	sackFirst, sackLast des.Time
	sackTimed           bool

	iss seqnum.Value
	una seqnum.Value // SND.UNA: oldest unacknowledged (RFC 6675 HighACK)
	nxt seqnum.Value // SND.NXT: next to send; below max after a timeout
	max seqnum.Value // highest sent + 1 (RFC 6675 HighData)
	wnd unit.Bytes   // the peer's window in bytes (scaled)

	written unit.Bytes // bytes the application wrote
	// unaOff is the stream offset of SND.UNA (bytes after the SYN); with
	// it, 64-bit stream positions survive the 32-bit sequence wrap.
	unaOff    unit.Bytes
	finQueued bool
	peerMSS   unit.Bytes
	smss      unit.Bytes

	recs records
	sb   *Scoreboard
	// rec is the connection's loss recovery, chosen when it opens
	// (newRecovery); nil before.
	rec recovery

	dupAcks    int
	inRecovery bool
	recover    seqnum.Value // RFC 6582 "recover", RFC 6675 RecoveryPoint
	rxtNext    seqnum.Value // RFC 6675 HighRxt + 1
	rtoRepeat  bool         // the timer already retransmitted the oldest segment
	// rtoResend: the timer's own resend of the oldest segment is due,
	// which Linux sends past TCP Small Queues (tcp_retransmit_timer calls
	// tcp_retransmit_skb itself, not tcp_xmit_retransmit_queue).
	rtoResend bool
	// inLoss is set from a timeout until SND.UNA reaches lossHigh, the
	// HighData of the latest timeout (Linux's CA_Loss state; RFC 6675
	// section 5.1's preserved RecoveryPoint). With SACK recovery every
	// unSACKed byte below lossHigh counts as lost in that time.
	inLoss   bool
	lossHigh seqnum.Value

	rack rack
	tlp  tlp
	undo undo       // spurious-reduction detection and undo (undo.go)
	frto frto       // F-RTO (frto.go)
	reo  reordState // adaptive reordering (reorder.go)
	// sackBased: the recovery is one of the SACK-based ones.
	sackBased   bool
	relostBytes unit.Bytes // payload of the records marked relost
	reducedAt   des.Time   // the latest congestion response (recovery, timeout)
	xmits       uint64     // data transmissions so far (sendRecord.xmitN)
	// marker is the controller's per-segment loss hook when
	// Config.SkbMarkedLost asks for it and the controller has one.
	marker cc.LossMarker

	rtoTimer des.Timer
	// rtoArmedFor is the duration the retransmission timer was last
	// armed for.
	rtoArmedFor des.Duration
	paceTimer   des.Timer
	nextSendAt  des.Time // tcp_wstamp_ns
	edt         edtPacing

	synSentAt des.Time
	synRetx   bool
	done      bool

	ackedBytes unit.Bytes // payload bytes cumulatively acknowledged
	// acks counts the ACKs processed; delivMark is deliveredTotal before
	// the one being processed (RFC 6937's DeliveredData is the
	// difference).
	acks      uint64
	delivMark unit.Bytes
	rate      rateState

	// Scratch values reused on every ACK so that passing them to the
	// controller through an interface does not allocate.
	ack       cc.Ack
	priorPipe unit.Bytes // pipe before the ACK being processed

	// rateCand is, of the records the ACK being processed newly delivers
	// (SACKed or cumulatively acknowledged), the most recently sent: the
	// one its rate sample comes from (rateCandOK: there is one).
	rateCand   sendRecord
	rateCandOK bool
	// congControl: the controller sets cwnd and pacing itself from every
	// ACK (cc.SetsOwnCwnd), as Linux calls a cong_control algorithm.
	congControl bool
	// sackSamples: SACKs count as deliveries when they arrive and give
	// rate samples, and every ACK reaches a cong_control controller
	// (Config.SACKRateSamples).
	sackSamples bool
}

// pipe is the bytes in the network as the sender estimates them: RFC 6675
// section 4's SetPipe under SACK recovery, FlightSize (RFC 5681 section 2)
// otherwise.
func (s *sender) pipe() unit.Bytes { return s.rec.pipe() }

// deliveredTotal is the bytes the peer holds as the sender knows it: the
// cumulatively acknowledged sequence space and the SACKed bytes above it.
func (s *sender) deliveredTotal() unit.Bytes {
	return s.iss.Size(s.una).Bytes() + s.sb.Sacked().Bytes()
}

func (s *sender) init(c *Conn, ctrl cc.Controller, isn seqnum.Value) {
	s.c, s.ctrl = c, ctrl
	s.congControl = cc.SetsOwnCwnd(ctrl)
	s.sackSamples = c.cfg.SACKRateSamples
	s.iss, s.una, s.nxt, s.max = isn, isn, isn, isn
	s.recover = isn
	s.rxtNext = isn
	s.rtt = newRTTEstimator(c.cfg.MinRTO, c.cfg.MaxRTO, c.cfg.Granularity, c.cfg.RTOVarFloor)
	if s.sb == nil {
		s.sb = NewScoreboard(8) // Renew keeps the one it had
	}
	s.rtoTimer.Init(c.s, c, kindRTO, 0)
	s.paceTimer.Init(c.s, c, kindPace, 0)
	s.edt = edtPacing{linux: c.cfg.EDTCredit}
	s.rack.timer.Init(c.s, c, kindRACK, 0)
	s.peerMSS = c.cfg.MSS
	// The adaptive window reads DSACKs too, which the undo state parses.
	s.undo.on, s.undo.detect = c.cfg.Undo || c.cfg.FRTO || c.cfg.AdaptiveReordering, c.cfg.Undo
	if m, ok := ctrl.(cc.LossMarker); ok && c.cfg.SkbMarkedLost {
		s.marker = m
	}
	s.reo.on, s.reo.reordering, s.reo.steps = c.cfg.AdaptiveReordering, c.cfg.DupThresh, 1
}

// remaining returns how many written bytes lie at or after seq v.
func (s *sender) remaining(v seqnum.Value) unit.Bytes {
	return s.written - (s.unaOff + s.una.Size(v).Bytes())
}

// sendSyn sends our SYN or SYN-ACK with the options we offer (RFC 9293
// section 3.5; window scale only in a SYN-ACK if the SYN had it, RFC 7323
// section 2.2; SACK-permitted likewise, RFC 2018 section 2).
func (s *sender) sendSyn(now des.Time, retransmit bool) {
	c := s.c
	p := c.newPacket()
	p.Flags |= netsim.SYN
	p.Seq = uint32(s.iss)
	p.MSS = uint16(min(c.cfg.MSS, 65535))
	passive := c.rcv.nxtSet
	if c.cfg.WindowScaling && (!passive || c.wsOK) {
		p.WScale = int8(wscaleFor(c.cfg.RcvBuf))
	}
	p.SACKPermitted = c.cfg.SACK && (!passive || c.sackOK)
	if c.cfg.Timestamps && (!passive || c.tsOK) {
		c.stamp(p) // RFC 7323 section 3.2: in a SYN-ACK only if the SYN had it
	}
	// RFC 7323 section 2.2: the window field of a SYN is never scaled.
	p.Window = uint32(min(c.cfg.RcvBuf, 65535))
	p.Retransmitted = retransmit
	if retransmit {
		s.synRetx = true
	} else {
		s.synSentAt = now
	}
	s.max = s.iss + 1
	s.nxt = s.iss + 1
	c.transmit(p)
	s.armRTO(s.synTimeout())
}

// synTimeout is the timer of a SYN or SYN-ACK: Config.SYNTimeout, doubled
// per back-off (RFC 6298 section 5.5) up to MaxRTO, or the RTO.
func (s *sender) synTimeout() des.Duration {
	d := s.c.cfg.SYNTimeout
	if d <= 0 {
		return s.rtt.current()
	}
	for i := uint(0); i < s.rtt.backoff && d < s.c.cfg.MaxRTO; i++ {
		d *= 2
	}
	return min(d, s.c.cfg.MaxRTO)
}

// synAcked completes the handshake on our side: the SYN is acknowledged
// and its RTT is a valid sample unless it was retransmitted (Karn).
func (s *sender) synAcked(now des.Time, p *netsim.Packet) {
	s.una = s.iss + 1
	s.nxt, s.max = s.una, s.una
	s.recover, s.rxtNext = s.una, s.una
	s.stopRTO()
	if !s.synRetx {
		r := now.Sub(s.synSentAt)
		s.rtt.observeMin(r)
		s.takeRTT(r)
	}
	s.rtt.resetBackoff()
	if p.Flags&netsim.SYN != 0 {
		// RFC 7323 section 2.2: the window of a SYN-ACK is not scaled.
		s.wnd = unit.Bytes(p.Window)
	} else {
		s.wnd = unit.Bytes(p.Window) << s.c.sndShift
	}
	s.established(now, min(s.c.cfg.MSS, s.peerMSS), s.synRetx)
}

// established sets the initial window. RFC 5681 section 3.1: IW from
// RFC 3390 (min(4*SMSS, max(2*SMSS, 4380))) unless configured (RFC 6928
// IW10 is InitialWindow 10); one segment if the SYN was retransmitted.
func (s *sender) established(now des.Time, smss unit.Bytes, synLost bool) {
	s.smss = smss
	s.cc.SMSS = smss
	s.rec = newRecovery(s)
	_, noSACK := s.rec.(*newRenoRecovery)
	s.sackBased = !noSACK
	switch iw := unit.Bytes(s.c.cfg.InitialWindow); { // segments
	case synLost:
		s.cc.Cwnd = smss
	case iw == 0:
		s.cc.Cwnd = min(4*smss, max(2*smss, 4380))
	default:
		s.cc.Cwnd = iw * smss
	}
	s.cc.InitSRTT = s.rtt.srtt
	s.ctrl.Init(&s.cc)
}

// ackRTT is Linux's tcp_ack_update_rtt for an ACK: seqRTT times the
// oldest segment it newly acknowledges and caRTT the newest (negative:
// none, Karn). Without a sequence sample the oldest segment the ACK newly
// SACKs is timed (sack_rtt_us; RACK-TLP senders, which stand for Linux
// hosts), and without that an ACK of new data is timed by its timestamp
// echo (RFC 7323 section 4.1's RTTM, which Linux uses only here: a
// broken echo does less harm as a fallback). The RTO estimator takes the
// sample and the back-off ends (RFC 6298 section 5.7); the minimum RTT
// follows the newest segment (tcp_update_rtt_min), whose sample the ACK
// gives the controller (ca_rtt_us, the rate sample's rtt_us); 0 without
// one.
func (s *sender) ackRTT(now des.Time, p *netsim.Packet, seqRTT, caRTT des.Duration, acked bool) des.Duration {
	if s.sackTimed && s.rack.all {
		if seqRTT < 0 {
			seqRTT = now.Sub(s.sackFirst)
		}
		caRTT = now.Sub(s.sackLast)
	}
	if seqRTT < 0 && acked && s.c.tsOK && p.HasTS && p.TSecr != 0 {
		seqRTT = tsRTT(now, p.TSecr)
		caRTT = seqRTT
	}
	if seqRTT < 0 {
		return 0
	}
	s.rtt.observeMin(caRTT)
	s.takeRTT(seqRTT)
	s.rtt.resetBackoff()
	return caRTT
}

// tsRTT is tcp_rtt_tsopt_us: the time since the echoed timestamp on the
// 1 ms clock stamp uses, at least one tick.
func tsRTT(now des.Time, tsecr uint32) des.Duration {
	d := uint32(now.Sub(0)/des.Millisecond) - tsecr
	return des.Duration(max(d, 1)) * des.Millisecond
}

func (s *sender) takeRTT(r des.Duration) {
	s.rtt.sample(r)
	st := &s.c.Stats
	st.RTTSamples++
	st.RTTSum += r
	st.RTTMax = max(st.RTTMax, r)
}

// isCwndLimited is tp->is_cwnd_limited for the ACK being processed: the
// Linux host model's tcp_cwnd_validate record, or without one whether
// the pipe before the ACK left less than a segment of cwnd.
func (s *sender) isCwndLimited() bool {
	if h := s.c.host; h != nil && h.cfg.CwndLimited {
		return h.cwndLimited
	}
	return s.priorPipe+s.smss >= s.cc.Cwnd
}

// offset is the stream offset of sequence number v, at or after SND.UNA:
// bytes after the SYN.
func (s *sender) offset(v seqnum.Value) unit.Bytes { return s.unaOff + s.una.Size(v).Bytes() }

// flight is RFC 5681's FlightSize as the sender sees it now: after a
// timeout, everything from nxt up is presumed lost.
func (s *sender) flight() unit.Bytes { return s.una.Size(s.nxt).Bytes() }

// output sends what the windows allow: new data, or after a timeout the
// segments from nxt again (go-back-N, RFC 5681 section 3.1 slow start from
// one segment). In SACK recovery RFC 6675's loop takes over. A Linux host
// model then notes whether the congestion window held the sender back
// (tcp_write_xmit calls tcp_cwnd_validate after its loop).
func (s *sender) output(now des.Time) {
	sent := s.c.Stats.DataSegsSent
	s.send(now)
	if h := s.c.host; h != nil {
		h.cwndValidate(s.c.Stats.DataSegsSent != sent)
	}
}

// send is output's loop.
func (s *sender) send(now des.Time) {
	c := s.c
	if c.state != stateEstablished || s.done {
		return
	}
	if (s.inRecovery || s.inLoss) && s.rec.output(now) {
		return
	}
	for {
		if !s.paceOK(now) || c.host != nil && !s.rtoResend && c.host.blocked(now) {
			return
		}
		s.rtoResend = false
		var n unit.Bytes
		fin := false
		if s.nxt.LessThan(s.max) {
			// Go-back-N after a timeout: resend the record at nxt whole.
			i := s.recs.find(s.nxt)
			if i < 0 {
				panic("bug: tcp: no send record at snd.nxt")
			}
			r := s.recs.at(i)
			n, fin = r.payloadBytes(), r.fin
		} else {
			if rem := s.remaining(s.nxt); rem > 0 {
				n = min(s.smss, rem)
			} else if s.finQueued && rem == 0 && c.blocked.bytes == 0 {
				fin = true
			} else {
				if s.flight() < s.cc.Cwnd {
					s.rate.markAppLimited(s.flight())
				}
				return
			}
		}
		if n > 0 {
			// Usable window (RFC 5681 section 3.2 and RFC 9293 section
			// 3.8.6.2.1: send only whole segments unless it is the last
			// one): min(cwnd, rwnd) plus RFC 3042's allowance, and the
			// send buffer holds at most SndBuf unacknowledged bytes.
			wnd := min(s.cc.Cwnd+s.limitedTransmit(), s.wnd, c.cfg.SndBuf)
			if s.flight()+n > wnd {
				return
			}
			if c.host != nil && s.nxt == s.max && c.host.deferSend(now, s.remaining(s.nxt)) {
				return
			}
		}
		retx := s.nxt.LessThan(s.max)
		s.sendData(now, s.nxt, n, fin, retx)
		s.nxt = s.nxt.Add(seqnum.Size(n))
		if fin {
			s.nxt++
		}
		if s.max.LessThan(s.nxt) {
			s.max = s.nxt
		}
	}
}

// limitedTransmit is RFC 3042 section 2: on the first and second duplicate
// ACK a sender may send new data beyond cwnd, up to cwnd + 2*SMSS.
func (s *sender) limitedTransmit() unit.Bytes {
	if !s.c.cfg.LimitedTransmit || s.inRecovery || s.dupAcks == 0 || s.dupAcks >= s.dupThresh() || s.nxt != s.max {
		return 0
	}
	return unit.Bytes(s.dupAcks) * s.smss
}

// pacingWait is how long from now until pacing lets the next send go:
// Linux's max(tcp_wstamp_ns, now) - now (tcp_update_skb_after_send moves
// tcp_wstamp_ns on by each skb's length at the pacing rate), 0 for a
// sender that does not pace.
func (s *sender) pacingWait(now des.Time) des.Duration {
	if s.cc.PacingRate <= 0 || s.nextSendAt <= now {
		return 0
	}
	return s.nextSendAt.Sub(now)
}

// paceOK reports whether pacing allows a send now; if not it arms the
// pacing timer.
func (s *sender) paceOK(now des.Time) bool {
	if s.cc.PacingRate <= 0 || now >= s.nextSendAt {
		return true
	}
	// An aggregate that departed at this instant and has room takes the
	// next segment: in Linux the skb is one send. (A segment that could
	// not join it, host.tagSkb, would go now too, its gap added to the
	// stamp; none comes: a retransmission's aggregate is sized to its
	// lost run, so only cwnd ends it short, and cwnd ends the pass.)
	if h := s.c.host; h != nil && h.filling(now) {
		return true
	}
	if !s.paceTimer.Pending() {
		s.paceTimer.Reset(s.nextSendAt)
	}
	return false
}

// sendData sends n payload bytes (and a FIN) at seq. A retransmission
// resends an existing record; a new segment appends one.
func (s *sender) sendData(now des.Time, seq seqnum.Value, n unit.Bytes, fin, retx bool) {
	c := s.c
	p := c.newPacket()
	p.Seq = uint32(seq)
	p.Payload = n
	if fin {
		p.Flags |= netsim.FIN
	}
	p.Retransmitted = retx
	c.rcv.fillSACK(p)
	inflight := s.una.Size(s.max).Bytes()
	// The bytes in the network before this send, as Linux's
	// tcp_packets_in_flight counts them (SACKed and lost segments out,
	// retransmissions in): the pipe, taken before a resent segment
	// leaves the relost set or the recovery's bounds move over it.
	var pipe unit.Bytes
	if s.rec != nil {
		pipe = s.pipe()
	} else {
		pipe = inflight
	}
	var r *sendRecord
	if retx {
		i := s.recs.find(seq)
		if i < 0 {
			panic("bug: tcp: retransmission of an unknown segment")
		}
		r = s.recs.at(i)
		r.retx = true
		if r.relost {
			r.relost = false
			s.relostBytes -= r.payloadBytes()
		}
		if !s.tlp.probing {
			// A probe is not a loss (RFC 8985 section 7.3); any other
			// retransmission of a segment not yet marked lost is its
			// mark (the duplicate-ACK rules decide and resend at once).
			s.markSegmentLost(now, r)
		}
		r.marked = false // this transmission is not known lost
		c.Stats.RetransSegs++
		c.Stats.RetransBytes += n
		s.undoRetransmitted()
	} else {
		r = s.recs.push()
		r.seq, r.payload, r.fin = seq, int32(n), fin
		r.len = seqnum.Size(n)
		if fin {
			r.len++
		}
		if !s.tlp.probing {
			s.tlp.restart = true // RFC 8985 section 7.2: new data restarts the PTO
		}
	}
	r.sentAt = now
	s.xmits++
	r.xmitN = s.xmits
	s.rate.onSend(now, r, inflight)
	// scb->tx.in_flight: tcp_rate_skb_sent (the v2alpha tcp_rate.c)
	// records tcp_packets_in_flight plus the segment itself at every
	// transmission, retransmissions included; BBRv2's loss rate is lost
	// over this (bbr2_is_inflight_too_high) and inflight_hi is raised to
	// it (bbr2_adapt_upper_bounds).
	r.txInFlight = pipe + n
	if n > 0 {
		c.Stats.DataSegsSent++
		c.Stats.BytesSent += n
	}
	c.rcv.onAckSent()
	if c.host != nil && n > 0 {
		c.host.tagSkb(now, p, r)
	}
	c.transmit(p)
	// RFC 6298 section 5.1: start the timer if it is not running.
	armed := !s.rtoTimer.Pending()
	if armed {
		s.armRTO(s.rtt.current())
	}
	if retx {
		s.rec.retransmitted(seq, r.xmitN, armed)
	}
	s.ctrl.OnPacketSent(now, &s.cc, n, inflight+n, retx)
	if s.cc.PacingRate > 0 {
		// The pacing rate counts payload bytes, the unit of cwnd and of
		// delivery-rate samples, so a controller that paces at a measured
		// delivery rate sends at that rate (BBR's pacing_rate =
		// pacing_gain * BtlBw). The next skb may not depart before this
		// one's payload/rate has passed since it did (edt.go: each segment
		// without TSO, each aggregate with it).
		open := c.host == nil || !c.host.cfg.TSO || p.Skb == p.ID
		s.nextSendAt = s.edt.sent(now, s.nextSendAt, s.cc.PacingRate.TxTime(n), open, c.Stats.DataSegsSent)
	}
}

// lostRun counts the segments from record r on that a retransmission
// of r can take in one skb: r, and the records after it, in sequence,
// that went in r's skb, are not SACKed and are marked lost, their
// retransmission not yet sent (host.tagSkb).
func (s *sender) lostRun(r *sendRecord) int {
	n := 1
	for i := s.recs.find(r.seq) + 1; i > 0 && i < s.recs.len(); i++ {
		o := s.recs.at(i)
		if o.skb != r.skb || o.sacked || !(o.marked || o.relost) {
			break
		}
		n++
	}
	return n
}

// retransmit resends the record starting at seq (fast retransmit, partial
// ACKs, RFC 6675 NextSeg).
func (s *sender) retransmit(now des.Time, seq seqnum.Value) seqnum.Value {
	i := s.recs.find(seq)
	if i < 0 {
		panic("bug: tcp: retransmission of an unknown segment")
	}
	r := s.recs.at(i)
	s.sendData(now, seq, r.payloadBytes(), r.fin, true)
	return r.end()
}

// onAck processes the acknowledgement fields of an incoming segment.
func (s *sender) onAck(now des.Time, p *netsim.Packet) {
	c := s.c
	ack := seqnum.Value(p.Ack)
	// RFC 9293 section 3.10.7.4: an ACK of something not yet sent is
	// ignored, and an old one carries no information we use.
	if s.max.LessThan(ack) || ack.LessThan(s.una) {
		return
	}
	// RFC 7323 section 2.3: scale the window field.
	s.wnd = unit.Bytes(p.Window) << c.sndShift
	s.acks++
	s.delivMark = s.deliveredTotal()
	// The pipe before the ACK goes to the controller, which hears of
	// an ACK that acknowledges new data (newAck) or, as a cong_control
	// algorithm with SACK rate samples, of every ACK (sackOnlyAck); the
	// acknowledgement field of each segment a receiver gets, which
	// acknowledges nothing new, needs none.
	if ack != s.una || s.sackSamples && s.congControl {
		s.priorPipe = s.pipe()
	}
	s.sackTimed = false
	s.rackAckStart()
	s.undoAckStart(p)
	s.reorderAckStart()
	if c.sackOK {
		if s.undo.on {
			s.checkDSACK(p, ack)
		}
		if p.NSACK > 0 {
			s.sackUpdate(now, p, ack)
		}
		s.reorderCheck()
	}
	advanced := ack != s.una
	if !advanced && s.sackTimed {
		// An ACK that only SACKs still times what it SACKs: Linux's
		// tcp_clean_rtx_queue, and with it tcp_ack_update_rtt, runs for
		// every ACK.
		s.ackRTT(now, p, -1, -1, false)
	}
	if advanced {
		s.newAck(now, p, ack)
	} else if p.Payload == 0 && p.Flags&(netsim.SYN|netsim.FIN) == 0 && s.una != s.max && !(s.undo.dsack && !s.undo.sacked) {
		// RFC 5681 section 2 "duplicate acknowledgment". One that
		// reports a duplicate segment (RFC 2883) and SACKs nothing new
		// signals no loss: Linux's SACK recovery counts SACKed segments,
		// not duplicate ACKs (tcp_time_to_recover), and RFC 6675
		// section 2 lets a SACK sender judge by "previously unknown SACK
		// information".
		c.Stats.DupAcksRecv++
		if s.inLoss && s.undo.on {
			s.processLoss(now, false, true, false)
		}
		s.undoOnDSACK(now)
		s.dupAck(now)
	} else {
		s.undoOnDSACK(now)
	}
	if !advanced {
		s.sackOnlyAck(now)
	}
	s.reorderUpdateWnd()
	s.rec.afterAck(now, ack, advanced, !advanced && p.NSACK == 0 && p.Payload == 0)
	s.output(now)
	s.frto.sendNew = false
	s.tlpSchedule(now)
}

// rateDelivered is tcp_rate_skb_delivered for a record the ACK being
// processed newly delivers, SACKed or cumulatively acknowledged:
// the ACK's rate sample comes from the most recently sent of them
// (draft-cheng-iccrg-delivery-rate-estimation section 3.3; the
// transmission count orders sends at one instant, where Linux compares
// end sequence numbers). A record SACKed earlier gave its sample then and
// is not offered again when the cumulative ACK passes it (Linux clears its
// tx.delivered_mstamp).
func (s *sender) rateDelivered(r *sendRecord) {
	if !s.rateCandOK || r.xmitN > s.rateCand.xmitN {
		s.rateCand, s.rateCandOK = *r, true
	}
}

// rateSample ends an ACK's delivery-rate work (tcp_rate_gen): delivered
// becomes what the peer holds, and the sample comes from the record
// rateDelivered chose, if the ACK delivered any.
func (s *sender) rateSample(now des.Time) cc.RateSample {
	var cand *sendRecord
	if s.rateCandOK {
		cand = &s.rateCand
	}
	s.rateCandOK = false
	return s.rate.onAck(now, s.deliveredTotal(), cand)
}

// sackOnlyAck is tcp_cong_control for an ACK that leaves SND.UNA where it
// was. Linux's tcp_ack takes a rate sample from what such an ACK newly
// SACKs (tcp_rate_gen) and calls a cong_control algorithm (BBR, BBRv2) on
// every ACK, so their model and their window follow the SACKs through a
// recovery whose holes hold the cumulative ACK back; a window-based
// algorithm grows only on newly acknowledged data (tcp_may_raise_cwnd:
// FLAG_DATA_ACKED) and is not called. The SACKs' RTT sample was taken
// before (ackRTT). Without Config.SACKRateSamples it does nothing:
// deliveries, rate samples and the controller wait for the cumulative
// ACK, whose rate sample then comes from the most recently sent of all
// the records it covers.
func (s *sender) sackOnlyAck(now des.Time) {
	if !s.sackSamples {
		return
	}
	rs := s.rateSample(now)
	if !s.congControl {
		return
	}
	s.refreshCC()
	s.ack = cc.Ack{
		Now: now, Inflight: s.una.Size(s.max).Bytes(), PriorPipe: s.priorPipe, PacingWait: s.pacingWait(now),
		MinRTT: s.rtt.minRTT, SRTT: s.rtt.srtt, Rate: rs, InRecovery: s.inRecovery,
		InLoss: s.inLoss, Delivered: s.rate.delivered, Lost: s.rate.newlyLost(),
		CwndLimited: s.isCwndLimited(),
	}
	s.ctrl.OnAck(&s.cc, &s.ack)
	s.afterOnAck()
}

// refreshCC gives the controller's State the sender's pipe and its
// delivery and loss counters before a hook.
func (s *sender) refreshCC() {
	s.cc.Pipe = s.pipe()
	s.refreshCounters()
}

// refreshCounters gives the controller's State the sender's delivery and
// loss counters.
func (s *sender) refreshCounters() {
	s.cc.Delivered, s.cc.DeliveredAt, s.cc.Lost = s.rate.delivered, s.rate.deliveredAt, s.rate.lost
}

// afterOnAck checks the window the controller left and takes its
// app-limited mark into the rate estimator (section 3.4).
func (s *sender) afterOnAck() {
	if s.cc.Cwnd < s.smss {
		panic("bug: tcp: cwnd below one segment")
	}
	if s.cc.AppLimited > 0 {
		s.rate.appLimited = max(s.rate.appLimited, s.cc.AppLimited)
		s.cc.AppLimited = 0
	}
}

// undoOnDSACK runs tcp_try_undo_dsack for an ACK that carried a DSACK,
// in fast recovery or after it (a timeout's recovery has its own paths,
// processLoss).
func (s *sender) undoOnDSACK(now des.Time) {
	if s.undo.dsack && !s.inLoss {
		s.undoDSACK(now)
	}
}

// sackUpdate is RFC 6675 section 5's Update(): it records the SACK blocks
// above HighACK and marks the send records they newly cover (the holes of
// the scoreboard inside a block are what it newly SACKs), which RACK counts
// as delivered.
func (s *sender) sackUpdate(now des.Time, p *netsim.Packet, ack seqnum.Value) {
	for i := 0; i < p.NSACK; i++ {
		l, r := seqnum.Value(p.SACK[i].Left), seqnum.Value(p.SACK[i].Right)
		l = seqnum.Max(l, ack)
		r = seqnum.Min(r, s.max)
		if !l.LessThan(r) {
			continue
		}
		for from := l; from.LessThan(r); {
			hs, he := s.sb.NextHole(from, r)
			if !hs.LessThan(r) {
				break
			}
			s.markSacked(now, hs, he, l, r)
			from = he
		}
		s.sb.Insert(l, r)
	}
}

// markSacked flags the records starting in the hole [hs, he) whose payload
// lies inside the SACK block [l, r).
func (s *sender) markSacked(now des.Time, hs, he, l, r seqnum.Value) {
	i := s.recs.cover(hs)
	if i < 0 {
		return
	}
	for ; i < s.recs.len(); i++ {
		rec := s.recs.at(i)
		if !rec.seq.LessThan(he) {
			return
		}
		if rec.sacked || rec.payload == 0 || rec.seq.LessThan(l) || r.LessThan(rec.seq.Add(seqnum.Size(rec.payload))) {
			continue
		}
		rec.sacked = true
		if !rec.retx {
			// tcp_sacktag_one times only segments never retransmitted.
			if !s.sackTimed || rec.sentAt < s.sackFirst {
				s.sackFirst = rec.sentAt
			}
			if !s.sackTimed || rec.sentAt > s.sackLast {
				s.sackLast = rec.sentAt
			}
			s.sackTimed = true
		}
		if s.sackSamples {
			s.rateDelivered(rec)
		}
		s.undoDelivered(rec, true)
		s.reorderDelivered(rec, true)
		if rec.relost {
			rec.relost = false
			s.relostBytes -= rec.payloadBytes()
		}
		s.rec.delivered(now, rec)
	}
}

// newAck handles an ACK that advances SND.UNA.
func (s *sender) newAck(now des.Time, p *netsim.Packet, ack seqnum.Value) {
	c := s.c
	priorUna := s.una
	acked := s.una.Size(ack).Bytes()
	flightBefore := s.una.Size(s.max).Bytes()
	var payload unit.Bytes
	// The send times of the oldest and the newest segment the ACK newly
	// acknowledges that were neither SACKed nor retransmitted (Linux's
	// first_ackt and last_ackt), and whether it covers any segment ever
	// retransmitted, SACKed or not (FLAG_RETRANS_DATA_ACKED).
	var firstAckt, lastAckt des.Time
	timed, retxAcked := false, false
	for s.recs.len() > 0 {
		r := s.recs.at(0)
		if ack.LessThan(r.end()) {
			break
		}
		payload += r.payloadBytes()
		if r.relost {
			s.relostBytes -= r.payloadBytes()
		}
		if !r.sacked || !s.sackSamples {
			s.rateDelivered(r)
		}
		if !r.sacked {
			s.rec.delivered(now, r)
			s.undoDelivered(r, false)
			s.reorderDelivered(r, false)
		}
		switch {
		case r.retx:
			retxAcked = true
		case !r.sacked:
			if !timed {
				firstAckt, timed = r.sentAt, true
			}
			lastAckt = r.sentAt
		}
		s.recs.popFront()
	}
	// RFC 6298 section 3 (Karn) as tcp_clean_rtx_queue applies it: an ACK
	// that covers a retransmitted segment gives no sample from sequence
	// numbers, since it may answer either copy; otherwise the oldest
	// segment it newly acknowledges is timed (the ACK that ends a repair
	// also covers segments SACKed long before, whose wait is no RTT).
	seqRTT, caRTT := des.Duration(-1), des.Duration(-1)
	if timed && !retxAcked {
		seqRTT, caRTT = now.Sub(firstAckt), now.Sub(lastAckt)
	}
	sample := s.ackRTT(now, p, seqRTT, caRTT, true)
	s.una = ack
	s.unaOff += acked
	// The acknowledged bytes leave the send buffer: a blocked application
	// writes again before this ACK's transmissions (sndbuf.go).
	c.fillSendBuffer()
	if s.nxt.LessThan(s.una) {
		s.nxt = s.una
	}
	if s.rxtNext.LessThan(s.una) {
		s.rxtNext = s.una
	}
	s.sb.Ack(s.una)
	s.reorderCheck()
	s.ackedBytes += payload
	s.rtoRepeat = false
	rs := s.rateSample(now)

	// RFC 6298 sections 5.2 and 5.3.
	if s.una == s.max {
		s.stopRTO()
	} else if !s.inRecovery || s.rec.rearmOnAck() {
		s.armRTO(s.rtt.current())
	}
	s.tlp.restart = true // RFC 8985 section 7.2: a cumulative ACK restarts the PTO

	inRecovery := s.inRecovery
	wasLoss := s.inLoss
	if s.inRecovery && !(ack.LessThan(s.recover) && s.undoPartial(now, priorUna)) {
		s.rec.ack(now, ack, acked)
		if s.undo.on && !s.inRecovery {
			s.undoRecoveryEnd()
		}
		inRecovery = s.recoveryAck(inRecovery)
	} else {
		s.dupAcks = 0
	}
	if s.inLoss && !s.una.LessThan(s.lossHigh) {
		// Everything outstanding at the timeout is acknowledged: the
		// timeout's recovery ends (Linux leaves CA_Loss when SND.UNA
		// passes high_seq).
		s.inLoss = false
	}
	if wasLoss && s.undo.on {
		s.processLoss(now, true, false, !s.inLoss)
	}
	s.undoOnDSACK(now)
	s.refreshCC()
	s.ack = cc.Ack{
		Now: now, Acked: acked, Inflight: flightBefore, PriorPipe: s.priorPipe, RTT: sample, PacingWait: s.pacingWait(now),
		MinRTT: s.rtt.minRTT, SRTT: s.rtt.srtt, Rate: rs, InRecovery: inRecovery,
		InLoss: s.inLoss, Delivered: s.rate.delivered, Lost: s.rate.newlyLost(),
		CwndLimited: s.isCwndLimited(),
	}
	// Linux's loss-based cong_avoid hooks test tcp_is_cwnd_limited
	// before anything else (cc.Ack.IsCwndLimited); the record is the
	// host model's.
	if c.host != nil {
		c.host.markGate(&s.ack, inRecovery || s.inLoss)
	}
	priorCwnd := s.cc.Cwnd
	s.ctrl.OnAck(&s.cc, &s.ack)
	if c.host != nil {
		c.host.gateGrowth(priorCwnd, &s.ack)
	}
	s.afterOnAck()
	if s.finQueued && s.unaOff == s.written+1 && !s.done {
		s.done = true
		s.stopRTO()
		c.app.Done(now)
	}
}

// dupAck handles a duplicate ACK: RFC 5681 section 3.2 steps 1-4 and
// RFC 3042 count it (limitedTransmit), the recovery decides.
func (s *sender) dupAck(now des.Time) {
	s.dupAcks++
	s.rec.dupAck(now)
}

// enterRecovery is fast retransmit: RFC 5681 section 3.2 step 2, RFC 6582
// section 3.2 step 2, RFC 6675 section 5 step (4). When a lost
// retransmission rather than duplicate ACKs starts it, SND.UNA need not be
// lost and fastRetransmit is false: the loop resends what is.
func (s *sender) enterRecovery(now des.Time, fastRetransmit bool) {
	// RFC 6582 section 3.2 step 2 (and RFC 6675 step (4)): only if the
	// cumulative ACK covers more than recover, so one window's losses cause
	// one reduction.
	// recover holds one past the highest byte then sent, so "covers more
	// than recover" is una >= recover.
	if s.una.LessThan(s.recover) {
		return
	}
	s.c.Stats.FastRecoveries++
	s.inRecovery = true
	// A congestion response ends a TLP episode (Linux's
	// tcp_init_cwnd_reduction), so a probe that led to it causes no
	// second one (RFC 8985 section 7.4).
	s.tlp.endSet = false
	s.recover = s.max
	s.reducedAt = now
	s.undoSave(false)
	s.refreshCC()
	s.ctrl.OnCongestionEvent(now, &s.cc, s.lossBasis())
	s.cc.Cwnd = max(s.cc.Cwnd, s.smss)
	s.rec.enter(now, fastRetransmit)
}

// exitRecovery leaves fast recovery.
func (s *sender) exitRecovery(now des.Time) {
	s.inRecovery = false
	s.dupAcks = 0
	s.refreshCC()
	s.ctrl.OnExitRecovery(now, &s.cc)
}

// onRTO is the retransmission timer's expiry: RFC 6298 section 5.4-5.6 and
// RFC 5681 section 3.1.
func (s *sender) onRTO(now des.Time) {
	c := s.c
	switch c.state {
	case stateSynSent, stateSynRcvd:
		// RFC 6298 section 5: the SYN is retransmitted with back-off.
		s.rtt.backOff()
		s.sendSyn(now, true)
		return
	case stateEstablished:
	default:
		return
	}
	if s.una == s.max {
		return
	}
	basis := s.lossBasis() // before the timeout marks the flight lost
	c.Stats.RTOs++
	if s.rtt.backoff == 0 {
		c.Stats.FirstRTOs++
		c.Stats.FirstRTOTime += s.rtoArmedFor
	}
	s.rtt.backOff() // section 5.5
	// Linux's tcp_enter_loss opens an undo episode unless a recovery on
	// the same data is under way, and runs F-RTO (frto.go) unless the
	// timeout interrupts a fast recovery.
	wasRecovering := s.inRecovery || s.inLoss
	if s.undo.on && (!wasRecovering || !s.una.LessThan(s.recover) || s.inLoss && !s.rtoRepeat) {
		s.undoSave(s.inRecovery)
	}
	s.inRecovery = false
	s.dupAcks = 0
	// RFC 6582 section 3.2 and RFC 6675 section 5.1: after a timeout,
	// RecoveryPoint = HighData, so duplicate ACKs of what was outstanding
	// do not start another recovery.
	s.recover = s.max
	s.inLoss = true
	s.lossHigh = s.max
	s.frtoTimeout(wasRecovering)
	s.rxtNext = s.una
	s.reducedAt = now
	s.nextSendAt = now
	s.tlp.endSet = false
	s.armRTO(s.rtt.current()) // section 5.6
	s.rec.timeout()
	s.markTimeoutLost(now)
	s.refreshCC()
	s.ctrl.OnRTO(now, &s.cc, basis, s.rtoRepeat)
	s.rtoRepeat = true
	s.rtoResend = true
	s.output(now)
	s.rtoResend = false
}

// markSegmentLost marks r's latest transmission lost: Linux's
// tcp_mark_skb_lost, whose tcp_notify_skb_loss_event adds the segment to
// the connection's lost count (tp->lost) and then calls the controller's
// skb_marked_lost hook (cc.LossMarker) with the segment's transmit-time
// state. A segment SACKed, or already marked since it was last sent,
// is not marked again.
func (s *sender) markSegmentLost(now des.Time, r *sendRecord) {
	if r.sacked || r.marked || r.payload == 0 {
		return
	}
	r.marked = true
	n := r.payloadBytes()
	s.rate.lost += n
	if s.marker == nil {
		return
	}
	s.marker.OnSegmentLost(now, &s.cc, cc.LostSegment{
		Bytes:      n,
		TxInFlight: r.txInFlight,
		Lost:       s.rate.lost - r.lost,
		AppLimited: r.appLimited,
		Delivered:  s.rate.delivered,
	})
}

// markTimeoutLost is Linux's tcp_timeout_mark_lost (net/ipv4/tcp_input.c,
// called by tcp_enter_loss before the Loss state is set): every segment
// outstanding and not SACKed is marked lost, except, under RACK, one
// other than the oldest that was sent less than RACK.rtt ago
// (tcp_rack_skb_timeout(tp, skb, 0) > 0: "Don't mark recently sent ones
// lost yet"), which RACK or the go-back-N resend marks later. The marks
// are made outside any ACK, so, as in Linux, no ACK reports them as its
// newly lost bytes (rs->losses counts the marks of one tcp_ack call).
func (s *sender) markTimeoutLost(now des.Time) {
	before := s.rate.lost
	for i := 0; i < s.recs.len(); i++ {
		r := s.recs.at(i)
		if i > 0 && s.rack.all && s.rack.set && r.sentAt.Add(s.rack.rtt) > now {
			continue
		}
		s.markSegmentLost(now, r)
	}
	s.rate.lostTold += s.rate.lost - before
}
