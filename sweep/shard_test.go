package sweep

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

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
