package cc

import (
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// BBR's long-term bandwidth sampling, tcp_bbr.c of Linux 5.13
// (bbr_lt_bw_sampling, bbr_lt_bw_interval_done, bbr_reset_lt_bw_sampling
// and bbr_reset_lt_bw_sampling_interval). Token-bucket policers drop
// whatever exceeds their rate, which BBR, not taking loss as congestion,
// would keep probing into. So from its first loss BBR samples intervals of
// 4 to 16 round trips, each ended by a loss; an interval that lost at
// least 50/256 (about 20 %) of what it delivered is lossy, and its rate is
// what it delivered over its length in whole milliseconds. Two lossy
// intervals in a row whose rates agree within 1/8, or within 4 kbit/s,
// say a policer: BBR then paces at, and sizes cwnd from, their mean
// (bbr_bw returns lt_bw) with a pacing gain of 1, until 48 round trips of
// PROBE_BW have passed, when it resets the sampling and restarts the gain
// cycle at a random phase (bbr_reset_probe_bw_mode). Running out of data
// (an application-limited sample), an interval longer than 16 round trips
// and an undo (bbr_undo_cwnd) reset the sampling. Linux counts packets;
// this counts bytes, which gives the same ratio of full segments.
const (
	bbrLtIntvlMinRTTs = 4          // bbr_lt_intvl_min_rtts
	bbrLtLossThresh   = 50         // bbr_lt_loss_thresh, of BBR_UNIT = 256
	bbrLtBwRatio      = 1.0 / 8    // bbr_lt_bw_ratio = BBR_UNIT / 8
	bbrLtBwDiff       = 4000.0 / 8 // bbr_lt_bw_diff, bytes/s: 4 kbit/s
	bbrLtBwMaxRTTs    = 48         // bbr_lt_bw_max_rtts
	bbrLtMaxMs        = 4294967    // ~0U / USEC_PER_MSEC: an interval this long resets
	bbrScale          = 256        // BBR_UNIT
	bbrLtStampUnit    = des.Millisecond
)

// msOf is t in whole milliseconds, as tcp_bbr.c stamps the intervals
// (div_u64(tp->delivered_mstamp, USEC_PER_MSEC)).
func msOf(t des.Time) int64 { return int64(t.Sub(0) / bbrLtStampUnit) }

// bbrLongTerm is the state of the long-term sampling (struct bbr's lt_*
// fields).
type bbrLongTerm struct {
	sampling bool         // lt_is_sampling
	use      bool         // lt_use_bw
	bw       unit.BitRate // lt_bw: the last lossy interval's rate, or the policer's
	rounds   int          // lt_rtt_cnt: round trips in the interval, or at lt_bw
	// The interval's start: tp->delivered_mstamp in whole milliseconds
	// (lt_last_stamp), tp->delivered and tp->lost.
	lastStampMs   int64
	lastDelivered unit.Bytes
	lastLost      unit.Bytes
}

// resetInterval starts a sampling interval now
// (bbr_reset_lt_bw_sampling_interval).
func (lt *bbrLongTerm) resetInterval(s *State) {
	lt.lastStampMs = msOf(s.DeliveredAt)
	lt.lastDelivered = s.Delivered
	lt.lastLost = s.Lost
	lt.rounds = 0
}

// reset stops using and sampling the long-term rate
// (bbr_reset_lt_bw_sampling).
func (lt *bbrLongTerm) reset(s *State) {
	lt.bw = 0
	lt.use = false
	lt.sampling = false
	lt.resetInterval(s)
}

// ltSample is bbr_lt_bw_sampling for an ACK (or a timeout) that marked
// losses lost and whose rate sample was application-limited or not.
func (b *BBR) ltSample(now des.Time, s *State, losses unit.Bytes, appLimited bool) {
	lt := &b.lt
	if lt.use {
		if b.mode == BBRProbeBW && b.roundStart {
			lt.rounds++
			if lt.rounds >= bbrLtBwMaxRTTs {
				lt.reset(s)
				b.enterProbeBW(now) // bbr_reset_probe_bw_mode
			}
		}
		return
	}
	// "Wait for the first loss before sampling, to let the policer
	// exhaust its tokens."
	if !lt.sampling {
		if losses == 0 {
			return
		}
		lt.resetInterval(s)
		lt.sampling = true
	}
	if appLimited {
		lt.reset(s) // "to avoid underestimates, reset sampling if we run out of data"
		return
	}
	if b.roundStart {
		lt.rounds++
	}
	if lt.rounds < bbrLtIntvlMinRTTs {
		return
	}
	if lt.rounds > 4*bbrLtIntvlMinRTTs {
		lt.reset(s) // the interval is too long
		return
	}
	// The interval ends on a loss, when the policer's tokens are spent.
	if losses == 0 {
		return
	}
	lost := s.Lost - lt.lastLost
	delivered := s.Delivered - lt.lastDelivered
	if delivered <= 0 || lost*bbrScale < bbrLtLossThresh*delivered {
		return // not lossy enough yet
	}
	ms := msOf(s.DeliveredAt) - lt.lastStampMs
	if ms < 1 {
		return // shorter than a millisecond: wait
	}
	if ms >= bbrLtMaxMs {
		lt.reset(s)
		return
	}
	b.ltIntervalDone(s, unit.RateOf(delivered, des.Duration(ms)*bbrLtStampUnit))
}

// ltIntervalDone is bbr_lt_bw_interval_done: a lossy interval of rate bw
// ended; if the previous one's rate agrees, a policer is assumed and
// their mean is used.
func (b *BBR) ltIntervalDone(s *State, bw unit.BitRate) {
	lt := &b.lt
	if lt.bw > 0 {
		diff := unit.BitRate(math.Abs(float64(bw - lt.bw)))
		// bbr_rate_bytes_per_sec at gain 1 carries the pacing margin.
		if float64(diff) <= bbrLtBwRatio*float64(lt.bw) || diff.BytesPerSecond()*(1-BBRPacingMargin) <= bbrLtBwDiff {
			lt.bw = (bw + lt.bw) / 2
			lt.use = true // PROBE_BW paces at gain 1 now, "to try to avoid drops" (gains)
			lt.rounds = 0
			return
		}
	}
	lt.bw = bw
	lt.resetInterval(s)
}
