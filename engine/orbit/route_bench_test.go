//go:build unix

package orbit

import (
	"syscall"
	"testing"
)

// cpuSeconds returns the user and system CPU time of the process so far.
func cpuSeconds(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkRouteStarlink times one routing update of a Starlink-size shell
// (1,584 satellites): all positions, all 3,168 ISL lengths, both stations'
// visible satellites and Dijkstra, with each motion model (pyephem: with
// the PyEphem surface and its ISL measure, Hypatia's geometry). Issue 16
// asks for at most 2 ms.
func BenchmarkRouteStarlink(b *testing.B) {
	for _, mo := range []struct {
		name  string
		m     Motion
		earth Earth
	}{{"kepler", Motion{}, WGS84}, {"j2", Motion{J2: true}, WGS84}, {"sgp4", Motion{SGP4: true}, WGS84},
		{"pyephem", Motion{SGP4: true, PyEphem: true}, PyEphem}} {
		b.Run(mo.name, func(b *testing.B) {
			sh := mustShell(b, "starlink-s1")
			c, err := NewConstellation(sh, mo.m)
			if err != nil {
				b.Fatal(err)
			}
			a, _ := City("london")
			z, _ := City("singapore")
			r, err := NewRouter(c, mo.earth, a, z, sh.Rule(false))
			if err != nil {
				b.Fatal(err)
			}
			var p Path
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuSeconds(b)
			for i := 0; i < b.N; i++ {
				if !r.Route(float64(i)*0.1, &p) {
					b.Fatal("no path")
				}
			}
			// CPU time per update: wall time on a shared machine includes
			// the waits for a core.
			b.ReportMetric((cpuSeconds(b)-cpu0)/float64(b.N)*1e6, "cpu-us/update")
			b.ReportMetric(float64(c.Len()), "satellites")
		})
	}
}
