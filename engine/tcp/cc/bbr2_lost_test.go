package cc

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// bbr2_inflight_hi_from_lost_skb of tcp_bbr2.c (v2alpha), worked by hand
// in packets (BBR_UNIT 256, loss_thresh 5): inflight_prev = tx_in_flight -
// pcount, lost_prev = lost - pcount, loss_budget = (inflight_prev * 5 +
// 255) >> 8, and lost_prefix = 0 when lost_prev >= loss_budget, else
// ((loss_budget - lost_prev) << 8) / 251; the result is inflight_prev +
// lost_prefix. Exact: the kernel's integer arithmetic leaves no
// tolerance.
func TestBBR2InflightHiFromLostSegment(t *testing.T) {
	const smss = 1448
	for _, tc := range []struct {
		name              string
		bytes, txIn, lost unit.Bytes // packets
		want              float64    // packets; +Inf where the kernel returns ~0U
	}{
		// 99*5+255 = 750 >> 8 = 2: the 2 earlier losses already reach it.
		{"earlier losses crossed", 1, 100, 3, 99},
		// 199*5+255 = 1250 >> 8 = 4; (4-3) << 8 = 256 / 251 = 1.
		{"crossed within the segment", 1, 200, 4, 200},
		// 499*5+255 = 2750 >> 8 = 10; (10-2) << 8 = 2048 / 251 = 8.
		{"prefix of 8", 1, 500, 3, 507},
		// 998*5+255 = 5245 >> 8 = 20; (20-1) << 8 = 4864 / 251 = 19.
		{"two-packet segment", 2, 1000, 3, 1017},
		// 0*5+255 >> 8 = 0 <= lost_prev 0: inflight_prev 0.
		{"alone in flight", 1, 1, 1, 0},
		{"fewer in flight than the segment", 2, 1, 2, math.Inf(1)},
		{"fewer lost than the segment", 2, 100, 1, math.Inf(1)},
	} {
		seg := LostSegment{Bytes: tc.bytes * smss, TxInFlight: tc.txIn * smss, Lost: tc.lost * smss}
		got := inflightHiFromLost(seg, smss)
		if want := tc.want * smss; got != want {
			t.Errorf("%s: inflight_hi_from_lost_skb(tx_in_flight %d, lost %d, pcount %d) = %.2f packets, want %.0f",
				tc.name, tc.txIn, tc.lost, tc.bytes, got/smss, tc.want)
		}
	}
}

// bbr2_skb_marked_lost: a mark while the samples reflect a probe
// (bw_probe_samples) and the segment's own loss rate exceeds 2 % cuts
// inflight_hi at once, to max(inflight_hi_from_lost_skb, 0.7 x target
// inflight) (bbr2_handle_inflight_too_high), and turns PROBE_UP to DOWN;
// a rate at or below 2 %, or a mark outside a probe, only starts the
// loss round; an app-limited segment ends the probe without setting
// inflight_hi. Turning to DOWN resets the congestion signals
// (bbr2_start_bw_probe_down), so the mark's loss round ends with the
// probe. The flow: 100 Mbit/s, min RTT 10 ms, cwnd 200 packets of 1448
// B, so the target inflight is min(BDP 87 packets + 2 in PROBE_UP, cwnd)
// = 89 packets (three TSO bursts of 8 packets are fewer) and 0.703 of it
// is 62.6 packets.
func TestBBR2SegmentLostInProbe(t *testing.T) {
	const smss = 1448
	for _, tc := range []struct {
		name        string
		probing     bool
		txIn, lost  unit.Bytes // packets
		appLimited  bool
		wantHi      float64 // packets, +Inf: unset
		wantPhase   BBR2Phase
		wantTooHigh bool
	}{
		// 500*5>>8 = 9 < 10 lost: too high; 499*5+255 >> 8 = 10, (10-9)
		// << 8 / 251 = 1: from_lost_skb 500 > 62.6.
		{"crossed at 500", true, 500, 10, false, 500, BBR2Down, true},
		// 100*5>>8 = 1 < 3: too high; from_lost_skb 99 > 62.6.
		{"crossed at 99", true, 100, 3, false, 99, BBR2Down, true},
		// 60*5>>8 = 1 < 2: too high; from_lost_skb 59 < 0.703*89.
		{"floored at 0.7 target", true, 60, 2, false, (1 - bbr2Beta) * 89, BBR2Down, true},
		// 500*5>>8 = 9, not below 9 lost: within the threshold.
		{"at the threshold", true, 500, 9, false, math.Inf(1), BBR2Up, false},
		{"not probing", false, 500, 10, false, math.Inf(1), BBR2Up, false},
		{"app-limited", true, 500, 10, true, math.Inf(1), BBR2Down, true},
	} {
		s := State{Cwnd: 200 * smss, SMSS: smss}
		b := probingBBR2(&s)
		b.probeSamples = tc.probing
		b.OnSegmentLost(des.Time(des.Millisecond), &s, LostSegment{
			Bytes: smss, TxInFlight: tc.txIn * smss, Lost: tc.lost * smss, AppLimited: tc.appLimited, Delivered: 777,
		})
		if got, want := b.inflightHi, tc.wantHi*smss; math.Abs(got-want) > 1e-6 && !(math.IsInf(got, 1) && math.IsInf(want, 1)) {
			t.Errorf("%s: inflight_hi = %.2f packets, want %.2f", tc.name, got/smss, tc.wantHi)
		}
		if b.phase != tc.wantPhase || b.prevProbeTooHigh != tc.wantTooHigh {
			t.Errorf("%s: phase %v, prev_probe_too_high %v; want %v, %v", tc.name, b.phase, b.prevProbeTooHigh, tc.wantPhase, tc.wantTooHigh)
		}
		if tc.wantTooHigh && b.probeSamples {
			t.Errorf("%s: bw_probe_samples still set: the probe must react only once", tc.name)
		}
		if down := tc.wantPhase == BBR2Down; b.lossInRound == down || b.lossRoundDelivered != 777 {
			t.Errorf("%s: loss_in_round %v from %d, want %v from tp->delivered 777", tc.name, b.lossInRound, b.lossRoundDelivered, !down)
		}
	}
}

// Once the sender reports marks one by one, an ACK's newly lost bytes
// are not a second mark: a loss round that the ACK's own round start
// closed stays closed, where without per-segment reports the ACK's Lost
// starts the next one (the marks it stands for).
func TestBBR2AckLostAfterSegmentMarks(t *testing.T) {
	for _, tc := range []struct {
		name      string
		perSeg    bool
		wantRound bool
	}{
		{"marks reported", true, false},
		{"marks from the ACK", false, true},
	} {
		b := NewBBR2(1)
		s := State{Cwnd: 100 * 1448, SMSS: 1448}
		b.Init(&s)
		if tc.perSeg {
			b.OnSegmentLost(0, &s, LostSegment{Bytes: 1448, TxInFlight: 50 * 1448, Lost: 1448, Delivered: 10 * 1448})
			b.lossInRound = false // the round that held the mark has ended
		}
		a := Ack{Now: des.Time(des.Millisecond), Acked: 1448, Delivered: 20 * 1448, Lost: 1448, MinRTT: des.Millisecond,
			Rate: RateSample{Delivered: 1448, Interval: 10 * des.Millisecond, PriorDelivered: 0}}
		b.OnAck(&s, &a)
		// The ACK's round start (prior_delivered 0 >= loss_round_delivered
		// 1 fails, so no loss-round start) leaves loss_in_round as the
		// marks set it.
		if b.lossInRound != tc.wantRound {
			t.Errorf("%s: loss_in_round = %v, want %v", tc.name, b.lossInRound, tc.wantRound)
		}
	}
}

// The departure-time in-flight reads the gain the kernel holds, not the
// phase's: a loss that ends PROBE_UP between two ACKs
// (bbr2_skb_marked_lost -> bbr2_start_bw_probe_down) changes only
// cycle_idx, and bbr->pacing_gain stays 5/4 until bbr_update_gains at the
// end of the next ACK's model update. So on that ACK DOWN's test for
// CRUISE counts the skb about to depart (bbr_tso_segs_goal, 8 packets at
// 100 Mbit/s) and a flight just at the threshold stays in DOWN; on the
// ACK after, under 3/4, the same flight moves to CRUISE. Same flow as
// TestBBR2SegmentLostInProbe.
func TestBBR2DownJudgedUnderLastACKsGain(t *testing.T) {
	const smss = 1448
	s := State{Cwnd: 200 * smss, SMSS: smss}
	b := probingBBR2(&s)
	b.ackGain = b.pacingGain // an ACK in PROBE_UP has run bbr_update_gains
	b.probeSamples = true
	b.OnSegmentLost(des.Time(des.Millisecond), &s, LostSegment{Bytes: smss, TxInFlight: 500 * smss, Lost: 10 * smss, Delivered: 777})
	if b.phase != BBR2Down || b.pacingGain != 0.75 || b.ackGain != 1.25 {
		t.Fatalf("after the loss: phase %v, pacing gain %g, gain at the last ACK %g; want DOWN, 0.75, 1.25", b.phase, b.pacingGain, b.ackGain)
	}
	threshold := min(b.withHeadroom(&s), b.inflight(&s, b.MaxBw(), 1))
	prior := unit.Bytes(threshold) / smss * smss // whole packets, at or below it
	a := Ack{Now: des.Time(2 * des.Millisecond), PriorPipe: prior, Delivered: 778}
	b.updateCyclePhase(&s, &a, 0)
	if b.phase != BBR2Down {
		t.Errorf("first ACK after the loss, %d packets in flight (threshold %.1f): phase %v, want DOWN (the 5/4 gain counts the departing skb)", prior/smss, threshold/smss, b.phase)
	}
	b.setPacingRate(&s, &a)
	if b.ackGain != 0.75 {
		t.Fatalf("gain at the last ACK = %g after bbr_update_gains, want 0.75", b.ackGain)
	}
	a.Now = des.Time(3 * des.Millisecond)
	b.updateCyclePhase(&s, &a, 0)
	if b.phase != BBR2Cruise {
		t.Errorf("second ACK, %d packets in flight: phase %v, want CRUISE", prior/smss, b.phase)
	}
}

// probingBBR2 returns a BBRv2 flow of s (cwnd and SMSS set) that has just
// begun PROBE_UP at 100 Mbit/s with a 10 ms minimum RTT.
func probingBBR2(s *State) *BBR2 {
	b := NewBBR2(1)
	b.Init(s)
	s.PacingRate = 100 * unit.Mbps
	b.mode, b.full.filled, b.minRTT = BBRProbeBW, true, 10*des.Millisecond
	b.bwHi = [2]unit.BitRate{100 * unit.Mbps, 0}
	b.startUp(s, 0)
	return b
}
