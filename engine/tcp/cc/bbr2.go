package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"

	"math"
	"math/rand/v2"
)

// BBR2 is BBR version 2 as Linux shipped it as "bbr2" in the v2alpha
// branch of github.com/google/bbr (net/ipv4/tcp_bbr2.c), presented by
// Cardwell et al. at IETF 104-106 (ICCRG, 2019); the structure shared with
// the later draft-cardwell-iccrg-bbr-congestion-control-02 (BBRv3) is
// cited by that draft's sections.
//
// On top of BBR v1's model (BtlBw, min RTT, STARTUP, DRAIN) it bounds
// inflight by loss:
//   - inflight_hi, the largest inflight that kept the loss rate of a
//     delivery-rate sample at or below loss_thresh = 2 %, set to
//     max(TxInFlight, beta*target) when a bandwidth probe exceeds it
//     (beta = 0.7) and raised slowly (1, 2, 4, ... packets per round) while
//     probing finds no excess loss (draft-02 section 5.5.10);
//   - bw_lo and inflight_lo, cut to max(latest, 0.7*bound) at the end of
//     every round trip with loss outside bandwidth probing (section 5.5.10.3);
//
// and probes in four PROBE_BW sub-phases (section 5.3.3): DOWN (pacing
// 0.75 until inflight fits the BDP and the headroom), CRUISE (pacing 1,
// inflight below inflight_hi less 15 % headroom), REFILL (one round at
// pacing 1 with the lower bounds reset) and UP (pacing 1.25 until inflight
// reaches 1.25 BDP or loss exceeds 2 %). The next probe comes after a
// random 2-3 s or min(63, BDP in packets) round trips, whichever is first
// (the "Reno coexistence" bound). STARTUP also ends on high loss: 8 loss
// events in a round trip of recovery with a loss rate over 2 % set
// inflight_hi to the BDP. PROBE_RTT comes when the 5 s minimum RTT filter
// expires and holds cwnd at half the BDP (at least 4 packets) for 200 ms
// and a round.
//
// Checked against the v2alpha tcp_bbr2.c (Linux 5.13 base, doc.go): its
// parameters (bbr2_init), bbr2_main's order, the ACK-aggregation
// allowance in the cwnd target (bbr_update_ack_aggregation, used in
// STARTUP too), the quantization budget by flooring (cwnd_tso_budget = 1),
// the max-bandwidth filter that advances one round after PROBE_DOWN
// begins, the loss round that starts at the first loss, and its loss
// recovery, which has no packet conservation (v1's
// bbr_set_cwnd_to_recover_or_restore is gone): cwnd is left alone in fast
// recovery and restored to the saved window only when a timeout's
// recovery ends (bbr2_set_state). The in-flight that ends PROBE_UP, DOWN
// and DRAIN is judged at the next departure (bbr_packets_in_net_at_edt,
// packetsInNetAtEDT) under the gain the previous ACK's bbr_update_gains
// left (ackGain): a phase that ends between two ACKs or earlier on the
// same ACK changes cycle_idx only, and bbr->pacing_gain follows at the
// end of the model update.
//
// Losses reach it twice, as in the kernel: each segment the moment the
// sender marks it lost (OnSegmentLost, bbr2_skb_marked_lost: while
// probing, a segment whose own loss rate exceeds loss_thresh sets
// inflight_hi from bbr2_inflight_hi_from_lost_skb and ends PROBE_UP at
// once), when the sender reports marks (tcp.Config.SkbMarkedLost, the
// host parameter skb_marked_lost); and every ACK's rate sample (Lost over
// TxInFlight, the pipe when the sampled segment was sent, as tcp_rate.c
// fills rs->lost and rs->tx_in_flight). The sender counts a loss when it
// marks the segment (tp->lost), one segment at a time where Linux marks
// a whole TSO skb.
//
// Not modelled: ECN (bbr_ecn_enable is false in the alpha, so its default
// host ignores CE marks too); the app-limited fast path; bbr_init's start
// of the minimum-RTT filters from the handshake's RTT sample (min_rtt_us
// = probe_rtt_min_us = tcp_min_rtt): here the first ACK's sample starts
// them (in document 002's testbed BBRv2 moves by at most 0.13 Mbit/s
// with it, lossless at q = 100 %); the ssthresh bbr_check_drain sets on
// entering DRAIN, which nothing here reads for a cong_control controller.
// The pacing rate starts from the handshake's RTT, as bbr_init's does
// (State.InitSRTT). Every ACK that
// delivers something, SACK-only ones included, carries a rate sample,
// and every ACK reaches OnAck (tcp_cong_control).
type BBR2 struct {
	rng *rand.Rand

	mode       BBRMode
	phase      BBR2Phase
	pacingGain float64
	cwndGain   float64
	initCwnd   unit.Bytes
	// ackGain is bbr->pacing_gain as the kernel holds it: the gain
	// bbr_update_gains set at the end of the previous ACK's model update.
	// pacingGain follows a phase change at once; the departure-time
	// in-flight tests of the next model update read ackGain, as
	// bbr_packets_in_net_at_edt reads bbr->pacing_gain before
	// bbr_update_gains has run.
	ackGain float64

	bwHi           [2]unit.BitRate // max delivery rate, previous and current cycle
	bwLo           unit.BitRate    // +Inf when unset
	inflightHi     float64         // bytes, +Inf when unset
	inflightLo     float64
	bwLatest       unit.BitRate
	inflightLatest float64

	minRTT, probeRTTMin     des.Duration
	minRTTStamp, probeStamp des.Time

	rounds             int64
	nextRoundDelivered unit.Bytes
	roundStart         bool
	delivered          unit.Bytes
	ackedSacked        unit.Bytes // rs->acked_sacked of the ACK being handled

	lossRoundDelivered unit.Bytes
	lossRoundStart     bool
	lossInRound        bool
	lossEvents         int

	full bbrFullPipe

	cycleStamp       des.Time
	probeWait        des.Duration
	roundsSinceProbe int64
	upRounds         int
	upAcks, upCnt    unit.Bytes
	probeSamples     bool
	prevProbeTooHigh bool
	stoppedRisky     bool
	downRoundEnd     bool // end the probe's sample window at the next round start

	probeRTTDone      des.Time
	probeRTTRoundDone bool
	idleRestart       bool

	// caState is the sender's recovery state as the previous ACK left
	// it (tcp_bbr2.c prev_ca_state), priorCwnd bbr_save_cwnd's window.
	caState   caState
	priorCwnd unit.Bytes
	seenRTT   bool

	aggr bbrAckAggregation

	// The short-term model when the latest recovery began, for an undo
	// (Linux's undo_bw_lo, undo_inflight_lo, undo_inflight_hi).
	undoBwLo                       unit.BitRate
	undoInflightLo, undoInflightHi float64

	// perSegment is set once the sender has reported a segment marked
	// lost through OnSegmentLost (LossMarker): from then on the loss
	// round starts at the mark, as bbr2_skb_marked_lost does, and an
	// ACK's Lost is not taken as a mark a second time.
	perSegment bool
}

// BBR2Phase is a PROBE_BW sub-phase (draft-02 section 5.3.3).
type BBR2Phase uint8

// PROBE_BW sub-phases.
const (
	BBR2Down BBR2Phase = iota
	BBR2Cruise
	BBR2Refill
	BBR2Up
)

func (p BBR2Phase) String() string { return [...]string{"down", "cruise", "refill", "up"}[p] }

// BBRv2 parameters (tcp_bbr2.c bbr2 defaults, fractions of BBR_UNIT =
// 256 as the kernel rounds them).
const (
	bbr2LossThresh     = 5.0 / 256       // bbr_loss_thresh: BBR_UNIT * 2 / 100 = 5/256, 1.95 %
	bbr2Beta           = 76.0 / 256      // bbr_beta: BBR_UNIT * 30 / 100 = 76/256: bounds cut to 180/256 = 0.703
	bbr2Headroom       = 38.0 / 256      // bbr_inflight_headroom: BBR_UNIT * 15 / 100 = 38/256
	bbr2FullLossCnt    = 8               // bbr_full_loss_cnt
	bbr2ProbeRTTWin    = 5 * des.Second  // bbr_probe_rtt_win_ms
	bbr2MinRTTWin      = 10 * des.Second // bbr_min_rtt_win_sec
	bbr2ProbeRTTGain   = 0.5             // bbr_probe_rtt_cwnd_gain
	bbr2ProbeBase      = 2 * des.Second  // bbr_bw_probe_base_us
	bbr2ProbeRand      = 1 * des.Second  // bbr_bw_probe_rand_us
	bbr2ProbeRandRnds  = 2               // bbr_bw_probe_rand_rounds
	bbr2ProbeMaxRounds = 63              // bbr_bw_probe_max_rounds
	bbr2ProbePifGain   = 1.25            // bbr_bw_probe_pif_gain
	bbr2ExtraAckedWin  = 5               // bbr_extra_acked_win_rtts
	// bbr_extra_acked_in_startup = 1: in STARTUP the aggregation window
	// is 1 round.
	bbr2ExtraAckedWinStartup = 1
)

// NewBBR2 returns BBRv2 whose random stream (probe timing) is seeded by
// seed.
func NewBBR2(seed uint64) *BBR2 {
	return &BBR2{rng: rand.New(rand.NewPCG(seed, streamCC))}
}

// Name implements Controller.
// CongControl marks BBR2 as a cong_control controller (CongController):
// it sets cwnd on every ACK, and the sender runs no PRR over it.
func (b *BBR2) CongControl() {}

func (b *BBR2) Name() string { return "bbr2" }

// Mode returns the state machine's mode.
func (b *BBR2) Mode() BBRMode { return b.mode }

// Phase returns the PROBE_BW sub-phase.
func (b *BBR2) Phase() BBR2Phase { return b.phase }

// InflightHi returns inflight_hi in bytes, +Inf while unset.
func (b *BBR2) InflightHi() float64 { return b.inflightHi }

// InflightLo returns inflight_lo in bytes, +Inf while unset.
func (b *BBR2) InflightLo() float64 { return b.inflightLo }

// MaxBw returns the bandwidth estimate.
func (b *BBR2) MaxBw() unit.BitRate { return max(b.bwHi[0], b.bwHi[1]) }

// MinRTT returns the minimum RTT estimate.
func (b *BBR2) MinRTT() des.Duration { return b.minRTT }

// Init implements Controller.
func (b *BBR2) Init(s *State) {
	rng := b.rng
	inf := math.Inf(1)
	*b = BBR2{rng: rng, initCwnd: s.Cwnd, bwLo: unit.BitRate(inf), inflightHi: inf, inflightLo: inf}
	// bbr2_init: "Start sampling ECN mark rate after first full flight
	// is ACKed": loss_round_delivered = delivered + 1.
	b.lossRoundDelivered = 1
	b.upCnt = math.MaxInt64
	s.Ssthresh = math.MaxInt64 / 2
	b.enterStartup()
	b.ackGain = b.pacingGain // bbr2_init: pacing_gain = high_gain
	bbrPacingFromRTT(s, s.InitSRTT, &b.seenRTT)
}

func (b *BBR2) enterStartup() {
	b.mode = BBRStartup
	b.pacingGain = BBRHighGain
	b.cwndGain = BBRHighGain
}

// bw is the bandwidth the model uses: min(max_bw, bw_lo).
func (b *BBR2) bw() unit.BitRate { return min(b.MaxBw(), b.bwLo) }

// bdp is bbr_bdp: gain*bw*min_rtt rounded up to whole segments, or the
// initial window (unscaled) before an RTT sample.
func (b *BBR2) bdp(s *State, bw unit.BitRate, gain float64) float64 {
	if b.minRTT == 0 {
		return float64(b.initCwnd)
	}
	seg := float64(s.SMSS)
	return math.Ceil(bw.Scale(gain).BytesIn(b.minRTT)/seg-1e-9) * seg
}

// quantizationBudget is bbr_quantization_budget with cwnd_tso_budget = 1
// (the v2 default, "flooring"): at least three TSO bursts and
// cwnd_min_target = 4 segments, and 2 more segments in PROBE_UP so that
// probing lifts inflight above a small BDP.
func (b *BBR2) quantizationBudget(s *State, cwnd float64) float64 {
	cwnd = max(cwnd, 3*float64(bbrTSOSegsGoal(s, b.minRTT)*s.SMSS), bbrMinPackets*float64(s.SMSS))
	if b.mode == BBRProbeBW && b.phase == BBR2Up {
		cwnd += 2 * float64(s.SMSS)
	}
	return cwnd
}

// inflight is bbr_inflight: the BDP at gain within the quantization
// budget.
func (b *BBR2) inflight(s *State, bw unit.BitRate, gain float64) float64 {
	return b.quantizationBudget(s, b.bdp(s, bw, gain))
}

// targetInflight is bbr2_target_inflight: min(BDP, cwnd).
func (b *BBR2) targetInflight(s *State) float64 {
	return min(b.inflight(s, b.bw(), 1), float64(s.Cwnd))
}

// withHeadroom is bbr2_inflight_with_headroom: inflight_hi less 15 %.
func (b *BBR2) withHeadroom(s *State) float64 {
	if math.IsInf(b.inflightHi, 1) {
		return b.inflightHi
	}
	head := max(bbr2Headroom*b.inflightHi, float64(s.SMSS))
	return max(b.inflightHi-head, bbrMinPackets*float64(s.SMSS))
}

// OnPacketSent implements Controller.
func (b *BBR2) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {
	if inflight == bytes && !retransmit {
		b.idleRestart = true
	}
}

// OnAck implements Controller, in tcp_bbr2.c bbr2_main's order:
// round, bandwidth sample, bbr2_update_model (congestion signals, ACK
// aggregation, STARTUP's loss exit, the full-pipe test, DRAIN, the
// PROBE_BW cycle with its upper bounds, the minimum RTT), then pacing
// rate and cwnd.
func (b *BBR2) OnAck(s *State, a *Ack) {
	valid := a.Rate.Delivered > 0
	ackedSacked := max(a.Delivered-b.delivered, 0) // rs->acked_sacked
	b.delivered, b.ackedSacked = a.Delivered, ackedSacked
	b.leaveLoss(s, a)
	// bbr2_skb_marked_lost runs as the sender marks packets lost, before
	// bbr2_main: "Capture current data over the full round trip of loss",
	// the loss round starts at the first loss. A sender that reports
	// each mark (OnSegmentLost) has done this already; for one that
	// does not, the ACK's newly lost bytes stand for the marks.
	if a.Lost > 0 && !b.perSegment {
		b.markLossRound(a.Delivered)
	}
	// bbr_update_round_start.
	b.roundStart = false
	if valid && a.Rate.PriorDelivered >= b.nextRoundDelivered {
		b.nextRoundDelivered = a.Delivered
		b.rounds++
		b.roundsSinceProbe = min(b.roundsSinceProbe+1, 0xFF)
		b.roundStart = true
	}
	// bbr_calculate_bw_sample: tcp_rate.c leaves interval_us -1 (no
	// sample) for an interval shorter than min_rtt.
	var rate unit.BitRate
	sample := valid && a.Rate.Interval >= a.MinRTT
	if sample {
		rate = a.Rate.Rate()
	}
	b.congestionSignals(s, a, rate, sample)
	if sample && ackedSacked > 0 {
		thresh := bbr2ExtraAckedWin
		if !b.full.filled {
			thresh = bbr2ExtraAckedWinStartup
		}
		b.aggr.update(a.Now, ackedSacked, b.bw(), b.roundStart, thresh, s.Cwnd, s.SMSS)
	}
	b.startupLoss(s, a)
	b.full.check(b.MaxBw(), b.roundStart, a.Rate.AppLimited)
	b.checkDrain(s, a)
	b.updateCyclePhase(s, a, rate)
	b.updateMinRTT(s, a)
	b.setPacingRate(s, a)
	b.setCwnd(s, a, ackedSacked)
	if valid {
		b.idleRestart = false
	}
	b.caState = caOpen
	switch {
	case a.InLoss:
		b.caState = caLoss
	case a.InRecovery:
		b.caState = caRecovery
	}
}

// leaveLoss is bbr2_set_state on leaving TCP_CA_Loss (to Open or to
// Recovery): cwnd = max(cwnd, prior_cwnd). Leaving fast recovery restores
// nothing, as BBRv2 never cut cwnd for it.
func (b *BBR2) leaveLoss(s *State, a *Ack) {
	if b.caState == caLoss && !a.InLoss {
		s.Cwnd = max(s.Cwnd, b.priorCwnd)
	}
}

// saveCwnd is bbr_save_cwnd: the window is "good enough" when the
// previous ACK left the sender open and the flow is not in PROBE_RTT;
// otherwise the larger of the saved and the current windows is kept.
func (b *BBR2) saveCwnd(s *State) {
	if b.caState == caOpen && b.mode != BBRProbeRTT {
		b.priorCwnd = s.Cwnd
	} else {
		b.priorCwnd = max(b.priorCwnd, s.Cwnd)
	}
}

// resetCongestionSignals is bbr2_reset_congestion_signals.
func (b *BBR2) resetCongestionSignals() {
	b.lossInRound = false
	b.bwLatest, b.inflightLatest = 0, 0
}

// congestionSignals is bbr2_update_congestion_signals and
// bbr2_adapt_lower_bounds (draft-02 section 5.5.10.3).
func (b *BBR2) congestionSignals(s *State, a *Ack, rate unit.BitRate, sample bool) {
	b.lossRoundStart = false
	if !sample {
		return // "Not a valid observation"
	}
	// bbr2_take_max_bw_sample.
	if !a.Rate.AppLimited || rate >= b.MaxBw() {
		b.bwHi[1] = max(b.bwHi[1], rate)
	}
	b.bwLatest = max(b.bwLatest, rate)
	b.inflightLatest = max(b.inflightLatest, float64(a.Rate.Delivered))
	if a.Rate.PriorDelivered < b.lossRoundDelivered {
		return
	}
	b.lossRoundDelivered = a.Delivered
	b.lossRoundStart = true
	probing := b.mode == BBRStartup || (b.mode == BBRProbeBW && (b.phase == BBR2Refill || b.phase == BBR2Up))
	if b.lossInRound && !probing {
		if math.IsInf(float64(b.bwLo), 1) {
			b.bwLo = b.MaxBw()
		}
		if math.IsInf(b.inflightLo, 1) {
			b.inflightLo = float64(s.Cwnd)
		}
		b.bwLo = max(b.bwLatest, b.bwLo.Scale(1-bbr2Beta))
		b.inflightLo = max(b.inflightLatest, (1-bbr2Beta)*b.inflightLo)
	}
	b.lossInRound = false
	b.bwLatest = rate
	b.inflightLatest = float64(a.Rate.Delivered)
}

// markLossRound is the part of bbr2_skb_marked_lost that every mark
// runs: the first loss of a round trip starts the loss round there.
func (b *BBR2) markLossRound(delivered unit.Bytes) {
	if !b.lossInRound {
		b.lossRoundDelivered = delivered
	}
	b.lossInRound = true
}

// tooHigh is bbr2_is_inflight_too_high for an ACK's rate sample.
func tooHigh(a *Ack) bool { return lossTooHigh(a.Rate.Lost, a.Rate.TxInFlight) }

// lossTooHigh is bbr2_is_inflight_too_high's loss test: more than
// loss_thresh (5/256) of what was in flight when the sample's packet was
// sent has been marked lost since. The kernel compares whole packets
// with the threshold rounded down (lost > tx_in_flight * 5 >> 8), which
// for a whole number of lost packets is lost > tx_in_flight * 5/256.
func lossTooHigh(lost, txInFlight unit.Bytes) bool {
	return lost > 0 && txInFlight > 0 && float64(lost) > bbr2LossThresh*float64(txInFlight)
}

// OnSegmentLost implements LossMarker as bbr2_skb_marked_lost of the
// v2alpha tcp_bbr2.c: every mark starts or continues the loss round;
// while the flow's samples reflect a bandwidth probe (bw_probe_samples:
// from the round after REFILL until the probe's feedback ends), a
// segment whose own loss rate, the bytes marked lost since it was sent
// over the bytes then in flight, exceeds loss_thresh ends the probe at
// once: inflight_hi is set to the inflight at which the loss rate crossed
// the threshold (inflightHiFromLost) and PROBE_UP turns to DOWN, without
// waiting for an ACK whose rate sample shows the loss.
func (b *BBR2) OnSegmentLost(now des.Time, s *State, seg LostSegment) {
	b.perSegment = true
	b.markLossRound(seg.Delivered)
	if !b.probeSamples {
		return // not a segment sent while probing for bandwidth
	}
	if !lossTooHigh(seg.Lost, seg.TxInFlight) {
		return
	}
	hi := inflightHiFromLost(seg, s.SMSS)
	if math.IsInf(hi, 1) {
		return // inconsistent counts: the kernel warns and leaves inflight_hi unbounded
	}
	b.handleInflightTooHigh(now, s, hi, seg.AppLimited)
}

// inflightHiFromLost is bbr2_inflight_hi_from_lost_skb: the inflight at
// which the loss rate crossed loss_thresh within the lost segment. With
// inflight_prev and lost_prev the packets in flight and lost before it,
// the prefix p of its packets solves
// (lost_prev + p) / (inflight_prev + p) >= loss_thresh, in the kernel's
// fixed point (BBR_UNIT = 256, loss_thresh = 5): loss_budget =
// ceil(inflight_prev * 5 / 256); p = 0 when lost_prev already reaches
// it, else floor((loss_budget - lost_prev) * 256 / (256 - 5)); the result
// is inflight_prev + p packets. Bytes convert to packets of smss (the
// sender's segments are whole packets but for a short last one, rounded
// to the nearest). It returns +Inf where the kernel returns ~0U (fewer
// packets in flight or lost than the segment itself).
func inflightHiFromLost(seg LostSegment, smss unit.Bytes) float64 {
	pkts := func(b unit.Bytes) int64 { return int64((b + smss/2) / smss) }
	pcount := max(pkts(seg.Bytes), 1)
	inflightPrev := pkts(seg.TxInFlight) - pcount
	lostPrev := pkts(seg.Lost) - pcount
	if inflightPrev < 0 || lostPrev < 0 {
		return math.Inf(1)
	}
	const unitBBR, thresh = 256, 5 // BBR_UNIT, bbr_loss_thresh
	budget := (inflightPrev*thresh + unitBBR - 1) >> 8
	var prefix int64
	if lostPrev < budget {
		prefix = ((budget - lostPrev) << 8) / (unitBBR - thresh)
	}
	return float64((inflightPrev + prefix) * int64(smss))
}

// handleInflightTooHigh is bbr2_handle_inflight_too_high, shared by the
// per-ACK test (adaptUpperBounds) and the per-segment one
// (OnSegmentLost): once per probe, inflight_hi becomes
// max(txInFlight, (1 - beta) * target inflight) unless the sample was
// application-limited, and PROBE_UP ends.
func (b *BBR2) handleInflightTooHigh(now des.Time, s *State, txInFlight float64, appLimited bool) {
	b.prevProbeTooHigh = true
	b.probeSamples = false // "only react once per probe"
	if !appLimited {
		b.inflightHi = max(txInFlight, (1-bbr2Beta)*b.targetInflight(s))
	}
	if b.mode == BBRProbeBW && b.phase == BBR2Up {
		b.startDown(now)
	}
}

// startupLoss is bbr2_check_loss_too_high_in_startup.
func (b *BBR2) startupLoss(s *State, a *Ack) {
	if b.full.filled {
		return
	}
	if a.Lost > 0 {
		b.lossEvents++
	}
	if b.lossRoundStart && a.InRecovery && b.lossEvents >= bbr2FullLossCnt && tooHigh(a) {
		b.full.filled = true
		b.inflightHi = b.inflight(s, b.MaxBw(), 1)
		return
	}
	if b.lossRoundStart {
		b.lossEvents = 0
	}
}

// adaptUpperBounds is bbr2_adapt_upper_bounds (draft-02 section
// 5.5.10.2); it reports a state transition.
func (b *BBR2) adaptUpperBounds(s *State, a *Ack) bool {
	if b.downRoundEnd && b.roundStart {
		// BBR_ACKS_PROBE_STOPPING at a round start: the samples of the
		// last probe have all come back. "Now is the best time to forget
		// the bw samples from the previous cycle, by advancing the
		// window" (bbr2_advance_max_bw_filter, which keeps the old
		// window when the current one has no sample).
		b.downRoundEnd = false
		b.probeSamples = false
		if b.mode == BBRProbeBW && !a.Rate.AppLimited && b.bwHi[1] > 0 {
			b.bwHi[0], b.bwHi[1] = b.bwHi[1], 0
		}
		if b.mode == BBRProbeBW && b.stoppedRisky && !b.prevProbeTooHigh {
			b.startRefill(a.Now)
			return true
		}
	}
	if tooHigh(a) {
		if b.probeSamples {
			b.handleInflightTooHigh(a.Now, s, float64(a.Rate.TxInFlight), a.Rate.AppLimited)
		}
		return false
	}
	if math.IsInf(b.inflightHi, 1) {
		return false
	}
	b.inflightHi = max(b.inflightHi, float64(a.Rate.TxInFlight))
	if b.mode == BBRProbeBW && b.phase == BBR2Up {
		b.probeUpward(s, a)
	}
	return false
}

// probeUpward is bbr2_probe_inflight_hi_upward: while cwnd-limited at
// inflight_hi, raise it by 1, 2, 4, ... packets per round. Cwnd-limited
// is tp->is_cwnd_limited (Ack.CwndLimited), which tcp_cwnd_validate
// records once per window from the sending passes, not the pipe at this
// ACK: a flow that filled cwnd when the window began counts as
// cwnd-limited through the window.
func (b *BBR2) probeUpward(s *State, a *Ack) {
	if !a.CwndLimited || float64(s.Cwnd) < b.inflightHi {
		b.upAcks = 0 // "don't accmulate unused credits"
		return
	}
	b.upAcks += b.ackedSacked
	if b.upAcks >= b.upCnt {
		delta := b.upAcks / b.upCnt
		b.upAcks -= delta * b.upCnt
		b.inflightHi += float64(delta * s.SMSS)
	}
	if b.roundStart {
		b.raiseSlope(s)
	}
}

// raiseSlope is bbr2_raise_inflight_hi_slope.
func (b *BBR2) raiseSlope(s *State) {
	// cwnd / 2^upRounds: a shift, as cwnd is positive.
	upCnt := s.Cwnd >> b.upRounds
	b.upRounds = min(b.upRounds+1, 30)
	b.upCnt = max(upCnt, s.SMSS)
}

// updateCyclePhase is bbr2_update_cycle_phase: once the pipe is full
// (DRAIN, PROBE_BW, PROBE_RTT) the upper bounds adapt; in PROBE_BW the
// sub-phase may change, judged against max_bw (not bw_lo).
func (b *BBR2) updateCyclePhase(s *State, a *Ack, rate unit.BitRate) {
	if !b.full.filled {
		return
	}
	if b.adaptUpperBounds(s, a) || b.mode != BBRProbeBW {
		return
	}
	inflight := packetsInNetAtEDT(s, a, a.PriorPipe, b.bw(), b.ackGain, bbrTSOSegsGoal(s, b.minRTT))
	bw := b.MaxBw()
	switch b.phase {
	case BBR2Down:
		if b.timeToProbe(s, a) {
			return
		}
		if inflight <= b.withHeadroom(s) && inflight <= b.inflight(s, bw, 1) {
			b.phase = BBR2Cruise
			b.pacingGain = 1
			b.inflightLo = min(b.inflightLo, b.inflightHi)
		}
	case BBR2Cruise:
		b.timeToProbe(s, a)
	case BBR2Refill:
		if b.roundStart {
			// "After one full round trip of sending in REFILL, we start
			// to see bw samples reflecting our REFILL, which may be
			// putting too much data in flight."
			b.probeSamples = true
			b.startUp(s, a.Now)
		}
	case BBR2Up:
		done := false
		if b.prevProbeTooHigh && inflight >= b.inflightHi {
			b.stoppedRisky = true
			done = true
		} else if a.Now.Sub(b.cycleStamp) > b.minRTT && inflight >= b.inflight(s, bw, bbr2ProbePifGain) {
			done = true
		}
		if done {
			b.prevProbeTooHigh = false
			b.startDown(a.Now)
		}
	}
}

// timeToProbe is bbr2_check_time_to_probe_bw with the Reno-coexistence
// bound bbr2_is_reno_coexistence_probe_time.
func (b *BBR2) timeToProbe(s *State, a *Ack) bool {
	rounds := min(bbr2ProbeMaxRounds, int64(unit.Bytes(b.targetInflight(s))/s.SMSS)) // in segments
	if a.Now.Sub(b.cycleStamp) > b.probeWait || b.roundsSinceProbe >= rounds {
		b.startRefill(a.Now)
		return true
	}
	return false
}

func (b *BBR2) startDown(now des.Time) {
	b.resetCongestionSignals()
	b.upCnt = math.MaxInt64
	b.roundsSinceProbe = int64(b.rng.IntN(bbr2ProbeRandRnds))
	b.probeWait = bbr2ProbeBase + des.Duration(b.rng.Int64N(int64(bbr2ProbeRand)))
	b.cycleStamp = now
	b.downRoundEnd = true
	b.nextRoundDelivered = b.delivered
	b.mode = BBRProbeBW
	b.phase = BBR2Down
	b.pacingGain = 0.75
	b.cwndGain = bbrCwndGain
}

func (b *BBR2) startRefill(now des.Time) {
	b.bwLo, b.inflightLo = unit.BitRate(math.Inf(1)), math.Inf(1)
	b.upRounds = 0
	b.upAcks = 0
	b.stoppedRisky = false
	// ack_phase = BBR_ACKS_REFILLING: the probe's samples start only
	// with PROBE_UP, and a pending end of the last probe's samples is
	// dropped.
	b.downRoundEnd = false
	b.nextRoundDelivered = b.delivered
	b.phase = BBR2Refill
	b.pacingGain = 1
}

func (b *BBR2) startUp(s *State, now des.Time) {
	b.nextRoundDelivered = b.delivered
	b.cycleStamp = now
	b.phase = BBR2Up
	b.pacingGain = 1.25
	b.raiseSlope(s)
}

// checkDrain: DRAIN until what will be in the network at the next
// departure (packetsInNetAtEDT, under ackGain, the gain the previous ACK
// left: the kernel sets bbr->pacing_gain after bbr_check_drain) fits the
// BDP, then PROBE_BW DOWN.
func (b *BBR2) checkDrain(s *State, a *Ack) {
	if b.mode == BBRStartup && b.full.filled {
		b.mode = BBRDrain
		b.pacingGain = bbrDrainGain
		b.cwndGain = BBRHighGain
		b.resetCongestionSignals()
	}
	if b.mode == BBRDrain && packetsInNetAtEDT(s, a, s.Pipe, b.bw(), b.ackGain, bbrTSOSegsGoal(s, b.minRTT)) <= b.inflight(s, b.MaxBw(), 1) {
		b.startDown(a.Now)
	}
}

// updateMinRTT is bbr2_update_min_rtt with PROBE_RTT (draft-02 sections
// 5.3.4 and 5.5.8).
func (b *BBR2) updateMinRTT(s *State, a *Ack) {
	expired := b.probeRTTMin != 0 && a.Now > b.probeStamp.Add(bbr2ProbeRTTWin)
	// bbr_update_min_rtt of tcp_bbr2.c: a sample equal to the minimum
	// refreshes its stamp too (rtt_us <= probe_rtt_min_us; v1 needs a
	// smaller one).
	if a.RTT > 0 && (b.probeRTTMin == 0 || a.RTT <= b.probeRTTMin || expired) {
		b.probeRTTMin, b.probeStamp = a.RTT, a.Now
	}
	if b.minRTT == 0 || b.probeRTTMin <= b.minRTT || a.Now > b.minRTTStamp.Add(bbr2MinRTTWin) {
		b.minRTT, b.minRTTStamp = b.probeRTTMin, b.probeStamp
	}
	if expired && !b.idleRestart && b.mode != BBRProbeRTT {
		b.mode = BBRProbeRTT
		b.pacingGain, b.cwndGain = 1, 1
		b.saveCwnd(s)
		b.probeRTTDone = 0
		b.downRoundEnd = true // ack_phase = BBR_ACKS_PROBE_STOPPING
		b.nextRoundDelivered = b.delivered
	}
	if b.mode != BBRProbeRTT {
		return
	}
	// Ignore low rate samples during PROBE_RTT, as BBR v1 does.
	s.AppLimited = max(a.Delivered+s.Pipe, 1)
	inflight := float64(s.Pipe)
	switch {
	case b.probeRTTDone == 0 && inflight <= b.probeRTTCwnd(s):
		b.probeRTTDone = a.Now.Add(bbrProbeRTTDur)
		b.probeRTTRoundDone = false
		b.nextRoundDelivered = a.Delivered
	case b.probeRTTDone != 0:
		if b.roundStart {
			b.probeRTTRoundDone = true
		}
		if b.probeRTTRoundDone && a.Now > b.probeRTTDone {
			b.probeStamp = a.Now
			s.Cwnd = max(s.Cwnd, b.priorCwnd)
			b.bwLo, b.inflightLo = unit.BitRate(math.Inf(1)), math.Inf(1)
			if b.full.filled {
				b.startDown(a.Now)
				b.phase = BBR2Cruise // bbr2_exit_probe_rtt: DOWN then CRUISE
				b.pacingGain = 1
			} else {
				b.enterStartup()
			}
		}
	}
}

// probeRTTCwnd is bbr_probe_rtt_cwnd: half the BDP (bbr_bdp, no
// quantization budget), at least cwnd_min_target = 4 packets.
func (b *BBR2) probeRTTCwnd(s *State) float64 {
	return max(b.bdp(s, b.bw(), bbr2ProbeRTTGain), bbrMinPackets*float64(s.SMSS))
}

// setPacingRate paces at pacing_gain * min(max_bw, bw_lo) (bbrPace).
func (b *BBR2) setPacingRate(s *State, a *Ack) {
	bbrPace(s, a, b.bw(), b.pacingGain, b.full.filled, &b.seenRTT)
	b.ackGain = b.pacingGain // bbr_update_gains, before bbr_set_pacing_rate
}

// setCwnd is tcp_bbr2.c's bbr_set_cwnd with
// bbr2_bound_cwnd_for_inflight_model. The target is gain*BDP plus the
// ACK-aggregation allowance, within the quantization budget; below it
// cwnd grows by what the ACK delivered (in STARTUP also while cwnd is
// under twice the initial window), at or above it (pipe full) it snaps
// down. There is no packet conservation in recovery.
func (b *BBR2) setCwnd(s *State, a *Ack, ackedSacked unit.Bytes) {
	minCwnd := bbrMinPackets * s.SMSS
	// bbr_set_cwnd: "no packet fully ACKed; just apply caps" (the
	// PROBE_RTT cap and bbr2_bound_cwnd_for_inflight_model below).
	if ackedSacked > 0 {
		bw := b.bw()
		target := b.bdp(s, bw, b.cwndGain) + b.aggr.cwnd(bw)
		target = b.quantizationBudget(s, target)
		cwnd := float64(s.Cwnd)
		acked := float64(ackedSacked)
		switch {
		case b.full.filled:
			cwnd = min(cwnd+acked, target)
		case cwnd < target || cwnd < 2*float64(b.initCwnd):
			cwnd += acked
		}
		s.Cwnd = max(unit.Bytes(cwnd), minCwnd)
	}
	limit := math.Inf(1)
	switch {
	case b.mode == BBRProbeBW && b.phase != BBR2Cruise:
		limit = b.inflightHi
	case b.mode == BBRProbeRTT || b.mode == BBRProbeBW:
		limit = b.withHeadroom(s)
	}
	limit = max(min(limit, b.inflightLo), float64(minCwnd))
	if float64(s.Cwnd) > limit {
		s.Cwnd = unit.Bytes(limit)
	}
	if b.mode == BBRProbeRTT {
		s.Cwnd = min(s.Cwnd, max(unit.Bytes(b.probeRTTCwnd(s)), minCwnd))
	}
}

// OnCongestionEvent implements Controller: tcp_enter_recovery calls
// bbr2_ssthresh, which saves cwnd (bbr_save_cwnd) and the short-term
// model for an undo, and leaves cwnd alone (tcp_cong_control hands the
// whole window to bbr2_main; there is no PRR for a cong_control
// algorithm). Ssthresh is set to cwnd so that the sender's recovery
// algorithm, which sizes its sending by ssthresh, does not cut the
// window either.
func (b *BBR2) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	if b.caState != caRecovery {
		b.saveCwnd(s)
		b.saveUndo()
	}
	b.caState = caRecovery
	s.Ssthresh = s.Cwnd
}

// OnExitRecovery implements Controller: the sender is open again.
func (b *BBR2) OnExitRecovery(now des.Time, s *State) {
	if b.caState == caRecovery {
		b.caState = caOpen
	}
	s.Ssthresh = math.MaxInt64 / 2
}

// OnRTO implements Controller (as BBR). As tcp_bbr2.c bbr2_set_state does
// for the Loss state, STARTUP's plateau test starts over and, outside
// bandwidth probing, an unset inflight_lo takes the window the timeout
// found (max(cwnd, prior_cwnd)) so that the next round with loss cuts
// from there.
func (b *BBR2) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	// tcp_enter_loss calls bbr2_ssthresh from the open state (or
	// Recovery); a repeated timeout saves nothing.
	if !repeated && b.caState != caLoss {
		b.saveCwnd(s)
		b.saveUndo()
	}
	// Every outstanding packet is marked lost (tcp_timeout_mark_lost
	// calls bbr2_skb_marked_lost for each before tcp_enter_loss sets the
	// Loss state); a sender that reports the marks (OnSegmentLost) has
	// done so already.
	if !b.perSegment {
		b.markLossRound(b.delivered)
	}
	probing := b.mode == BBRStartup || (b.mode == BBRProbeBW && (b.phase == BBR2Refill || b.phase == BBR2Up))
	if !probing && math.IsInf(b.inflightLo, 1) {
		b.inflightLo = float64(b.priorCwnd)
	}
	b.caState = caLoss
	b.full.bw = 0
	// tcp_enter_loss: cwnd = packets in flight + 1.
	s.Cwnd = s.Pipe + s.SMSS
	s.Ssthresh = math.MaxInt64 / 2
}

// saveUndo keeps the short-term model for an undo, as the ssthresh hook
// of Linux's BBRv2 and v3 does (bbr_ssthresh, called when a recovery or a
// timeout begins from the open state).
func (b *BBR2) saveUndo() {
	b.undoBwLo, b.undoInflightLo, b.undoInflightHi = b.bwLo, b.inflightLo, b.inflightHi
}

// UndoCwnd implements Undoer as BBRv2's undo_cwnd (tcp_bbr2.c; the same
// in v3's tcp_bbr.c): the loss episode was spurious, so STARTUP's plateau
// test starts over, the round's loss is forgotten, the short-term bounds
// go back to at least their values before it, and cwnd to the window
// saved when it began.
func (b *BBR2) UndoCwnd(s *State, priorCwnd unit.Bytes) unit.Bytes {
	b.full.bw, b.full.count = 0, 0
	b.lossInRound = false
	b.bwLo = max(b.bwLo, b.undoBwLo)
	b.inflightLo = max(b.inflightLo, b.undoInflightLo)
	b.inflightHi = max(b.inflightHi, b.undoInflightHi)
	return max(b.priorCwnd, s.SMSS)
}
