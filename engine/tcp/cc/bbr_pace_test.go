package cc

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// The pacing rate BBR and BBRv2 start STARTUP with, by hand from
// bbr_init_pacing_rate_from_rtt and bbr_set_pacing_rate (tcp_bbr.c; the
// same in the v2alpha tcp_bbr2.c): high_gain (739/256) times cwnd over
// the smoothed RTT, less the 1 % margin, as soon as an RTT is known,
// whether or not the ACK also carries a bandwidth sample; bbr_init
// already knows the handshake's RTT (the ca init hook runs after the
// SYN-ACK's sample). IW 10 of 1448 bytes over 20 ms: 0.99 x 739/256 x
// 14480 B x 8 / 0.020 s = 16.55 Mbit/s. Before an RTT is known the
// nominal RTT is 1 ms: 331.0 Mbit/s. The cases "first ACK" failed before
// bbrPace took the RTT whatever the bandwidth (the rate stayed at the
// nominal 331 Mbit/s through STARTUP). Tolerance 1e-9 relative: the same
// arithmetic in float64.
func TestBBRInitialPacing(t *testing.T) {
	const smss = 1448
	iw := unit.Bytes(10 * smss)
	rtt := 20 * des.Millisecond
	fromRTT := (1 - BBRPacingMargin) * BBRHighGain * float64(iw) * 8 / rtt.Seconds()
	nominal := (1 - BBRPacingMargin) * BBRHighGain * float64(iw) * 8 / 1e-3
	// One segment delivered in one RTT: a bandwidth sample of 579 kbit/s,
	// whose STARTUP rate (x 2.89) is far below either start.
	firstAck := &Ack{
		Now: des.Time(rtt), Acked: smss, Inflight: iw, PriorPipe: iw,
		RTT: rtt, MinRTT: rtt, SRTT: rtt, Delivered: smss,
		Rate: RateSample{Delivered: smss, Interval: rtt, TxInFlight: iw},
	}
	for _, tc := range []struct {
		name     string
		ctrl     Controller
		initSRTT des.Duration
		ack      *Ack
		want     float64
	}{
		{"bbr, no handshake RTT, before an ACK", NewBBR(1), 0, nil, nominal},
		{"bbr2, no handshake RTT, before an ACK", NewBBR2(1), 0, nil, nominal},
		{"bbr, handshake RTT", NewBBR(1), rtt, nil, fromRTT},
		{"bbr2, handshake RTT", NewBBR2(1), rtt, nil, fromRTT},
		{"bbr, first ACK with a bandwidth sample", NewBBR(1), 0, firstAck, fromRTT},
		{"bbr2, first ACK with a bandwidth sample", NewBBR2(1), 0, firstAck, fromRTT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &State{Cwnd: iw, SMSS: smss, InitSRTT: tc.initSRTT}
			tc.ctrl.Init(s)
			if tc.ack != nil {
				a := *tc.ack
				tc.ctrl.OnAck(s, &a)
			}
			if got := float64(s.PacingRate); math.Abs(got/tc.want-1) > 1e-9 {
				t.Errorf("pacing rate = %.4g bit/s, want %.4g", got, tc.want)
			}
		})
	}
}
