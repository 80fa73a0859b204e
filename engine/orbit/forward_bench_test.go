//go:build unix

package orbit

import (
	"strconv"
	"testing"
	"time"
)

// benchForwarding measures the forwarding state of a preset shell with
// Hypatia's 100 cities, one 100 ms step per iteration, as satgenpy's
// generate_dynamic_state does (issue 23: Kuiper K1 over 2,000 steps in at
// most 30 CPU-s; satgenpy takes about 4.5 CPU-s per step here).
func benchForwarding(b *testing.B, shell string, mode RouteMode) {
	benchForwardingN(b, shell, mode, 100)
}

func benchForwardingN(b *testing.B, shell string, mode RouteMode, stations int) {
	sh, err := ShellNamed(shell)
	if err != nil {
		b.Fatal(err)
	}
	f, err := NewFleet(FleetConfig{Shells: []Shell{sh}, Motion: Motion{SGP4: true, GMST0: GMSTAt(-0.5)}, UseCone: true,
		NoGridISLs: mode == GroundRelays})
	if err != nil {
		b.Fatal(err)
	}
	r, err := NewForwarding(f, WGS72, HypatiaCities()[:stations], mode, nil)
	if err != nil {
		b.Fatal(err)
	}
	r.Step(0)
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuSeconds(b)
	for i := 0; i < b.N; i++ {
		r.Step(float64(i%2000) * 0.1)
	}
	s := (cpuSeconds(b) - cpu0) / float64(b.N)
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "wall-s/step")
	b.ReportMetric(s, "CPU-s/step")
	b.ReportMetric(1/s, "steps/s")
	b.ReportMetric(s*2000, "CPU-s/2000steps")
	b.ReportMetric(float64(f.Len()), "satellites")
	b.ReportMetric(float64(stations), "stations")
}

func BenchmarkForwardingKuiperK1(b *testing.B)   { benchForwarding(b, "kuiper-k1", OverISLs) }
func BenchmarkForwardingStarlinkS1(b *testing.B) { benchForwarding(b, "starlink-s1", OverISLs) }
func BenchmarkForwardingTelesatT1(b *testing.B)  { benchForwarding(b, "telesat-t1", OverISLs) }

// BenchmarkForwardingKuiperK1Relays is the ground-relay routing without
// ISLs, as satgenpy runs it.
func BenchmarkForwardingKuiperK1Relays(b *testing.B) {
	benchForwarding(b, "kuiper-k1", GroundRelays)
}

// BenchmarkForwardingKuiperK1Stations gives the cost against the number
// of stations (one Dijkstra pass per destination station).
func BenchmarkForwardingKuiperK1Stations(b *testing.B) {
	for _, g := range []int{10, 25, 50, 100} {
		b.Run(strconv.Itoa(g), func(b *testing.B) { benchForwardingN(b, "kuiper-k1", OverISLs, g) })
	}
}

// BenchmarkForwardingKuiperK1PyEphem is the same with Hypatia's own
// geometry (Motion.PyEphem, the PyEphem surface and ISL measure), with
// which the state is identical to satgenpy's.
func BenchmarkForwardingKuiperK1PyEphem(b *testing.B) {
	r := kuiperForwarding(b, true, OverISLs)
	r.Step(0)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds(b)
	for i := 0; i < b.N; i++ {
		r.Step(float64(i%2000) * 0.1)
	}
	s := (cpuSeconds(b) - cpu0) / float64(b.N)
	b.ReportMetric(s, "CPU-s/step")
	b.ReportMetric(s*2000, "CPU-s/2000steps")
}
