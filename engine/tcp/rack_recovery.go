package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// rackTLPRecovery is RFC 8985's RACK-TLP: RACK's time-based rule (rack.go)
// decides every loss, the duplicate-ACK count none, and Tail Loss Probes
// (tlp.go) replace most timeouts at the end of a flight, as Linux does by
// default since 4.18. What RACK marks lost is resent by RFC 6675's loop
// without its rule (3), the probe covering the tail that rule would.
type rackTLPRecovery struct{ sackRecovery }

// dupAck: RACK, not the count of duplicate ACKs, decides (afterAck).
func (r *rackTLPRecovery) dupAck(des.Time) {}

// enter: RACK starts the recovery on segments it marked lost, which the
// loop resends; SND.UNA need not be among them.
func (r *rackTLPRecovery) enter(now des.Time, _ bool) { r.sackRecovery.enter(now, false) }

// retransmitted also re-arms the retransmission timer when the resent
// segment is the one at SND.UNA, as Linux does (tcp_xmit_retransmit_queue):
// that retransmission gets a whole RTO to be answered; otherwise a timer
// started by an older ACK can expire before its round trip is over.
func (r *rackTLPRecovery) retransmitted(seq seqnum.Value, xmitN uint64, rtoArmed bool) {
	s := r.s
	s.rack.rxq.push(rxEntry{seq: seq, n: xmitN})
	if !rtoArmed && seq == s.una {
		s.armRTO(s.rtt.current())
	}
}

// afterAck is RFC 8985 section 7.4's TLP_process_ack for a probe's
// episode, then section 6.2's detection over the ACK's deliveries, and
// fast recovery if RACK marked segments lost outside one.
//
// Every ACK comes here, and so does every data segment of the peer (its
// acknowledgement field), so each step is called only when it has work:
// an ACK that delivered nothing leaves RACK.rtt and RACK.xmit_ts as they
// are (k.cand), nothing is judged before a first delivery (k.set), and
// only segments RACK marked lost (k.relost) can start a recovery.
func (r *rackTLPRecovery) afterAck(now des.Time, ack seqnum.Value, advanced, pureDup bool) {
	s := r.s
	if s.tlp.endSet {
		s.tlpAck(now, ack, pureDup)
	}
	k := &s.rack
	if k.cand {
		s.rackUpdate(now)
	}
	if k.set {
		s.rackDetect(now)
	}
	if k.relost.len() > 0 {
		s.rackRecover(now)
	}
}
