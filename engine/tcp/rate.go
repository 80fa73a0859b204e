package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// rateState is the connection-level state of delivery-rate estimation
// (draft-cheng-iccrg-delivery-rate-estimation section 3.1). Delivered
// counts bytes cumulatively acknowledged plus bytes currently SACKed, and
// every ACK that delivers something, SACK-only ones included, updates it
// (Linux's tcp_rate_gen).
// Lost counts bytes the sender marked lost, when it marks them, as
// Linux's tp->lost does (tcp_mark_skb_lost in net/ipv4/tcp_input.c):
// RACK's marks (rack.go), every unSACKed segment at a timeout
// (markTimeoutLost), and the segments the duplicate-ACK rules resend,
// whose retransmission is their mark (fast retransmit, RFC 6675 NextSeg,
// NewReno's partial ACKs). A segment counts once per transmission
// (sendRecord.marked); a timeout's spurious marks count too.
type rateState struct {
	delivered   unit.Bytes
	deliveredAt des.Time
	firstSentAt des.Time
	lost        unit.Bytes
	lostTold    unit.Bytes // lost when the controller last heard
	// appLimited is section 3.4's C.app_limited: nonzero while the
	// application has left the window unused, until delivered passes it.
	appLimited unit.Bytes
}

// markAppLimited is section 3.4's CheckIfApplicationLimited for a sender
// that has nothing left to send while cwnd still has room.
func (r *rateState) markAppLimited(inflight unit.Bytes) {
	r.appLimited = max(r.delivered+inflight, 1)
}

// onSend stamps a record with the connection's delivery state (section
// 3.2); with nothing in flight the sampling interval restarts now.
func (r *rateState) onSend(now des.Time, rec *sendRecord, inflight unit.Bytes) {
	if inflight == 0 {
		r.firstSentAt = now
		r.deliveredAt = now
	}
	rec.delivered = r.delivered
	rec.deliveredAt = r.deliveredAt
	rec.firstSentAt = r.firstSentAt
	rec.lost = r.lost
	rec.appLimited = r.appLimited != 0
}

// newlyLost returns the bytes marked lost since its previous call.
func (r *rateState) newlyLost() unit.Bytes {
	n := r.lost - r.lostTold
	r.lostTold = r.lost
	return n
}

// onAck updates delivered to total and takes a sample from rec, the most
// recently sent of the records this ACK newly delivered, SACKed or
// cumulatively acknowledged (section 3.3; nil: none).
func (r *rateState) onAck(now des.Time, total unit.Bytes, rec *sendRecord) cc.RateSample {
	// tcp_rate_gen: delivered_mstamp moves only when the ACK delivered
	// something (a cumulative ACK over segments SACKed before delivers
	// nothing new).
	if total > r.delivered {
		r.delivered = total
		r.deliveredAt = now
	}
	if r.appLimited != 0 && r.delivered > r.appLimited {
		r.appLimited = 0 // section 3.4: the app-limited bubble is acked
	}
	if rec == nil {
		return cc.RateSample{}
	}
	send := rec.sentAt.Sub(rec.firstSentAt)
	ack := now.Sub(rec.deliveredAt)
	r.firstSentAt = rec.sentAt
	return cc.RateSample{
		Delivered:      r.delivered - rec.delivered,
		Interval:       max(send, ack),
		PriorDelivered: rec.delivered,
		AppLimited:     rec.appLimited,
		Lost:           r.lost - rec.lost,
		TxInFlight:     rec.txInFlight,
	}
}
