package vocab

import (
	"fmt"
	"math"
	"strconv"
)

// Kind is the type of a parameter, metric or column.
type Kind uint8

// The kinds a Value can hold. They map one to one onto Arrow types:
// Float to float64, Int to int64, String to utf8 (dictionary encoded when
// categorical), Bool to boolean.
const (
	Invalid Kind = iota
	Float
	Int
	String
	Bool
)

func (k Kind) String() string {
	switch k {
	case Float:
		return "float"
	case Int:
		return "int"
	case String:
		return "string"
	case Bool:
		return "bool"
	}
	return "invalid"
}

// Value is one typed parameter or metric value. The zero Value is Invalid.
// It is a small value type so that rows are slices without per-cell
// allocation.
type Value struct {
	kind Kind
	num  float64 // Float
	i    int64   // Int, Bool (0 or 1)
	str  string  // String
}

// F returns a Float value.
func F(x float64) Value { return Value{kind: Float, num: x} }

// I returns an Int value.
func I(n int64) Value { return Value{kind: Int, i: n} }

// S returns a String value.
func S(s string) Value { return Value{kind: String, str: s} }

// B returns a Bool value.
func B(b bool) Value {
	if b {
		return Value{kind: Bool, i: 1}
	}
	return Value{kind: Bool}
}

// Kind reports the kind of v.
func (v Value) Kind() Kind { return v.kind }

// Float returns v as float64; Int values convert, others panic.
func (v Value) Float() float64 {
	if v.kind == Float { // the common case, small enough to inline
		return v.num
	}
	return v.otherFloat()
}

// otherFloat is Float's rare path, kept out of line so that Float inlines.
//
//go:noinline
func (v Value) otherFloat() float64 {
	if v.kind == Int {
		return float64(v.i)
	}
	panic(fmt.Sprintf("vocab: bug: Float() of %s value", v.kind))
}

// Int returns the integer of an Int value; other kinds panic.
func (v Value) Int() int64 {
	if v.kind != Int {
		panic(fmt.Sprintf("vocab: bug: Int() of %s value", v.kind))
	}
	return v.i
}

// Str returns the string of a String value; other kinds panic.
func (v Value) Str() string {
	if v.kind != String {
		panic(fmt.Sprintf("vocab: bug: Str() of %s value", v.kind))
	}
	return v.str
}

// Bool returns the boolean of a Bool value; other kinds panic.
func (v Value) Bool() bool {
	if v.kind != Bool {
		panic(fmt.Sprintf("vocab: bug: Bool() of %s value", v.kind))
	}
	return v.i != 0
}

// Canonical returns the text that identifies v in scenario ids: floats in
// the shortest form that round-trips ('g', -1), so 1e9 and 1000000000.0 are
// the same value and therefore the same scenario.
func (v Value) Canonical() string {
	var buf [32]byte // fits every float, int and bool; longer strings grow it
	return string(v.AppendCanonical(buf[:0]))
}

// AppendCanonical appends the Canonical text of v to dst and returns the
// extended slice, so that id keys are built without a string per value.
func (v Value) AppendCanonical(dst []byte) []byte {
	switch v.kind {
	case Float:
		if v.num == 0 { // fold -0 into 0
			return append(dst, '0')
		}
		return strconv.AppendFloat(dst, v.num, 'g', -1, 64)
	case Int:
		return strconv.AppendInt(dst, v.i, 10)
	case String:
		return strconv.AppendQuote(dst, v.str)
	case Bool:
		return strconv.AppendBool(dst, v.i != 0)
	}
	return append(dst, "invalid"...)
}

// String formats v for people (tables, error messages).
func (v Value) String() string {
	if v.kind == String {
		return v.str
	}
	return v.Canonical()
}

// Equal reports whether a and b are the same value. NaN equals NaN so that
// rows with missing metrics compare equal across runs.
func (a Value) Equal(b Value) bool {
	if a.kind != b.kind {
		return false
	}
	if a.kind == Float {
		return a.num == b.num || (math.IsNaN(a.num) && math.IsNaN(b.num))
	}
	return a.i == b.i && a.str == b.str
}
