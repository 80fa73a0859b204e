package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

// A scenario rerun with --retry-failed gets a second row, appended in a
// newer part. The older row is superseded: readers must see one row per
// scenario. The rule, used by ReadTable in memory and by Supersede on
// disk: an ok row beats a row that is not ok; otherwise the later row (in
// part-name order, then row order) wins.

// winners marks, for rows given in dataset order, which survive. It
// returns nil when every id appears once.
func winners(ids []string, ok []bool) []bool {
	best := make(map[string]int, len(ids))
	dup := false
	for i, id := range ids {
		j, seen := best[id]
		if !seen {
			best[id] = i
			continue
		}
		dup = true
		if ok[i] || !ok[j] {
			best[id] = i
		}
	}
	if !dup {
		return nil
	}
	keep := make([]bool, len(ids))
	for _, i := range best {
		keep[i] = true
	}
	return keep
}

// stringColumn returns the values of a string column of tbl.
func stringColumn(tbl arrow.Table, name string) ([]string, error) {
	idx := tbl.Schema().FieldIndices(name)
	if len(idx) != 1 {
		return nil, fmt.Errorf("dataset: no %s column", name)
	}
	out := make([]string, 0, tbl.NumRows())
	for _, c := range tbl.Column(idx[0]).Data().Chunks() {
		s, ok := c.(*array.String)
		if !ok {
			return nil, fmt.Errorf("dataset: %s is a %s column, want string", name, c.DataType())
		}
		for i := 0; i < s.Len(); i++ {
			out = append(out, s.Value(i))
		}
	}
	return out, nil
}

// keepOf returns which rows of the main table tbl survive, or nil when
// all do (or tbl is not a main table).
func keepOf(tbl arrow.Table) ([]bool, error) {
	if len(tbl.Schema().FieldIndices(ColStatus)) == 0 {
		return nil, nil
	}
	ids, err := stringColumn(tbl, ColID)
	if err != nil {
		return nil, err
	}
	sts, err := stringColumn(tbl, ColStatus)
	if err != nil {
		return nil, err
	}
	ok := make([]bool, len(sts))
	for i, s := range sts {
		ok[i] = Status(s) == OK
	}
	return winners(ids, ok), nil
}

// filterTable returns the rows of tbl whose keep is true, in order, as a
// one-chunk table. It releases nothing.
func filterTable(tbl arrow.Table, keep []bool, mem memory.Allocator) (arrow.Table, error) {
	rec, err := filterRecord(tbl, keep, mem)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	return array.NewTableFromRecords(tbl.Schema(), []arrow.RecordBatch{rec}), nil
}

func filterRecord(tbl arrow.Table, keep []bool, mem memory.Allocator) (arrow.RecordBatch, error) {
	var perm []int
	for i, k := range keep {
		if k {
			perm = append(perm, i)
		}
	}
	rec, err := takeRecord(tbl, perm, mem)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return rec, nil
}

// dedupe drops superseded rows from a main table read whole; it returns
// tbl itself when there are none, else a new table (tbl is released).
// On an error tbl is released too.
func dedupe(tbl arrow.Table, mem memory.Allocator) (arrow.Table, error) {
	keep, err := keepOf(tbl)
	if err != nil {
		tbl.Release()
		return nil, err
	}
	if keep == nil {
		return tbl, nil
	}
	out, err := filterTable(tbl, keep, mem)
	if err != nil {
		tbl.Release()
		return nil, err
	}
	tbl.Release()
	return out, nil
}

// Supersede removes superseded rows from the part files of the dataset in
// dir, so that every reader (DuckDB, pandas, polars) sees one row per
// scenario, and returns how many rows it removed. Each part holding a
// superseded row is rewritten without it (temporary file, rename), its
// second-table parts first, so a crash leaves either the old or the new
// file, never half of one. Concurrent Supersede calls on one dataset (the
// tasks of a job array) take turns on dir/.lock-supersede (supersedeTurn).
//
// A scenario's rows are all in one partition of a partitioned dataset, so
// each partition is handled on its own.
func Supersede(dir string, mem memory.Allocator) (int, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	ls, err := leaves(dir)
	if err != nil {
		return 0, err
	}
	tables, err := tableDirs(dir)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, l := range ls {
		n, err := supersedeLeaf(l, tables, mem)
		removed += n
		if err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// supersedeLeaf is Supersede of the parts of one leaf.
func supersedeLeaf(l leaf, tables []string, mem memory.Allocator) (int, error) {
	paths, err := ownParts(l.main())
	if err != nil || len(paths) == 0 {
		return 0, err
	}
	release, err := supersedeTurn(l.root, syscall.LOCK_EX)
	if err != nil {
		return 0, err
	}
	defer release()
	// Read the parts again under the lock: another process may have
	// rewritten some.
	if paths, err = ownParts(l.main()); err != nil {
		return 0, err
	}
	// Most datasets have no superseded row: find out with a set of 16-byte
	// keys before holding every id as a string (merge streams the rows, and
	// this scan should not cost more than the merge).
	if dup, err := hasDuplicates(paths); err != nil || !dup {
		return 0, err
	}
	var ids []string
	var ok []bool
	var part []int
	for pi, p := range paths {
		d := &partIDs{}
		if err := readIDsInto(p, d); err != nil {
			return 0, err
		}
		ids = append(ids, d.ids...)
		ok = append(ok, d.ok...)
		for range d.ids {
			part = append(part, pi)
		}
	}
	keep := winners(ids, ok)
	if keep == nil {
		return 0, nil
	}
	// Per part, its rows' keep flags, and the ids whose rows it loses.
	start := 0
	removed := 0
	for pi, p := range paths {
		end := start
		for end < len(part) && part[end] == pi {
			end++
		}
		k := keep[start:end]
		lost := map[string]bool{}
		for i, kk := range k {
			if !kk {
				lost[ids[start+i]] = true
			}
		}
		for i, kk := range k { // an id kept in this part keeps its table rows
			if kk {
				delete(lost, ids[start+i])
			}
		}
		if n := countFalse(k); n > 0 {
			for _, t := range tables {
				rel := l.relTable(t, filepath.Base(p))
				if _, err := os.Stat(filepath.Join(l.root, rel)); err != nil {
					continue
				}
				if err := rewriteWithout(l.root, rel, nil, lost, mem); err != nil {
					return removed, err
				}
			}
			if err := rewriteWithout(l.root, l.relMain(filepath.Base(p)), k, nil, mem); err != nil {
				return removed, err
			}
			removed += n
		}
		start = end
	}
	return removed, nil
}

// supersedeTurnFile is the lock of dir on which the tasks of a job array
// take turns at removing superseded rows (LOCK_EX), and on which a task
// removing its own shard's temporary files holds LOCK_SH: a Supersede
// writes the rewritten part of any shard under .tmp/ by that part's name,
// which the shard's cleanup would take for its own killed writer's.
const supersedeTurnFile = ".lock-supersede"

// supersedeTurn waits for and takes dir's supersede turn in mode
// (syscall.LOCK_EX or LOCK_SH), and returns its release. A dir not
// created yet has no Supersede to wait for.
func supersedeTurn(dir string, mode int) (release func(), err error) {
	path := filepath.Join(dir, supersedeTurnFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil && mode == syscall.LOCK_SH {
		// Waiting needs no write: a dataset others may only read has
		// its lock file opened read-only, and one without it (or a dir
		// not created yet, or not a directory, which the caller's
		// listing reports) has no Supersede to wait for.
		if f, err = os.Open(path); err != nil {
			return func() {}, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), mode); err != nil {
		f.Close()
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// hasDuplicates reports whether an id appears twice in the main parts
// paths.
func hasDuplicates(paths []string) (bool, error) {
	seen := map[[16]byte]struct{}{}
	other := map[string]struct{}{}
	dup := false
	for _, p := range paths {
		err := scanIDs(p, func(id string, _ Status) {
			if k, ok := hexKey(id); ok {
				if _, ok := seen[k]; ok {
					dup = true
				}
				seen[k] = struct{}{}
				return
			}
			if _, ok := other[id]; ok {
				dup = true
			}
			other[strings.Clone(id)] = struct{}{}
		})
		if err != nil || dup {
			return dup, err
		}
	}
	return false, nil
}

func countFalse(k []bool) int {
	n := 0
	for _, b := range k {
		if !b {
			n++
		}
	}
	return n
}

// partIDs is the id and ok-ness of each row of one part, in order.
type partIDs struct {
	ids []string
	ok  []bool
}

// rewriteWithout rewrites the part at path keeping the rows keep marks
// (main table) or dropping the rows whose id is in lost (second table),
// or removes the file when no row is left.
func rewriteWithout(root, rel string, keep []bool, lost map[string]bool, mem memory.Allocator) error {
	path := filepath.Join(root, rel)
	kv, err := fileMeta(path)
	if err != nil {
		return err
	}
	tbl, err := readFile(path, mem)
	if err != nil {
		return err
	}
	defer tbl.Release()
	if keep == nil {
		ids, err := stringColumn(tbl, ColID)
		if err != nil {
			return fmt.Errorf("dataset: %s: %w", path, err)
		}
		keep = make([]bool, len(ids))
		for i, id := range ids {
			keep[i] = !lost[id]
		}
	}
	if int64(len(keep)) != tbl.NumRows() {
		return fmt.Errorf("dataset: %s changed while superseding rows", path)
	}
	if countFalse(keep) == 0 {
		return nil
	}
	if countFalse(keep) == len(keep) {
		if err := removePart(root, rel); err != nil {
			return err
		}
		return syncDir(filepath.Dir(path))
	}
	rec, err := filterRecord(tbl, keep, mem)
	if err != nil {
		return fmt.Errorf("dataset: %s: %w", path, err)
	}
	defer rec.Release()
	return writeFile(root, rel, rec, partProps(tbl.Schema(), kv, mem), kv, mem)
}

// partProps are the writer properties of a rewritten or merged part: those
// of the Writer (zstd, dictionaries for the categorical strings only, no
// statistics of the ids), then extra. The categorical columns are the
// strings other than the id and the error text: string parameters and
// status, or a table's names.
func partProps(sc *arrow.Schema, kv [][2]string, mem memory.Allocator, extra ...parquet.WriterProperty) *parquet.WriterProperties {
	version := ""
	for _, p := range kv {
		if p[0] == KeyVersion {
			version = p[1]
		}
	}
	wp := []parquet.WriterProperty{
		parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithDictionaryDefault(false),
		parquet.WithCreatedBy("crosslink " + version),
	}
	wp = append(wp, noIDStats()...)
	wp = append(wp, extra...)
	for _, f := range sc.Fields() {
		if f.Type.ID() == arrow.STRING && f.Name != ColID && f.Name != ColError {
			wp = append(wp, parquet.WithDictionaryFor(f.Name, true))
		}
	}
	return parquet.NewWriterProperties(wp...)
}

// readIDsInto appends the ids and ok-ness of the rows of one part.
func readIDsInto(path string, d *partIDs) error {
	return scanIDs(path, func(id string, st Status) {
		d.ids = append(d.ids, strings.Clone(id))
		d.ok = append(d.ok, st == OK)
	})
}
