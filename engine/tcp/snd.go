package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// sender is the sending half of a connection (RFC 9293 section 3.3.1's
// SND variables plus the congestion and recovery state of RFC 5681, 6582
// and 6675).
type sender struct {
	c    *Conn
	ctrl cc.Controller
	cc   cc.State
	rtt  rttEstimator

	iss seqnum.Value
	una seqnum.Value // SND.UNA: oldest unacknowledged (RFC 6675 HighACK)
	nxt seqnum.Value // SND.NXT: next to send; below max after a timeout
	max seqnum.Value // highest sent + 1 (RFC 6675 HighData)
	wnd int64        // the peer's window in bytes (scaled)

	written int64 // bytes the application wrote
	// unaOff is the stream offset of SND.UNA (bytes after the SYN); with
	// it, 64-bit stream positions survive the 32-bit sequence wrap.
	unaOff    int64
	finQueued bool
	peerMSS   int
	smss      int64

	recs records
	sb   *Scoreboard

	dupAcks    int
	inRecovery bool
	recover    seqnum.Value // RFC 6582 "recover", RFC 6675 RecoveryPoint
	rxtNext    seqnum.Value // RFC 6675 HighRxt + 1
	partials   int          // partial ACKs in this recovery (RFC 6582 3.2 step 5)
	rtoRepeat  bool         // the timer already retransmitted the oldest segment

	rtoTimer   des.Timer
	paceTimer  des.Timer
	nextSendAt des.Time

	synSentAt des.Time
	synRetx   bool
	done      bool

	ackedBytes int64 // payload bytes cumulatively acknowledged
	rate       rateState

	// Scratch values reused on every ACK so that passing them to the
	// controller through an interface does not allocate.
	ack       cc.Ack
	lastAcked sendRecord
}

func (s *sender) init(c *Conn, ctrl cc.Controller, isn seqnum.Value) {
	s.c, s.ctrl = c, ctrl
	s.iss, s.una, s.nxt, s.max = isn, isn, isn, isn
	s.recover = isn
	s.rxtNext = isn
	s.rtt = newRTTEstimator(int64(c.cfg.MinRTO), int64(c.cfg.MaxRTO), int64(c.cfg.Granularity))
	s.sb = NewScoreboard(8)
	s.rtoTimer.Init(c.s, c, kindRTO, 0)
	s.paceTimer.Init(c.s, c, kindPace, 0)
	s.peerMSS = c.cfg.MSS
}

// remaining returns how many written bytes lie at or after seq v.
func (s *sender) remaining(v seqnum.Value) int64 {
	return s.written - (s.unaOff + int64(s.una.Size(v)))
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
	s.rtoTimer.ResetAfter(des.Duration(s.rtt.current()))
}

// synAcked completes the handshake on our side: the SYN is acknowledged
// and its RTT is a valid sample unless it was retransmitted (Karn).
func (s *sender) synAcked(now des.Time, p *netsim.Packet) {
	s.una = s.iss + 1
	s.nxt, s.max = s.una, s.una
	s.recover, s.rxtNext = s.una, s.una
	s.rtoTimer.Stop()
	if !s.synRetx {
		s.takeRTT(int64(now - s.synSentAt))
	}
	s.rtt.resetBackoff()
	if p.Flags&netsim.SYN != 0 {
		// RFC 7323 section 2.2: the window of a SYN-ACK is not scaled.
		s.wnd = int64(p.Window)
	} else {
		s.wnd = int64(p.Window) << s.c.sndShift
	}
	s.established(now, int64(min(s.c.cfg.MSS, s.peerMSS)), s.synRetx)
}

// established sets the initial window. RFC 5681 section 3.1: IW from
// RFC 3390 (min(4*SMSS, max(2*SMSS, 4380))) unless configured (RFC 6928
// IW10 is InitialWindow 10); one segment if the SYN was retransmitted.
func (s *sender) established(now des.Time, smss int64, synLost bool) {
	s.smss = smss
	s.cc.SMSS = smss
	switch iw := int64(s.c.cfg.InitialWindow); {
	case synLost:
		s.cc.Cwnd = smss
	case iw == 0:
		s.cc.Cwnd = min(4*smss, max(2*smss, 4380))
	default:
		s.cc.Cwnd = iw * smss
	}
	s.ctrl.Init(&s.cc)
}

func (s *sender) takeRTT(r int64) {
	s.rtt.sample(r)
	st := &s.c.Stats
	st.RTTSamples++
	st.RTTSum += r
	st.RTTMax = max(st.RTTMax, r)
}

// flight is RFC 5681's FlightSize as the sender sees it now: after a
// timeout, everything from nxt up is presumed lost.
func (s *sender) flight() int64 { return int64(s.una.Size(s.nxt)) }

// output sends what the windows allow: new data, or after a timeout the
// segments from nxt again (go-back-N, RFC 5681 section 3.1 slow start from
// one segment). In SACK recovery RFC 6675's loop takes over.
func (s *sender) output(now des.Time) {
	c := s.c
	if c.state != stateEstablished || s.done {
		return
	}
	if s.inRecovery && s.sackRecovery() {
		s.sackOutput(now)
		return
	}
	for {
		if !s.paceOK(now) {
			return
		}
		var n int64
		fin := false
		if s.nxt.LessThan(s.max) {
			// Go-back-N after a timeout: resend the record at nxt whole.
			i := s.recs.find(s.nxt)
			if i < 0 {
				panic("bug: tcp: no send record at snd.nxt")
			}
			r := s.recs.at(i)
			n, fin = int64(r.payload), r.fin
		} else {
			if rem := s.remaining(s.nxt); rem > 0 {
				n = min(s.smss, rem)
			} else if s.finQueued && rem == 0 {
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
func (s *sender) limitedTransmit() int64 {
	if !s.c.cfg.LimitedTransmit || s.inRecovery || s.dupAcks == 0 || s.dupAcks >= s.c.cfg.DupThresh || s.nxt != s.max {
		return 0
	}
	return int64(s.dupAcks) * s.smss
}

// paceOK reports whether pacing allows a send now; if not it arms the
// pacing timer.
func (s *sender) paceOK(now des.Time) bool {
	if s.cc.PacingRate <= 0 || now >= s.nextSendAt {
		return true
	}
	if !s.paceTimer.Pending() {
		s.paceTimer.Reset(s.nextSendAt)
	}
	return false
}

// sendData sends n payload bytes (and a FIN) at seq. A retransmission
// resends an existing record; a new segment appends one.
func (s *sender) sendData(now des.Time, seq seqnum.Value, n int64, fin, retx bool) {
	c := s.c
	p := c.newPacket()
	p.Seq = uint32(seq)
	p.Payload = int(n)
	if fin {
		p.Flags |= netsim.FIN
	}
	p.Retransmitted = retx
	c.rcv.fillSACK(p)
	inflight := int64(s.una.Size(s.max))
	var r *sendRecord
	if retx {
		i := s.recs.find(seq)
		if i < 0 {
			panic("bug: tcp: retransmission of an unknown segment")
		}
		r = s.recs.at(i)
		r.retx = true
		s.rate.lost += n
		c.Stats.RetransSegs++
		c.Stats.RetransBytes += n
	} else {
		r = s.recs.push()
		r.seq, r.payload, r.fin = seq, int32(n), fin
		r.len = seqnum.Size(n)
		if fin {
			r.len++
		}
	}
	r.sentAt = now
	s.rate.onSend(now, r, inflight)
	if retx {
		r.txInFlight = inflight
	} else {
		r.txInFlight = inflight + n
	}
	if n > 0 {
		c.Stats.DataSegsSent++
		c.Stats.BytesSent += n
	}
	c.rcv.onAckSent()
	c.transmit(p)
	// RFC 6298 section 5.1: start the timer if it is not running.
	if !s.rtoTimer.Pending() {
		s.rtoTimer.ResetAfter(des.Duration(s.rtt.current()))
	}
	s.ctrl.OnPacketSent(int64(now), &s.cc, n, inflight+n, retx)
	if s.cc.PacingRate > 0 {
		// The pacing rate counts payload bytes, the unit of cwnd and of
		// delivery-rate samples, so a controller that paces at a measured
		// delivery rate sends at that rate (BBR's pacing_rate =
		// pacing_gain * BtlBw). The next send may not start before
		// now + payload/rate.
		gap := des.Duration(float64(n) * 1e9 / s.cc.PacingRate)
		s.nextSendAt = now.Add(gap)
	}
}

// retransmit resends the record starting at seq (fast retransmit, partial
// ACKs, RFC 6675 NextSeg).
func (s *sender) retransmit(now des.Time, seq seqnum.Value) seqnum.Value {
	i := s.recs.find(seq)
	if i < 0 {
		panic("bug: tcp: retransmission of an unknown segment")
	}
	r := s.recs.at(i)
	s.sendData(now, seq, int64(r.payload), r.fin, true)
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
	s.wnd = int64(p.Window) << c.sndShift
	// RFC 6675 section 5 "Update()": record SACK blocks above HighACK.
	if c.sackOK {
		for i := 0; i < p.NSACK; i++ {
			l, r := seqnum.Value(p.SACK[i].Left), seqnum.Value(p.SACK[i].Right)
			l = seqnum.Max(l, ack)
			r = seqnum.Min(r, s.max)
			s.sb.Insert(l, r)
		}
	}
	if ack != s.una {
		s.newAck(now, ack)
	} else if p.Payload == 0 && p.Flags&(netsim.SYN|netsim.FIN) == 0 && s.una != s.max {
		// RFC 5681 section 2 "duplicate acknowledgment".
		c.Stats.DupAcksRecv++
		s.dupAck(now)
	}
	s.output(now)
}

// newAck handles an ACK that advances SND.UNA.
func (s *sender) newAck(now des.Time, ack seqnum.Value) {
	c := s.c
	acked := int64(s.una.Size(ack))
	flightBefore := int64(s.una.Size(s.max))
	var last *sendRecord
	var payload int64
	for s.recs.len() > 0 {
		r := s.recs.at(0)
		if ack.LessThan(r.end()) {
			break
		}
		payload += int64(r.payload)
		s.lastAcked = *r
		last = &s.lastAcked
		s.recs.popFront()
	}
	// RFC 6298 section 3 (Karn): only a segment never retransmitted gives
	// a sample; take it from the newest segment this ACK covers.
	var sample int64
	if last != nil && !last.retx {
		sample = int64(now - last.sentAt)
		s.takeRTT(sample)
		s.rtt.resetBackoff()
	}
	s.una = ack
	s.unaOff += acked
	if s.nxt.LessThan(s.una) {
		s.nxt = s.una
	}
	if s.rxtNext.LessThan(s.una) {
		s.rxtNext = s.una
	}
	s.sb.Ack(s.una)
	s.ackedBytes += payload
	s.rtoRepeat = false
	rs := s.rate.onAck(now, int64(s.iss.Size(s.una))+int64(s.sb.Sacked()), last)

	// RFC 6298 sections 5.2 and 5.3.
	if s.una == s.max {
		s.rtoTimer.Stop()
	} else if !s.inRecovery || s.sackRecovery() || s.partials == 0 {
		// RFC 6582 section 3.2 step 5 resets the timer only for the first
		// partial ACK (the "Impatient" variant of section 4).
		s.rtoTimer.ResetAfter(des.Duration(s.rtt.current()))
	}

	inRecovery := s.inRecovery
	if s.inRecovery {
		s.recoveryAck(now, ack, acked)
	} else {
		s.dupAcks = 0
	}
	s.ack = cc.Ack{
		Now: int64(now), Acked: acked, Inflight: flightBefore, RTT: sample,
		MinRTT: s.rtt.minRTT, SRTT: s.rtt.srtt, Rate: rs, InRecovery: inRecovery,
		Delivered: s.rate.delivered, Lost: s.rate.newlyLost(),
	}
	s.ctrl.OnAck(&s.cc, &s.ack)
	if s.cc.Cwnd < s.smss {
		panic("bug: tcp: cwnd below one segment")
	}
	if s.finQueued && s.unaOff == s.written+1 && !s.done {
		s.done = true
		s.rtoTimer.Stop()
		c.app.Done(now)
	}
}

// dupAck handles a duplicate ACK: RFC 5681 section 3.2 steps 1-4, RFC 3042,
// and RFC 6675 section 5 steps (1)-(4).
func (s *sender) dupAck(now des.Time) {
	s.dupAcks++
	if s.inRecovery {
		if !s.sackRecovery() {
			// RFC 5681 section 3.2 step 4: inflate cwnd by one segment.
			s.cc.Cwnd += s.smss
		}
		return
	}
	lost := s.sackRecovery() && s.sb.IsLost(s.una, s.c.cfg.DupThresh, seqnum.Size(s.smss))
	if s.dupAcks >= s.c.cfg.DupThresh || lost {
		s.enterRecovery(now)
	}
}

// sackRecovery reports whether loss recovery follows RFC 6675.
func (s *sender) sackRecovery() bool {
	return s.c.cfg.Recovery == RecoverySACK && s.c.sackOK
}

// enterRecovery is fast retransmit: RFC 5681 section 3.2 step 2, RFC 6582
// section 3.2 step 2, RFC 6675 section 5 step (4).
func (s *sender) enterRecovery(now des.Time) {
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
	s.partials = 0
	s.recover = s.max
	s.ctrl.OnCongestionEvent(int64(now), &s.cc, int64(s.una.Size(s.max)))
	s.cc.Cwnd = max(s.cc.Cwnd, s.smss)
	if s.sackRecovery() {
		s.enterSACKRecovery(now)
		return
	}
	s.enterNewRenoRecovery(now)
}

// recoveryAck handles an ACK advancing SND.UNA during recovery.
func (s *sender) recoveryAck(now des.Time, ack seqnum.Value, acked int64) {
	if s.sackRecovery() {
		s.sackRecoveryAck(now, ack)
		return
	}
	s.newRenoAck(now, ack, acked)
}

// exitRecovery leaves fast recovery.
func (s *sender) exitRecovery(now des.Time) {
	s.inRecovery = false
	s.dupAcks = 0
	s.ctrl.OnExitRecovery(int64(now), &s.cc)
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
	c.Stats.RTOs++
	s.ctrl.OnRTO(int64(now), &s.cc, int64(s.una.Size(s.max)), s.rtoRepeat)
	s.rtoRepeat = true
	s.rtt.backOff() // section 5.5
	s.inRecovery = false
	s.dupAcks = 0
	// RFC 6582 section 3.2: after a timeout, recover = highest sent, so
	// duplicate ACKs from the go-back-N do not start another recovery.
	s.recover = s.max
	// RFC 2018 section 8: after a timeout the sender forgets SACK state.
	s.sb.Reset()
	s.nxt = s.una
	s.rxtNext = s.una
	s.nextSendAt = now
	s.rtoTimer.ResetAfter(des.Duration(s.rtt.current())) // section 5.6
	s.output(now)
}
