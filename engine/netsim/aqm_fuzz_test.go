package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// aqmOracle checks a queue against what any of our disciplines must do:
// every packet offered is either dropped once or dequeued once, packets of
// a flow leave in the order they came (drops only remove), and Len and
// Bytes are the packets and bytes offered and not yet out.
type aqmOracle struct {
	t       *testing.T
	out     map[uint64]bool
	lastOut map[FlowID]uint64
	n       int
	b       unit.Bytes
}

func (o *aqmOracle) Drop(now des.Time, p *Packet, r DropReason) {
	if r != DropAQM && r != DropOverflow {
		o.t.Fatalf("drop reason %v", r)
	}
	o.leave(p)
}

func (o *aqmOracle) leave(p *Packet) {
	if o.out[p.ID] {
		o.t.Fatalf("packet %d left twice", p.ID)
	}
	o.out[p.ID] = true
	o.n--
	o.b -= p.Size
}

// FuzzAQM runs an operation sequence (each byte: enqueue a packet of one
// of 4 flows and 3 sizes, or dequeue; time advances 1 ms a step) through
// RED, CoDel and FQ-CoDel with small limits, checking the oracle.
func FuzzAQM(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 255, 4, 5, 255, 255, 255})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 0, 255, 0, 255, 255})
	f.Fuzz(func(t *testing.T, ops []byte) {
		models := []QueueModel{
			RED{MinTh: 2, MaxTh: 5, MaxP: 0.5, Weight: 0.2, Gentle: true, LimitPackets: 8},
			RED{MinTh: 2000, MaxTh: 5000, ByteQueue: true, ByteMode: true, LimitBytes: 9000},
			CoDel{Target: 2 * ms, Interval: 5 * ms, Limit: 8},
			FQCoDel{Flows: 2, Quantum: 700, Limit: 8, Target: 2 * ms, Interval: 5 * ms, BatchDrop: true},
			FQCoDel{Flows: 8, Limit: 6, Target: 2 * ms, Interval: 5 * ms},
		}
		for _, m := range models {
			q := m.NewQueue()
			if a, ok := q.(Attacher); ok {
				a.Attach(LinkInfo{Name: "x", Rate: 1e6, Rand: des.NewStreams(1).New("queue/x")})
			}
			o := &aqmOracle{t: t, out: map[uint64]bool{}, lastOut: map[FlowID]uint64{}}
			var id uint64
			for i, op := range ops {
				now := des.Time(i) * des.Time(ms)
				if op >= 240 {
					p := q.Dequeue(now, o)
					if p == nil {
						if q.Len() != 0 {
							t.Fatalf("%T: nil with Len %d", q, q.Len())
						}
						continue
					}
					if p.ID <= o.lastOut[p.Flow] {
						t.Fatalf("%T: flow %d packet %d after %d", q, p.Flow, p.ID, o.lastOut[p.Flow])
					}
					o.lastOut[p.Flow] = p.ID
					o.leave(p)
				} else {
					id++
					p := &Packet{ID: id, Flow: FlowID(op % 4), Size: []unit.Bytes{100, 1000, 1500}[op/4%3]}
					o.n++
					o.b += p.Size
					q.Enqueue(now, p, o)
				}
				if q.Len() != o.n || q.Bytes() != o.b {
					t.Fatalf("%T: Len, Bytes = %d, %d, want %d, %d", q, q.Len(), q.Bytes(), o.n, o.b)
				}
			}
		}
	})
}
