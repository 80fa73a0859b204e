package dataset

import (
	"fmt"
	"path/filepath"
	"strings"
)

// owners finds main parts that repeat another part's rows: a part copied
// under a new name with a copy of its manifest entry verifies like any
// part, and every reader of the table would count its scenarios twice.
//
// Only ok rows count. A scenario has one ok row at most: a sweep skips a
// scenario that has one, and --retry-failed reruns only those that are not
// ok, so the rows a retry supersedes (the older rows, not ok) are not
// copies; Supersede and Merge drop them.
type owners struct {
	root  string
	hex   map[[16]byte]int32
	other map[string]int32
	parts []string // the parts registered, relative to root
}

func newOwners(root string) *owners {
	return &owners{root: root, hex: map[[16]byte]int32{}, other: map[string]int32{}}
}

// overlap is what check finds of one part: how many of its ok rows
// another part holds, the first such scenario and that part.
type overlap struct {
	n     int
	id    string
	other string
}

// reason words the overlap as the damage of the part that repeats rows.
func (o overlap) reason() string {
	more := ""
	if o.n > 1 {
		more = fmt.Sprintf(" and %d more", o.n-1)
	}
	return fmt.Sprintf("repeats rows of %s (scenario %s%s ok in both): a copy of a part, which every reader would count twice; each scenario has one row", o.other, o.id, more)
}

// scan reads the ids of the main part at path (relative to root: rel) and
// returns its ok ids and their overlap with the parts registered before.
func (w *owners) scan(path string, add func(id string, st Status)) (ids []string, ov overlap, err error) {
	err = scanIDs(path, func(id string, st Status) {
		if add != nil {
			add(id, st)
		}
		if st != OK {
			return
		}
		ids = append(ids, strings.Clone(id))
		if j, ok := w.lookup(id); ok {
			if ov.n == 0 {
				ov.id, ov.other = strings.Clone(id), w.parts[j]
			}
			ov.n++
		}
	})
	return ids, ov, err
}

func (w *owners) lookup(id string) (int32, bool) {
	if k, ok := hexKey(id); ok {
		j, ok := w.hex[k]
		return j, ok
	}
	j, ok := w.other[id]
	return j, ok
}

// register records the ok ids of the part at path as that part's.
func (w *owners) register(path string, ids []string) {
	rel, err := filepath.Rel(w.root, path)
	if err != nil {
		rel = path
	}
	j := int32(len(w.parts))
	w.parts = append(w.parts, rel)
	for _, id := range ids {
		if k, ok := hexKey(id); ok {
			w.hex[k] = j
		} else {
			w.other[id] = j
		}
	}
}

// copies returns the main parts of the dataset dir, other than those in
// skip (damaged already), that repeat rows of another part, with why; the
// later part in Repair's order (leaves in order, parts by name) is the
// copy, as Repair decides.
func copies(dir string, skip map[string]bool) ([]Damage, error) {
	ls, err := leaves(dir)
	if err != nil {
		return nil, err
	}
	w := newOwners(dir)
	var out []Damage
	for _, l := range ls {
		paths, err := ownParts(l.main())
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			if skip[p] {
				continue
			}
			ids, ov, err := w.scan(p, nil)
			if err != nil {
				if vanished(p) {
					continue // removed by a Supersede since it was listed
				}
				out = append(out, Damage{Path: p, Reason: err.Error()})
				continue
			}
			if ov.n > 0 {
				out = append(out, Damage{Path: p, Reason: ov.reason()})
				continue
			}
			w.register(p, ids)
		}
	}
	return out, nil
}
