package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"

	"math"
	"math/rand/v2"
)

// BBR is BBR version 1 (N. Cardwell, Y. Cheng, C. S. Gunn, S. H. Yeganeh
// and V. Jacobson, "BBR: Congestion-Based Congestion Control", ACM Queue
// 14(5), 2016, and CACM 60(2), 2017), following the pseudocode of
// draft-cardwell-iccrg-bbr-congestion-control-00 (2017; section numbers
// below are that draft's) and, where the draft leaves a choice, Linux
// net/ipv4/tcp_bbr.c.
//
// BBR models the path by two numbers: BtlBw, the windowed maximum of the
// delivery rate over 10 round trips, and RTprop, the windowed minimum RTT
// over 10 s. It paces at pacing_gain*BtlBw and caps inflight at
// cwnd_gain*BtlBw*RTprop plus a few send quanta. Its state machine:
// STARTUP (gain 2/ln 2) until BtlBw grows less than 25 % in 3 rounds; DRAIN
// (gain ln 2/2) until inflight <= BDP; PROBE_BW cycling pacing gains [1.25,
// 0.75, 1, 1, 1, 1, 1, 1], one RTprop per phase, from a random phase other
// than 0.75; PROBE_RTT (cwnd 4 packets for max(200 ms, one round)) when
// RTprop has not been refreshed for 10 s.
//
// Adaptations to this sender, which counts bytes, not packets:
//   - a round trip ends when an ACK's Rate.PriorDelivered reaches the
//     Delivered of the ACK that started it (section 4.1.1.3);
//   - rate samples whose interval is below the minimum RTT are discarded
//     (tcp_rate.c does this before BBR sees them);
//   - RTprop is refreshed only by a strictly smaller sample, as tcp_bbr.c
//     does (the draft writes <=): a deterministic path repeats its base RTT
//     exactly, and <= would postpone PROBE_RTT for ever;
//   - packets_in_flight is the sender's pipe (State.Pipe: SACKed and lost
//     segments excluded), prior_in_flight Ack.PriorPipe;
//   - as tcp_bbr.c since Linux 4.20, the gain cycle's and DRAIN's
//     in-flight tests judge what will be in the network when pacing lets
//     the next skb go (bbr_packets_in_net_at_edt, packetsInNetAtEDT): the
//     in-flight less what the rate it paces at (bbr_bw) delivers until
//     then, plus that skb while the gain is above 1;
//   - loss recovery follows tcp_bbr.c (see bbrRecovery): on entering fast
//     recovery cwnd = pipe + what the ACK delivered and packet conservation
//     holds for one round; after a timeout cwnd = pipe + 1 segment; every
//     ACK takes the bytes newly marked lost off cwnd; the window saved when
//     recovery or a timeout begins is restored when it ends (the sender's
//     Ack.InLoss tells the end of a timeout's recovery); cwnd is below 4
//     packets only during packet conservation and the timeout's recovery;
//   - PROBE_RTT marks what the sender sends application-limited (section
//     4.3.5, State.AppLimited), so its low rates do not empty the BtlBw
//     filter: only application-limited samples below the maximum are
//     ignored (section 4.1.1.5, tcp_bbr.c bbr_update_bw);
//   - pacing is 1 % below pacing_gain*BtlBw (BBRPacingMargin);
//   - as tcp_bbr.c of Linux 5.13 (doc.go), the cwnd target adds the ACK
//     aggregation allowance once the pipe is full
//     (bbr_update_ack_aggregation, bbr_ack_aggregation_cwnd; not in the
//     draft), and the BDP is rounded up to whole segments and padded by
//     bbr_quantization_budget: three TSO bursts (bbr_tso_segs_goal), up
//     to an even number of segments, and 2 more in the 1.25 phase
//     (where the draft adds three send quanta);
//   - as tcp_bbr.c, BBR models a token-bucket policer (bbrLongTerm,
//     bbr_lt_bw_sampling): over two intervals of 4 to 16 round trips that
//     each end on a loss with at least 50/256 of what they delivered lost
//     and whose delivery rates agree within 1/8 (or 4 kbit/s), it paces at
//     and sizes cwnd from their mean rate, with no gain cycling, for 48
//     round trips of PROBE_BW.
type BBR struct {
	rng *rand.Rand

	mode     BBRMode
	initCwnd unit.Bytes

	btlBw       MaxFilter[unit.BitRate] // over rounds
	rtProp      des.Duration            // 0 before the first sample
	rtPropStamp des.Time
	expired     bool

	rounds             int64
	nextRoundDelivered unit.Bytes
	roundStart         bool
	delivered          unit.Bytes // Ack.Delivered of the latest ACK

	full bbrFullPipe

	cycleIndex int
	cycleStamp des.Time

	probeRTTDone      des.Time // 0: not yet at 4 packets
	probeRTTRoundDone bool
	idleRestart       bool

	rec     bbrRecovery
	seenRTT bool

	aggr bbrAckAggregation
	lt   bbrLongTerm
}

// BBRPacingMargin is the fraction by which BBR paces below
// pacing_gain*BtlBw: tcp_bbr.c's bbr_pacing_margin_percent = 1 (Linux 5.2
// on, and tcp_bbr2.c), "to reduce queue at the bottleneck". BtlBw counts
// payload bytes and the sender paces payload bytes, so without the margin
// a flow at gain 1 sends full segments at exactly the bottleneck's service
// rate and a standing queue never drains.
const BBRPacingMargin = 0.01

// BBRMode is the state of BBR's state machine (section 3.4).
type BBRMode uint8

// BBR modes.
const (
	BBRStartup BBRMode = iota
	BBRDrain
	BBRProbeBW
	BBRProbeRTT
)

func (m BBRMode) String() string {
	return [...]string{"startup", "drain", "probe_bw", "probe_rtt"}[m]
}

// BBR constants (section 4.1 to 4.3; tcp_bbr.c).
const (
	// BBRHighGain is 2/ln 2, the smallest gain that doubles the sending
	// rate each round trip (section 4.3.2.1), as tcp_bbr.c and tcp_bbr2.c
	// round it in BBR_UNIT = 256: bbr_high_gain = BBR_UNIT * 2885 / 1000
	// + 1 = 739/256 = 2.8867.
	BBRHighGain = 739.0 / 256
	// bbrDrainGain is bbr_drain_gain = BBR_UNIT * 1000 / 2885 = 88/256 =
	// 0.34375 (the draft's 1/high_gain = 0.3466).
	bbrDrainGain   = 88.0 / 256
	bbrCwndGain    = 2
	bbrBtlBwRounds = 10                    // BtlBwFilterLen, round trips
	bbrRTpropWin   = 10 * des.Second       // RTpropFilterLen
	bbrProbeRTTDur = 200 * des.Millisecond // ProbeRTTDuration
	bbrMinPackets  = 4                     // BBRMinPipeCwnd, packets
	bbrFullBwGrow  = 1.25                  // STARTUP continues while BtlBw grows 25 %
	bbrFullBwCnt   = 3                     // ... within 3 rounds
	bbrCycleLen    = len(bbrGainCycle)     // BBRGainCycleLen
	streamCC       = 0x6363                // "cc": the stream of Options.Seed
)

// bbrGainCycle is PROBE_BW's pacing_gain cycle (section 4.3.4.3).
var bbrGainCycle = [...]float64{1.25, 0.75, 1, 1, 1, 1, 1, 1}

// NewBBR returns BBR v1 whose random stream (the PROBE_BW start phase)
// is seeded by seed.
func NewBBR(seed uint64) *BBR {
	return &BBR{rng: rand.New(rand.NewPCG(seed, streamCC))}
}

// Name implements Controller.
// CongControl marks BBR as a cong_control controller (CongController):
// it sets cwnd on every ACK, and the sender runs no PRR over it.
func (b *BBR) CongControl() {}

func (b *BBR) Name() string { return "bbr" }

// Mode returns the state machine's mode.
func (b *BBR) Mode() BBRMode { return b.mode }

// PacingGain returns the current pacing_gain.
func (b *BBR) PacingGain() float64 { return b.pacingGain() }

// CycleIndex returns the PROBE_BW phase, 0 to 7.
func (b *BBR) CycleIndex() int { return b.cycleIndex }

// BtlBw returns the bottleneck bandwidth estimate.
func (b *BBR) BtlBw() unit.BitRate { return b.btlBw.Get() }

// LongTermBw returns the long-term bandwidth sample (tcp_bbr.c's lt_bw)
// and whether BBR uses it, taking the path for a policer's
// (bbr_lt_bw_sampling).
func (b *BBR) LongTermBw() (bw unit.BitRate, inUse bool) { return b.lt.bw, b.lt.use }

// RTprop returns the round-trip propagation time estimate.
func (b *BBR) RTprop() des.Duration { return b.rtProp }

// Rounds returns the number of round trips counted.
func (b *BBR) Rounds() int64 { return b.rounds }

// FilledPipe reports whether STARTUP found the bottleneck's rate.
func (b *BBR) FilledPipe() bool { return b.full.filled }

// Init implements Controller (section 4.2.1 BBRInit).
func (b *BBR) Init(s *State) {
	rng := b.rng
	*b = BBR{rng: rng, initCwnd: s.Cwnd}
	s.Ssthresh = math.MaxInt64 / 2
	b.enterStartup()
	bbrPacingFromRTT(s, s.InitSRTT, &b.seenRTT)
}

// bbrPacingFromRTT is bbr_init_pacing_rate_from_rtt (tcp_bbr.c; the same
// in the v2alpha tcp_bbr2.c), which bbr_init calls with the handshake's
// RTT and bbr_set_pacing_rate at the first RTT known: high_gain*cwnd/srtt
// once an RTT is known (has_seen_rtt), otherwise over a nominal 1 ms,
// less the 1 % margin.
func bbrPacingFromRTT(s *State, srtt des.Duration, seenRTT *bool) {
	if srtt > 0 {
		*seenRTT = true
		s.PacingRate = unit.ScaledRateOf((1-BBRPacingMargin)*BBRHighGain, s.Cwnd, srtt)
		return
	}
	s.PacingRate = unit.BytesPerSecond((1 - BBRPacingMargin) * BBRHighGain * float64(s.Cwnd) / 1e-3)
}

func (b *BBR) enterStartup() {
	b.mode = BBRStartup
}

// bdp returns bw*RTprop in bytes scaled by gain, or the initial window
// before the model has both (tcp_bbr.c bbr_bdp).
func (b *BBR) bdp(bw unit.BitRate, gain float64) float64 {
	if b.rtProp == 0 || bw == 0 {
		return gain * float64(b.initCwnd)
	}
	return bw.Scale(gain).BytesIn(b.rtProp)
}

// bw is tcp_bbr.c's bbr_bw, the rate BBR paces at and sizes cwnd from:
// the policer's long-term rate while it is in use, BtlBw otherwise.
// STARTUP's plateau test, DRAIN's exit and the gain cycle's inflight
// targets use BtlBw itself (bbr_max_bw).
func (b *BBR) bw() unit.BitRate {
	if b.lt.use {
		return b.lt.bw
	}
	return b.btlBw.Get()
}

// inflight is tcp_bbr.c's bbr_inflight at BtlBw: gain*BDP within the
// quantization budget.
func (b *BBR) inflight(s *State, gain float64) float64 {
	return b.quantizationBudget(s, b.bdp(b.btlBw.Get(), gain))
}

// quantizationBudget is tcp_bbr.c's bbr_quantization_budget (Linux 5.13):
// cwnd in whole segments (bbr_bdp rounds up) plus three TSO bursts
// (bbr_tso_segs_goal, which in v1 has no RTT term), rounded up to an even
// number of segments, plus 2 in the 1.25 phase of PROBE_BW "to ensure
// gain cycling gets inflight above BDP even for small BDPs".
func (b *BBR) quantizationBudget(s *State, cwnd float64) float64 {
	seg := float64(s.SMSS)
	n := math.Ceil(cwnd/seg-1e-9) + 3*float64(bbrV1TSOSegsGoal(s))
	n = math.Ceil(n/2) * 2
	if b.mode == BBRProbeBW && b.cycleIndex == 0 {
		n += 2
	}
	return n * seg
}

// OnPacketSent implements Controller: a send with nothing in flight
// restarts from idle (section 4.3.4.4).
func (b *BBR) OnPacketSent(now des.Time, s *State, bytes, inflight unit.Bytes, retransmit bool) {
	if inflight == bytes && !retransmit {
		b.idleRestart = true
	}
}

// OnAck implements Controller: section 4.2's per-ACK steps, BBRUpdateModel
// then the control parameters.
func (b *BBR) OnAck(s *State, a *Ack) {
	ackedSacked := max(a.Delivered-b.delivered, 0) // rs->acked_sacked
	b.updateRound(a)
	if a.Rate.Delivered > 0 && a.Rate.Interval >= a.MinRTT {
		// bbr_update_bw samples the policer's rate on a valid sample
		// only (tcp_rate_gen invalidates one shorter than min_rtt).
		b.ltSample(a.Now, s, a.Lost, a.Rate.AppLimited)
	}
	b.updateBtlBw(a)
	// bbr_update_ack_aggregation: a valid rate sample that delivered
	// something; bbr_extra_acked_win_rtts = 5 rounds.
	if a.Rate.Delivered > 0 && a.Rate.Interval >= a.MinRTT && ackedSacked > 0 {
		b.aggr.update(a.Now, ackedSacked, b.bw(), b.roundStart, bbr2ExtraAckedWin, s.Cwnd, s.SMSS)
	}
	b.updateCyclePhase(s, a)
	b.full.check(b.btlBw.Get(), b.roundStart, a.Rate.AppLimited)
	b.checkDrain(s, a)
	b.updateRTprop(s, a)
	b.setPacingRate(s, a)
	b.setCwnd(s, a, ackedSacked)
	if a.Rate.Delivered > 0 {
		b.idleRestart = false
	}
}

// updateRound is section 4.1.1.3: a round ends when a packet sent after
// the previous round's end is acknowledged.
func (b *BBR) updateRound(a *Ack) {
	b.delivered = a.Delivered
	b.roundStart = false
	if a.Rate.Delivered > 0 && a.Rate.PriorDelivered >= b.nextRoundDelivered {
		b.nextRoundDelivered = a.Delivered
		b.rounds++
		b.roundStart = true
		b.rec.conservation = false
	}
}

// updateBtlBw is section 4.1.1.5: app-limited samples enter the filter only
// if they raise it.
func (b *BBR) updateBtlBw(a *Ack) {
	if a.Rate.Delivered <= 0 || a.Rate.Interval < a.MinRTT {
		return
	}
	r := a.Rate.Rate()
	if r >= b.btlBw.Get() || !a.Rate.AppLimited {
		b.btlBw.Update(bbrBtlBwRounds, b.rounds, r)
	}
}

// updateCyclePhase is section 4.3.4.3.
func (b *BBR) updateCyclePhase(s *State, a *Ack) {
	if b.mode != BBRProbeBW || !b.isNextCyclePhase(s, a) {
		return
	}
	b.advanceCyclePhase(a.Now)
}

// isNextCyclePhase is tcp_bbr.c's bbr_is_next_cycle_phase: the phase
// ends after a min_rtt (gain 1), after a min_rtt once a loss or the
// in-flight target says the probe is done (gain above 1), or once the
// queue is drained or a min_rtt is over (gain below 1). The in-flight it
// judges is what will be in the network when the next skb departs
// (packetsInNetAtEDT), not prior_in_flight itself.
func (b *BBR) isNextCyclePhase(s *State, a *Ack) bool {
	full := a.Now.Sub(b.cycleStamp) > b.rtProp
	g := b.pacingGain()
	if g == 1 {
		return full
	}
	inflight := packetsInNetAtEDT(s, a, a.PriorPipe, b.bw(), g, bbrV1TSOSegsGoal(s))
	if g > 1 {
		return full && (a.Lost > 0 || inflight >= b.inflight(s, g))
	}
	return full || inflight <= b.inflight(s, 1)
}

// packetsInNetAtEDT is bbr_packets_in_net_at_edt (tcp_bbr.c since Linux
// 4.20, and tcp_bbr2.c): of inflight, what will still be in the network
// when the sender's next skb departs, a.PacingWait from now. What bw
// delivers meanwhile, in whole segments ((u64)bbr_bw * interval_us >>
// BW_SCALE), has left it; while the pacing gain raises inflight, the skb
// about to depart, tsoSegs segments (bbr_tso_segs_goal), is in it. A
// flow that pacing holds back so counts less than it has in flight, and
// a probing flow that TCP Small Queues holds at its target less one skb
// counts as having reached it.
func packetsInNetAtEDT(s *State, a *Ack, inflight unit.Bytes, bw unit.BitRate, gain float64, tsoSegs unit.Bytes) float64 {
	n := float64(inflight)
	if gain > 1 {
		n += float64(tsoSegs * s.SMSS)
	}
	wait := a.PacingWait / des.Microsecond * des.Microsecond // interval_us
	delivered := math.Floor(bw.BytesIn(wait)/float64(s.SMSS)) * float64(s.SMSS)
	return max(n-delivered, 0)
}

func (b *BBR) advanceCyclePhase(now des.Time) {
	b.cycleStamp = now
	b.cycleIndex = (b.cycleIndex + 1) % bbrCycleLen
}

// enterProbeBW is section 4.3.4.3: start at a random phase other than the
// 0.75 one (index 1).
func (b *BBR) enterProbeBW(now des.Time) {
	b.mode = BBRProbeBW
	b.cycleIndex = bbrCycleLen - 1 - b.rng.IntN(bbrCycleLen-1)
	b.advanceCyclePhase(now)
}

// bbrFullPipe is STARTUP's plateau test (section 4.3.2.2), shared by BBR
// and BBR2: the pipe is full once, over bbrFullBwCnt round starts without
// application limits, the bandwidth estimate has not grown by
// bbrFullBwGrow.
type bbrFullPipe struct {
	bw     unit.BitRate // the estimate the next must beat by bbrFullBwGrow
	count  int          // round starts since it was beaten
	filled bool
}

// check takes the bandwidth estimate at an ACK.
func (f *bbrFullPipe) check(bw unit.BitRate, roundStart, appLimited bool) {
	if f.filled || !roundStart || appLimited {
		return
	}
	if bw >= f.bw*bbrFullBwGrow {
		f.bw, f.count = bw, 0
		return
	}
	f.count++
	if f.count >= bbrFullBwCnt {
		f.filled = true
	}
}

// checkDrain is section 4.3.3 as bbr_check_drain runs it: the in-flight
// it judges is what will be in the network at the next departure
// (packetsInNetAtEDT) under the pacing gain the previous ACK set: Linux
// sets bbr->pacing_gain after bbr_check_drain (bbr_update_gains), so on
// the ACK that ends STARTUP it is still STARTUP's.
func (b *BBR) checkDrain(s *State, a *Ack) {
	g := b.pacingGain()
	if b.mode == BBRStartup && b.full.filled {
		b.mode = BBRDrain
	}
	if b.mode == BBRDrain && packetsInNetAtEDT(s, a, s.Pipe, b.bw(), g, bbrV1TSOSegsGoal(s)) <= b.inflight(s, 1) {
		b.enterProbeBW(a.Now)
	}
}

// updateRTprop is section 4.1.2.3 with PROBE_RTT (section 4.3.5).
func (b *BBR) updateRTprop(s *State, a *Ack) {
	b.expired = b.rtProp != 0 && a.Now > b.rtPropStamp.Add(bbrRTpropWin)
	if a.RTT > 0 && (b.rtProp == 0 || a.RTT < b.rtProp || b.expired) {
		b.rtProp = a.RTT
		b.rtPropStamp = a.Now
	}
	if b.mode != BBRProbeRTT && b.expired && !b.idleRestart {
		b.mode = BBRProbeRTT
		b.rec.save(s, true)
		b.probeRTTDone = 0
	}
	if b.mode != BBRProbeRTT {
		return
	}
	// Section 4.3.5: "Ignore low rate samples during ProbeRTT":
	// C.app_limited = delivered + packets_in_flight.
	s.AppLimited = max(a.Delivered+s.Pipe, 1)
	inflight := s.Pipe
	switch {
	case b.probeRTTDone == 0 && inflight <= bbrMinPackets*s.SMSS:
		b.probeRTTDone = a.Now.Add(bbrProbeRTTDur)
		b.probeRTTRoundDone = false
		b.nextRoundDelivered = a.Delivered
	case b.probeRTTDone != 0:
		if b.roundStart {
			b.probeRTTRoundDone = true
		}
		if b.probeRTTRoundDone && a.Now > b.probeRTTDone {
			b.rtPropStamp = a.Now
			s.Cwnd = max(s.Cwnd, b.rec.priorCwnd)
			if b.full.filled {
				b.enterProbeBW(a.Now)
			} else {
				b.enterStartup()
			}
		}
	}
}

// gains are tcp_bbr.c's bbr_update_gains: each mode's pacing and cwnd
// gains, in PROBE_BW the cycle's pacing gain, or 1 at a policer's rate.
func (b *BBR) gains() (pacing, cwnd float64) {
	switch b.mode {
	case BBRStartup:
		return BBRHighGain, BBRHighGain
	case BBRDrain:
		return bbrDrainGain, BBRHighGain
	case BBRProbeBW:
		if b.lt.use {
			return 1, bbrCwndGain
		}
		return bbrGainCycle[b.cycleIndex], bbrCwndGain
	}
	return 1, 1 // PROBE_RTT
}

func (b *BBR) pacingGain() float64 { p, _ := b.gains(); return p }
func (b *BBR) cwndGain() float64   { _, c := b.gains(); return c }

// setPacingRate is section 4.2.1 (bbrPace) at BtlBw.
func (b *BBR) setPacingRate(s *State, a *Ack) {
	bbrPace(s, a, b.bw(), b.pacingGain(), b.full.filled, &b.seenRTT)
}

// bbrPace is section 4.2.1, shared by BBR and BBR2 (which passes its own
// bandwidth estimate), in the order of bbr_set_pacing_rate (tcp_bbr.c,
// and the same in the v2alpha tcp_bbr2.c): first, until an RTT is known
// (has_seen_rtt), the rate restarts from high_gain*cwnd/SRTT
// (bbr_init_pacing_rate_from_rtt) whatever the bandwidth estimate; then
// pacing_gain*bw replaces it if the pipe is full or if that is higher,
// so that the rate is never lowered before the pipe is full. Without
// the first step a controller initialised before any RTT sample keeps
// its nominal 1 ms rate (high_gain*IW per ms, 331 Mbit/s for IW 10 of
// 1448 bytes) through all of STARTUP. Every rate is 1 % below that
// (tcp_bbr.c bbr_pacing_margin_percent; see BBRPacingMargin).
func bbrPace(s *State, a *Ack, bw unit.BitRate, gain float64, filledPipe bool, seenRTT *bool) {
	if !*seenRTT && a.SRTT > 0 {
		bbrPacingFromRTT(s, a.SRTT, seenRTT)
	}
	if bw == 0 {
		return // bbr_bw_to_pacing_rate's floor of 1 byte/s raises nothing
	}
	if r := bw.Scale((1 - BBRPacingMargin) * gain); filledPipe || r > s.PacingRate {
		s.PacingRate = r
	}
}

// setCwnd is section 4.2.3 (tcp_bbr.c bbr_set_cwnd). Its acked is
// rs->acked_sacked, the bytes the ACK newly delivered, SACKed ones
// included: an ACK that delivers nothing only caps cwnd in PROBE_RTT.
func (b *BBR) setCwnd(s *State, a *Ack, ackedSacked unit.Bytes) {
	if ackedSacked <= 0 {
		if b.mode == BBRProbeRTT {
			s.Cwnd = min(s.Cwnd, bbrMinPackets*s.SMSS)
		}
		return
	}
	// bbr_set_cwnd: target = bdp + extra_acked (once the pipe is full:
	// bbr_ack_aggregation_cwnd), within the quantization budget.
	target := b.bdp(b.bw(), b.cwndGain())
	if b.full.filled {
		target += b.aggr.cwnd(b.bw())
	}
	s.Cwnd = bbrGrowCwnd(s, a, ackedSacked, &b.rec, unit.Bytes(b.quantizationBudget(s, target)), b.full.filled, b.initCwnd)
	if b.mode == BBRProbeRTT {
		s.Cwnd = min(s.Cwnd, bbrMinPackets*s.SMSS)
	}
}

// bbrGrowCwnd is the part of bbr_set_cwnd that BBR and BBR2 share: packet
// conservation in recovery (bbrRecovery.onAck), otherwise growth by the
// bytes acknowledged towards target once the pipe is full, and without
// bound before that while below target or the initial window's worth is
// not yet delivered; never below bbrMinPackets segments.
func bbrGrowCwnd(s *State, a *Ack, acked unit.Bytes, rec *bbrRecovery, target unit.Bytes, filledPipe bool, initCwnd unit.Bytes) unit.Bytes {
	cwnd, conserve := rec.onAck(s, a, acked)
	if conserve {
		return cwnd
	}
	switch {
	case filledPipe:
		cwnd = min(cwnd+acked, target)
	case cwnd < target || a.Delivered < initCwnd:
		cwnd += acked
	}
	return max(cwnd, bbrMinPackets*s.SMSS)
}

// OnCongestionEvent implements Controller: section 4.2.3.4 on entering
// fast recovery (see bbrRecovery), and a new round starts. Ssthresh is set
// to the same window, which the NewReno recovery algorithm inflates by the
// duplicate ACKs (one segment out per segment delivered: packet
// conservation).
func (b *BBR) OnCongestionEvent(now des.Time, s *State, flightSize unit.Bytes) {
	if b.rec.enter(s, b.mode == BBRProbeRTT) {
		b.nextRoundDelivered = b.delivered
		s.Ssthresh = s.Cwnd
	}
}

// OnExitRecovery implements Controller: restore the window saved on entry
// (section 4.2.3.4).
func (b *BBR) OnExitRecovery(now des.Time, s *State) {
	b.rec.exit(s)
	s.Ssthresh = math.MaxInt64 / 2
}

// UndoCwnd implements Undoer as Linux's bbr_undo_cwnd (tcp_bbr.c): a
// spurious reduction means the bandwidth plateau STARTUP saw may be an
// artefact, so its test starts over, and the window stays as it is: the
// window saved on entering recovery comes back when the sender leaves it
// (bbrRecovery.exit, Linux's bbr_set_cwnd_to_recover_or_restore).
func (b *BBR) UndoCwnd(s *State, priorCwnd unit.Bytes) unit.Bytes {
	b.full.bw, b.full.count = 0, 0
	b.lt.reset(s)
	return s.Cwnd
}

// OnRTO implements Controller: section 4.2.3.4 upon a retransmission
// timeout, cwnd = 1 packet (see bbrRecovery); as tcp_bbr.c bbr_set_state
// does for the Loss state, STARTUP's plateau test starts over.
func (b *BBR) OnRTO(now des.Time, s *State, flightSize unit.Bytes, repeated bool) {
	b.rec.timeout(s, b.mode == BBRProbeRTT)
	b.full.bw = 0
	// bbr_set_state treats a timeout as the end of a round and as a loss
	// for the policer's sampling (rs.losses = 1).
	b.roundStart = true
	b.ltSample(now, s, 1, false)
	s.Ssthresh = math.MaxInt64 / 2
}
