package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"

	"math"
	"testing"
)

// Leith and Shorten 2004: alpha(Delta) = 1 for Delta <= Delta_L = 1 s and
// 1 + 10 (Delta - Delta_L) + ((Delta - Delta_L)/2)^2 after, by hand:
// Delta = 2 s gives 1 + 10 + 0.25 = 11.25, Delta = 5 s gives 1 + 40 + 4 = 45.
func TestHTCPAlpha(t *testing.T) {
	tests := []struct {
		delta des.Duration
		want  float64
	}{
		{0, 1}, {500e6, 1}, {1e9, 1}, {2e9, 11.25}, {3e9, 22}, {5e9, 45},
	}
	for _, tt := range tests {
		if got := HTCPAlpha(tt.delta); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("HTCPAlpha(%v s) = %v, want %v", tt.delta.Seconds(), got, tt.want)
		}
	}
}

// The increase per RTT is 2 (1 - beta) alpha(Delta), times RTTmin/100 ms
// with RTT scaling (the scale 100 ms/RTTmin clamped to [0.5, 10]); the
// backoff is beta = RTTmin/RTTmax clamped to [0.5, 0.8].
func TestHTCPIncreaseAndBackoff(t *testing.T) {
	tests := []struct {
		name           string
		scaling        bool
		minRTT, maxRTT des.Duration
		delta          des.Duration
		wantBeta       float64
		wantAlpha      float64 // after the backoff, at delta
	}{
		{"beta 0.5 clamp", false, 50e6, 200e6, 3e9, 0.5, 2 * 0.5 * 22},
		{"beta adaptive", false, 70e6, 100e6, 3e9, 0.7, 2 * 0.3 * 22},
		{"beta 0.8 clamp", false, 95e6, 100e6, 2e9, 0.8, 2 * 0.2 * 11.25},
		{"rtt scaling 200 ms", true, 200e6, 250e6, 2e9, 0.8, 2 * 0.2 * 11.25 * 2},
		{"rtt scaling clamp 10 ms -> 0.1", true, 10e6, 20e6, 2e9, 0.5, 2 * 0.5 * 11.25 * 0.1},
		{"rtt scaling clamp 2 s -> 2", true, 2e9, 2e9, 2e9, 0.8, 2 * 0.2 * 11.25 * 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHTCP(tt.scaling, ABCOff)
			s := State{Cwnd: 100 * smss, SMSS: smss}
			h.Init(&s)
			s.Ssthresh = 10 * smss
			h.OnAck(&s, &Ack{Now: 1, Acked: smss, RTT: tt.minRTT, MinRTT: tt.minRTT})
			h.OnAck(&s, &Ack{Now: 2, Acked: smss, RTT: tt.maxRTT, MinRTT: tt.minRTT})
			s.Cwnd = 100 * smss
			const t0 des.Time = 10e9
			h.OnCongestionEvent(t0, &s, s.Cwnd)
			if math.Abs(h.beta-tt.wantBeta) > 1e-9 {
				t.Errorf("beta = %v, want %v", h.beta, tt.wantBeta)
			}
			if want := unit.Bytes(tt.wantBeta * 100 * smss); s.Cwnd != want {
				t.Errorf("cwnd after backoff = %d, want %d", s.Cwnd, want)
			}
			if got := h.Alpha(t0.Add(tt.delta)); math.Abs(got-tt.wantAlpha) > 1e-9 {
				t.Errorf("alpha at Delta = %v s = %v, want %v", tt.delta.Seconds(), got, tt.wantAlpha)
			}
			// Per acknowledged segment cwnd grows by alpha/cwnd.
			before := s.Cwnd
			w := segs(&s)
			h.OnAck(&s, &Ack{Now: t0.Add(tt.delta), Acked: 10 * smss, RTT: tt.minRTT, MinRTT: tt.minRTT})
			if got, want := float64(s.Cwnd-before)/smss, 10*tt.wantAlpha/w; math.Abs(got-want) > 1.0/smss {
				t.Errorf("growth for 10 segments = %.4f segments, want %.4f", got, want)
			}
		})
	}
}
