package dataset

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"
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
	Reason string // why it, or With, could not be read
	// Copy is the part (relative to the dataset) whose rows a part moved
	// as a copy repeats; "" for a part moved as unreadable.
	Copy string
	// With is the damaged part (its path as it was) that a healthy part
	// of its group went aside with; "" for the damaged part itself.
	With string
	// Stray: not a part file at all (a file a user left in a table's
	// directory), so no scenario of it runs again.
	Stray bool
}

// Repair checks every part of the dataset in dir before a resume and
// returns the ids and statuses in the parts that read back. A main part
// whose content differs from its manifest entry, that cannot be opened (a
// truncated file has no footer) or any of whose pages does not decode is
// moved to dir/_corrupt/ (keeping its path: _corrupt/scenarios/
// part-....parquet.corrupt), with the second-table parts of the same name
// (they belong to it), so its scenarios are missing and run again. A
// second-table part that fails takes its main part with it for the same
// reason. A main part that repeats ok rows of a part before it (a copy of
// a part with a copy of its manifest entry, see owners) is moved the same
// way, so that each scenario is in the table once. The parts written by a
// Writer are whole (temporary file, fsync, rename), so these are files
// damaged afterwards: a disk error, a bad copy, an editor. A file in a
// table directory that no crosslink writer made (a stray file, which would
// break every other reader of the table) is moved to _corrupt/ as well.
func Repair(dir string) (*Done, []Moved, error) {
	// A merge killed half way through a swap without RENAME_EXCHANGE
	// left a table in .merge/: its scenarios are done.
	if err := restoreSwapped(dir); err != nil {
		return nil, nil, err
	}
	ls, err := leaves(dir)
	if err != nil {
		return nil, nil, err
	}
	d := NewDone()
	var moved []Moved
	tables, err := tableDirs(dir)
	if err != nil {
		return nil, nil, err
	}
	own := newOwners(dir)
	for _, l := range ls {
		ld, lm, err := repairLeaf(l, tables, own)
		moved = append(moved, lm...)
		if err != nil {
			return nil, moved, err
		}
		d.merge(ld)
	}
	strays, err := Strays(dir)
	if err != nil {
		return nil, moved, err
	}
	for _, rel := range strays {
		to, err := moveAside(dir, rel)
		if errors.Is(err, errMovedAway) {
			continue
		}
		if err != nil {
			return nil, moved, err
		}
		moved = append(moved, Moved{Path: filepath.Join(dir, rel), To: to, Reason: "not a part file of this dataset", Stray: true})
	}
	return d, moved, nil
}

// checkPart verifies a part against the manifest and decodes every page
// of it, as Verify with deep set does: a part whose manifest entry was
// rewritten to match damaged content (by hand, or a bad copy recorded
// again) passes the hash and is found only by decoding, and crosslink
// status --deep must find nothing that crosslink run leaves in place.
func checkPart(root, rel string) error {
	if err := verifyHash(root, rel); err != nil {
		return err
	}
	p := filepath.Join(root, rel)
	if err := openCheck(p); err != nil {
		return err
	}
	return decodeAll(p, memory.DefaultAllocator)
}

// repairLeaf is Repair of the parts of one leaf; own holds the ok rows of
// the parts kept so far, of every leaf.
func repairLeaf(l leaf, tables []string, own *owners) (*Done, []Moved, error) {
	paths, err := ownParts(l.main())
	if err != nil {
		return nil, nil, err
	}
	bad := map[string]string{}     // main part name, or table/name of an orphan -> reason
	copyOf := map[string]string{}  // main part name -> the part it repeats
	culprit := map[string]string{} // main part name in bad for a table part's damage -> that part (relative to root)
	damaged := map[string]string{} // every damaged table part of a group (relative to root) -> its own reason
	for _, t := range tables {
		tparts, err := ownParts(l.table(t))
		if err != nil {
			return nil, nil, err
		}
		for _, p := range tparts {
			name := filepath.Base(p)
			if err := checkPart(l.root, l.relTable(t, name)); err != nil && !vanished(p) {
				if _, serr := os.Stat(filepath.Join(l.main(), name)); serr == nil {
					damaged[l.relTable(t, name)] = err.Error()
					if _, seen := bad[name]; !seen {
						bad[name], culprit[name] = err.Error(), l.relTable(t, name)
					}
				} else {
					// No main part: an orphan the next Writer of its shard
					// removes anyway; move it so it is not read meanwhile.
					bad[t+"\x00"+name] = err.Error()
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
		// A part removed since it was listed (Supersede of another task
		// dropped all its rows) holds no scenario and is no damage.
		if err := checkPart(l.root, l.relMain(name)); err != nil {
			if !vanished(p) {
				bad[name] = err.Error()
			}
			continue
		}
		part := NewDone()
		ids, ov, err := own.scan(p, part.Add)
		if err != nil {
			if !vanished(p) {
				bad[name] = err.Error()
			}
			continue
		}
		if ov.n > 0 {
			bad[name], copyOf[name] = ov.reason(), ov.other
			continue
		}
		own.register(p, ids)
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
		var group []string
		t, n, orphan := strings.Cut(name, "\x00")
		if orphan {
			group = []string{l.relTable(t, n)}
		} else {
			// The damaged part last, so that a Repair stopped in between
			// leaves it for the next to find. A damaged main part: the
			// second-table parts first. A damaged table part: its
			// (healthy) main part first, which makes its scenarios not
			// done; the table part left is then an orphan, moved next
			// time. The other order would leave a healthy main part
			// counted done without its table rows.
			for _, t := range tables {
				group = append(group, l.relTable(t, name))
			}
			if culprit[name] != "" {
				group = append([]string{l.relMain(name)}, group...)
			} else {
				group = append(group, l.relMain(name))
			}
		}
		for _, rel := range group {
			from := filepath.Join(l.root, rel)
			if _, err := os.Stat(from); errors.Is(err, os.ErrNotExist) {
				continue
			}
			to, err := moveAside(l.root, rel)
			if errors.Is(err, errMovedAway) {
				continue
			}
			if err != nil {
				return nil, moved, err
			}
			m := Moved{Path: from, To: to, Reason: reason, Copy: copyOf[name]}
			if r, ok := damaged[rel]; ok {
				m.Reason = r // a second damaged table part of the group
			} else if c := cmp.Or(culprit[name], l.relMain(name)); copyOf[name] == "" && rel != c && !orphan {
				m.With = filepath.Join(l.root, c)
			}
			moved = append(moved, m)
		}
	}
	return d, moved, nil
}

// Strays returns the files inside the table directories of the dataset dir
// (relative to dir) that are not parts of the dataset: not named
// part-*.parquet, or not in the manifest. Every other reader of a table
// directory would read them as part of the table (or fail on them).
func Strays(dir string) ([]string, error) {
	var out []string
	err := walkTables(dir, func(rel string) error {
		n := filepath.Base(rel)
		if strings.HasPrefix(n, "part-") && strings.HasSuffix(n, ".parquet") {
			if final, pending := readEntry(dir, rel); final != nil || pending != nil {
				return nil
			}
		}
		if vanished(filepath.Join(dir, rel)) {
			return nil // a part removed (with its entry) since it was listed
		}
		out = append(out, rel)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// walkTables calls fn with the path (relative to dir) of every file in the
// table directories of the dataset dir: the main table, the points table
// and the second tables; a table with no directory yet has no files.
func walkTables(dir string, fn func(rel string) error) error {
	tables, err := tableDirs(dir)
	if err != nil {
		return err
	}
	for _, t := range append([]string{MainTable, PointsTable}, tables...) {
		err := filepath.WalkDir(filepath.Join(dir, t), func(p string, e os.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					return nil
				}
				return err
			}
			if e.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			return fn(rel)
		})
		if err != nil {
			return fmt.Errorf("dataset: %w", err)
		}
	}
	return nil
}

// merge adds the ids of o to d (ok wins, and repeats are counted, as in
// Add).
func (d *Done) merge(o *Done) {
	d.repeated += o.repeated
	for k, st := range o.hex {
		put(d, d.hex, k, st)
	}
	for k, st := range o.other {
		put(d, d.other, k, st)
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

// tableDirs returns the names of the second tables of the dataset dir:
// the directories beside the main table other than the points table and
// those starting with "_" or "." (set-aside parts, the manifest, temporary
// files).
func tableDirs(dir string) ([]string, error) {
	ents, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() && n != MainTable && n != PointsTable && !strings.HasPrefix(n, "_") && !strings.HasPrefix(n, ".") {
			names = append(names, n)
		}
	}
	return names, nil
}

// errMovedAway is moveInto's error for a part that is gone: another task
// of a job array (they hold the dataset lock shared) moved it first.
var errMovedAway = errors.New("dataset: part moved by another process")

// moveAside renames dir/rel to dir/_corrupt/rel.corrupt, numbering it if a
// file of that name is there already.
func moveAside(dir, rel string) (string, error) {
	return moveInto(dir, CorruptDir, rel, ".corrupt")
}

// moveInto renames dir/rel to dir/sub/rel+suffix, numbering it if a file
// of that name is there already, drops its manifest entry and removes the
// directories the move left empty.
func moveInto(dir, sub, rel, suffix string) (string, error) {
	to := filepath.Join(dir, sub, rel+suffix)
	if err := os.MkdirAll(filepath.Dir(to), dirMode); err != nil {
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
		if vanished(filepath.Join(dir, rel)) {
			return "", errMovedAway
		}
		return "", fmt.Errorf("dataset: moving a part aside: %w", err)
	}
	// Another task of a job array may have moved the directory's last
	// part since the rename and removed the directory (pruneEmpty): with
	// the directory gone there is no entry left to make durable.
	if err := syncDir(filepath.Dir(filepath.Join(dir, rel))); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	dropEntry(dir, rel)
	pruneEmpty(dir, filepath.Dir(rel))
	return to, nil
}
