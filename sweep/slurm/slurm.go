package slurm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/crosslink-sim/crosslink/sweep"
)

// DefaultMaxArraySize is Slurm's default MaxArraySize: task ids 0..1000.
const DefaultMaxArraySize = 1001

// DefaultTasks is the task count when neither Tasks nor PerTask is given.
const DefaultTasks = 100

// Options describe the job arrays of one spec.
type Options struct {
	Binary string // absolute path of the crosslink binary the tasks run
	Spec   string // absolute path of the spec file
	Name   string // spec name: job name and script names
	// Units is what the shards split: the plan's scenarios at Profile,
	// or its points for a spec with adaptive replicates (Unit "point"),
	// as sweep.Job.ShardUnits gives them; never more shards than Units.
	Units     int
	Unit      string // "scenario" when ""
	Profile   string // spec profile, "" for the base spec
	Out       string // absolute output root (datasets in Out/<spec>)
	Dir       string // directory for the scripts and the task logs
	Tasks     int    // shards; 0 derives it from PerTask or DefaultTasks
	PerTask   int    // units (scenarios or points) per task when Tasks is 0
	Partition string // sbatch --partition, "" for the default
	Time      string // sbatch --time, "" for the partition's limit
	CPUs      int    // sbatch --cpus-per-task (and run --workers); 1 when 0
	// Mem is sbatch --mem, the memory of each task ("512M", "2G"); ""
	// leaves the cluster's default.
	Mem string
	// Account and QOS are sbatch --account and --qos: many clusters
	// refuse a job that names no account. "" leaves the user's default.
	Account, QOS string
	// MaxArraySize is the cluster's limit (scontrol show config);
	// DefaultMaxArraySize when 0.
	MaxArraySize int
	// Run are extra arguments for `crosslink run` (--timeout, --retry-failed).
	Run []string
}

// Script is one sbatch job-array script: shards Offset..Offset+Count-1 of
// Shards.
type Script struct {
	Path          string
	Offset, Count int
	Shards        int
	Text          string
}

// shards returns the number of shards of o: Tasks, or the units split
// into PerTask-sized shares, or DefaultTasks; never more than the units,
// never less than one.
func (o *Options) shards() int {
	n := o.Tasks
	if n <= 0 && o.PerTask > 0 {
		n = (o.Units + o.PerTask - 1) / o.PerTask
	}
	if n <= 0 {
		n = DefaultTasks
	}
	return max(1, min(n, o.Units))
}

func (o *Options) unit() string {
	if o.Unit == "" {
		return "scenario"
	}
	return o.Unit
}

// Scripts returns the scripts of o, one per chunk of at most MaxArraySize
// tasks, without writing them.
func Scripts(o Options) ([]Script, error) {
	if !filepath.IsAbs(o.Binary) || !filepath.IsAbs(o.Spec) || !filepath.IsAbs(o.Out) || !filepath.IsAbs(o.Dir) {
		return nil, errors.New("slurm: bug: the binary, spec, output and script paths must be absolute (tasks start in another directory)")
	}
	if err := o.Check(); err != nil {
		return nil, err
	}
	maxArray := o.MaxArraySize
	if maxArray <= 0 {
		maxArray = DefaultMaxArraySize
	}
	n := o.shards()
	cpus := max(1, o.CPUs)
	var out []Script
	for off, k := 0, 1; off < n; off, k = off+maxArray, k+1 {
		count := min(maxArray, n-off)
		name := o.Name
		if n > maxArray {
			name = fmt.Sprintf("%s-%d", o.Name, k)
		}
		s := Script{Path: filepath.Join(o.Dir, name+".sbatch"), Offset: off, Count: count, Shards: n}
		var b strings.Builder
		fmt.Fprintf(&b, "#!/bin/bash\n")
		// Values on #SBATCH lines are checked by Check (no line breaks,
		// nothing sbatch would split or expand); the one path among them
		// is double-quoted, which sbatch's directive parser honours.
		fmt.Fprintf(&b, "#SBATCH --job-name=crosslink-%s\n", name)
		fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", count-1)
		fmt.Fprintf(&b, "#SBATCH --ntasks=1\n")
		fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", cpus)
		// The options the user may leave to the cluster's defaults.
		for _, d := range []struct{ flag, v string }{
			{"partition", o.Partition}, {"time", o.Time}, {"mem", o.Mem}, {"account", o.Account}, {"qos", o.QOS},
		} {
			if d.v != "" {
				fmt.Fprintf(&b, "#SBATCH --%s=%s\n", d.flag, d.v)
			}
		}
		fmt.Fprintf(&b, "#SBATCH --output=\"%s\"\n", filepath.Join(o.Dir, name+"-%A_%a.log"))
		fmt.Fprintf(&b, "#\n# Shards %d..%d of %d of spec %s (%s): array task t runs\n",
			off, off+count-1, n, o.Name, sweep.Count(o.Units, o.unit()))
		fmt.Fprintf(&b, "# shard t+%d. A task rerun (sbatch --array=T %s) runs only what its\n", off, filepath.Base(s.Path))
		fmt.Fprintf(&b, "# shard still misses; `%s` lists the incomplete shards\n# and the commands that rerun them.\n", statusCommand(o))
		fmt.Fprintf(&b, "set -euo pipefail\n")
		fmt.Fprintf(&b, "export %s=%d %s=%d\n", sweep.ShardOffsetEnv, off, sweep.ShardCountEnv, n)
		args := []string{Quote(o.Binary), "run", Quote(o.Spec), "--shard", "auto", "--out", Quote(o.Out),
			"--workers", `"${SLURM_CPUS_PER_TASK:-1}"`}
		if o.Profile != "" {
			args = append(args, "--profile", Quote(o.Profile))
		}
		for _, a := range o.Run {
			args = append(args, Quote(a))
		}
		fmt.Fprintf(&b, "exec %s\n", strings.Join(args, " "))
		s.Text = b.String()
		out = append(out, s)
	}
	return out, nil
}

// statusCommand is the status command of o's dataset, named by its spec
// file, profile and output root, so that the rerun commands it prints
// name the spec file (a dataset records the spec's text, not its path).
func statusCommand(o Options) string {
	cmd := "crosslink status " + Quote(o.Spec)
	if o.Profile != "" {
		cmd += " -p " + Quote(o.Profile)
	}
	return cmd + " -o " + Quote(o.Out)
}

var (
	// namePattern is a spec name (spec.namePattern): it names the job.
	namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	// partitionPattern is a Slurm partition name, or a comma-separated
	// list of them (sbatch --partition).
	partitionPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$`)
	// timePattern is every form sbatch --time takes: minutes, MM:SS,
	// HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or no limit.
	timePattern = regexp.MustCompile(`^([0-9]+(:[0-9]+){0,2}|[0-9]+-[0-9]+(:[0-9]+){0,2}|UNLIMITED|INFINITE|unlimited|infinite)$`)
	// memPattern is sbatch --mem: a whole number with an optional unit
	// suffix, K, M (the default), G or T.
	memPattern = regexp.MustCompile(`^[0-9]+[KMGTkmgt]?$`)
	// wordPattern is an account or QOS name.
	wordPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
)

// Check refuses values that would not stay one word of the line they are
// written into: a line break in --time would start a shell command.
func (o *Options) Check() error {
	if !namePattern.MatchString(o.Name) {
		return fmt.Errorf("slurm: spec name %q: want a-z, 0-9 and -", o.Name)
	}
	if o.Partition != "" && !partitionPattern.MatchString(o.Partition) {
		return fmt.Errorf("slurm: --partition %q: want a partition name (letters, digits, _ . -) or a comma-separated list of them", o.Partition)
	}
	if o.Time != "" && !timePattern.MatchString(o.Time) {
		return fmt.Errorf("slurm: --time %q: want minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, as sbatch --time takes", o.Time)
	}
	if o.Mem != "" && !memPattern.MatchString(o.Mem) {
		return fmt.Errorf("slurm: --mem %q: want a whole number with an optional unit, K, M, G or T (512M, 2G), as sbatch --mem takes", o.Mem)
	}
	for _, w := range []struct{ flag, v string }{{"--account", o.Account}, {"--qos", o.QOS}} {
		if w.v != "" && !wordPattern.MatchString(w.v) {
			return fmt.Errorf("slurm: %s %q: want a name of letters, digits, _ . and -", w.flag, w.v)
		}
	}
	if o.Profile != "" && !namePattern.MatchString(o.Profile) {
		return fmt.Errorf("slurm: --profile %q: want a-z, 0-9 and -", o.Profile)
	}
	for _, p := range []struct{ what, path string }{{"binary", o.Binary}, {"spec", o.Spec}, {"output", o.Out}, {"scripts directory", o.Dir}} {
		if i := strings.IndexFunc(p.path, unicode.IsControl); i >= 0 {
			return fmt.Errorf("slurm: the %s path %q holds a control character; sbatch scripts are line-based", p.what, p.path)
		}
	}
	// The log path is the one path on an #SBATCH line: sbatch reads % as
	// a file name pattern and ends a quoted word at ".
	if strings.ContainsAny(o.Dir, `"%\`) {
		return fmt.Errorf("slurm: the scripts directory %q holds \", %% or \\, which sbatch's --output cannot take; pick another with --scripts", o.Dir)
	}
	for _, a := range o.Run {
		if strings.IndexFunc(a, unicode.IsControl) >= 0 {
			return fmt.Errorf("slurm: run argument %q holds a control character", a)
		}
	}
	return nil
}

// Quote returns s as one shell word (POSIX sh): as it is when it holds
// only characters no shell treats specially, else in single quotes.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+=:,@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Submit runs `sbatch --parsable script` and returns the job id.
func Submit(ctx context.Context, script string) (string, error) {
	out, err := command(ctx, "sbatch", "--parsable", script)
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";") // "id;cluster" on federations
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("slurm: sbatch printed %q, not a job id", out)
	}
	return id, nil
}

// MaxArraySize reads MaxArraySize from `scontrol show config`.
func MaxArraySize(ctx context.Context) (int, error) {
	out, err := command(ctx, "scontrol", "show", "config")
	if err != nil {
		return 0, err
	}
	return parseMaxArraySize(out)
}

func parseMaxArraySize(config string) (int, error) {
	sc := bufio.NewScanner(strings.NewReader(config))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok && strings.TrimSpace(k) == "MaxArraySize" {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return 0, fmt.Errorf("slurm: MaxArraySize = %q", strings.TrimSpace(v))
			}
			return n, nil
		}
	}
	return 0, errors.New("slurm: scontrol show config has no MaxArraySize")
}

func command(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			return "", fmt.Errorf("slurm: %s: %w: %s", name, err, msg)
		}
		return "", fmt.Errorf("slurm: %s: %w", name, err)
	}
	return stdout.String(), nil
}
