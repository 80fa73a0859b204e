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

	// Quick-ACK mode (Config.QuickAck): quick is the number of ACKs
	// still to send at once (Linux's icsk_ack.quick), lastData when data
	// last arrived (icsk_ack.lrcvtime; dataSeen: it has), rcvMSS the
	// largest payload seen (icsk_ack.rcv_mss, tcp_measure_rcv_mss).
	quick    int
	lastData des.Time
	dataSeen bool
	rcvMSS   unit.Bytes
	// rcvSsthresh is Linux's tp->rcv_ssthresh, the receive window
	// growing towards its clamp, which asks for quick ACKs while it
	// grows (growWindow); rcvSsthreshSet once it has its initial value.
	rcvSsthresh    unit.Bytes
	rcvSsthreshSet bool

	// firstAck says the next in-order data segment is acknowledged at
	// once (Config.AckFirstSegment): ns-3's delayed-ACK counter, primed
	// as the connection opens and reset by any ACK sent.
	firstAck bool

	// dsack is the duplicate range the next ACK reports first (RFC 2883
	// section 4), when dsackSet.
	dsack    block
	dsackSet bool

	// SACK compression (Config.SACKCompression, sack_compress.go):
	// compressed counts the ACKs held back (Linux's tp->compressed_ack),
	// compTimer sends one when it expires (compressed_ack_timer), and
	// dupAcks counts the ACKs sent at once while RCV.NXT was compNxt
	// (dup_ack_counter, compressed_ack_rcv_nxt).
	compressed int
	compTimer  des.Timer
	dupAcks    int
	compNxt    seqnum.Value

	finRcvd bool
	finSeq  seqnum.Value
	closed  bool
}

func (r *receiver) init(c *Conn) {
	r.c = c
	if r.ooo == nil {
		r.ooo = NewScoreboard(8) // Renew keeps the one it had
	}
	r.delack.Init(c.s, c, kindDelAck, 0)
	r.compTimer.Init(c.s, c, kindCompSACK, 0)
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
		if end.LessThanEq(r.nxt) && p.Payload > 0 {
			// A duplicate: RFC 2883 section 4 reports it, and Linux
			// acknowledges quickly for a while, the sender being
			// evidently in a timeout's go-back-N (tcp_data_queue's
			// out_of_window: tcp_enter_quickack_mode).
			r.setDSACK(seq, end)
			r.enterQuickAck()
		}
		r.ackSegment(now, p)
		return
	}
	if seq.LessThan(r.nxt) {
		// Partly old: the part below RCV.NXT is the duplicate (RFC
		// 2883 section 4.1.1's example, Linux's tcp_data_queue).
		r.setDSACK(seq, r.nxt)
	}
	seq = seqnum.Max(seq, r.nxt)
	end = seqnum.Min(end, wndEnd)
	if seq != r.nxt {
		// Out of order: hold it and send an immediate duplicate ACK
		// (RFC 5681 section 4.2) carrying SACK blocks (RFC 2018 section
		// 4), or under SACK compression hold the ACK back by Linux's
		// rule (ackOutOfOrder).
		if seq.LessThan(end) {
			// tcp_data_queue_ofo grows the window for the data it
			// keeps, with SACK only ("for non sack flows, do not grow
			// window to force DUPACK and trigger fast retransmit"); a
			// segment it already holds whole it drops.
			grows := r.c.sackOK && !r.holds(seq, end)
			r.dsackHeld(seq, end)
			r.sackBlockCheck(now, seq, end)
			r.ooo.Insert(seq, end)
			r.noteRecent(seq)
			if grows {
				r.grow(p, false)
			}
		}
		r.ackOutOfOrderSegment(now, p)
		return
	}
	r.dataEvent(now, p.Payload)
	r.grow(p, true)
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
		if h := r.c.host; h != nil {
			h.settle() // this ACK is the aggregate's
		}
		r.ackNow(now)
		r.c.app.PeerClosed(now)
		return
	}
	// RFC 5681 section 4.2: an immediate ACK when the segment fills all
	// of a gap (tcp_data_queue's ICSK_ACK_NOW) or part of it. A part of
	// at most one frame leaves Linux's receiver in its out-of-order rule
	// (__tcp_ack_snd_check), which sends at once too, as the first ACK
	// at a new RCV.NXT.
	if hadHole && !r.ooo.Empty() && before.Size(r.nxt).Bytes() <= r.frame() {
		r.ackOutOfOrderSegment(now, p)
		return
	}
	if r.c.host != nil && r.c.host.skbAck(now, p, inOrderAck(hadHole)) {
		return
	}
	r.unacked++
	r.ackOrDelay(now, hadHole, r.c.cfg.DelAckTimeout)
}

// frame is the receiver's estimate of a full segment (Linux's
// icsk_ack.rcv_mss): the largest payload seen, or the MSS.
func (r *receiver) frame() unit.Bytes {
	if r.rcvMSS > 0 {
		return r.rcvMSS
	}
	return r.c.cfg.MSS
}

// ackSegment acknowledges at once a segment that asks for it (a
// duplicate): with the rest of its aggregate when the host takes
// aggregates whole (Host.GRO), else now.
func (r *receiver) ackSegment(now des.Time, p *netsim.Packet) {
	if r.c.host != nil && r.c.host.skbAck(now, p, ackKindNow) {
		return
	}
	r.ackNow(now)
}

// ackOutOfOrderSegment acknowledges a segment received while out-of-order
// data is held, by ackOutOfOrder's rule: for its whole aggregate when the
// host takes aggregates whole, else for the segment.
func (r *receiver) ackOutOfOrderSegment(now des.Time, p *netsim.Packet) {
	if r.c.host != nil && r.c.host.skbAck(now, p, ackKindOutOfOrder) {
		return
	}
	r.ackOutOfOrder(now)
}

// ackOrDelay sends the ACK of in-order data, counted in unacked, now when
// it is due at once (immediate, no delayed ACKs, quick-ACK mode, the
// first data, or RFC 1122 section 4.2.3.2 / RFC 5681 section 4.2's
// second full-sized segment), and otherwise within timeout.
func (r *receiver) ackOrDelay(now des.Time, immediate bool, timeout des.Duration) {
	if immediate || !r.c.cfg.DelayedACK || r.quick > 0 || r.firstAck || r.unacked >= 2 {
		r.ackNow(now)
		return
	}
	if !r.delack.Pending() {
		r.delack.ResetAfter(timeout)
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
// is held out of order (RFC 2018 section 3), after a pending DSACK block
// (RFC 2883 section 4: "the first SACK block"), which goes once (Linux's
// tcp_options_write clears rx_opt.dsack).
func (r *receiver) fillSACK(p *netsim.Packet) {
	if !r.c.sackOK || r.nRecent == 0 && !r.dsackSet {
		return
	}
	n := 0
	if r.dsackSet {
		r.dsackSet = false
		p.SACK[0] = netsim.SACKBlock{Left: uint32(r.dsack.start), Right: uint32(r.dsack.end)}
		n = 1
	}
	for i := 0; i < r.nRecent && n < netsim.MaxSACKBlocks; i++ {
		p.SACK[n] = netsim.SACKBlock{Left: uint32(r.recent[i].start), Right: uint32(r.recent[i].end)}
		n++
	}
	p.NSACK = n
}

// setDSACK notes [start, end) as the duplicate the next ACK reports
// (Config.DSACK; RFC 2883 section 4, Linux's tcp_dsack_set). A later
// duplicate before that ACK replaces it, as Linux's does.
func (r *receiver) setDSACK(start, end seqnum.Value) {
	if !r.c.cfg.DSACK || !r.c.sackOK || !start.LessThan(end) {
		return
	}
	r.dsack, r.dsackSet = block{start, end}, true
}

// dsackHeld reports the part of an out-of-order segment [seq, end) that
// the receiver already holds (RFC 2883 section 4, the duplicate "above
// the cumulative acknowledgement", whose containing block then goes
// second; Linux's tcp_data_queue_ofo). The first held range it overlaps
// is the one reported.
func (r *receiver) dsackHeld(seq, end seqnum.Value) {
	if !r.c.cfg.DSACK || !r.c.sackOK {
		return
	}
	for _, b := range r.ooo.blocks {
		if b.start.LessThan(end) && seq.LessThan(b.end) {
			r.setDSACK(seqnum.Max(seq, b.start), seqnum.Min(end, b.end))
			return
		}
	}
}

// dataEvent is Linux's tcp_event_data_recv for in-order data under
// Config.QuickAck: the first data segment starts quick-ACK mode, and so
// does data after more than an RTO of silence ("apparently sender failed
// to restart window, so that we send ACKs quickly").
func (r *receiver) dataEvent(now des.Time, payload unit.Bytes) {
	if !r.c.cfg.QuickAck {
		return
	}
	// tcp_measure_rcv_mss: the largest segment seen, at most our MSS.
	r.rcvMSS = max(r.rcvMSS, min(payload, r.c.cfg.MSS))
	if !r.dataSeen || now.Sub(r.lastData) > r.c.snd.rtt.current() {
		r.incrQuickAck()
	}
	r.dataSeen = true
	r.lastData = now
}

// grow grows the receive window for the data segment p
// (growWindow): for the whole aggregate once it is in when the host
// takes aggregates whole (Host.GRO), as Linux does per skb, else for the
// segment. In-order data grows it only from 128 bytes
// (tcp_event_data_recv), held out-of-order data whatever its size.
func (r *receiver) grow(p *netsim.Packet, inOrder bool) {
	if !r.c.cfg.QuickAck {
		return
	}
	if h := r.c.host; h != nil && h.cfg.GRO && p.Skb != 0 {
		h.noteGrowth(p.Payload, inOrder)
		return
	}
	if !inOrder || p.Payload >= minGrowBytes {
		r.growWindow(p.Payload)
	}
}

// minGrowBytes is the least in-order skb that grows the window
// (tcp_event_data_recv: skb->len >= 128).
const minGrowBytes = 128

// growWindow is Linux's tcp_grow_window (net/ipv4/tcp_input.c, the
// same in Linux 5.13 and 6.1) for a received skb of n payload bytes:
// while rcv_ssthresh is below the window clamp, the skb raises it by
// max(2 advmss, 2n) and asks for an immediate ACK
// (inet_csk(sk)->icsk_ack.quick |= 1), so a receiver acknowledges every
// skb at once until its window has grown from its first 64 KB to the
// buffer's: a flow of a few Mbit/s into a 16 MiB window does for tens of
// seconds. (It takes the branch for an skb whose truesize is at most
// twice its length, tcp_win_from_space(truesize) <= len, true of a
// full segment's; and the room as the clamp less rcv_ssthresh, the data
// held out of order, which tcp_space also subtracts, left out.) Only the
// acknowledgements are modelled: the window advertised stays the whole
// buffer (advertised), which does not bind these models' senders, since
// the window grows by two segments for each one received (a slow start
// at most doubles what is in flight per round trip).
func (r *receiver) growWindow(n unit.Bytes) {
	if !r.rcvSsthreshSet {
		r.rcvSsthreshSet = true
		r.rcvSsthresh = min(r.initialWindow(), r.windowClamp())
	}
	advmss := r.advMSS()
	room := r.windowClamp() - r.rcvSsthresh
	if room <= 0 {
		return
	}
	r.rcvSsthresh += min(room, max(2*advmss, 2*n))
	r.quick |= 1
}

// advMSS is Linux's tp->advmss. Config.MSS is the payload, which with
// timestamps is 12 bytes less than the MSS option; the end that accepted
// the connection keeps the option's value (tcp_v4_syn_recv_sock takes the
// route's advmss), the end that opened it lowers its advmss by the 12
// bytes when both send timestamps (tcp_rcv_synsent_state_process).
func (r *receiver) advMSS() unit.Bytes {
	if r.c.tsOK && !r.c.active {
		return r.c.cfg.MSS + tsOptionBytes
	}
	return r.c.cfg.MSS
}

// holds reports whether the out-of-order data held covers [seq, end).
func (r *receiver) holds(seq, end seqnum.Value) bool {
	for _, b := range r.ooo.blocks {
		if b.start.LessThanEq(seq) && end.LessThanEq(b.end) {
			return true
		}
	}
	return false
}

// tsOptionBytes is TCPOLEN_TSTAMP_ALIGNED: the timestamps option with
// its two NOPs.
const tsOptionBytes = 12

// initialWindow is the first rcv_ssthresh, the window of the SYN-ACK or
// SYN (tcp_select_initial_window): the buffer's window rounded down to
// whole segments, at most 65535 bytes.
func (r *receiver) initialWindow() unit.Bytes {
	space, mss := r.advertised(), r.c.cfg.MSS
	if mss > 0 && space > mss {
		space = space / mss * mss
	}
	return min(space, 65535)
}

// windowClamp is tp->window_clamp as tcp_init_buffer_space leaves it:
// the buffer's window less one advmss ("force reservation of one
// segment"), when that leaves more than two.
func (r *receiver) windowClamp() unit.Bytes {
	full, advmss := r.advertised(), r.advMSS()
	if full > 2*advmss {
		return max(2*advmss, full-advmss)
	}
	return full
}

// TCPMaxQuickAcks is Linux's TCP_MAX_QUICKACKS (include/net/tcp.h): at
// most this many ACKs are sent at once in quick-ACK mode.
const TCPMaxQuickAcks = 16

// incrQuickAck is Linux's tcp_incr_quickack: quick-ACK mode lasts for
// rcv_wnd / (2*rcv_mss) ACKs (2 if that is 0), at most TCPMaxQuickAcks,
// and never shortens. rcv_wnd is the window advertised, which here is the
// whole buffer from the start; Linux's grows from at most 65535 bytes
// (initialWindow), which gives the same 16 ACKs for segments of up to
// 2 KB.
func (r *receiver) incrQuickAck() {
	mss := r.rcvMSS
	if mss == 0 {
		mss = r.c.cfg.MSS
	}
	q := int(r.advertised() / (2 * mss))
	if q == 0 {
		q = 2
	}
	r.quick = max(r.quick, min(q, TCPMaxQuickAcks))
}

// enterQuickAck is Linux's tcp_enter_quickack_mode (the rest of which
// resets the delayed-ACK timeout, fixed here).
func (r *receiver) enterQuickAck() {
	if r.c.cfg.QuickAck {
		r.incrQuickAck()
	}
}

// opened notes that the connection became established, after any ACK of
// the handshake left: under Config.AckFirstSegment the first data segment
// is acknowledged at once, as ns-3 3.37's TcpSocketBase::ProcessSynSent
// and ProcessSynRcvd arrange by setting m_delAckCount = m_delAckMaxCount.
func (r *receiver) opened() { r.firstAck = r.c.cfg.AckFirstSegment }

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
	// tcp_event_ack_sent: no ACK is held back any longer.
	r.compressed = 0
	r.compTimer.Stop()
	// ns-3 resets m_delAckCount whenever a segment carries an ACK
	// (TcpSocketBase::SendEmptyPacket, SendDataPacket).
	r.firstAck = false
	// Linux's tcp_dec_quickack_mode: each segment carrying an ACK uses
	// up one quick ACK.
	if r.quick > 0 {
		r.quick--
	}
}
