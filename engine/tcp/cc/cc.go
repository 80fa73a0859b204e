package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"
	"math"
	"strings"

	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// State is the part of a TCP sender's state that congestion control owns.
// All sizes are bytes.
type State struct {
	Cwnd     unit.Bytes // congestion window (RFC 5681 section 2)
	Ssthresh unit.Bytes // slow-start threshold (RFC 5681 section 3.1)
	SMSS     unit.Bytes // sender maximum segment size
	// PacingRate is the rate at which the sender spaces its transmissions
	// (of payload bytes); 0 sends as fast as the windows allow.
	PacingRate unit.BitRate
	// Pipe is the sender's estimate of the bytes in the network, which it
	// refreshes before every hook and controllers only read: RFC 6675's
	// SetPipe under SACK recovery (SACKed and lost bytes excluded,
	// retransmissions included; Linux's tcp_packets_in_flight), FlightSize
	// otherwise.
	Pipe unit.Bytes
	// AppLimited, when a controller sets it, marks what the sender sends
	// next application-limited until the connection has delivered this
	// many bytes: the delivery-rate draft's C.app_limited, which BBR sets
	// in PROBE_RTT so that the low rates it causes are not taken for the
	// path's. The sender takes it after the hook and clears it.
	AppLimited unit.Bytes
	// Delivered, DeliveredAt and Lost are the connection's delivery and
	// loss counters in bytes (Linux's tp->delivered, tp->delivered_mstamp
	// and tp->lost): what it has delivered, cumulatively acknowledged or
	// SACKed, when it last delivered something, and what it has marked
	// lost, a timeout's marks included. The sender refreshes them before
	// every hook, as Pipe, and controllers only read them.
	Delivered   unit.Bytes
	DeliveredAt des.Time
	Lost        unit.Bytes
	// InitSRTT is the sender's smoothed RTT when it calls Init: the
	// handshake's sample (RFC 6298 section 2.2), 0 when the SYN was
	// retransmitted (Karn's rule) or the connection opened without a
	// handshake. Linux initialises the congestion controller after the
	// SYN-ACK's RTT sample (tcp_rcv_synsent_state_process: tcp_ack, then
	// tcp_finish_connect, tcp_init_transfer, tcp_init_congestion_control),
	// so that BBR's bbr_init already paces from it
	// (bbr_init_pacing_rate_from_rtt). Controllers only read it.
	InitSRTT des.Duration
}

// InSlowStart reports whether cwnd < ssthresh (RFC 5681 section 3.1).
func (s *State) InSlowStart() bool { return s.Cwnd < s.Ssthresh }

// RateSample is one delivery-rate sample (draft-cheng-iccrg-delivery-rate-estimation
// section 3.3): Delivered bytes were delivered over Interval.
type RateSample struct {
	Delivered      unit.Bytes   // bytes delivered in the sample interval
	Interval       des.Duration // max(send elapsed, ack elapsed)
	PriorDelivered unit.Bytes   // total delivered when the sampled packet was sent
	AppLimited     bool         // the sample may underestimate the path's rate
	// Lost is the bytes the sender marked lost between sending the
	// sampled packet and this ACK, and TxInFlight the bytes in flight
	// (the pipe: SACKed and lost bytes out, retransmissions in) just
	// after the sampled packet was sent, itself included: BBRv2's loss
	// rate is Lost/TxInFlight over the sample's lifetime (the rs->lost
	// and rs->tx_in_flight of the v2alpha tcp_rate.c).
	Lost       unit.Bytes
	TxInFlight unit.Bytes
}

// Rate returns the delivery rate, or 0 if the sample is empty.
func (r RateSample) Rate() unit.BitRate {
	if r.Interval <= 0 || r.Delivered <= 0 {
		return 0
	}
	return unit.RateOf(r.Delivered, r.Interval)
}

// Ack describes one acknowledgement that advanced the sender's state.
type Ack struct {
	Now des.Time
	// Acked is the number of bytes this ACK newly acknowledged cumulatively
	// (RFC 5681's N, RFC 3465's bytes acked).
	Acked unit.Bytes
	// Inflight is the FlightSize before this ACK (RFC 5681 section 2).
	Inflight unit.Bytes
	// PriorPipe is State.Pipe before this ACK (Linux's prior_in_flight);
	// State.Pipe holds the value after it.
	PriorPipe unit.Bytes
	// PacingWait is how long after Now the sender's next departure is
	// due, 0 when it may send at once or does not pace: Linux's
	// max(tcp_wstamp_ns, now) - now, the earliest departure time (EDT)
	// of the next skb that tcp_bbr.c and tcp_bbr2.c read in
	// bbr_packets_in_net_at_edt.
	PacingWait des.Duration
	// RTT is the sample this ACK gives, or 0 when it gives none (Karn's
	// rule, RFC 6298 section 3: no sample from a retransmission).
	RTT    des.Duration
	MinRTT des.Duration // smallest RTT sample so far, 0 before the first
	SRTT   des.Duration // smoothed RTT (RFC 6298), 0 before the first sample
	Rate   RateSample
	// Delivered is the connection's total delivered bytes after this ACK
	// (the delivery-rate draft's C.delivered); a round trip ends when an
	// ACK's Rate.PriorDelivered reaches the Delivered of the ACK that
	// started it (BBR's round counting). Rate is valid when
	// Rate.Delivered > 0.
	Delivered unit.Bytes
	// Lost is the bytes marked lost since the previous ACK given to
	// OnAck, less those a timer marked (a timeout's, RACK's reordering
	// timer's): Linux's rs->losses counts the marks of one tcp_ack call.
	Lost unit.Bytes
	// InRecovery is set while the sender is in fast recovery; the recovery
	// algorithm then owns cwnd, and window-based controllers ignore the ACK.
	InRecovery bool
	// InLoss is set while the sender recovers from a retransmission
	// timeout: from the timeout until everything then outstanding is
	// cumulatively acknowledged (Linux's CA_Loss state). The controller
	// owns cwnd then (slow start from the one segment of RFC 5681 section
	// 3.1); the first ACK with InLoss false ends the timeout's recovery.
	InLoss bool
	// CwndLimited is Linux's tp->is_cwnd_limited: whether cwnd held the
	// sender back in the current window, as tcp_cwnd_validate
	// (tcp_output.c) records it after each sending pass of a Linux host
	// model (tcp.Host.CwndLimited); without that record, whether the
	// pipe before this ACK left less than a segment of cwnd.
	CwndLimited bool
	// GrowthGated is set when the sender's Linux host model keeps
	// tcp_cwnd_validate's record (tcp.Host.CwndLimited) and the sender is
	// not recovering a loss: Linux's loss-based cong_avoid hooks then grow
	// cwnd, and advance their own counters, only while
	// tcp_is_cwnd_limited holds (IsCwndLimited). MaxOut is the record's
	// largest flight of the current window (tp->max_packets_out, in
	// bytes).
	GrowthGated bool
	MaxOut      unit.Bytes
}

// IsCwndLimited is Linux's tcp_is_cwnd_limited (include/net/tcp.h), the
// first test of tcp_reno_cong_avoid, bictcp_cong_avoid and
// cubictcp_cong_avoid ("if (!tcp_is_cwnd_limited(sk)) return;"): in slow
// start, whether cwnd is below twice the window's largest flight; in
// congestion avoidance, the window's record (CwndLimited). Without a
// gating host model (GrowthGated false) it is true: such a sender grows
// cwnd on every ACK.
func (a *Ack) IsCwndLimited(s *State) bool {
	if !a.GrowthGated {
		return true
	}
	if s.InSlowStart() {
		return s.Cwnd < 2*a.MaxOut
	}
	return a.CwndLimited
}

// Controller is a congestion-control algorithm. Its hooks are called by the
// sender in virtual-time order.
type Controller interface {
	// Name returns the algorithm's name as used in specs ("newreno").
	Name() string
	// Init sets the initial ssthresh and any pacing rate; the sender has set
	// Cwnd to the initial window and SMSS before calling it.
	Init(s *State)
	// OnPacketSent is called for every data segment sent, retransmissions
	// included; inflight counts it.
	OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool)
	// OnAck is called for every ACK that acknowledges new data.
	OnAck(s *State, a *Ack)
	// OnCongestionEvent is called once when the sender detects loss by
	// duplicate ACKs or SACK and enters fast recovery (RFC 5681 section 3.2
	// step 2, RFC 6675 section 5 step 4.2). It sets Ssthresh and Cwnd.
	OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes)
	// OnExitRecovery is called when a full ACK ends fast recovery, after the
	// recovery algorithm has set Cwnd.
	OnExitRecovery(now des.Time, s *State)
	// OnRTO is called when the retransmission timer expires (RFC 5681
	// section 3.1, RFC 6298 section 5.5); repeated is true if the segment
	// had already been retransmitted by the timer.
	OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool)
}

// Undoer is implemented by a controller with its own answer to a
// congestion response found spurious (Linux's undo_cwnd hook of struct
// tcp_congestion_ops, called by tcp_undo_cwnd_reduction in
// net/ipv4/tcp_input.c). A controller without it gets Reno's
// (UndoCwnd).
type Undoer interface {
	// UndoCwnd returns the window to restore; priorCwnd is cwnd just
	// before the reduction being undone. The sender then raises
	// ssthresh back to its value before the reduction if that is larger.
	UndoCwnd(s *State, priorCwnd unit.Bytes) unit.Bytes
}

// UndoCwnd returns the window c restores when the sender undoes a
// spurious reduction: its Undoer hook, or else Linux's
// tcp_reno_undo_cwnd, max(cwnd, prior cwnd), which CUBIC and BIC use too
// (tcp_cubic.c and tcp_bic.c set .undo_cwnd = tcp_reno_undo_cwnd).
func UndoCwnd(c Controller, s *State, priorCwnd unit.Bytes) unit.Bytes {
	if u, ok := c.(Undoer); ok {
		return u.UndoCwnd(s, priorCwnd)
	}
	return max(s.Cwnd, priorCwnd)
}

// CongController is implemented by a controller that sets cwnd and the
// pacing rate itself on every ACK, in recovery too: Linux's cong_control
// hook of struct tcp_congestion_ops (bbr_main in tcp_bbr.c, bbr2_main in
// the v2alpha tcp_bbr2.c). For such a controller tcp_cong_control() in
// net/ipv4/tcp_input.c returns right after the hook, so PRR's
// tcp_cwnd_reduction() never runs, and tcp_end_cwnd_reduction() returns
// early, leaving cwnd where the controller put it.
type CongController interface {
	// CongControl marks the controller; it has no effect of its own.
	CongControl()
}

// LostSegment describes one segment at the moment the sender marks it
// lost: what Linux's skb_marked_lost hook of struct tcp_congestion_ops
// reads from the skb's control block (TCP_SKB_CB(skb)->tx, recorded at
// its transmission) and from the connection. All sizes are bytes.
type LostSegment struct {
	// Bytes is the segment's payload (tcp_skb_pcount's share).
	Bytes unit.Bytes
	// TxInFlight is the bytes in flight just after the segment was sent,
	// itself included (scb->tx.in_flight).
	TxInFlight unit.Bytes
	// Lost is the bytes marked lost since the segment was sent, itself
	// included (tp->lost - scb->tx.lost: the stack counts the segment
	// before it calls the hook, tcp_notify_skb_loss_event).
	Lost unit.Bytes
	// AppLimited: the segment was sent application-limited
	// (scb->tx.is_app_limited).
	AppLimited bool
	// Delivered is the connection's delivered bytes now (tp->delivered).
	Delivered unit.Bytes
}

// LossMarker is implemented by a controller that reacts to each segment
// the moment the sender marks it lost, not only to the ACK that follows:
// Linux's skb_marked_lost hook (struct tcp_congestion_ops in the v2alpha
// branch of github.com/google/bbr, include/net/tcp.h), which
// tcp_notify_skb_loss_event in net/ipv4/tcp_input.c calls from
// tcp_mark_skb_lost, for RACK's marks (tcp_rack_detect_loss), a
// timeout's (tcp_timeout_mark_lost) and the duplicate-ACK rules'
// (tcp_mark_head_lost). BBRv2 sets it (bbr2_skb_marked_lost). The sender
// calls it only when its configuration asks (tcp.Config.SkbMarkedLost).
type LossMarker interface {
	// OnSegmentLost is called once per segment marked lost, in marking
	// order, with the connection's lost count already including it.
	OnSegmentLost(now des.Time, s *State, seg LostSegment)
}

// SetsOwnCwnd reports whether c sets cwnd itself in recovery
// (CongController), so that the sender must not run PRR over it.
func SetsOwnCwnd(c Controller) bool {
	_, ok := c.(CongController)
	return ok
}

// ABC is appropriate byte counting (RFC 3465) as a controller runs it:
// ABCOff counts ACKs (RFC 5681 section 3.1: cwnd += min(N, SMSS) per ACK
// in slow start, equation (3) in congestion avoidance); a positive value
// counts the bytes acknowledged (section 2.1 in congestion avoidance)
// and lets one ACK add at most that many segments in slow start, the
// limit L of section 2.2.
type ABC int

const (
	// ABCOff counts ACKs, not bytes.
	ABCOff ABC = 0
	// ABCL2 is RFC 3465 section 2.2's L = 2*SMSS.
	ABCL2 ABC = 2
	// ABCUnlimited lets an ACK add every segment it acknowledges, as
	// Linux's tcp_slow_start (net/ipv4/tcp_cong.c) does since 3.8
	// dropped the tcp_abc switch: cwnd = min(cwnd + acked, ssthresh),
	// acked being all the segments the ACK covers, so a stretch ACK
	// (GRO, ACK loss, a delayed ACK) grows cwnd by all of them.
	ABCUnlimited ABC = math.MaxInt32
)

// slowStartStep is what one ACK acknowledging acked bytes adds to cwnd
// in slow start: min(N, SMSS) without byte counting (RFC 5681 equation
// (2)), min(N, L*SMSS) with it (RFC 3465 section 2.2).
func (a ABC) slowStartStep(s *State, acked unit.Bytes) unit.Bytes {
	if a <= ABCOff {
		return min(acked, s.SMSS)
	}
	return min(acked, unit.Bytes(a)*s.SMSS)
}

// Options configures the controllers of this package.
type Options struct {
	// ABC is how the controllers count what an ACK acknowledges: per
	// ACK (ABCOff), or by byte counting with a limit L in slow start.
	ABC ABC
	// HyStart enables CUBIC's slow-start exit: Linux's HyStart
	// (tcp_cubic.c, LinuxHyStart) unless HyStartVariant says otherwise.
	HyStart bool
	// HyStartVariant chooses which HyStart runs when HyStart is set:
	// HyStartLinux (also the zero value) or HyStartRFC9406.
	HyStartVariant HyStartVariant
	// CubicVariant chooses CUBIC's window arithmetic: CubicLinuxVariant (also
	// the zero value), tcp_cubic.c's, or CubicRFC9438.
	CubicVariant CubicVariant
	// Seed seeds a controller's own random stream (BBR's random start of
	// the gain cycle); the stream is rand.NewPCG(Seed, streamCC).
	Seed uint64
}

// HyStartVariant names a slow-start exit for CUBIC.
type HyStartVariant string

// The slow-start exits of CUBIC.
const (
	// HyStartOff is standard slow start (RFC 5681) until a loss.
	HyStartOff HyStartVariant = "off"
	// HyStartLinux is Linux's HyStart of tcp_cubic.c (LinuxHyStart),
	// what a Linux host runs by default.
	HyStartLinux HyStartVariant = "linux"
	// HyStartRFC9406 is HyStart++ (RFC 9406, HyStart), which Linux does
	// not implement.
	HyStartRFC9406 HyStartVariant = "rfc9406"
)

// CubicVariant names CUBIC's congestion-avoidance arithmetic.
type CubicVariant string

// The variants of CUBIC.
const (
	// CubicLinuxVariant is tcp_cubic.c of Linux 5.13 (CubicLinux).
	CubicLinuxVariant CubicVariant = "linux"
	// CubicRFC9438 is RFC 9438 as written (Cubic).
	CubicRFC9438 CubicVariant = "rfc9438"
)

// Names lists the algorithms New accepts.
func Names() []string {
	return []string{"bbr", "bbr2", "bic", "cubic", "highspeed", "htcp", "hybla", "newreno", "reno", "scalable", "scalingup", "vegas", "westwood"}
}

// New returns a controller by name.
func New(name string, o Options) (Controller, error) {
	switch name {
	case "reno":
		return &Reno{name: "reno", abc: o.ABC}, nil
	case "newreno":
		return &Reno{name: "newreno", abc: o.ABC}, nil
	case "cubic":
		v := HyStartOff
		if o.HyStart {
			v = HyStartLinux
			if o.HyStartVariant == HyStartRFC9406 {
				v = HyStartRFC9406
			}
		}
		if o.CubicVariant == CubicRFC9438 {
			return NewCubicHyStart(v, o.ABC), nil
		}
		return NewCubicLinux(v, o.ABC), nil
	case "bic":
		return NewBIC(o.ABC), nil
	case "highspeed":
		return NewHighSpeed(o.ABC), nil
	case "scalable":
		return NewScalable(o.ABC), nil
	case "htcp":
		return NewHTCP(true, o.ABC), nil
	case "hybla":
		return NewHybla(o.ABC), nil
	case "westwood":
		return NewWestwood(o.ABC), nil
	case "scalingup":
		return NewScalingUp(SupLimit), nil
	case "vegas":
		return NewVegas(VegasAlpha, VegasBeta, VegasGamma)
	case "bbr":
		return NewBBR(o.Seed), nil
	case "bbr2":
		return NewBBR2(o.Seed), nil
	}
	return nil, fmt.Errorf("cc: unknown congestion control %q (want one of %s)", name, strings.Join(Names(), ", "))
}
