package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// Host is what a Linux sending host does between TCP and the wire that
// decides how a flow's packets meet a queue counted in skbs (a netem
// limit): segmentation offload and TCP Small Queues. The zero value turns
// both off (every segment its own packet, sent as soon as the windows
// and pacing allow), the behaviour of every model that does not set it.
type Host struct {
	// TSO groups the segments TCP sends at one instant into GSO/TSO
	// aggregates of tcp_tso_autosize's size (net/ipv4/tcp_output.c): the
	// bytes of about 1 ms at the socket's pacing rate (sk_pacing_rate >>
	// sk_pacing_shift, shift 10), at least MinTSOSegs segments and at
	// most 64 KB; new data's at most half of cwnd too (tcp_cwnd_test's
	// halfcwnd, newSkbGoal), so below four segments of cwnd one segment,
	// and never across the end of a write-queue skb, the skbs tcp_sendmsg
	// built when the application wrote (skbRoom). The aggregate travels
	// as one skb (netsim.Packet.Skb) and a paced flow sends one per
	// pacing interval of its length.
	TSO bool
	// TSQ is TCP Small Queues (tcp_output.c, tcp_small_queue_check): the
	// socket sends no more while the bytes it has below TCP (sk_wmem_alloc,
	// skb truesize, until a delaying netem orphans them or they are freed)
	// exceed max(2 skb truesizes, pacing rate x 1 ms), capped at
	// LimitOutputBytes; freeing them wakes the socket (tcp_tasklet_func).
	TSQ bool
	// LimitOutputBytes is net.ipv4.tcp_limit_output_bytes; 0 means
	// 1 MiB, the default since Linux 5.3 (256 KiB before; at 100 Mbit/s
	// the 1 ms term, 12.5 kB, is far below either).
	LimitOutputBytes unit.Bytes
	// GRO acknowledges an aggregate once: it reaches the receiving
	// socket as one skb, and tcp_input.c (Linux 5.13) decides once per
	// skb whether to acknowledge it, so the segments of one Skb arriving
	// at one instant are answered by at most one ACK, sent when they all
	// are in. An skb duplicate or filling a hole is acknowledged at once
	// (tcp_data_queue's out_of_window and its ICSK_ACK_NOW when the gap
	// is filled), one out of order at once or, under
	// Config.SACKCompression, by that rule (tcp_data_queue_ofo); an
	// in-order one only when "more than one full frame" (rcv_nxt -
	// rcv_wup > rcv_mss) is then unacknowledged or in quick-ACK mode
	// (__tcp_ack_snd_check), so a lone one-segment skb waits for the
	// next or for the delayed-ACK timer (tcp_send_delayed_ack, ato
	// TCP_ATO_MIN = 40 ms).
	GRO bool
	// Defer is TSO deferral (tcp_output.c, tcp_tso_should_defer, called
	// from tcp_write_xmit for an skb of more than one segment): outside
	// recovery, a sender whose congestion and receive windows allow less
	// than a full aggregate (tcp_tso_autosize's) and less than a third of
	// the window (net.ipv4.tcp_tso_win_divisor = 3) does not send that
	// part now when the ACK of its oldest segment is due within srtt/2
	// (Linux 5.13; a later Linux bounds it to 1 ms) and it last sent less than
	// 1 ms ago: the ACK will open the window for a larger aggregate. It
	// needs TSO.
	Defer bool
	// CwndLimited grows cwnd only while the congestion window is what
	// limits the sender, as Linux's loss-based controllers do: each
	// cong_avoid hook (tcp_reno_cong_avoid, bictcp_cong_avoid in
	// tcp_bic.c and tcp_cubic.c) returns at once unless
	// tcp_is_cwnd_limited (include/net/tcp.h): in slow start while cwnd is
	// below twice the most packets in flight in the last window, in
	// congestion avoidance while the last window was cwnd-limited, as
	// tcp_cwnd_validate (tcp_output.c) records it after each
	// tcp_write_xmit. A flow that TCP Small Queues, the receive window or
	// the send buffer holds back keeps its cwnd, and CUBIC, BIC and Reno
	// keep their counters too (snd_cwnd_cnt, CUBIC's epoch and its count
	// of ACKed packets for TCP friendliness: cc.Ack.IsCwndLimited). BBR
	// and BBRv2 set cwnd from their model and do not ask (bbr_set_cwnd).
	CwndLimited bool
	// MinTSOSegs is the smallest aggregate (net.ipv4.tcp_min_tso_segs,
	// default 2); 0 means 2. BBR asks for 1 below 1.2 Mbit/s
	// (bbr_min_tso_segs); the model keeps 2.
	MinTSOSegs int
}

// Linux constants of the host model.
const (
	// skbOverhead is the truesize of an skb beyond its payload: the
	// sk_buff, SKB_DATA_ALIGN(sizeof(struct sk_buff)) = 256 bytes, and
	// its head, MAX_TCP_HEADER (320) plus skb_shared_info (320), which
	// kmalloc serves from its 1024-byte slab and __alloc_skb counts
	// whole (it takes ksize of the head; include/linux/skbuff.h,
	// net/core/skbuff.c, the same in Linux 5.13 and 6.1). A real 6.1
	// kernel shows it (validation/linuxpeer): ss's skmem counts 2728
	// bytes per one-segment skb and 4176 per two-segment one below TCP.
	skbOverhead = 1280
	// gsoMaxBytes is GSO_MAX_SIZE (64 KiB) less the header room
	// (tcp_tso_autosize: sk_gso_max_size - 1 - MAX_TCP_HEADER).
	gsoMaxBytes = 65536 - 1 - 320
	// pacingShift is sk_pacing_shift's default, 10: about 1 ms of data.
	pacingShift = 10
	// Linux's pacing rate of a socket whose controller does not pace
	// (tcp_update_pacing_rate, tcp_input.c): cwnd x mss / srtt times
	// tcp_pacing_ss_ratio (200 %) while cwnd < ssthresh/2, else
	// tcp_pacing_ca_ratio (120 %).
	pacingSSRatio = 2.0
	pacingCARatio = 1.2
)

// host is a connection's state of the Host model.
type host struct {
	cfg Host
	c   *Conn

	// TSO: the open aggregate.
	skb     uint64   // Skb of the aggregate being filled, 0: none
	skbAt   des.Time // when it was started
	skbSegs int      // segments in it
	skbGoal int      // its size: newSkbGoal's, or the lost skb's it resends
	skbN    uint32   // aggregates started so far: the number of the open one
	// A retransmission's aggregate: the number of the skb whose lost
	// segments it resends, and the sequence number that continues it.
	skbRetx bool
	skbFrom uint32
	skbNext seqnum.Value
	// tcp_cwnd_validate's record of the last window: the most bytes in
	// flight (max_packets_out), the snd.nxt that ends the window
	// (max_packets_seq) and whether cwnd limited it (is_cwnd_limited).
	maxOut      unit.Bytes
	maxOutSeq   seqnum.Value
	cwndLimited bool
	// deferLimited: the sending pass under way deferred an aggregate
	// that cwnd could not take whole (tcp_tso_should_defer's
	// *is_cwnd_limited), which makes the pass cwnd-limited.
	deferLimited bool
	// wstamp is tcp_wstamp_ns: when the last aggregate was sent, or for
	// a paced flow when its pacing lets the next one go.
	wstamp des.Time

	// GRO: an ACK owed for the aggregate arriving now, and the most
	// urgent kind its segments asked for.
	ackOwed bool
	ackKind ackKind
	ackSet  bool
	// The aggregate's data that grows the receive window
	// (receiver.grow): in order, and held out of order.
	growIn, growOOO unit.Bytes

	// The write queue's skbs (skbRoom): the size goal of the send
	// buffer's first fill, the stream offset from which the later goal
	// applies, that goal once known (0: not yet), and the
	// largest window the peer has offered.
	grid struct {
		set           bool
		goal1, phase2 unit.Bytes
		goal2, maxWnd unit.Bytes
	}

	// TSQ.
	charged  unit.Bytes // truesize bytes sent and not yet released
	wakeSet  bool       // a wake-up event is pending
	wakeNeed bool       // the sender stopped on the limit
	// wakeShift is the factor of the check that stopped the sender: 1
	// for a retransmission (tcp_xmit_retransmit_queue), which may go
	// up to twice the limit, 0 for new data.
	wakeShift uint
}

// SetHost gives the connection a Linux host model; call it before the
// connection sends.
func (c *Conn) SetHost(h Host) {
	if h.LimitOutputBytes == 0 {
		h.LimitOutputBytes = 1 << 20
	}
	if h.MinTSOSegs == 0 {
		h.MinTSOSegs = 2
	}
	if !h.TSO && !h.TSQ && !h.GRO && !h.Defer && !h.CwndLimited {
		c.host = nil
		return
	}
	c.host = &host{cfg: h, c: c}
}

// pacingRate is sk_pacing_rate: the controller's when it paces, Linux's
// default otherwise.
func (h *host) pacingRate() unit.BitRate {
	s := &h.c.snd
	if r := s.cc.PacingRate; r > 0 {
		return r
	}
	srtt := s.rtt.srtt
	if srtt <= 0 {
		return 0
	}
	ratio := pacingCARatio
	if s.cc.Cwnd < s.cc.Ssthresh/2 {
		ratio = pacingSSRatio
	}
	// Linux grows cwnd only while the flow is cwnd-limited
	// (tcp_is_cwnd_limited), so a flow the receive window holds back keeps
	// a cwnd near that window; the controllers here grow it regardless,
	// so the window the sender can use stands in for it.
	cwnd := min(s.cc.Cwnd, s.wnd, h.c.cfg.SndBuf)
	return unit.ScaledRateOf(ratio, max(cwnd, s.flight()), srtt)
}

// pacingQuantum is sk_pacing_rate >> sk_pacing_shift, the bytes sent in
// 2^-pacingShift s (about 1 ms) at the pacing rate, truncated as Linux's
// integer bytes-per-second rate is.
func (h *host) pacingQuantum() unit.Bytes {
	return unit.Bytes(h.pacingRate().BytesPerSecond()) >> pacingShift
}

// autosize is tcp_tso_autosize's segment count.
func (h *host) autosize() int {
	mss := max(h.c.snd.smss, 1)
	bytes := min(h.pacingQuantum(), gsoMaxBytes)
	return int(max(bytes/mss, unit.Bytes(h.cfg.MinTSOSegs))) // segments
}

// newSkbGoal is the size of an aggregate of new data: tcp_write_xmit
// splits the skb at min(cwnd_quota, tcp_tso_segs) segments
// (tcp_mss_split_point), and cwnd_quota, tcp_cwnd_test's, is at most half
// of cwnd ("for better scheduling, ensure we have at least 2 GSO packets
// in flight": halfcwnd = max(cwnd >> 1, 1)), so a flow whose cwnd is
// below four segments sends one-segment skbs. The other bound,
// cwnd - in flight, the sender checks before each segment.
// tcp_xmit_retransmit_queue sizes a retransmission without halfcwnd.
//
// Nor does it cross the end of the write-queue skb that holds its first
// segment (skbRoom): tcp_write_xmit only splits the skbs tcp_sendmsg
// built, never joins two.
func (h *host) newSkbGoal(off unit.Bytes) int {
	s := &h.c.snd
	halfCwnd := max(int(s.cc.Cwnd/max(s.smss, 1))>>1, 1)
	return min(h.autosize(), halfCwnd, h.skbRoom(off))
}

// skbRoom is the number of segments from stream offset off to the end of
// the write-queue skb that holds it: the skbs tcp_sendmsg_locked built
// when the application wrote the data, each filled to the size goal of
// that moment (tcp_xmit_size_goal: sk_gso_max_size, bounded to half the
// largest window the peer has offered by tcp_bound_to_half_wnd, in whole
// segments). A bulk sender writes as soon as connect returns, when the
// only window it has seen is the SYN-ACK's, at most 65535 bytes
// unscaled: the skbs of the send buffer's first fill hold 22 segments of
// 1448 bytes. The writer sleeps once the truesizes it queued reach
// SO_SNDBUF (sk_stream_memory_free) and writes again after ACKs have
// freed a third of it (sk_stream_write_space), by then under the full
// goal, topping up the last skb of the first fill first (tcp_sendmsg
// appends to a tail skb shorter than the goal): the model takes that
// skb to be unsent still when the writer wakes, as it is when the send
// buffer is far larger than the flight (32 MiB under emulate sockbuf);
// with a buffer the flight fills, Linux would start a new skb instead.
// tcp_write_xmit and tcp_retransmit_skb split these skbs (tso_fragment,
// tcp_fragment) and join none of them (tcp_retrans_try_collapse joins
// only skbs shorter than a segment), so no skb TCP sends crosses their
// ends. Measured on the real kernel (validation/linuxpeer, one Reno flow
// alone on the testbed): sk_wmem_alloc holds two skbs of 33159 bytes, a
// 22-segment skb's truesize, where tcp_tso_autosize would give 36. (The
// model counts 1280 bytes beyond the payload, the one- and two-segment
// skbs' measure, so its 22-segment skb is 23 bytes smaller and its first
// fill one skb longer, 1013 skbs for 32 MiB.)
func (h *host) skbRoom(off unit.Bytes) int {
	s := &h.c.snd
	mss := max(s.smss, 1)
	g := &h.grid
	if !g.set {
		if s.wnd <= 0 {
			return noGrid
		}
		g.set = true
		g.goal1 = sizeGoal(s.wnd, mss)
		// SndBuf is positive (Config.fill).
		n := (h.c.cfg.SndBuf + g.goal1 + skbOverhead - 1) / (g.goal1 + skbOverhead)
		g.phase2 = (n - 1) * g.goal1
	}
	base, goal := unit.Bytes(0), g.goal1
	if off >= g.phase2 {
		if g.goal2 == 0 {
			g.goal2 = sizeGoal(max(s.wnd, g.maxWnd), mss)
		}
		base, goal = g.phase2, g.goal2
	}
	g.maxWnd = max(g.maxWnd, s.wnd)
	left := goal - (off-base)%goal
	return int((left + mss - 1) / mss)
}

// noGrid is skbRoom's answer before the sender knows a window: no bound
// (in segments, small enough to multiply by a segment's size).
const noGrid = 1 << 20

// sizeGoal is tcp_xmit_size_goal for a peer whose largest window so far
// is maxWnd: sk_gso_max_size cut to half of maxWnd (all of it below 536
// bytes, tcp_bound_to_half_wnd), in whole segments, at least one.
func sizeGoal(maxWnd, mss unit.Bytes) unit.Bytes {
	goal := unit.Bytes(gsoMaxBytes)
	cutoff := maxWnd
	if maxWnd > 536 {
		cutoff = maxWnd >> 1
	}
	if cutoff > 0 && goal > cutoff {
		goal = cutoff
	}
	return max(goal/mss, 1) * mss
}

// tagSkb puts the data segment p, the transmission of record r, in an
// aggregate: the open one if it was started at this instant and has room,
// a new one otherwise. New data fills aggregates of newSkbGoal's size
// (tcp_tso_autosize's, at most half of cwnd). A retransmission fills one
// with the lost segments of a single skb first sent: Linux keeps the
// skbs it sent in its retransmission queue,
// marks a lost skb lost whole (tcp_rack_detect_loss, tcp_mark_skb_lost)
// and resends as many of its segments as one skb as cwnd lets it and
// tcp_tso_segs allows (tcp_xmit_retransmit_queue calls
// tcp_retransmit_skb with min(cwnd - in flight, tcp_tso_segs), which
// splits a larger skb, tcp_fragment); SACKs split an skb the same way
// (tcp_sacktag_walk), so the segments of one skb resent together are the
// run of them still lost, in sequence. A netem that dropped the skb whole
// so holds and loses its retransmission as one skb too. The sender
// checks cwnd before each segment, which leaves the same segments in the
// skb as Linux's split at cwnd - in flight.
func (h *host) tagSkb(now des.Time, p *netsim.Packet, r *sendRecord) {
	h.wstamp = max(h.wstamp, now)
	if !h.cfg.TSO {
		return
	}
	retx := p.Retransmitted
	if h.skb != 0 && h.skbAt == now && h.skbSegs < h.skbGoal && retx == h.skbRetx &&
		(!retx || r.skb == h.skbFrom && r.seq == h.skbNext) {
		p.Skb = h.skb
		h.skbSegs++
	} else {
		h.skb, h.skbAt, h.skbSegs, h.skbRetx = p.ID, now, 1, retx
		h.skbN++
		if retx {
			h.skbFrom = r.skb
			h.skbGoal = min(h.autosize(), h.c.snd.lostRun(r))
		} else {
			h.skbGoal = h.newSkbGoal(h.c.snd.offset(r.seq))
		}
		p.Skb = p.ID
	}
	h.skbNext = r.end()
	r.skb = h.skbN
}

// onTransmit charges a data packet to the socket (TCP Small Queues): its
// payload, and the skb's overhead once, with its first segment.
func (h *host) onTransmit(p *netsim.Packet) {
	if p.Payload == 0 || !h.cfg.TSQ {
		return
	}
	h.charged += truesize(p)
	p.SetOwner(h)
}

// truesize is what p charges to sk_wmem_alloc: its payload, and the
// skb's overhead with the skb's first segment (or a segment that goes
// alone).
func truesize(p *netsim.Packet) unit.Bytes {
	if p.Skb == 0 || p.Skb == p.ID {
		return p.Payload + skbOverhead
	}
	return p.Payload
}

// Release implements netsim.Owner: the packet's truesize leaves
// sk_wmem_alloc, and a socket TSQ stopped is woken (tcp_wfree schedules
// the TSQ tasklet, which calls tcp_write_xmit).
func (h *host) Release(now des.Time, p *netsim.Packet) {
	h.charged -= truesize(p)
	if h.wakeNeed && !h.wakeSet && !h.over(h.wakeShift) {
		h.wakeSet = true
		h.c.s.Schedule(now, h, hostWake, 0)
	}
}

// Event kinds of a host.
const (
	hostWake = iota // TSQ wake-up
	hostAck         // the ACK of an aggregate
)

// delAckATO is the delayed-ACK timeout of a bulk receiver's skb that
// does not complete more than one full frame: tcp_send_delayed_ack's ato,
// TCP_ATO_MIN (HZ/25, 40 ms), which is also TCP_DELACK_MIN.
const delAckATO = 40 * des.Millisecond

// ackKind is what a received segment asks of its acknowledgement.
type ackKind uint8

const (
	// ackKindInOrder: in-order data, acknowledged by the delayed-ACK
	// rule (__tcp_ack_snd_check's first test, tcp_send_delayed_ack).
	ackKindInOrder ackKind = iota
	// ackKindOutOfOrder: data received while out-of-order data is held,
	// acknowledged by receiver.ackOutOfOrder's rule (SACK compression).
	ackKindOutOfOrder
	// ackKindNow: an ACK at once (a duplicate, a gap filled).
	ackKindNow
)

// inOrderAck is the kind of an in-order segment's ACK: at once when it
// filled a gap.
func inOrderAck(filledGap bool) ackKind {
	if filledGap {
		return ackKindNow
	}
	return ackKindInOrder
}

// skbAck reports whether the segment p is acknowledged with the rest of
// its aggregate, by an event at the same instant that runs after the
// aggregate's other segments, which arrive together; the aggregate's ACK
// is the most urgent its segments ask (kind), decided once (see
// Host.GRO).
func (h *host) skbAck(now des.Time, p *netsim.Packet, kind ackKind) bool {
	if !h.cfg.GRO || p.Skb == 0 {
		return false
	}
	h.ackOwed = true
	h.ackKind = max(h.ackKind, kind)
	if kind == ackKindInOrder {
		h.c.rcv.unacked++
	}
	if !h.ackSet {
		h.ackSet = true
		h.c.s.Schedule(now, h, hostAck, 0)
	}
	return true
}

// noteGrowth adds n bytes of the aggregate being received to those that
// grow the receive window when it is all in.
func (h *host) noteGrowth(n unit.Bytes, inOrder bool) {
	if inOrder {
		h.growIn += n
	} else {
		h.growOOO += n
	}
}

// growWindow grows the receive window for the aggregate, once, before
// its ACK is decided (tcp_event_data_recv and tcp_data_queue_ofo call
// tcp_grow_window per skb).
func (h *host) growWindow() {
	r := &h.c.rcv
	if h.growIn >= minGrowBytes {
		r.growWindow(h.growIn)
	}
	if h.growOOO > 0 {
		r.growWindow(h.growOOO)
	}
	h.growIn, h.growOOO = 0, 0
}

// settle is the aggregate's end when an ACK of the receiver's own covers
// it (the FIN's): its window growth is applied and its ACK sent already.
func (h *host) settle() {
	h.growWindow()
	h.ackOwed = false
	h.ackKind = ackKindInOrder
}

// Handle implements des.Handler: the TSQ wake-up and the aggregate's ACK.
func (h *host) Handle(now des.Time, kind int, _ uint64) {
	if kind == hostAck {
		h.ackSet = false
		if !h.ackOwed {
			return
		}
		h.ackOwed = false
		h.growWindow()
		k := h.ackKind
		h.ackKind = ackKindInOrder
		switch k {
		case ackKindOutOfOrder:
			h.c.rcv.ackOutOfOrder(now)
		default:
			// "More than one full frame received", quick-ACK mode, or an
			// skb that asks for an immediate ACK.
			h.c.rcv.ackOrDelay(now, k == ackKindNow, delAckATO)
		}
		return
	}
	h.wakeSet = false
	h.wakeNeed = false
	h.c.snd.output(now)
}

// tsqLimit is tcp_small_queue_check's limit for the next aggregate,
// taken as new data's (newSkbGoal). For a retransmission Linux takes the
// truesize of the lost skb it resends, which after cwnd was cut may hold
// more segments than half of the new cwnd: the model's limit in recovery
// is then the smaller.
func (h *host) tsqLimit() unit.Bytes {
	goal := unit.Bytes(1) // segments
	if h.cfg.TSO {
		goal = unit.Bytes(h.newSkbGoal(h.c.snd.offset(h.c.snd.nxt)))
	}
	truesize := goal*h.c.snd.smss + skbOverhead
	return min(max(2*truesize, h.pacingQuantum()), h.cfg.LimitOutputBytes)
}

// over is tcp_small_queue_check's test, refcount_read(&sk->sk_wmem_alloc)
// > limit << factor. sk_alloc sets sk_wmem_alloc to 1, not 0 (the
// socket's own reference, dropped when it is freed: __sock_wfree frees
// the socket when the count reaches 0), so the bytes charged are
// compared plus one: two skbs of the next one's truesize fill a limit of
// twice it, and a third waits.
func (h *host) over(factor uint) bool { return h.charged+1 > h.tsqLimit()<<factor }

// blocked reports whether TSQ holds the sender back now, at the start of
// an aggregate (an open one is completed first, as Linux checks per skb).
// Nothing in flight is never held back: Linux sends when its
// retransmission queue is empty rather than wait for a completion.
func (h *host) blocked(now des.Time) bool { return h.blockedBy(now, 0) }

// blockedRetransmit is blocked for a retransmission in recovery:
// tcp_xmit_retransmit_queue checks tcp_small_queue_check(sk, skb, 1)
// before each skb it resends, a limit twice that of new data.
func (h *host) blockedRetransmit(now des.Time) bool { return h.blockedBy(now, 1) }

func (h *host) blockedBy(now des.Time, factor uint) bool {
	if !h.cfg.TSQ {
		return false
	}
	if h.filling(now) {
		return false
	}
	if h.c.snd.flight() == 0 || !h.over(factor) {
		return false
	}
	h.wakeNeed = true
	h.wakeShift = factor
	return true
}

// Linux constants of TSO deferral (tcp_output.c, tcp_tso_should_defer).
const (
	// tsoWinDivisor is net.ipv4.tcp_tso_win_divisor's default: a third
	// of the window is worth sending at once.
	tsoWinDivisor = 3
	// deferMax is the NSEC_PER_MSEC of tcp_tso_should_defer: no deferral
	// when the last send is older.
	deferMax = des.Millisecond
)

// opening reports whether the next new segment would start an aggregate
// (no aggregate of this instant has room left).
func (h *host) opening(now des.Time) bool {
	return !(h.skb != 0 && h.skbAt == now && h.skbSegs < h.skbGoal)
}

// filling reports whether an aggregate that departed at this instant has
// room for the next segment: with TSO it goes in that one send, past
// TCP Small Queues and pacing alike.
func (h *host) filling(now des.Time) bool { return h.cfg.TSO && !h.opening(now) }

// deferSend is tcp_tso_should_defer for the new data at snd.nxt, rem
// bytes of which the application has written: it reports whether the
// sender holds it back for the next ACK. The caller has checked that the
// windows allow one segment, the condition tcp_write_xmit checks first
// (tcp_cwnd_test, tcp_snd_wnd_test).
func (h *host) deferSend(now des.Time, rem unit.Bytes) bool {
	s := &h.c.snd
	if !h.cfg.Defer || !h.cfg.TSO || !h.opening(now) {
		return false
	}
	// tcp_write_xmit defers only an skb of more than one segment (the
	// write-queue skb at the send head: tcp_init_tso_segs), and
	// tcp_tso_should_defer never in recovery or loss (icsk_ca_state >=
	// TCP_CA_Recovery).
	head := min(rem, unit.Bytes(h.skbRoom(s.offset(s.nxt)))*s.smss)
	if head <= s.smss || s.inRecovery || s.inLoss {
		return false
	}
	// "Avoid bursty behavior by allowing defer only if the last write
	// was recent (1 ms)."
	wstamp := h.wstamp
	if s.cc.PacingRate > 0 {
		wstamp = max(wstamp, s.nextSendAt)
	}
	if now.Sub(wstamp) > deferMax {
		return false
	}
	flight := s.flight()
	if s.cc.Cwnd <= flight {
		return false
	}
	congWin := s.cc.Cwnd - flight
	sendWin := s.nxt.Size(s.una.Add(seqnum.Size(s.wnd))).Bytes()
	limit := min(sendWin, congWin)
	// A full-sized aggregate can go.
	goal := unit.Bytes(h.autosize()) * s.smss
	if limit >= goal {
		return false
	}
	// All that is written fits: Linux sends a last skb that will get no
	// more data (FIN); the model's application has written everything
	// it will when it has queued its FIN.
	if rem <= limit && s.finQueued {
		return false
	}
	// "Middle in queue won't get any more data, full sendable already?":
	// the write-queue skb at the head is not the tail and fits whole.
	if rem > head && limit >= head {
		return false
	}
	// tcp_tso_win_divisor: at least a third of the window is available.
	if limit >= min(s.wnd, s.cc.Cwnd)/tsoWinDivisor {
		return false
	}
	// "If next ACK is likely to come too late (half srtt), do not
	// defer" (Linux 5.13: delta = now - head->tstamp, send now when
	// delta < srtt/2): the ACK of the head of the retransmission queue
	// is expected one srtt after it was sent, so a sender defers when
	// that ACK is due within srtt/2. The bound min(1 ms, srtt/2) came
	// later (commit 295ce1eb36ae, "tcp: fix tcp_tso_should_defer() vs
	// large RTT", October 2025) than the document's kernel.
	if flight == 0 {
		return false
	}
	i := s.recs.find(s.una)
	if i < 0 {
		return false
	}
	srtt := s.rtt.srtt
	expected := s.recs.at(i).sentAt.Add(srtt)
	if expected.Sub(now) > srtt/2 {
		return false
	}
	// "Ok, it looks like it is advisable to defer." When cwnd is what
	// keeps the skb (the aggregate the sender would build) from going
	// whole, the pass is cwnd-limited: a pass that defers and sends
	// nothing still renews tcp_cwnd_validate's record (Linux 5.11, "tcp:
	// fix cwnd-limited bug for TSO deferral where we send nothing").
	if congWin < sendWin && congWin <= min(rem, goal) {
		h.deferLimited = true
	}
	return true
}

// cwndValidate is tcp_cwnd_validate (Linux 5.13) after a sending pass
// that sent something or that cwnd stopped (tcp_write_xmit: "if
// (likely(sent_pkts || is_cwnd_limited))"; a pass that TCP Small Queues,
// pacing or the receive window held back with nothing sent leaves the
// record as it was): a new window starts once snd.una has passed the end
// of the last one, and a larger flight or a pass that cwnd stopped also
// renews the record. The pass was cwnd-limited when no further full
// segment fits in cwnd (tcp_write_xmit: tcp_packets_in_flight >=
// snd_cwnd) or when it deferred an aggregate cwnd could not take
// (deferSend).
func (h *host) cwndValidate(sent bool) {
	deferred := h.deferLimited
	h.deferLimited = false
	if !h.cfg.CwndLimited {
		return
	}
	s := &h.c.snd
	flight := s.flight()
	limited := flight+s.smss > s.cc.Cwnd || deferred
	if !sent && !limited {
		return
	}
	if !s.una.LessThan(h.maxOutSeq) || flight > h.maxOut || limited {
		h.maxOut = flight
		h.maxOutSeq = s.nxt
		h.cwndLimited = limited
	}
}

// modelBased reports whether the connection's controller sets cwnd from
// its own model rather than growing it per ACK (a cc.CongController:
// BBR and BBRv2, whose bbr_set_cwnd does not consult
// tcp_is_cwnd_limited).
func (h *host) modelBased() bool {
	return cc.SetsOwnCwnd(h.c.snd.ctrl)
}

// markGate gives the ACK a the record Linux's loss-based cong_avoid
// hooks test first (cc.Ack.IsCwndLimited: tcp_is_cwnd_limited) when the
// host keeps it; recovery and loss, where the recovery algorithm owns
// cwnd, are left alone.
func (h *host) markGate(a *cc.Ack, recovering bool) {
	if h.cfg.CwndLimited && !recovering {
		a.GrowthGated, a.MaxOut = true, h.maxOut
	}
}

// gateGrowth undoes the growth the ACK a gave cwnd when Linux's
// tcp_is_cwnd_limited, for cwnd at prior (before the ACK), would have kept
// the controller from growing it. Reductions stand. The controllers of
// Linux's form (CUBIC, BIC, Reno) test a.IsCwndLimited themselves and
// leave their counters alone, as Linux's do; for the others this undoes
// the growth only.
func (h *host) gateGrowth(prior unit.Bytes, a *cc.Ack) {
	s := &h.c.snd
	if !a.GrowthGated || s.cc.Cwnd <= prior || h.modelBased() {
		return
	}
	grown := s.cc.Cwnd
	s.cc.Cwnd = prior
	if a.IsCwndLimited(&s.cc) {
		s.cc.Cwnd = grown
	}
}
