package dataset

import (
	"sync/atomic"
	"testing"
)

// TestVerifyWhileWriting: crosslink status verifies a dataset while its
// run writes it. Verify makes a pending manifest entry final when the
// part matches it, which a writer does itself a moment later; the writer
// must not fail because the entry was finalized under it.
func TestVerifyWhileWriting(t *testing.T) {
	dir := t.TempDir()
	rows := testRows(60)
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !stop.Load() {
			Verify(dir, false, nil)
		}
	}()
	defer func() { stop.Store(true); <-done }()
	w, err := NewWriter(dir, testSchema(), Options{MaxRows: 1, Meta: testMeta()})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if err := w.Append(&rows[i]); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
