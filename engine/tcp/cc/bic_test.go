package cc

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// bictcp_update's cnt (ACKs per segment of growth) in tcp_bic.c's integer
// arithmetic, B = 4, max_increment 16, low_window 14, smooth_part 20,
// scaled by delayed_ack (packets per ACK << 4). Each value by hand from
// the kernel's expressions; exact (integers).
func TestBICCnt(t *testing.T) {
	tests := []struct {
		cwnd, lastMax, delayedAck, want uint32
	}{
		{10, 1000, 16, 10},   // low window: Reno, cnt = cwnd, unscaled
		{14, 1000, 32, 14},   // at low_window still Reno
		{500, 1000, 16, 31},  // dist 500/4 = 125 > 16: cwnd/16 = 31
		{960, 1000, 16, 96},  // dist 40/4 = 10: cwnd/dist
		{961, 1000, 16, 106}, // dist 39/4 = 9 (floor): 961/9 = 106
		{998, 1000, 16, 4990},
		{1002, 1000, 16, 5010}, // below W_max + B: cwnd*20/4
		{1030, 1000, 16, 103},  // below W_max + 48: cwnd*3/(cwnd - W_max)
		{1100, 1000, 16, 68},   // 1100/16
		{100, 0, 16, 6},        // no loss yet: 100/16 = 6, under the cap of 20
		{1000, 0, 16, 20},      // 1000/16 = 62 capped at 20 (5 % per RTT)
		{1000, 0, 32, 10},      // two packets per ACK: (20 << 4) / 32
		{500, 1000, 32, 15},    // (31 << 4) / 32
		{500, 1000, 31, 16},    // (31 << 4) / 31: one packet per ACK as the EWMA settles
		{20, 1000, 48, 1},      // 20/16 = 1, (1 << 4) / 48 = 0: "cannot be zero"
	}
	for _, tt := range tests {
		if got := bicCnt(tt.cwnd, tt.lastMax, tt.delayedAck); got != tt.want {
			t.Errorf("bicCnt(%d, %d, %d) = %d, want %d", tt.cwnd, tt.lastMax, tt.delayedAck, got, tt.want)
		}
	}
}

// bicAck feeds one ACK of n segments to b in congestion avoidance.
func bicAck(b *BIC, s *State, now des.Time, n unit.Bytes) {
	b.OnAck(s, &Ack{Now: now, Acked: n * s.SMSS})
}

// A hand trace of bictcp_cong_avoid after a loss at 1000 segments:
// bictcp_recalc_ssthresh gives ssthresh = 1000*819/1024 = 799 and W_max
// = 1000. With delayed ACKs (2 segments per ACK) delayed_ack stays at
// 32 (32 + 2 - (32 >> 4)), so at cwnd 799 cnt = (799/16 = 49 << 4)/32 =
// 24 segments, and each ACK hands tcp_cong_avoid_ai the 2 segments it
// covers (Linux 5.7 and later): the 12th ACK makes cwnd 800; at 800,
// cnt = (50 << 4)/32 = 25, so 13 ACKs more (26 credits) make it 801, at
// the 25th. With one segment per ACK the EWMA settles at 31 (32 + 1 - 2,
// then 31 + 1 - 1): the kernel's truncation leaves it one short of 32,
// so cnt at 799 is (49 << 4)/31 = 25: the 25th ACK makes cwnd 800, the
// 50th 801. Per segment acknowledged the two grow alike (cnt 24 or 25),
// about twice the paper's increment (cnt 49) per window.
func TestBICTrace(t *testing.T) {
	for _, tc := range []struct {
		name          string
		perAck        unit.Bytes
		to800, to801  int // ACKs after the loss that reach 800 and 801
		delayedAckEnd uint32
	}{
		{"delayed ACKs", 2, 12, 25, 32},
		{"one segment per ACK", 1, 25, 25 + 25, 31},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBIC(ABCUnlimited)
			s := State{Cwnd: 1000 * smss, SMSS: smss}
			b.Init(&s)
			b.OnCongestionEvent(0, &s, s.Cwnd)
			if s.Ssthresh != 799*smss || s.Cwnd != 799*smss || b.lastMax != 1000 {
				t.Fatalf("after the loss: ssthresh %d, cwnd %d segments, W_max %d; want 799, 799, 1000", s.Ssthresh/smss, s.Cwnd/smss, b.lastMax)
			}
			now := des.Time(0)
			for i := 1; i <= tc.to801; i++ {
				now = now.Add(des.Millisecond)
				bicAck(b, &s, now, tc.perAck)
				want := unit.Bytes(799)
				switch {
				case i >= tc.to801:
					want = 801
				case i >= tc.to800:
					want = 800
				}
				if s.Cwnd != want*smss {
					t.Fatalf("after ACK %d: cwnd = %d B (%d segments), want %d segments", i, s.Cwnd, s.Cwnd/smss, want)
				}
			}
			if b.delayedAck != tc.delayedAckEnd {
				t.Errorf("delayed_ack = %d, want %d", b.delayedAck, tc.delayedAckEnd)
			}
		})
	}
}

// bictcp_recalc_ssthresh and bictcp_state, by hand: beta 819/1024 above
// low_window, half at or below it (floor 2); fast convergence W_max =
// cwnd*(1024+819)/2048 when the loss comes below the previous W_max; a
// timeout keeps that ssthresh, sets cwnd to 1 and forgets W_max (so the
// 5 % per RTT floor of a flow without loss applies again).
func TestBICDecrease(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		prevMax, cwnd          uint32
		ssthresh, lastMaxAfter uint32
	}{
		{"first loss", 0, 1000, 799, 1000},
		{"fast convergence", 1000, 900, 719, 809}, // 900*819/1024 = 719.8; 900*1843/2048 = 809.9
		{"above W_max", 800, 900, 719, 900},
		{"just above low window", 0, 15, 11, 15}, // 15*819/1024 = 11.99
		{"low window halves", 0, 12, 6, 12},
		{"floor of 2", 0, 3, 2, 3},
	} {
		b := NewBIC(ABCOff)
		s := State{Cwnd: unit.Bytes(tc.cwnd) * smss, SMSS: smss}
		b.Init(&s)
		b.lastMax = tc.prevMax
		b.OnCongestionEvent(0, &s, s.Cwnd)
		if s.Ssthresh != unit.Bytes(tc.ssthresh)*smss || s.Cwnd != s.Ssthresh || b.lastMax != tc.lastMaxAfter {
			t.Errorf("%s: ssthresh %d B, cwnd %d B, W_max %d; want %d segments, the same, %d",
				tc.name, s.Ssthresh, s.Cwnd, b.lastMax, tc.ssthresh, tc.lastMaxAfter)
		}
	}
	b := NewBIC(ABCOff)
	s := State{Cwnd: 1000 * smss, SMSS: smss}
	b.Init(&s)
	b.lastMax = 1200
	b.OnRTO(0, &s, s.Cwnd, false)
	if s.Ssthresh != 799*smss || s.Cwnd != smss || b.lastMax != 0 || b.delayedAck != 32 {
		t.Errorf("timeout: ssthresh %d, cwnd %d segments, W_max %d, delayed_ack %d; want 799, 1, 0, 32", s.Ssthresh/smss, s.Cwnd/smss, b.lastMax, b.delayedAck)
	}
	b.OnRTO(0, &s, s.Cwnd, true)
	if s.Ssthresh != 799*smss {
		t.Errorf("repeated timeout: ssthresh %d segments, want 799 held", s.Ssthresh/smss)
	}
}

// tcp_slow_start as bictcp_cong_avoid calls it since Linux 5.7: cwnd =
// min(cwnd + acked, ssthresh), and what is left over goes on into
// congestion avoidance: an ACK of 2 segments at cwnd 10, ssthresh 11
// takes cwnd to 11 and hands bictcp_update and tcp_cong_avoid_ai the
// other segment (one credit of the 11 that grow cwnd at 11, below
// low_window).
func TestBICSlowStartStopsAtSsthresh(t *testing.T) {
	b := NewBIC(ABCUnlimited)
	s := State{Cwnd: 10 * smss, SMSS: smss}
	b.Init(&s)
	s.Ssthresh = 11 * smss
	bicAck(b, &s, 1, 2)
	if s.Cwnd != 11*smss {
		t.Errorf("cwnd = %d segments, want 11 (ssthresh)", s.Cwnd/smss)
	}
	if !b.updated || b.cnt != 11 || b.ai.credits != 1 {
		t.Errorf("after slow start: bictcp_update ran %v, cnt %d, credits %d; want true, 11, 1 (the segment past ssthresh)", b.updated, b.cnt, b.ai.credits)
	}
}

// tcp_cong_avoid_ai's credits: at w = 5, 12 ACKs grow cwnd by 2 with 2
// credits left; when w falls to 2 those credits (>= w) give one segment
// at once, "gently", and are cleared.
func TestLinuxAI(t *testing.T) {
	s := State{Cwnd: 100 * smss, SMSS: smss}
	var l linuxAI
	for range 12 {
		l.add(&s, 5, 1)
	}
	if s.Cwnd != 102*smss || l.credits != 2 {
		t.Fatalf("after 12 at w 5: cwnd %d, credits %d; want 102, 2", s.Cwnd/smss, l.credits)
	}
	l.add(&s, 2, 1)
	if s.Cwnd != 103*smss || l.credits != 1 {
		t.Errorf("at w 2: cwnd %d, credits %d; want 103, 1", s.Cwnd/smss, l.credits)
	}
}
