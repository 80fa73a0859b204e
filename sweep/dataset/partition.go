package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crosslink-sim/crosslink/vocab"
)

// A hive-partitioned dataset splits each table by the values of a few
// low-cardinality parameters of the main table:
// out/<spec>/scenarios/cca=cubic/orbit=geo/part-*.parquet, and the second
// tables the same way (out/<spec>/flows/cca=cubic/orbit=geo/part-*.parquet),
// so that a main part and the second-table parts it commits have the same
// partition path and name. The main parts leave the key columns out, as
// every Hive-style writer does, and record them in their metadata (see
// partKey): readers take them from the directory names. Keys are the
// parameters' column names.

// Partitions returns the directories of the main table of the dataset dir
// that may hold main parts: MainDir(dir) and every hive partition
// directory below it (names key=value, at any depth), MainDir(dir) first
// and the rest sorted.
func Partitions(dir string) ([]string, error) {
	ls, err := leaves(dir)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.main()
	}
	return out, nil
}

// leaves returns the leaves of the dataset dir (see leaf): the main table
// itself and each partition directory below it. A missing dir gives just
// the main table.
func leaves(dir string) ([]leaf, error) {
	if err := isDataset(dir); err != nil {
		return nil, err
	}
	out := []leaf{{root: dir}}
	var walk func(rel string) error
	walk = func(rel string) error {
		ents, err := readDir(filepath.Join(MainDir(dir), rel))
		if err != nil {
			return err
		}
		for _, e := range ents {
			if e.IsDir() && isPartition(e.Name()) {
				sub := filepath.Join(rel, e.Name())
				out = append(out, leaf{root: dir, rel: sub})
				if err := walk(sub); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, err
	}
	sort.Slice(out[1:], func(i, j int) bool { return out[1+i].rel < out[1+j].rel })
	return out, nil
}

// isDataset returns an error when dir exists but is not a directory,
// which ReadDir would only call "not a directory".
func isDataset(dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("dataset: %s is a file, not a dataset directory: move it away, or write the dataset under another output root (--out)", dir)
	}
	return nil
}

// NotInside returns an error when dir lies within a dataset, below the
// directory that holds its manifest (a table such as <dataset>/scenarios,
// or one of its partitions), naming that dataset's directory: the one to
// give instead. Taken for a dataset of the former layout, such a
// directory would be migrated into a dataset of its own inside the real
// one.
// The path is followed as given and with its symbolic links resolved, so
// a link to a table is caught too.
func NotInside(dir string) error {
	var starts []string
	if abs, err := filepath.Abs(dir); err == nil {
		starts = append(starts, abs)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		if abs, err := filepath.Abs(real); err == nil {
			starts = append(starts, abs)
		}
	}
	for _, start := range starts {
		for d := filepath.Dir(start); d != filepath.Dir(d); d = filepath.Dir(d) {
			if fi, err := os.Stat(filepath.Join(d, ManifestDir)); err == nil && fi.IsDir() {
				return fmt.Errorf("dataset: %s is inside the dataset %s (a table or partition of it): give the dataset's own directory, %s", dir, d, d)
			}
		}
	}
	return nil
}

func isPartition(name string) bool {
	return strings.Contains(name, "=") && !strings.HasPrefix(name, "_") && !strings.HasPrefix(name, ".")
}

// PartitionKeys returns the partition keys of the dataset in dir, outermost
// first, as its first partition path names them; nil when it is not
// partitioned.
func PartitionKeys(dir string) ([]string, error) {
	if err := isDataset(dir); err != nil {
		return nil, err
	}
	var keys []string
	d := MainDir(dir)
	for {
		ents, err := os.ReadDir(d)
		if errors.Is(err, os.ErrNotExist) {
			return keys, nil
		}
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		next := ""
		for _, e := range ents {
			if e.IsDir() && isPartition(e.Name()) {
				next = e.Name()
				break
			}
		}
		if next == "" {
			return keys, nil
		}
		k, _, _ := strings.Cut(next, "=")
		keys = append(keys, k)
		d = filepath.Join(d, next)
	}
}

// PartitionValue returns the text of v in a partition directory name:
// integers in decimal, true/false, strings with every byte outside
// [A-Za-z0-9._+-] percent-encoded as Hive does (so "/" and "=" cannot
// break the path). Floats cannot partition a dataset.
func PartitionValue(v vocab.Value) (string, error) {
	switch v.Kind() {
	case vocab.Int:
		return strconv.FormatInt(v.Int(), 10), nil
	case vocab.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case vocab.String:
		var sb strings.Builder
		for _, c := range []byte(v.Str()) {
			switch {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '+', c == '-':
				sb.WriteByte(c)
			default:
				fmt.Fprintf(&sb, "%%%02X", c)
			}
		}
		if sb.Len() == 0 {
			return "%20", nil // an empty value would make "k=", which Hive reads as null
		}
		return sb.String(), nil
	}
	return "", fmt.Errorf("dataset: a %s value cannot name a partition", v.Kind())
}

// Partitioned writes the main table (and second tables) of a sweep into
// hive partitions, one Writer per partition, opened when its first row
// arrives. It appends, ticks and closes like a Writer.
type Partitioned struct {
	dir     string
	schema  *vocab.Schema
	params  []int    // parameter index of each key
	keys    []string // column names
	opts    Options
	writers map[string]*Writer
	order   []string // partition paths in the order they opened

}

// NewPartitioned returns a writer that splits rows by the parameters named
// in by (parameter names, outermost first). Float parameters are refused:
// their text is not a stable directory name. partitions is the number of
// partitions expected; each partition's parts hold at most
// max(256, MaxRows/partitions) rows, so the builders of all partitions
// together take about the memory of one Writer.
func NewPartitioned(dir string, s *vocab.Schema, by []string, partitions int, opts Options) (*Partitioned, error) {
	if len(by) == 0 {
		return nil, fmt.Errorf("dataset: no partition keys")
	}
	p := &Partitioned{dir: dir, schema: s, writers: map[string]*Writer{}}
	seen := map[string]bool{}
	for _, name := range by {
		i := s.ParamIndex(name)
		if i < 0 {
			return nil, fmt.Errorf("dataset: partition key %q is not a parameter of %s", name, s.Name)
		}
		if seen[name] {
			return nil, fmt.Errorf("dataset: partition key %q given twice", name)
		}
		seen[name] = true
		if k := s.Params[i].Kind; k == vocab.Float {
			return nil, fmt.Errorf("dataset: cannot partition by %s: it is a float parameter, and partitions need a few exact values (a string, int or bool parameter)", name)
		}
		p.params = append(p.params, i)
		p.keys = append(p.keys, s.Params[i].Column())
	}
	opts.fill()
	if err := cleanTmp(dir, opts.Shard); err != nil {
		return nil, err
	}
	opts.MaxRows = max(256, opts.MaxRows/max(partitions, 1))
	p.opts = opts
	return p, nil
}

// partKey is a partition key of a leaf: its column, where the column
// stands in the main table's schema, and the leaf's value. The main parts
// of a partitioned dataset leave the key columns out, as every Hive-style
// writer does (pyarrow, polars and DuckDB write the same), since readers
// take them from the directory names and refuse a column that is in both;
// the keys are recorded in each part's metadata (KeyPartition), from which
// ReadTable puts the columns back.
type partKey struct {
	Column string `json:"column"`
	Kind   string `json:"kind"`  // int, string or bool
	Index  int    `json:"index"` // field index in Schema
	Value  any    `json:"value"`
}

func newPartKey(column string, param int, v vocab.Value) partKey {
	k := partKey{Column: column, Kind: v.Kind().String(), Index: 4 + param} // scenario_id, point_id, replicate, seed first
	switch v.Kind() {
	case vocab.Int:
		k.Value = v.Int()
	case vocab.Bool:
		k.Value = v.Bool()
	default:
		k.Value = v.Str()
	}
	return k
}

// Keys returns the partition keys: the parameters' column names.
func (p *Partitioned) Keys() []string { return p.keys }

// path returns the relative partition directory of a row.
func (p *Partitioned) path(r *Row) (string, error) {
	if len(r.Params) != len(p.schema.Params) {
		return "", fmt.Errorf("dataset: row %s has %d parameters, want %d", r.ID, len(r.Params), len(p.schema.Params))
	}
	parts := make([]string, len(p.params))
	for k, i := range p.params {
		v, err := PartitionValue(r.Params[i])
		if err != nil {
			return "", fmt.Errorf("dataset: row %s: %s: %w", r.ID, p.keys[k], err)
		}
		parts[k] = p.keys[k] + "=" + v
	}
	return filepath.Join(parts...), nil
}

// AppendRows adds rows to their partitions in order and returns how many
// it added; it stops at the first row a partition's Writer refuses.
func (p *Partitioned) AppendRows(rows []Row) (int, error) {
	added := 0
	for len(rows) > 0 {
		path, err := p.path(&rows[0])
		if err != nil {
			return added, err
		}
		n := 1
		for n < len(rows) {
			q, err := p.path(&rows[n])
			if err != nil || q != path {
				break
			}
			n++
		}
		w, ok := p.writers[path]
		if !ok {
			keys := make([]partKey, len(p.params))
			for k, i := range p.params {
				keys[k] = newPartKey(p.keys[k], i, rows[0].Params[i])
			}
			if w, err = newWriterAt(leaf{root: p.dir, rel: path}, p.schema, p.opts, keys...); err != nil {
				return added, err
			}
			p.writers[path] = w
			p.order = append(p.order, path)
		}
		k, err := w.AppendRows(rows[:n])
		added += k
		if err != nil {
			return added, err
		}
		rows = rows[n:]
	}
	return added, nil
}

// Tick closes the parts of every partition whose oldest row has waited
// MaxAge (see Writer.Tick).
func (p *Partitioned) Tick() error {
	for _, path := range p.order {
		if err := p.writers[path].Tick(); err != nil {
			return err
		}
	}
	return nil
}

// Close writes every partition's buffered rows; it closes them all even
// when one fails and returns the first error.
func (p *Partitioned) Close() error {
	var first error
	for _, path := range p.order {
		if err := p.writers[path].Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// TableParts returns the part files of the second table called table in
// the dataset dir, across its partitions, in sorted order.
func TableParts(dir, table string) ([]string, error) {
	ls, err := leaves(dir)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, l := range ls {
		p, err := ownParts(l.table(table))
		if err != nil {
			return nil, err
		}
		paths = append(paths, p...)
	}
	sort.Strings(paths)
	return paths, nil
}

// ReadSecond reads the second table called table of the dataset dir,
// every partition's, into one table. The caller releases it; mem may be
// nil.
func ReadSecond(dir, table string, mem memory.Allocator) (arrow.Table, error) {
	paths, err := TableParts(dir, table)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("dataset: no part files of table %s in %s", table, dir)
	}
	return readParts(paths, mem)
}

// Holds returns nil when dir holds a dataset a crosslink run wrote: a
// main table directory, a manifest, or parts in the former layout (see
// Migrate). Otherwise the error says so, so that a command given the
// wrong directory (/etc, an empty one) refuses before it writes anything
// there.
func Holds(dir string) error {
	if err := isDataset(dir); err != nil {
		return err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("dataset: %s is not a directory", dir)
	}
	if err := NotInside(dir); err != nil {
		return err
	}
	for _, n := range []string{MainTable, ManifestDir} {
		if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && fi.IsDir() {
			return nil
		}
	}
	if NeedsMigration(dir) {
		return nil
	}
	if probeLock(filepath.Join(dir, LockFile)) != free {
		return fmt.Errorf("dataset: %s holds no part yet: a run is writing it (it holds %s) and has written no scenario's row; merge once it has", dir, LockFile)
	}
	return fmt.Errorf("dataset: %s holds no crosslink dataset (no %s/ table and no %s/): give the directory crosslink run wrote, <out>/<spec name>", dir, MainTable, ManifestDir)
}
