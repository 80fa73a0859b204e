package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/google/go-cmp/cmp"
)

// TestPERLossRate sends 1e5 packets of two sizes through a link whose PER
// is the exact 1-(1-BER)^bits at BER 1e-5. The number lost is a sum of
// independent Bernoulli trials: it must lie within 4 standard deviations
// of its mean (a false alarm once in about 16000 runs, and the seed is
// fixed anyway).
func TestPERLossRate(t *testing.T) {
	const ber = 1e-5
	calls := 0
	per := func(size int) float64 {
		calls++
		return 1 - math.Pow(1-ber, float64(8*size))
	}
	net, a, b, l, k := twoNodes(t, 3, LinkConfig{Rate: 0, Loss: PER{Func: per}})
	k.keep = false
	const n = 100000
	size := func(i int) unit.Bytes {
		if i%3 == 0 {
			return 40
		}
		return 1500
	}
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, n: n, sizeFunc: size}
	src.start(0)
	run(t, net, des.Forever)
	var mean, variance float64
	for i := 1; i <= n; i++ {
		p := 1 - math.Pow(1-ber, float64(8*size(i)))
		mean += p
		variance += p * (1 - p)
	}
	lost := float64(l.Stats().Drops[DropCorrupt])
	if d := math.Abs(lost - mean); d > 4*math.Sqrt(variance) {
		t.Errorf("lost %v of %d packets, want %.1f ± %.1f (4 sigma)", lost, n, mean, 4*math.Sqrt(variance))
	}
	if calls != 2 {
		t.Errorf("PER function called %d times for 2 distinct sizes, want 2 (cached)", calls)
	}
}

func TestBernoulliLossRate(t *testing.T) {
	for _, p := range []float64{0, 0.002, 0.05, 1} {
		loss, err := Bernoulli{P: p}.NewLoss()
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		const n = 100000
		lost := 0
		pkt := &Packet{Size: 1500, Payload: 1460}
		for range n {
			if loss.Lose(pkt, rng) {
				lost++
			}
		}
		sigma := math.Sqrt(n * p * (1 - p))
		if d := math.Abs(float64(lost) - n*p); d > 4*sigma {
			t.Errorf("Bernoulli{%v}: lost %d of %d, want %.0f ± %.1f (4 sigma)", p, lost, n, n*p, 4*sigma)
		}
	}
	if _, err := (Bernoulli{P: 1.5}).NewLoss(); err == nil {
		t.Errorf("Bernoulli{1.5}.NewLoss() = nil error, want one")
	}
}

// TestGilbertElliott checks the stationary loss rate and the mean burst
// length against the closed forms of the two-state Markov chain:
// P(Bad) = p/(p+r), mean loss = (1-P(Bad))*h_G + P(Bad)*h_B, and with
// h_G=0, h_B=1 a burst lasts 1/r packets on average (geometric sojourn in
// Bad). Losses are correlated, so the tolerance uses the variance of the
// mean of a two-state chain: P(Bad)(1-P(Bad))(1+λ)/((1-λ)n), λ = 1-p-r,
// at 4 sigma; burst lengths are i.i.d. geometric, variance (1-r)/r^2.
func TestGilbertElliott(t *testing.T) {
	tests := []GilbertElliott{
		{PGoodToBad: 0.01, PBadToGood: 0.2, LossGood: 0, LossBad: 1},
		{PGoodToBad: 0.002, PBadToGood: 0.05, LossGood: 0, LossBad: 1},
		{PGoodToBad: 0.05, PBadToGood: 0.3, LossGood: 0.001, LossBad: 0.5},
	}
	const n = 1000000
	for _, g := range tests {
		loss, err := g.NewLoss()
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(11, 12))
		pkt := &Packet{Size: 1500, Payload: 1460}
		lost, bursts, run := 0, 0, 0
		var burstSum int
		for range n {
			if loss.Lose(pkt, rng) {
				lost++
				run++
				continue
			}
			if run > 0 {
				bursts++
				burstSum += run
				run = 0
			}
		}
		pb := g.PGoodToBad / (g.PGoodToBad + g.PBadToGood)
		lambda := 1 - g.PGoodToBad - g.PBadToGood
		want := g.MeanLoss()
		if w := (1-pb)*g.LossGood + pb*g.LossBad; math.Abs(w-want) > 1e-15 {
			t.Errorf("%+v: MeanLoss() = %v, want %v", g, want, w)
		}
		// Loss indicator variance is at most that of the state plus the
		// Bernoulli noise inside each state.
		sigma := math.Sqrt((pb*(1-pb)*(1+lambda)/(1-lambda)*math.Pow(g.LossBad-g.LossGood, 2) + want*(1-want)) / n)
		if got := float64(lost) / n; math.Abs(got-want) > 4*sigma {
			t.Errorf("%+v: loss rate %v, want %v ± %v (4 sigma)", g, got, want, 4*sigma)
		}
		if g.LossGood == 0 && g.LossBad == 1 {
			r := g.PBadToGood
			mean := float64(burstSum) / float64(bursts)
			sd := math.Sqrt((1 - r) / (r * r) / float64(bursts))
			if math.Abs(mean-1/r) > 4*sd {
				t.Errorf("%+v: mean burst %v packets over %d bursts, want %v ± %v (4 sigma)", g, mean, bursts, 1/r, 4*sd)
			}
		}
	}
}

func TestDropList(t *testing.T) {
	net, a, b, l, k := twoNodes(t, 1, LinkConfig{Rate: 1e9, Delay: 10, Loss: DropList{Data: []int{5, 3, 10, 3}}})
	// The list is unsorted and repeats 3: the link drops data packets 3,
	// 5 and 10, once each.
	src := &source{net: net, from: a, dst: b.ID(), flow: 1, n: 14, size: 100}
	src.start(0)
	run(t, net, des.Forever)
	var got []uint32
	for _, g := range k.got {
		got = append(got, g.Seq)
	}
	want := []uint32{1, 2, 4, 6, 7, 8, 9, 11, 12, 13, 14}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delivered (-want +got):\n%s", diff)
	}
	if got := l.Stats().Drops[DropCorrupt]; got != 3 {
		t.Errorf("corrupt drops = %d, want 3", got)
	}
	if _, err := (DropList{Data: []int{0}}).NewLoss(); err == nil {
		t.Errorf("DropList{0}.NewLoss() = nil error, want one")
	}
}

func TestDropListSkipsACKs(t *testing.T) {
	loss, err := DropList{Data: []int{2}}.NewLoss()
	if err != nil {
		t.Fatal(err)
	}
	seq := []*Packet{{Payload: 1000}, {Payload: 0}, {Payload: 0}, {Payload: 1000}, {Payload: 1000}}
	var got []bool
	for _, p := range seq {
		got = append(got, loss.Lose(p, nil))
	}
	if want := []bool{false, false, false, true, false}; !slices.Equal(got, want) {
		t.Errorf("drops = %v, want %v", got, want)
	}
}
