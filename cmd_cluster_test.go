package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/crosslink-sim/crosslink/cli"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// clusterSpec is a small sweep of the closed-form ber-per model: 40
// scenarios, fast enough that the job array's time is Slurm's own.
const clusterSpec = `name: cluster-check
description: PER against BER for two frame sizes, run as shards.
model: ber-per
seed: 7
grid:
  ber: {from: 1e-12, to: 1e-3, points: 20, scale: log}
  mtu: [1500B, 9000B]
`

// buildBinary builds crosslink into a temporary directory once per test.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "crosslink")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// specIn writes text as the spec file name.yaml in a new temporary
// directory and returns the directory and the file's path.
func specIn(t *testing.T, name, text string) (root, path string) {
	t.Helper()
	root = t.TempDir()
	path = filepath.Join(root, name+".yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, path
}

func writeSpec(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cluster-check.yaml")
	if err := os.WriteFile(p, []byte(clusterSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// crosslink runs the binary and returns its stdout, failing the test on a
// non-zero exit.
func runBin(t *testing.T, bin string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("crosslink %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// dataColumns reads a dataset as column name -> the column's values in
// scenario-id order, each encoded as exact bytes (floats by their bits),
// leaving out wall_s, the one column allowed to differ between runs.
func dataColumns(t *testing.T, dir string) map[string][]string {
	t.Helper()
	tbl, err := dataset.ReadTable(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	n := int(tbl.NumRows())
	cols := map[string][]string{}
	for c := 0; c < int(tbl.NumCols()); c++ {
		name := tbl.Schema().Field(c).Name
		if name == dataset.ColWall {
			continue
		}
		var vals []string
		for _, ch := range tbl.Column(c).Data().Chunks() {
			for i := 0; i < ch.Len(); i++ {
				if ch.IsNull(i) {
					vals = append(vals, "null")
					continue
				}
				switch a := ch.(type) {
				case *array.Float64:
					vals = append(vals, fmt.Sprintf("%016x", math.Float64bits(a.Value(i))))
				default:
					vals = append(vals, a.ValueStr(i))
				}
			}
		}
		cols[name] = vals
	}
	ids := cols[dataset.ColID]
	if len(ids) != n {
		t.Fatalf("%s: %d ids for %d rows", dir, len(ids), n)
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sort.Slice(perm, func(a, b int) bool { return ids[perm[a]] < ids[perm[b]] })
	for i := 1; i < n; i++ {
		if ids[perm[i]] == ids[perm[i-1]] {
			t.Errorf("%s: scenario %s appears twice", dir, ids[perm[i]])
		}
	}
	for name, vals := range cols {
		sorted := make([]string, n)
		for i, p := range perm {
			sorted[i] = vals[p]
		}
		cols[name] = sorted
	}
	return cols
}

// mergedMatches checks that the shards wrote parts parts into the dataset
// dir, merges it, and expects the data columns of the single-process
// dataset ref; it returns dir's columns.
func mergedMatches(t *testing.T, bin, dir, ref string, parts int) map[string][]string {
	t.Helper()
	if ps, _ := dataset.Parts(dir); len(ps) != parts {
		t.Errorf("%s: the shards wrote %d parts, want %d: %v", dir, len(ps), parts, ps)
	}
	runBin(t, bin, "merge", dir)
	got := dataColumns(t, dir)
	if diff := cmp.Diff(dataColumns(t, ref), got); diff != "" {
		t.Errorf("%s merged (-single process +shards):\n%s", dir, diff)
	}
	return got
}

// TestShardsMerge runs the spec as 4 processes, one shard each and all at
// once, merges their parts and expects the data columns of a
// single-process run, byte for byte (row order aside).
func TestShardsMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin, spec := buildBinary(t), writeSpec(t)
	single, sharded := t.TempDir(), t.TempDir()
	runBin(t, bin, "run", spec, "-o", single, "-q")
	var cmds []*exec.Cmd
	for i := range 4 {
		cmd := exec.Command(bin, "run", spec, "-o", sharded, "-q", "--shard", fmt.Sprintf("%d/4", i))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
	}
	got := mergedMatches(t, bin, filepath.Join(sharded, "cluster-check"), filepath.Join(single, "cluster-check"), 4)
	t.Logf("4 shards merged: %d rows, %d data columns byte-identical to one process", len(got[dataset.ColID]), len(got))
}

// slurmReady reports whether a Slurm cluster with an idle node answers.
func slurmReady() (bool, string) {
	if _, err := exec.LookPath("sinfo"); err != nil {
		return false, "sinfo not found"
	}
	out, err := exec.Command("sinfo", "-h", "-o", "%t").Output()
	if err != nil {
		return false, fmt.Sprintf("sinfo: %v", err)
	}
	for _, st := range strings.Fields(string(out)) {
		if st == "idle" || st == "mix" || st == "alloc" {
			return true, ""
		}
	}
	return false, fmt.Sprintf("no usable node (sinfo states %q)", strings.TrimSpace(string(out)))
}

// needSlurm skips t under -short, and when no Slurm cluster answers
// outside CI (missingTool fails it in CI, where .ci/run starts one).
func needSlurm(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("submits a Slurm job")
	}
	if ok, why := slurmReady(); !ok {
		missingTool(t, "no Slurm cluster ("+why+"); start one with ../shared/slurm/setup-local-slurm.sh")
	}
}

// TestSlurmArray submits the spec as a job array of 4 tasks to the real
// scheduler, waits for it by polling squeue, merges the shards and expects
// the dataset of a local single-process run: same ids, same values (all
// but wall_s). Outside CI it is skipped when no Slurm is running; in CI
// (CI=true), where .ci/run starts the one-node cluster, it fails instead.
func TestSlurmArray(t *testing.T) {
	needSlurm(t)
	bin, spec := buildBinary(t), writeSpec(t)
	local, remote := t.TempDir(), t.TempDir()
	runBin(t, bin, "run", spec, "-o", local, "-q")

	out := runBin(t, bin, "slurm", spec, "--tasks", "4", "--submit", "-o", remote, "--time", "5:00",
		"--mem", "256M", "--account", "crosslink-ci")
	id := strings.TrimSpace(out)
	if id == "" || strings.ContainsAny(id, " \n") {
		t.Fatalf("crosslink slurm --submit printed %q, want one job id", out)
	}
	t.Logf("submitted job array %s", id)

	waitArray(t, id, 4, filepath.Join(remote, "slurm", "*.log"))

	// The scheduler holds a finished job's record for MinJobAge (300 s by
	// default): it shows the memory and account the script asked for.
	job, err := exec.Command("scontrol", "show", "job", id).Output()
	if err != nil {
		t.Fatalf("scontrol show job %s: %v", id, err)
	}
	for _, want := range []string{"Account=crosslink-ci", "MinMemoryNode=256M"} {
		if !strings.Contains(string(job), want) {
			t.Errorf("scontrol show job %s lacks %s:\n%s", id, want, job)
		}
	}

	dir := filepath.Join(remote, "cluster-check")
	t.Logf("status: %s", strings.TrimSpace(runBin(t, bin, "status", dir)))
	got := mergedMatches(t, bin, dir, filepath.Join(local, "cluster-check"), 4)
	t.Logf("job array dataset: %d rows, %d columns besides wall_s, identical to the local run", len(got[dataset.ColID]), len(got))
}

// TestSlurmSplitArrays submits 5 shards under a MaxArraySize of 2, as a
// sweep of more shards than a cluster's limit goes: three arrays of 2, 2
// and 1 tasks, each numbered from 0 and exporting its first shard. The
// real scheduler runs them; merged, the shards must give the local
// single-process dataset, so that no shard was run twice or left out.
func TestSlurmSplitArrays(t *testing.T) {
	needSlurm(t)
	bin, spec := buildBinary(t), writeSpec(t)
	local, remote := t.TempDir(), t.TempDir()
	runBin(t, bin, "run", spec, "-o", local, "-q")

	out := runBin(t, bin, "slurm", spec, "--tasks", "5", "--max-array-size", "2", "--submit", "-o", remote, "--time", "5:00")
	ids := strings.Fields(out)
	if len(ids) != 3 {
		t.Fatalf("crosslink slurm --tasks 5 --max-array-size 2 --submit printed %q, want three job ids", out)
	}
	for i, id := range ids {
		waitArray(t, id, []int{2, 2, 1}[i], filepath.Join(remote, "slurm", fmt.Sprintf("cluster-check-%d-%s_*.log", i+1, id)))
	}
	dir := filepath.Join(remote, "cluster-check")
	t.Logf("status: %s", strings.TrimSpace(runBin(t, bin, "status", dir)))
	got := mergedMatches(t, bin, dir, filepath.Join(local, "cluster-check"), 5)
	t.Logf("three job arrays (%s): %d rows, identical to the local run", strings.Join(ids, ", "), len(got[dataset.ColID]))
}

// TestSlurmSubmitRefused asks the real scheduler for more memory per task
// than its node has: sbatch refuses the array, and crosslink slurm
// --submit must fail with sbatch's reason, print no job id and leave
// nothing queued.
func TestSlurmSubmitRefused(t *testing.T) {
	needSlurm(t)
	bin, spec := buildBinary(t), writeSpec(t)
	remote := t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "slurm", spec, "--tasks", "2", "--submit", "-o", remote, "--mem", "1000T")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		t.Fatalf("crosslink slurm --mem 1000T --submit succeeded (job %q), want sbatch's refusal", stdout.String())
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout %q, want no job id", stdout.String())
	}
	if msg := stderr.String(); !strings.Contains(msg, "sbatch") || !strings.Contains(strings.ToLower(msg), "memory") {
		t.Errorf("stderr %q, want sbatch's reason, about memory", msg)
	}
	t.Logf("refused: %s", strings.TrimSpace(stderr.String()))
	q, err := exec.Command("squeue", "-h", "-n", "crosslink-cluster-check", "-o", "%i").Output()
	if err != nil {
		t.Fatalf("squeue: %v", err)
	}
	if s := strings.TrimSpace(string(q)); s != "" {
		t.Errorf("squeue lists %q after a refused submission", s)
	}
}

// waitArray polls squeue until no task of job array id is pending or
// running (for at most 3 minutes), and fails the test, with the task logs
// that the glob logs matches, unless at least tasks of them COMPLETED.
func waitArray(t *testing.T, id string, tasks int, logs string) {
	t.Helper()
	// Poll squeue until no task is pending or running (bounded wait).
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	seen := map[string]bool{}
	for {
		q, err := exec.CommandContext(ctx, "squeue", "-h", "-j", id, "-o", "%i %j %T %M %R").Output()
		if err != nil && ctx.Err() == nil {
			t.Fatalf("squeue: %v", err)
		}
		lines := strings.Split(strings.TrimSpace(string(q)), "\n")
		active := 0
		for _, l := range lines {
			if l == "" {
				continue
			}
			if !seen[l] {
				seen[l] = true
				t.Logf("squeue: %s", l)
			}
			if strings.Contains(l, "PENDING") || strings.Contains(l, "RUNNING") || strings.Contains(l, "CONFIGURING") || strings.Contains(l, "COMPLETING") {
				active++
			}
		}
		if active == 0 {
			break
		}
		if ctx.Err() != nil {
			exec.Command("scancel", id).Run()
			t.Fatalf("job array %s still has %d active tasks after 3 minutes", id, active)
		}
		time.Sleep(500 * time.Millisecond)
	}
	final, err := exec.Command("squeue", "-h", "-t", "all", "-j", id, "-o", "%i %T %M").Output()
	if err != nil {
		t.Fatalf("squeue: %v", err)
	}
	completed := 0
	for _, l := range strings.Split(strings.TrimSpace(string(final)), "\n") {
		t.Logf("squeue -t all: %s", l)
		if strings.Contains(l, "COMPLETED") {
			completed++
		}
	}
	if completed < tasks {
		files, _ := filepath.Glob(logs)
		for _, l := range files {
			b, _ := os.ReadFile(l)
			t.Logf("%s:\n%s", l, b)
		}
		t.Fatalf("%d tasks of job array %s COMPLETED, want %d", completed, id, tasks)
	}
}

// TestSlurmArrayOverSpecs submits one job array of 4 tasks, written by
// hand, whose every task runs `crosslink run --shard auto` over two specs:
// cluster-check (40 scenarios) and a spec of 2. Each task takes its share
// of the first; tasks 0 and 1 take shard i/2 of the second and tasks 2
// and 3 have none of it. Both datasets must come out complete, and equal
// to a local single-process run once merged.
func TestSlurmArrayOverSpecs(t *testing.T) {
	needSlurm(t)
	bin, big := buildBinary(t), writeSpec(t)
	small := filepath.Join(t.TempDir(), "cluster-small.yaml")
	if err := os.WriteFile(small, []byte("name: cluster-small\nmodel: ber-per\nseed: 7\ngrid:\n  ber: [1e-9, 1e-6]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	local, remote := t.TempDir(), t.TempDir()
	runBin(t, bin, "run", big, small, "-o", local, "-q")

	logs := filepath.Join(remote, "task-%a.log")
	out, err := exec.Command("sbatch", "--parsable", "--array=0-3", "--time=5:00", "--output="+logs,
		"--wrap", fmt.Sprintf("%q run %q %q --shard auto -o %q -q", bin, big, small, remote)).Output()
	if err != nil {
		t.Fatalf("sbatch: %v", err)
	}
	id := strings.TrimSpace(string(out))
	t.Logf("submitted job array %s", id)
	waitArray(t, id, 4, filepath.Join(remote, "task-*.log"))

	for _, c := range []struct {
		name  string
		parts int // written by the tasks that have a share
	}{{"cluster-check", 4}, {"cluster-small", 2}} {
		dir := filepath.Join(remote, c.name)
		t.Logf("status: %s", strings.TrimSpace(runBin(t, bin, "status", dir)))
		mergedMatches(t, bin, dir, filepath.Join(local, c.name), c.parts)
	}
	for i := 2; i < 4; i++ {
		b, err := os.ReadFile(filepath.Join(remote, fmt.Sprintf("task-%d.log", i)))
		if want := fmt.Sprintf("cluster-small: shard %d/4 has none of it", i); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("task %d's log %q (%v); want %q", i, b, err, want)
		}
	}
}

// TestSlurmPassesRunLimits: the run flags a job array needs reach its
// tasks' command line (--max-events, --partition-by as --timeout does),
// and a partitioning run would refuse is refused before any script is
// written.
func TestSlurmPassesRunLimits(t *testing.T) {
	root, spec := specIn(t, "status-advice", statusAdviceSpec)
	out := filepath.Join(root, "out")
	env := func(args ...string) (int, string) {
		var o, e bytes.Buffer
		code := cli.Run(context.Background(), args, &cli.Env{Stdout: &o, Stderr: &e, Executable: func() (string, error) { return "/opt/crosslink", nil }})
		return code, e.String()
	}
	if code, stderr := env("slurm", spec, "--tasks", "2", "-o", out, "--max-events", "5000", "--partition-by", "ccas", "--timeout", "1m"); code != exitOK {
		t.Fatalf("slurm: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, "slurm", "status-advice.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "--timeout 1m0s --max-events 5000 --partition-by ccas\n"; !strings.Contains(string(b), want) {
		t.Errorf("script lacks %q:\n%s", want, b)
	}
	code, stderr := env("slurm", spec, "--tasks", "2", "-o", filepath.Join(root, "out2"), "--partition-by", "cca")
	if code != exitUsage || !strings.Contains(stderr, "--partition-by cca: not a parameter of tcp-compete") {
		t.Errorf("slurm --partition-by cca: exit %d\n%s\nwant 2 and the parameter named", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "out2", "slurm")); err == nil {
		t.Errorf("a refused slurm wrote its scripts")
	}
}

// TestSlurmAdaptiveSplitsPoints: a spec with adaptive replicates shards
// by point, so its array has at most one task per point, not one per
// scenario at max replicates (3 points x 10 = 30 here): a task past the
// points would exit 2 ("splits into at most 3 shards").
func TestSlurmAdaptiveSplitsPoints(t *testing.T) {
	_, spec := specIn(t, "adaptive-array", `name: adaptive-array
model: fso-ber
seed: 1
replicates: {min: 2, max: 10, until: {metric: ber, ci95_rel: 0.05}}
grid:
  distance: [1000km, 2000km, 3000km]
`)
	out := filepath.Join(filepath.Dir(spec), "out")
	for _, args := range [][]string{{}, {"--per-task", "2"}, {"--tasks", "64"}} {
		var o, e bytes.Buffer
		argv := append([]string{"slurm", spec, "-o", out}, args...)
		if code := cli.Run(context.Background(), argv, &cli.Env{Stdout: &o, Stderr: &e, Executable: func() (string, error) { return "/opt/crosslink", nil }}); code != exitOK {
			t.Fatalf("%v: exit %d\n%s", argv, code, e.String())
		}
		b, err := os.ReadFile(filepath.Join(out, "slurm", "adaptive-array.sbatch"))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"": "--array=0-2\n", "2": "--array=0-1\n", "64": "--array=0-2\n"}[strings.Join(args[min(len(args), 1):], "")]
		for _, w := range []string{want, "(3 points)"} {
			if !strings.Contains(string(b), w) {
				t.Errorf("%v: script lacks %q:\n%s", argv, w, b)
			}
		}
	}
}
