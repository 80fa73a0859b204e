package sweep

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// TestRunJobs: failed scenarios are counted, not errors; a retry reruns
// exactly them; a shard runs its share; options that do not fit the spec
// are ErrOptions with the underlying message unchanged.
func TestRunJobs(t *testing.T) {
	m := newInverseSquare(0)
	text := "name: inv\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m, 3m]\n  mode: [normal, error]\n"
	j := noisyJob(t, m, text, t.TempDir())
	ctx := context.Background()

	failed, err := RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard})
	if err != nil || failed != 3 {
		t.Fatalf("RunJobs = %d, %v; want 3 failed (the error mode), nil", failed, err)
	}
	if failed, err = RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard}); err != nil || failed != 0 {
		t.Errorf("second RunJobs = %d, %v; want nothing run", failed, err)
	}
	if failed, err = RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard, RetryFailed: true}); err != nil || failed != 3 {
		t.Errorf("RunJobs with RetryFailed = %d, %v; want the 3 failed ones rerun", failed, err)
	}
	if got := len(rows(t, j.Dir, true)); got != 6 {
		t.Errorf("dataset has %d rows after the retry, want 6 (one per scenario)", got)
	}

	// Shard 0/2 of a fresh dataset runs a share: together with 1/2 the six
	// scenarios, each once.
	j.Dir = t.TempDir()
	total := 0
	for i := range 2 {
		sh, err := ParseShard([]string{"0/2", "1/2"}[i])
		if err != nil {
			t.Fatal(err)
		}
		f, err := RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard, Shard: sh})
		if err != nil {
			t.Fatal(err)
		}
		total += f
	}
	if total != 3 {
		t.Errorf("failed over both shards = %d, want 3", total)
	}
	st, ok := 0, 0
	for _, r := range rows(t, j.Dir, true) {
		st++
		for _, c := range r {
			if c == string(dataset.OK) {
				ok++
			}
		}
	}
	if st != 6 || ok != 3 {
		t.Errorf("sharded dataset: %d rows, %d ok; want 6 and 3", st, ok)
	}

	_, err = RunJobs(ctx, []*Job{j}, Options{Warn: io.Discard, PartitionBy: []string{"mdoe"}})
	if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), `did you mean "mode"`) || strings.Contains(err.Error(), ErrOptions.Error()) {
		t.Errorf("RunJobs with a misspelt partition column: %v; want ErrOptions with Partitioning's own text", err)
	}
}
