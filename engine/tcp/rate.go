package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// rateState is the connection-level state of delivery-rate estimation
// (draft-cheng-iccrg-delivery-rate-estimation section 3.1). Delivered
// counts bytes cumulatively acknowledged plus bytes currently SACKed.
// Application-limited detection is not modelled: every sample is taken as
// a measurement of the path.
type rateState struct {
	delivered   int64
	deliveredAt des.Time
	firstSentAt des.Time
}

// onSend stamps a record with the connection's delivery state (section
// 3.2); with nothing in flight the sampling interval restarts now.
func (r *rateState) onSend(now des.Time, rec *sendRecord, inflight int64) {
	if inflight == 0 {
		r.firstSentAt = now
		r.deliveredAt = now
	}
	rec.delivered = r.delivered
	rec.deliveredAt = r.deliveredAt
	rec.firstSentAt = r.firstSentAt
}

// onAck updates delivered to total and takes a sample from the most
// recently sent of the records this ACK delivered (section 3.3).
func (r *rateState) onAck(now des.Time, total int64, rec *sendRecord) cc.RateSample {
	if total > r.delivered {
		r.delivered = total
	}
	r.deliveredAt = now
	if rec == nil {
		return cc.RateSample{}
	}
	send := int64(rec.sentAt - rec.firstSentAt)
	ack := int64(now - rec.deliveredAt)
	r.firstSentAt = rec.sentAt
	return cc.RateSample{
		Delivered:      r.delivered - rec.delivered,
		Interval:       max(send, ack),
		PriorDelivered: rec.delivered,
	}
}
