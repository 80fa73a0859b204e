package vocab

import (
	"math"
	"testing"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{F(1e9), "1e+09"},
		{F(1000000000.0), "1e+09"}, // same number, same scenario id
		{F(0.1), "0.1"},
		{F(math.Copysign(0, -1)), "0"}, // -0 and 0 are one value
		{F(53.3e-3), "0.0533"},
		{I(1500), "1500"},
		{I(-3), "-3"},
		{S("direct"), `"direct"`},
		{S(`a"b`), `"a\"b"`}, // quoted, so no string can imitate another value
		{B(true), "true"},
		{B(false), "false"},
	}
	for _, tt := range tests {
		if got := tt.v.Canonical(); got != tt.want {
			t.Errorf("%#v.Canonical() = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestValueEqual(t *testing.T) {
	tests := []struct {
		a, b Value
		want bool
	}{
		{F(1), F(1), true},
		{F(1), I(1), false}, // kinds differ
		{F(math.NaN()), F(math.NaN()), true},
		{S("x"), S("x"), true},
		{S("x"), S("y"), false},
		{B(true), B(true), true},
		{B(true), B(false), false},
		{Value{}, Value{}, true},
	}
	for _, tt := range tests {
		if got := tt.a.Equal(tt.b); got != tt.want {
			t.Errorf("%v.Equal(%v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestAccessorsPanicOnWrongKind(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{"Str of Float", func() { F(1).Str() }},
		{"Int of Float", func() { F(1).Int() }},
		{"Bool of Int", func() { I(1).Bool() }},
		{"Float of String", func() { S("x").Float() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", tt.name)
				}
			}()
			tt.f()
		})
	}
	if got := I(7).Float(); got != 7 {
		t.Errorf("I(7).Float() = %v, want 7", got)
	}
}
