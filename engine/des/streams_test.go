package des

import "testing"

func TestStreams(t *testing.T) {
	draw := func(s Streams, name string) [4]uint64 {
		r := s.New(name)
		return [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
	}
	a := NewStreams(42)
	if draw(a, "link/a") != draw(NewStreams(42), "link/a") {
		t.Errorf("same seed and name gave different sequences")
	}
	if draw(a, "link/a") == draw(a, "link/b") {
		t.Errorf("different names gave the same sequence")
	}
	if draw(a, "link/a") == draw(NewStreams(43), "link/a") {
		t.Errorf("different seeds gave the same sequence")
	}
	// FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c (reference value of the
	// FNV specification, draft-eastlake-fnv, test vectors).
	if got, want := StreamID("a"), uint64(0xaf63dc4c8601ec8c); got != want {
		t.Errorf("StreamID(%q) = %#x, want %#x", "a", got, want)
	}
}
