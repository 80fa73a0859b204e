package netsim

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Loss is a link's per-packet loss process: Lose reports whether the
// packet is corrupted in transit. rng is the link's own random stream. A
// Loss belongs to one link.
type Loss interface {
	Lose(p *Packet, rng *rand.Rand) bool
}

// LossModel configures a loss process; NewLoss makes a fresh instance for
// one link (loss processes may keep state, such as the Gilbert-Elliott
// channel state).
type LossModel interface {
	NewLoss() (Loss, error)
}

// Bernoulli loses each packet independently with probability P.
//
// Like the other random models it draws exactly one uniform number per
// decision and loses the packet when it falls below the probability, so
// for a fixed seed the packets lost at a smaller P are a subset of those
// lost at a larger one (common random numbers across a sweep).
type Bernoulli struct {
	P float64
}

// NewLoss implements LossModel.
func (b Bernoulli) NewLoss() (Loss, error) {
	if !(b.P >= 0 && b.P <= 1) {
		return nil, fmt.Errorf("netsim: loss probability %v outside [0, 1]", b.P)
	}
	return b, nil
}

// Lose implements Loss.
func (b Bernoulli) Lose(p *Packet, rng *rand.Rand) bool { return rng.Float64() < b.P }

// PER loses each packet independently with a probability that depends on
// its size on the wire, as computed by the physical layer (for example
// 1-(1-BER)^(8*size), or the worst-case linear bound of document 000 Eq. 8).
// Sizes repeat (MSS-sized segments, ACKs), so the link caches PER(size).
type PER struct {
	Func func(sizeBytes int) float64
}

// NewLoss implements LossModel.
func (m PER) NewLoss() (Loss, error) {
	if m.Func == nil {
		return nil, fmt.Errorf("netsim: PER loss without a function")
	}
	return &perLoss{f: m.Func}, nil
}

// perCacheMax bounds the cache: sizes up to a 64 KiB segment plus headers.
const perCacheMax = 1 << 17

type perLoss struct {
	f     func(int) float64
	cache []float64 // PER by size; negative means not computed yet
}

func (l *perLoss) per(size int) float64 {
	if size < 0 || size >= perCacheMax {
		return l.check(size, l.f(size))
	}
	if size >= len(l.cache) {
		n := len(l.cache)
		l.cache = slices.Grow(l.cache, size+1-n)[:size+1]
		for i := n; i <= size; i++ {
			l.cache[i] = -1
		}
	}
	if v := l.cache[size]; v >= 0 {
		return v
	}
	v := l.check(size, l.f(size))
	l.cache[size] = v
	return v
}

func (l *perLoss) check(size int, v float64) float64 {
	if !(v >= 0 && v <= 1) {
		panic(fmt.Sprintf("bug: netsim: PER(%d) = %v outside [0, 1]", size, v))
	}
	return v
}

func (l *perLoss) Lose(p *Packet, rng *rand.Rand) bool { return rng.Float64() < l.per(int(p.Size)) }

// GilbertElliott is the two-state burst-loss channel: a Markov chain over
// the states Good and Bad, stepped once per packet, which loses a packet
// with probability LossGood or LossBad according to the current state
// (Gilbert 1960, Elliott 1963). Its stationary probability of Bad is
// PGoodToBad/(PGoodToBad+PBadToGood); with LossGood=0 and LossBad=1 the
// mean loss burst lasts 1/PBadToGood packets. The first packet finds the
// chain in its stationary distribution.
type GilbertElliott struct {
	PGoodToBad, PBadToGood float64
	LossGood, LossBad      float64
}

// NewLoss implements LossModel.
func (g GilbertElliott) NewLoss() (Loss, error) {
	for _, p := range []float64{g.PGoodToBad, g.PBadToGood, g.LossGood, g.LossBad} {
		if !(p >= 0 && p <= 1) {
			return nil, fmt.Errorf("netsim: Gilbert-Elliott probability %v outside [0, 1]", p)
		}
	}
	if g.PGoodToBad+g.PBadToGood == 0 {
		return nil, fmt.Errorf("netsim: Gilbert-Elliott chain with no transitions")
	}
	return &geLoss{m: g}, nil
}

// MeanLoss is the stationary loss probability.
func (g GilbertElliott) MeanLoss() float64 {
	pb := g.PGoodToBad / (g.PGoodToBad + g.PBadToGood)
	return (1-pb)*g.LossGood + pb*g.LossBad
}

type geLoss struct {
	m       GilbertElliott
	started bool
	bad     bool
}

func (l *geLoss) Lose(p *Packet, rng *rand.Rand) bool {
	m := &l.m
	if !l.started {
		l.started = true
		l.bad = rng.Float64() < m.PGoodToBad/(m.PGoodToBad+m.PBadToGood)
	} else if l.bad {
		l.bad = !(rng.Float64() < m.PBadToGood)
	} else {
		l.bad = rng.Float64() < m.PGoodToBad
	}
	if l.bad {
		return rng.Float64() < m.LossBad
	}
	return rng.Float64() < m.LossGood
}

// DropList loses exactly the listed data packets: Data holds 1-based
// ordinals among the packets with payload that the link transmits (or,
// on a link with a NetemLimit, that are offered to it; Data: []int{3}
// drops the third data packet). ACKs and other packets without
// payload are never dropped. Meant for tests of loss recovery.
type DropList struct {
	Data []int
}

// NewLoss implements LossModel.
func (d DropList) NewLoss() (Loss, error) {
	l := &dropList{list: slices.Clone(d.Data)}
	slices.Sort(l.list)
	for _, k := range l.list {
		if k < 1 {
			return nil, fmt.Errorf("netsim: drop list entry %d, want ordinals from 1", k)
		}
	}
	l.list = slices.Compact(l.list)
	return l, nil
}

type dropList struct {
	list []int
	next int // index of the next entry of list to drop
	n    int // data packets seen
}

func (l *dropList) Lose(p *Packet, rng *rand.Rand) bool {
	if !p.IsData() {
		return false
	}
	l.n++
	if l.next < len(l.list) && l.list[l.next] == l.n {
		l.next++
		return true
	}
	return false
}
