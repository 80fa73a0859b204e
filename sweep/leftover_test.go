package sweep

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// TestResumeRemovesLeftovers: the merged part a killed merge was writing
// (as large as the table) stays in .tmp/ until the next run, which holds
// the lock and removes it; Leftovers finds it meanwhile.
func TestResumeRemovesLeftovers(t *testing.T) {
	m := newInverseSquare(0)
	dir := t.TempDir()
	cfg := Config{Model: m, Source: scenarios(m, 6, nil), Dir: dir, Meta: testMeta()}
	if _, err := Resume(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(dir, ".tmp", "part-merged-000001.parquet.9QX4T2.tmp")
	if err := os.WriteFile(left, make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := dataset.Leftovers(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{filepath.Join(".tmp", filepath.Base(left))}, got); diff != "" {
		t.Errorf("Leftovers (-want +got):\n%s", diff)
	}
	if d, err := dataset.Verify(dir, false, nil); err != nil || len(d) != 0 {
		t.Errorf("Verify = %+v, %v; want nothing: a leftover is no damage of the tables", d, err)
	}
	sum, err := Resume(context.Background(), cfg, nil)
	if err != nil || sum.Skipped != 6 {
		t.Fatalf("second run: %+v, %v", sum, err)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("the leftover is still there after a run: %v", err)
	}
}

// TestLockWaitsForProbe: a run that starts while crosslink status probes
// the lock (takes it for a moment, dataset.Leftovers) gets it once the
// probe lets go, rather than being refused as if another run held it.
func TestLockWaitsForProbe(t *testing.T) {
	dir := t.TempDir()
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(lockProbeWait / 5)
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	}()
	l, err := LockDir(dir, "", time.Now())
	if err != nil {
		t.Fatalf("LockDir during a probe: %v", err)
	}
	l.Unlock()
}
