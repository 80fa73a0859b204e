package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/slurm"
	"github.com/crosslink-sim/crosslink/vocab"
)

// slurmCmd writes (and with --submit submits) the job-array scripts of a
// spec.
func slurmCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var o slurm.Options
	var submit bool
	var scripts string
	var timeout time.Duration
	var maxEvents uint64
	var partitionBy []string
	var retry bool
	c := &cobra.Command{
		Use:   "slurm SPEC",
		Short: "Write the sbatch job-array script of a spec; --submit submits it",
		Long: "slurm writes an sbatch script whose array tasks each run one shard of the spec\n" +
			"(crosslink run SPEC --shard auto) with this binary, split into several arrays when\n" +
			"the shards outnumber the cluster's MaxArraySize. With --submit it runs sbatch and\n" +
			"prints the job ids. Merge the shards' parts afterwards with crosslink merge.",
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			if err := checkOutRoot(o.Out); err != nil {
				return err
			}
			j, err := sweep.Load(a[0], reg, o.Profile, false, o.Out)
			if err == nil {
				err = withClaims([]*sweep.Job{j}, nil)
			}
			if err != nil {
				return usageError{err}
			}
			if o.Binary, err = e.Executable(); err != nil {
				return fmt.Errorf("slurm: cannot find this program's path: %w", err)
			}
			for _, p := range []*string{&o.Binary, &o.Out} {
				if *p, err = filepath.Abs(*p); err != nil {
					return err
				}
			}
			if o.Spec, err = filepath.Abs(a[0]); err != nil {
				return err
			}
			if scripts == "" {
				scripts = filepath.Join(o.Out, "slurm")
			}
			if o.Dir, err = filepath.Abs(scripts); err != nil {
				return err
			}
			o.Name = j.Spec.Name
			o.Units, o.Unit = j.ShardUnits()
			if timeout > 0 {
				o.Run = append(o.Run, "--timeout", timeout.String())
			}
			if maxEvents > 0 {
				o.Run = append(o.Run, "--max-events", strconv.FormatUint(maxEvents, 10))
			}
			if len(partitionBy) > 0 {
				if _, _, err := sweep.Partitioning(j, partitionBy); err != nil {
					return usageError{err}
				}
				o.Run = append(o.Run, "--partition-by", strings.Join(partitionBy, ","))
			}
			if retry {
				o.Run = append(o.Run, "--retry-failed")
			}
			if err := o.Check(); err != nil {
				return usageError{err}
			}
			if o.MaxArraySize == 0 && submit {
				if o.MaxArraySize, err = slurm.MaxArraySize(c.Context()); err != nil {
					return err
				}
			}
			return writeScripts(c.Context(), o, submit, e)
		},
	}
	f := c.Flags()
	f.IntVar(&o.Tasks, "tasks", 0, fmt.Sprintf("array tasks (shards); default from --per-task, else %d", slurm.DefaultTasks))
	f.IntVar(&o.PerTask, "per-task", 0, "scenarios per task (points, for a spec with adaptive replicates), when --tasks is not given")
	f.StringVar(&o.Partition, "partition", "", "Slurm partition (default: the cluster's)")
	f.StringVar(&o.Time, "time", "", "time limit of each task, as sbatch --time takes it (e.g. 2:00:00)")
	f.IntVar(&o.CPUs, "cpus", 1, "CPUs per task (and scenarios each task runs at once)")
	f.StringVar(&o.Mem, "mem", "", "memory of each task, as sbatch --mem takes it (e.g. 1G; default: the cluster's; docs/cluster.md gives what scenarios need)")
	f.StringVar(&o.Account, "account", "", "Slurm account to charge (sbatch --account; default: yours)")
	f.StringVar(&o.QOS, "qos", "", "quality of service (sbatch --qos; default: the account's)")
	f.StringVarP(&o.Profile, "profile", "p", "", "spec profile to run")
	f.StringVarP(&o.Out, "out", "o", "out", "output root: the tasks write OUT/<spec>/")
	f.StringVar(&scripts, "scripts", "", "directory for the scripts and task logs (default OUT/slurm)")
	f.IntVar(&o.MaxArraySize, "max-array-size", 0, "the cluster's MaxArraySize (default: from scontrol with --submit, else 1001)")
	f.BoolVar(&submit, "submit", false, "submit the scripts with sbatch and print the job ids")
	f.DurationVar(&timeout, "timeout", 0, "passed to run: wall-clock limit of one scenario")
	f.Uint64Var(&maxEvents, "max-events", 0, "passed to run: limit on the events the scheduler of one scenario runs (status timeout)")
	f.StringSliceVar(&partitionBy, "partition-by", nil, "passed to run: split the dataset into hive partitions by these parameters")
	f.BoolVar(&retry, "retry-failed", false, "passed to run: rerun failed scenarios")
	return c
}

func writeScripts(ctx context.Context, o slurm.Options, submit bool, e *Env) error {
	list, err := slurm.Scripts(o)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return fmt.Errorf("slurm: %w", err)
	}
	for _, s := range list {
		if err := os.WriteFile(s.Path, []byte(s.Text), 0o755); err != nil {
			return fmt.Errorf("slurm: %w", err)
		}
		fmt.Fprintf(e.Stderr, "%s: shards %d..%d of %d\n", s.Path, s.Offset, s.Offset+s.Count-1, s.Shards)
	}
	if !submit {
		return nil
	}
	for _, s := range list {
		id, err := slurm.Submit(ctx, s.Path)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.Stdout, id)
	}
	return nil
}

// statusCmd reports how far datasets are.
func statusCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var profile, out string
	var shards int
	var deep, asJSON bool
	c := &cobra.Command{
		Use:   "status DIR|SPEC...",
		Short: "Report scenarios done, failed and missing per dataset, incomplete shards and damaged parts",
		Long: "status compares each dataset with its plan: for a dataset directory, the spec and\n" +
			"profile recorded in its parts; for a spec file, OUT/<spec> at --profile. It verifies\n" +
			"every part against the dataset's manifest (SHA-256; --deep also decodes every page)\n" +
			"and names damaged parts and files that are no part, and gives the commands that finish\n" +
			"each dataset (naming the spec file when given one). Directories that hold no dataset\n" +
			"(out/figures/) and files that are no spec (.yaml) are skipped with a note when several\n" +
			"are given; a path that does not exist yet (an array still queued) is incomplete.\n" +
			"It exits 1 when a dataset is not complete or a file is damaged.",
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			// -o matters only for spec files: a default out that is a
			// file (a log, say) must not refuse datasets named directly.
			if c.Flags().Changed("out") || slices.ContainsFunc(a, func(p string) bool { return !sweep.IsDir(p) }) {
				if err := checkOutRoot(out); err != nil {
					return err
				}
			}
			incomplete, skipped := 0, 0
			var reports []reportJSON // for --json
			for _, p := range a {
				var j *sweep.Job
				var err error
				if notYet(p) {
					// OUT/<spec> of an array still queued: its first
					// task creates it.
					fmt.Fprintf(e.Stderr, "crosslink: %s: %s\n", p, noDatasetNote)
					reports = append(reports, noPartJSON(p, noDatasetNote))
					incomplete++
					continue
				}
				if sweep.IsDir(p) {
					if err := dataset.NotInside(p); err != nil {
						return usageError{err}
					}
					if !sweep.IsDataset(p) {
						if len(a) > 1 {
							fmt.Fprintf(e.Stderr, "crosslink: %s holds no dataset; skipped\n", p)
							skipped++
							continue
						}
						return usageError{fmt.Errorf("%s holds no dataset (no scenarios/ table)", p)}
					}
					if parts, err := dataset.Parts(p); err == nil && len(parts) == 0 && !dataset.NeedsMigration(p) {
						// A run's first minute, or one killed in it: the
						// spec is recorded only with the first part.
						fmt.Fprintf(e.Stderr, "crosslink: %s: %s\n", p, noPartNote)
						reports = append(reports, noPartJSON(p, noPartNote))
						incomplete++
						continue
					}
					// The spec a dataset records is not checked for
					// claims: its text is no file to fix, and report
					// checks the spec files' claims.
					j, err = loadDataset(p, reg, profile, c.Flags().Changed("profile"))
				} else if j, err = sweep.Load(p, reg, profile, false, out); err == nil {
					err = withClaims([]*sweep.Job{j}, nil)
				} else if len(a) > 1 && !isSpecName(p) {
					// A README or a log among the paths (out/*): not
					// named as a spec, and not one.
					fmt.Fprintf(e.Stderr, "crosslink: %s is neither a dataset nor a spec file; skipped\n", p)
					skipped++
					continue
				}
				if err != nil {
					return usageError{err}
				}
				r, err := sweep.Check(j, shards, deep)
				if err != nil {
					return err
				}
				if !sweep.IsDir(p) {
					r.SpecFile = p
				}
				reports = append(reports, toJSON(r))
				if !asJSON {
					if err := writeReport(e.Stdout, r); err != nil {
						return err
					}
				}
				if !r.Complete() {
					incomplete++
				}
			}
			if skipped == len(a) {
				return usageError{fmt.Errorf("none of the %d paths is a dataset or a spec file: give datasets, OUT/<spec>, or spec files", len(a))}
			}
			if asJSON {
				if err := writeReportsJSON(e.Stdout, reports); err != nil {
					return err
				}
			}
			if incomplete > 0 {
				return incompleteError{incomplete}
			}
			return nil
		},
	}
	c.Flags().StringVarP(&profile, "profile", "p", "", "profile of the specs named")
	c.Flags().StringVarP(&out, "out", "o", "out", "output root of the specs named")
	c.Flags().IntVar(&shards, "shards", 0, "shard count to check (default: from the part names)")
	c.Flags().BoolVar(&deep, "deep", false, "decode every page of every part, not only check the manifest hashes")
	c.Flags().BoolVar(&asJSON, "json", false, "print the reports as one JSON array (a dataset with no part yet has only dir and note)")
	return c
}

// loadDataset loads the job of the dataset in dir: at the profile its
// parts record, or, when --profile is given, at that profile of the spec
// they record, refused as run refuses a profile the spec lacks (a -p that
// the check then ignored would report the wrong plan as complete).
func loadDataset(dir string, reg *vocab.Registry, profile string, named bool) (*sweep.Job, error) {
	if !named {
		return sweep.LoadDir(dir, reg)
	}
	return sweep.LoadDirAt(dir, reg, profile)
}

// notYet reports whether path names a dataset directory not created yet,
// OUT/<spec>: it does not exist, is not named as a spec file is, and its
// parent (the output root, where crosslink slurm wrote its scripts) is
// named and exists. A path whose parent is missing too is more likely
// mistyped, and a bare name ("-", "rc13-fig8") more likely meant as a
// spec: status then says what is wrong with it as before.
func notYet(path string) bool {
	if !strings.ContainsRune(path, filepath.Separator) || isSpecName(path) {
		return false
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return sweep.IsDir(filepath.Dir(filepath.Clean(path)))
}

// isSpecName reports whether path is named as a spec file is (.yaml or
// .yml), for status to tell a spec that does not exist (an error) from
// a dataset not created yet, and a spec among datasets from another file.
func isSpecName(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yaml" || ext == ".yml"
}

// incompleteError is status's exit 1.
type incompleteError struct{ n int }

func (e incompleteError) Error() string {
	if e.n == 1 {
		return "1 dataset incomplete"
	}
	return fmt.Sprintf("%d datasets incomplete", e.n)
}
