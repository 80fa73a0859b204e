package cc_test

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// Caini and Firrincieli 2004: with rho = RTT/RTT0 (RTT0 = 25 ms) Hybla's
// window grows rho^2 segments per RTT, so its rate, and its loss-limited
// throughput, no longer fall as 1/RTT the way Reno's do (Mathis et al.
// 1997: rate = MSS/RTT * 1.22/sqrt(p); for Hybla the window is rho times
// Reno's, so rate = MSS/RTT0 * 1.22/sqrt(p) = 18 Mbit/s at any RTT). Over
// a 100 Mbit/s path with Bernoulli loss p = 1e-3 on the data direction (the
// link is not the limit: NewReno reaches about 9 Mbit/s at 50 ms) and RTTs
// of 50, 200 and 600 ms, NewReno's goodput at 50 ms is about 9 times that
// at 600 ms; the test wants at least 5. Hybla's ratio of the largest to
// the smallest goodput must be at most 2 (the model's rho^2 growth makes
// its rate independent of RTT in congestion avoidance; what remains is
// recovery and timeouts, which last RTTs). The socket buffers are 15 MiB,
// twice the BDP of the longest path, as a host's would be: with the
// package's default of 256 MiB, Hybla's slow start (2^16 segments per ACK
// at 600 ms) put 180,000 packets, 12 s of queue, into the 100,000-packet
// buffer, and the goodput at 600 ms measured how the start-up overshoot
// unwound, not Hybla's congestion avoidance. Goodput is measured over
// 20-120 s; measured: hybla 17.9, 15.0, 15.8 Mbit/s (ratio 1.19), newreno
// 8.3, 1.9, 0.9 Mbit/s (ratio 9.1).
func TestHyblaRTTIndependence(t *testing.T) {
	if testing.Short() {
		t.Skip("120 simulated seconds per run")
	}
	rtts := []des.Duration{50 * des.Millisecond, 200 * des.Millisecond, 600 * des.Millisecond}
	goodput := func(name string, rtt des.Duration) float64 {
		c, err := cc.New(name, cc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		f := newFlow(t, link{rate: 100e6, delay: rtt / 2, queue: 100000, loss: 1e-3, seed: 7, window: 15 << 20}, c)
		t1, t2 := des.Time(20*des.Second), des.Time(120*des.Second)
		f.run(t, t1)
		g1 := f.app.got
		f.run(t, t2)
		return float64(f.app.got-g1) * 8 / (t2 - t1).Seconds()
	}
	ratio := func(name string) float64 {
		lo, hi := math.Inf(1), 0.0
		for _, r := range rtts {
			g := goodput(name, r)
			t.Logf("%s RTT %v: goodput %.2f Mbit/s", name, r, g/1e6)
			lo, hi = min(lo, g), max(hi, g)
		}
		return hi / lo
	}
	hybla, reno := ratio("hybla"), ratio("newreno")
	t.Logf("max/min goodput over RTTs: hybla %.2f, newreno %.2f", hybla, reno)
	if reno < 5 {
		t.Errorf("newreno goodput ratio = %.2f, want >= 5 (loss-limited 1/RTT)", reno)
	}
	if hybla > 2 {
		t.Errorf("hybla goodput ratio = %.2f, want <= 2", hybla)
	}
}

// Hybla's per-ACK increments by hand: rho = RTT/25 ms (at least 1); slow
// start adds 2^rho - 1 segments per acknowledged segment (capped at 2^16
// as tcp_hybla.c does), congestion avoidance rho^2/cwnd.
func TestHyblaIncrement(t *testing.T) {
	tests := []struct {
		rtt       des.Duration
		rho       float64
		ss, ca100 float64 // slow start, congestion avoidance at cwnd 100
	}{
		{10e6, 1, 1, 0.01},
		{25e6, 1, 1, 0.01},
		{50e6, 2, 3, 0.04},
		{100e6, 4, 15, 0.16},
		{600e6, 24, 65535, 5.76},
	}
	for _, tt := range tests {
		rho := cc.HyblaRho(tt.rtt)
		if rho != tt.rho {
			t.Errorf("HyblaRho(%d ms) = %v, want %v", tt.rtt/1e6, rho, tt.rho)
		}
		if got := cc.HyblaIncrement(rho, 100, true); math.Abs(got-tt.ss) > 1e-9 {
			t.Errorf("slow start increment at rho %v = %v, want %v", rho, got, tt.ss)
		}
		if got := cc.HyblaIncrement(rho, 100, false); math.Abs(got-tt.ca100) > 1e-9 {
			t.Errorf("congestion avoidance increment at rho %v = %v, want %v", rho, got, tt.ca100)
		}
	}
}
