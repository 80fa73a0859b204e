package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

type sinkApp struct{ got unit.Bytes }

func (a *sinkApp) Established(des.Time)                  {}
func (a *sinkApp) Delivered(_ des.Time, _, n unit.Bytes) { a.got += n }
func (a *sinkApp) PeerClosed(des.Time)                   {}
func (a *sinkApp) Done(des.Time)                         {}

// dumbbell runs nFlows bulk NewReno flows through a 1 Gbit/s, 25 ms
// bottleneck with a 1000-packet DropTail queue for dur, and returns the
// scheduler and the data packets sent.
func dumbbell(tb testing.TB, nFlows int, dur des.Duration) (events uint64, dataPkts int64, delivered unit.Bytes) {
	events, dataPkts, delivered, _ = dumbbellWith(tb, nFlows, dur, dupAck, newReno)
	return events, dataPkts, delivered
}

func newCubic() cc.Controller { return cc.NewCubic(false, cc.ABCOff) }

func newBBR2() cc.Controller { return cc.NewBBR2(1) }

// lossMode is how the dumbbell's senders detect and recover losses.
type lossMode uint8

const (
	// dupAck: no SACK, RFC 6582 NewReno recovery on three duplicate ACKs.
	dupAck lossMode = iota
	// sackDupThresh: SACK, RFC 6675 recovery, losses found by its
	// IsLost (DupThresh SACKed segments above), no RACK at all.
	sackDupThresh
	// rackTLP: SACK, RFC 6675 recovery, losses found by RFC 8985's RACK
	// and tails probed by its TLP.
	rackTLP
)

func (m lossMode) String() string {
	return [...]string{"dupack", "sack-dupthresh", "rack-tlp"}[m]
}

// dumbbellWith runs the dumbbell with the senders' controllers from
// newCC and the loss detection of mode; pool is the packets the
// network's pool created (its high-water mark of packets alive).
func dumbbellWith(tb testing.TB, nFlows int, dur des.Duration, mode lossMode, newCC func() cc.Controller) (events uint64, dataPkts int64, delivered unit.Bytes, pool int64) {
	return dumbbellLinux(tb, nFlows, dur, mode, false, newCC)
}

// linuxRecovery switches on the loss-recovery mechanisms of a Linux
// sender and receiver that the Config leaves off by default, and the
// per-segment loss report to a controller that takes it and the rate
// samples of SACK-only ACKs.
func linuxRecovery(cfg *Config) {
	cfg.QuickAck, cfg.DSACK, cfg.Undo, cfg.FRTO, cfg.AdaptiveReordering, cfg.RTOVarFloor = true, true, true, true, true, true
	cfg.SkbMarkedLost, cfg.SACKRateSamples, cfg.SACKCompression = true, true, true
}

// dumbbellLinux is dumbbellWith, with linuxRecovery when linux is set.
func dumbbellLinux(tb testing.TB, nFlows int, dur des.Duration, mode lossMode, linux bool, newCC func() cc.Controller) (events uint64, dataPkts int64, delivered unit.Bytes, pool int64) {
	s := des.New()
	net := netsim.New(s, 1)
	access := netsim.Hop{
		Forward: netsim.LinkConfig{Rate: 10e9, Delay: des.Millisecond},
		Reverse: netsim.LinkConfig{Rate: 10e9, Delay: des.Millisecond},
	}
	d, err := netsim.NewDumbbell(net, netsim.DumbbellConfig{
		N: nFlows, SenderAccess: access, ReceiverAccess: access,
		Bottleneck: netsim.Hop{
			Forward: netsim.LinkConfig{Rate: 1e9, Delay: 25 * des.Millisecond, Queue: netsim.DropTail{Packets: 1000}},
			Reverse: netsim.LinkConfig{Rate: 1e9, Delay: 25 * des.Millisecond, Queue: netsim.DropTail{Packets: 1000}},
		},
	})
	if err != nil {
		tb.Fatal(err)
	}
	cfg := Config{MSS: 1460, RcvBuf: 64 << 20, SndBuf: 64 << 20, WindowScaling: true, InitialWindow: 10, LimitedTransmit: true, MinRTO: 200 * des.Millisecond}
	switch mode {
	case sackDupThresh:
		cfg.SACK, cfg.Recovery, cfg.LossDetection = true, RecoverySACK, LossDupThreshOnly
	case rackTLP:
		cfg.SACK, cfg.Recovery, cfg.LossDetection = true, RecoverySACK, LossRACKTLP
	}
	if linux {
		linuxRecovery(&cfg)
	}
	var conns []*Conn
	var apps []*sinkApp
	for i := 0; i < nFlows; i++ {
		id := netsim.FlowID(i + 1)
		a, b := d.Senders[i], d.Receivers[i]
		app := &sinkApp{}
		src, err := New(s, cfg, newCC(), NodePort{net, a}, &sinkApp{}, id, a.ID(), b.ID(), uint32(i*7919))
		if err != nil {
			tb.Fatal(err)
		}
		dst, err := New(s, cfg, cc.NewReno(cc.ABCOff), NodePort{net, b}, app, id, b.ID(), a.ID(), uint32(i*104729))
		if err != nil {
			tb.Fatal(err)
		}
		a.Attach(id, src)
		b.Attach(id, dst)
		dst.Listen()
		src.Write(0, 1<<50)
		src.Connect(0)
		conns = append(conns, src)
		apps = append(apps, app)
	}
	if err := s.Run(context.Background(), des.Time(dur)); err != nil {
		tb.Fatal(err)
	}
	for i, c := range conns {
		dataPkts += c.Stats.DataSegsSent
		delivered += apps[i].got
	}
	return s.Processed(), dataPkts, delivered, int64(net.Pool().Allocated())
}

// BenchmarkDumbbell: 10 NewReno flows, 1 Gbit/s 25 ms bottleneck, 1000
// packet DropTail queue, 30 simulated seconds per op.
func BenchmarkDumbbell(b *testing.B) {
	b.ReportAllocs()
	var events uint64
	var pkts int64
	var delivered unit.Bytes
	for b.Loop() {
		e, p, d := dumbbell(b, 10, 30*des.Second)
		events += e
		pkts += p
		delivered += d
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(events)/sec, "events/s")
	b.ReportMetric(float64(pkts)/sec, "pkts/s")
	b.ReportMetric(float64(delivered)*8/30/float64(b.N), "goodput_bps")
	b.ReportMetric(float64(pkts)/float64(b.N), "datapkts/op")
}

// BenchmarkProbeCubic is the performance probe of the loss-recovery
// seam: 10 CUBIC flows over the 1 Gbit/s, 25 ms bottleneck with a
// 1000-packet DropTail queue and 10 Gbit/s, 1 ms access links (the
// command-line probe, engine/models' BenchmarkCompeteProbe, has
// tcp-compete's access links: no delay, the backbone's rate and the
// hosts' jitter, which netsim runs with other mechanisms and other
// events per packet), 30 simulated seconds per op, recovering by
// duplicate ACKs without SACK (NewReno), by SACK with RFC 6675's
// duplicate-ACK threshold and no RACK (sack-dupthresh), or by SACK with
// RACK-TLP, each also with the Linux mechanisms on (linuxRecovery:
// DSACKs, undo, F-RTO, adaptive reordering, the RTO's variance floor).
// cpu-s/op is the process's user+system CPU time per op; datapkts/op is
// the data segments the senders put on the wire per op (dupack does not
// do the others' work: without SACK the flows spend much of the run
// waiting on timeouts and send about half what RACK-TLP does; the
// sack-dupthresh variant sends as much as RACK-TLP and differs from it
// only in how losses are found, so cpu-s/op compares those two, and
// pkts/cpu-s compares any two: a flow waiting on a
// timer costs no CPU, every data packet costs both the same network work,
// three hops out and three back, about 6 events, whatever detects its
// loss, and what RACK-TLP adds is work per ACK, so its price is the
// difference per packet); events/pkt is the
// events the scheduler's queue ran (Processed: an end of transmission
// that an arrival event ran, netsim's follow.go, is not one) per data
// packet; allocs/pkt is heap allocations
// per data packet sent over the whole op (set-up included, so it tends
// to 0 rather than being 0; TestDumbbellSteadyStateAllocs checks the
// steady state).
func BenchmarkProbeCubic(b *testing.B) {
	for _, tc := range []struct {
		mode  lossMode
		linux bool
	}{{dupAck, false}, {sackDupThresh, false}, {rackTLP, false}, {dupAck, true}, {sackDupThresh, true}, {rackTLP, true}} {
		name := tc.mode.String()
		if tc.linux {
			name += "+linux"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var pkts int64
			var events uint64
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			cpu0 := cpuSeconds(b)
			for b.Loop() {
				e, p, _, _ := dumbbellLinux(b, 10, 30*des.Second, tc.mode, tc.linux, newCubic)
				pkts += p
				events += e
			}
			cpu := cpuSeconds(b) - cpu0
			runtime.ReadMemStats(&ms1)
			b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(pkts)/cpu, "pkts/cpu-s")
			b.ReportMetric(float64(pkts)/float64(b.N), "datapkts/op")
			b.ReportMetric(float64(events)/float64(pkts), "events/pkt")
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(pkts), "allocs/pkt")
		})
	}
}

// BenchmarkDumbbellScale is the probe's dumbbell with 100 and 400 CUBIC
// flows (RACK-TLP), 5 simulated seconds per op: many flows put many
// events in the scheduler's queue at once, where each event it does
// without (netsim's lazy and follow mechanisms) saves more.
// Metrics as BenchmarkProbeCubic's.
func BenchmarkDumbbellScale(b *testing.B) {
	for _, n := range []int{100, 400} {
		b.Run(fmt.Sprint(n, "flows"), func(b *testing.B) {
			var pkts int64
			var events uint64
			cpu0 := cpuSeconds(b)
			for b.Loop() {
				e, p, _, _ := dumbbellLinux(b, n, 5*des.Second, rackTLP, false, newCubic)
				pkts += p
				events += e
			}
			cpu := cpuSeconds(b) - cpu0
			b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(pkts)/cpu, "pkts/cpu-s")
			b.ReportMetric(float64(pkts)/float64(b.N), "datapkts/op")
			b.ReportMetric(float64(events)/float64(pkts), "events/pkt")
		})
	}
}

// cpuSeconds returns the user plus system CPU time of this process.
func cpuSeconds(tb testing.TB) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// TestDumbbellSteadyStateAllocs checks, for NewReno and CUBIC, with the
// duplicate-ACK threshold and with SACK and RACK-TLP, and for CUBIC and
// BBRv2 (whose per-segment loss hook the sender calls) with the Linux
// mechanisms (linuxRecovery) too, that allocations do not grow with
// simulated time: 6 s and 12 s runs allocate about the same (pools and
// rings reach their size early), although the second sends twice the
// packets.
func TestDumbbellSteadyStateAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 18 simulated seconds")
	}
	for _, tc := range []struct {
		name  string
		newCC func() cc.Controller
		mode  lossMode
		linux bool
	}{{"newreno", newReno, dupAck, false}, {"newreno", newReno, rackTLP, false}, {"cubic", newCubic, dupAck, false}, {"cubic", newCubic, rackTLP, false},
		{"cubic+linux", newCubic, dupAck, true}, {"cubic+linux", newCubic, rackTLP, true}, {"bbr2+linux", newBBR2, rackTLP, true}} {
		measure := func(d des.Duration) (float64, int64) {
			var pkts, pool int64
			a := testing.AllocsPerRun(1, func() { _, pkts, _, pool = dumbbellLinux(t, 10, d, tc.mode, tc.linux, tc.newCC) })
			// Packets the pool creates as the windows, still growing,
			// put more of them in flight are not per-packet costs.
			return a - float64(pool), pkts
		}
		a1, p1 := measure(6 * des.Second)
		a2, p2 := measure(12 * des.Second)
		perPkt := (a2 - a1) / float64(p2-p1)
		if perPkt > 0.001 {
			t.Errorf("%s, %v: allocations per extra data packet = %.4f (%v allocs for %d pkts, %v for %d), want 0", tc.name, tc.mode, perPkt, a1, p1, a2, p2)
		}
	}
}
