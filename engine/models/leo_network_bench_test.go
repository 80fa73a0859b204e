//go:build unix

package models

import (
	"context"
	"syscall"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// rusage returns the process's CPU seconds (user + system) and its peak
// resident memory, bytes (ru_maxrss is in KiB on Linux).
func rusage(b *testing.B) (cpu float64, peak int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9, ru.Maxrss * 1024
}

// benchLN runs leo-network once per iteration with the load: 100
// long-lived TCP flows between random pairs of Hypatia's 100 cities, on
// 10 Mbit/s ISLs and ground links with 100-packet queues, routes every
// 100 ms, and reports CPU seconds per run beside the satellites, stations
// and flows (the targets: at most 60 CPU-s and 2 GB for 200 s).
func benchLN(b *testing.B, shell string, duration float64) {
	benchLNLoad(b, shell, "hypatia-100", "random:100", duration)
}

func benchLNLoad(b *testing.B, shell, stations, traffic string, duration float64) {
	m := NewLEONetwork()
	p := m.Schema().Defaults()
	for k, v := range map[string]vocab.Value{
		"shells": vocab.S(shell), "stations": vocab.S(stations), "traffic": vocab.S(traffic),
		"tcp_flows": vocab.I(1), "duration": vocab.F(duration), "sample_interval": vocab.F(0),
		"isl_rate": vocab.F(10e6), "gsl_rate": vocab.F(10e6), "start_spread": vocab.F(1),
	} {
		p = p.With(k, v)
	}
	b.ReportAllocs()
	cpu0, _ := rusage(b)
	var res vocab.Result
	for i := 0; i < b.N; i++ {
		var err error
		if res, err = m.Run(context.Background(), p, 1); err != nil {
			b.Fatal(err)
		}
	}
	cpu, peak := rusage(b)
	met := func(name string) float64 { return lnMetric(res, name).Float() }
	b.ReportMetric((cpu-cpu0)/float64(b.N), "CPU-s/run")
	b.ReportMetric(float64(peak)/1e9, "peak-RSS-GB")
	// The spec-time estimate beside it (LEONetwork.Memory): peak RSS is
	// the process's, so the two compare for a benchmark run alone.
	if est, err := m.Memory(p); err == nil {
		b.ReportMetric(float64(est.Bytes)/1e9, "estimate-GB")
	}
	b.ReportMetric(met("satellite_count"), "satellites")
	b.ReportMetric(met("station_count"), "stations")
	b.ReportMetric(met("flow_count"), "flows")
	b.ReportMetric(met("packets_sent")/float64(b.N)/((cpu-cpu0)/float64(b.N)), "packets/CPU-s")
	b.ReportMetric(met("tcp_goodput")/1e6, "Mbit/s-total")
}

func BenchmarkLEONetworkKuiperK1(b *testing.B)   { benchLN(b, "kuiper-k1", 200) }
func BenchmarkLEONetworkStarlinkS1(b *testing.B) { benchLN(b, "starlink-s1", 200) }

// The same load over 20 s, for a quick look.
func BenchmarkLEONetworkKuiperK1Short(b *testing.B) { benchLN(b, "kuiper-k1", 20) }

// BenchmarkLEONetworkScaling runs 20 s of the load with the satellites,
// the stations and the flows varied one at a time from Kuiper K1, 100
// stations and 100 flows, for the cost against each.
func BenchmarkLEONetworkScaling(b *testing.B) {
	for _, c := range []struct{ name, shell, stations, traffic string }{
		{"telesat-t1/100st/100fl", "telesat-t1", "hypatia-100", "random:100"},
		{"kuiper-k1/100st/100fl", "kuiper-k1", "hypatia-100", "random:100"},
		{"starlink-s1/100st/100fl", "starlink-s1", "hypatia-100", "random:100"},
		{"kuiper-k1/25st/100fl", "kuiper-k1", "hypatia-100:25", "random:100"},
		{"kuiper-k1/50st/100fl", "kuiper-k1", "hypatia-100:50", "random:100"},
		{"kuiper-k1/100st/25fl", "kuiper-k1", "hypatia-100", "random:25"},
		{"kuiper-k1/100st/50fl", "kuiper-k1", "hypatia-100", "random:50"},
	} {
		b.Run(c.name, func(b *testing.B) { benchLNLoad(b, c.shell, c.stations, c.traffic, 20) })
	}
}
