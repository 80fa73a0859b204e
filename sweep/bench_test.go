package sweep

import (
	"context"
	"flag"
	"fmt"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

var benchScenarios = flag.Int("sweep.scenarios", 200_000,
	"scenarios per sweep in BenchmarkSweepFSOBER, a multiple of 200 (the acceptance figure is for 1000000)")

// fsoSpec returns an fso-ber spec of n scenarios (n a multiple of 200):
// n/200 distances by 50 bit rates by 2 detections by 2 constant sets.
func fsoSpec(n int) string {
	return fmt.Sprintf(`name: bench-fso-ber
model: fso-ber
seed: 1
grid:
  distance: {from: 1000km, to: 80000km, points: %d}
  bit_rate: {from: 1Gbps, to: 10Gbps, points: 50}
  detection: [direct, coherent]
  constants: [codata, paper]
`, n/200)
}

// BenchmarkSweepFSOBER runs an fso-ber grid end to end with 2 workers:
// parse the spec, expand it lazily (plan.New), run every scenario and
// write the Parquet parts. The acceptance figure is for
// -sweep.scenarios=1000000: at least 250,000 scenarios/s, and a peak RSS
// under 300 MB (run the test binary under /usr/bin/time -v) that does not
// grow with the grid, which peak-heap-MB shows by comparing grid sizes.
func BenchmarkSweepFSOBER(b *testing.B) {
	n := *benchScenarios
	if n < 200 || n%200 != 0 {
		b.Fatalf("-sweep.scenarios=%d, want a multiple of 200", n)
	}
	// Only fso-ber: the benchmark should not depend on the other models.
	reg, err := vocab.NewRegistry(models.NewFSOBER())
	if err != nil {
		b.Fatal(err)
	}
	text := fsoSpec(n)
	s, err := spec.Parse("bench-fso-ber.yaml", []byte(text), reg)
	if err != nil {
		b.Fatal(err)
	}
	m, ok := reg.Lookup(s.Model)
	if !ok {
		b.Fatalf("no model %s", s.Model)
	}
	p, err := plan.New(s, m)
	if err != nil {
		b.Fatal(err)
	}
	if p.Len() != n {
		b.Fatalf("plan of %d scenarios, want %d", p.Len(), n)
	}
	meta := dataset.Meta{SpecName: s.Name, Spec: text}
	peak := startPeakSampler(2 * time.Millisecond)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		dir := b.TempDir()
		sum, err := Run(context.Background(), Config{Model: m, Source: p, Dir: dir, Meta: meta, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		if sum.OK != n {
			b.Fatalf("%d ok of %d", sum.OK, n)
		}
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	heap, total := peak()
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "scenarios/s")
	b.ReportMetric(float64(n), "scenarios/op")
	// The machine is shared: CPU time per scenario (all threads, GC
	// included) varies less with other load than scenarios/s does.
	b.ReportMetric(float64(cpu.Nanoseconds())/(float64(n)*float64(b.N)), "cpu-ns/scenario")
	b.ReportMetric(float64(heap)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(total)/1e6, "peak-go-MB")
}

// cpuTime returns the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// startPeakSampler samples the Go runtime's memory every interval until
// the returned function is called, which returns the high-water marks of
// the heap (live and not yet swept objects) and of all memory the runtime
// holds from the OS (mapped and not released: close to the process's RSS,
// as Arrow's default allocator and zstd allocate from the Go heap).
func startPeakSampler(interval time.Duration) (stop func() (heap, total uint64)) {
	samples := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	var heap, total uint64
	read := func() {
		metrics.Read(samples)
		heap = max(heap, samples[0].Value.Uint64())
		total = max(total, samples[1].Value.Uint64()-samples[2].Value.Uint64())
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			read()
			select {
			case <-t.C:
			case <-quit:
				return
			}
		}
	}()
	return func() (uint64, uint64) {
		close(quit)
		wg.Wait()
		read()
		return heap, total
	}
}
