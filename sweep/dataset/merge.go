package dataset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// MergedShard is the shard infix of the parts Merge writes.
const MergedShard = "merged"

// mergeDir is where Merge builds the new state of a table before it takes
// the table's place; outside every table, so no reader lists it.
const mergeDir = ".merge"

// mergeRowGroup is the number of rows per row group of a merged part, and
// about the number Merge holds in memory at once.
const mergeRowGroup = 1 << 17

// Merge compacts each table of the dataset in dir (the second tables, then
// the main table) into one part per partition, after dropping superseded
// rows (Supersede); _corrupt/ and _stale/ are left alone.
//
// A table is merged into a new directory beside it (.merge/<table>), the
// rows streamed a row group at a time (so memory is bounded by a row group,
// not the table), parts that need no merging hard-linked; then the new
// directory and the table's are exchanged in one rename (renameat2 with
// RENAME_EXCHANGE), so that every reader, DuckDB and polars included, sees
// either all the old parts or all the new ones, and a merge killed at any
// moment leaves one of the two states. The old parts, now in .merge/, are
// removed last; a killed merge's leftovers there and in .tmp/ are removed
// by the next (RemoveTemporary): Merge must hold the dataset's lock
// exclusively, as crosslink merge does.
// A file system without RENAME_EXCHANGE (NFS) gets three renames instead
// (swapByRename): a reader in between finds no table and fails, and a
// merge killed in between leaves the table in .merge/<table>.old, which the
// next Merge or Repair puts back (restoreSwapped).
func Merge(dir string, mem memory.Allocator) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	if err := isDataset(dir); err != nil {
		return err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	// A killed merge's files: a table being built in .merge/, the merged
	// part being written in .tmp/ (as large as the table).
	if err := RemoveTemporary(dir, ""); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	pruneManifest(dir)
	if _, err := Supersede(dir, mem); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	tables, err := tableDirs(dir)
	if err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	ls, err := leaves(dir)
	if err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	plans := make([]leafPlan, len(ls))
	for i, l := range ls {
		if plans[i], err = planLeaf(l, tables); err != nil {
			return err
		}
	}
	for _, t := range append(tables, MainTable) {
		if err := mergeTable(dir, t, ls, plans, mem); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, mergeDir)); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	return nil
}

// leafPlan is what Merge does with one leaf: the names of its main parts
// and, when there are several, the name of the merged part that replaces
// them in every table. A Writer keeps main part n's second-table rows in
// table part n, takes a table part of its shard without a main part of
// that name for one a killed run never committed, and removes it; so the
// tables' merged parts take the main table's merged name, and a table part
// of a writer's shard without a main part is not merged in (its scenarios
// are not done and run again).
type leafPlan struct {
	main   map[string]bool
	merged string // "" when the main table keeps its single part
}

func planLeaf(l leaf, tables []string) (leafPlan, error) {
	paths, err := ownParts(l.main())
	if err != nil {
		return leafPlan{}, fmt.Errorf("dataset: merge: %w", err)
	}
	p := leafPlan{main: map[string]bool{}}
	for _, q := range paths {
		p.main[filepath.Base(q)] = true
	}
	if len(paths) < 2 {
		return p, nil
	}
	// One number for every table of the leaf: after a merge killed
	// between the tables, their merged parts may be ahead of the main's.
	seq := 1
	for _, d := range append([]string{l.main()}, tableLeafDirs(l, tables)...) {
		n, err := nextSeq(d, MergedShard)
		if err != nil {
			return leafPlan{}, err
		}
		seq = max(seq, n)
	}
	p.merged = partName(MergedShard, seq)
	return p, nil
}

func tableLeafDirs(l leaf, tables []string) []string {
	out := make([]string, len(tables))
	for i, t := range tables {
		out[i] = l.table(t)
	}
	return out
}

// committed reports whether the table part name of a leaf belongs to the
// dataset: a merged part (only a whole merge puts one in a table), or a
// writer's part whose main part is there.
func (p leafPlan) committed(name string) bool {
	return p.main[name] || strings.HasPrefix(name, "part-"+MergedShard+"-")
}

// mergeTable merges table t of the dataset root, whose leaves (partition
// paths) are ls, as plans say.
func mergeTable(root, t string, ls []leaf, plans []leafPlan, mem memory.Allocator) error {
	live := filepath.Join(root, t)
	stage := filepath.Join(root, mergeDir, t)
	var old []string // relative to root
	changed := false
	for li, l := range ls {
		all, err := ownParts(filepath.Join(live, l.rel))
		if err != nil {
			return fmt.Errorf("dataset: merge: %w", err)
		}
		var paths []string
		for _, p := range all {
			old = append(old, filepath.Join(t, l.rel, filepath.Base(p)))
			if t == MainTable || plans[li].committed(filepath.Base(p)) {
				paths = append(paths, p)
			} else {
				changed = true // dropped
			}
		}
		if len(paths) == 0 {
			continue
		}
		name := plans[li].merged
		if name == "" && len(paths) > 1 {
			// Only after a merge killed between tables, or parts removed
			// since: the rows are right under any new name.
			if name, err = mergedName(filepath.Join(live, l.rel)); err != nil {
				return err
			}
		}
		if len(paths) == 1 && (name == "" || filepath.Base(paths[0]) == name) {
			// Nothing to merge: the new state keeps the same file.
			dst := filepath.Join(stage, l.rel, filepath.Base(paths[0]))
			if err := os.MkdirAll(filepath.Dir(dst), dirMode); err != nil {
				return fmt.Errorf("dataset: merge: %w", err)
			}
			if err := os.Link(paths[0], dst); err != nil {
				return fmt.Errorf("dataset: merge: %w", err)
			}
			continue
		}
		changed = true
		rel := filepath.Join(t, l.rel, name)
		if len(paths) == 1 {
			// The same file under the merged name.
			if err := linkPart(root, filepath.Join(t, l.rel, filepath.Base(paths[0])), rel, filepath.Join(stage, l.rel, name)); err != nil {
				return err
			}
			continue
		}
		if err := mergeParts(root, rel, filepath.Join(stage, l.rel, name), paths, mem); err != nil {
			return err
		}
	}
	if !changed {
		return os.RemoveAll(stage)
	}
	if err := syncDir(filepath.Join(root, mergeDir)); err != nil {
		return err
	}
	if err := exchange(stage, live); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	if err := syncDir(root); err != nil {
		return err
	}
	// The old state is in stage now. Entries of files the new state kept
	// (hard links, same name) stay.
	for _, rel := range old {
		if _, err := os.Stat(filepath.Join(root, rel)); errors.Is(err, os.ErrNotExist) {
			dropEntry(root, rel)
		}
	}
	if err := os.RemoveAll(stage); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	return nil
}

// mergedName is the name of a new merged part in dir.
func mergedName(dir string) (string, error) {
	seq, err := nextSeq(dir, MergedShard)
	if err != nil {
		return "", err
	}
	return partName(MergedShard, seq), nil
}

// linkPart hard-links the part root/from as dest, recorded in the
// manifest as root/rel with from's size, rows and SHA-256 (hashed again
// when from has no entry).
func linkPart(root, from, rel, dest string) error {
	e, pending := readEntry(root, from)
	if e == nil {
		e = pending
	}
	if e == nil {
		n, sum, err := hashFile(filepath.Join(root, from))
		if err != nil {
			return fmt.Errorf("dataset: merge: %w", err)
		}
		e = &Entry{Size: n, Rows: -1, SHA256: sum}
		if rdr, err := file.OpenParquetFile(filepath.Join(root, from), false); err == nil {
			e.Rows = rdr.NumRows()
			rdr.Close()
		}
	}
	ne := *e
	ne.Path = filepath.ToSlash(rel)
	if err := os.MkdirAll(filepath.Dir(dest), dirMode); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	if err := os.Link(filepath.Join(root, from), dest); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	return writeJSONAtomic(root, entryPath(root, rel), ne)
}

// exchange swaps the directories a and b in one step. Where the file
// system cannot (RENAME_EXCHANGE is Linux's, and not every file system
// has it), b is renamed away and a put in its place: a reader in between
// finds no table (and fails) rather than a mix.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EOPNOTSUPP) {
		return fmt.Errorf("exchanging %s and %s: %w", a, b, err)
	}
	return swapByRename(a, b)
}

// swapByRename swaps the directories a and b with three renames, for file
// systems without RENAME_EXCHANGE.
func swapByRename(a, b string) error {
	aside := a + ".old"
	if err := os.Rename(b, aside); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		// Put the table back: left in aside, the next Merge would
		// remove it with the rest of .merge/.
		if rerr := os.Rename(aside, b); rerr != nil {
			return fmt.Errorf("%w; and the table is left in %s: %v", err, aside, rerr)
		}
		return err
	}
	return os.Rename(aside, a)
}

// restoreSwapped puts back a table that a merge by swapByRename, killed
// between its first two renames, left in .merge/<table>.old with no
// table directory in its place; the old state is whole, and its manifest
// entries were never dropped. Where the table directory is there, the
// swap went through and .merge/<table>.old is the old state, to remove.
func restoreSwapped(root string) error {
	md := filepath.Join(root, mergeDir)
	ents, err := os.ReadDir(md)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	for _, e := range ents {
		t, ok := strings.CutSuffix(e.Name(), ".old")
		if !ok || !e.IsDir() {
			continue
		}
		if _, err := os.Lstat(filepath.Join(root, t)); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		err := os.Rename(filepath.Join(md, e.Name()), filepath.Join(root, t))
		if errors.Is(err, os.ErrNotExist) {
			continue // another shard's Repair put it back first
		}
		if err != nil {
			return fmt.Errorf("dataset: merge: restoring table %s: %w", t, err)
		}
		if err := syncDir(root); err != nil {
			return err
		}
	}
	return nil
}

// mergeParts writes the rows of the parts paths, in order, as one part at
// dest (recorded in the manifest as root/rel), with the key-value metadata
// of the part written by the latest run (the spec and profile last run,
// see ReadMeta), streaming: one record batch read, and one row group
// buffered for writing, at a time.
func mergeParts(root, rel, dest string, paths []string, mem memory.Allocator) error {
	kv, err := latestMeta(paths)
	if kv == nil {
		return err
	}
	sc, err := fileSchema(paths[0], mem)
	if err != nil {
		return err
	}
	props := partProps(sc, kv, mem, parquet.WithMaxRowGroupLength(mergeRowGroup))
	fill := func(fw *pqarrow.FileWriter) (int64, error) {
		var rows, inGroup int64
		for _, p := range paths {
			n, err := streamPart(p, sc, mem, func(rec arrow.RecordBatch) error {
				if inGroup >= mergeRowGroup {
					fw.NewBufferedRowGroup()
					inGroup = 0
				}
				inGroup += rec.NumRows()
				return fw.WriteBuffered(rec)
			})
			rows += n
			if err != nil {
				return rows, err
			}
		}
		return rows, nil
	}
	return writePart(root, rel, dest, props, kv, mem, fill, sc)
}

// fileSchema returns the Arrow schema stored in a part.
func fileSchema(path string, mem memory.Allocator) (*arrow.Schema, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	sc, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	return sc, nil
}

// streamPart calls f with the rows of one part, a record batch at a time,
// each given the schema sc (whose column names and types it must have),
// and returns the number of rows.
func streamPart(path string, sc *arrow.Schema, mem memory.Allocator, f func(arrow.RecordBatch) error) (int64, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return 0, fmt.Errorf("dataset: %s: %w", path, err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1 << 14}, mem)
	if err != nil {
		return 0, fmt.Errorf("dataset: %s: %w", path, err)
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		return 0, fmt.Errorf("dataset: %s: %w", path, err)
	}
	defer rr.Release()
	if !sameColumns(rr.Schema(), sc) {
		return 0, fmt.Errorf("dataset: %s: schema differs from the table's first part: a dataset holds the rows of one model version (crosslink run moves older versions' parts to %s/)", path, StaleDir)
	}
	var n int64
	for rr.Next() {
		rec := rr.RecordBatch()
		out := array.NewRecordBatch(sc, rec.Columns(), rec.NumRows())
		err := f(out)
		out.Release()
		if err != nil {
			return n, fmt.Errorf("dataset: %s: %w", path, err)
		}
		n += rec.NumRows()
	}
	if err := rr.Err(); err != nil {
		return n, fmt.Errorf("dataset: %s: %w", path, err)
	}
	return n, nil
}

// pruneManifest drops the manifest entries whose parts are gone (a writer
// or merge killed between writing an entry and its part).
func pruneManifest(root string) {
	md := filepath.Join(root, ManifestDir)
	filepath.WalkDir(md, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(md, p)
		rel = strings.TrimSuffix(strings.TrimSuffix(rel, ".pending"), ".json")
		if _, err := os.Stat(filepath.Join(root, rel)); errors.Is(err, os.ErrNotExist) {
			os.Remove(p)
		}
		return nil
	})
}

// takeRecord returns the rows perm of tbl, in that order, as one record.
func takeRecord(tbl arrow.Table, perm []int, mem memory.Allocator) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, tbl.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i := range cols {
		c, err := take(tbl.Column(i).Data().Chunks(), perm, mem)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", tbl.Schema().Field(i).Name, err)
		}
		cols[i] = c
	}
	return array.NewRecordBatch(tbl.Schema(), cols, int64(len(perm))), nil
}

// take returns the rows perm of the concatenated chunks, as one array.
func take(chunks []arrow.Array, perm []int, mem memory.Allocator) (arrow.Array, error) {
	// where[i] locates global row i: chunk and offset.
	type loc struct{ c, i int32 }
	where := make([]loc, 0, len(perm))
	for ci, c := range chunks {
		for i := 0; i < c.Len(); i++ {
			where = append(where, loc{int32(ci), int32(i)})
		}
	}
	if len(chunks) == 0 {
		return nil, fmt.Errorf("no chunks")
	}
	b := array.NewBuilder(mem, chunks[0].DataType())
	defer b.Release()
	b.Reserve(len(perm))
	for _, g := range perm {
		l := where[g]
		c := chunks[l.c]
		i := int(l.i)
		if c.IsNull(i) {
			b.AppendNull()
			continue
		}
		switch a := c.(type) {
		case *array.String:
			b.(*array.StringBuilder).Append(a.Value(i))
		case *array.Int64:
			b.(*array.Int64Builder).Append(a.Value(i))
		case *array.Uint64:
			b.(*array.Uint64Builder).Append(a.Value(i))
		case *array.Float64:
			b.(*array.Float64Builder).Append(a.Value(i))
		case *array.Boolean:
			b.(*array.BooleanBuilder).Append(a.Value(i))
		default:
			return nil, fmt.Errorf("unsupported type %s", c.DataType())
		}
	}
	return b.NewArray(), nil
}
