package sweep

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/vocab"
)

// costly is inverseSquare with a cost estimate: the distance in metres,
// so scenario i costs i+1.
type costly struct{ *inverseSquare }

func (costly) Cost(p vocab.Params) float64 { return p.Float("distance") }

// TestShardsPartition checks, for models with and without a cost estimate
// and shard counts 1..9, that the shards are disjoint, that their union is
// the plan, and that each is in plan order.
func TestShardsPartition(t *testing.T) {
	base := newInverseSquare(0)
	src := scenarios(base, 103, nil)
	for _, m := range []vocab.Model{base, costly{base}} {
		for n := 1; n <= 9; n++ {
			t.Run(fmt.Sprintf("%T/%d", m, n), func(t *testing.T) {
				owner := map[string]int{}
				for i := range n {
					sh, err := Of(src, m, Shard{i, n})
					if err != nil {
						t.Fatal(err)
					}
					prev := -1
					for k := range sh.Len() {
						id := sh.At(k).ID
						if o, dup := owner[id]; dup {
							t.Fatalf("scenario %s in shards %d and %d", id, o, i)
						}
						owner[id] = i
						pos := slices.IndexFunc(src, func(s plan.Scenario) bool { return s.ID == id })
						if pos <= prev {
							t.Errorf("shard %d/%d is not in plan order", i, n)
						}
						prev = pos
					}
				}
				if len(owner) != len(src) {
					t.Errorf("union of %d shards has %d scenarios, want %d", n, len(owner), len(src))
				}
			})
		}
	}
}

// TestShardLen checks that ShardLen counts what Of deals, for models with
// and without a cost estimate, costs with ties (every third scenario free)
// and without, and shard counts 1..9 and 103 (one scenario each).
func TestShardLen(t *testing.T) {
	base := newInverseSquare(0)
	for _, m := range []vocab.Model{base, costly{base}, tied{base}} {
		src := scenarios(m, 103, nil)
		for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 103} {
			total := 0
			for i := range n {
				sh, err := Of(src, m, Shard{i, n})
				if err != nil {
					t.Fatal(err)
				}
				got, err := ShardLen(src, m, Shard{i, n})
				if err != nil || got != sh.Len() {
					t.Errorf("%T: ShardLen(%d/%d) = %d, %v; want %d as Of deals", m, i, n, got, err, sh.Len())
				}
				total += got
			}
			if total != len(src) {
				t.Errorf("%T: ShardLen of the %d shards adds up to %d, want %d", m, n, total, len(src))
			}
		}
	}
	if _, err := ShardLen(scenarios(base, 3, nil), base, Shard{0, 4}); err == nil {
		t.Error("ShardLen(0/4) of 3 scenarios: no error, want the shard count refused")
	}
}

// tied costs 1 or 2 by distance, and nothing for every third scenario:
// many ties, which lpt breaks by id and ShardLen does not see.
type tied struct{ *inverseSquare }

func (tied) Cost(p vocab.Params) float64 {
	d := int(p.Float("distance"))
	if d%3 == 0 {
		return -1 // negative: free
	}
	return float64(1 + d%2)
}

// TestShardBalance checks longest-processing-time-first on costs 1..103:
// the total is 5356, so 4 shards are at best 1339 each; LPT is within 4/3
// of the best (Graham 1969), and on this even spread within the largest
// single cost (103) of it.
func TestShardBalance(t *testing.T) {
	m := costly{newInverseSquare(0)}
	src := scenarios(m, 103, nil)
	for i := range 4 {
		sh, _ := Of(src, m, Shard{i, 4})
		total := 0.0
		for k := range sh.Len() {
			total += m.Cost(sh.At(k).Params)
		}
		if total < 1339-103 || total > 1339+103 {
			t.Errorf("shard %d/4 costs %g, want 1339 ± 103", i, total)
		}
	}
}

func TestAutoShard(t *testing.T) {
	tests := []struct {
		env   map[string]string
		count int
		want  Shard
		err   string
	}{
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, want: Shard{3, 4}},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "10", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "10"}, want: Shard{9, 10}},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_COUNT": "1", ShardCountEnv: "2500", ShardOffsetEnv: "2002"}, want: Shard{2004, 2500}},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5", ShardCountEnv: "8"}, want: Shard{5, 8}},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5"}, count: 6, want: Shard{5, 6}},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5"}, err: "shard count is not"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "6"}, count: 6, err: "want 0 <= i < n"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, err: "not a number"},
		{env: nil, err: "neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.env, tt.count), func(t *testing.T) {
			got, err := AutoShard(func(k string) string { return tt.env[k] }, tt.count)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("AutoShard = %v, %v; want an error containing %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("AutoShard = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestParseShard(t *testing.T) {
	for in, want := range map[string]string{"0/4": "0of4", "3/4": "3of4", "0/1": "0of1"} {
		if s, err := ParseShard(in); err != nil || s.Infix() != want {
			t.Errorf("ParseShard(%q) = %v, %v; want infix %s", in, s, err, want)
		}
	}
	for _, in := range []string{"4/4", "-1/4", "1/0", "1", "a/b", "auto"} {
		if _, err := ParseShard(in); err == nil {
			t.Errorf("ParseShard(%q) succeeded, want an error", in)
		}
	}
}

// TestShardRerunRunsMissing runs shard 1/3, then the whole plan: the
// second run skips exactly what the shard wrote.
func TestShardRerunRunsMissing(t *testing.T) {
	m := newInverseSquare(0)
	src := scenarios(m, 30, nil)
	dir := t.TempDir()
	sh, _ := Of(src, m, Shard{1, 3})
	s1, err := Resume(context.Background(), Config{Model: m, Source: sh, Dir: dir, Meta: testMeta(), Shard: "1of3"}, nil)
	if err != nil || s1.OK != 10 {
		t.Fatalf("shard 1/3: %+v, %v; want 10 ok", s1, err)
	}
	again, err := Resume(context.Background(), Config{Model: m, Source: sh, Dir: dir, Meta: testMeta(), Shard: "1of3"}, nil)
	if err != nil || again.Skipped != 10 || again.OK != 0 {
		t.Errorf("shard 1/3 again: %+v, %v; want all 10 skipped", again, err)
	}
	all, err := Resume(context.Background(), Config{Model: m, Source: src, Dir: dir, Meta: testMeta()}, nil)
	if err != nil || all.Skipped != 10 || all.OK != 20 {
		t.Errorf("whole plan after shard 1/3: %+v, %v; want 10 skipped, 20 run", all, err)
	}
}

// TestTaskShards: a job smaller than the shard count splits into as many
// shards as it has scenarios (points, for an adaptive job), and the tasks
// beyond them have none of it; a shard count above every job's is
// refused, with Fits' own message when there is one job.
func TestTaskShards(t *testing.T) {
	m := newInverseSquare(0)
	job := func(distances string) *Job {
		return noisyJob(t, m, "name: inv\nmodel: inverse-square\ngrid:\n  distance: "+distances+"\n", t.TempDir())
	}
	six, two, one := job("[1m, 2m, 3m, 4m, 5m, 6m]"), job("[1m, 2m]"), job("[1m]")
	adaptive := noisyJob(t, newNoisy(), noisySpec, t.TempDir()) // 8 points
	// What TaskShards gives a job a task runs none of.
	none := Shard{I: -1}
	tests := []struct {
		jobs    []*Job
		shard   Shard
		want    []Shard
		wantErr string
	}{
		{[]*Job{six, two, one}, Whole, []Shard{Whole, Whole, Whole}, ""},
		{[]*Job{six, two, one}, Shard{0, 4}, []Shard{{0, 4}, {0, 2}, {0, 1}}, ""},
		{[]*Job{six, two, one}, Shard{1, 4}, []Shard{{1, 4}, {1, 2}, none}, ""},
		{[]*Job{six, two, one}, Shard{5, 6}, []Shard{{5, 6}, none, none}, ""},
		{[]*Job{two, adaptive}, Shard{7, 8}, []Shard{none, {7, 8}}, ""},
		{[]*Job{two, adaptive}, Shard{0, 9}, nil, "sweep: shard 0/9: the largest of the 2 specs, noisy, has 8 points, so they split into at most 8 shards"},
		{[]*Job{six, two, one}, Shard{0, 7}, nil, "sweep: shard 0/7: the largest of the 3 specs, inv, has 6 scenarios, so they split into at most 6 shards"},
		{[]*Job{two}, Shard{0, 3}, nil, "sweep: shard 0/3: the plan has 2 scenarios, so it splits into at most 2 shards"},
		{[]*Job{adaptive}, Shard{0, 9}, nil, "sweep: shard 0/9: the plan has 8 points, so it splits into at most 8 shards"},
		{[]*Job{six}, Shard{2, 2}, nil, "sweep: shard 2/2: want 0 <= i < n"},
		{nil, Shard{0, 2}, nil, ""}, // no job: nothing to split
	}
	for _, tt := range tests {
		got, err := TaskShards(tt.jobs, tt.shard)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("TaskShards(%d jobs, %s) = %v; want error %q", len(tt.jobs), tt.shard, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("TaskShards(%d jobs, %s): %v", len(tt.jobs), tt.shard, err)
		}
		for i := range tt.want {
			if got[i] != tt.want[i] {
				t.Errorf("TaskShards(%d jobs, %s): job %d gets %s, want %s", len(tt.jobs), tt.shard, i, got[i], tt.want[i])
			}
		}
	}
}

// TestShardedSpecsOfAnySize runs a six-scenario spec and a two-scenario
// spec together as the four tasks of one job array: each dataset ends
// with every scenario once, the small spec's parts are those of its own
// two shards, so status finds it complete, and the tasks with none of it
// say so.
func TestShardedSpecsOfAnySize(t *testing.T) {
	m := newInverseSquare(0)
	six := noisyJob(t, m, "name: six\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m, 3m, 4m, 5m, 6m]\n", t.TempDir())
	two := noisyJob(t, m, "name: two\nmodel: inverse-square\ngrid:\n  distance: [1m, 2m]\n", t.TempDir())
	for i := range 4 {
		var warn strings.Builder
		if _, err := RunJobs(context.Background(), []*Job{six, two}, Options{Workers: 1, Shard: Shard{i, 4}, Warn: &warn}); err != nil {
			t.Fatalf("shard %d/4: %v", i, err)
		}
		if skipped := strings.Contains(warn.String(), fmt.Sprintf("two: shard %d/4 has none of it (2 scenarios, so at most 2 shards)", i)); skipped != (i >= 2) {
			t.Errorf("shard %d/4 warned %q; want the skip of two noted exactly when i >= 2", i, warn.String())
		}
	}
	for _, j := range []*Job{six, two} {
		if got, want := len(rows(t, j.Dir, true)), j.Plan.Len(); got != want {
			t.Errorf("%s: %d rows, want %d", j.Spec.Name, got, want)
		}
		r, err := Check(j, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Complete() || len(r.Incomplete) != 0 {
			t.Errorf("%s: status %+v; want complete with no incomplete shard", j.Spec.Name, r)
		}
	}

	// An adaptive spec is split by its 8 points: beside a spec of 12
	// scenarios in 12 shards, it splits into 8, and its rows are those of
	// a whole run.
	adaptive := noisyJob(t, newNoisy(), noisySpec, t.TempDir())
	twelve := noisyJob(t, m, "name: twelve\nmodel: inverse-square\ngrid:\n  distance: {from: 1m, to: 12m, points: 12}\n", t.TempDir())
	for i := range 12 {
		if _, err := RunJobs(context.Background(), []*Job{adaptive, twelve}, Options{Workers: 2, Shard: Shard{i, 12}, Warn: io.Discard}); err != nil {
			t.Fatalf("shard %d/12 with the adaptive spec: %v", i, err)
		}
	}
	if got := len(rows(t, twelve.Dir, true)); got != 12 {
		t.Errorf("twelve: %d rows, want 12", got)
	}
	ref := t.TempDir()
	if _, err := runAdaptive(t, context.Background(), newNoisy(), ref, 1, Whole); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rows(t, ref, true), rows(t, adaptive.Dir, true)); diff != "" {
		t.Errorf("adaptive spec in 8 shards beside two (-whole +shards):\n%s", diff)
	}

	var shards []string
	err := filepath.WalkDir(two.Dir, func(path string, d fs.DirEntry, err error) error {
		if name := d.Name(); err == nil && strings.HasPrefix(name, "part-") && strings.HasSuffix(name, ".parquet") {
			shards = append(shards, strings.Split(name, "-")[1])
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(shards)
	shards = slices.Compact(shards) // the scenarios table and the samples table
	if want := []string{"0of2", "1of2"}; !slices.Equal(shards, want) {
		t.Errorf("two's parts are of shards %q, want %q (its own two shards)", shards, want)
	}
}
