package dataset

import (
	"testing"
)

// TestSetAsideConcurrentTasks: after an upgrade of the model, every task
// of a job array (shared lock) sets the older parts aside when it starts;
// a part another task moved first is no error, and every part is moved
// once.
func TestSetAsideConcurrentTasks(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(40), Options{MaxRows: 2, Meta: testMeta()})
	s := testSchema()
	s.Version++
	const tasks = 4
	type result struct {
		moved []Moved
		err   error
	}
	res := make(chan result, tasks)
	for range tasks {
		go func() {
			m, err := SetAside(dir, s)
			res <- result{m, err}
		}()
	}
	seen := map[string]int{}
	for range tasks {
		r := <-res
		if r.err != nil {
			t.Error(r.err)
		}
		for _, m := range r.moved {
			seen[m.Path]++
		}
	}
	if len(seen) != 40 { // 20 main parts, 20 flows parts (rows 4, 9, ... fail but share parts)
		t.Errorf("%d parts moved, want 40", len(seen))
	}
	for p, n := range seen {
		if n != 1 {
			t.Errorf("%s reported moved %d times", p, n)
		}
	}
	if ps, err := Parts(dir); err != nil || len(ps) != 0 {
		t.Errorf("parts left after SetAside: %q, %v", ps, err)
	}
}
