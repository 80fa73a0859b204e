package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// WCDelAckT is RFC 8985 section 7.2's worst-case delayed-ACK timer: the
// probe timeout of a flight of one segment allows for the receiver
// holding its ACK that long (Linux adds TCP_RTO_MIN, the same 200 ms).
const WCDelAckT = 200 * des.Millisecond

// tlp is the Tail Loss Probe state of RFC 8985 section 7. The probe
// timeout shares the retransmission timer, as in Linux: while armed is
// set the timer holds the PTO, and rtoAt keeps the retransmission
// timeout it stands in for, which caps it (section 7.2).
type tlp struct {
	on bool // probes are sent (RACK-TLP); set once by newRecovery

	armed   bool
	rtoAt   des.Time
	restart bool // new data sent or a cumulative ACK since the last schedule

	// The episode of section 7.4: TLP.end_seq and TLP.is_retrans.
	end     seqnum.Value
	endSet  bool
	retrans bool

	probing bool // sendData is sending a probe
}

// armRTO starts the retransmission timer d from now (RFC 6298 section 5),
// replacing a probe timeout.
func (s *sender) armRTO(d des.Duration) {
	s.tlp.armed = false
	s.rtoArmedFor = d
	s.rtoTimer.ResetAfter(d)
}

// stopRTO stops the retransmission timer and any probe timeout.
func (s *sender) stopRTO() {
	s.tlp.armed = false
	s.rtoTimer.Stop()
}

// tlpSchedule is section 7.2: after new data is sent or a cumulative ACK
// arrives, a sender with SACK, nothing SACKed and not in loss recovery
// (nor waiting on RACK's reordering timer) arms the PTO:
// 2*SRTT, plus WCDelAckT when one segment is in flight, at most until the
// RTO would expire (1 s before any RTT sample). When the conditions no
// longer hold, an armed PTO gives way to the RTO again.
func (s *sender) tlpSchedule(now des.Time) {
	t := &s.tlp
	restart := t.restart
	t.restart = false
	if !t.on {
		return
	}
	if s.c.state != stateEstablished || s.done || s.una == s.max || s.inRecovery || s.inLoss ||
		!s.sb.Empty() || s.rack.timer.Pending() || !s.rtoTimer.Pending() {
		if t.armed {
			t.armed = false
			s.rtoTimer.Reset(max(t.rtoAt, now))
		}
		return
	}
	if !restart && t.armed {
		return
	}
	if !t.armed {
		t.rtoAt = s.rtoTimer.When()
	}
	pto := InitialRTO
	if s.rtt.hasSample {
		pto = 2 * s.rtt.srtt
		if s.flight() <= s.smss {
			pto += WCDelAckT
		}
	}
	at := min(now.Add(pto), t.rtoAt)
	t.armed = true
	s.rtoTimer.Reset(max(at, now))
}

// onTimer handles the retransmission timer, which also carries the PTO.
func (s *sender) onTimer(now des.Time) {
	if !s.tlp.armed {
		s.onRTO(now)
		return
	}
	s.tlp.armed = false
	if s.c.state != stateEstablished || s.done || s.una == s.max {
		return
	}
	s.tlpSend(now)
}

// tlpSend is section 7.3: send one new segment if there is one and the
// peer's window allows it, otherwise retransmit the highest-sequence
// segment; cwnd is not consulted and stays as it is. At most one probe is
// outstanding (Linux since 5.8: one per flight); the episode remembers
// SND.NXT and whether the probe was a retransmission. Afterwards the RTO
// is armed afresh, not the PTO.
func (s *sender) tlpSend(now des.Time) {
	t := &s.tlp
	if !t.endSet && s.nxt == s.max {
		t.probing = true
		retrans := false
		if rem := s.remaining(s.nxt); rem > 0 && s.una.Size(s.nxt).Bytes()+min(s.smss, rem) <= min(s.wnd, s.c.cfg.SndBuf) {
			n := min(s.smss, rem)
			s.sendData(now, s.nxt, n, false, false)
			s.nxt = s.nxt.Add(seqnum.Size(n))
			s.max = s.nxt
		} else if i := s.probeRecord(); i >= 0 {
			s.retransmit(now, s.recs.at(i).seq)
			retrans = true
		}
		t.probing = false
		s.c.Stats.TLPProbes++
		t.end, t.endSet, t.retrans = s.max, true, retrans
	}
	s.armRTO(s.rtt.current())
}

// tlpAck is section 7.4's TLP_process_ack for an ACK at or above the
// episode's end: a probe of new data ends it; a retransmitted probe
// followed by an ACK above its end repaired a loss by itself, which calls
// for one congestion response (the controller reduces as for a fast
// recovery, which then ends at once: Linux's CWR state); a duplicate ACK
// without SACK says the original and the probe both arrived. This
// receiver sends no DSACK, so the DSACK case of the section does not
// arise. Any congestion response (a recovery, a timeout) ends the episode
// too, so a loss found through the probe is answered once.
func (s *sender) tlpAck(now des.Time, ack seqnum.Value, pureDup bool) {
	t := &s.tlp
	if ack.LessThan(t.end) {
		return
	}
	switch {
	case !t.retrans:
		t.endSet = false
	case t.end.LessThan(ack):
		t.endSet = false
		if s.inRecovery || s.inLoss {
			return
		}
		s.c.Stats.TLPRecoveries++
		s.reducedAt = now
		s.refreshCC()
		s.ctrl.OnCongestionEvent(now, &s.cc, s.lossBasis())
		s.cc.Cwnd = max(s.cc.Cwnd, s.smss)
		s.ctrl.OnExitRecovery(now, &s.cc)
	case pureDup:
		t.endSet = false
	}
}

// probeRecord returns the index of the segment a retransmitted probe
// resends: the highest unSACKed one carrying data, or a lone FIN when
// no data is outstanding; -1 if there is none. Linux carries the FIN on
// the last data segment, so its probe of "the last segment" resends data
// the receiver can SACK; here the FIN travels alone, and a probe of the
// FIN alone would bring no SACK for RACK to work on.
func (s *sender) probeRecord() int {
	fin := -1
	for i := s.recs.len() - 1; i >= 0; i-- {
		r := s.recs.at(i)
		if r.sacked {
			continue
		}
		if r.payload > 0 {
			return i
		}
		if fin < 0 {
			fin = i
		}
	}
	return fin
}
