package des

import (
	"hash/fnv"
	"math/rand/v2"
)

// Streams derives independent random number generators, one per named
// component (a link's loss process, a workload's arrivals), from the
// scenario seed. A stream depends only on the seed and its name, so adding
// a flow or a link to a scenario does not change the numbers another
// component draws.
type Streams struct {
	seed uint64
}

// NewStreams returns the stream source of a scenario seed.
func NewStreams(seed uint64) Streams { return Streams{seed: seed} }

// Seed returns the scenario seed.
func (s Streams) Seed() uint64 { return s.seed }

// New returns the generator of the named component:
// rand.New(rand.NewPCG(seed, StreamID(name))). Two calls with the same name
// return generators that produce the same sequence.
func (s Streams) New(name string) *rand.Rand {
	return rand.New(rand.NewPCG(s.seed, StreamID(name)))
}

// StreamID hashes a component name (64-bit FNV-1a) to a PCG stream id.
func StreamID(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}
