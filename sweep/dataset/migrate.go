package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Migrate moves a dataset written in the former layout into the present
// one (see MainTable) and returns the number of parts it moved. The
// former layout kept the main parts in the dataset directory itself
// (dir/part-*.parquet, or dir/<key>=<value>/.../part-*.parquet when
// partitioned), each second table in dir/_<table>/ (in each partition),
// the points table in dir/_points/, and _corrupt/ and _stale/ in each
// partition. A reader of dir then saw the lock file and every second
// table beside the main one.
//
// Parts move with a rename each (the same file system), second tables
// first, so that a main part never commits table parts not yet beside it;
// each moved part gets a manifest entry. Directories left behind with
// files that are not parts (a partition's _corrupt/) move under
// dir/_stale/former-layout/. A migration killed half way is finished by
// the next: it moves whatever is still in a former place. crosslink run,
// merge and status call it first, under the dataset's lock.
func Migrate(dir string) (int, error) {
	ents, err := readDir(dir)
	if err != nil {
		return 0, err
	}
	if len(ents) == 0 || !formerLayout(dir, ents) {
		return 0, nil
	}
	if err := os.MkdirAll(filepath.Join(dir, tmpDir), dirMode); err != nil {
		return 0, fmt.Errorf("dataset: %w", err)
	}
	// Former leaves: dir and its partition directories.
	oldLeaves := []string{""}
	var walk func(rel string) error
	walk = func(rel string) error {
		es, err := readDir(filepath.Join(dir, rel))
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.IsDir() && isPartition(e.Name()) {
				sub := filepath.Join(rel, e.Name())
				oldLeaves = append(oldLeaves, sub)
				if err := walk(sub); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(""); err != nil {
		return 0, err
	}
	// A migration killed by a former version between renaming a part and
	// recording it left a part in a table that the manifest does not know.
	if err := adoptUnrecorded(dir); err != nil {
		return 0, err
	}
	moved := 0
	// The entry is written before the rename, so a part is never in a
	// table without one (which Repair would take for a stray file). A part
	// already gone was moved by another task of the job array (they hold
	// the lock shared).
	move := func(from, to string) error {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, to)), dirMode); err != nil {
			return fmt.Errorf("dataset: migrating %s: %w", dir, err)
		}
		if err := recordEntryOf(dir, from, to); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := os.Rename(filepath.Join(dir, from), filepath.Join(dir, to)); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			return fmt.Errorf("dataset: migrating %s: %w", dir, err)
		}
		moved++
		return nil
	}
	for _, rel := range oldLeaves {
		es, err := readDir(filepath.Join(dir, rel))
		if err != nil {
			return moved, err
		}
		// Second tables (and the points table) first.
		for _, e := range es {
			n := e.Name()
			if !e.IsDir() || !strings.HasPrefix(n, "_") || n == CorruptDir || n == StaleDir || n == ManifestDir {
				continue
			}
			table := strings.TrimPrefix(n, "_")
			parts, err := ownParts(filepath.Join(dir, rel, n))
			if err != nil {
				return moved, err
			}
			for _, p := range parts {
				b := filepath.Base(p)
				if err := move(filepath.Join(rel, n, b), filepath.Join(table, rel, b)); err != nil {
					return moved, err
				}
			}
		}
		parts, err := ownParts(filepath.Join(dir, rel))
		if err != nil {
			return moved, err
		}
		for _, p := range parts {
			b := filepath.Base(p)
			if err := move(filepath.Join(rel, b), filepath.Join(MainTable, rel, b)); err != nil {
				return moved, err
			}
		}
	}
	// What is left of the former places: empty table directories, the
	// partitions' lock files, _corrupt/ and _stale/ of partitions.
	sort.Sort(sort.Reverse(sort.StringSlice(oldLeaves)))
	for _, rel := range oldLeaves {
		es, err := readDir(filepath.Join(dir, rel))
		if err != nil {
			return moved, err
		}
		for _, e := range es {
			n := e.Name()
			p := filepath.Join(dir, rel, n)
			switch {
			case rel == "" && !strings.HasPrefix(n, "_"):
				continue // the dataset's own lock files and the new tables
			case rel == "" && (n == CorruptDir || n == StaleDir || n == ManifestDir):
				continue // the same place in both layouts
			case n == supersedeTurnFile:
				os.Remove(p)
			case e.IsDir() && isPartition(n):
				// handled on its own (deeper first)
			default:
				removeEmptyTree(p)
			}
		}
		if rel == "" {
			continue
		}
		removeEmptyTree(filepath.Join(dir, rel))
		if _, err := os.Stat(filepath.Join(dir, rel)); err == nil {
			to := filepath.Join(dir, StaleDir, "former-layout", rel)
			if err := os.MkdirAll(filepath.Dir(to), dirMode); err != nil {
				return moved, fmt.Errorf("dataset: migrating %s: %w", dir, err)
			}
			if err := os.Rename(filepath.Join(dir, rel), to); err != nil && !errors.Is(err, os.ErrNotExist) {
				return moved, fmt.Errorf("dataset: migrating %s: %w", dir, err)
			}
		}
	}
	return moved, syncDir(dir)
}

// adoptUnrecorded records in the manifest the parts in the tables of dir
// that have no entry; called only while dir is still in the former layout,
// where such a part can only come from an interrupted migration.
func adoptUnrecorded(dir string) error {
	return walkTables(dir, func(rel string) error {
		n := filepath.Base(rel)
		if !strings.HasPrefix(n, "part-") || !strings.HasSuffix(n, ".parquet") {
			return nil
		}
		if final, pending := readEntry(dir, rel); final != nil || pending != nil {
			return nil
		}
		return recordEntryOf(dir, rel, rel)
	})
}

// NeedsMigration reports whether the dataset dir is in a former layout
// (see Migrate).
func NeedsMigration(dir string) bool {
	ents, err := readDir(dir)
	return err == nil && formerLayout(dir, ents)
}

// formerLayout reports whether the dataset dir, whose entries are ents,
// has anything in a former place: main parts directly in dir, a partition
// directory, or a second table in a "_" directory.
func formerLayout(dir string, ents []os.DirEntry) bool {
	for _, e := range ents {
		n := e.Name()
		switch {
		case !e.IsDir() && strings.HasPrefix(n, "part-") && strings.HasSuffix(n, ".parquet"):
			return true
		case e.IsDir() && isPartition(n):
			return true
		case e.IsDir() && strings.HasPrefix(n, "_") && n != CorruptDir && n != StaleDir && n != ManifestDir:
			return true
		}
	}
	return false
}

// removeEmptyTree removes the empty directories of the tree at p, and p
// itself when it ends up empty.
func removeEmptyTree(p string) {
	es, err := os.ReadDir(p)
	if err != nil {
		return
	}
	for _, e := range es {
		if e.IsDir() {
			removeEmptyTree(filepath.Join(p, e.Name()))
		}
	}
	os.Remove(p)
}
