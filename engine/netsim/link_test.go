package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/google/go-cmp/cmp"
)

func TestTransmissionTime(t *testing.T) {
	tests := []struct {
		size unit.Bytes
		rate unit.BitRate
		want des.Duration
	}{
		{1500, 1e9, 12000},                 // 12000 bits / 1e9 bit/s = 12 µs exactly
		{1500, 4e9, 3000},                  // 4 Gbit/s (document 000): 3 µs
		{1500, 1544000, 7772021},           // T1: 12000/1.544e6 s = 7772020.73 ns, rounded up
		{40, 384000, 833334},               // 320 bits / 384 kbit/s = 833333.3 ns, rounded up
		{12000, 1e9, 96000},                // jumbo MSS of document 000 Fig. 7
		{1, 3e9, 3},                        // 8/3 ns = 2.67 ns, rounded up
		{100 << 20, 6176000, 135825906736}, // 100 MiB at 6.176 Mbit/s: 838860800 bits / 6.176e6 = 135.825906735751 s
		{1500, 0, 0},                       // infinite rate
	}
	for _, tt := range tests {
		if got := TransmissionTime(tt.size, tt.rate); got != tt.want {
			t.Errorf("TransmissionTime(%d, %v) = %d, want %d", tt.size, tt.rate, got, tt.want)
		}
	}
}

// TestBackToBackNoDrift sends back-to-back packets whose individual
// transmission times are fractional: rounding each one up would add up to
// almost 1 ns per packet; the link rounds the cumulative bit count instead.
func TestBackToBackNoDrift(t *testing.T) {
	// 1-byte packets at 3 Gbit/s: the k-th last bit leaves at 8k/3 ns.
	net, a, b, _, k := twoNodes(t, 1, LinkConfig{Rate: 3e9, Delay: 100})
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1, n: 3000}
	src.start(0)
	run(t, net, des.Forever)
	if len(k.got) != 3000 {
		t.Fatalf("delivered %d packets, want 3000", len(k.got))
	}
	for i, g := range k.got {
		n := int64(i + 1)
		want := des.Time((8*n+2)/3 + 100) // ceil(8n/3) + delay
		if g.At != want {
			t.Fatalf("packet %d arrived at %d ns, want %d", n, g.At, want)
		}
	}
	// After 3000 packets, exactly 8000 ns of serialisation.
	if got, want := k.got[2999].At, des.Time(8000+100); got != want {
		t.Errorf("last arrival %d ns, want %d", got, want)
	}
}

// TestBackToBackMixedSizes checks the end of every transmission of a long
// busy period of packets of two sizes in turn with a third and a fourth
// now and then (the link remembers the quotients of two sizes: the
// others evict one) at a rate that
// divides neither 1e9 nor the sizes, against the closed form
// ceil(8 * cumulated bytes * 1e9 / rate) + delay computed with big
// integers. Exact: integer nanoseconds, tolerance 0.
func TestBackToBackMixedSizes(t *testing.T) {
	const bps, delay, n = 999_999_937, 1000, 5000
	sizes := []unit.Bytes{1500, 52, 1500, 52, 9001}
	net, a, b, _, k := twoNodes(t, 1, LinkConfig{Rate: bps, Delay: delay})
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, n: n, sizeFunc: func(i int) unit.Bytes {
		if i%97 == 0 {
			return 64 // now and then a fourth size
		}
		return sizes[i%len(sizes)]
	}}
	src.start(0)
	run(t, net, des.Forever)
	if len(k.got) != n {
		t.Fatalf("delivered %d packets, want %d", len(k.got), n)
	}
	cum := new(big.Int)
	for i, g := range k.got {
		cum.Add(cum, big.NewInt(int64(g.Size)*8))
		num := new(big.Int).Mul(cum, big.NewInt(1e9))
		q, r := new(big.Int).QuoRem(num, big.NewInt(bps), new(big.Int))
		if r.Sign() > 0 {
			q.Add(q, big.NewInt(1))
		}
		if want := des.Time(q.Int64() + delay); g.At != want {
			t.Fatalf("packet %d (%d B) arrived at %d ns, want %d", i+1, g.Size, g.At, want)
		}
	}
}

// TestPathTimings checks store-and-forward over two hops and the queueing
// of a burst, all computed by hand.
func TestPathTimings(t *testing.T) {
	net := New(des.New(), 1)
	p, err := NewPath(net, []Hop{
		{Forward: LinkConfig{Rate: 1e9, Delay: 5 * des.Millisecond}, Reverse: LinkConfig{Rate: 1e9, Delay: 5 * des.Millisecond}},
		{Forward: LinkConfig{Rate: 100e6, Delay: 20 * des.Millisecond}, Reverse: LinkConfig{Rate: 100e6, Delay: 20 * des.Millisecond}},
	})
	if err != nil {
		t.Fatal(err)
	}
	k := &sink{net: net, keep: true}
	if err := p.Receiver.Attach(1, k); err != nil {
		t.Fatal(err)
	}
	src := &source{net: net, from: p.Sender, dst: p.Receiver.ID(), flow: 1, size: 1500, n: 3}
	src.start(1000)
	run(t, net, des.Forever)
	// Hop 1: 12 µs per packet at 1 Gbit/s; packet k (0-based) leaves at
	// 1000 + 12000(k+1) and reaches the router 5 ms later. Hop 2: 120 µs
	// per packet at 100 Mbit/s, so packets queue behind each other there:
	// the first starts at 1000+12000+5e6 = 5013000 and the k-th ends at
	// 5013000 + 120000(k+1); then 20 ms of propagation.
	want := []arrival{
		{At: 5013000 + 120000 + 20e6, ID: 1, Seq: 1, Size: 1500},
		{At: 5013000 + 240000 + 20e6, ID: 2, Seq: 2, Size: 1500},
		{At: 5013000 + 360000 + 20e6, ID: 3, Seq: 3, Size: 1500},
	}
	if diff := cmp.Diff(want, k.got); diff != "" {
		t.Errorf("arrivals (-want +got):\n%s", diff)
	}
	st := p.Forward[1].Stats()
	// Packets 2 and 3 waited at the router: packet 2 arrived at
	// 1000+24000+5e6 and started at 5013000+120000 (waited 108 µs); packet
	// 3 arrived 12 µs later and started 120 µs later (waited 216 µs).
	if got, want := st.QueueDelayMax, des.Duration(216000); got != want {
		t.Errorf("QueueDelayMax = %d, want %d", got, want)
	}
	if got, want := st.QueueDelayMean, des.Duration((0+108000+216000)/3); got != want {
		t.Errorf("QueueDelayMean = %d, want %d", got, want)
	}
	if got, want := st.Busy, des.Duration(360000); got != want {
		t.Errorf("Busy = %d, want %d", got, want)
	}
	// Packet 3 arrived (5037000) while packet 2 was still waiting.
	if got, want := st.QueueMax, 2; got != want {
		t.Errorf("QueueMax = %d, want %d", got, want)
	}
}

func TestDropTail(t *testing.T) {
	tests := []struct {
		name   string
		q      DropTail
		sizes  []unit.Bytes
		wantOK []uint32 // Seqs delivered
	}{
		// The first packet goes straight to the transmitter; 3 wait; the
		// rest overflow.
		{"packets", DropTail{Packets: 3}, []unit.Bytes{100, 100, 100, 100, 100, 100, 100}, []uint32{1, 2, 3, 4}},
		// 250 bytes of buffer behind the transmitter: 100+100 fit, the
		// 100 after them does not (300 > 250), the 50 does (250). A packet
		// reaching an idle link passes through the queue too, so one
		// larger than the limit is dropped even then (as in a Linux qdisc).
		{"bytes", DropTail{Bytes: 250}, []unit.Bytes{200, 100, 100, 100, 50, 1}, []uint32{1, 2, 3, 5}},
		{"both", DropTail{Packets: 2, Bytes: 1000}, []unit.Bytes{10, 600, 600, 300, 10}, []uint32{1, 2, 4}},
		{"unlimited", DropTail{}, []unit.Bytes{9000, 9000, 9000, 9000}, []uint32{1, 2, 3, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 1e6, Delay: 1000, Queue: tt.q})
			src := &source{net: net, from: a, dst: b.ID(), flow: 1, n: len(tt.sizes),
				sizeFunc: func(i int) unit.Bytes { return tt.sizes[i-1] }}
			src.start(0)
			run(t, net, des.Forever)
			var got []uint32
			for _, g := range k.got {
				got = append(got, g.Seq)
			}
			if diff := cmp.Diff(tt.wantOK, got); diff != "" {
				t.Errorf("delivered seqs (-want +got):\n%s", diff)
			}
			st := l.Stats()
			if got, want := st.Drops[DropOverflow], int64(len(tt.sizes)-len(tt.wantOK)); got != want {
				t.Errorf("overflow drops = %d, want %d", got, want)
			}
			if net.Pool().InUse() != 0 {
				t.Errorf("pool InUse = %d after the run, want 0", net.Pool().InUse())
			}
		})
	}
}

// TestQueueOccupancy checks the time-weighted mean queue length on a
// hand-computed case: 3 packets of 125 bytes (1 ms each at 1 Mbit/s) at
// t=0: the queue holds 2 packets for 1 ms, 1 for 1 ms, 0 after. Over 4 ms
// the mean is (2+1)/4 = 0.75 packets, and utilisation 3/4.
func TestQueueOccupancy(t *testing.T) {
	net, a, b, l, _ := twoNodes(t, 1, LinkConfig{Rate: 1e6, Delay: 0})
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 125, n: 3}
	src.start(0)
	run(t, net, des.Time(4*des.Millisecond))
	st := l.Stats()
	if math.Abs(st.QueueMean-0.75) > 1e-12 {
		t.Errorf("QueueMean = %v, want 0.75", st.QueueMean)
	}
	if math.Abs(st.QueueMeanBytes-0.75*125) > 1e-9 {
		t.Errorf("QueueMeanBytes = %v, want %v", st.QueueMeanBytes, 0.75*125)
	}
	if math.Abs(st.Utilisation-0.75) > 1e-12 {
		t.Errorf("Utilisation = %v, want 0.75", st.Utilisation)
	}
	if st.QueueMax != 2 || st.QueueMaxBytes != 250 {
		t.Errorf("QueueMax = %d packets, %d bytes, want 2, 250", st.QueueMax, st.QueueMaxBytes)
	}
}

// TestFIFOAndConservation sends a long stream through a lossy, bounded
// link and checks at several instants that packets sent = delivered +
// dropped + queued + in flight, and that arrivals keep sending order.
func TestFIFOAndConservation(t *testing.T) {
	net, a, b, l, k := twoNodes(t, 7, LinkConfig{Rate: 10e6, Delay: 3 * des.Millisecond,
		Queue: DropTail{Packets: 20}, Loss: Bernoulli{P: 0.05}})
	// 2000 packets of 1250 bytes (1 ms each) offered every 0.8 ms:
	// the queue overflows from time to time.
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1250, n: 2000, gap: 800 * des.Microsecond}
	src.start(0)
	for _, until := range []des.Time{des.Time(50*des.Millisecond + 123), des.Time(999 * des.Millisecond), des.Time(3 * des.Second)} {
		run(t, net, until)
		st := l.Stats()
		if got := st.Delivered + st.Dropped() + int64(st.Queued) + int64(st.InFlight); got != st.Sent {
			t.Errorf("t=%v: delivered %d + dropped %d + queued %d + in flight %d = %d, want sent %d",
				until, st.Delivered, st.Dropped(), st.Queued, st.InFlight, got, st.Sent)
		}
		if got, want := int64(net.Pool().InUse()), int64(st.Queued+st.InFlight); got != want {
			t.Errorf("t=%v: pool InUse = %d, want queued+in flight = %d", until, got, want)
		}
	}
	st := l.Stats()
	if st.Sent != 2000 || st.Queued != 0 || st.InFlight != 0 {
		t.Errorf("end: sent %d, queued %d, in flight %d, want 2000, 0, 0", st.Sent, st.Queued, st.InFlight)
	}
	if st.Drops[DropOverflow] == 0 || st.Drops[DropCorrupt] == 0 {
		t.Errorf("drops %v: want both overflow and corruption in this scenario", st.Drops)
	}
	for i := 1; i < len(k.got); i++ {
		if k.got[i].Seq <= k.got[i-1].Seq || k.got[i].At < k.got[i-1].At {
			t.Fatalf("arrival %d (seq %d at %v) after seq %d at %v: out of order",
				i, k.got[i].Seq, k.got[i].At, k.got[i-1].Seq, k.got[i-1].At)
		}
	}
}

func TestOversizedPacketDroppedAtIdleLink(t *testing.T) {
	net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 1e6, Queue: DropTail{Bytes: 250}})
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1000, n: 1}
	src.start(0)
	run(t, net, des.Forever)
	if len(k.got) != 0 || l.Stats().Drops[DropOverflow] != 1 {
		t.Errorf("1000-byte packet into a 250-byte queue: delivered %d, overflow drops %d, want 0, 1",
			len(k.got), l.Stats().Drops[DropOverflow])
	}
}

// Jitter adds to each packet's propagation delay a uniform time in
// [0, Jitter) without reordering. Packets 1 ms apart (far more than the
// 100 µs jitter, so order never binds) arrive delay + U[0, 100 µs) after
// their last bit: every extra delay lies in [0, 100 µs) and the mean of
// 10,000 is within 2 % of 50 µs (the standard error is 100/sqrt(12 x
// 10,000) = 0.29 µs, 0.6 %). Back-to-back packets (12 µs apart, less than
// the jitter) keep their order: arrivals never decrease. Jitter 0 leaves
// the fixed delay exact, as TestBackToBackNoDrift checks.
func TestLinkJitter(t *testing.T) {
	const jitter = 100 * des.Microsecond
	cfg := LinkConfig{Rate: 1e9, Delay: des.Millisecond, Jitter: jitter}
	net, a, b, _, k := twoNodes(t, 3, cfg)
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, n: 10000, gap: des.Millisecond}
	src.start(0)
	run(t, net, des.Forever)
	if len(k.got) != 10000 {
		t.Fatalf("delivered %d packets, want 10000", len(k.got))
	}
	var sum float64
	for i, g := range k.got {
		sent := des.Time(i) * des.Time(des.Millisecond)
		extra := g.At.Sub(sent) - 12*des.Microsecond - des.Millisecond
		if extra < 0 || extra >= jitter {
			t.Fatalf("packet %d: extra delay %v, want in [0, %v)", i, extra, jitter)
		}
		sum += float64(extra)
	}
	if mean := sum / 10000; math.Abs(mean/float64(jitter/2)-1) > 0.02 {
		t.Errorf("mean extra delay = %.0f ns, want %v (2 %%)", mean, jitter/2)
	}

	net, a, b, _, k = twoNodes(t, 3, cfg)
	src = &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, n: 1000}
	src.start(0)
	run(t, net, des.Forever)
	for i := 1; i < len(k.got); i++ {
		if k.got[i].At < k.got[i-1].At || k.got[i].Seq != k.got[i-1].Seq+1 {
			t.Fatalf("packet %d (seq %d) at %v after packet seq %d at %v: reordered", i, k.got[i].Seq, k.got[i].At, k.got[i-1].Seq, k.got[i-1].At)
		}
	}
}

// TestNetemLimit checks the netem-style limit against what Linux's
// sch_netem does with "delay 10ms limit N" under a 100 Mbit/s shaper
// (netem_enqueue drops when the packets it holds, delayed ones included,
// reach the limit; a packet leaves netem when the shaper takes it): a
// source offering 200 Mbit/s of 1500-byte packets for one second gets at
// most N packets into the link per 10 ms. With N below the link's
// 83.3-packet bandwidth-delay product, throughput is N x 1500 B per 10 ms
// (within 1 %: a freed place waits up to one 60 us source gap for the
// next packet), and the queue peaks at N/2 in the first milliseconds,
// when the 2:1 overload has admitted N packets and sent half of them.
// With N above it the link runs at its rate and the queue holds the
// N - 83 packets the delay line leaves. Queue peaks within one packet;
// every offered packet is accounted for.
func TestNetemLimit(t *testing.T) {
	const (
		rate  = 100e6
		delay = 10 * des.Millisecond
		size  = 1500
		gap   = 60 * des.Microsecond
		n     = 16667 // one second at 200 Mbit/s
	)
	for _, tt := range []struct {
		limit     int
		wantRate  float64 // bit/s
		wantQueue int     // largest queue, packets
	}{
		{limit: 41, wantRate: 41 * size * 8 / delay.Seconds(), wantQueue: 41 / 2},
		{limit: 20, wantRate: 20 * size * 8 / delay.Seconds(), wantQueue: 20 / 2},
		{limit: 184, wantRate: rate, wantQueue: 184 - 83},
	} {
		t.Run(fmt.Sprint(tt.limit), func(t *testing.T) {
			net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: rate, Delay: delay, NetemLimit: tt.limit})
			src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: size, gap: gap, n: n}
			src.start(0)
			run(t, net, des.Time(des.Second))
			// Delivered in the second half, in steady state.
			var bytes unit.Bytes
			for _, g := range k.got {
				if g.At >= des.Time(des.Second/2) {
					bytes += g.Size
				}
			}
			got := float64(bytes) * 8 / 0.5
			if math.Abs(got-tt.wantRate)/tt.wantRate > 0.01 {
				t.Errorf("throughput = %.4g bit/s, want %.4g (1 %%)", got, tt.wantRate)
			}
			st := l.Stats()
			if d := st.QueueMax - tt.wantQueue; d < -1 || d > 1 {
				t.Errorf("largest queue = %d packets, want %d (+-1)", st.QueueMax, tt.wantQueue)
			}
			if st.Sent != n || st.Sent != st.Delivered+st.Dropped()+int64(st.Queued+st.InFlight) {
				t.Errorf("sent %d (offered %d) != delivered %d + dropped %d + queued %d + in flight %d",
					st.Sent, n, st.Delivered, st.Dropped(), st.Queued, st.InFlight)
			}
		})
	}
}

// TestNetemLossBeforeLimit: with a netem limit the loss process acts on
// arrival, as netem's loss does, so lost packets are never transmitted and
// never counted as overflow, and the packets that pass it are lost no
// more: 10,000 packets offered at half the link's rate under a limit that
// never binds, with loss 0.5, are either lost on arrival (4,953 with this
// seed, 5,000 +- 3 sigma = 150) or transmitted and delivered.
func TestNetemLossBeforeLimit(t *testing.T) {
	const n = 10000
	net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 1e6, Delay: des.Millisecond, NetemLimit: 10, Loss: Bernoulli{P: 0.5}})
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 125, gap: 2 * des.Millisecond, n: n}
	src.start(0)
	run(t, net, des.Forever)
	st := l.Stats()
	lost := st.Drops[DropCorrupt]
	if lost < n/2-150 || lost > n/2+150 {
		t.Errorf("lost %d of %d, want %d +- 150", lost, n, n/2)
	}
	if st.Drops[DropOverflow] != 0 || st.Transmitted != n-lost || st.Delivered != st.Transmitted || int64(len(k.got)) != st.Delivered {
		t.Errorf("overflow %d, transmitted %d, delivered %d, received %d; want 0, %d, %d, %d",
			st.Drops[DropOverflow], st.Transmitted, st.Delivered, len(k.got), n-lost, n-lost, n-lost)
	}
}

// TestLinkSetDelay moves a link's delay while packets are on the wire: a
// 1500-byte packet every millisecond over 1 Gbit/s (12 us each), 10 ms
// of delay, then 4 ms from t = 50.5 ms and 20 ms from t = 100.5 ms.
// Packets keep their order; those on the wire at a change keep their
// arrival; after the drop to 4 ms the packets that would overtake wait
// for the last one sent at 10 ms (sent up to 50 ms, it arrives at 60.012
// ms), and from then on every packet arrives exactly its transmission
// end plus the delay in force (integer nanoseconds, tolerance none).
func TestLinkSetDelay(t *testing.T) {
	net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 1e9, Delay: 10 * des.Millisecond})
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, n: 200, gap: des.Millisecond}
	src.start(0)
	set := func(at des.Time, d des.Duration) {
		net.Scheduler().Schedule(at, handlerFunc(func(des.Time, int, uint64) {
			if err := l.SetDelay(d); err != nil {
				t.Error(err)
			}
		}), 0, 0)
	}
	set(des.Time(50500*des.Microsecond), 4*des.Millisecond)
	set(des.Time(100500*des.Microsecond), 20*des.Millisecond)
	run(t, net, des.Forever)
	if len(k.got) != 200 {
		t.Fatalf("delivered %d of 200", len(k.got))
	}
	tx := 12 * des.Microsecond
	for i, g := range k.got {
		end := des.Time(i)*des.Time(des.Millisecond) + des.Time(tx)
		var want des.Time
		switch {
		case i <= 50:
			want = end.Add(10 * des.Millisecond)
		case i <= 100:
			want = max(end.Add(4*des.Millisecond), des.Time(50*des.Millisecond).Add(tx+10*des.Millisecond))
		default:
			want = end.Add(20 * des.Millisecond)
		}
		if g.At != want || g.Seq != uint32(i+1) {
			t.Fatalf("packet %d (seq %d) arrived at %v, want %v", i, g.Seq, g.At, want)
		}
	}
	if err := l.SetDelay(-1); err == nil {
		t.Error("SetDelay(-1) accepted")
	}
	_, _, _, nl, _ := twoNodes(t, 1, LinkConfig{Rate: 1e9, Delay: des.Millisecond, NetemLimit: 10})
	if err := nl.SetDelay(2 * des.Millisecond); err == nil {
		t.Error("SetDelay on a netem link accepted")
	}
}

// handlerFunc adapts a function to des.Handler.
type handlerFunc func(now des.Time, kind int, arg uint64)

func (f handlerFunc) Handle(now des.Time, kind int, arg uint64) { f(now, kind, arg) }

// seenAt records, when its event runs, how many packets the sink holds.
type seenAt struct {
	k    *sink
	seen []int
}

func (s *seenAt) Handle(des.Time, int, uint64) { s.seen = append(s.seen, len(s.k.got)) }

// TestZeroDelayDeliversWithEndOfTransmission: a link without propagation
// delay (a Mininet veth, a host's access link in tcp-compete) hands each
// packet to the far node in the event that ends its transmission, one
// event per packet rather than an end and an arrival at the same instant.
// The arrival times are those of the wire (k x 12 µs at 1 Gbit/s), the
// counters balance, and an event scheduled after the packets were sent,
// for the instant the first transmission ends, finds that packet
// delivered: the arrival is not an event queued behind it. With a netem
// limit the skb count is released at delivery; with jitter, whose
// arrival is drawn later than the end, arrivals keep their events.
func TestZeroDelayDeliversWithEndOfTransmission(t *testing.T) {
	const n = 5
	const tx = des.Duration(12000) // 1500 bytes at 1 Gbit/s
	for _, tc := range []struct {
		name       string
		cfg        LinkConfig
		wantEvents uint64 // the source's event, then the link's
		wantSeen   int
	}{
		{"plain", LinkConfig{Rate: 1e9}, 1 + n, 1},
		{"netem-limit", LinkConfig{Rate: 1e9, NetemLimit: n}, 1 + n, 1},
		// With jitter a packet arrives after its end: an arrival event
		// each, and a start event for each packet that waited (early.go).
		{"jitter", LinkConfig{Rate: 1e9, Jitter: des.Microsecond}, 1 + n + n - 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net, a, b, l, k := twoNodes(t, 1, tc.cfg)
			src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, n: n}
			src.start(0)
			probe := &seenAt{k: k}
			// Scheduled before the run, so after the source's event,
			// whose sends schedule the first end of transmission.
			run(t, net, 0)
			net.Scheduler().Schedule(des.Time(tx), probe, 0, 0)
			run(t, net, des.Forever)
			if got := net.Scheduler().Processed() - 1; got != tc.wantEvents { // less the probe's
				t.Errorf("events = %d, want %d", got, tc.wantEvents)
			}
			if len(probe.seen) != 1 || probe.seen[0] != tc.wantSeen {
				t.Errorf("packets delivered when the event at the first end ran = %v, want [%d]", probe.seen, tc.wantSeen)
			}
			if len(k.got) != n {
				t.Fatalf("delivered %d packets, want %d", len(k.got), n)
			}
			for i, g := range k.got {
				end := des.Time(des.Duration(i+1) * tx)
				late := g.At != end
				if tc.cfg.Jitter > 0 {
					late = g.At < end || g.At >= end.Add(tc.cfg.Jitter)
				}
				if late || g.Seq != uint32(i+1) {
					t.Errorf("packet %d arrived at %v (seq %d), want %v (+ jitter below %v), in order", i+1, g.At, g.Seq, end, tc.cfg.Jitter)
				}
			}
			st := l.Stats()
			if st.Sent != n || st.Transmitted != n || st.Delivered != n || st.InFlight != 0 || st.Queued != 0 {
				t.Errorf("stats: sent %d transmitted %d delivered %d in flight %d queued %d, want %d, %d, %d, 0, 0", st.Sent, st.Transmitted, st.Delivered, st.InFlight, st.Queued, n, n, n)
			}
			if l.netemSkbs != 0 {
				t.Errorf("netem still counts %d skbs after every packet left", l.netemSkbs)
			}
		})
	}
}

// TestEarlyLinkStatsMatchEager reads the statistics of a link without
// delay but with jitter, which draws arrivals when a transmission starts
// (early.go), at instants inside and between transmissions, and requires
// what an eager link (an observer installed) gives at the same instants:
// a transmission in progress is not yet Transmitted, and Busy counts only
// its time so far.
func TestEarlyLinkStatsMatchEager(t *testing.T) {
	const tx = des.Duration(120000) // 1500 bytes at 100 Mbit/s
	at := []des.Time{1, des.Time(tx / 2), des.Time(tx), des.Time(tx + 1), des.Time(5 * tx / 2), des.Time(4 * tx), des.Time(10 * tx)}
	stats := func(eager bool) []LinkStats {
		net, a, b, l, _ := twoNodes(t, 3, LinkConfig{Rate: 100e6, Jitter: 50 * des.Microsecond})
		if eager {
			net.SetObserver(nopObserver{})
		}
		src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, n: 3}
		src.start(0)
		var got []LinkStats
		for _, when := range at {
			run(t, net, when)
			got = append(got, l.Stats())
		}
		if l.early.on == eager {
			t.Fatalf("eager run %v: link draws arrivals early: %v", eager, l.early.on)
		}
		return got
	}
	want, got := stats(true), stats(false)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statistics at %v differ (-eager +early):\n%s", at, diff)
	}
}

// TestFrameOverhead: a link that counts 14 bytes of frame header per
// packet against its rate (LinkConfig.FrameOverhead, Linux's HTB counting
// the Ethernet header, qdisc_pkt_len) sends back-to-back 1500-byte packets
// at 100 Mbit/s one per 1514*8/1e8 s = 121.12 µs (without it 120 µs), so a
// full link carries 1500/1514 of its rate in packets; the receiver and the
// link's statistics still count 1500-byte packets. Eager (an observer
// installed) and lazy links give the same times.
func TestFrameOverhead(t *testing.T) {
	for _, eager := range []bool{false, true} {
		for _, delay := range []des.Duration{0, 5 * des.Millisecond} {
			t.Run(fmt.Sprintf("eager %v, delay %v", eager, delay), func(t *testing.T) {
				net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 100e6, Delay: delay, FrameOverhead: 14})
				if eager {
					net.SetObserver(nopObserver{})
				}
				src := &source{net: net, from: a, dst: b.ID(), flow: 1, size: 1500, n: 100}
				src.start(0)
				run(t, net, des.Forever)
				if len(k.got) != 100 {
					t.Fatalf("delivered %d packets, want 100", len(k.got))
				}
				for i, g := range k.got {
					want := des.Time(int64(i+1)*121120) + des.Time(delay)
					if g.At != want || g.Size != 1500 {
						t.Fatalf("packet %d: %d bytes at %d ns, want 1500 at %d", i+1, g.Size, g.At, want)
					}
				}
				if st := l.Stats(); st.SentBytes != 150000 {
					t.Errorf("link sent %d bytes, want 150000 (Size, not the frame overhead)", st.SentBytes)
				}
			})
		}
	}
}
