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
// Simplified: ECN is ignored (as asked of this model); the bandwidth
// filter keeps the maxima of the current and previous probe cycles and
// advances when a probe starts (tcp_bbr2.c advances one round after DOWN
// starts, tracking ACK phases); losses are the sender's retransmissions
// (see package tcp's rate estimator), and only cumulative ACKs carry
// samples. The adaptations of BBR (pipe, loss recovery and timeouts, the
// pacing margin, PROBE_RTT's application-limited samples, discarded short
// samples, strict minimum RTT) apply here too.
type BBR2 struct {
	rng *rand.Rand

	mode       BBRMode
	phase      BBR2Phase
	pacingGain float64
	cwndGain   float64
	initCwnd   unit.Bytes

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

	rec     bbrRecovery
	seenRTT bool

	// The short-term model when the latest recovery began, for an undo
	// (Linux's undo_bw_lo, undo_inflight_lo, undo_inflight_hi).
	undoBwLo                       unit.BitRate
	undoInflightLo, undoInflightHi float64
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

// BBRv2 parameters (tcp_bbr2.c bbr2 defaults).
const (
	bbr2LossThresh     = 0.02            // bbr_loss_thresh
	bbr2Beta           = 0.3             // bbr_beta: bounds cut to 1 - beta = 0.7
	bbr2Headroom       = 0.15            // bbr_inflight_headroom
	bbr2FullLossCnt    = 8               // bbr_full_loss_cnt
	bbr2ProbeRTTWin    = 5 * des.Second  // bbr_probe_rtt_win_ms
	bbr2MinRTTWin      = 10 * des.Second // bbr_min_rtt_win_sec
	bbr2ProbeRTTGain   = 0.5             // bbr_probe_rtt_cwnd_gain
	bbr2ProbeBase      = 2 * des.Second  // bbr_bw_probe_base_us
	bbr2ProbeRand      = 1 * des.Second  // bbr_bw_probe_rand_us
	bbr2ProbeRandRnds  = 2               // bbr_bw_probe_rand_rounds
	bbr2ProbeMaxRounds = 63              // bbr_bw_probe_max_rounds
)

// NewBBR2 returns BBRv2 whose random stream (probe timing) is seeded by
// seed.
func NewBBR2(seed uint64) *BBR2 {
	return &BBR2{rng: rand.New(rand.NewPCG(seed, streamCC))}
}

// Name implements Controller.
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
	s.Ssthresh = math.MaxInt64 / 2
	b.enterStartup()
	s.PacingRate = unit.BytesPerSecond((1 - BBRPacingMargin) * b.pacingGain * float64(s.Cwnd) / 1e-3)
}

func (b *BBR2) enterStartup() {
	b.mode = BBRStartup
	b.pacingGain = BBRHighGain
	b.cwndGain = BBRHighGain
}

// bw is the bandwidth the model uses: min(max_bw, bw_lo).
func (b *BBR2) bw() unit.BitRate { return min(b.MaxBw(), b.bwLo) }

// inflight is gain*BDP plus three send quanta (bbr_inflight), or the
// initial window scaled by gain before the model has an RTT and a rate.
func (b *BBR2) inflight(s *State, bw unit.BitRate, gain float64) float64 {
	if b.minRTT == 0 || bw == 0 {
		return gain * float64(b.initCwnd)
	}
	return bw.Scale(gain).BytesIn(b.minRTT) + 3*sendQuantum(s)
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

// OnAck implements Controller, in tcp_bbr2.c bbr2_main's order.
func (b *BBR2) OnAck(s *State, a *Ack) {
	valid := a.Rate.Delivered > 0
	b.delivered = a.Delivered
	b.roundStart = false
	if valid && a.Rate.PriorDelivered >= b.nextRoundDelivered {
		b.nextRoundDelivered = a.Delivered
		b.rounds++
		b.roundsSinceProbe++
		b.roundStart = true
		b.rec.conservation = false
	}
	var rate unit.BitRate
	if valid && a.Rate.Interval >= a.MinRTT {
		rate = a.Rate.Rate()
		if rate >= b.MaxBw() || !a.Rate.AppLimited {
			b.bwHi[1] = max(b.bwHi[1], rate)
		}
	}
	if a.Lost > 0 {
		b.lossInRound = true
	}
	b.congestionSignals(s, a, rate)
	b.startupLoss(s, a)
	b.adaptUpperBounds(s, a)
	if b.mode == BBRProbeBW {
		b.updateCyclePhase(s, a)
	}
	b.full.check(b.MaxBw(), b.roundStart, a.Rate.AppLimited)
	b.checkDrain(s, a)
	b.updateMinRTT(s, a)
	b.setPacingRate(s, a)
	b.setCwnd(s, a)
	if valid {
		b.idleRestart = false
	}
}

// congestionSignals is bbr2_update_congestion_signals and
// bbr2_adapt_lower_bounds (draft-02 section 5.5.10.3).
func (b *BBR2) congestionSignals(s *State, a *Ack, rate unit.BitRate) {
	b.lossRoundStart = false
	if a.Rate.Delivered <= 0 {
		return
	}
	if !a.Rate.AppLimited || rate >= b.MaxBw() {
		b.bwLatest = max(b.bwLatest, rate)
	}
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

// tooHigh is bbr2_is_inflight_too_high: the sample lost more than 2 % of
// what was in flight when it was sent.
func tooHigh(a *Ack) bool {
	r := a.Rate
	return r.Lost > 0 && r.TxInFlight > 0 && float64(r.Lost) > bbr2LossThresh*float64(r.TxInFlight)
}

// startupLoss is bbr2_check_loss_too_high_in_startup.
func (b *BBR2) startupLoss(s *State, a *Ack) {
	if b.full.filled {
		return
	}
	if a.Lost > 0 {
		b.lossEvents++
	}
	if b.lossRoundStart && b.rec.state == caRecovery && b.lossEvents >= bbr2FullLossCnt && tooHigh(a) {
		b.full.filled = true
		b.inflightHi = b.inflight(s, b.MaxBw(), 1)
		return
	}
	if b.lossRoundStart {
		b.lossEvents = 0
	}
}

// adaptUpperBounds is bbr2_adapt_upper_bounds (draft-02 section 5.5.10.2).
func (b *BBR2) adaptUpperBounds(s *State, a *Ack) {
	if a.Rate.Delivered <= 0 {
		return
	}
	if b.downRoundEnd && b.roundStart {
		// The samples of the last probe have all come back.
		b.downRoundEnd = false
		b.probeSamples = false
		if b.mode == BBRProbeBW && b.stoppedRisky && !b.prevProbeTooHigh {
			b.startRefill(a.Now)
			return
		}
	}
	if tooHigh(a) {
		if b.probeSamples {
			b.prevProbeTooHigh = true
			b.probeSamples = false
			if !a.Rate.AppLimited {
				b.inflightHi = max(float64(a.Rate.TxInFlight), (1-bbr2Beta)*b.targetInflight(s))
			}
			if b.mode == BBRProbeBW && b.phase == BBR2Up {
				b.startDown(a.Now)
			}
		}
		return
	}
	if math.IsInf(b.inflightHi, 1) {
		return
	}
	b.inflightHi = max(b.inflightHi, float64(a.Rate.TxInFlight))
	if b.mode == BBRProbeBW && b.phase == BBR2Up {
		b.probeUpward(s, a)
	}
}

// probeUpward is bbr2_probe_inflight_hi_upward: while cwnd-limited at
// inflight_hi, raise it by 1, 2, 4, ... packets per round.
func (b *BBR2) probeUpward(s *State, a *Ack) {
	if a.PriorPipe+s.SMSS < s.Cwnd || float64(s.Cwnd) < b.inflightHi {
		return
	}
	b.upAcks += a.Acked
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

// updateCyclePhase is bbr2_update_cycle_phase.
func (b *BBR2) updateCyclePhase(s *State, a *Ack) {
	inflight := float64(a.PriorPipe)
	bw := b.bw()
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
			b.startUp(s, a.Now)
		}
	case BBR2Up:
		done := false
		if b.prevProbeTooHigh && inflight >= b.inflightHi {
			b.stoppedRisky = true
			done = true
		} else if a.Now.Sub(b.cycleStamp) > b.minRTT && inflight > b.inflight(s, bw, 1.25) {
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
	b.lossInRound = false
	b.bwLatest, b.inflightLatest = 0, 0
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
	b.probeSamples = true
	b.nextRoundDelivered = b.delivered
	b.phase = BBR2Refill
	b.pacingGain = 1
	// A new probe cycle: the bandwidth filter keeps this cycle and the last.
	b.bwHi[0], b.bwHi[1] = b.bwHi[1], 0
}

func (b *BBR2) startUp(s *State, now des.Time) {
	b.nextRoundDelivered = b.delivered
	b.cycleStamp = now
	b.phase = BBR2Up
	b.pacingGain = 1.25
	b.raiseSlope(s)
}

// checkDrain: DRAIN until inflight fits the BDP, then PROBE_BW DOWN.
func (b *BBR2) checkDrain(s *State, a *Ack) {
	if b.mode == BBRStartup && b.full.filled {
		b.mode = BBRDrain
		b.pacingGain = bbrDrainGain
		b.cwndGain = BBRHighGain
	}
	if b.mode == BBRDrain && float64(s.Pipe) <= b.inflight(s, b.MaxBw(), 1) {
		b.startDown(a.Now)
	}
}

// updateMinRTT is bbr2_update_min_rtt with PROBE_RTT (draft-02 sections
// 5.3.4 and 5.5.8).
func (b *BBR2) updateMinRTT(s *State, a *Ack) {
	expired := b.probeRTTMin != 0 && a.Now > b.probeStamp.Add(bbr2ProbeRTTWin)
	if a.RTT > 0 && (b.probeRTTMin == 0 || a.RTT < b.probeRTTMin || expired) {
		b.probeRTTMin, b.probeStamp = a.RTT, a.Now
	}
	if b.minRTT == 0 || b.probeRTTMin <= b.minRTT || a.Now > b.minRTTStamp.Add(bbr2MinRTTWin) {
		b.minRTT, b.minRTTStamp = b.probeRTTMin, b.probeStamp
	}
	if expired && !b.idleRestart && b.mode != BBRProbeRTT {
		b.mode = BBRProbeRTT
		b.pacingGain, b.cwndGain = 1, 1
		b.rec.save(s, true)
		b.probeRTTDone = 0
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
			s.Cwnd = max(s.Cwnd, b.rec.priorCwnd)
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

// probeRTTCwnd is bbr2_probe_rtt_cwnd: half the BDP, at least 4 packets.
func (b *BBR2) probeRTTCwnd(s *State) float64 {
	return max(b.inflight(s, b.bw(), bbr2ProbeRTTGain), bbrMinPackets*float64(s.SMSS))
}

// setPacingRate paces at pacing_gain * min(max_bw, bw_lo) (bbrPace).
func (b *BBR2) setPacingRate(s *State, a *Ack) {
	bbrPace(s, a, b.bw(), b.pacingGain, b.full.filled, &b.seenRTT)
}

// setCwnd is bbr2_set_cwnd with bbr2_bound_cwnd_for_inflight_model.
func (b *BBR2) setCwnd(s *State, a *Ack) {
	if a.Acked <= 0 {
		return
	}
	minCwnd := bbrMinPackets * s.SMSS
	s.Cwnd = bbrGrowCwnd(s, a, &b.rec, unit.Bytes(b.inflight(s, b.bw(), b.cwndGain)), b.full.filled, b.initCwnd)
	// The inflight model bounds cwnd in conservation too (tcp_bbr2.c
	// applies bbr2_bound_cwnd_for_inflight_model after "done").
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

// OnCongestionEvent implements Controller (as BBR).
func (b *BBR2) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	if b.rec.state == caOpen {
		b.saveUndo()
	}
	if b.rec.enter(s, b.mode == BBRProbeRTT) {
		b.nextRoundDelivered = b.delivered
		s.Ssthresh = s.Cwnd
	}
}

// OnExitRecovery implements Controller (as BBR).
func (b *BBR2) OnExitRecovery(now des.Time, s *State) {
	b.rec.exit(s)
	s.Ssthresh = math.MaxInt64 / 2
}

// OnRTO implements Controller (as BBR). As tcp_bbr2.c bbr2_set_state does
// for the Loss state, STARTUP's plateau test starts over and, outside
// bandwidth probing, an unset inflight_lo takes the window the timeout
// found (max(cwnd, prior_cwnd)) so that the next round with loss cuts
// from there.
func (b *BBR2) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	if b.rec.state == caOpen {
		b.saveUndo()
	}
	probing := b.mode == BBRStartup || (b.mode == BBRProbeBW && (b.phase == BBR2Refill || b.phase == BBR2Up))
	if !probing && math.IsInf(b.inflightLo, 1) {
		b.inflightLo = float64(max(s.Cwnd, b.rec.priorCwnd))
	}
	b.rec.timeout(s, b.mode == BBRProbeRTT)
	b.full.bw = 0
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
	return max(b.rec.priorCwnd, s.SMSS)
}
