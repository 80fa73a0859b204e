//go:build unix

package leonet

import (
	"syscall"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
)

// cpuSeconds returns the user and system CPU time of the process so far
// (the machine is shared: wall time overstates the cost).
func cpuSeconds(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkStepKuiperK1 is one 100 ms routing step of Kuiper K1's network
// with Hypatia's 100 cities: the forwarding state, 4,624 ISL directions'
// delays, the ground links' delays and 125,500 routes, without traffic.
func BenchmarkStepKuiperK1(b *testing.B) {
	sh, _ := orbit.ShellNamed("kuiper-k1")
	f, err := orbit.NewFleet(orbit.FleetConfig{Shells: []orbit.Shell{sh}, Motion: orbit.Motion{SGP4: true, GMST0: orbit.GMSTAt(-0.5)}, UseCone: true})
	if err != nil {
		b.Fatal(err)
	}
	fw, err := orbit.NewForwarding(f, orbit.WGS72, orbit.HypatiaCities(), orbit.OverISLs, nil)
	if err != nil {
		b.Fatal(err)
	}
	n, err := New(netsim.New(des.New(), 1), fw, Config{ISLRate: 10e6, GSLRate: 10e6, Interval: 100 * des.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	// Warm-up: the ground links of a minute.
	for i := 1; i <= 600; i++ {
		if err := n.step(des.Time(i) * des.Time(100*des.Millisecond)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds(b)
	for i := 0; i < b.N; i++ {
		if err := n.step(des.Time(601+i%1400) * des.Time(100*des.Millisecond)); err != nil {
			b.Fatal(err)
		}
	}
	s := (cpuSeconds(b) - cpu0) / float64(b.N)
	b.ReportMetric(s, "CPU-s/step")
	b.ReportMetric(s*2000, "CPU-s/2000steps")
	b.ReportMetric(float64(len(n.net.Links())), "links")
}
