package dataset

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Parts returns the paths of the main table's part files of the dataset in
// dir, in sorted order: those in dir and, for a hive-partitioned dataset,
// those in its partition directories (see Partitions). It skips temporary
// files and the second tables. A missing dir has no parts.
func Parts(dir string) ([]string, error) {
	leaves, err := Partitions(dir)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, l := range leaves {
		p, err := ownParts(l)
		if err != nil {
			return nil, err
		}
		paths = append(paths, p...)
	}
	sort.Strings(paths)
	return paths, nil
}

// readDir lists dir; a directory that does not exist is empty, since a
// dataset, a partition or a second table that nothing wrote yet has no
// parts.
func readDir(dir string) ([]os.DirEntry, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return ents, nil
}

// ownParts returns the part files directly in dir, in sorted order.
func ownParts(dir string) ([]string, error) {
	ents, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasPrefix(n, "part-") || !strings.HasSuffix(n, ".parquet") {
			continue
		}
		paths = append(paths, filepath.Join(dir, n))
	}
	sort.Strings(paths)
	return paths, nil
}

// Done is the set of scenario ids already in a dataset, with their status.
// Ids in the 32-hex-digit form of plan.ID are kept as 16 bytes, so that the
// set of a million-scenario sweep stays small.
type Done struct {
	hex   map[[16]byte]Status
	other map[string]Status
	// repeated counts the ids added again: rows on disk that a rerun
	// superseded and Supersede has not yet removed.
	repeated int
}

// NewDone returns an empty set.
func NewDone() *Done {
	return &Done{hex: map[[16]byte]Status{}, other: map[string]Status{}}
}

func hexKey(id string) (k [16]byte, ok bool) {
	if len(id) != 32 {
		return k, false
	}
	_, err := hex.Decode(k[:], []byte(id))
	return k, err == nil
}

// Add records id with status st. When an id is present more than once (a
// failed scenario rerun), ok wins.
func (d *Done) Add(id string, st Status) {
	if k, ok := hexKey(id); ok {
		put(d, d.hex, k, st)
		return
	}
	put(d, d.other, strings.Clone(id), st)
}

// put records k with status st in m, counting a repeat when k is there
// already; a present ok stays, since ok wins.
func put[K comparable](d *Done, m map[K]Status, k K, st Status) {
	was, seen := m[k]
	if seen {
		d.repeated++
	}
	if was != OK {
		m[k] = st
	}
}

// Repeated returns how many of the rows added repeat an id added before:
// superseded rows of rerun scenarios (--retry-failed) still on disk,
// which readers other than crosslink's see beside the rows that replace
// them until Supersede removes them.
func (d *Done) Repeated() int {
	if d == nil {
		return 0
	}
	return d.repeated
}

// Status returns the status of id and whether it is present.
func (d *Done) Status(id string) (Status, bool) {
	if d == nil {
		return "", false
	}
	if k, ok := hexKey(id); ok {
		st, ok := d.hex[k]
		return st, ok
	}
	st, ok := d.other[id]
	return st, ok
}

// Len returns the number of ids.
func (d *Done) Len() int {
	if d == nil {
		return 0
	}
	return len(d.hex) + len(d.other)
}

// Count returns the number of ids with status st.
func (d *Done) Count(st Status) int {
	n := 0
	for _, s := range d.hex {
		if s == st {
			n++
		}
	}
	for _, s := range d.other {
		if s == st {
			n++
		}
	}
	return n
}

// interned statuses, so that Done holds no reference into Arrow buffers.
var statuses = map[string]Status{"ok": OK, "failed": Failed, "panic": Panic, "timeout": Timeout, "canceled": Canceled}

// ReadIDs returns the ids and statuses in the main table in dir, reading
// only the scenario_id and status columns. A missing dir gives an empty set.
func ReadIDs(dir string) (*Done, error) {
	paths, err := Parts(dir)
	if err != nil {
		return nil, err
	}
	d := NewDone()
	for _, p := range paths {
		if err := readIDs(p, d); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// ReadIDsExcept is ReadIDs less the main parts whose paths skip holds
// (damaged ones, see Verify).
func ReadIDsExcept(dir string, skip map[string]bool) (*Done, error) {
	paths, err := Parts(dir)
	if err != nil {
		return nil, err
	}
	d := NewDone()
	for _, p := range paths {
		if skip[p] {
			continue
		}
		if err := readIDs(p, d); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func readIDs(path string, d *Done) error { return scanIDs(path, d.Add) }

// scanIDs calls f with the id and status of each row of one main part, in
// order. The id is only valid during the call.
func scanIDs(path string, f func(id string, st Status)) error {
	return scanColumns(path, []string{ColID, ColStatus}, func(cols []arrow.Array) error {
		ids, ok1 := cols[0].(*array.String)
		sts, ok2 := cols[1].(*array.String)
		if !ok1 || !ok2 {
			return fmt.Errorf("%s and %s must be strings", ColID, ColStatus)
		}
		for i := 0; i < ids.Len(); i++ {
			s := sts.Value(i)
			st, ok := statuses[s]
			if !ok {
				return fmt.Errorf("unknown status %q", s)
			}
			f(ids.Value(i), st)
		}
		return nil
	})
}

// SeedsOf calls f with the id and seed of every row of the main part at
// path.
func SeedsOf(path string, f func(id string, seed uint64)) error {
	return scanColumns(path, []string{ColID, ColSeed}, func(cols []arrow.Array) error {
		ids, ok1 := cols[0].(*array.String)
		seeds, ok2 := cols[1].(*array.Uint64)
		if !ok1 || !ok2 {
			return fmt.Errorf("%s must be strings and %s uint64", ColID, ColSeed)
		}
		for i := 0; i < ids.Len(); i++ {
			f(ids.Value(i), seeds.Value(i))
		}
		return nil
	})
}

// scanColumns reads the columns names of the part at path, a record batch
// at a time, and hands each batch's arrays to f, in the order of names.
func scanColumns(path string, names []string, f func(cols []arrow.Array) error) error {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return fmt.Errorf("dataset: %s: %w", path, err)
	}
	defer rdr.Close()
	sc := rdr.MetaData().Schema
	idx := make([]int, len(names))
	for i, n := range names {
		if idx[i] = sc.ColumnIndexByName(n); idx[i] < 0 {
			return fmt.Errorf("dataset: %s has no %s column", path, n)
		}
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.DefaultAllocator)
	if err != nil {
		return fmt.Errorf("dataset: %s: %w", path, err)
	}
	rr, err := fr.GetRecordReader(context.Background(), idx, nil)
	if err != nil {
		return fmt.Errorf("dataset: %s: %w", path, err)
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		// The reader keeps the order of idx, which is names'; a reader
		// that did not would hand f the wrong columns, so it is checked.
		for i, n := range names {
			if got := rec.Schema().Field(i).Name; got != n {
				return fmt.Errorf("dataset: %s: column %d read is %s, want %s", path, i, got, n)
			}
		}
		cols := rec.Columns()
		if err := f(cols); err != nil {
			return fmt.Errorf("dataset: %s: %w", path, err)
		}
	}
	if err := rr.Err(); err != nil {
		return fmt.Errorf("dataset: %s: %w", path, err)
	}
	return nil
}

// ReadTable reads every part in dir (and its partitions, see Parts), in
// sorted order, into one table, with one row per scenario in a main table
// (see Supersede). The parts must share one schema. The caller releases the table. mem may be
// nil for the default allocator.
func ReadTable(dir string, mem memory.Allocator) (arrow.Table, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	paths, err := Parts(dir)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("dataset: no part files in %s", dir)
	}
	return readParts(paths, mem)
}

// readParts reads the given parts into one table (see ReadTable).
func readParts(paths []string, mem memory.Allocator) (arrow.Table, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	var tables []arrow.Table
	defer func() {
		for _, t := range tables {
			t.Release()
		}
	}()
	for _, p := range paths {
		t, err := readFile(p, mem)
		if err != nil {
			return nil, err
		}
		if t, err = withPartition(t, p, mem); err != nil {
			return nil, err
		}
		tables = append(tables, t)
		if !sameColumns(t.Schema(), tables[0].Schema()) {
			return nil, fmt.Errorf("dataset: %s: schema differs from %s: a dataset holds the rows of one model version (crosslink run moves older versions' parts to %s/)", p, paths[0], StaleDir)
		}
	}
	sc := tables[0].Schema()
	cols := make([]arrow.Column, sc.NumFields())
	var rows int64
	for _, t := range tables {
		rows += t.NumRows()
	}
	for i := range cols {
		var chunks []arrow.Array
		for _, t := range tables {
			chunks = append(chunks, t.Column(i).Data().Chunks()...)
		}
		ch := arrow.NewChunked(sc.Field(i).Type, chunks)
		cols[i] = *arrow.NewColumn(sc.Field(i), ch)
		ch.Release()
	}
	tbl := array.NewTable(sc, cols, rows)
	for i := range cols {
		cols[i].Release()
	}
	// A scenario rerun by --retry-failed may have its older row on disk
	// until Supersede rewrites the part: readers see one row per id.
	return dedupe(tbl, mem)
}

// withPartition returns tbl, read from the part at path, with the
// partition key columns its metadata records put back in their places
// (see partKey); tbl itself when it has none (then it is not released).
func withPartition(tbl arrow.Table, path string, mem memory.Allocator) (arrow.Table, error) {
	kv, err := fileMeta(path)
	if err != nil {
		tbl.Release()
		return nil, err
	}
	var keys []partKey
	for _, p := range kv {
		if p[0] == KeyPartition {
			d := json.NewDecoder(strings.NewReader(p[1]))
			d.UseNumber()
			if err := d.Decode(&keys); err != nil {
				tbl.Release()
				return nil, fmt.Errorf("dataset: %s: %s: %w", path, KeyPartition, err)
			}
		}
	}
	if len(keys) == 0 {
		return tbl, nil
	}
	defer tbl.Release()
	sort.Slice(keys, func(i, j int) bool { return keys[i].Index < keys[j].Index })
	n := int(tbl.NumRows())
	fields := append([]arrow.Field(nil), tbl.Schema().Fields()...)
	cols := make([]arrow.Column, 0, len(fields)+len(keys))
	for i := range fields {
		cols = append(cols, *tbl.Column(i))
	}
	for _, k := range keys {
		var b array.Builder
		switch k.Kind {
		case "int":
			ib := array.NewInt64Builder(mem)
			num, _ := k.Value.(json.Number)
			v, err := num.Int64()
			if err != nil {
				ib.Release()
				return nil, fmt.Errorf("dataset: %s: partition key %s: %w", path, k.Column, err)
			}
			for range n {
				ib.Append(v)
			}
			b = ib
		case "bool":
			bb := array.NewBooleanBuilder(mem)
			v, _ := k.Value.(bool)
			for range n {
				bb.Append(v)
			}
			b = bb
		default:
			sb := array.NewStringBuilder(mem)
			v, _ := k.Value.(string)
			for range n {
				sb.Append(v)
			}
			b = sb
		}
		arr := b.NewArray()
		b.Release()
		f := arrow.Field{Name: k.Column, Type: arr.DataType()}
		ch := arrow.NewChunked(arr.DataType(), []arrow.Array{arr})
		arr.Release()
		col := arrow.NewColumn(f, ch)
		ch.Release()
		at := min(max(k.Index, 0), len(fields))
		fields = append(fields[:at], append([]arrow.Field{f}, fields[at:]...)...)
		cols = append(cols[:at], append([]arrow.Column{*col}, cols[at:]...)...)
		defer col.Release()
	}
	out := array.NewTable(arrow.NewSchema(fields, nil), cols, int64(n))
	return out, nil
}

func readFile(path string, mem memory.Allocator) (arrow.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	t, err := pqarrow.ReadTable(context.Background(), f, nil, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	return t, nil
}

// ReadMeta returns the key-value metadata, less the stored Arrow schema,
// of the part of dir written by the latest run (KeyRunStarted), which
// records the spec and profile the dataset was last run at: a spec given
// another axis value, or a dataset run at the quick profile and then at
// full, holds parts of both. Parts that do not record their run's start
// (written before it was recorded) count as older, the newest file
// first among them. A damaged part (truncated, say) is passed over; when
// no part of the main table can be read, the second tables' parts, which
// record the same, are read instead, and when none can be, the error
// names the first damage.
func ReadMeta(dir string) (map[string]string, error) {
	paths, err := Parts(dir)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("dataset: no part files in %s", dir)
	}
	kv, first := latestMeta(paths)
	if kv == nil {
		// The second tables the manifest lists.
		tables, err := readDir(filepath.Join(dir, ManifestDir))
		if err != nil {
			return nil, err
		}
		var more []string
		for _, t := range tables {
			if !t.IsDir() || t.Name() == MainTable {
				continue
			}
			ps, err := TableParts(dir, t.Name())
			if err != nil {
				return nil, err
			}
			more = append(more, ps...)
		}
		kv, _ = latestMeta(more)
	}
	if kv == nil {
		return nil, fmt.Errorf("dataset: no part of %s can be read, so neither can the spec it records (the first: %w)", dir, first)
	}
	m := make(map[string]string, len(kv))
	for _, p := range kv {
		m[p[0]] = p[1]
	}
	return m, nil
}

// Profiles returns the profiles the main parts of dir record, sorted,
// "" standing for the base spec; unreadable parts are left out (Verify
// and Repair name them).
func Profiles(dir string) ([]string, error) {
	paths, err := Parts(dir)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, p := range paths {
		kv, err := fileMeta(p)
		if err != nil {
			continue
		}
		profile := ""
		for _, e := range kv {
			if e[0] == KeyProfile {
				profile = e[1]
			}
		}
		seen[profile] = true
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// latestMeta returns the metadata of the part of paths written by the
// latest run (see ReadMeta), nil when none can be read, and the first
// error met.
func latestMeta(paths []string) (latest [][2]string, first error) {
	var at time.Time
	for _, p := range newestFirst(paths) {
		kv, err := fileMeta(p)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		if t := runStarted(kv); latest == nil || t.After(at) {
			latest, at = kv, t
		}
	}
	return latest, first
}

// runStarted is the KeyRunStarted of a part's metadata, zero when it has
// none or it does not parse.
func runStarted(kv [][2]string) time.Time {
	for _, p := range kv {
		if p[0] == KeyRunStarted {
			t, _ := time.Parse(time.RFC3339Nano, p[1])
			return t
		}
	}
	return time.Time{}
}

// newestFirst returns paths ordered by modification time, the newest
// first, and by name among equal times. A file it cannot stat goes last:
// its reader will say why.
func newestFirst(paths []string) []string {
	type file struct {
		path string
		mod  time.Time
	}
	files := make([]file, len(paths))
	for i, p := range paths {
		files[i].path = p
		if fi, err := os.Stat(p); err == nil {
			files[i].mod = fi.ModTime()
		}
	}
	slices.SortStableFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) })
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.path
	}
	return out
}

// fileMeta returns the key-value metadata of one file in stored order,
// less ARROW:schema (which the writer adds itself).
func fileMeta(path string) ([][2]string, error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	defer rdr.Close()
	md := rdr.MetaData().KeyValueMetadata()
	var kv [][2]string
	for i, k := range md.Keys() {
		if k == "ARROW:schema" {
			continue
		}
		kv = append(kv, [2]string{k, md.Values()[i]})
	}
	return kv, nil
}
