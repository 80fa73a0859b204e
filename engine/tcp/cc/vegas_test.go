package cc_test

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// Brakmo and Peterson 1995, section 3.2: on a path shared with nobody,
// Vegas settles where diff = cwnd*(RTT-BaseRTT)/RTT, the packets it keeps
// in the bottleneck queue, lies in [alpha, beta]. Measured on the real
// queue of a 10 Mbit/s, 20 ms one-way path with a 1000-packet buffer (no
// loss), time-averaged over 10-30 s. Tolerance: the window moves by one
// packet per round trip, and the queue seen by a packet counts the one in
// service, so the mean may sit up to one packet outside [alpha, beta].
func TestVegasQueueOnCleanPath(t *testing.T) {
	tests := []struct {
		name        string
		alpha, beta float64
	}{
		{"linux 2/4", cc.VegasAlpha, cc.VegasBeta},
		{"paper 1/3", 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := cc.NewVegas(tt.alpha, tt.beta, cc.VegasGamma)
			if err != nil {
				t.Fatal(err)
			}
			f := newFlow(t, link{rate: 10e6, delay: 20 * des.Millisecond, queue: 1000}, v)
			t1, t2 := des.Time(10*des.Second), des.Time(30*des.Second)
			f.run(t, t1)
			a := f.fwd().Stats()
			f.run(t, t2)
			b := f.fwd().Stats()
			q := queueMean(a, b, t1, t2)
			if q < tt.alpha-1 || q > tt.beta+1 {
				t.Errorf("mean queue = %.2f packets, want in [%v, %v] (+-1)", q, tt.alpha, tt.beta)
			}
			if d := b.Dropped(); d != 0 {
				t.Errorf("drops = %d, want 0 on a clean path", d)
			}
			util := float64(b.TransmittedBytes-a.TransmittedBytes) * 8 / (t2 - t1).Seconds() / 10e6
			t.Logf("queue %.2f packets, utilisation %.3f, base RTT %v, cwnd %d", q, util, des.Duration(v.BaseRTT()), f.client.CC().Cwnd/mss)
			// A standing queue of alpha or more packets keeps the link busy.
			if util < 0.99 {
				t.Errorf("utilisation = %.3f, want >= 0.99 with a standing queue", util)
			}
		})
	}
}
