package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// receiver is the receiving half of a connection (RFC 9293 section 3.3.1's
// RCV variables). The application reads every in-order byte as soon as it
// arrives, so the window's right edge sits RcvBuf above RCV.NXT and
// out-of-order data waits inside it.
type receiver struct {
	c      *Conn
	irs    seqnum.Value
	nxt    seqnum.Value // RCV.NXT
	nxtSet bool

	ooo *Scoreboard // out-of-order ranges held above RCV.NXT
	// recent are the SACK blocks in the order RFC 2018 section 4 reports
	// them: the block holding the latest segment first, then the blocks
	// most recently reported.
	recent  [netsim.MaxSACKBlocks]block
	nRecent int

	unacked   int // segments received since the last ACK we sent
	delack    des.Timer
	delivered unit.Bytes

	finRcvd bool
	finSeq  seqnum.Value
	closed  bool
}

func (r *receiver) init(c *Conn) {
	r.c = c
	r.ooo = NewScoreboard(8)
	r.delack.Init(c.s, c, kindDelAck, 0)
}

// advertised is the receive window in bytes: the buffer, capped by what the
// window field can say (65535 unscaled, RFC 7323 section 2.2 scaled).
func (r *receiver) advertised() unit.Bytes { return min(r.c.cfg.RcvBuf, r.c.windowCap()) }

// onData processes the data and FIN of an incoming segment (RFC 9293
// section 3.10.7.4).
func (r *receiver) onData(now des.Time, p *netsim.Packet) {
	seq := seqnum.Value(p.Seq)
	end := seq.Add(seqnum.Size(p.Payload))
	if p.Flags&netsim.FIN != 0 && !r.finRcvd {
		r.finRcvd = true
		r.finSeq = end
	}
	wndEnd := r.nxt.Add(seqnum.Size(r.advertised()))
	// Unacceptable segments (entirely old, or beyond the window) are
	// answered with an ACK and dropped (RFC 9293 section 3.10.7.4).
	if (end.LessThanEq(r.nxt) && !(r.finRcvd && r.finSeq == r.nxt && !r.closed)) || !seq.LessThan(wndEnd) && p.Payload > 0 {
		r.ackNow(now)
		return
	}
	seq = seqnum.Max(seq, r.nxt)
	end = seqnum.Min(end, wndEnd)
	if seq != r.nxt {
		// Out of order: hold it and send an immediate duplicate ACK
		// (RFC 5681 section 4.2) carrying SACK blocks (RFC 2018 section 4).
		if seq.LessThan(end) {
			r.ooo.Insert(seq, end)
			r.noteRecent(seq)
		}
		r.ackNow(now)
		return
	}
	hadHole := !r.ooo.Empty()
	before := r.nxt
	r.nxt = end
	// Pull in any held data the segment made contiguous.
	for _, b := range r.ooo.blocks {
		if b.start.LessThanEq(r.nxt) {
			r.nxt = seqnum.Max(r.nxt, b.end)
		}
	}
	r.ooo.Ack(r.nxt)
	r.pruneRecent()
	if n := before.Size(r.nxt).Bytes(); n > 0 {
		off := r.delivered
		r.delivered += n
		r.c.app.Delivered(now, off, n)
	}
	if r.finRcvd && r.nxt == r.finSeq && !r.closed {
		r.closed = true
		r.nxt++ // the FIN occupies one sequence number
		r.ackNow(now)
		r.c.app.PeerClosed(now)
		return
	}
	// RFC 5681 section 4.2: an immediate ACK when the segment fills all or
	// part of a gap.
	if !hadHole && r.c.host != nil && r.c.host.deferAck(now, p) {
		return
	}
	if hadHole || !r.c.cfg.DelayedACK {
		r.ackNow(now)
		return
	}
	// RFC 1122 section 4.2.3.2 / RFC 5681 section 4.2: ACK at least every
	// second full-sized segment, and within the delayed-ACK timeout.
	r.unacked++
	if r.unacked >= 2 {
		r.ackNow(now)
		return
	}
	if !r.delack.Pending() {
		r.delack.ResetAfter(r.c.cfg.DelAckTimeout)
	}
}

// noteRecent moves the held block containing seq to the front of the SACK
// report (RFC 2018 section 4: "the first SACK block MUST specify the
// contiguous block of data containing the segment which triggered this
// ACK").
func (r *receiver) noteRecent(seq seqnum.Value) {
	var cur block
	for _, b := range r.ooo.blocks {
		if seq.InRange(b.start, b.end) {
			cur = b
			break
		}
	}
	// Drop reported blocks the new one absorbed, keep the others in order.
	k := 0
	var kept [netsim.MaxSACKBlocks]block
	for i := 0; i < r.nRecent; i++ {
		b := r.recent[i]
		if b.start.InRange(cur.start, cur.end) || cur.start.InRange(b.start, b.end) {
			continue
		}
		if k < len(kept)-1 {
			kept[k] = b
			k++
		}
	}
	r.recent[0] = cur
	copy(r.recent[1:], kept[:k])
	r.nRecent = k + 1
}

// pruneRecent drops reported blocks now below RCV.NXT and trims the
// others to the held data.
func (r *receiver) pruneRecent() {
	k := 0
	for i := 0; i < r.nRecent; i++ {
		b := r.recent[i]
		if b.end.LessThanEq(r.nxt) {
			continue
		}
		b.start = seqnum.Max(b.start, r.nxt)
		r.recent[k] = b
		k++
	}
	r.nRecent = k
}

// fillSACK writes the SACK option into p when SACK was negotiated and data
// is held out of order (RFC 2018 section 3).
func (r *receiver) fillSACK(p *netsim.Packet) {
	if !r.c.sackOK || r.nRecent == 0 {
		return
	}
	p.NSACK = r.nRecent
	for i := 0; i < r.nRecent; i++ {
		p.SACK[i] = netsim.SACKBlock{Left: uint32(r.recent[i].start), Right: uint32(r.recent[i].end)}
	}
}

// ackNow sends an ACK immediately.
func (r *receiver) ackNow(now des.Time) { r.sendAck(now) }

// sendAck sends a pure ACK with our current window and SACK blocks.
func (r *receiver) sendAck(now des.Time) {
	c := r.c
	if !r.nxtSet {
		return
	}
	p := c.newPacket()
	p.Seq = uint32(c.snd.nxt)
	r.fillSACK(p)
	c.Stats.AcksSent++
	r.onAckSent()
	c.transmit(p)
}

// onAckSent notes that a segment carrying our ACK left: a pending delayed
// ACK is no longer needed.
func (r *receiver) onAckSent() {
	r.unacked = 0
	r.delack.Stop()
}
