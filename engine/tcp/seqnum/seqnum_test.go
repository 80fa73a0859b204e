package seqnum

import "testing"

// Cases from the modular comparison of RFC 9293 section 3.4 (and RFC 1982
// serial-number arithmetic, which it follows).
func TestCompare(t *testing.T) {
	tests := []struct {
		v, w Value
		less bool
	}{
		{0, 1, true},
		{1, 0, false},
		{0xffffffff, 0, true}, // wraps: 2^32-1 precedes 0
		{0, 0xffffffff, false},
		{0x7ffffff0, 0x80000000, true},
		{5, 5, false},
		{0xfffffff0, 0x10, true},
	}
	for _, tt := range tests {
		if got := tt.v.LessThan(tt.w); got != tt.less {
			t.Errorf("%d.LessThan(%d) = %v, want %v", tt.v, tt.w, got, tt.less)
		}
		if got := tt.v.LessThanEq(tt.w); got != (tt.less || tt.v == tt.w) {
			t.Errorf("%d.LessThanEq(%d) = %v, want %v", tt.v, tt.w, got, tt.less || tt.v == tt.w)
		}
	}
}

func TestRangeAndSize(t *testing.T) {
	first := Value(0xfffffff0)
	if got := first.Add(0x20); got != 0x10 {
		t.Errorf("Add = %#x, want 0x10", got)
	}
	if got := first.Size(0x10); got != 0x20 {
		t.Errorf("Size = %#x, want 0x20", got)
	}
	for _, tt := range []struct {
		v    Value
		want bool
	}{{0xfffffff0, true}, {0, true}, {0xf, true}, {0x10, false}, {0xffffffef, false}} {
		if got := tt.v.InWindow(first, 0x20); got != tt.want {
			t.Errorf("%#x.InWindow(%#x, 0x20) = %v, want %v", tt.v, first, got, tt.want)
		}
	}
	if Max(0xffffffff, 1) != 1 || Min(0xffffffff, 1) != 0xffffffff {
		t.Errorf("Max/Min do not wrap")
	}
}
