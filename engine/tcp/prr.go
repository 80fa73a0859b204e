package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// prrRecovery is Proportional Rate Reduction (RFC 6937) over a SACK-based
// recovery (RFC 6675 or RACK-TLP), which still decides what is lost and
// what to send; PRR decides how much, through cwnd. RFC 6675 sets cwnd to
// ssthresh at once, so after a reduction of half the window the sender
// is silent for half an RTT and then bursts; PRR spreads the reduction
// over the recovery's round trip: while pipe > ssthresh, it sends
// ssthresh/RecoverFS of what the receiver reports delivered (one segment
// for every two delivered under Reno's halving), and once pipe has fallen
// to ssthresh it rebuilds towards ssthresh no faster than slow start
// (the slow-start reduction bound, PRR-SSRB, which RFC 6937 section 6
// recommends and Linux and ns-3 use).
//
// RFC 6937 section 3.1, per ACK in recovery:
//
//	prr_delivered += DeliveredData
//	if pipe > ssthresh:  sndcnt = CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out  (in segments)
//	else:                sndcnt = MIN(ssthresh - pipe, MAX(prr_delivered - prr_out, DeliveredData) + MSS)
//	cwnd = pipe + sndcnt
//
// with prr_out the bytes sent since recovery began and RecoverFS the flight
// size when it began. On the ACK that starts recovery at least one segment
// may go, so that the fast retransmit is never held back (Linux's
// tcp_cwnd_reduction, and RFC 6937 section 3's note that the first
// retransmission is sent on entry). At the end of recovery cwnd = ssthresh
// (section 3.1).
//
// A controller that sets cwnd itself during recovery (BBR, BBRv2: a
// cc.CongController) gets no PRR over it, as in Linux (newRecovery).
type prrRecovery struct {
	recovery // the SACK-based recovery whose sends PRR paces
	s        *sender

	recoverFS    unit.Bytes // RecoverFS: SND.NXT - SND.UNA when recovery began
	prrDelivered unit.Bytes // prr_delivered
	outBase      unit.Bytes // Stats.BytesSent when recovery began: prr_out is the rest
	enteredOn    uint64     // sender.acks when recovery began
}

// enter is RFC 6937 section 3.1's initialisation on entering recovery
// (after the controller set ssthresh), then the ACK's share, before the
// SACK recovery retransmits and sends.
func (p *prrRecovery) enter(now des.Time, fastRetransmit bool) {
	s := p.s
	p.recoverFS = max(s.una.Size(s.max).Bytes(), 1)
	p.prrDelivered = 0
	p.outBase = s.c.Stats.BytesSent
	p.enteredOn = s.acks
	p.onAck()
	p.recovery.enter(now, fastRetransmit)
}

// ack ends recovery with cwnd = ssthresh once the ACK covers the
// recovery point (RFC 6937 section 3.1, "on exiting recovery").
func (p *prrRecovery) ack(now des.Time, ack seqnum.Value, acked unit.Bytes) {
	s := p.s
	if !ack.LessThan(s.recover) {
		s.cc.Cwnd = max(s.cc.Ssthresh, s.smss)
		s.exitRecovery(now)
	}
}

// afterAck lets the SACK recovery detect losses (which may start
// recovery), then sets cwnd for every later ACK of the recovery.
func (p *prrRecovery) afterAck(now des.Time, ack seqnum.Value, advanced, pureDup bool) {
	p.recovery.afterAck(now, ack, advanced, pureDup)
	if p.s.inRecovery && p.s.acks != p.enteredOn {
		p.onAck()
	}
}

// onAck is RFC 6937 section 3.1's per-ACK step with the slow-start
// reduction bound.
func (p *prrRecovery) onAck() {
	s := p.s
	dd := s.deliveredTotal() - s.delivMark // DeliveredData
	p.prrDelivered += dd
	pipe := s.pipe()
	out := s.c.Stats.BytesSent - p.outBase
	ssthresh := s.cc.Ssthresh
	var sndcnt unit.Bytes
	if pipe > ssthresh && s.c.cfg.PRRByteCeil {
		// ns-3 3.37 (TcpPrrRecovery::DoRecovery): std::ceil over bytes,
		// cwnd = BytesInFlight + sndcnt; TcpSocketBase::SendPendingData
		// then sends only when a whole segment fits (its silly-window
		// check), so the byte CEIL rounds down to segments.
		sndcnt = (p.prrDelivered*ssthresh+p.recoverFS-1)/p.recoverFS - out
	} else if pipe > ssthresh {
		// CEIL in whole segments, as Linux counts (tcp_cwnd_reduction
		// works in packets) and RFC 6937 section 5's example sends: a
		// byte CEIL would hold a segment back until the next ACK, one
		// ACK late every other time.
		d := p.recoverFS * s.smss
		sndcnt = (p.prrDelivered*ssthresh+d-1)/d*s.smss - out
	} else {
		sndcnt = min(ssthresh-pipe, max(p.prrDelivered-out, dd)+s.smss)
	}
	if out == 0 {
		sndcnt = max(sndcnt, s.smss) // the fast retransmit goes
	}
	s.cc.Cwnd = max(pipe+max(sndcnt, 0), s.smss)
}
