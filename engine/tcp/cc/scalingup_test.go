package cc

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/unit"
)

// Document 000 section 5.1 and Fig. 4: with the conventional 65 KB
// threshold the window doubles every round trip until it passes 65535
// bytes and then grows by one segment per round trip; with the scaling-up
// threshold (65535 x 2^14 bytes) it keeps doubling. Exact: the harness
// acknowledges every segment one ACK each, so slow start doubles cwnd per
// RTT (RFC 5681 equation (2)) and congestion avoidance adds
// sum(SMSS*SMSS/cwnd) over one window, one SMSS give or take the byte
// rounding (equation (3)).
func TestScalingUpFig4(t *testing.T) {
	tests := []struct {
		name  string
		limit unit.Bytes
		// want is cwnd in segments after each of 8 round trips from IW 1.
		want []unit.Bytes
	}{
		// 1 2 4 8 16 32, then slow start ends on the ACK that takes cwnd
		// to 45 segments (65700 B >= 65535 B); the 19 remaining ACKs of
		// that round add 19*1460*1460/65700 B, then +1 segment per RTT.
		{"conventional", ConventionalLimit, []unit.Bytes{2, 4, 8, 16, 32, 45, 46, 47}},
		{"scalingup", SupLimit, []unit.Bytes{2, 4, 8, 16, 32, 64, 128, 256}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, NewScalingUp(tt.limit), 1)
			if h.s.Ssthresh != tt.limit {
				t.Fatalf("initial ssthresh = %d, want %d", h.s.Ssthresh, tt.limit)
			}
			for i, w := range tt.want {
				h.ackN(h.sendAvailable(), 1)
				if got := h.s.Cwnd / smss; got != w {
					t.Errorf("cwnd after RTT %d = %d segments, want %d", i+1, got, w)
				}
			}
		})
	}
}

// The pseudo code of section 5.1 sets SSTS back to the limit whenever cwnd
// is below it, so after a retransmission timeout the window grows
// exponentially past the halved threshold that Reno (RFC 5681 section 3.1)
// would stop at; it never exceeds the limit.
func TestScalingUpAfterTimeout(t *testing.T) {
	h := newHarness(t, NewScalingUp(SupLimit), 1)
	for range 8 {
		h.ackN(h.sendAvailable(), 1)
	}
	h.c.OnRTO(h.now, &h.s, 256*smss, false)
	if h.s.Cwnd != smss || h.s.Ssthresh != 128*smss {
		t.Fatalf("after RTO: cwnd %d ssthresh %d, want %d and %d", h.s.Cwnd, h.s.Ssthresh, smss, 128*smss)
	}
	for range 9 {
		h.ackN(h.sendAvailable(), 1)
	}
	if got, want := h.s.Cwnd/smss, unit.Bytes(512); got != want {
		t.Errorf("cwnd 9 RTTs after the timeout = %d segments, want %d (exponential past the old ssthresh)", got, want)
	}
	if h.s.Ssthresh != SupLimit {
		t.Errorf("ssthresh = %d, want SupLimit %d", h.s.Ssthresh, unit.Bytes(SupLimit))
	}
}

// A fast-recovery entry halves the window like Reno (RFC 5681 equation
// (4)), and the window then grows linearly since cwnd = ssthresh: by
// sum over 32 ACKs of 1460*1460/cwnd, just under one segment (RFC 5681
// equation (3)), so between 31/32 and 1 SMSS.
func TestScalingUpCongestionEvent(t *testing.T) {
	h := newHarness(t, NewScalingUp(SupLimit), 1)
	for range 6 {
		h.ackN(h.sendAvailable(), 1)
	}
	h.c.OnCongestionEvent(h.now, &h.s, 64*smss)
	if h.s.Cwnd != 32*smss || h.s.Ssthresh != 32*smss {
		t.Fatalf("after loss: cwnd %d ssthresh %d, want both %d", h.s.Cwnd, h.s.Ssthresh, 32*smss)
	}
	h.inflight = 0
	h.ackN(h.sendAvailable(), 1)
	if inc := h.s.Cwnd - 32*smss; inc < 31*smss/32 || inc > smss {
		t.Errorf("cwnd growth one RTT after recovery = %d bytes, want %d..%d", inc, 31*smss/32, smss)
	}
}
