package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// sendRecord is one segment sent and not yet cumulatively acknowledged.
// Retransmissions resend a record whole, so segment boundaries never move.
type sendRecord struct {
	seq     seqnum.Value
	len     seqnum.Size // sequence space: payload, plus one for a FIN
	payload int32
	fin     bool
	retx    bool // retransmitted at least once: no RTT sample (Karn)
	// sacked is set once the receiver has reported the whole segment in a
	// SACK block (RFC 2018): it is delivered and never resent.
	sacked bool
	// relost is set when RACK (RFC 8985 section 6.2) has judged the latest
	// retransmission lost and the segment waits to be resent again.
	relost bool
	// marked is set when the sender has marked the segment's latest
	// transmission lost and counted it in rateState.lost (Linux's
	// TCPCB_LOST without TCPCB_SACKED_RETRANS: tcp_mark_skb_lost counts
	// such an skb once); a retransmission clears it.
	marked bool
	// appLimited: sent while the application left cwnd unused (rate
	// sample state, below; kept with the other flags so that a record
	// takes 80 bytes, not 88).
	appLimited bool
	// skb numbers the aggregate (TSO/GSO skb) of the segment's latest
	// transmission, counted by its connection's host model (host.go), 0
	// without one: the segments of one skb lost together are resent as
	// one skb (host.tagSkb). It fits in the flags' word.
	skb    uint32
	sentAt des.Time // latest transmission, retransmissions included (RACK's xmit_ts)
	xmitN  uint64   // the sender's count of transmissions at that one
	// Delivery-rate state when the record was (last) sent
	// (draft-cheng-iccrg-delivery-rate-estimation section 3.2).
	delivered   unit.Bytes
	deliveredAt des.Time
	firstSentAt des.Time
	lost        unit.Bytes // the connection's lost bytes when sent (BBRv2's loss rate)
	txInFlight  unit.Bytes // the pipe just after this send, itself included (scb->tx.in_flight)
}

func (r *sendRecord) end() seqnum.Value { return r.seq.Add(r.len) }

// records is a ring of sendRecords in sequence order. It grows by doubling
// and never shrinks, so the steady state allocates nothing.
type records struct {
	buf  []sendRecord
	head int
	n    int
}

func (q *records) len() int { return q.n }

func (q *records) at(i int) *sendRecord { return &q.buf[(q.head+i)&(len(q.buf)-1)] }

func (q *records) push() *sendRecord {
	if q.n == len(q.buf) {
		size := max(16, 2*len(q.buf))
		nb := make([]sendRecord, size)
		for i := 0; i < q.n; i++ {
			nb[i] = *q.at(i)
		}
		q.buf, q.head = nb, 0
	}
	r := q.at(q.n)
	q.n++
	*r = sendRecord{}
	return r
}

func (q *records) popFront() {
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
}

// find returns the index of the record starting at seq, or -1. Records are
// sorted by sequence, so a binary search on the distance from the first
// record's start suffices. Most records are of one size (a full segment
// or aggregate), so the index that size predicts is tried first.
func (q *records) find(seq seqnum.Value) int {
	if q.n == 0 {
		return -1
	}
	first := q.at(0)
	base := first.seq
	off := base.Size(seq)
	if i := q.guess(off, first.len); i >= 0 && q.at(i).seq == seq {
		return i
	}
	lo, hi := 0, q.n
	for lo < hi {
		m := (lo + hi) / 2
		if base.Size(q.at(m).seq) < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < q.n && q.at(lo).seq == seq {
		return lo
	}
	return -1
}

// guess is the index of the record at offset off from the first record's
// start were every record size bytes long, or -1 outside the ring.
func (q *records) guess(off, size seqnum.Size) int {
	if size == 0 {
		return -1
	}
	if i := int(off / size); i < q.n {
		return i
	}
	return -1
}

// cover returns the index of the record holding seq, or -1 when seq lies
// outside the records. The index records of one size predict is tried
// first, as in find.
func (q *records) cover(seq seqnum.Value) int {
	if q.n == 0 {
		return -1
	}
	first := q.at(0)
	base := first.seq
	off := base.Size(seq)
	if off >= base.Size(q.at(q.n-1).end()) {
		return -1
	}
	if i := q.guess(off, first.len); i >= 0 {
		if r := q.at(i); base.Size(r.seq) <= off && off < base.Size(r.end()) {
			return i
		}
	}
	lo, hi := 0, q.n
	for lo < hi {
		m := (lo + hi) / 2
		if base.Size(q.at(m).seq) <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// ring is a FIFO of values that grows by doubling and never shrinks, so
// the steady state allocates nothing.
type ring[T any] struct {
	buf  []T
	head int
	n    int
}

func (q *ring[T]) len() int { return q.n }

func (q *ring[T]) front() T { return q.buf[q.head] }

func (q *ring[T]) push(v T) {
	if q.n == len(q.buf) {
		nb := make([]T, max(16, 2*len(q.buf)))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = v
	q.n++
}

func (q *ring[T]) pop() {
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
}

func (q *ring[T]) clear() { q.head, q.n = 0, 0 }

// payloadBytes returns the record's payload as a byte count.
func (r *sendRecord) payloadBytes() unit.Bytes { return unit.Bytes(r.payload) }
