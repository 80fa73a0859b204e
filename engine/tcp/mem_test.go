package tcp

import (
	"context"
	"runtime"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// measuredHeap4000 is the live heap TestMemory4000Conns measured (77.9 MB,
// the same in every run: the scenario is deterministic and measured after
// a GC) on linux/amd64 with Go 1.26, about 9.7 kB per endpoint. No document
// states a memory budget; this is a regression bound, not a target.
const measuredHeap4000 = 77.9e6

// heapHeadroom is the growth the bound allows over the measurement: a
// quarter, room for the pool and slice sizes another Go release or
// platform picks, while a change that adds a few kB to every endpoint (a
// per-connection buffer, a scoreboard kept for idle flows) fails.
const heapHeadroom = 1.25

// TestMemory4000Conns opens 4,000 connections (8,000 endpoints) over one
// 1 Gbit/s, 25 ms path, all with data in flight, and checks the live heap
// stays under measuredHeap4000 x heapHeadroom (97 MB).
func TestMemory4000Conns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 8,000 endpoints")
	}
	const n = 4000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	s := des.New()
	net := netsim.New(s, 1)
	path, err := netsim.NewPath(net, []netsim.Hop{{
		Forward: netsim.LinkConfig{Rate: 1e9, Delay: 25 * des.Millisecond},
		Reverse: netsim.LinkConfig{Rate: 1e9, Delay: 25 * des.Millisecond},
	}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{MSS: 1460, RcvBuf: 1 << 20, SndBuf: 1 << 20, WindowScaling: true, SACK: true, Recovery: RecoverySACK, InitialWindow: 10}
	conns := make([]*Conn, 0, 2*n)
	for i := 0; i < n; i++ {
		id := netsim.FlowID(i + 1)
		a, b := path.Sender, path.Receiver
		src, err := New(s, cfg, cc.NewReno(cc.ABCOff), NodePort{net, a}, &sinkApp{}, id, a.ID(), b.ID(), uint32(i))
		if err != nil {
			t.Fatal(err)
		}
		dst, err := New(s, cfg, cc.NewReno(cc.ABCOff), NodePort{net, b}, &sinkApp{}, id, b.ID(), a.ID(), uint32(i))
		if err != nil {
			t.Fatal(err)
		}
		a.Attach(id, src)
		b.Attach(id, dst)
		dst.Listen()
		src.Write(0, 1<<50)
		src.Connect(0)
		conns = append(conns, src, dst)
	}
	if err := s.Run(context.Background(), des.Time(2*des.Second)); err != nil {
		t.Fatal(err)
	}
	active := 0
	for i := 0; i < len(conns); i += 2 {
		if conns[i].InFlight() > 0 {
			active++
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	t.Logf("%d connections (%d with data in flight): live heap %.1f MB", n, active, heap/1e6)
	if active != n {
		t.Errorf("%d of %d senders have data in flight at 2 s, want all: the heap measured is not that of busy connections", active, n)
	}
	if bound := measuredHeap4000 * heapHeadroom; heap > bound {
		t.Errorf("live heap = %.1f MB, want under %.1f MB (%.1f MB measured, plus %.0f %%)",
			heap/1e6, bound/1e6, measuredHeap4000/1e6, 100*(heapHeadroom-1))
	}
	runtime.KeepAlive(conns)
	runtime.KeepAlive(s)
}
