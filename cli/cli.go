package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/plots"
	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitFailed      = 1 // some scenarios failed, or a run-time error
	ExitUsage       = 2 // bad usage or a bad spec
	ExitInterrupted = 130
)

// Env is the process state the commands use, gathered by main so that
// nothing below reads the operating system's globals.
type Env struct {
	Stdin          io.Reader // a spec given as "-"
	Stdout, Stderr io.Writer
	Terminal       bool // stderr is a terminal: draw a progress bar
	// Getenv reads the environment (SLURM_ARRAY_TASK_ID and the like for
	// --shard auto); Executable is the path of this program (for the
	// scripts of the slurm command).
	Getenv     func(string) string
	Executable func() (string, error)
}

// usageError marks mistakes in the command line or a spec (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// failedError reports scenarios that failed (exit 1); their rows are written.
type failedError struct{ n int }

func (e failedError) Error() string {
	if e.n == 1 {
		return "1 scenario failed; its row holds the error"
	}
	return fmt.Sprintf("%d scenarios failed; their rows hold the errors", e.n)
}

// Run runs the crosslink command line args (without the program name) and
// returns its exit code.
func Run(ctx context.Context, args []string, e *Env) int {
	reg, err := models.Registry()
	if err != nil {
		fmt.Fprintln(e.Stderr, "crosslink: bug:", err)
		return ExitFailed
	}
	root := newRoot(reg, e)
	root.SetArgs(args)
	root.SetOut(e.Stdout)
	root.SetErr(e.Stderr)
	err = root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var list spec.ErrorList
	var usage usageError
	var failed failedError
	switch {
	case errors.As(err, &list) || errors.As(err, &usage):
		fmt.Fprintln(e.Stderr, plainMessage(err))
		return ExitUsage
	case errors.As(err, &failed):
		fmt.Fprintln(e.Stderr, "crosslink:", plainMessage(err))
		return ExitFailed
	case ctx.Err() != nil:
		fmt.Fprintln(e.Stderr, "crosslink:", plainMessage(err))
		return ExitInterrupted
	}
	fmt.Fprintln(e.Stderr, "crosslink:", plainMessage(err))
	return ExitFailed
}

// packagePrefix matches the "package: " prefixes Go errors gather as they
// are wrapped on their way up ("sweep: dataset: open ..."). They say where
// in the code an error was wrapped, which a user cannot act on; bugs keep
// theirs ("bug:" follows the package name).
var packagePrefix = regexp.MustCompile(`(^|\n|: |\()(?:(?:sweep|spec|plan|dataset|plots|report|slurm|models|engine|workload|netsim|phy|orbit|des|tcp|tclink|cc|units|specdoc|datadoc): )+([^b]|b[^u]|bu[^g]|$)`)

// plainMessage is err's text without package prefixes, and with the
// standard library's "context canceled" said plainly.
func plainMessage(err error) string {
	msg := packagePrefix.ReplaceAllString(err.Error(), "$1$2")
	msg = strings.ReplaceAll(msg, context.Canceled.Error(), "stopped by a signal")
	return strings.ReplaceAll(msg, context.DeadlineExceeded.Error(), "time limit reached")
}

func newRoot(reg *vocab.Registry, e *Env) *cobra.Command {
	root := &cobra.Command{
		Use:           "crosslink",
		Short:         "What the physical layer of satellite and optical links does to TCP",
		Long:          "crosslink expands YAML sweep specs into scenarios, runs them through its\nsimulation models, writes one Parquet row per scenario and draws figures.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       sweep.Version + " (" + dataset.ReadBuild().String() + ")",
		// Runnable with no arguments, so that an unknown subcommand is an
		// argument error (exit 2) rather than cobra's plain error.
		Args: unknownCommand,
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w\nrun '%s --help' for usage", err, c.CommandPath())}
	})
	root.AddCommand(
		runCmd(reg, e), expandCmd(reg, e), plotCmd(reg, e), figuresCmd(reg, e),
		modelsCmd(reg, e), describeCmd(reg, e), mergeCmd(e),
		slurmCmd(reg, e), statusCmd(reg, e),
		reportCmd(reg, e), docsCmd(reg, e), schemaCmd(reg, e), initCmd(reg, e),
	)
	registerCompletions(root, reg)
	return root
}

// unknownCommand is the root's argument check: any argument is a
// subcommand crosslink lacks, refused (exit 2) with the nearest one, by
// the same edit distance as every other name crosslink suggests.
func unknownCommand(c *cobra.Command, a []string) error {
	if len(a) == 0 {
		return nil
	}
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return usageError{fmt.Errorf("%s: unknown command %q%s\nrun '%s --help' for the commands", c.CommandPath(), a[0], sweep.Suggest(a[0], names), c.CommandPath())}
}

// args wraps a cobra argument check so its failure exits 2.
func args(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, a []string) error {
		if err := check(c, a); err != nil {
			return usageError{fmt.Errorf("%s: %w", c.CommandPath(), err)}
		}
		return nil
	}
}

// runFlags are the knobs shared by run and figures.
type runFlags struct {
	workers  int
	profile  string
	out      string
	failFast bool
	quiet    bool

	// Only run sets these (registerShard).
	shard       string        // "", "i/n" or "auto"
	shardCount  int           // shard count for --shard auto outside Slurm
	retryFailed bool          // rerun scenarios whose row is not ok
	timeout     time.Duration // per-scenario wall-clock limit
	maxEvents   uint64        // per-scenario simulated-event limit
	partitionBy []string      // hive-partition the dataset by these parameters
	cpuProfile  string        // write a CPU profile of the run to this file

	maxScenarios int // refuse specs that expand to more scenarios
}

// limits returns the spec limits the flags ask for.
func (f *runFlags) limits() spec.Limits { return spec.Limits{MaxScenarios: f.maxScenarios} }

// check validates the flags before any spec is read, so that a dry run
// never prints counts for a command that would fail.
func (f *runFlags) check(e *Env) (sweep.Shard, error) {
	switch {
	case f.workers < 0:
		return sweep.Shard{}, usageError{fmt.Errorf("--workers %d: want 0 (one per CPU) or more", f.workers)}
	case f.timeout < 0:
		return sweep.Shard{}, usageError{fmt.Errorf("--timeout %s: want 0 (none) or more", f.timeout)}
	case f.maxScenarios < 1 || f.maxScenarios > spec.ScenarioCeiling:
		return sweep.Shard{}, usageError{fmt.Errorf("--max-scenarios %d: want 1 to %d", f.maxScenarios, spec.ScenarioCeiling)}
	}
	if err := checkOutRoot(f.out); err != nil {
		return sweep.Shard{}, err
	}
	shard, err := f.shardOf(e)
	if err != nil {
		return sweep.Shard{}, usageError{err}
	}
	return shard, nil
}

// checkOutRoot refuses an output root that is a file, and an empty one:
// filepath.Join("", name) is name, so the datasets (and figures/) would
// land in the current directory among whatever is there.
func checkOutRoot(out string) error {
	if out == "" {
		return usageError{errors.New("-o '': the output root is empty, which would write into the current directory; name a directory (default out), or -o . for the current one")}
	}
	if fi, err := os.Stat(out); err == nil && !fi.IsDir() {
		return usageError{fmt.Errorf("-o %s: that is a file, not a directory; name the directory the datasets go in (it is made if missing)", out)}
	}
	return nil
}

// checkStdin refuses standard input named twice as a spec: the first
// reading takes all of it.
func checkStdin(paths []string) error {
	if n := slices.Index(paths, spec.Stdin); n >= 0 && slices.Contains(paths[n+1:], spec.Stdin) {
		return usageError{errors.New("- (standard input) is named twice: it holds one spec")}
	}
	return nil
}

// registerShard adds the flags of run that figures has no use for.
func (f *runFlags) registerShard(c *cobra.Command) {
	c.Flags().StringVar(&f.shard, "shard", "", "run share i/n of the scenarios (0-based), or auto: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX")
	c.Flags().IntVar(&f.shardCount, "shard-count", 0, "shard count for --shard auto in a Kubernetes Indexed Job (or set "+sweep.ShardCountEnv+")")
	c.Flags().BoolVar(&f.retryFailed, "retry-failed", false, "run again the scenarios whose row is failed, panic or timeout; the new row replaces the old")
	c.Flags().DurationVar(&f.timeout, "timeout", 0, "wall-clock limit of one scenario, e.g. 10m (status timeout); 0: none")
	c.Flags().Uint64Var(&f.maxEvents, "max-events", 0, "limit on the events the scheduler of one scenario runs (status timeout; the events column counts more, docs/cluster.md); 0: none")
	c.Flags().StringVar(&f.cpuProfile, "cpu-profile", "", "write a CPU profile of the run to this file, for go tool pprof")
	c.Flags().StringSliceVar(&f.partitionBy, "partition-by", nil, "split the dataset into hive partitions OUT/<spec>/<table>/<col>=<value>/... by these string, int or bool parameters, e.g. cca,orbit (a partitioned dataset keeps its layout on later runs)")
}

// shardOf resolves --shard.
func (f *runFlags) shardOf(e *Env) (sweep.Shard, error) {
	switch f.shard {
	case "":
		return sweep.Whole, nil
	case "auto":
		return sweep.AutoShard(e.Getenv, f.shardCount)
	}
	return sweep.ParseShard(f.shard)
}

func (f *runFlags) register(c *cobra.Command, defaultProfile string) {
	c.Flags().IntVarP(&f.workers, "workers", "j", 0, "scenarios run at once (default: GOMAXPROCS)")
	c.Flags().StringVarP(&f.profile, "profile", "p", defaultProfile, "spec profile to run (quick, full, ...)")
	c.Flags().StringVarP(&f.out, "out", "o", "out", "output root: datasets go to OUT/<spec>/")
	c.Flags().BoolVar(&f.failFast, "fail-fast", false, "stop at the first failing scenario")
	c.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "no progress or summary on stderr")
	c.Flags().IntVar(&f.maxScenarios, "max-scenarios", spec.MaxScenarios, "refuse a spec (or profile) that expands to more scenarios")
}

// runJobs runs each job's missing scenarios (sweep.RunJobs) and returns
// failedError if any scenario failed.
func runJobs(ctx context.Context, jobs []*sweep.Job, f *runFlags, e *Env) (err error) {
	shard, err := f.shardOf(e)
	if err != nil {
		return usageError{err}
	}
	if f.cpuProfile != "" {
		stop, err := startCPUProfile(f.cpuProfile)
		if err != nil {
			return usageError{err}
		}
		defer func() {
			if serr := stop(); serr != nil && err == nil {
				err = serr
			}
		}()
	}
	o := sweep.Options{
		Workers: f.workers, FailFast: f.failFast, Timeout: f.timeout, MaxEvents: f.maxEvents,
		Shard: shard, RetryFailed: f.retryFailed, PartitionBy: f.partitionBy, Warn: e.Stderr,
	}
	if !f.quiet {
		o.Progress, o.Terminal = e.Stderr, e.Terminal
	}
	failed, err := sweep.RunJobs(ctx, jobs, o)
	switch {
	case errors.Is(err, sweep.ErrOptions):
		return usageError{err}
	case err != nil:
		return err
	case failed > 0:
		return failedError{failed}
	}
	return nil
}

func runCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var f runFlags
	var dryRun bool
	c := &cobra.Command{
		Use:   "run SPEC...",
		Short: "Run the scenarios of specs that are not in their dataset yet",
		Long: "run expands each spec at the chosen profile and runs the scenarios whose rows are\n" +
			"missing from OUT/<spec>/, so an interrupted sweep resumes where it stopped.\n" +
			"A SPEC of - reads the spec from standard input.",
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, paths []string) error {
			shard, err := f.check(e)
			if err != nil {
				return err
			}
			if err := checkStdin(paths); err != nil {
				return err
			}
			lim := f.limits()
			lim.LazyRanges = dryRun // count without the values of long ranges
			lim.Stdin = e.Stdin
			jobs, err := sweep.LoadAllLimited(paths, reg, f.profile, false, f.out, lim)
			if err := withClaims(jobs, err); err != nil {
				return usageError{err}
			}
			if dryRun {
				return dryRunJobs(jobs, shard, f.partitionBy, e)
			}
			return runJobs(c.Context(), jobs, &f, e)
		},
	}
	f.register(c, "")
	f.registerShard(c)
	c.Flags().BoolVarP(&dryRun, "dry-run", "n", false, "validate and count, run nothing")
	return c
}

// dryRunJobs prints each job's scenario count and how many are missing
// from its dataset; with a shard, the shard's share of both. It refuses
// what the run would refuse: a shard or a partitioning that does not fit.
func dryRunJobs(jobs []*sweep.Job, shard sweep.Shard, partitionBy []string, e *Env) error {
	shards, err := sweep.TaskShards(jobs, shard)
	if err != nil {
		return usageError{err}
	}
	for i, j := range jobs {
		if !shards[i].Runs() {
			continue // this task runs none of it, and so refuses nothing of it
		}
		if _, _, err := sweep.Partitioning(j, partitionBy); err != nil {
			return usageError{err}
		}
	}
	for i, j := range jobs {
		if !shards[i].Runs() {
			fmt.Fprintf(e.Stdout, "%s: %d scenarios, none in shard %s, dataset %s\n", j.Spec.Name, j.Plan.Len(), shard, j.Dir)
			continue
		}
		n, missing, err := j.Counts(shards[i])
		switch {
		case errors.Is(err, sweep.ErrOptions):
			return usageError{err}
		case err != nil:
			return err
		}
		share := ""
		if shard != sweep.Whole {
			share = fmt.Sprintf(" in shard %s of %d", shards[i], j.Plan.Len())
		}
		fmt.Fprintf(e.Stdout, "%s: %d scenarios%s, %d to run, dataset %s\n", j.Spec.Name, n, share, missing, j.Dir)
	}
	return nil
}

func expandCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var profile string
	var limit, maxScenarios int
	var asJSON bool
	c := &cobra.Command{
		Use:   "expand SPEC",
		Short: "Print the scenario table of a spec and its count",
		Long:  "expand prints the scenario table of SPEC and its count; a SPEC of - reads the spec from standard input.",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, paths []string) error {
			if limit < 0 {
				return usageError{fmt.Errorf("--limit %d: want 0 (all) or more", limit)}
			}
			j, err := sweep.LoadLimited(paths[0], reg, profile, false, "out", spec.Limits{MaxScenarios: maxScenarios, Stdin: e.Stdin})
			if err == nil {
				err = withClaims([]*sweep.Job{j}, nil)
			}
			if err != nil {
				return usageError{err}
			}
			if asJSON {
				return expandJSON(e.Stdout, j, limit)
			}
			return expand(e.Stdout, j, limit)
		},
	}
	c.Flags().StringVarP(&profile, "profile", "p", "", "spec profile to expand")
	c.Flags().IntVar(&limit, "limit", 0, "print at most this many scenarios (0: all)")
	c.Flags().IntVar(&maxScenarios, "max-scenarios", spec.MaxScenarios, "refuse a spec (or profile) that expands to more scenarios")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON: the count and each scenario with all its parameters by column name, in SI units")
	return c
}

// plotFlags are shared by plot and figures.
type plotFlags struct {
	specs string
	look  lookFlags
}

// drawFigures draws the figures ids (all when empty) that jobs declare,
// from their datasets under out, in theme th.
func drawFigures(ctx context.Context, jobs []*sweep.Job, ids []string, out string, th plots.Theme) error {
	dir, err := figuresDir(out)
	if err != nil {
		return err
	}
	sources := make([]*plots.Source, len(jobs))
	for i, j := range jobs {
		sources[i] = plots.DatasetSource(j.Spec.Name, j.Dir, j.Plan.Schema(), plots.DefsOf(j.Spec.Plots), j.Plan)
	}
	reg := plots.NewRegistry()
	reg.Theme = th
	return plots.Draw(ctx, reg, dir, ids, sources)
}

// warnPartial notes on stderr each spec whose figures (those of ids, or
// all) plot is about to draw from a dataset that lacks some of the
// plan's scenarios: a sweep stopped early, or another profile's rows. The
// figures are drawn from the rows there are, which a reader of the figure
// would otherwise take for the whole sweep.
func warnPartial(jobs []*sweep.Job, ids []string, e *Env) {
	for _, j := range jobs {
		draws := false
		for _, p := range j.Spec.Plots {
			draws = draws || len(ids) == 0 || slices.Contains(ids, p.ID)
		}
		if !draws || !sweep.IsDataset(j.Dir) {
			continue
		}
		missing, err := j.Missing()
		if err != nil || missing == 0 {
			continue // a dataset that cannot be read fails in the drawing, with its error
		}
		of := fmt.Sprintf(" of the %d", j.Plan.Len())
		if j.Spec.Adaptive != nil {
			of = "" // the plan counts every replicate the rule may ask for
		}
		fmt.Fprintf(e.Stderr, "crosslink: %s: %d%s scenarios%s have no row in %s yet; its figures show the rest (crosslink status %s)\n",
			j.Spec.Name, missing, of, profileWords(j.Profile), j.Dir, j.Dir)
	}
}

// profileWords is " of profile P", or "" for the base spec.
func profileWords(p string) string {
	if p == "" {
		return ""
	}
	return " of profile " + p
}

// figuresDir returns OUT/figures, where plot, figures and report write,
// refusing it when it is a symbolic link: following it would write (and
// overwrite) files outside the output directory the user named, wherever
// the link points.
func figuresDir(out string) (string, error) {
	dir := filepath.Join(out, "figures")
	fi, err := os.Lstat(dir)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return dir, nil // absent (created later) or a real directory; other errors surface at the write
	}
	target, err := os.Readlink(dir)
	if err != nil {
		target = "?"
	}
	return "", usageError{fmt.Errorf("%s is a symbolic link (to %s) and figures are written only inside the output directory: "+
		"remove the link (rm %s) or pass --out with the directory the figures should go to", dir, target, dir)}
}

// loadDrawn loads the specs for plot and report: at profile when the
// user named one, else each at the profile its dataset holds (see
// sweep.LoadHeld), named on stderr so that nobody mistakes a quick
// preview for the full figure.
func loadDrawn(c *cobra.Command, paths []string, reg *vocab.Registry, profile, out string, e *Env) ([]*sweep.Job, error) {
	return loadFigures(c, paths, reg, profile, out, e, nil, "")
}

// loadFigures is loadDrawn for plot, which also refuses the figure ids
// that no spec of the specs directory declares.
func loadFigures(c *cobra.Command, paths []string, reg *vocab.Registry, profile, out string, e *Env, ids []string, specs string) ([]*sweep.Job, error) {
	if c.Flags().Changed("profile") {
		jobs, err := sweep.LoadAll(paths, reg, profile, true, out)
		if err := withClaims(jobs, err); err != nil {
			return nil, err
		}
		if err := sweep.SomeHas(jobs, profile); err != nil {
			return nil, err
		}
		return jobs, checkFigureIDs(ids, jobs, specs)
	}
	var jobs []*sweep.Job
	var errs []error
	held := map[string][]string{}
	names := map[string]string{}
	for _, p := range paths {
		j, n, err := sweep.LoadHeld(p, reg, out)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		// As sweep.LoadAll refuses them with -p.
		if prev, dup := names[j.Spec.Name]; dup {
			errs = append(errs, sweep.NameClash(prev, p, j.Spec.Name))
			continue
		}
		names[j.Spec.Name] = p
		jobs = append(jobs, j)
		if !declaresAny(j, ids) {
			continue // the profiles of the specs drawn, not of every spec
		}
		name := j.Profile
		if name == "" {
			name = "base"
		}
		if n == 0 {
			name += " (no data yet)"
		} else {
			name += " (as in the dataset)"
		}
		held[name] = append(held[name], j.Spec.Name)
	}
	if err := withClaims(jobs, errors.Join(errs...)); err != nil {
		return nil, err
	}
	if err := checkFigureIDs(ids, jobs, specs); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(held)) {
		fmt.Fprintf(e.Stderr, "profile %s: %s\n", name, strings.Join(held[name], " "))
	}
	return jobs, nil
}

// withClaims returns err, the error of the specs that did not load, joined
// with the mistakes plots.CheckClaims finds in the claims of jobs, the
// specs that did: a claim naming a column its figure's data lacks is a
// mistake in the spec, reported with every other before anything runs,
// not a claim the report would count as failing.
func withClaims(jobs []*sweep.Job, err error) error {
	errs := []error{err}
	figs := plots.NewRegistry()
	for _, j := range jobs {
		if list := figs.CheckClaims(j.Spec, j.Model.Schema()); len(list) > 0 {
			errs = append(errs, list)
		}
	}
	if len(errs) == 1 {
		return err
	}
	return errors.Join(errs...)
}

// specFiles lists the specs of the --specs directory dir, saying where it
// looked when dir is missing: run outside the repository, the default
// "specs" names nothing, and a bare "open specs" does not say that it is
// relative to the current directory nor which flag names another.
func specFiles(dir string) ([]string, error) {
	paths, err := sweep.SpecFiles(dir)
	if errors.Is(err, fs.ErrNotExist) {
		abs, aerr := filepath.Abs(dir)
		if aerr != nil {
			abs = dir
		}
		return nil, fmt.Errorf("no spec directory %s: --specs %s is relative to the current directory; run crosslink in the repository, or pass --specs with the directory of your specs", abs, dir)
	}
	return paths, err
}

// checkFigureIDs refuses the ids that no job declares, each with the
// declared ids nearest to it: those within a typing mistake, else those
// that contain it, else those of the same document (the prefix before the
// first "-"), never the whole list of every figure.
func checkFigureIDs(ids []string, jobs []*sweep.Job, specs string) error {
	declared := map[string]bool{}
	for _, j := range jobs {
		for _, p := range j.Spec.Plots {
			declared[p.ID] = true
		}
	}
	all := slices.Sorted(maps.Keys(declared))
	var errs []error
	for _, id := range ids {
		if !declared[id] {
			errs = append(errs, fmt.Errorf("plot: no spec in %s declares figure %q%s", specs, id, nearestIDs(id, all)))
		}
	}
	return errors.Join(errs...)
}

// declaresAny reports whether job j declares one of the figures ids, or
// ids is empty (every figure is drawn).
func declaresAny(j *sweep.Job, ids []string) bool {
	if len(ids) == 0 {
		return true
	}
	for _, p := range j.Spec.Plots {
		if slices.Contains(ids, p.ID) {
			return true
		}
	}
	return false
}

// nearestIDs says which of ids are nearest to id, for checkFigureIDs.
func nearestIDs(id string, ids []string) string {
	var near []string
	rest := slices.Clone(ids)
	for len(near) < 3 {
		n := units.Nearest(id, rest)
		if n == "" {
			break
		}
		near = append(near, n)
		rest = slices.DeleteFunc(rest, func(s string) bool { return s == n })
	}
	if len(near) == 0 && id != "" { // "fig6" for rc13-fig6
		for _, s := range ids {
			if strings.Contains(s, id) {
				near = append(near, s)
			}
		}
	}
	if len(near) == 0 {
		doc, _, _ := strings.Cut(id, "-")
		for _, s := range ids {
			if strings.HasPrefix(s, doc+"-") {
				near = append(near, s)
			}
		}
	}
	if len(near) == 0 {
		return fmt.Sprintf(" (none of the %d declared is close; crosslink plot with no figure draws them all)", len(ids))
	}
	return fmt.Sprintf("; did you mean %s?", quoteList(near))
}

// quoteList is `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
func quoteList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

func plotCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var pf plotFlags
	var profile, out string
	c := &cobra.Command{
		Use:   "plot [FIGURE...]",
		Short: "Draw figures from the datasets already in OUT (all when none is named)",
		Long: "plot draws the figures the specs in --specs declare from the datasets in OUT. Each spec is\n" +
			"drawn at the profile its dataset holds (what run or figures made), unless --profile names one.",
		RunE: func(c *cobra.Command, ids []string) error {
			th, err := pf.look.theme()
			if err != nil {
				return usageError{err}
			}
			if err := checkOutRoot(out); err != nil {
				return err
			}
			paths, err := specFiles(pf.specs)
			if err != nil {
				return usageError{err}
			}
			jobs, err := loadFigures(c, paths, reg, profile, out, e, ids, pf.specs)
			if err != nil {
				return usageError{err}
			}
			warnPartial(jobs, ids, e)
			if err := drawFigures(c.Context(), jobs, ids, out, th); err != nil {
				return err
			}
			fmt.Fprintf(e.Stderr, "figures written to %s\n", filepath.Join(out, "figures"))
			return nil
		},
	}
	c.Flags().StringVar(&pf.specs, "specs", "specs", "directory of the specs that declare the figures")
	c.Flags().StringVarP(&profile, "profile", "p", "", "profile whose scenarios are drawn (specs without it: their base); default: the one each dataset holds")
	c.Flags().StringVarP(&out, "out", "o", "out", "output root: datasets in OUT/<spec>/, figures in OUT/figures/")
	pf.look.register(c)
	return c
}

func figuresCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var f runFlags
	var pf plotFlags
	c := &cobra.Command{
		Use:   "figures",
		Short: "Run every spec in SPECS that is missing data, then draw every figure",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if _, err := f.check(e); err != nil {
				return err
			}
			th, err := pf.look.theme() // before hours of running, not after
			if err != nil {
				return usageError{err}
			}
			if _, err := figuresDir(f.out); err != nil { // before hours of running, not after
				return err
			}
			paths, err := specFiles(pf.specs)
			if err != nil {
				return usageError{err}
			}
			jobs, err := sweep.LoadAllLimited(paths, reg, f.profile, true, f.out, f.limits())
			if err := withClaims(jobs, err); err != nil {
				return usageError{err}
			}
			if c.Flags().Changed("profile") {
				if err := sweep.SomeHas(jobs, f.profile); err != nil {
					return usageError{err}
				}
			}
			runErr := runJobs(c.Context(), jobs, &f, e)
			var failed failedError
			if runErr != nil && !errors.As(runErr, &failed) {
				return runErr
			}
			if err := drawFigures(c.Context(), jobs, nil, f.out, th); err != nil {
				return err
			}
			if !f.quiet {
				fmt.Fprintf(e.Stderr, "figures written to %s\n", filepath.Join(f.out, "figures"))
			}
			return runErr
		},
	}
	f.register(c, "quick")
	c.Flags().StringVar(&pf.specs, "specs", "specs", "directory of specs to run and draw")
	pf.look.register(c)
	return c
}

func modelsCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "models",
		Short: "List the models specs can use",
		Args:  args(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				return listModelsJSON(e.Stdout, reg)
			}
			return listModels(e.Stdout, reg)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of {name, version, summary}")
	return c
}

func describeCmd(reg *vocab.Registry, e *Env) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "describe MODEL",
		Short: "Show a model's parameters (type, unit, default, range) and metrics",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, a []string) error {
			m, ok := reg.Lookup(a[0])
			if !ok {
				return usageError{fmt.Errorf("describe: no model %q%s (crosslink models lists them)", a[0], sweep.Suggest(a[0], reg.Names()))}
			}
			if asJSON {
				return describeJSON(e.Stdout, m.Schema())
			}
			return describe(e.Stdout, m.Schema())
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON: parameters (column, type, unit, default, range, choices), metrics and second tables, values in SI units")
	return c
}

func mergeCmd(e *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "merge DIR",
		Short: "Compact a dataset's part files into one, rows unchanged",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, a []string) error {
			if err := dataset.Holds(a[0]); err != nil {
				return usageError{err} // the wrong directory: no dataset, or a table of one
			}
			if err := sweep.Merge(a[0]); err != nil {
				return err
			}
			fmt.Fprintf(e.Stderr, "merged %s\n", a[0])
			return nil
		},
	}
}
