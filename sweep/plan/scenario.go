package plan

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Scenario is one run of a model: a full parameter set and a replicate
// number, with the id and seed derived from them.
type Scenario struct {
	ID string // 32 hex digits, see ID
	// PointID is the id of the scenario's point (see PointID), which Plan
	// and NewScenario derive with the id; "" in a Scenario built by hand,
	// whose point id the runner then computes from Params.
	PointID   string
	Replicate int    // 0-based
	Seed      uint64 // see Seed
	Params    vocab.Params
}

// ID returns the scenario id: the SHA-256 of the model name, the model
// version, every parameter's canonical value (sorted by parameter name, so
// the order of grid axes and schema fields does not matter) and the
// replicate number, truncated to 128 bits and written in hex.
//
// Defaults are included, so a spec that spells out a default value and one
// that omits it name the same scenario. Changing a model's results requires
// bumping its Version, which changes every id of that model.
func ID(s *vocab.Schema, vals []vocab.Value, replicate int) string {
	// An id costs one allocation: its string.
	var arr [1024]byte
	return hashID(appendReplicate(appendKey(arr[:0], s, vals), replicate))
}

// PointID returns the id of a point, the combination of parameter values
// whose replicates are scenarios: the hash of ID's key without the
// replicate, in the same form. It keys the points table of an adaptive
// sweep, so that it joins with one column instead of every parameter.
func PointID(s *vocab.Schema, vals []vocab.Value) string {
	var arr [1024]byte
	return hashID(appendPoint(appendKey(arr[:0], s, vals)))
}

// appendKey appends the key text that ID and PointID share: the header
// and every parameter in name order. The name order and the key live on
// the stack for schemas of usual size.
func appendKey(buf []byte, s *vocab.Schema, vals []vocab.Value) []byte {
	var orderArr [64]int
	order := orderArr[:0]
	for i := range s.Params {
		order = append(order, i)
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(s.Params[a].Name, s.Params[b].Name) })
	buf = appendHeader(buf, s)
	for _, i := range order {
		buf = append(buf, s.Params[i].Name...)
		buf = append(buf, '=')
		buf = vals[i].AppendCanonical(buf)
		buf = append(buf, 0)
	}
	return buf
}

// The hashed key text, built by ID and by Plan.At (which precomputes the
// canonical values): "name\x00version\x00" then "param=value\x00" per
// parameter in name order, then "replicate=N".

func appendHeader(buf []byte, s *vocab.Schema) []byte {
	buf = append(buf, s.Name...)
	buf = append(buf, 0)
	buf = strconv.AppendInt(buf, int64(s.Version), 10)
	return append(buf, 0)
}

func appendParam(buf []byte, name, canonical string) []byte {
	buf = append(buf, name...)
	buf = append(buf, '=')
	buf = append(buf, canonical...)
	return append(buf, 0)
}

func appendReplicate(buf []byte, replicate int) []byte {
	buf = append(buf, "replicate="...)
	return strconv.AppendInt(buf, int64(replicate), 10)
}

// appendPoint ends a key as PointID's does: "point" where ID's has the
// replicate.
func appendPoint(buf []byte) []byte { return append(buf, "point"...) }

// hashID returns the first 128 bits of the SHA-256 of key, in hex.
func hashID(key []byte) string {
	sum := sha256.Sum256(key)
	var h [32]byte
	hex.Encode(h[:], sum[:16])
	return string(h[:])
}

// hashIDs returns ID's and PointID's hashes of one key (the shared text,
// see appendKey): hashID of key+"replicate=N" and of key+"point". Both
// strings share one allocation; they live as long as the scenario's row.
func hashIDs(key []byte, replicate int) (id, point string) {
	n := len(key)
	var h [64]byte
	sum := sha256.Sum256(appendReplicate(key, replicate))
	hex.Encode(h[:32], sum[:16])
	sum = sha256.Sum256(appendPoint(key[:n]))
	hex.Encode(h[32:], sum[:16])
	both := string(h[:])
	return both[:32], both[32:]
}

// prefix is the SHA-256 state after the whole 64-byte blocks of a key's
// beginning that many scenarios share (a case's text before its first
// grid axis): Plan.At restores it rather than hash those blocks again.
// SHA-256 consumes its input block by block, so the state after n*64
// bytes followed by the rest of the key gives the hash of the whole key.
type prefix struct {
	state []byte // the digest's MarshalBinary; nil when no block is whole
	n     int    // bytes of the key the state has consumed, a multiple of 64
}

// newPrefix hashes the whole blocks of text.
func newPrefix(text []byte) prefix {
	n := len(text) / sha256.BlockSize * sha256.BlockSize
	if n == 0 {
		return prefix{}
	}
	h := sha256.New()
	h.Write(text[:n])
	state, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		panic(fmt.Sprintf("plan: bug: sha256 state: %v", err))
	}
	return prefix{state: state, n: n}
}

// digest is a reusable SHA-256 with its state save and restore and the
// scratch a key is built in; digests pools them. Everything the hash
// reads or writes is here, as bytes handed through the hash.Hash
// interface escape to the heap.
type digest struct {
	h     hash.Hash
	save  encoding.BinaryAppender
	load  encoding.BinaryUnmarshaler
	key   []byte   // the key less its prefix, built by the caller
	state []byte   // the state after the key (108 bytes for SHA-256)
	tail  []byte   // "replicate=N" or "point"
	sum   [32]byte // a hash
}

var digests = sync.Pool{New: func() any {
	h := sha256.New()
	return &digest{h: h, save: h.(encoding.BinaryAppender), load: h.(encoding.BinaryUnmarshaler),
		key: make([]byte, 0, 1024), state: make([]byte, 0, 128), tail: make([]byte, 0, 32)}
}}

// ids returns hashIDs of the key whose first pre.n bytes pre has hashed
// and whose rest is d.key: the two hashes share the state after the key,
// so each hashes only its own ending.
func (d *digest) ids(pre prefix, replicate int) (id, point string) {
	if pre.state != nil {
		d.restore(pre.state)
	} else {
		d.h.Reset()
	}
	d.h.Write(d.key)
	var err error
	if d.state, err = d.save.AppendBinary(d.state[:0]); err != nil {
		panic(fmt.Sprintf("plan: bug: sha256 state: %v", err))
	}
	var h [64]byte
	d.tail = appendReplicate(d.tail[:0], replicate)
	d.h.Write(d.tail)
	hex.Encode(h[:32], d.h.Sum(d.sum[:0])[:16])
	d.restore(d.state)
	d.tail = appendPoint(d.tail[:0])
	d.h.Write(d.tail)
	hex.Encode(h[32:], d.h.Sum(d.sum[:0])[:16])
	both := string(h[:])
	return both[:32], both[32:]
}

func (d *digest) restore(state []byte) {
	if err := d.load.UnmarshalBinary(state); err != nil {
		panic(fmt.Sprintf("plan: bug: sha256 state: %v", err))
	}
}

// Seed derives a scenario's random seed from the spec seed and the scenario
// id, so that it depends on nothing else (not the grid order, not which
// other scenarios exist, not the shard). It is the first 8 bytes
// (little-endian) of the SHA-256 of the spec seed (8 bytes, little-endian)
// followed by the id.
func Seed(specSeed uint64, id string) uint64 {
	var arr [8 + 64]byte
	binary.LittleEndian.PutUint64(arr[:8], specSeed)
	sum := sha256.Sum256(append(arr[:8], id...))
	return binary.LittleEndian.Uint64(sum[:8])
}

// NewScenario builds a Scenario from a full parameter set aligned with
// s.Params. (New builds a Plan from a spec.)
func NewScenario(s *vocab.Schema, vals []vocab.Value, replicate int, specSeed uint64) Scenario {
	var arr [1024]byte
	id, point := hashIDs(appendKey(arr[:0], s, vals), replicate)
	return Scenario{
		ID:        id,
		PointID:   point,
		Replicate: replicate,
		Seed:      Seed(specSeed, id),
		Params:    vocab.NewParams(s, vals),
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
