package sweep

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// killDirEnv names the dataset directory of the child process in
// TestKillAndResume; the child is this test binary running TestKillChild.
const killDirEnv = "CROSSLINK_SWEEP_KILL_DIR"

// killSweep is the sweep the child runs: slow enough (2 ms a scenario) to
// be killed part-way, with small parts so that some are on disk by then.
func killSweep(dir string, delay time.Duration) Config {
	m := newInverseSquare(delay)
	return Config{Model: m, Source: scenarios(m, 600, map[int]string{77: "panic", 401: "error"}),
		Dir: dir, Meta: testMeta(), Workers: 2, PartRows: 10}
}

// TestKillChild is the child side of TestKillAndResume; it does nothing in
// a normal test run.
func TestKillChild(t *testing.T) {
	dir := os.Getenv(killDirEnv)
	if dir == "" {
		t.Skip("runs only as the child of TestKillAndResume")
	}
	if _, err := Run(context.Background(), killSweep(dir, 2*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
}

// TestKillAndResume kills a running sweep with SIGKILL part-way, reruns it
// and expects the dataset of an uninterrupted run: same ids, same values,
// no duplicates.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), killDirEnv+"="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		parts, _ := dataset.Parts(dir)
		if len(parts) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child wrote %d parts in 30 s", len(parts))
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no deferred code runs
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the child finished before it was killed; make its sweep slower")
	}
	done, err := dataset.ReadIDs(dir)
	if err != nil {
		t.Fatalf("the killed run left an unreadable dataset: %v", err)
	}
	if done.Len() == 0 || done.Len() >= 600 {
		t.Fatalf("the killed run left %d rows, want some but not all of 600", done.Len())
	}
	t.Logf("killed after %d of 600 scenarios", done.Len())

	sum, err := Run(context.Background(), killSweep(dir, 0))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != done.Len() || sum.OK+sum.Failed+sum.Skipped != 600 {
		t.Errorf("rerun summary %+v, want %d skipped and 600 in all", sum, done.Len())
	}
	wholeFiles(t, dir)

	full := t.TempDir()
	if _, err := Run(context.Background(), killSweep(full, 0)); err != nil {
		t.Fatal(err)
	}
	want, got := rows(t, full, true), rows(t, dir, true)
	if len(got) != 600 {
		t.Errorf("resumed dataset has %d rows, want 600", len(got))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resumed dataset (-uninterrupted +killed and resumed):\n%s", diff)
	}
	wantS, gotS := rows(t, dataset.TableDir(full, "samples"), false), rows(t, dataset.TableDir(dir, "samples"), false)
	if diff := cmp.Diff(wantS, gotS); diff != "" {
		t.Errorf("resumed samples (-uninterrupted +killed and resumed):\n%s", diff)
	}
}
