package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
)

// MergedShard is the shard infix of the part Merge writes.
const MergedShard = "merged"

// Merge compacts the main table in dir and each second table under it,
// after dropping superseded rows (Supersede); dir/_corrupt is left alone.
// The second tables are merged first: an interrupted Merge leaves the main
// table's parts as they were, so a later Writer of the shard finds its main
// parts and removes no table part. See mergeDir for one table.
//
// A partitioned dataset is merged partition by partition: each keeps one
// part of its own, so the hive layout stays as it is.
func Merge(dir string, mem memory.Allocator) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	if _, err := Supersede(dir, mem); err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	leaves, err := Partitions(dir)
	if err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	for _, l := range leaves {
		if err := mergeLeaf(l, mem); err != nil {
			return err
		}
	}
	return nil
}

// mergeLeaf merges the parts directly in dir and its second tables.
func mergeLeaf(dir string, mem memory.Allocator) error {
	tables, err := tableDirs(dir)
	if err != nil {
		return fmt.Errorf("dataset: merge: %w", err)
	}
	for _, t := range tables {
		if err := mergeDir(filepath.Join(dir, t), mem); err != nil {
			return err
		}
	}
	return mergeDir(dir, mem)
}

// mergeDir compacts every part in dir into one part, part-merged-<seq>.parquet,
// with the same rows sorted by scenario_id (stable, so the rows of one
// scenario in a second table keep their order) and the key-value metadata
// of the first part. The new part is written through a temporary file and
// renamed before the old parts are removed, so a crash in between leaves
// every row at least once and never loses one. mem may be nil.
func mergeDir(dir string, mem memory.Allocator) error {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	old, err := ownParts(dir)
	if err != nil || len(old) == 0 {
		return err
	}
	kv, err := fileMeta(old[0])
	if err != nil {
		return err
	}
	tbl, err := readParts(old, mem)
	if err != nil {
		return err
	}
	defer tbl.Release()
	rec, err := sortedRecord(tbl, mem)
	if err != nil {
		return err
	}
	defer rec.Release()

	// Row groups of at most 2^20 rows (the writer's default is 64 Mi), so
	// readers can skip through a large merged part.
	props := partProps(tbl.Schema(), kv, mem, parquet.WithMaxRowGroupLength(1<<20))
	seq, err := nextSeq(dir, MergedShard)
	if err != nil {
		return err
	}
	name := partName(MergedShard, seq)
	if err := writeFile(dir, name, rec, props, kv, mem); err != nil {
		return err
	}
	for _, p := range old {
		if filepath.Base(p) == name {
			continue
		}
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("dataset: merge: %w", err)
		}
	}
	return syncDir(dir)
}

// sortedRecord returns the rows of tbl as one record, stably sorted by
// scenario_id.
func sortedRecord(tbl arrow.Table, mem memory.Allocator) (arrow.RecordBatch, error) {
	idx := tbl.Schema().FieldIndices(ColID)
	if len(idx) != 1 {
		return nil, fmt.Errorf("dataset: merge: no %s column", ColID)
	}
	n := int(tbl.NumRows())
	ids := make([]string, 0, n)
	for _, c := range tbl.Column(idx[0]).Data().Chunks() {
		s, ok := c.(*array.String)
		if !ok {
			return nil, fmt.Errorf("dataset: merge: %s is not a string column", ColID)
		}
		for i := 0; i < s.Len(); i++ {
			ids = append(ids, s.Value(i))
		}
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool { return ids[perm[a]] < ids[perm[b]] })
	rec, err := takeRecord(tbl, perm, mem)
	if err != nil {
		return nil, fmt.Errorf("dataset: merge: %w", err)
	}
	return rec, nil
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
