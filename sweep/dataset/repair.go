package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// CorruptDir is the directory, inside a dataset, where Repair moves part
// files it cannot read. Its files end in .corrupt, so no reader that globs
// *.parquet picks them up, and Merge skips the directory.
const CorruptDir = "_corrupt"

// Moved is a part file that Repair moved aside.
type Moved struct {
	Path   string // where it was
	To     string // where it is now
	Reason string // why it could not be read
}

// Repair checks every part of the dataset in dir before a resume and
// returns the ids and statuses in the parts that read back. A main part
// that cannot be opened (a truncated file has no footer) or whose
// scenario_id and status columns do not decode is moved to
// dir/_corrupt/, with the second-table parts of the same name (they belong
// to it), so its scenarios are missing and run again. A second-table part
// that cannot be opened takes its main part with it for the same reason.
// The parts written by a Writer are whole (temporary file, fsync, rename),
// so these are files damaged afterwards: a disk error, a bad copy, an
// editor.
//
// In a partitioned dataset each partition is repaired on its own: its
// parts move to <partition>/_corrupt/.
func Repair(dir string) (*Done, []Moved, error) {
	leaves, err := Partitions(dir)
	if err != nil {
		return nil, nil, err
	}
	d := NewDone()
	var moved []Moved
	for _, l := range leaves {
		ld, lm, err := repairLeaf(l)
		moved = append(moved, lm...)
		if err != nil {
			return nil, moved, err
		}
		d.merge(ld)
	}
	return d, moved, nil
}

// repairLeaf is Repair of the parts directly in dir.
func repairLeaf(dir string) (*Done, []Moved, error) {
	paths, err := ownParts(dir)
	if err != nil {
		return nil, nil, err
	}
	tables, err := tableDirs(dir)
	if err != nil {
		return nil, nil, err
	}
	bad := map[string]string{} // main part name -> reason
	for _, t := range tables {
		tparts, err := ownParts(filepath.Join(dir, t))
		if err != nil {
			return nil, nil, err
		}
		for _, p := range tparts {
			if err := openCheck(p); err != nil {
				name := filepath.Base(p)
				if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
					bad[name] = fmt.Sprintf("its %s part is unreadable: %v", t, err)
				} else {
					// No main part: an orphan the next Writer of its shard
					// removes anyway; move it so it is not read meanwhile.
					bad[filepath.Join(t, name)] = err.Error()
				}
			}
		}
	}
	d := NewDone()
	for _, p := range paths {
		name := filepath.Base(p)
		if _, ok := bad[name]; ok {
			continue
		}
		part := NewDone()
		if err := readIDs(p, part); err != nil {
			bad[name] = err.Error()
			continue
		}
		d.merge(part)
	}
	names := make([]string, 0, len(bad))
	for name := range bad {
		names = append(names, name)
	}
	sort.Strings(names)
	var moved []Moved
	for _, name := range names {
		reason := bad[name]
		group := []string{name}
		if !strings.Contains(name, string(filepath.Separator)) {
			for _, t := range tables {
				group = append([]string{filepath.Join(t, name)}, group...)
			}
		}
		// Second-table parts first, the main part last: a crash in
		// between leaves the main part, which the next Repair moves.
		for _, rel := range group {
			from := filepath.Join(dir, rel)
			if _, err := os.Stat(from); errors.Is(err, os.ErrNotExist) {
				continue
			}
			to, err := moveAside(dir, rel)
			if err != nil {
				return nil, moved, err
			}
			moved = append(moved, Moved{Path: from, To: to, Reason: reason})
		}
	}
	return d, moved, nil
}

// merge adds the ids of o to d (ok wins, as in Add).
func (d *Done) merge(o *Done) {
	for k, st := range o.hex {
		if d.hex[k] != OK {
			d.hex[k] = st
		}
	}
	for k, st := range o.other {
		if d.other[k] != OK {
			d.other[k] = st
		}
	}
}

// openCheck opens a part and reads its footer.
func openCheck(path string) error {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return err
	}
	return rdr.Close()
}

// tableDirs returns the second-table directories of a dataset (see
// TableDir), by directory name.
func tableDirs(dir string) ([]string, error) {
	ents, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() && e.Name() != CorruptDir && e.Name() != StaleDir && e.Name() != tablePrefix+PointsTable && strings.HasPrefix(e.Name(), tablePrefix) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// moveAside renames dir/rel to dir/_corrupt/rel.corrupt, numbering it if a
// file of that name is there already.
func moveAside(dir, rel string) (string, error) {
	return moveInto(dir, CorruptDir, rel, ".corrupt")
}

// moveInto renames dir/rel to dir/sub/rel+suffix, numbering it if a file
// of that name is there already.
func moveInto(dir, sub, rel, suffix string) (string, error) {
	to := filepath.Join(dir, sub, rel+suffix)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return "", fmt.Errorf("dataset: moving a part aside: %w", err)
	}
	base := to
	for n := 2; ; n++ {
		if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
			break
		}
		to = fmt.Sprintf("%s.%d", base, n)
	}
	if err := os.Rename(filepath.Join(dir, rel), to); err != nil {
		return "", fmt.Errorf("dataset: moving a part aside: %w", err)
	}
	if err := syncDir(filepath.Dir(filepath.Join(dir, rel))); err != nil {
		return "", err
	}
	return to, nil
}
