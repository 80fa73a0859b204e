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

// TestVerifyWhileSuperseding: a part rewritten in place by Supersede (a
// --retry-failed task of a job array) while another task's Repair or
// crosslink status verifies the dataset must never be called damaged:
// Repair would move the rewritten part, and its scenarios, to _corrupt/.
func TestVerifyWhileSuperseding(t *testing.T) {
	rows := testRows(10)
	for i := range rows {
		rows[i].Tables = nil // main parts only: more rewrites per run
	}
	retried := []Row{rows[4], rows[9]}
	for i := range retried {
		retried[i].Status, retried[i].Error = OK, ""
		retried[i].Metrics = rows[0].Metrics
	}
	for range 20 {
		dir := t.TempDir()
		writeRows(t, dir, rows, Options{MaxRows: 1, Meta: testMeta()})
		writeRows(t, dir, retried, Options{MaxRows: 1, Meta: testMeta()})
		var stop atomic.Bool
		bad := make(chan []Damage, 1)
		go func() {
			var seen []Damage
			for !stop.Load() {
				d, _ := Verify(dir, false, nil)
				seen = append(seen, d...)
			}
			bad <- seen
		}()
		if n, err := Supersede(dir, nil); err != nil || n != 2 {
			t.Errorf("Supersede = %d, %v; want 2 rows removed", n, err)
		}
		stop.Store(true)
		if d := <-bad; len(d) > 0 {
			t.Fatalf("Verify during Supersede reported %+v", d)
		}
	}
}
