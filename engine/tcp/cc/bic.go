package cc

import (
	"github.com/crosslink-sim/crosslink/engine/des"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// BIC constants, as net/ipv4/tcp_bic.c of Linux 5.13 sets them (the
// module parameters' defaults), which follow Xu, Harfoush and Rhee,
// "Binary Increase Congestion Control for Fast, Long Distance Networks",
// INFOCOM 2004.
const (
	bicB          = 4    // BICTCP_B: each RTT the search covers 1/B of the distance to W_max
	bicMaxInc     = 16   // max_increment, S_max in the paper, segments per RTT
	bicLowWindow  = 14   // low_window: at or below it BIC is Reno
	bicBetaScale  = 1024 // BICTCP_BETA_SCALE
	bicBetaInt    = 819  // beta = 819/1024: multiplicative decrease to 0.8
	bicSmoothPart = 20   // smooth_part: growth near W_max is B/smooth_part per RTT
	// bicNoLossCnt is tcp_bic.c's floor on growth before any loss ("if
	// in slow start or link utilization is very low ... increase cwnd 5%
	// per RTT"): cnt at most 20.
	bicNoLossCnt = 20
	// ACK_RATIO_SHIFT: delayed_ack holds packets per ACK << 4.
	bicAckRatioShift = 4
	// bicUpdateGap is HZ/32 in bictcp_update: with cwnd unchanged, cnt is
	// recomputed at most every 31 jiffies (HZ = 1000).
	bicUpdateGap = 31 * des.Millisecond
)

// BIC is Binary Increase Congestion control as Linux's tcp_bic.c runs it.
// After a loss at window W_max (last_max_cwnd) the window drops to
// beta*W_max and then binary-searches for the available window: each RTT
// it covers a 1/B of the distance to W_max, by at most S_max segments
// (additive increase when far below) and at least B/smooth_part of a
// segment near W_max; above W_max it probes slowly at first and then
// faster ("max probing"), again capped at S_max per RTT. With fast
// convergence, a loss below the previous W_max lowers W_max to
// (1+beta)/2 of the window. At or below low_window BIC is Reno.
//
// The arithmetic is the kernel's: windows in whole segments, cnt by
// integer division (bictcp_update), scaled by the measured packets per
// ACK (delayed_ack, bictcp_acked); bictcp_cong_avoid hands
// tcp_cong_avoid_ai the segments each ACK covers, and slow start
// (tcp_slow_start up to ssthresh) passes on the segments past ssthresh,
// as Linux does since 5.7 ("tcp: fix stretch ACK bugs in BIC"; before,
// one credit per ACK, whatever it covered, and the excess dropped). The
// delayed_ack scaling stayed: near 2 packets per ACK (its initial value,
// and where GRO and delayed ACKs keep it) cnt is halved, so BIC grows
// about twice the paper's increment per RTT, and at or below low_window
// (no scaling there) one segment per RTT, as Reno. A timeout forgets
// W_max (bictcp_state on TCP_CA_Loss).
type BIC struct {
	abc ABC
	ai  linuxAI
	// cnt is ca->cnt: acknowledged segments per segment of growth.
	cnt uint32
	// lastMax is W_max (last_max_cwnd) in segments, 0 before any loss
	// and after a timeout.
	lastMax uint32
	// lastCwnd and lastTime are last_cwnd and last_time, bictcp_update's
	// rate limit; updated is false before the first update.
	lastCwnd uint32
	lastTime des.Time
	updated  bool
	// delayedAck is delayed_ack, packets per ACK << ACK_RATIO_SHIFT.
	delayedAck uint32
}

// NewBIC returns BIC; abc selects RFC 3465 byte counting in slow start
// (Linux's tcp_slow_start counts every segment an ACK covers).
func NewBIC(abc ABC) *BIC {
	b := &BIC{abc: abc}
	b.reset()
	return b
}

// Name implements Controller.
func (b *BIC) Name() string { return "bic" }

// reset is bictcp_reset.
func (b *BIC) reset() {
	*b = BIC{abc: b.abc, delayedAck: 2 << bicAckRatioShift}
}

// Init implements Controller (bictcp_init; initial_ssthresh = 0 leaves
// Linux's infinite initial ssthresh).
func (b *BIC) Init(s *State) {
	s.Ssthresh = initialSsthresh
	b.reset()
}

// OnPacketSent implements Controller.
func (b *BIC) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {}

// bicCnt is bictcp_update's cnt for a window of cwnd segments, W_max
// lastMax (0: no loss yet) and delayed_ack (packets per ACK << 4): the
// acknowledged segments that grow cwnd by one segment.
func bicCnt(cwnd, lastMax, delayedAck uint32) uint32 {
	// "start off normal": Reno, one segment per cwnd acknowledged (no
	// delayed-ACK scaling in this branch).
	if cwnd <= bicLowWindow {
		return cwnd
	}
	var cnt uint32
	if cwnd < lastMax {
		// binary increase
		dist := (lastMax - cwnd) / bicB
		switch {
		case dist > bicMaxInc:
			cnt = cwnd / bicMaxInc // linear increase
		case dist <= 1:
			cnt = cwnd * bicSmoothPart / bicB // binary search increase
		default:
			cnt = cwnd / dist // binary search increase
		}
	} else {
		// slow start and linear increase above W_max
		switch {
		case cwnd < lastMax+bicB:
			cnt = cwnd * bicSmoothPart / bicB
		case cwnd < lastMax+bicMaxInc*(bicB-1):
			cnt = cwnd * (bicB - 1) / (cwnd - lastMax)
		default:
			cnt = cwnd / bicMaxInc
		}
	}
	// "if in slow start or link utilization is very low"
	if lastMax == 0 && cnt > bicNoLossCnt {
		cnt = bicNoLossCnt
	}
	cnt = (cnt << bicAckRatioShift) / delayedAck
	return max(cnt, 1) // "cannot be zero"
}

// BICIncrement returns BIC's window increase in segments per RTT at
// window cwnd segments with W_max lastMax (0: no loss yet), as the paper
// gives it (delayed_ack at one packet per ACK, 16): cwnd / cnt.
func BICIncrement(cwnd, lastMax uint32) float64 {
	return float64(cwnd) / float64(bicCnt(cwnd, lastMax, 1<<bicAckRatioShift))
}

// update is bictcp_update: cnt is recomputed when cwnd changed or HZ/32
// passed since the last time.
func (b *BIC) update(now des.Time, cwnd uint32) {
	if b.updated && b.lastCwnd == cwnd && now.Sub(b.lastTime) <= bicUpdateGap {
		return
	}
	b.updated = true
	b.lastCwnd = cwnd
	b.lastTime = now
	b.cnt = bicCnt(cwnd, b.lastMax, b.delayedAck)
}

// OnAck implements Controller.
func (b *BIC) OnAck(s *State, a *Ack) {
	pkts := uint32(a.Acked / s.SMSS)
	// bictcp_acked: "Track delayed acknowledgment ratio using sliding
	// window, ratio = (15*ratio + sample) / 16", in TCP_CA_Open only.
	if !a.InRecovery && !a.InLoss {
		b.delayedAck = b.delayedAck + pkts - b.delayedAck>>bicAckRatioShift
	}
	if a.InRecovery || a.Acked <= 0 {
		return
	}
	// bictcp_cong_avoid (Linux 5.7 and later), which does nothing while
	// cwnd does not limit the sender.
	if !a.IsCwndLimited(s) {
		return
	}
	acked := pkts
	if s.InSlowStart() {
		// tcp_slow_start: cwnd = min(cwnd + acked, ssthresh), and the
		// segments past ssthresh go on into congestion avoidance.
		var w window
		w.slowStart(s, a.Acked, b.abc)
		if acked = pastSsthresh(s, acked); acked == 0 {
			return
		}
	}
	b.update(a.Now, uint32(s.Cwnd/s.SMSS))
	b.ai.add(s, b.cnt, acked)
}

// recalcSsthresh is bictcp_recalc_ssthresh: it records W_max with fast
// convergence and returns ssthresh in segments.
func (b *BIC) recalcSsthresh(s *State) uint32 {
	cwnd := uint32(s.Cwnd / s.SMSS)
	if cwnd < b.lastMax {
		b.lastMax = cwnd * (bicBetaScale + bicBetaInt) / (2 * bicBetaScale)
	} else {
		b.lastMax = cwnd
	}
	if cwnd <= bicLowWindow {
		return max(cwnd>>1, 2)
	}
	return max(cwnd*bicBetaInt/bicBetaScale, 2)
}

// OnCongestionEvent implements Controller: ssthresh from
// bictcp_recalc_ssthresh; cwnd = ssthresh (the recovery algorithm then
// owns it); tcp_init_cwnd_reduction clears snd_cwnd_cnt.
func (b *BIC) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	s.Ssthresh = unit.Bytes(b.recalcSsthresh(s)) * s.SMSS
	s.Cwnd = s.Ssthresh
	b.ai = linuxAI{}
}

// OnExitRecovery implements Controller.
func (b *BIC) OnExitRecovery(now des.Time, s *State) {}

// OnRTO implements Controller: tcp_enter_loss takes ssthresh from
// bictcp_recalc_ssthresh (held on a repeated timeout), cwnd = 1 segment,
// and bictcp_state(TCP_CA_Loss) resets BIC: W_max is forgotten, so the
// window climbs again with the 5 % per RTT floor of a flow without loss.
func (b *BIC) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	if !repeated {
		s.Ssthresh = unit.Bytes(b.recalcSsthresh(s)) * s.SMSS
	}
	s.Cwnd = s.SMSS
	b.reset()
}

// linuxAI is tcp_cong_avoid_ai of net/ipv4/tcp_cong.c with its credit
// counter tp->snd_cwnd_cnt: cwnd grows by one segment per w credits,
// acked credits per call.
type linuxAI struct {
	credits uint32
}

// add is tcp_cong_avoid_ai(tp, w, acked).
func (l *linuxAI) add(s *State, w, acked uint32) {
	w = max(w, 1)
	// "If credits accumulated at a higher w, apply them gently now."
	if l.credits >= w {
		l.credits = 0
		s.Cwnd += s.SMSS
	}
	l.credits += acked
	if l.credits >= w {
		delta := l.credits / w
		l.credits -= delta * w
		s.Cwnd += unit.Bytes(delta) * s.SMSS
	}
	s.Cwnd = min(s.Cwnd, maxCwnd)
}
