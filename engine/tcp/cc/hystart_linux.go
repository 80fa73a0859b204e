package cc

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// Linux's HyStart, as net/ipv4/tcp_cubic.c of Linux 5.13 runs it (the
// kernel of the BBRv2 alpha branch, doc.go): Ha and Rhee's hybrid slow
// start, "Taming the elephants: New TCP slow start", Computer Networks
// 2011, with the kernel's constants (module parameters' defaults).
const (
	// hystart_low_window: no detection below 16 segments of cwnd
	// (bictcp_acked).
	lhsLowWindow = 16
	// hystart_ack_delta_us: two ACKs at most 2 ms apart belong to one
	// train (hystart_update, HYSTART_ACK_TRAIN).
	lhsAckDelta = 2 * des.Millisecond
	// HYSTART_MIN_SAMPLES: the delay test waits for 8 RTT samples of the
	// round.
	lhsMinSamples = 8
	// HYSTART_DELAY_MIN and HYSTART_DELAY_MAX clamp the delay threshold
	// delay_min/8 (HYSTART_DELAY_THRESH).
	lhsDelayMin = 4 * des.Millisecond
	lhsDelayMax = 16 * des.Millisecond
	// GSO_MAX_SIZE (65536 in Linux 5.13, include/linux/netdevice.h):
	// hystart_ack_delay allows for 4 GSO packets at the pacing rate.
	lhsGSOMaxSize = 65536
	// The pacing-rate ratios of tcp_update_pacing_rate() in
	// net/ipv4/tcp_input.c: net.ipv4.tcp_pacing_ss_ratio = 200 while
	// cwnd < ssthresh/2, tcp_pacing_ca_ratio = 120 after.
	lhsPacingSSRatio = 2.0
	lhsPacingCARatio = 1.2
	// tcp_friendliness's and bictcp_acked's "right after fast recovery":
	// delay samples within HZ (1 s) of the epoch's start are discarded.
	lhsDiscardAfterEpoch = des.Second
)

// LinuxHyStart is the slow-start exit of Linux's CUBIC (tcp_cubic.c's
// bictcp_hystart_reset, hystart_update, hystart_ack_delay and the
// round bookkeeping of bictcp_cong_avoid), not RFC 9406's HyStart++.
// It never changes cwnd's growth: it only ends slow start by setting
// ssthresh = cwnd ("found"), after which CUBIC's congestion avoidance
// runs. Two detectors run on every RTT sample while cwnd < ssthresh and
// cwnd >= hystart_low_window (hystart_detect = 3, both on):
//
//   - ACK train (HYSTART_ACK_TRAIN): ACKs that arrive at most
//     hystart_ack_delta_us = 2 ms after the previous ACK of the train
//     extend it; once the train started at the round's beginning spans
//     more than threshold = delay_min + hystart_ack_delay, halved when
//     the socket is not paced (SK_PACING_NONE: "ack past delay_min/2"),
//     the pipe is taken as full.
//   - Delay increase (HYSTART_DELAY): once the round has
//     HYSTART_MIN_SAMPLES = 8 RTT samples, their minimum curr_rtt above
//     delay_min + clamp(delay_min/8, 4 ms, 16 ms) is taken as a queue.
//
// A round starts when an ACK acknowledges past end_seq, the snd_nxt of
// the previous round's start (bictcp_cong_avoid: after(ack, end_seq)),
// kept here as byte counts of new data sent and cumulatively
// acknowledged. Unlike HyStart++, a fast-recovery loss does not stop it;
// a retransmission timeout resets it (bictcp_state on TCP_CA_Loss), so
// the slow start after a timeout runs it again.
type LinuxHyStart struct {
	found      bool
	roundStart des.Time   // round_start
	lastAck    des.Time   // last_ack: the last ACK of the current train
	endSeq     unit.Bytes // end_seq: new bytes sent when the round began
	currRTT    des.Duration
	sampleCnt  int
	sent       unit.Bytes // new bytes sent (snd_nxt)
	acked      unit.Bytes // bytes cumulatively acknowledged (snd_una)
}

// Found reports whether the current slow start has ended by a detector
// (tcp_cubic.c's ca->found).
func (h *LinuxHyStart) Found() bool { return h.found }

// init is bictcp_init's reset at connection start: the first round ends
// with the first ACK of new data (end_seq = snd_nxt before any data).
func (h *LinuxHyStart) init(now des.Time) {
	*h = LinuxHyStart{}
	h.resetRound(now)
}

// resetRound is bictcp_hystart_reset: round_start = last_ack = now,
// end_seq = snd_nxt, curr_rtt = ~0, sample_cnt = 0.
func (h *LinuxHyStart) resetRound(now des.Time) {
	h.roundStart = now
	h.lastAck = now
	h.endSeq = h.sent
	h.currRTT = hsInfinity
	h.sampleCnt = 0
}

// lossReset is bictcp_state(TCP_CA_Loss): bictcp_reset clears found and
// bictcp_hystart_reset starts a round.
func (h *LinuxHyStart) lossReset(now des.Time) {
	h.found = false
	h.resetRound(now)
}

// ackDelay is hystart_ack_delay: min(1 ms, 4 GSO_MAX_SIZE / sk_pacing_rate),
// the cushion for TSO/GRO aggregation. Linux sets sk_pacing_rate for
// every flow (tcp_update_pacing_rate: ratio * mss * cwnd / srtt, the
// ratio 200 % in slow start below ssthresh/2), paced or not; before the
// first RTT sample the rate is not divided by srtt (so huge) and the
// cushion is 0.
func linuxHyStartAckDelay(s *State, srtt des.Duration) des.Duration {
	if srtt <= 0 {
		return 0
	}
	ratio := lhsPacingCARatio
	if s.Cwnd < s.Ssthresh/2 {
		ratio = lhsPacingSSRatio
	}
	rate := ratio * float64(s.Cwnd) / srtt.Seconds() // bytes per second
	if !(rate > 0) {
		return 0
	}
	// 4 * GSO_MAX_SIZE * USEC_PER_SEC / rate, in whole microseconds as
	// the kernel's div64_ul.
	us := des.Duration(4*lhsGSOMaxSize*1e6/rate) * des.Microsecond
	return min(des.Millisecond, us)
}

// update is hystart_update for one RTT sample delay (already at least
// 1 us) with the connection's delay_min; it sets ssthresh = cwnd when a
// detector fires. paced is sk_pacing_status != SK_PACING_NONE.
func (h *LinuxHyStart) update(s *State, now des.Time, delay, delayMin, srtt des.Duration, paced bool) {
	// HYSTART_ACK_TRAIN.
	if now.Sub(h.lastAck) <= lhsAckDelta {
		h.lastAck = now
		threshold := delayMin + linuxHyStartAckDelay(s, srtt)
		if !paced {
			// "Hystart ack train triggers if we get ack past
			// ca->delay_min/2": the kernel shifts microseconds right
			// by one.
			threshold = (threshold / des.Microsecond >> 1) * des.Microsecond
		}
		if now.Sub(h.roundStart) > threshold {
			h.found = true
			s.Ssthresh = s.Cwnd
		}
	}
	// HYSTART_DELAY.
	h.currRTT = min(h.currRTT, delay)
	if h.sampleCnt < lhsMinSamples {
		h.sampleCnt++
		return
	}
	// HYSTART_DELAY_THRESH(delay_min >> 3), in whole microseconds.
	thresh := min(max((delayMin/des.Microsecond>>3)*des.Microsecond, lhsDelayMin), lhsDelayMax)
	if h.currRTT > delayMin+thresh {
		h.found = true
		s.Ssthresh = s.Cwnd
	}
}
