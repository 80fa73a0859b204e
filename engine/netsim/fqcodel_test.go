package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/google/go-cmp/cmp"
)

// delays records each packet's queueing delay (send to transmit) by flow.
type delays struct {
	sent map[uint64]des.Time
	max  map[FlowID]des.Duration
	sum  map[FlowID]des.Duration
	n    map[FlowID]int
}

func newDelays() *delays {
	return &delays{sent: map[uint64]des.Time{}, max: map[FlowID]des.Duration{}, sum: map[FlowID]des.Duration{}, n: map[FlowID]int{}}
}

func (d *delays) Observe(r Record) {
	switch r.Kind {
	case TraceSend:
		d.sent[r.Packet.ID] = r.At
	case TraceTransmit:
		w := r.At.Sub(d.sent[r.Packet.ID])
		f := r.Packet.Flow
		d.max[f] = max(d.max[f], w)
		d.sum[f] += w
		d.n[f]++
	}
}

// TestFQCoDelSparseFlow: an unresponsive bulk flow sends 1500-byte packets
// at 12 Mbit/s into a 10 Mbit/s link, keeping a standing queue far above
// CoDel's target (drops cannot slow a sender that ignores them); a sparse
// flow sends a 100-byte packet every 50 ms.
// Under FQ-CoDel each sparse packet finds its queue inactive, joins the
// new queues and is sent as soon as the packet being transmitted is done
// (RFC 8290 sections 4.1, 4.2): its queueing delay is at most one 1500-byte
// transmission time, 1.2 ms. Under a single CoDel queue the same packets
// wait behind the bulk flow's standing queue, and some are dropped.
func TestFQCoDelSparseFlow(t *testing.T) {
	for _, tt := range []struct {
		name   string
		q      QueueModel
		sparse bool // sparse packets must skip the queue
	}{{"fq_codel", FQCoDel{}, true}, {"codel", CoDel{}, false}} {
		t.Run(tt.name, func(t *testing.T) {
			net, a, b, l, k := twoNodes(t, 3, LinkConfig{Name: "x", Rate: 10e6, Queue: tt.q})
			k.keep = false
			if err := b.Attach(2, k); err != nil {
				t.Fatal(err)
			}
			if fq, ok := l.Queue().(*fqQueue); ok && fq.index(1) == fq.index(2) {
				t.Fatalf("flows 1 and 2 share queue %d for this seed: pick another", fq.index(1))
			}
			d := newDelays()
			net.SetObserver(d)
			(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, n: 3000, gap: ms}).start(0)
			(&source{net: net, from: a, dst: b.ID(), flow: 2, size: 100, n: 55, gap: 50 * ms}).start(des.Time(7*ms + 300*des.Microsecond))
			run(t, net, des.Time(3*des.Second))
			bulkMean := d.sum[1] / des.Duration(d.n[1])
			t.Logf("bulk: mean %v max %v; sparse: n %d mean %v max %v; aqm drops %d",
				bulkMean, d.max[1], d.n[2], d.sum[2]/des.Duration(d.n[2]), d.max[2], l.Stats().Drops[DropAQM])
			if tt.sparse && d.n[2] != 55 {
				t.Errorf("sparse packets sent = %d, want all 55", d.n[2])
			}
			if bulkMean < 4*ms {
				t.Errorf("bulk mean delay %v: no standing queue, the case is not sensitive", bulkMean)
			}
			oneTx := TransmissionTime(1500, 10e6)
			if got := d.max[2] <= oneTx; got != tt.sparse {
				t.Errorf("sparse max delay %v <= %v is %v, want %v", d.max[2], oneTx, got, tt.sparse)
			}
		})
	}
}

// TestFQCoDelByteFair preloads two flows with 600 kB each, one in
// 1500-byte packets and one in 300-byte packets. While both are
// backlogged, DRR (RFC 8290 section 4.2; Shreedhar and Varghese 1996) keeps
// the bytes each has sent within one quantum plus one maximum packet of
// each other: a queue's sent bytes after its k-th turn are k quanta plus
// an overshoot under one packet. CoDel is held off (target 10 s) so that
// only the scheduler decides.
func TestFQCoDelByteFair(t *testing.T) {
	for _, quantum := range []unit.Bytes{1514, 300, 4000} {
		t.Run(fmt.Sprint("quantum=", quantum), func(t *testing.T) {
			cfg := FQCoDel{Quantum: quantum, Target: 10 * des.Second, Interval: 100 * des.Second}
			net, a, b, l, k := twoNodes(t, 3, LinkConfig{Rate: 10e6, Queue: cfg})
			k.keep = false
			if err := b.Attach(2, k); err != nil {
				t.Fatal(err)
			}
			if fq := l.Queue().(*fqQueue); fq.index(1) == fq.index(2) {
				t.Fatal("flows 1 and 2 share a queue for this seed")
			}
			var sent [3]unit.Bytes
			both, worst, checked := true, unit.Bytes(0), 0
			net.SetObserver(observerFunc(func(r Record) {
				if r.Kind != TraceTransmit || !both {
					return
				}
				sent[r.Packet.Flow] += r.Packet.Size
				if sent[1] >= 600000 || sent[2] >= 600000 {
					both = false // one flow has run out
					return
				}
				worst = max(worst, abs(sent[1]-sent[2]))
				checked++
			}))
			(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, n: 400}).start(0)
			(&source{net: net, from: a, dst: b.ID(), flow: 2, size: 300, n: 2000}).start(0)
			run(t, net, des.Forever)
			if bound := quantum + 1500; worst > bound {
				t.Errorf("max |bytes(1) - bytes(2)| while both backlogged = %d, want <= quantum + max packet = %d", worst, bound)
			}
			if checked < 1000 || l.Stats().Dropped() != 0 {
				t.Errorf("checked %d transmissions with %d drops: the case is not what it says", checked, l.Stats().Dropped())
			}
		})
	}
}

func abs(x unit.Bytes) unit.Bytes {
	if x < 0 {
		return -x
	}
	return x
}

// fqPkt returns a test packet of flow f (IDs name the flow: 100*f + i).
func fqPkt(f FlowID, i int, size unit.Bytes) *Packet {
	return &Packet{ID: uint64(100*int(f) + i), Flow: f, Size: size}
}

// TestFQCoDelLimit: past the total limit, the packet dropped is the head of
// the queue with the most bytes (RFC 8290 section 4.1), not the arrival;
// with BatchDrop, packets go from that head until half of its bytes are
// gone.
func TestFQCoDelLimit(t *testing.T) {
	tests := []struct {
		name  string
		cfg   FQCoDel
		last  FlowID // flow of the arrival that overflows
		drops []uint64
	}{
		{"other flow arrives", FQCoDel{Limit: 10}, 2, []uint64{101}},
		{"fattest flow arrives", FQCoDel{Limit: 10}, 1, []uint64{101}},
		// Flow 1 holds 7000 bytes: 4 packets make half.
		{"batch", FQCoDel{Limit: 10, BatchDrop: true}, 2, []uint64{101, 102, 103, 104}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.cfg.NewQueue().(*fqQueue)
			if q.index(1) == q.index(2) {
				t.Fatal("flows 1 and 2 share a queue")
			}
			var d countDropper
			for i := 1; i <= 7; i++ {
				q.Enqueue(0, fqPkt(1, i, 1000), &d)
			}
			for i := 1; i <= 3; i++ {
				q.Enqueue(0, fqPkt(2, i, 1000), &d)
			}
			if len(d.ids) != 0 {
				t.Fatalf("drops before the limit: %v", d.ids)
			}
			q.Enqueue(0, fqPkt(tt.last, 50, 1000), &d)
			if diff := cmp.Diff(tt.drops, d.ids); diff != "" {
				t.Errorf("dropped IDs (-want +got):\n%s", diff)
			}
			if d.n[DropOverflow] != len(tt.drops) {
				t.Errorf("overflow drops = %d, want %d", d.n[DropOverflow], len(tt.drops))
			}
			if got, want := q.Len(), 11-len(tt.drops); got != want {
				t.Errorf("Len = %d, want %d", got, want)
			}
		})
	}
}

// TestFQCoDelLists follows the new/old queue rules of RFC 8290 section
// 4.2 step by step (quantum 1514, 1000-byte packets): a queue that uses up
// its quantum moves to the old queues with one more quantum; a new queue
// that empties moves to the end of the old queues, so a packet arriving
// for it soon after gets no new-queue priority; an old queue that empties
// leaves the lists.
func TestFQCoDelLists(t *testing.T) {
	q := FQCoDel{}.NewQueue().(*fqQueue)
	if q.index(1) == q.index(2) {
		t.Fatal("flows 1 and 2 share a queue")
	}
	var d countDropper
	var got []uint64
	deq := func(n int) {
		for range n {
			if p := q.Dequeue(0, &d); p != nil {
				got = append(got, p.ID)
			} else {
				got = append(got, 0)
			}
		}
	}
	for i := 1; i <= 5; i++ {
		q.Enqueue(0, fqPkt(1, i, 1000), &d)
	}
	deq(2)                              // A1 (deficit 514), A2 (-486)
	q.Enqueue(0, fqPkt(2, 1, 1000), &d) // B new
	deq(2)                              // A to old (+1514); B1; then B empty: to old; A3
	q.Enqueue(0, fqPkt(2, 2, 1000), &d) // B is still an old queue
	deq(4)                              // A4; A to tail; B2; B to tail; A5; both empty: nil
	want := []uint64{101, 102, 201, 103, 104, 202, 105, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dequeue order (-want +got):\n%s", diff)
	}
	if q.flows[q.index(1)].listed || q.flows[q.index(2)].listed || !q.newFlows.empty() || !q.oldFlows.empty() {
		t.Errorf("queues still listed after draining")
	}
	if q.Len() != 0 || q.Bytes() != 0 {
		t.Errorf("Len, Bytes = %d, %d after draining, want 0, 0", q.Len(), q.Bytes())
	}
}

// TestFQCoDelHash: the flow-to-queue map is a function of the seed alone.
func TestFQCoDelHash(t *testing.T) {
	mapping := func(seed uint64) []int {
		net := New(des.New(), seed)
		l, err := net.Connect(net.AddNode("a"), net.AddNode("b"), LinkConfig{Name: "x", Queue: FQCoDel{}})
		if err != nil {
			t.Fatal(err)
		}
		q := l.Queue().(*fqQueue)
		m := make([]int, 200)
		for f := range m {
			m[f] = q.index(FlowID(f))
		}
		return m
	}
	if diff := cmp.Diff(mapping(1), mapping(1)); diff != "" {
		t.Errorf("same seed, different map:\n%s", diff)
	}
	if cmp.Equal(mapping(1), mapping(2)) {
		t.Error("seeds 1 and 2 give the same flow map: no perturbation")
	}
	// 200 flows in 1024 queues: about 200*199/2/1024 = 19 colliding
	// pairs are expected; far more means a poor hash.
	used := map[int]bool{}
	for _, i := range mapping(1) {
		used[i] = true
	}
	if len(used) < 160 {
		t.Errorf("200 flows use %d queues of 1024, want >= 160", len(used))
	}
}
