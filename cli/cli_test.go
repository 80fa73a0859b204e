package cli

import (
	"errors"
	"testing"
)

// TestPlainMessage checks that the package prefixes errors gather on their
// way up are dropped, and that bugs keep theirs.
func TestPlainMessage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"sweep: open specs: no such file or directory", "open specs: no such file or directory"},
		{"sweep: dataset: write x: no space left on device", "write x: no space left on device"},
		{"f.yaml:4:9: ccas = \"x\": cc: unknown congestion control", "f.yaml:4:9: ccas = \"x\": unknown congestion control"},
		{"sweep: bug: model vanished", "sweep: bug: model vanished"},
		{"run: context canceled", "run: stopped by a signal"},
		{"a note: planned", "a note: planned"},
	}
	for _, tt := range tests {
		if got := plainMessage(errors.New(tt.in)); got != tt.want {
			t.Errorf("plainMessage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
