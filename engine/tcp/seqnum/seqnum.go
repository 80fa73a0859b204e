package seqnum

import "github.com/crosslink-sim/crosslink/engine/unit"

// Value is a TCP sequence number. Arithmetic wraps modulo 2^32 and
// comparisons are only meaningful for values less than 2^31 apart, which a
// window of at most 2^30 bytes (RFC 7323 section 2.3) guarantees.
type Value uint32

// Size is a length in the sequence space.
type Size uint32

// LessThan reports whether v precedes w (RFC 9293 section 3.4: "<" is
// computed as a signed difference of the 32-bit values).
func (v Value) LessThan(w Value) bool { return int32(v-w) < 0 }

// LessThanEq reports whether v precedes or equals w.
func (v Value) LessThanEq(w Value) bool { return int32(v-w) <= 0 }

// InRange reports whether a <= v < b.
func (v Value) InRange(a, b Value) bool { return a.LessThanEq(v) && v.LessThan(b) }

// InWindow reports whether v lies in the window of size s starting at first
// (the acceptability test of RFC 9293 section 3.10.7.4).
func (v Value) InWindow(first Value, s Size) bool { return v.InRange(first, first.Add(s)) }

// Add returns v + s.
func (v Value) Add(s Size) Value { return v + Value(s) }

// Size returns the distance from v to w, w - v.
func (v Value) Size(w Value) Size { return Size(w - v) }

// Max returns the later of v and w.
func Max(v, w Value) Value {
	if v.LessThan(w) {
		return w
	}
	return v
}

// Min returns the earlier of v and w.
func Min(v, w Value) Value {
	if v.LessThan(w) {
		return v
	}
	return w
}

// Bytes returns s as a byte count, for the window and flight arithmetic of
// the sender and its congestion control.
func (s Size) Bytes() unit.Bytes { return unit.Bytes(s) }
