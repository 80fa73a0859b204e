package cc

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// lcAck feeds one ACK of one segment with an RTT sample to c at now.
func lcAck(c *CubicLinux, s *State, now des.Time, rtt des.Duration) {
	c.OnAck(s, &Ack{Now: now, Acked: s.SMSS, RTT: rtt, SRTT: rtt, MinRTT: rtt})
}

// bictcp_update by hand, two epochs on a 100 ms path (delay_min 100 ms =
// 100 jiffies at HZ 1000, so t = 100 * 1024 / 1000 = 102 in 1/1024 s at
// the epoch's start). The window is in whole segments; cnt is exact.
//   - No loss yet (last_max_cwnd = 0) at cwnd 100: K = 0, the target is
//     100 + (410 * 102^3 >> 40 = 0) = cwnd, so cnt = 100 * cwnd, capped
//     at 20 ("increase cwnd 5% per RTT"): the 20th ACK makes cwnd 101.
//   - After a loss at 100: ssthresh = cwnd = 100*717/1024 = 70, W_max =
//     100, K = cbrt(2^40/410 * 30) = 4316 (4.215 s; RFC 9438: cbrt(30/0.4)
//     = 4.217 s); at t = 102, delta = 410 * 4214^3 >> 40 = 27, target 73,
//     cnt = 70 / 3 = 23: the 23rd ACK makes cwnd 71.
func TestCubicLinuxTrace(t *testing.T) {
	const rtt = 100 * des.Millisecond
	c := NewCubicLinux(HyStartOff, ABCOff)
	s := State{Cwnd: 100 * smss, SMSS: smss}
	c.Init(&s)
	s.Ssthresh = 100 * smss // congestion avoidance from the start
	now := des.Time(des.Second)
	for i := 1; i <= 20; i++ {
		lcAck(c, &s, now, rtt)
		want := unit.Bytes(100)
		if i == 20 {
			want = 101
		}
		if s.Cwnd != want*smss {
			t.Fatalf("no loss, ACK %d: cwnd %d B (%d segments), want %d segments", i, s.Cwnd, s.Cwnd/smss, want)
		}
	}
	if c.cnt != 20 {
		t.Errorf("no loss: cnt = %d, want 20", c.cnt)
	}

	s.Cwnd = 100 * smss
	c.OnCongestionEvent(now, &s, s.Cwnd)
	if s.Ssthresh != 70*smss || s.Cwnd != 70*smss || c.lastMaxCwnd != 100 {
		t.Fatalf("after the loss: ssthresh %d, cwnd %d segments, W_max %d; want 70, 70, 100", s.Ssthresh/smss, s.Cwnd/smss, c.lastMaxCwnd)
	}
	now = des.Time(10 * des.Second)
	for i := 1; i <= 23; i++ {
		lcAck(c, &s, now, rtt)
		want := unit.Bytes(70)
		if i == 23 {
			want = 71
		}
		if s.Cwnd != want*smss {
			t.Fatalf("after the loss, ACK %d: cwnd %d segments, want %d", i, s.Cwnd/smss, want)
		}
	}
	if c.k != 4316 || c.originPoint != 100 {
		t.Errorf("K = %d, origin %d; want 4316, 100", c.k, c.originPoint)
	}
}

// bictcp_recalc_ssthresh in whole segments: ssthresh = max(cwnd*717/1024,
// 2); W_max = cwnd, or cwnd*(1024+717)/2048 when the loss comes below the
// previous W_max (fast convergence). By hand.
func TestCubicLinuxSsthresh(t *testing.T) {
	for _, tc := range []struct {
		cwnd, prevMax, ssthresh, lastMax uint32
	}{
		{100, 0, 70, 100},      // 71700/1024 = 70.02
		{90, 100, 63, 76},      // 64530/1024 = 63.02; 156690/2048 = 76.5
		{1000, 800, 700, 1000}, // 717000/1024 = 700.2
		{2, 0, 2, 2},           // 1434/1024 = 1: the floor of 2
	} {
		c := NewCubicLinux(HyStartOff, ABCOff)
		s := State{Cwnd: unit.Bytes(tc.cwnd) * smss, SMSS: smss}
		c.Init(&s)
		c.lastMaxCwnd = tc.prevMax
		c.OnCongestionEvent(0, &s, s.Cwnd)
		if s.Ssthresh != unit.Bytes(tc.ssthresh)*smss || c.lastMaxCwnd != tc.lastMax {
			t.Errorf("loss at %d (W_max %d): ssthresh %d B, W_max %d; want %d segments, %d", tc.cwnd, tc.prevMax, s.Ssthresh, c.lastMaxCwnd, tc.ssthresh, tc.lastMax)
		}
	}
}

// tcp_friendliness: the Reno estimate tcp_cwnd gains a segment per
// (cwnd * 15) >> 3 = 187 segments acknowledged at cwnd 100; once it
// passes cwnd, cnt is capped at cwnd / (tcp_cwnd - cwnd). At the curve's
// plateau (t = K, target = cwnd) cnt would be 100 * cwnd = 10000; with
// 188 segments counted tcp_cwnd = 101 and cnt = 100 / 1 = 100.
func TestCubicLinuxFriendliness(t *testing.T) {
	for _, tc := range []struct {
		acked uint32
		want  uint32
	}{
		{187, 10000}, // ack_cnt must exceed 187
		{188, 100},
	} {
		c := NewCubicLinux(HyStartOff, ABCOff)
		c.inEpoch, c.epochStart, c.lastMaxCwnd, c.originPoint, c.k, c.tcpCwnd = true, 5000, 100, 100, 0, 100
		c.update(des.Time(5*des.Second), 100, tc.acked)
		if c.cnt != tc.want {
			t.Errorf("%d segments acked: cnt = %d, want %d", tc.acked, c.cnt, tc.want)
		}
	}
}

// bictcp_state(TCP_CA_Loss): a timeout resets W_max, delay_min and the
// epoch (so the next epoch takes the 5 % per RTT floor again) and keeps
// the ssthresh of bictcp_recalc_ssthresh; bictcp_cwnd_event shifts a
// running epoch by the idle time when sending resumes with nothing in
// flight.
func TestCubicLinuxTimeoutAndIdle(t *testing.T) {
	c := NewCubicLinux(HyStartLinux, ABCOff)
	s := State{Cwnd: 100 * smss, SMSS: smss}
	c.Init(&s)
	lcAck(c, &s, des.Time(des.Second), 50*des.Millisecond)
	c.lastMaxCwnd = 120
	c.OnRTO(des.Time(2*des.Second), &s, s.Cwnd, false)
	if s.Ssthresh != 70*smss || s.Cwnd != smss || c.lastMaxCwnd != 0 || c.delayMin != 0 || c.inEpoch {
		t.Errorf("timeout: ssthresh %d, cwnd %d segments, W_max %d, delay_min %v, epoch %v; want 70, 1, 0, 0, false",
			s.Ssthresh/smss, s.Cwnd/smss, c.lastMaxCwnd, c.delayMin, c.inEpoch)
	}

	c = NewCubicLinux(HyStartOff, ABCOff)
	c.Init(&s)
	c.OnPacketSent(des.Time(2*des.Second), &s, smss, 2*smss, false)
	c.inEpoch, c.epochStart = true, 1000
	c.OnPacketSent(des.Time(5*des.Second), &s, smss, smss, false) // idle 3 s
	if c.epochStart != 4000 {
		t.Errorf("after 3 s idle the epoch starts at jiffy %d, want 4000", c.epochStart)
	}
}
