//go:build unix

package models

import (
	"context"
	"syscall"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// leoCPUSeconds returns the user and system CPU time of the process so far.
func leoCPUSeconds(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// BenchmarkLEOPathNewReno is the acceptance run of issue 16: one NewReno
// flow at 10 Mbit/s, Manila to Dalian over Kuiper K1, 200 s with routing
// every 100 ms, no bit errors. The budget is 3 CPU-s per run.
func BenchmarkLEOPathNewReno(b *testing.B) {
	p := leoParams(b, map[string]vocab.Value{"isl_errors": vocab.B(false), "sack": vocab.B(false)})
	m := NewLEOPath()
	b.ReportAllocs()
	cpu0 := leoCPUSeconds(b)
	for i := 0; i < b.N; i++ {
		if _, err := m.Run(context.Background(), p, 1); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time, not wall time: on a shared machine the two differ by the
	// load, and the budget is in CPU seconds.
	b.ReportMetric((leoCPUSeconds(b)-cpu0)/float64(b.N), "cpu-s/run")
}
