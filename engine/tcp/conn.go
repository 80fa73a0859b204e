package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// Recovery selects the loss-recovery algorithm.
type Recovery uint8

// Loss-recovery algorithms.
const (
	// RecoveryNewReno is RFC 6582: fast recovery continues through partial
	// ACKs until the ACK covers the recovery point.
	RecoveryNewReno Recovery = iota
	// RecoveryReno is RFC 5681 section 3.2: the first new ACK ends fast
	// recovery.
	RecoveryReno
	// RecoverySACK is RFC 6675's conservative SACK-based recovery. It falls
	// back to NewReno when the peer does not permit SACK.
	RecoverySACK
	// RecoveryPRR is RFC 6937's Proportional Rate Reduction over SACK
	// recovery (RFC 6675, or RFC 8985 with LossRACKTLP): during the
	// reduction cwnd follows the data the receiver reports delivered
	// instead of dropping to ssthresh at once, the default of Linux and
	// ns-3. It falls back to NewReno when the peer does not permit SACK.
	RecoveryPRR
)

// LossDetection selects how the sender decides that a segment is lost.
type LossDetection uint8

// Loss-detection algorithms.
const (
	// LossDupThresh is RFC 5681 section 3.2's duplicate-ACK threshold
	// (with SACK, RFC 6675's IsLost); RACK finds only lost
	// retransmissions, and a lost tail waits for the retransmission timer.
	LossDupThresh LossDetection = iota
	// LossRACKTLP is RFC 8985: RACK's time-based rule decides every loss
	// and Tail Loss Probes replace most timeouts at the end of a flight,
	// as Linux does by default since 4.18. It needs SACK recovery
	// (Recovery RecoverySACK or RecoveryPRR with a peer that permits
	// SACK); without it the sender falls back to LossDupThresh.
	LossRACKTLP
	// LossDupThreshOnly is LossDupThresh without RACK: a lost
	// retransmission waits for the retransmission timer, as in senders
	// that predate RFC 8985 (ns-3 up to 3.37).
	LossDupThreshOnly
)

// Config configures an endpoint: durations are des.Duration, sizes
// unit.Bytes.
type Config struct {
	MSS unit.Bytes // payload bytes per segment we announce and send (RFC 9293 3.7.1)
	// InitialWindow is the initial cwnd in segments; 0 uses RFC 3390's
	// min(4*MSS, max(2*MSS, 4380 bytes)).
	InitialWindow int
	RcvBuf        unit.Bytes // receive buffer: the largest window we advertise
	SndBuf        unit.Bytes // send buffer: the most unacknowledged data we hold
	WindowScaling bool       // offer the window-scale option (RFC 7323 section 2)
	SACK          bool       // offer SACK-permitted (RFC 2018 section 2)
	DelayedACK    bool       // RFC 1122 section 4.2.3.2
	DelAckTimeout des.Duration
	MinRTO        des.Duration // RFC 6298 section 2.4; 0 means 1 s
	MaxRTO        des.Duration // RFC 6298 section 2.5; 0 means 60 s
	Granularity   des.Duration // clock granularity G of RFC 6298; 0 means 1 ms
	Recovery      Recovery
	// LimitedTransmit enables RFC 3042.
	LimitedTransmit bool
	// DupThresh is RFC 5681 section 3.2's duplicate-ACK threshold; 0
	// means 3. (RFC 3465 byte counting belongs to the controller:
	// cc.NewReno's abc argument.)
	DupThresh int
	// LossDetection chooses between the duplicate-ACK threshold and
	// RACK-TLP (RFC 8985).
	LossDetection LossDetection
	// NoHandshake opens both ends established with the options already
	// agreed, as transaction TCP (RFC 1644) saves the handshake round trip.
	NoHandshake bool
	// CCOption adds RFC 1644's connection-count option to every segment,
	// as T/TCP sends it once both ends use it (CC: kind 11, 6 bytes, 8
	// with the two NOPs that align it). With NoHandshake it is T/TCP's
	// accelerated open (TAO) when the server's cached CC passes the TAO
	// test (the SYN's CC exceeds the last one cached for that client): the
	// client's first segment carries its data, which the server accepts
	// at once, so the handshake's round trip is saved. Congestion control
	// is RFC 5681's: RFC 1644 specifies no change to slow start.
	CCOption bool
	// Timestamps offers the timestamps option (RFC 7323 section 3); when
	// both ends do, every segment carries it: 10 option bytes padded to
	// 12 (Linux's NOP, NOP, TSopt), so a full segment is MSS + 52 bytes
	// on the wire. RTT is measured per RFC 6298 with Karn's rule; the
	// echo (RFC 7323 section 4's RTTM) times an ACK of new data only when
	// sequence numbers give no sample, as in Linux's tcp_ack_update_rtt:
	// the ACK that ends a repair. Linux offers it by default
	// and, with a 1500-byte MTU, sends 1448-byte payloads: MSS is the
	// payload, so set 1448 for that.
	Timestamps bool
	// SYNTimeout is the retransmission timeout of a SYN or SYN-ACK before
	// back-off; 0 means RFC 6298 section 2.1's initial RTO of 1 s (also
	// Linux's). ns-3's ConnTimeout is 3 s.
	SYNTimeout des.Duration
	// SendBuffer bounds the application's bytes the connection holds,
	// unacknowledged plus unsent (sndbuf.go); 0 is unlimited.
	SendBuffer unit.Bytes
	// SsthreshBasis is the data in flight a congestion response scales
	// (ssthresh.go): RFC 5681's FlightSize (the zero value) or RFC 6675's
	// pipe as ns-3 does.
	SsthreshBasis SsthreshBasis
	// GrowOnRecoveryExit lets the ACK that ends fast recovery also grow
	// the window: cwnd = ssthresh, then the controller's ordinary
	// per-ACK growth, as ns-3 3.37 does (recovery_exit.go). RFC 5681
	// section 3.2 step 6 and RFC 6937 section 3.1 set cwnd = ssthresh
	// on that ACK and grow from the next, the default.
	GrowOnRecoveryExit bool
	// PRRByteCeil rounds PRR's proportional share (RFC 6937 section
	// 3.1, CEIL(prr_delivered * ssthresh / RecoverFS) - prr_out) up in
	// bytes, as ns-3 3.37's TcpPrrRecovery does, and so sends only once
	// a whole segment's share has accrued (prr.go); the default rounds
	// up in segments as Linux does and RFC 6937 section 5's example
	// sends.
	PRRByteCeil bool
	// QuickAck is Linux's quick-ACK mode (net/ipv4/tcp_input.c,
	// tcp_incr_quickack, tcp_enter_quickack_mode): with DelayedACK the
	// receiver still acknowledges each of the first min(rcv_wnd /
	// (2*rcv_mss), TCP_MAX_QUICKACKS = 16) data segments at once, so the
	// sender's slow start is not held back by the delayed-ACK timer, and
	// again after more than an RTO without data (tcp_event_data_recv)
	// and after a duplicate segment (rcv.go). Linux always does; false
	// delays from the first segment.
	QuickAck bool
	// AckFirstSegment acknowledges the first in-order data segment after
	// the connection opens at once, then delays as DelayedACK says: ns-3
	// 3.37's TcpSocketBase sets its delayed-ACK counter m_delAckCount to
	// m_delAckMaxCount as the connection becomes established
	// (ProcessSynSent and ProcessSynRcvd: "Always respond to first data
	// packet to speed up the connection"), so ReceivedData's
	// ++m_delAckCount >= m_delAckMaxCount holds for that segment; any ACK
	// sent first resets the counter (SendEmptyPacket, SendDataPacket).
	// Linux's QuickAck ACKs that segment at once too, and up to 15 more;
	// false, with QuickAck off, delays from the first segment (RFC 1122
	// section 4.2.3.2 asks no more).
	AckFirstSegment bool
	// DSACK makes the receiver report a duplicate segment in the first
	// SACK block of its next ACK (RFC 2883 section 4, Linux's
	// tcp_dsack_set; net.ipv4.tcp_dsack = 1 by default). It needs SACK.
	DSACK bool
	// Undo makes the sender detect congestion responses that were
	// spurious and undo them (undo.go): every retransmission of the
	// episode reported by a DSACK (RFC 3708 section 3) or, with
	// Timestamps, an ACK echoing a timestamp older than the first
	// retransmission (the Eifel detection of RFC 3522, Linux's
	// tcp_packet_delayed) restores cwnd and ssthresh (Linux's
	// tcp_try_undo_recovery, tcp_try_undo_loss, tcp_try_undo_dsack and
	// tcp_undo_cwnd_reduction; the controller's cc.Undoer). Linux always
	// does.
	Undo bool
	// FRTO is the SACK-enhanced F-RTO of RFC 5682 section 3 (Linux's
	// net.ipv4.tcp_frto = 2, the default; tcp_process_loss): after a
	// timeout the first ACK releases new data rather than
	// retransmissions, and when the next ACK reports a segment never
	// retransmitted the timeout was spurious: the sender resumes as
	// before it and undoes the reduction (frto.go). It needs SACK
	// recovery (RecoverySACK or RecoveryPRR with a peer that permits
	// SACK); otherwise it does nothing.
	FRTO bool
	// AdaptiveReordering lets the reordering the sender observes raise
	// the duplicate-ACK threshold (Linux's tp->reordering, from
	// net.ipv4.tcp_reordering = DupThresh up to MaxReordering;
	// tcp_check_sack_reordering) and, under RACK, lets DSACKs widen the
	// reordering window (RFC 8985 section 6.2 step 4, Linux's
	// tcp_rack_update_reo_wnd); reorder.go. Linux always does.
	AdaptiveReordering bool
	// MaxReordering bounds the adaptive threshold in segments; 0 means
	// Linux's net.ipv4.tcp_max_reordering, 300.
	MaxReordering int
	// RTOVarFloor applies MinRTO to the RTO's variance term rather than
	// to the whole: RTO = SRTT + max(4*RTTVAR, MinRTO), as Linux's
	// tcp_rtt_estimator keeps rttvar_us at least tcp_rto_min (rto.go).
	// RFC 6298 section 2.4 bounds the sum, so on a path with a steady
	// RTT above MinRTO the timer runs barely longer than one RTT and a
	// recovery that takes longer times out; Linux's waits SRTT + 200 ms.
	RTOVarFloor bool
	// SkbMarkedLost makes the sender report each segment it marks lost,
	// at the moment it does, to a controller that implements
	// cc.LossMarker (BBRv2): Linux's skb_marked_lost hook, which the
	// v2alpha kernel of github.com/google/bbr calls from
	// tcp_notify_skb_loss_event (net/ipv4/tcp_input.c) for every mark.
	// Off, such a controller learns of losses only from the ACKs that
	// follow (cc.Ack.Lost and the rate sample).
	SkbMarkedLost bool
	// SACKRateSamples makes every ACK that newly SACKs data update the
	// delivered count and give a rate sample, and hands every ACK to a
	// cong_control controller (cc.CongController: BBR, BBRv2), as Linux's
	// tcp_ack does (tcp_rate_skb_delivered from tcp_sacktag_one,
	// tcp_rate_gen, tcp_cong_control). Off, only ACKs that advance SND.UNA
	// count deliveries, take samples and reach the controller.
	SACKRateSamples bool
	// SACKCompression is Linux's SACK compression (net/ipv4/tcp_input.c,
	// __tcp_ack_snd_check; since 4.18, in this form since 5.8): a
	// receiver holding out-of-order data with SACK acknowledges at once
	// only the first TCP_FASTRETRANS_THRESH (3) segments at one RCV.NXT;
	// further ones are answered by one ACK when a timer of min(1 ms,
	// SRTT/20) expires or the net.ipv4.tcp_comp_sack_nr (44)-th is
	// held, whichever comes first (sack_compress.go). Any ACK sent ends
	// the wait. Linux always does; off, every out-of-order segment is
	// acknowledged at once (RFC 5681 section 4.2).
	SACKCompression bool
	// EDTCredit gives a paced sender the two rules of Linux's
	// tcp_update_skb_after_send (net/ipv4/tcp_output.c, since 4.20): no
	// pacing until 10 segments have been sent, and an skb sent after its
	// departure time had passed shortens its own gap by that delay, up to
	// half (edt.go). Off, every skb waits its full length at the pacing
	// rate from the first.
	EDTCredit bool
}

func (c *Config) fill() error {
	if c.MSS <= 0 {
		return fmt.Errorf("tcp: mss %d must be positive", c.MSS)
	}
	if c.RcvBuf <= 0 || c.SndBuf <= 0 {
		return fmt.Errorf("tcp: buffers must be positive (rcv %d, snd %d)", c.RcvBuf, c.SndBuf)
	}
	if c.SendBuffer < 0 {
		return fmt.Errorf("tcp: send buffer %d must not be negative (0 is unlimited)", c.SendBuffer)
	}
	if c.SsthreshBasis > SsthreshPipe {
		return fmt.Errorf("tcp: unknown ssthresh basis %d", c.SsthreshBasis)
	}
	if c.DelAckTimeout == 0 {
		c.DelAckTimeout = 200 * des.Millisecond
	}
	if c.MinRTO == 0 {
		c.MinRTO = DefaultMinRTO
	}
	if c.MaxRTO == 0 {
		c.MaxRTO = DefaultMaxRTO
	}
	if c.Granularity == 0 {
		c.Granularity = des.Millisecond
	}
	if c.DupThresh == 0 {
		c.DupThresh = 3
	}
	if c.MaxReordering == 0 {
		c.MaxReordering = DefaultMaxReordering
	}
	if c.MaxReordering < c.DupThresh {
		return fmt.Errorf("tcp: max reordering %d below the duplicate-ACK threshold %d", c.MaxReordering, c.DupThresh)
	}
	return nil
}

// Port attaches an endpoint to the network: it supplies pooled packets and
// takes the ones the endpoint sends. The endpoint owns every packet it is
// given in Receive and frees it.
type Port interface {
	NewPacket() *netsim.Packet
	Send(p *netsim.Packet)
	Free(p *netsim.Packet)
}

// App is the application on an endpoint. Its methods are called from the
// event loop.
type App interface {
	// Established is called when the connection opens.
	Established(now des.Time)
	// Delivered hands the application n in-order bytes at stream offset
	// off (bytes before this delivery).
	Delivered(now des.Time, off, n unit.Bytes)
	// PeerClosed is called when the peer's FIN arrives in order.
	PeerClosed(now des.Time)
	// Done is called when everything written, FIN included, is acknowledged.
	Done(now des.Time)
}

type state uint8

const (
	stateClosed state = iota
	stateListen
	stateSynSent
	stateSynRcvd
	stateEstablished
)

// Timer kinds for Handle.
const (
	kindRTO = iota + 1
	kindDelAck
	kindPace
	kindRACK
	kindCompSACK
)

// Conn is one TCP endpoint. Both directions work; a workload usually
// sends data one way.
type Conn struct {
	cfg  Config
	s    *des.Scheduler
	port Port
	app  App
	flow netsim.FlowID
	src  netsim.NodeID
	dst  netsim.NodeID

	state state
	snd   sender
	rcv   receiver

	// Negotiated options (RFC 7323 section 2.2, RFC 2018 section 2).
	sndShift uint8 // shift applied to windows the peer advertises
	rcvShift uint8 // shift applied to windows we advertise
	sackOK   bool
	wsOK     bool
	tsOK     bool // both ends send timestamps (RFC 7323 section 3.2)
	active   bool // this end opened the connection (Connect)
	tsRecent uint32

	host *host // Linux host model (host.go), nil: none

	// app writes waiting for room in the send buffer (sndbuf.go).
	blocked writeQueue

	Stats Stats
}

// Stats counts what an endpoint did.
type Stats struct {
	SegsSent       int64      // every packet sent, ACKs included
	DataSegsSent   int64      // packets with payload, retransmissions included
	BytesSent      unit.Bytes // payload bytes sent, retransmissions included
	RetransSegs    int64
	RetransBytes   unit.Bytes
	FastRecoveries int64 // episodes of fast recovery entered
	RTOs           int64 // retransmission timer expiries
	// FirstRTOs counts the expiries that start a sequence of timeouts
	// (no back-off yet), and FirstRTOTime sums how long the timer had run
	// at each: their mean is the T0 of Padhye et al. 1998, "the
	// duration of the first timeout in a sequence".
	FirstRTOs    int64
	FirstRTOTime des.Duration
	LostRetrans  int64 // retransmissions RACK found lost (RFC 8985)
	RACKLost     int64 // first transmissions RACK found lost (LossRACKTLP)
	TLPProbes    int64 // tail loss probes sent (RFC 8985 section 7.3)
	// TLPRecoveries counts losses a probe repaired on its own, each
	// answered by one congestion response (RFC 8985 section 7.4).
	TLPRecoveries int64
	RTTSamples    int64
	RTTSum        des.Duration // for the mean
	RTTMax        des.Duration
	AcksSent      int64
	DupAcksRecv   int64
	// DSACKsRecv counts the ACKs whose first SACK block reports a
	// duplicate (RFC 2883), and Undos the congestion responses undone
	// as spurious (Config.Undo, Config.FRTO); SpuriousRTOs counts the
	// timeouts among them that F-RTO found spurious (Linux's
	// TCPSpuriousRTOs).
	DSACKsRecv   int64
	Undos        int64
	SpuriousRTOs int64
}

// New returns an endpoint. isn is its initial sequence number (RFC 9293
// section 3.4.1; the caller draws it from the endpoint's random stream).
func New(s *des.Scheduler, cfg Config, ctrl cc.Controller, port Port, app App, flow netsim.FlowID, src, dst netsim.NodeID, isn uint32) (*Conn, error) {
	c := new(Conn)
	if err := c.build(s, cfg, ctrl, port, app, flow, src, dst, isn); err != nil {
		return nil, err
	}
	return c, nil
}

// Renew is New for an endpoint its owner is done with, rebuilt in the
// memory it had, rings and scoreboards included, so that a workload of
// many short connections does not allocate (and collect) each anew. c
// must be detached from its node, and its timers, stopped here, must not
// be in use elsewhere; a connection with a Linux host model (SetHost),
// whose events are its own, is not reused: Renew returns a new one. The
// result is the connection New returns, nothing of c's past left
// (TestRenewMatchesNew).
func Renew(c *Conn, s *des.Scheduler, cfg Config, ctrl cc.Controller, port Port, app App, flow netsim.FlowID, src, dst netsim.NodeID, isn uint32) (*Conn, error) {
	if c.host != nil {
		return New(s, cfg, ctrl, port, app, flow, src, dst, isn)
	}
	if err := c.build(s, cfg, ctrl, port, app, flow, src, dst, isn); err != nil {
		return nil, err
	}
	return c, nil
}

// build makes c the endpoint New describes, keeping what memory c has
// (a zero Conn has none): the send ring, the two scoreboards, and the
// timers, whose queue entries point into c; they are stopped, and Init
// takes a stopped one's entry out of the queue.
func (c *Conn) build(s *des.Scheduler, cfg Config, ctrl cc.Controller, port Port, app App, flow netsim.FlowID, src, dst netsim.NodeID, isn uint32) error {
	if err := cfg.fill(); err != nil {
		return err
	}
	c.snd.rtoTimer.Stop()
	c.snd.paceTimer.Stop()
	c.snd.rack.timer.Stop()
	c.rcv.delack.Stop()
	c.rcv.compTimer.Stop()
	rto, pace, rack, delack, comp := c.snd.rtoTimer, c.snd.paceTimer, c.snd.rack.timer, c.rcv.delack, c.rcv.compTimer
	recs, sb, ooo := c.snd.recs.buf, c.snd.sb, c.rcv.ooo
	*c = Conn{cfg: cfg, s: s, port: port, app: app, flow: flow, src: src, dst: dst}
	c.snd.rtoTimer, c.snd.paceTimer, c.snd.rack.timer, c.rcv.delack, c.rcv.compTimer = rto, pace, rack, delack, comp
	c.snd.recs.buf = recs
	for _, b := range []*Scoreboard{sb, ooo} {
		if b != nil {
			b.Reset()
		}
	}
	c.snd.sb, c.rcv.ooo = sb, ooo
	c.snd.init(c, ctrl, seqnum.Value(isn))
	c.rcv.init(c)
	return nil
}

// Handle implements des.Handler for the endpoint's timers.
func (c *Conn) Handle(now des.Time, kind int, arg uint64) {
	switch kind {
	case kindRTO:
		c.snd.onTimer(now)
	case kindDelAck:
		c.rcv.sendAck(now)
	case kindPace:
		c.snd.output(now)
		c.snd.tlpSchedule(now)
	case kindRACK:
		c.snd.rackTimeout(now)
	case kindCompSACK:
		c.rcv.compressedAckDue(now)
	}
}

// Listen makes the endpoint accept one connection.
func (c *Conn) Listen() {
	c.state = stateListen
	if c.cfg.NoHandshake {
		c.openWithoutHandshake()
	}
}

// Connect opens the connection actively: it sends a SYN (RFC 9293 section
// 3.5), or with NoHandshake starts established.
func (c *Conn) Connect(now des.Time) {
	c.active = true
	if c.cfg.NoHandshake {
		c.openWithoutHandshake()
		c.app.Established(now)
		c.snd.output(now)
		c.snd.tlpSchedule(now)
		return
	}
	c.state = stateSynSent
	c.snd.sendSyn(now, false)
}

// openWithoutHandshake assumes both ends offered the same options and
// agreed on ISNs 0 (both ends must be configured alike).
func (c *Conn) openWithoutHandshake() {
	c.state = stateEstablished
	c.rcv.irs = 0
	c.rcv.nxt = 1
	c.rcv.nxtSet = true
	if c.cfg.WindowScaling {
		c.rcvShift = wscaleFor(c.cfg.RcvBuf)
		c.sndShift = c.rcvShift
		c.wsOK = true
	}
	c.sackOK = c.cfg.SACK
	c.tsOK = c.cfg.Timestamps
	c.snd.established(0, c.cfg.MSS, false)
	c.snd.una, c.snd.nxt, c.snd.max = 1, 1, 1
	c.snd.iss = 0
	c.snd.wnd = min(c.cfg.RcvBuf, c.windowCap())
	c.rcv.opened()
}

// Write queues n more bytes for sending in one write (a bulk source
// writes once with a huge n). The send buffer (Config.SendBuffer) takes
// what fits; the rest waits, as a blocking send(2) does, and enters as
// ACKs free room. SndBuf limits how much is in flight.
func (c *Conn) Write(now des.Time, n unit.Bytes) { c.WritePieces(now, n, 0) }

// Close queues a FIN after the data written so far (and any still waiting
// for room in the send buffer).
func (c *Conn) Close(now des.Time) {
	c.snd.finQueued = true
	if c.state == stateEstablished {
		c.snd.output(now)
		c.snd.tlpSchedule(now)
	}
}

// Established reports whether the handshake has completed.
func (c *Conn) Established() bool { return c.state == stateEstablished }

// CC returns the sender's congestion state (cwnd, ssthresh) for probes.
func (c *Conn) CC() cc.State { return c.snd.cc }

// SRTT returns the smoothed RTT (0 before the first sample).
func (c *Conn) SRTT() des.Duration { return c.snd.rtt.srtt }

// RTO returns the current retransmission timeout including back-off.
func (c *Conn) RTO() des.Duration { return c.snd.rtt.current() }

// Acked returns the payload bytes the peer has acknowledged.
func (c *Conn) Acked() unit.Bytes { return c.snd.ackedBytes }

// Delivered returns the in-order payload bytes handed to the application.
func (c *Conn) Delivered() unit.Bytes { return c.rcv.delivered }

// InFlight returns the bytes sent and not yet cumulatively acknowledged.
func (c *Conn) InFlight() unit.Bytes { return c.snd.una.Size(c.snd.max).Bytes() }

// windowCap is the largest window we can advertise: 65535 bytes without
// scaling (RFC 9293 section 3.1), 65535 << shift with it (RFC 7323 2.2).
func (c *Conn) windowCap() unit.Bytes { return 65535 << c.rcvShift }

// wscaleFor returns the smallest shift that lets buf be advertised, at
// most 14 (RFC 7323 section 2.3).
func wscaleFor(buf unit.Bytes) uint8 {
	var s uint8
	for s < 14 && buf > 65535<<s {
		s++
	}
	return s
}

// Receive processes a packet addressed to this endpoint and frees it.
func (c *Conn) Receive(now des.Time, p *netsim.Packet) {
	c.input(now, p)
	c.port.Free(p)
}

func (c *Conn) input(now des.Time, p *netsim.Packet) {
	if p.HasTS {
		// RFC 7323 section 4.3 keeps TS.Recent from the segment that
		// advances the left window edge; segments arrive in order of
		// sending here but for losses, so the latest value stands in.
		c.tsRecent = p.TSval
	}
	switch c.state {
	case stateClosed:
		return
	case stateListen:
		// RFC 9293 section 3.10.7.2: a SYN in LISTEN.
		if p.Flags&netsim.SYN == 0 {
			return
		}
		c.rcv.irs = seqnum.Value(p.Seq)
		c.rcv.nxt = c.rcv.irs + 1
		c.rcv.nxtSet = true
		c.negotiate(p)
		c.state = stateSynRcvd
		c.snd.sendSyn(now, false)
		return
	case stateSynSent:
		// RFC 9293 section 3.10.7.3: a SYN-ACK acknowledging our SYN.
		if p.Flags&(netsim.SYN|netsim.ACK) != netsim.SYN|netsim.ACK || seqnum.Value(p.Ack) != c.snd.iss+1 {
			return
		}
		c.rcv.irs = seqnum.Value(p.Seq)
		c.rcv.nxt = c.rcv.irs + 1
		c.rcv.nxtSet = true
		c.negotiate(p)
		c.state = stateEstablished
		c.snd.synAcked(now, p)
		// The ACK of the SYN-ACK rides on the first data segment if
		// there is one to send (RFC 9293 section 3.10.7.3), also when
		// the application's first writes sent it.
		sent := c.Stats.SegsSent
		c.app.Established(now)
		c.snd.output(now)
		c.snd.tlpSchedule(now)
		if c.Stats.SegsSent == sent {
			c.rcv.ackNow(now)
		}
		c.rcv.opened()
		return
	case stateSynRcvd:
		if p.Flags&netsim.SYN != 0 {
			// Our SYN-ACK was lost and the SYN retransmitted: answer again.
			c.snd.sendSyn(now, true)
			return
		}
		if p.Flags&netsim.ACK == 0 || seqnum.Value(p.Ack) != c.snd.iss+1 {
			return
		}
		c.state = stateEstablished
		c.snd.synAcked(now, p)
		c.rcv.opened()
		c.app.Established(now)
		// fall through: the ACK may carry data.
	}
	if p.Flags&netsim.SYN != 0 {
		// A retransmitted SYN-ACK: our ACK of it was lost. Re-ACK.
		c.rcv.ackNow(now)
		return
	}
	if p.Flags&netsim.ACK != 0 {
		c.snd.onAck(now, p)
	}
	if p.Payload > 0 || p.Flags&netsim.FIN != 0 {
		c.rcv.onData(now, p)
	}
}

// negotiate records the peer's options from its SYN or SYN-ACK: window
// scaling only if both ends send the option (RFC 7323 section 2.2), SACK
// only if both permit it (RFC 2018 section 2), and the peer's MSS bounds
// ours (RFC 9293 section 3.7.1; 536 if absent).
func (c *Conn) negotiate(p *netsim.Packet) {
	if c.cfg.WindowScaling && p.WScale >= 0 {
		c.wsOK = true
		c.sndShift = uint8(min(p.WScale, 14)) // RFC 7323 2.3: larger values are treated as 14
		c.rcvShift = wscaleFor(c.cfg.RcvBuf)
	}
	c.sackOK = c.cfg.SACK && p.SACKPermitted
	c.tsOK = c.cfg.Timestamps && p.HasTS
	peerMSS := unit.Bytes(536) // RFC 9293 section 3.7.1's default
	if p.MSS != 0 {
		peerMSS = unit.Bytes(p.MSS)
	}
	c.snd.peerMSS = peerMSS
}

// newPacket returns a packet with the addressing and the ACK fields of our
// receive side filled in (every segment after the SYN carries an ACK,
// RFC 9293 section 3.10.7.4).
func (c *Conn) newPacket() *netsim.Packet {
	p := c.port.NewPacket()
	p.Flow, p.Src, p.Dst = c.flow, c.src, c.dst
	if c.tsOK {
		c.stamp(p)
	}
	if c.rcv.nxtSet {
		p.Flags |= netsim.ACK
		p.Ack = uint32(c.rcv.nxt)
		p.Window = uint32(c.rcv.advertised() >> c.rcvShift)
	}
	return p
}

// stamp fills the timestamps option: TSval from a 1 ms clock (Linux's
// tick), TSecr echoing the peer's latest (RFC 7323 section 3.2).
func (c *Conn) stamp(p *netsim.Packet) {
	p.HasTS = true
	p.TSval = uint32(c.s.Now().Sub(0) / des.Millisecond) // a 1 ms clock
	p.TSecr = c.tsRecent
}

// transmit sets the wire size and hands p to the network.
func (c *Conn) transmit(p *netsim.Packet) {
	p.Size = HeaderBytes + optionBytes(p) + p.Payload
	if c.cfg.CCOption {
		p.Size += ccOptionBytes
	}
	c.Stats.SegsSent++
	if c.host != nil {
		c.host.onTransmit(p)
	}
	c.port.Send(p)
}

// Flow returns the connection's flow id.
func (c *Conn) Flow() netsim.FlowID { return c.flow }
