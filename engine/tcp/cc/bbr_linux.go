package cc

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// Linux BBR's sizing of TSO bursts and its ACK-aggregation allowance, as
// tcp_bbr2.c of the v2alpha branch (Linux 5.13 base) has them.
const (
	// bbr_min_tso_rate: below 1.2 Mbit/s (150 kB/s of pacing) a burst
	// may be 1 segment, else at least 2 (bbr_min_tso_segs).
	bbrMinTSORate = 1.2 * unit.Mbps
	// sk_pacing_shift = 10: a burst holds about 1 ms (2^-10 s) at the
	// pacing rate.
	bbrPacingShift = 10
	// bbr_tso_rtt_shift = 9: the RTT allowance GSO_MAX_SIZE >> (min_rtt
	// / 512 us) halves every 512 us of min_rtt.
	bbrTSORTTShift = 9
	// GSO_MAX_SIZE - 1 - MAX_TCP_HEADER: 65536 - 1 - 320 bytes, the
	// largest GSO payload (MAX_TCP_HEADER = L1_CACHE_ALIGN(128 +
	// MAX_HEADER) = 320 on x86-64 with LL_MAX_HEADER 128).
	bbrGSOMaxSize    = 65536
	bbrMaxTSOBytes   = bbrGSOMaxSize - 1 - 320
	bbrExtraAckedMax = 100 * des.Millisecond // bbr_extra_acked_max_us
	// bbr_ack_epoch_acked_reset_thresh: an epoch that has counted 2^20
	// packets starts over.
	bbrAckEpochReset = 1 << 20
)

// bbrTSOSegsGoal is tcp_bbr2.c's bbr_tso_segs_goal
// (bbr_tso_segs_generic with GSO_MAX_SIZE): the segments of one TSO burst,
// the bytes of 1 ms at the pacing rate plus 64 KiB halved for every
// 512 us of min_rtt (0 while unknown), at most a GSO packet, at least
// bbr_min_tso_segs.
func bbrTSOSegsGoal(s *State, minRTT des.Duration) unit.Bytes {
	bytes := unit.Bytes(s.PacingRate.BytesPerSecond()) >> bbrPacingShift
	if minRTT > 0 {
		if r := int64(minRTT/des.Microsecond) >> bbrTSORTTShift; r < 32 {
			bytes += bbrGSOMaxSize >> r
		}
	}
	bytes = min(bytes, bbrMaxTSOBytes)
	minSegs := unit.Bytes(2)
	if s.PacingRate < bbrMinTSORate {
		minSegs = 1
	}
	return max(bytes/s.SMSS, minSegs)
}

// bbrV1TSOSegsGoal is tcp_bbr.c's bbr_tso_segs_goal (BBR v1): the same
// burst without the RTT allowance, capped at 127 segments (0x7F), which
// binds only for segments under 514 bytes.
func bbrV1TSOSegsGoal(s *State) unit.Bytes {
	return min(bbrTSOSegsGoal(s, 0), 0x7F)
}

// bbrAckAggregation is bbr_update_ack_aggregation: it estimates how much
// more the ACKs delivered than the bandwidth estimate explains over an
// epoch (ACK aggregation by delayed ACKs, GRO or a link's batches), the
// windowed maximum of that excess over 5-10 rounds (1-2 in STARTUP for
// BBRv2), which the cwnd target adds so that sending goes on through the
// silences between aggregated ACKs.
type bbrAckAggregation struct {
	epochStart des.Time
	epochAcked unit.Bytes
	extra      [2]unit.Bytes
	idx        int
	winRounds  int
}

// update takes one ACK that delivered ackedSacked bytes with a valid rate
// sample; bw is the model's bandwidth, thresh the window in rounds.
func (g *bbrAckAggregation) update(now des.Time, ackedSacked unit.Bytes, bw unit.BitRate, roundStart bool, thresh int, cwnd, smss unit.Bytes) {
	if roundStart {
		g.winRounds = min(g.winRounds+1, 0x1F)
		if g.winRounds >= thresh {
			g.winRounds = 0
			g.idx ^= 1
			g.extra[g.idx] = 0
		}
	}
	// Data expected over the epoch at the estimated bandwidth.
	expected := unit.Bytes(bw.BytesIn(now.Sub(g.epochStart)))
	// "Reset the aggregation epoch if ACK rate is below expected rate or
	// significantly large no. of ack received since epoch".
	if g.epochAcked <= expected || g.epochAcked+ackedSacked >= bbrAckEpochReset*smss {
		g.epochAcked = 0
		g.epochStart = now
		expected = 0
	}
	g.epochAcked = min(g.epochAcked+ackedSacked, (bbrAckEpochReset-1)*smss)
	extra := min(g.epochAcked-expected, cwnd)
	g.extra[g.idx] = max(g.extra[g.idx], extra)
}

// cwnd is bbr_ack_aggregation_cwnd with bbr_extra_acked_gain = 1: the
// largest recent excess, at most 100 ms at bw.
func (g *bbrAckAggregation) cwnd(bw unit.BitRate) float64 {
	return min(float64(max(g.extra[0], g.extra[1])), bw.BytesIn(bbrExtraAckedMax))
}
