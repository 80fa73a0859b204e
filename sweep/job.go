package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Job is one spec resolved at one profile and expanded: everything needed
// to run its scenarios or to draw its figures.
type Job struct {
	Spec    *spec.Spec // resolved at Profile
	Profile string     // "" for the base spec
	Model   vocab.Model
	Plan    *plan.Plan
	Dir     string // <out>/<spec name>: the dataset
}

// Load parses the spec file at path, resolves it at profile and expands
// its grid. With optional set, a spec that does not define the profile is
// taken at its base values (so `figures --profile quick` can cover specs
// that need no quick variant); otherwise that is an error. Spec mistakes
// come back as a spec.ErrorList.
func Load(path string, reg *vocab.Registry, profile string, optional bool, out string) (*Job, error) {
	return LoadLimited(path, reg, profile, optional, out, spec.Limits{})
}

// LoadLimited is Load with the spec read within lim (size, depth and
// scenario count).
func LoadLimited(path string, reg *vocab.Registry, profile string, optional bool, out string, lim spec.Limits) (*Job, error) {
	s, err := spec.ParseFileLimited(path, reg, lim)
	if err != nil {
		return nil, err
	}
	if optional && !hasProfile(s, profile) {
		profile = ""
	}
	r, err := s.Resolve(profile)
	if err != nil {
		return nil, err
	}
	m, ok := reg.Lookup(r.Model)
	if !ok { // Parse checked the model; a registry mismatch is a bug.
		return nil, fmt.Errorf("sweep: bug: model %q of %s vanished from the registry", r.Model, path)
	}
	if err := spec.CheckExclusive(r, m.Schema()); err != nil {
		return nil, err
	}
	p, err := plan.New(r, m)
	if err != nil {
		return nil, err
	}
	if err := spec.CheckMemory(r, m, p.Points(), func(i int) vocab.Params { return p.At(i).Params }, machineMemory()); err != nil {
		return nil, err
	}
	return &Job{Spec: r, Profile: profile, Model: m, Plan: p, Dir: filepath.Join(out, r.Name)}, nil
}

// LoadAll loads every spec in paths and returns the jobs in the given
// order, or every error of every spec at once.
func LoadAll(paths []string, reg *vocab.Registry, profile string, optional bool, out string) ([]*Job, error) {
	return LoadAllLimited(paths, reg, profile, optional, out, spec.Limits{})
}

// LoadAllLimited is LoadAll with each spec read within lim.
func LoadAllLimited(paths []string, reg *vocab.Registry, profile string, optional bool, out string, lim spec.Limits) ([]*Job, error) {
	var jobs []*Job
	var errs []error
	names := map[string]string{}
	for _, path := range paths {
		j, err := LoadLimited(path, reg, profile, optional, out, lim)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := names[j.Spec.Name]; dup {
			errs = append(errs, NameClash(prev, path, j.Spec.Name))
			continue
		}
		names[j.Spec.Name] = path
		jobs = append(jobs, j)
	}
	return jobs, errors.Join(errs...)
}

// NameClash is the error of two spec files, prev and path, both called
// name: their rows would go to one dataset.
func NameClash(prev, path, name string) error {
	return fmt.Errorf("sweep: %s and %s are both called %q and would write the same dataset; rename one", prev, path, name)
}

// SomeHas refuses a profile that the user named (-p) for specs loaded
// with it optional (figures, plot, report) when no spec of jobs defines
// it: each spec would quietly run or draw its base settings, a typo (-p
// quik) turning a quick preview into the hours of the base profile. A
// default profile is not checked: specs without profiles take their base
// settings, as documented.
func SomeHas(jobs []*Job, profile string) error {
	if profile == "" || len(jobs) == 0 {
		return nil
	}
	var known []string
	for _, j := range jobs {
		if j.Profile == profile {
			return nil
		}
		for _, p := range j.Spec.Profiles {
			if !slices.Contains(known, p.Name) {
				known = append(known, p.Name)
			}
		}
	}
	if len(known) == 0 {
		return fmt.Errorf("sweep: profile %q: none of the %d specs has profiles; leave out -p", profile, len(jobs))
	}
	return fmt.Errorf("sweep: profile %q: none of the %d specs has it%s (their profiles: %s)", profile, len(jobs), Suggest(profile, known), strings.Join(known, ", "))
}

// checkOwner refuses to run j into a dataset that holds the rows of
// another spec of the same name (two spec files both called "x", run
// into one out/x): their rows would share one table, and the status of
// either would count only its own rows and call the dataset complete.
// The parts record the spec text that wrote them. A text other than j's
// is an earlier version of j's spec when some of its rows are scenarios
// of j at one of its profiles (an axis value added or dropped reruns only
// what changed, and a quick run beside a full one shares the dataset);
// when none is, it is another spec. Rows of another version of j's model
// are left out: their ids hash that version, so none can be a scenario of
// j whoever wrote them, and the run sets their parts aside before it
// writes (dataset.SetAside), so they never share the table. Refusing them
// would refuse every spec edited in the release that bumped its model.
func checkOwner(j *Job) error {
	groups, err := dataset.BySpec(j.Dir)
	if err != nil || len(groups) == 0 {
		return err
	}
	h := sha256.Sum256(j.Spec.Text)
	ours := hex.EncodeToString(h[:])
	schema := j.Model.Schema()
	var plans []plan.Source
	for _, g := range groups {
		if g.SHA256 == ours || g.Model == schema.Name && g.Version != schema.Version {
			continue
		}
		// One pass over the group's ids and seeds. A part that does not
		// read is left to Repair, which sets it aside; the others are
		// judged all the same, so that one damaged part cannot let rows
		// of another spec or seed through.
		done := dataset.NewDone()
		otherSeed := 0
		for _, part := range g.Parts {
			_ = dataset.SeedsOf(part, func(id string, seed uint64) {
				done.Add(id, dataset.OK)
				if seed != plan.Seed(j.Spec.Seed, id) {
					otherSeed++
				}
			})
		}
		if done.Len() == 0 {
			continue
		}
		if plans == nil {
			if plans, err = profilePlans(j); err != nil {
				return err
			}
		}
		if !sharesScenario(plans, done) {
			return &ownerError{fmt.Sprintf("%s holds %d rows of another spec named %q%s (recorded in %s), none of them a scenario of %s at any profile: give one of the two specs another name, or write this one under another output root (--out); if %s is that spec rewritten, move %s away first",
				j.Dir, done.Len(), g.Name, describedAs(g.Spec), g.Parts[0], specFileOf(j), specFileOf(j), j.Dir)}
		}
		if otherSeed > 0 {
			// An earlier text of j's spec, drawn with another spec seed:
			// a scenario's id leaves the seed out, so the run would skip
			// them as done and keep the old draws under the new seed.
			return &ownerError{fmt.Sprintf("%s holds %d rows drawn with %s (recorded in %s), and %s has seed %d: a run would keep them as its scenarios' results; move %s away, or write under another output root (--out), to draw them with seed %d",
				j.Dir, otherSeed, recordedSeed(g.Spec, j.Spec.Seed), g.Parts[0], specFileOf(j), j.Spec.Seed, j.Dir, j.Spec.Seed)}
		}
	}
	return nil
}

// recordedSpec is the file name a job loaded from its dataset's own
// record (LoadDir, status DIR) gives its spec: the spec has no file.
const recordedSpec = "(spec recorded in the dataset)"

// specFileOf names j's spec in a message: its file, or for a job loaded
// from its dataset, the spec the dataset's last run recorded.
func specFileOf(j *Job) string {
	if filepath.Base(j.Spec.File) == recordedSpec {
		return "the spec of its last run"
	}
	return j.Spec.File
}

// ownerError is checkOwner's refusal of a dataset that holds rows a run
// of the job must not take as its own; status reports it, other errors
// it returns.
type ownerError struct{ msg string }

func (e *ownerError) Error() string { return "sweep: " + e.msg }

// recordedSeed names the spec seed a recorded spec text gives, for a
// message about rows of another seed than now: "another spec seed" when
// the text says the present one (a merge records the latest text for
// all its rows) or cannot be read.
func recordedSeed(text string, now uint64) string {
	var rec struct {
		Seed *uint64 `yaml:"seed"`
	}
	if yaml.Unmarshal([]byte(text), &rec) != nil {
		return "another spec seed"
	}
	switch {
	case rec.Seed == nil && now != spec.DefaultSeed:
		return "the default spec seed"
	case rec.Seed != nil && *rec.Seed != now:
		return "spec seed " + strconv.FormatUint(*rec.Seed, 10)
	}
	return "another spec seed"
}

// profilePlans returns the plans of j's spec at its base and every
// profile, parsed again from its text (j.Spec is resolved at one).
func profilePlans(j *Job) ([]plan.Source, error) {
	reg, err := vocab.NewRegistry(j.Model)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	// The text parsed as it was run: a dataset's recorded spec too.
	s, err := spec.ParseLimited(j.Spec.File, j.Spec.Text, reg, spec.Limits{Recorded: true})
	if err != nil {
		return []plan.Source{j.Plan}, nil // a job built from no file: its own plan
	}
	out := []plan.Source{j.Plan}
	for _, name := range append([]string{""}, profileNames(s)...) {
		r, err := s.Resolve(name)
		if err != nil {
			return nil, err
		}
		p, err := plan.New(r, j.Model)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// sharesScenario reports whether done holds a scenario of one of plans.
func sharesScenario(plans []plan.Source, done *dataset.Done) bool {
	for _, p := range plans {
		for i := range p.Len() {
			if _, ok := done.Status(p.At(i).ID); ok {
				return true
			}
		}
	}
	return false
}

// describedAs returns ` (description "...")` for the spec text, or "".
func describedAs(text string) string {
	var s struct {
		Description string `yaml:"description"`
	}
	if yaml.Unmarshal([]byte(text), &s) != nil || s.Description == "" {
		return ""
	}
	d := strings.TrimSpace(s.Description)
	if line, _, cut := strings.Cut(d, "\n"); cut {
		d = line + " ..."
	}
	return fmt.Sprintf(" (description %q)", d)
}

// SpecFiles returns the *.yaml and *.yml files of dir in sorted order.
func SpecFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	var paths []string
	for _, e := range entries {
		if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, fmt.Errorf("sweep: no *.yaml specs in %s", dir)
	}
	return paths, nil
}

// Config returns the run configuration of the job; the caller adds
// workers, progress and the other knobs.
func (j *Job) Config() Config {
	return Config{
		Model:  j.Model,
		Source: j.Plan,
		Dir:    j.Dir,
		Meta: dataset.Meta{
			SpecName: j.Spec.Name,
			Spec:     string(j.Spec.Text),
			Profile:  j.Profile,
		},
	}
}

// Missing returns how many of the job's scenarios have no row in its
// dataset yet (0 when the dataset is complete). For an adaptive job these
// are the scenarios of the rounds the rows so far call for (see
// AdaptiveScenarios); later rounds may add more.
func (j *Job) Missing() (int, error) { return j.MissingOf(j.Plan) }

// MissingOf is Missing for the scenarios of src, a share of the job's plan
// (see Of); an adaptive job counts its whole plan.
func (j *Job) MissingOf(src plan.Source) (int, error) {
	if _, err := os.Stat(j.Dir); errors.Is(err, fs.ErrNotExist) && j.Spec.Adaptive == nil {
		return src.Len(), nil // no dataset: everything is missing, and nothing to read
	}
	done, err := dataset.ReadIDs(j.Dir)
	if err != nil {
		return 0, err
	}
	want := src
	if j.Spec.Adaptive != nil {
		if want, err = AdaptiveScenarios(j); err != nil {
			return 0, err
		}
	}
	n := 0
	for i := range want.Len() {
		if _, ok := done.Status(want.At(i).ID); !ok {
			n++
		}
	}
	return n, nil
}

// ShardCounts returns how many scenarios of the job shard s gets and how
// many of those have no row in its dataset yet: Of's length and
// MissingOf's count. Before the job has a dataset both are the shard's
// size, counted without building the shard (see ShardLen). Not for an
// adaptive job, which is sharded by points.
func (j *Job) ShardCounts(s Shard) (n, missing int, err error) {
	if _, err := os.Stat(j.Dir); errors.Is(err, fs.ErrNotExist) {
		n, err := ShardLen(j.Plan, j.Model, s)
		return n, n, err
	}
	src, err := Of(j.Plan, j.Model, s)
	if err != nil {
		return 0, 0, err
	}
	missing, err = j.MissingOf(src)
	return src.Len(), missing, err
}

func hasProfile(s *spec.Spec, name string) bool {
	if name == "" {
		return true
	}
	for _, p := range s.Profiles {
		if p.Name == name {
			return true
		}
	}
	return false
}
