package cc

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// TestIsCwndLimited checks Ack.IsCwndLimited against
// tcp_is_cwnd_limited (include/net/tcp.h): in slow start cwnd below
// twice the window's largest flight, in congestion avoidance the
// window's record; always true without a gating host.
func TestIsCwndLimited(t *testing.T) {
	tests := []struct {
		name           string
		gated, record  bool
		cwnd, ssthresh unit.Bytes // segments
		maxOut         unit.Bytes // segments
		want           bool
	}{
		{"no gating host", false, false, 20, 10, 5, true},
		{"slow start, cwnd 20 below twice 11", true, false, 20, 100, 11, true},
		{"slow start, cwnd 20 not below twice 10", true, true, 20, 100, 10, false},
		{"congestion avoidance, record limited", true, true, 20, 10, 5, true},
		{"congestion avoidance, record not limited", true, false, 20, 10, 40, false},
	}
	for _, tt := range tests {
		s := State{Cwnd: tt.cwnd * smss, Ssthresh: tt.ssthresh * smss, SMSS: smss}
		a := Ack{GrowthGated: tt.gated, CwndLimited: tt.record, MaxOut: tt.maxOut * smss}
		if got := a.IsCwndLimited(&s); got != tt.want {
			t.Errorf("%s: IsCwndLimited = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestGateLeavesCongAvoidAlone: Linux's cong_avoid hooks of Reno, BIC and
// CUBIC return at once while tcp_is_cwnd_limited is false
// (tcp_reno_cong_avoid, bictcp_cong_avoid, cubictcp_cong_avoid), so ACKs
// that arrive then change nothing of what later growth depends on:
// snd_cwnd_cnt, CUBIC's epoch and its count of ACKed packets for TCP
// friendliness. After a loss at 57 segments, a controller fed 37
// one-segment ACKs 10 ms apart that cwnd did not limit (its growth undone,
// as the sender does for any controller) and then 400 cwnd-limited ones
// must end where one fed only the 400 does, ACK for ACK. The ACKs' RTT
// samples, which the pkts_acked hooks take whatever the window, are the
// same throughout.
func TestGateLeavesCongAvoidAlone(t *testing.T) {
	const rtt = 50 * des.Millisecond
	for _, name := range []string{"reno", "bic", "cubic"} {
		t.Run(name, func(t *testing.T) {
			start := des.Time(des.Second)
			mk := func() (Controller, *State) {
				c, err := New(name, Options{ABC: ABCUnlimited})
				if err != nil {
					t.Fatal(err)
				}
				s := &State{Cwnd: 57 * smss, SMSS: smss}
				c.Init(s)
				c.OnCongestionEvent(start, s, s.Cwnd)
				return c, s
			}
			ack := func(c Controller, s *State, now des.Time, limited bool) {
				c.OnAck(s, &Ack{Now: now, Acked: smss, RTT: rtt, SRTT: rtt, MinRTT: rtt,
					GrowthGated: true, CwndLimited: limited, MaxOut: 57 * smss})
			}
			held, heldS := mk()
			fresh, freshS := mk()
			cwnd := heldS.Cwnd
			now := start
			for range 37 {
				now = now.Add(10 * des.Millisecond)
				ack(held, heldS, now, false)
				if heldS.Cwnd != cwnd {
					t.Fatalf("cwnd %d segments after an ACK that cwnd did not limit, want %d", heldS.Cwnd/smss, cwnd/smss)
				}
				// What the sender does for a controller that grows anyway
				// (tcp's gateGrowth): the growth is undone, the counters
				// behind it would stay. The comparison below sees them.
				heldS.Cwnd = cwnd
			}
			for i := range 400 {
				now = now.Add(des.Millisecond)
				ack(held, heldS, now, true)
				ack(fresh, freshS, now, true)
				if heldS.Cwnd != freshS.Cwnd {
					t.Fatalf("limited ACK %d: cwnd %d B after held ACKs, %d B without them", i+1, heldS.Cwnd, freshS.Cwnd)
				}
			}
			if freshS.Cwnd <= cwnd {
				t.Errorf("cwnd %d segments after 400 limited ACKs: no growth to compare", freshS.Cwnd/smss)
			}
		})
	}
}
