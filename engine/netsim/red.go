package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"
	"math/rand/v2"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// RED is Random Early Detection (Floyd and Jacobson, "Random Early
// Detection Gateways for Congestion Avoidance", IEEE/ACM ToN 1(4), 1993;
// "the paper" below), with the gentle variant (Floyd, "Recommendation on
// using the gentle_ variant of RED", 2000).
//
// On every arrival RED updates an exponentially weighted moving average of
// the queue size (section 4 of the paper), then drops the arriving packet
// with a probability that grows linearly from 0 at MinTh to MaxP at MaxTh
// (p_b), spread out over arrivals by the count of packets since the last
// drop so that drops are evenly spaced: p_a = p_b / (1 - count p_b)
// (section 7, "Method 2"). Above MaxTh every arrival is dropped, or, in
// gentle mode, the probability rises linearly from MaxP at MaxTh to 1 at
// 2 MaxTh. These drops count as DropAQM. Independently, a packet that does
// not fit the hard limit (LimitPackets, LimitBytes) is dropped as
// DropOverflow.
//
// RED draws from its own random stream, "queue/<link name>", given by the
// link (see Attacher), so it never shifts the link's loss pattern.
//
// The zero value of the optional fields selects the default.
type RED struct {
	// MinTh and MaxTh are the thresholds on the average queue, in packets
	// (in bytes when ByteQueue is set); 0 <= MinTh < MaxTh.
	MinTh, MaxTh float64
	// MaxP is the drop probability p_b at MaxTh; default 0.1 (Floyd's
	// later recommendation; the paper's simulations use 1/50).
	MaxP float64
	// Weight is the EWMA weight w_q; default 0.002 (the paper, section 6).
	Weight float64
	// Gentle raises p_b linearly from MaxP at MaxTh to 1 at 2 MaxTh
	// instead of dropping everything above MaxTh.
	Gentle bool
	// ByteQueue measures the queue, its average and the thresholds in
	// bytes rather than packets.
	ByteQueue bool
	// ByteMode scales p_b by the packet's size over MaxPacket, so that a
	// large packet is more likely to be dropped than a small one (the
	// paper, section 4, "byte mode").
	ByteMode bool
	// MaxPacket is the maximum packet size of byte mode; default 1500.
	MaxPacket unit.Bytes
	// MeanPacket is the "typical small packet" whose transmission time s
	// counts the packets the link could have sent during an idle period
	// (m = idle time / s, the paper's section 4); default 500 bytes (ns-2's
	// mean_pktsize).
	MeanPacket unit.Bytes
	// LimitPackets and LimitBytes are the hard limit; 0 means unlimited.
	LimitPackets int
	LimitBytes   unit.Bytes
}

// Defaults of RED.
const (
	DefaultREDMaxP       = 0.1
	DefaultREDWeight     = 0.002
	DefaultREDMaxPacket  = 1500
	DefaultREDMeanPacket = 500
)

// Validate implements Validator.
func (r RED) Validate() error {
	switch {
	case !(r.MinTh >= 0 && r.MaxTh > r.MinTh) || math.IsInf(r.MaxTh, 0):
		return fmt.Errorf("netsim: red: thresholds must satisfy 0 <= min %g < max %g", r.MinTh, r.MaxTh)
	case !(r.MaxP >= 0 && r.MaxP <= 1):
		return fmt.Errorf("netsim: red: max_p %g not in [0, 1] (0 selects the default)", r.MaxP)
	case !(r.Weight >= 0 && r.Weight <= 1):
		return fmt.Errorf("netsim: red: weight %g not in [0, 1] (0 selects the default)", r.Weight)
	case r.MaxPacket < 0 || r.MeanPacket < 0 || r.LimitPackets < 0 || r.LimitBytes < 0:
		return fmt.Errorf("netsim: red: negative size or limit in %+v", r)
	}
	return nil
}

// NewQueue implements QueueModel.
func (r RED) NewQueue() Queue {
	if err := r.Validate(); err != nil {
		panic("bug: " + err.Error())
	}
	if r.MaxP == 0 {
		r.MaxP = DefaultREDMaxP
	}
	if r.Weight == 0 {
		r.Weight = DefaultREDWeight
	}
	if r.MaxPacket == 0 {
		r.MaxPacket = DefaultREDMaxPacket
	}
	if r.MeanPacket == 0 {
		r.MeanPacket = DefaultREDMeanPacket
	}
	return &redQueue{
		cfg:   r,
		count: -1,
		idle:  true,
		// Replaced by the link's stream in Attach; this one only serves a
		// queue used on its own.
		rng: rand.New(rand.NewPCG(0, des.StreamID("queue/"))),
	}
}

type redQueue struct {
	cfg RED
	q   pktQueue
	rng *rand.Rand
	// s is the transmission time of MeanPacket at the link's rate (0 for
	// an infinitely fast or unknown link).
	s des.Duration

	avg   float64
	count int // packets since the last drop; -1 below MinTh (Fig. 2)
	// idle is set while the link has nothing to send; idleSince is when
	// that started (q_time in the paper).
	idle      bool
	idleSince des.Time
}

// Attach implements Attacher.
func (q *redQueue) Attach(info LinkInfo) {
	q.rng = info.Rand
	q.s = TransmissionTime(q.cfg.MeanPacket, info.Rate)
}

// size is the current queue size in the unit of the thresholds.
func (q *redQueue) size() float64 {
	if q.cfg.ByteQueue {
		return float64(q.q.bytes)
	}
	return float64(q.q.q.n)
}

// updateAvg is the average computation of the paper's Fig. 2: an EWMA of
// the queue size seen by arrivals, and after an idle period of length t a
// decay by (1-w_q)^m with m = t/s, as if m small packets had arrived to an
// empty queue.
func (q *redQueue) updateAvg(now des.Time) {
	w := q.cfg.Weight
	if !q.idle {
		q.avg = (1-w)*q.avg + w*q.size()
		return
	}
	if t := now.Sub(q.idleSince); t > 0 {
		if q.s == 0 {
			q.avg = 0 // an infinitely fast link could have sent infinitely many
		} else {
			q.avg *= math.Pow(1-w, float64(t)/float64(q.s))
		}
	}
	// The decay is accounted up to now: if this arrival is dropped and the
	// link stays idle, the next arrival decays only from here.
	q.idleSince = now
}

// prob is p_b as a function of the average queue (the paper, section 4;
// gentle mode between MaxTh and 2 MaxTh).
func (q *redQueue) prob(avg float64) float64 {
	c := &q.cfg
	if avg < c.MaxTh {
		return c.MaxP * (avg - c.MinTh) / (c.MaxTh - c.MinTh)
	}
	return c.MaxP + (1-c.MaxP)*(avg-c.MaxTh)/c.MaxTh
}

// early decides whether RED drops p given the average queue: the marking
// part of the paper's Fig. 2. count is the number of packets since the
// last drop, so that with p_a = p_b/(1 - count p_b) the number of packets
// between drops is uniform rather than geometric (section 7).
func (q *redQueue) early(p *Packet) bool {
	c := &q.cfg
	avg := q.avg
	switch {
	case avg < c.MinTh:
		q.count = -1
		return false
	case avg >= c.MaxTh && (!c.Gentle || avg >= 2*c.MaxTh):
		q.count = 0
		return true
	}
	q.count++
	pb := q.prob(avg)
	if c.ByteMode {
		pb *= float64(p.Size) / float64(c.MaxPacket)
	}
	pa := 1.0
	if d := 1 - float64(q.count)*pb; d > 0 {
		pa = math.Min(1, pb/d)
	}
	if q.rng.Float64() < pa {
		q.count = 0
		return true
	}
	return false
}

// Enqueue implements Queue.
func (q *redQueue) Enqueue(now des.Time, p *Packet, drop Dropper) {
	q.updateAvg(now)
	if q.early(p) {
		drop.Drop(now, p, DropAQM)
		return
	}
	c := &q.cfg
	if c.LimitPackets > 0 && q.q.q.n+1 > c.LimitPackets ||
		c.LimitBytes > 0 && q.q.bytes+p.Size > c.LimitBytes {
		// A forced drop spaces the next early drop like an early one
		// (as ns-2's RED does).
		q.count = 0
		drop.Drop(now, p, DropOverflow)
		return
	}
	p.enqueued = now
	q.q.push(p)
	q.idle = false
}

// Dequeue implements Queue. Finding the queue empty when the link asks for
// a packet starts an idle period (q_time in the paper's Fig. 2).
func (q *redQueue) Dequeue(now des.Time, drop Dropper) *Packet {
	p := q.q.pop()
	if p == nil && !q.idle {
		q.idle, q.idleSince = true, now
	}
	return p
}

func (q *redQueue) Len() int          { return q.q.q.n }
func (q *redQueue) Bytes() unit.Bytes { return q.q.bytes }
