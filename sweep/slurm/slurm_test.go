package slurm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func opts() Options {
	return Options{Binary: "/opt/bin/crosslink", Spec: "/home/a b/specs/s.yaml", Name: "s", Units: 1000,
		Out: "/scratch/out", Dir: "/scratch/out/slurm", Profile: "quick", Partition: "short", Time: "1:00:00"}
}

// TestChunks splits 7 shards under MaxArraySize 3 into arrays of 3, 3 and
// 1 task, each numbered from 0 with its offset exported.
func TestChunks(t *testing.T) {
	o := opts()
	o.Tasks, o.MaxArraySize = 7, 3
	list, err := Scripts(o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range list {
		got = append(got, fmt.Sprintf("%s %d+%d/%d", s.Path, s.Offset, s.Count, s.Shards))
		for _, want := range []string{
			fmt.Sprintf("#SBATCH --array=0-%d\n", s.Count-1),
			fmt.Sprintf("export CROSSLINK_SHARD_OFFSET=%d CROSSLINK_SHARD_COUNT=7\n", s.Offset),
			"#SBATCH --partition=short\n", "#SBATCH --time=1:00:00\n",
			"exec /opt/bin/crosslink run '/home/a b/specs/s.yaml' --shard auto --out /scratch/out",
			"--profile quick",
			// The status command names the spec file, so that the
			// rerun commands it prints name it too.
			"# shard still misses; `crosslink status '/home/a b/specs/s.yaml' -p quick -o /scratch/out` lists",
		} {
			if !strings.Contains(s.Text, want) {
				t.Errorf("%s lacks %q:\n%s", s.Path, want, s.Text)
			}
		}
	}
	want := []string{"/scratch/out/slurm/s-1.sbatch 0+3/7", "/scratch/out/slurm/s-2.sbatch 3+3/7", "/scratch/out/slurm/s-3.sbatch 6+1/7"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scripts (-want +got):\n%s", diff)
	}
}

// TestSbatchOptions checks that each sbatch option the user gives becomes
// its #SBATCH line, and that none is written when it is not given (the
// cluster's or the user's default then applies).
func TestSbatchOptions(t *testing.T) {
	tests := []struct {
		name string
		set  func(*Options)
		line string
	}{
		{"mem", func(o *Options) { o.Mem = "1G" }, "#SBATCH --mem=1G\n"},
		{"account", func(o *Options) { o.Account = "proj-42" }, "#SBATCH --account=proj-42\n"},
		{"qos", func(o *Options) { o.QOS = "long" }, "#SBATCH --qos=long\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := opts()
			without, err := Scripts(o)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(without[0].Text, "--"+tt.name+"=") {
				t.Errorf("a script without --%s names it:\n%s", tt.name, without[0].Text)
			}
			tt.set(&o)
			with, err := Scripts(o)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(with[0].Text, tt.line) {
				t.Errorf("script lacks %q:\n%s", tt.line, with[0].Text)
			}
		})
	}
}

func TestTaskCount(t *testing.T) {
	tests := []struct {
		scenarios, tasks, perTask, want int
	}{
		{1000, 0, 0, DefaultTasks},
		{1000, 0, 64, 16},
		{1000, 4, 64, 4},
		{3, 10, 0, 3}, // no empty shards
		{0, 0, 0, 1},
	}
	for _, tt := range tests {
		o := Options{Units: tt.scenarios, Tasks: tt.tasks, PerTask: tt.perTask}
		if got := o.shards(); got != tt.want {
			t.Errorf("shards(%d scenarios, --tasks %d, --per-task %d) = %d, want %d", tt.scenarios, tt.tasks, tt.perTask, got, tt.want)
		}
	}
}

func TestParseMaxArraySize(t *testing.T) {
	// As printed by slurm-wlm 22.05's scontrol show config.
	cfg := "MailProg                = /bin/mail\nMaxArraySize            = 1001\nMaxDBDMsgs              = 20008\n"
	if n, err := parseMaxArraySize(cfg); err != nil || n != 1001 {
		t.Errorf("parseMaxArraySize = %d, %v; want 1001", n, err)
	}
	if _, err := parseMaxArraySize("MailProg = /bin/mail\n"); err == nil {
		t.Error("parseMaxArraySize without the key succeeded")
	}
}

func TestRelativePathsRefused(t *testing.T) {
	o := opts()
	o.Binary = "crosslink"
	if _, err := Scripts(o); err == nil {
		t.Error("Scripts with a relative binary path succeeded; tasks start elsewhere")
	}
}
