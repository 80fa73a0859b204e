package sweep

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Report is where a job's dataset stands against its plan.
type Report struct {
	Spec    string
	Profile string
	Dir     string
	Total   int                    // scenarios in the plan
	OK      int                    // with an ok row
	Failed  map[dataset.Status]int // with a row that is not ok, by status
	Missing int                    // with no row
	Extra   int                    // ids in the dataset that the plan lacks (another profile)
	// OtherProfiles lists the profiles other parts of the dataset were
	// written at ("" for the base spec), when there are rows of no
	// scenario of this profile: a quick run's dataset that a full run
	// then added to holds both.
	OtherProfiles []string
	// SpecFile is the path of the spec file the report was asked for,
	// "" for a dataset directory (whose parts record the spec's text,
	// not its path): the rerun commands name it.
	SpecFile string
	// Writer names the unsharded run (or merge) writing the dataset now
	// (Writer), "" when none is.
	Writer string
	// Repeated counts the superseded rows still on disk (a --retry-failed
	// run cut short, or still running): crosslink's readers skip them,
	// other readers see them beside the rows that replace them.
	Repeated int
	Corrupt  []string         // parts moved aside to _corrupt/
	Damaged  []dataset.Damage // parts failing verification, files that are no part
	// Leftovers are the temporary files a killed run or merge left in the
	// dataset (dataset.Leftovers): no table lists them, so the dataset can
	// still be complete, and the next run or merge removes them.
	Leftovers []string
	Shards    int // the shard count Incomplete is for; 0 when unsharded
	// Incomplete lists the shards with missing or failed scenarios.
	Incomplete []ShardReport
	// Points is how far the points table is, for a job with adaptive
	// replicates (nil otherwise): each shard writes its part when its
	// last round ends, so its scenarios can all be there without it.
	Points *dataset.PointsSplit
	// Refused says why crosslink run refuses this dataset for the spec
	// (another spec's rows, rows drawn with another seed: checkOwner);
	// "" when it does not. Rows counted done above are then not the
	// spec's results.
	Refused string
}

// ShardReport is one shard that is not done.
type ShardReport struct {
	Shard   Shard
	Missing int
	Failed  int
	// Writer names the run writing the shard now (Writer), "" when none
	// is: a shard still running needs no rerun.
	Writer string
}

// Complete reports whether every scenario has an ok row, every file of
// the dataset verifies and, with adaptive replicates, the points table
// holds one whole split.
func (r *Report) Complete() bool {
	return r.OK == r.Total && len(r.Damaged) == 0 && (r.Points == nil || r.Points.Complete()) && r.Refused == ""
}

// Check compares the job's dataset with its plan. shards is the shard count
// to report incomplete shards for; 0 takes it from the part file names
// (the largest count there), and no shards are reported when the parts
// are unsharded. Every part is verified against the dataset's manifest
// (its SHA-256); deep also decodes every page (dataset.Verify).
func Check(j *Job, shards int, deep bool) (*Report, error) {
	if dataset.NeedsMigration(j.Dir) {
		return nil, fmt.Errorf("%s is in the former dataset layout (parts beside the lock file): crosslink run or crosslink merge moves it into the present one", j.Dir)
	}
	damaged, err := dataset.Verify(j.Dir, deep, nil)
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, d := range damaged {
		skip[d.Path] = true
	}
	done, err := dataset.ReadIDsExcept(j.Dir, skip)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w (crosslink run moves unreadable parts aside and reruns their scenarios)", err)
	}
	// An adaptive job asks for the scenarios its rule wants given the rows
	// so far; the maximum count would call most of them missing.
	var want plan.Source = j.Plan
	if j.Spec.Adaptive != nil {
		if want, err = AdaptiveScenarios(j); err != nil {
			return nil, fmt.Errorf("sweep: %w", err)
		}
	}
	r := &Report{Spec: j.Spec.Name, Profile: j.Profile, Dir: j.Dir, Total: want.Len(), Failed: map[dataset.Status]int{}, Damaged: damaged}
	if r.Corrupt, err = corruptParts(j.Dir); err != nil {
		return nil, err
	}
	if r.Leftovers, err = dataset.Leftovers(j.Dir); err != nil {
		return nil, err
	}
	if err := checkOwner(j); err != nil {
		var refused *ownerError
		if !errors.As(err, &refused) {
			return nil, err
		}
		r.Refused = refused.msg
	}
	if j.Spec.Adaptive != nil {
		p, err := dataset.PointsState(j.Dir, j.Profile)
		if err != nil {
			return nil, err
		}
		r.Points = &p
	}
	seen := 0
	for i := range want.Len() {
		st, ok := done.Status(want.At(i).ID)
		switch {
		case !ok:
			r.Missing++
		case st == dataset.OK:
			r.OK++
			seen++
		default:
			r.Failed[st]++
			seen++
		}
	}
	r.Extra = done.Len() - seen
	if r.Extra > 0 {
		profiles, err := dataset.Profiles(j.Dir)
		if err != nil {
			return nil, err
		}
		r.OtherProfiles = slices.DeleteFunc(profiles, func(p string) bool { return p == j.Profile })
	}
	r.Repeated = done.Repeated()
	r.Writer = Writer(j.Dir, Shard{})
	if shards == 0 {
		shards, err = shardCount(j.Dir)
		if err != nil {
			return nil, err
		}
	}
	if shards > 1 && j.Spec.Adaptive == nil {
		r.Shards = shards
		for i := range shards {
			sh := Shard{i, shards}
			src, err := Of(j.Plan, j.Model, sh)
			if err != nil {
				return nil, err
			}
			sr := ShardReport{Shard: sh}
			for k := range src.Len() {
				st, ok := done.Status(src.At(k).ID)
				switch {
				case !ok:
					sr.Missing++
				case st != dataset.OK:
					sr.Failed++
				}
			}
			if sr.Missing+sr.Failed > 0 {
				sr.Writer = Writer(j.Dir, sh)
				r.Incomplete = append(r.Incomplete, sr)
			}
		}
	}
	return r, nil
}

// corruptParts returns the files Repair moved aside to dir/_corrupt/.
func corruptParts(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(filepath.Join(dir, dataset.CorruptDir), func(p string, e os.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if !e.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// shardCount returns the largest shard count among the part names of dir.
func shardCount(dir string) (int, error) {
	paths, err := dataset.Parts(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range paths {
		if _, c, ok := dataset.PartShard(filepath.Base(p)); ok {
			n = max(n, c)
		}
	}
	return n, nil
}

// LoadDir loads the job that wrote the dataset in dir, from the spec text
// and profile its parts record.
func LoadDir(dir string, reg *vocab.Registry) (*Job, error) {
	return loadDir(dir, reg, nil)
}

// LoadDirAt loads the spec the dataset in dir records at profile, which
// may differ from the profile its parts were written at; a profile the
// spec lacks is an error, as in Load.
func LoadDirAt(dir string, reg *vocab.Registry, profile string) (*Job, error) {
	return loadDir(dir, reg, &profile)
}

// loadDir is LoadDir at profile, or at the recorded profile when profile
// is nil.
func loadDir(dir string, reg *vocab.Registry, at *string) (*Job, error) {
	meta, err := dataset.ReadMeta(dir)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	text, ok := meta[dataset.KeySpec]
	if !ok {
		return nil, fmt.Errorf("sweep: %s records no spec", dir)
	}
	s, err := spec.ParseLimited(filepath.Join(dir, recordedSpec), []byte(text), reg, spec.Limits{Recorded: true})
	if err != nil {
		return nil, err
	}
	profile := meta[dataset.KeyProfile]
	if at != nil {
		profile = *at
	}
	r, err := s.Resolve(profile)
	if err != nil {
		return nil, err
	}
	m, ok := reg.Lookup(r.Model)
	if !ok {
		return nil, fmt.Errorf("sweep: bug: model %q vanished from the registry", r.Model)
	}
	p, err := plan.New(r, m)
	if err != nil {
		return nil, err
	}
	return &Job{Spec: r, Profile: profile, Model: m, Plan: p, Dir: dir}, nil
}

// IsDataset reports whether dir holds a dataset: a main table, a lock
// file of a run, or parts in the former layout.
func IsDataset(dir string) bool {
	for _, n := range []string{dataset.MainTable, lockName, dataset.ManifestDir} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return dataset.NeedsMigration(dir)
}

// IsDir reports whether path is a directory (a dataset rather than a spec).
func IsDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
