package plan

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"
	"strconv"

	"github.com/crosslink-sim/crosslink/engine"
)

// Scenario is one run of a model: a full parameter set and a replicate
// number, with the id and seed derived from them.
type Scenario struct {
	ID        string // 32 hex digits, see ID
	Replicate int    // 0-based
	Seed      uint64 // see Seed
	Params    engine.Params
}

// ID returns the scenario id: the SHA-256 of the model name, the model
// version, every parameter's canonical value (sorted by parameter name, so
// the order of grid axes and schema fields does not matter) and the
// replicate number, truncated to 128 bits and written in hex.
//
// Defaults are included, so a spec that spells out a default value and one
// that omits it name the same scenario. Changing a model's results requires
// bumping its Version, which changes every id of that model.
func ID(s *engine.Schema, vals []engine.Value, replicate int) string {
	h := sha256.New()
	var buf []byte
	buf = append(buf, s.Name...)
	buf = append(buf, 0)
	buf = strconv.AppendInt(buf, int64(s.Version), 10)
	buf = append(buf, 0)
	order := make([]int, len(s.Params))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return s.Params[order[a]].Name < s.Params[order[b]].Name })
	for _, i := range order {
		buf = append(buf, s.Params[i].Name...)
		buf = append(buf, '=')
		buf = append(buf, vals[i].Canonical()...)
		buf = append(buf, 0)
	}
	buf = append(buf, "replicate="...)
	buf = strconv.AppendInt(buf, int64(replicate), 10)
	h.Write(buf)
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])[:16])
}

// Seed derives a scenario's random seed from the spec seed and the scenario
// id, so that it depends on nothing else (not the grid order, not which
// other scenarios exist, not the shard).
func Seed(specSeed uint64, id string) uint64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], specSeed)
	h := sha256.New()
	h.Write(b[:])
	h.Write([]byte(id))
	var sum [sha256.Size]byte
	return binary.LittleEndian.Uint64(h.Sum(sum[:0]))
}

// NewScenario builds a Scenario from a full parameter set aligned with
// s.Params. (New builds a Plan from a spec.)
func NewScenario(s *engine.Schema, vals []engine.Value, replicate int, specSeed uint64) Scenario {
	id := ID(s, vals, replicate)
	return Scenario{
		ID:        id,
		Replicate: replicate,
		Seed:      Seed(specSeed, id),
		Params:    engine.NewParams(s, vals),
	}
}

// Source is an indexable list of scenarios: a Plan expanded from a spec, a
// shard of one, or a fixed list in tests. At must be safe for concurrent use
// and cheap, so that a million-scenario grid never sits in memory.
type Source interface {
	Len() int
	At(i int) Scenario
}

// List is a Source over a slice, for tests and small fixed sets.
type List []Scenario

// Len returns the number of scenarios.
func (l List) Len() int { return len(l) }

// At returns scenario i.
func (l List) At(i int) Scenario { return l[i] }
