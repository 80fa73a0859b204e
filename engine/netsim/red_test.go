package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/google/go-cmp/cmp"
)

// countDropper counts drops by reason and frees nothing (test packets are
// not pooled).
type countDropper struct {
	n   [NumDropReasons]int
	ids []uint64
}

func (d *countDropper) Drop(now des.Time, p *Packet, r DropReason) {
	d.n[r]++
	d.ids = append(d.ids, p.ID)
}

// paperPb is p_b as a function of the average queue, written from the
// paper's section 4 and Floyd's gentle recommendation (independently of
// redQueue.prob): 0 below min_th, linear to max_p at max_th, then linear
// to 1 at 2 max_th (gentle) or 1 at once.
func paperPb(c RED, avg float64) float64 {
	switch {
	case avg < c.MinTh:
		return 0
	case avg < c.MaxTh:
		return c.MaxP * (avg - c.MinTh) / (c.MaxTh - c.MinTh)
	case c.Gentle && avg < 2*c.MaxTh:
		return c.MaxP + (1-c.MaxP)*(avg-c.MaxTh)/c.MaxTh
	}
	return 1
}

// dropFraction is the long-run fraction of arrivals RED drops when p_b is
// fixed: by the renewal theorem 1/E[X], X the number of arrivals from one
// drop to the next. After a drop, count restarts at 0 and is incremented
// before each decision (the paper's Fig. 2), so arrival k after a drop is
// dropped with p_a = p_b/(1 - k p_b), or surely once k p_b >= 1, and
// E[X] = sum_n P(X > n) = sum_n prod_{k<=n} (1 - p_a(k)).
func dropFraction(pb float64) float64 {
	if pb <= 0 {
		return 0
	}
	ex, survive := 0.0, 1.0
	for k := 1; survive > 0; k++ {
		ex += survive
		pa := 1.0
		if d := 1 - float64(k)*pb; d > 0 {
			pa = math.Min(1, pb/d)
		}
		survive *= 1 - pa
	}
	return 1 / ex
}

// newTestRED returns a RED queue attached to a stream of the given seed.
func newTestRED(c RED, seed uint64, rate unit.BitRate) *redQueue {
	q := c.NewQueue().(*redQueue)
	q.Attach(LinkInfo{Name: "x", Rate: rate, Rand: des.NewStreams(seed).New("queue/x")})
	return q
}

// TestREDDropProbability forces the average queue (w_q = 0 freezes it) and
// offers 100000 packets: the number RED drops must match the piecewise-
// linear p_b of the paper, spread by count, within 4 binomial standard
// deviations plus one. (The count method makes the gaps between drops
// uniform rather than geometric, which only lowers the variance below the
// binomial one, so the bound is conservative.) A second check is the
// point of the count method (the paper's section 7): no gap between drops
// is longer than 1/p_b packets.
func TestREDDropProbability(t *testing.T) {
	base := RED{MinTh: 5, MaxTh: 15, MaxP: 0.1}
	gentle := base
	gentle.Gentle = true
	bytes := base
	bytes.ByteMode = true
	tests := []struct {
		cfg  RED
		avg  float64
		size unit.Bytes
	}{
		{base, 4.9, 1500}, {base, 5, 1500}, {base, 7.5, 1500}, {base, 10, 1500},
		{base, 14.9, 1500}, {base, 15, 1500}, {base, 40, 1500},
		{gentle, 10, 1500}, {gentle, 15, 1500}, {gentle, 22.5, 1500}, {gentle, 29.9, 1500}, {gentle, 30, 1500},
		// Byte mode: a 750-byte packet sees half of p_b (max packet 1500).
		{bytes, 10, 750}, {bytes, 12.5, 300},
	}
	const n = 100000
	for _, tt := range tests {
		name := fmt.Sprintf("gentle=%v/bytemode=%v/avg=%g/size=%d", tt.cfg.Gentle, tt.cfg.ByteMode, tt.avg, tt.size)
		t.Run(name, func(t *testing.T) {
			q := newTestRED(tt.cfg, 7, 1e9)
			q.cfg.Weight = 0 // freeze the average where the test puts it
			q.avg, q.idle = tt.avg, false
			var d countDropper
			gap, maxGap := 0, 0
			for i := range n {
				p := &Packet{ID: uint64(i), Size: tt.size}
				before := d.n[DropAQM]
				q.Enqueue(0, p, &d)
				gap++
				if d.n[DropAQM] > before {
					maxGap = max(maxGap, gap)
					gap = 0
				} else if q.Dequeue(0, &d) != p {
					t.Fatal("queue lost an accepted packet")
				}
			}
			pb := paperPb(tt.cfg, tt.avg)
			if tt.cfg.ByteMode {
				pb *= float64(tt.size) / 1500
			}
			f := dropFraction(pb)
			want := n * f
			tol := 4*math.Sqrt(n*f*(1-f)) + 1
			if got := float64(d.n[DropAQM]); math.Abs(got-want) > tol {
				t.Errorf("drops at avg %g (p_b %.4f) = %g, want %.1f ± %.1f", tt.avg, pb, got, want, tol)
			}
			if d.n[DropOverflow] != 0 {
				t.Errorf("overflow drops = %d, want 0", d.n[DropOverflow])
			}
			if pb > 0 && pb < 1 {
				if limit := int(math.Ceil(1 / pb)); maxGap > limit {
					t.Errorf("longest gap between drops = %d packets, want <= 1/p_b = %d", maxGap, limit)
				}
			}
		})
	}
}

// TestREDUniformGaps checks the distribution the count method produces at
// p_b = 1/20: gaps between drops uniform on {1, ..., 19} (P = 1/19 each,
// the paper's section 7 with Fig. 2's count), so the mean gap is 10 and
// the drop fraction 2 p_b. Each of the 19 bins must hold its expected
// share within 5 binomial standard deviations.
func TestREDUniformGaps(t *testing.T) {
	c := RED{MinTh: 0, MaxTh: 10, MaxP: 0.1}
	q := newTestRED(c, 11, 1e9)
	q.cfg.Weight = 0
	q.avg, q.idle = 5, false // p_b = 0.05
	var d countDropper
	hist := make([]int, 21)
	gap, drops := 0, 0
	for i := range 200000 {
		p := &Packet{ID: uint64(i), Size: 1000}
		before := d.n[DropAQM]
		q.Enqueue(0, p, &d)
		gap++
		if d.n[DropAQM] > before {
			if drops > 0 { // the first gap starts from count -1
				hist[min(gap, 20)]++
			}
			drops++
			gap = 0
		} else {
			q.Dequeue(0, &d)
		}
	}
	total := drops - 1
	for g := 1; g <= 20; g++ {
		want := 0.0
		if g <= 19 {
			want = float64(total) / 19
		}
		tol := 5 * math.Sqrt(want*(1-1.0/19))
		if math.Abs(float64(hist[g])-want) > tol {
			t.Errorf("gaps of %d packets = %d, want %.1f ± %.1f", g, hist[g], want, tol)
		}
	}
}

// TestREDAverage drives RED in front of an 8 Mbit/s link with 1000-byte
// packets (1 ms each): a burst of 11 packets at t=0 leaves 10 queued, and
// one packet every 1 ms from 0.5 ms keeps exactly 10 queued at every
// arrival. The paper's EWMA then has the closed form
// avg_j = K + (A0 - K)(1-w)^j, with A0 its value after the burst (whose
// arrivals saw 0, 0, 1, ..., 9 packets). After the last packet leaves at
// 311 ms the link idles until a packet arrives at 400 ms: the average
// decays by (1-w)^m with m = 89 ms / s, s = 0.5 ms the transmission time of
// a 500-byte packet (the paper's section 4, idle time correction).
// Tolerance: 1e-12 relative (float64 rounding over 300 updates).
func TestREDAverage(t *testing.T) {
	const (
		w = 0.01
		K = 10
		n = 300
	)
	cfg := RED{MinTh: 100, MaxTh: 200, Weight: w}
	net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 8e6, Queue: cfg})
	k.keep = false
	q := l.Queue().(*redQueue)
	var seen []float64 // avg just before each arrival
	var idleAt des.Time = -1
	net.SetObserver(observerFunc(func(r Record) {
		if r.Kind == TraceSend {
			seen = append(seen, q.avg)
			if q.idle {
				idleAt = q.idleSince
			}
		}
	}))
	(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: K + 1}).start(0)
	(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: n, gap: ms}).start(des.Time(ms / 2))
	(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: 1}).start(des.Time(400 * ms))
	run(t, net, des.Forever)

	a0 := 0.0
	for i := 1; i <= K; i++ {
		a0 += w * math.Pow(1-w, float64(K-i)) * float64(i-1)
	}
	close := func(got, want float64) bool { return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want)) }
	for j := 0; j < n; j++ {
		want := K + (a0-K)*math.Pow(1-w, float64(j))
		if got := seen[K+1+j]; !close(got, want) {
			t.Fatalf("avg before periodic arrival %d = %.15g, want %.15g", j, got, want)
		}
	}
	// The last arrival is the only one to find the link idle.
	if got, want := idleAt, des.Time((K+1+n)*ms); got != want {
		t.Errorf("idle since %v at the last arrival, want %v", got, want)
	}
	last := K + (a0-K)*math.Pow(1-w, n)
	want := last * math.Pow(1-w, float64(89*ms)/float64(500*des.Microsecond))
	if got := q.avg; !close(got, want) {
		t.Errorf("avg after 89 ms idle = %.15g, want %.15g (before idle %.15g)", got, want, last)
	}
	if l.Stats().Dropped() != 0 {
		t.Errorf("drops = %d, want 0", l.Stats().Dropped())
	}
}

// TestREDLimit checks the hard limit: drops beyond it count as overflow,
// not AQM.
func TestREDLimit(t *testing.T) {
	for _, tt := range []struct {
		name string
		cfg  RED
	}{
		{"packets", RED{MinTh: 100, MaxTh: 200, LimitPackets: 4}},
		{"bytes", RED{MinTh: 1e5, MaxTh: 2e5, ByteQueue: true, LimitBytes: 4500}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			net, a, b, l, _ := twoNodes(t, 1, LinkConfig{Rate: 8e6, Queue: tt.cfg})
			(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: 10}).start(0)
			run(t, net, des.Forever)
			st := l.Stats()
			if got, want := st.Drops, [NumDropReasons]int64{DropOverflow: 5}; got != want {
				t.Errorf("drops = %v, want %v", got, want)
			}
		})
	}
}

// TestREDDeterminism: RED's drops depend only on the seed, and on its own
// stream ("queue/<link>"), not on the link's loss stream.
func TestREDDeterminism(t *testing.T) {
	drops := func(seed uint64, loss LossModel) []uint32 {
		cfg := RED{MinTh: 3, MaxTh: 9, MaxP: 0.2, Weight: 0.05, Gentle: true}
		net, a, b, _, k := twoNodes(t, seed, LinkConfig{Name: "x", Rate: 8e6, Queue: cfg, Loss: loss})
		k.keep = false
		var got []uint32
		net.SetObserver(observerFunc(func(r Record) {
			if r.Kind == TraceDrop && r.Reason == DropAQM {
				got = append(got, r.Packet.Seq)
			}
		}))
		(&source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: 3000, gap: 800 * des.Microsecond}).start(0)
		run(t, net, des.Forever)
		return got
	}
	first := drops(5, nil)
	if len(first) < 50 {
		t.Fatalf("only %d AQM drops: the case is not sensitive", len(first))
	}
	if diff := cmp.Diff(first, drops(5, nil)); diff != "" {
		t.Errorf("same seed, different drops (-first +second):\n%s", diff)
	}
	if cmp.Equal(first, drops(6, nil)) {
		t.Errorf("seeds 5 and 6 dropped the same packets")
	}
	// Corruption after the queue does not change what RED drops: it
	// draws from "link/x", RED from "queue/x".
	if diff := cmp.Diff(first, drops(5, Bernoulli{P: 0.1})); diff != "" {
		t.Errorf("a loss process changed RED's drops (-without +with):\n%s", diff)
	}
}

// TestREDValidate: bad parameters are refused at Connect.
func TestREDValidate(t *testing.T) {
	for _, c := range []QueueModel{
		RED{MinTh: 5, MaxTh: 5}, RED{MinTh: -1, MaxTh: 5}, RED{MaxTh: 5, MaxP: 1.5},
		RED{MaxTh: 5, Weight: -0.1}, RED{MaxTh: math.NaN()}, CoDel{Target: -1}, FQCoDel{Flows: -1},
	} {
		net := New(des.New(), 1)
		if _, err := net.Connect(net.AddNode("a"), net.AddNode("b"), LinkConfig{Queue: c}); err == nil {
			t.Errorf("Connect(%+v) succeeded, want an error", c)
		}
	}
}
