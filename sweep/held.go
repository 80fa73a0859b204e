package sweep

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// LoadHeld loads the spec at path at the profile its dataset in out
// holds: of the base spec and its profiles, the one with the most
// scenarios in the dataset, and of those the smallest plan (a quick run
// inside a full spec is quick, not an incomplete full), and of profiles
// that are alike (quick: {}) the one the parts record. With no dataset,
// or none of its scenarios, it is the base spec. So `plot` draws what
// `run` made, whichever profile that was.
//
// held is the number of the job's scenarios the dataset holds.
func LoadHeld(path string, reg *vocab.Registry, out string) (j *Job, held int, err error) {
	s, err := spec.ParseFile(path, reg)
	if err != nil {
		return nil, 0, err
	}
	dir := filepath.Join(out, s.Name)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		j, err := Load(path, reg, "", false, out)
		return j, 0, err
	}
	done, err := dataset.ReadIDs(dir)
	if err != nil {
		return nil, 0, err
	}
	// The profile the parts record is tried first, so that it wins a tie.
	names := append([]string{""}, profileNames(s)...)
	if meta, err := dataset.ReadMeta(dir); err == nil {
		if k := slices.Index(names, meta[dataset.KeyProfile]); k > 0 {
			names = slices.Concat(names[k:k+1], names[:k], names[k+1:])
		}
	}
	var best *Job
	bestHeld := -1
	for _, name := range names {
		j, err := Load(path, reg, name, false, out)
		if err != nil {
			return nil, 0, err
		}
		held := 0
		for i := range j.Plan.Len() {
			if _, ok := done.Status(j.Plan.At(i).ID); ok {
				held++
			}
		}
		if held > bestHeld || (held == bestHeld && j.Plan.Len() < best.Plan.Len()) {
			best, bestHeld = j, held
		}
	}
	if bestHeld == 0 { // nothing of any profile: as with no dataset
		j, err := Load(path, reg, "", false, out)
		return j, 0, err
	}
	return best, bestHeld, nil
}

func profileNames(s *spec.Spec) []string {
	names := make([]string, len(s.Profiles))
	for i, p := range s.Profiles {
		names[i] = p.Name
	}
	return names
}
