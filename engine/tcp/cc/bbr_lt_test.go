package cc_test

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// TestBBRLongTermPolicer drives BBR v1 hook by hook through a path that
// delivers 10 Mbit/s on average, one segment every 1.158 ms, over a 20 ms
// round trip, with one rate sample per round trip an ACK burst at 1.5
// times that (so BtlBw, the 10-round maximum, is 15 Mbit/s), and the
// losses of the case: one segment marked lost every k-th ACK, a loss
// ratio lost/delivered of 1/k. tcp_bbr.c's long-term sampling
// (bbr_lt_bw_sampling) takes an interval as lossy at lost*256 >=
// 50*delivered, 19.5 %:
//   - at 1/4 (25 %) two lossy intervals of 4 to 16 rounds agree (both
//     10 Mbit/s), so BBR takes a policer at their mean: it paces at 99 %
//     of 10 Mbit/s (within 2 %: the intervals are timed in whole
//     milliseconds) with a gain of 1, not 99 % of 1.5 times that with the
//     gain cycle, and after 48 round trips of PROBE_BW (bbr_lt_bw_max_rtts)
//     it drops the policer and cycles its gains again from BtlBw;
//   - at 1/6 (16.7 %) no interval is lossy: BBR never leaves BtlBw.
func TestBBRLongTermPolicer(t *testing.T) {
	const (
		smss  = 1448
		rtt   = 20 * des.Millisecond
		rate  = 10 * unit.Mbps
		burst = 1.5
	)
	segTime := des.Duration(float64(smss*8) / float64(rate) * 1e9)
	perRound := int(rtt / segTime) // segments delivered per round trip
	// What the path holds: the segments of one round trip.
	inflight := unit.Bytes(perRound) * smss
	burstBw := unit.RateOf(unit.Bytes(float64(perRound)*burst)*smss, rtt)
	for _, tc := range []struct {
		name      string
		lossEvery int
		policed   bool
	}{
		{"loss 25 %", 4, true},
		{"loss 16.7 %", 6, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := cc.NewBBR(1)
			s := &cc.State{Cwnd: 10 * smss, SMSS: smss, InitSRTT: rtt}
			b.Init(s)
			var (
				now         des.Time
				delivered   unit.Bytes
				lost        unit.Bytes
				policedAcks int // ACKs in PROBE_BW at the policer's rate
				// The first stretch at the policer's rate, in ACKs, and
				// whether the gain cycle came back after it.
				first, end = -1, -1
				cycledBack bool
			)
			const acks = 120 * 17 // about 120 round trips
			for i := 1; i <= acks; i++ {
				now = now.Add(segTime)
				delivered += smss
				a := &cc.Ack{
					Now: now, Acked: smss, Inflight: inflight, PriorPipe: inflight, RTT: rtt, MinRTT: rtt, SRTT: rtt,
					Delivered: delivered,
					Rate: cc.RateSample{
						Delivered: unit.Bytes(perRound) * smss, Interval: rtt,
						PriorDelivered: delivered - unit.Bytes(perRound)*smss,
					},
				}
				if i%perRound == 0 {
					a.Rate.Delivered = unit.Bytes(float64(perRound)*burst) * smss // the burst sample
				}
				if i%tc.lossEvery == 0 {
					a.Lost = smss
					lost += smss
				}
				s.Pipe = inflight
				s.Delivered, s.DeliveredAt, s.Lost = delivered, now, lost
				b.OnAck(s, a)

				ltBw, inUse := b.LongTermBw()
				if !inUse {
					if first >= 0 && end < 0 {
						end = i
					}
					if end >= 0 && b.Mode() == cc.BBRProbeBW && b.PacingGain() != 1 {
						cycledBack = true
					}
					continue
				}
				if b.Mode() != cc.BBRProbeBW {
					continue
				}
				policedAcks++
				if first < 0 {
					first = i
				}
				if g := b.PacingGain(); g != 1 {
					t.Fatalf("ACK %d: pacing gain %v at the policer's rate, want 1", i, g)
				}
				want := ltBw.Scale(1 - cc.BBRPacingMargin)
				if got := s.PacingRate; math.Abs(float64(got-want)) > 1e-6*float64(want) {
					t.Fatalf("ACK %d: pacing rate %v, want 99 %% of lt_bw %v", i, got, ltBw)
				}
				if e := math.Abs(float64(ltBw)/float64(rate) - 1); e > 0.02 {
					t.Fatalf("ACK %d: lt_bw %v, want %v within 2 %%", i, ltBw, rate)
				}
			}
			if bw := b.BtlBw(); bw != burstBw {
				t.Errorf("BtlBw %v, want %v (the burst samples)", bw, burstBw)
			}
			if !tc.policed {
				if policedAcks > 0 {
					t.Errorf("used a policer's rate for %d ACKs, want none", policedAcks)
				}
				return
			}
			if policedAcks == 0 {
				t.Fatal("never took the path for a policer")
			}
			if end < 0 {
				t.Fatal("still at the policer's rate at the end, want it dropped after 48 round trips")
			}
			// 48 round trips of perRound ACKs each, give or take the round
			// in which it started.
			if rounds := float64(end-first) / float64(perRound); math.Abs(rounds-48) > 1 {
				t.Errorf("used the policer's rate for %.1f round trips, want 48", rounds)
			}
			if !cycledBack {
				t.Error("no gain cycling after the policer's rate was dropped")
			}
		})
	}
}
