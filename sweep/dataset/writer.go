package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Defaults of Options.
const (
	DefaultShard   = "0of1"
	DefaultMaxRows = 50_000
	DefaultMaxAge  = 60 * time.Second
)

// Key-value metadata keys of every part file.
const (
	KeyGoVersion    = "crosslink.go_version"
	KeyModel        = "crosslink.model"
	KeyModelVersion = "crosslink.model_version"
	KeyModule       = "crosslink.module_version"
	KeyRevision     = "crosslink.vcs_revision"
	KeyPartition    = "crosslink.partition"
	KeyProfile      = "crosslink.profile"
	KeyRunStarted   = "crosslink.run_started"
	KeySpec         = "crosslink.spec"
	KeySpecName     = "crosslink.spec_name"
	KeySpecSHA256   = "crosslink.spec_sha256"
	KeyTable        = "crosslink.table"
	KeyVersion      = "crosslink.version"
)

// Meta is what a part file records about how it was made.
type Meta struct {
	SpecName     string // "rc13-fig6"
	Spec         string // the spec text as read
	Version      string // crosslink version
	Model        string
	ModelVersion int
	Profile      string // "quick", "full" or empty
	// Started is when the run that writes the parts started (UTC,
	// KeyRunStarted): the parts of the latest run record the spec and
	// profile a dataset was last run at (ReadMeta), whatever a copy or
	// a merge does to the files' times. Zero: not recorded.
	Started time.Time

	partition string // JSON of the partition keys of a leaf's main parts
}

// pairs returns the file key-value metadata in sorted key order.
func (m Meta) pairs(table string) [][2]string {
	sum := sha256.Sum256([]byte(m.Spec))
	b := ReadBuild()
	kv := [][2]string{
		{KeyModule, b.Module},
		{KeyRevision, b.Revision},
		{KeyGoVersion, runtime.Version()},
		{KeyModel, m.Model},
		{KeyModelVersion, strconv.Itoa(m.ModelVersion)},
		{KeyProfile, m.Profile},
		{KeySpec, m.Spec},
		{KeySpecName, m.SpecName},
		{KeySpecSHA256, hex.EncodeToString(sum[:])},
		{KeyTable, table},
		{KeyVersion, m.Version},
	}
	if m.partition != "" && table == "" {
		kv = append(kv, [2]string{KeyPartition, m.partition})
	}
	if !m.Started.IsZero() {
		kv = append(kv, [2]string{KeyRunStarted, m.Started.UTC().Format(time.RFC3339Nano)})
	}
	sort.Slice(kv, func(i, j int) bool { return kv[i][0] < kv[j][0] })
	return kv
}

// Options control how a Writer cuts and encodes part files.
type Options struct {
	Shard   string        // part name infix, "0of1" when empty
	MaxRows int           // rows per part, DefaultMaxRows when 0
	MaxAge  time.Duration // a part with rows older than this is closed by Tick; DefaultMaxAge when 0
	Meta    Meta
	Mem     memory.Allocator // memory.DefaultAllocator when nil
	Now     func() time.Time // time.Now when nil; only decides when parts close
}

func (o *Options) fill() {
	if o.Shard == "" {
		o.Shard = DefaultShard
	}
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.MaxAge <= 0 {
		o.MaxAge = DefaultMaxAge
	}
	if o.Mem == nil {
		o.Mem = memory.DefaultAllocator
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// col is the typed builder of one parameter, metric or table column. Only
// the builder of its kind is set; appending switches on the kind once per
// cell instead of boxing values in interfaces.
type col struct {
	name string
	kind vocab.Kind
	skip bool // a partition key: its value is in the directory name, not the file
	f    *array.Float64Builder
	i    *array.Int64Builder
	s    *array.StringBuilder
	b    *array.BooleanBuilder
}

func newCol(mem memory.Allocator, name string, k vocab.Kind) col {
	c := col{name: name, kind: k}
	switch k {
	case vocab.Float:
		c.f = array.NewFloat64Builder(mem)
	case vocab.Int:
		c.i = array.NewInt64Builder(mem)
	case vocab.String:
		c.s = array.NewStringBuilder(mem)
	case vocab.Bool:
		c.b = array.NewBooleanBuilder(mem)
	default:
		panic(fmt.Sprintf("dataset: bug: column %s has kind %s", name, k))
	}
	return c
}

func (c *col) builder() array.Builder {
	switch c.kind {
	case vocab.Float:
		return c.f
	case vocab.Int:
		return c.i
	case vocab.String:
		return c.s
	}
	return c.b
}

// check reports whether v fits c: a value of c's kind, or (for nullable
// columns) an Invalid value meaning null.
func (c *col) check(v vocab.Value, nullable bool) error {
	if v.Kind() == c.kind || (nullable && v.Kind() == vocab.Invalid) {
		return nil
	}
	return fmt.Errorf("dataset: column %s: %s value in a %s column", c.name, v.Kind(), c.kind)
}

func (c *col) append(v vocab.Value) {
	if v.Kind() == vocab.Invalid {
		c.builder().AppendNull()
		return
	}
	switch c.kind {
	case vocab.Float:
		c.f.Append(v.Float())
	case vocab.Int:
		c.i.Append(v.Int())
	case vocab.String:
		c.s.Append(v.Str())
	case vocab.Bool:
		c.b.Append(v.Bool())
	}
}

// appendColumn adds value i of every row's parameters, or of its metrics,
// to a main-table column, whose builder has room for a whole part (see
// parts.reserve), so that fixed-width cells skip the capacity check. The
// rows have passed check: each value is of c's kind, or Invalid (null);
// a row without metrics (a failed scenario) has nulls. One loop per kind,
// with the accessors inlined, as this runs for every cell of a sweep.
func (c *col) appendColumn(rows []Row, i int, metrics bool) {
	cell := func(r *Row) *vocab.Value {
		if metrics {
			if r.Metrics == nil {
				return nil
			}
			return &r.Metrics[i]
		}
		return &r.Params[i]
	}
	switch c.kind {
	case vocab.Float:
		for k := range rows {
			if v := cell(&rows[k]); v != nil && v.Kind() == vocab.Float {
				c.f.UnsafeAppend(v.Float())
			} else {
				c.f.AppendNull()
			}
		}
	case vocab.Int:
		for k := range rows {
			if v := cell(&rows[k]); v != nil && v.Kind() == vocab.Int {
				c.i.UnsafeAppend(v.Int())
			} else {
				c.i.AppendNull()
			}
		}
	case vocab.Bool:
		for k := range rows {
			if v := cell(&rows[k]); v != nil && v.Kind() == vocab.Bool {
				c.b.UnsafeAppend(v.Bool())
			} else {
				c.b.AppendNull()
			}
		}
	case vocab.String:
		for k := range rows {
			if v := cell(&rows[k]); v != nil && v.Kind() == vocab.String {
				c.s.Append(v.Str())
			} else {
				c.s.AppendNull()
			}
		}
	}
}

// parts accumulates rows in Arrow builders and writes them out as whole
// part files.
type parts struct {
	table  string // "" for the main table
	root   string // the dataset directory
	rel    string // the directory of the parts, relative to root
	opts   Options
	schema *arrow.Schema
	props  *parquet.WriterProperties
	kv     [][2]string
	bld    []array.Builder // every column, in schema order
	n      int             // rows buffered
	first  time.Time       // when the oldest buffered row arrived
	seq    int             // number of the next part
	files  []string        // parts written by this writer
}

func newParts(root, rel string, sc *arrow.Schema, dict []string, table string, opts Options) (*parts, error) {
	seq, err := nextSeq(filepath.Join(root, rel), opts.Shard)
	if err != nil {
		return nil, err
	}
	wp := []parquet.WriterProperty{
		parquet.WithAllocator(opts.Mem),
		parquet.WithCompression(compress.Codecs.Zstd),
		// zstd level 1 (the fastest): sweep columns are mostly floats
		// that no level compresses much further, and level 1 makes files
		// of the same size as the default level 3 (71 bytes per fso-ber
		// row either way) in less time.
		parquet.WithCompressionLevel(1),
		parquet.WithDictionaryDefault(false),
		parquet.WithCreatedBy("crosslink " + opts.Meta.Version),
		parquet.WithStats(true),
	}
	wp = append(wp, noIDStats()...)
	for _, c := range dict {
		wp = append(wp, parquet.WithDictionaryFor(c, true))
	}
	return &parts{
		table:  table,
		root:   root,
		rel:    rel,
		opts:   opts,
		schema: sc,
		props:  parquet.NewWriterProperties(wp...),
		kv:     opts.Meta.pairs(table),
		seq:    seq,
	}, nil
}

// noIDStats turns off the row-group statistics of the id columns. Ids
// are uniform random hex, so any row group's smallest and largest span
// nearly the whole range and prune nothing, and working them out costs a
// string comparison per row and column (a few per cent of a sweep of a
// cheap model, such as fso-ber's).
func noIDStats() []parquet.WriterProperty {
	return []parquet.WriterProperty{parquet.WithStatsFor(ColID, false), parquet.WithStatsFor(ColPoint, false)}
}

// partName returns the file name of part seq of a shard.
func partName(shard string, seq int) string {
	return fmt.Sprintf("part-%s-%06d.parquet", shard, seq)
}

// PartShard parses the name of a main-table part that shard i of n wrote,
// "part-<i>of<n>-<seq>.parquet" (partName); ok is false for any other name
// (a whole run's part, a merged one, a file crosslink did not name).
func PartShard(name string) (i, n int, ok bool) {
	rest, ok := strings.CutPrefix(name, "part-")
	if !ok {
		return 0, 0, false
	}
	rest, ok = strings.CutSuffix(rest, ".parquet")
	k := strings.LastIndexByte(rest, '-')
	if !ok || k < 0 {
		return 0, 0, false
	}
	if _, err := strconv.ParseUint(rest[k+1:], 10, 63); err != nil {
		return 0, 0, false
	}
	return parseShardInfix(rest[:k])
}

// nextSeq returns the number after the highest existing part of shard in
// dir (1 when there is none, or no dir).
func nextSeq(dir, shard string) (int, error) {
	ents, err := readDir(dir)
	if err != nil {
		return 0, err
	}
	prefix := "part-" + shard + "-"
	seq := 1
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".parquet") {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, prefix), ".parquet"))
		if err != nil {
			continue
		}
		seq = max(seq, n+1)
	}
	return seq, nil
}

// reserve sizes the builders for a whole part, so that they do not grow by
// doubling (and leave the halves as garbage) while a part fills. The second
// tables have no fixed number of rows per part and start small.
func (p *parts) reserve() {
	n := p.opts.MaxRows
	if p.table != "" {
		n = min(n, 4096)
	}
	for _, b := range p.bld {
		b.Reserve(n)
		if sb, ok := b.(*array.StringBuilder); ok && p.table == "" && (sb == p.bld[0] || sb == p.bld[1]) {
			sb.ReserveData(n * 32) // scenario and point ids are 32 hex digits
		}
	}
}

// cut takes the buffered rows as the columns of the next part, or returns
// nil if there are none.
func (p *parts) cut() *pending {
	if p.n == 0 {
		return nil
	}
	cols := make([]arrow.Array, len(p.bld))
	for i, b := range p.bld {
		cols[i] = b.NewArray()
	}
	q := &pending{p: p, name: partName(p.opts.Shard, p.seq), cols: cols, rows: int64(p.n)}
	p.n = 0
	p.seq++
	p.files = append(p.files, q.name)
	p.reserve()
	return q
}

// pending is a part cut but not yet on disk: its columns, each held once.
type pending struct {
	p    *parts
	name string
	cols []arrow.Array
	rows int64
}

// write writes the part (encode, then publish).
func (q *pending) write() error {
	e, err := q.encode()
	if err != nil {
		return err
	}
	return e.publish()
}

// encode writes the part up to its publication (see encodePart) and
// releases its columns. It writes as pqarrow's FileWriter.Write writes a
// record of one row group (a row group, then each column in order;
// FileWriter.Close closes the row group), so the file is byte for byte
// the same (TestPartColumnsAsRecord), but it releases each column as soon
// as it is encoded: the part's memory shrinks while it is written instead
// of staying whole until the file is done, which lowers the heap the next
// part's rows accumulate on.
func (q *pending) encode() (*encoded, error) {
	defer q.release()
	rel := filepath.Join(q.p.rel, q.name)
	if q.rows > q.p.props.MaxRowGroupLength() { // never with parts of DefaultMaxRows
		rec := array.NewRecordBatch(q.p.schema, q.cols, q.rows)
		defer rec.Release()
		return encodePart(q.p.root, rel, filepath.Join(q.p.root, rel), q.p.props, q.p.kv, q.p.opts.Mem, func(fw *pqarrow.FileWriter) (int64, error) {
			return rec.NumRows(), fw.Write(rec)
		}, q.p.schema)
	}
	return encodePart(q.p.root, rel, filepath.Join(q.p.root, rel), q.p.props, q.p.kv, q.p.opts.Mem, func(fw *pqarrow.FileWriter) (int64, error) {
		if err := fw.NewRowGroupChecked(); err != nil {
			return 0, err
		}
		for i, c := range q.cols {
			if err := fw.WriteColumnData(c); err != nil {
				return 0, err
			}
			c.Release()
			q.cols[i] = nil
		}
		return q.rows, nil
	}, q.p.schema)
}

// release releases the columns not yet written.
func (q *pending) release() {
	for _, c := range q.cols {
		if c != nil {
			c.Release()
		}
	}
	q.cols = nil
}

func (p *parts) release() {
	for _, b := range p.bld {
		b.Release()
	}
	p.bld = nil
}

// Writer writes the main table of a sweep and its second tables as part
// files.
//
// A scenario's rows must never be half on disk, or a resumed sweep would
// skip a scenario whose second-table rows are missing. So the second tables
// are cut with the main table: main part n has its table rows in part n of
// each table directory (part-<shard>-<n>.parquet, written only if it has
// rows), the table parts are renamed into place first and the main part
// last, and the main part's rename commits the lot. A table part whose main
// part never appeared (the run was killed in between) is removed by the
// next Writer of the shard, and its scenarios run again.
type Writer struct {
	p               *parts
	params, metrics []col
	id, pid         *array.StringBuilder
	status, errs    *array.StringBuilder
	rep             *array.Int64Builder
	seed            *array.Uint64Builder
	wall            *array.Float64Builder
	tables          []*tableWriter

	// The parts of one flush are encoded by a background goroutine while
	// the next rows are appended, and then published after the parts of
	// the previous flush, so that parts land in order. A flush waits for
	// the encoding of the last one (so at most one part's columns are
	// held beside the builders) and for the publication of the one
	// before; the last one's publication (its fsyncs and renames) goes on
	// while the next part is encoded.
	last, prev *flight
	err        error // the first error of a flush; no flush starts after it
}

// flight is one flush in the background.
type flight struct {
	encoded   chan struct{} // closed once the parts are encoded, or failed to
	published chan struct{} // closed once the parts are published, or not
	encErr    error         // why encoding failed; set before encoded closes
	err       error         // the flight's error (or a previous flight's); set before published closes
}

// tableWriter buffers one second table; its parts are cut by Writer.
type tableWriter struct {
	name string
	p    *parts
	id   *array.StringBuilder
	rep  *array.Int64Builder
	cols []col
}

// NewWriter returns a writer of the main table of model s into
// MainDir(dir) and of its second tables into TableDir(dir, table). Parts
// are numbered after those of the same shard already there. Temporary
// files a killed writer of the shard left behind are removed.
func NewWriter(dir string, s *vocab.Schema, opts Options) (*Writer, error) {
	opts.fill()
	if err := cleanTmp(dir, opts.Shard); err != nil {
		return nil, err
	}
	return newWriterAt(leaf{root: dir}, s, opts)
}

// newWriterAt is NewWriter for one leaf of a dataset; opts are filled.
// keys are the leaf's partition keys, whose columns its main parts leave
// out (see Partitioned).
func newWriterAt(l leaf, s *vocab.Schema, opts Options, keys ...partKey) (*Writer, error) {
	sc := Schema(s)
	skip := keyColumns(keys)
	if len(keys) > 0 {
		sc = dropColumns(sc, skip)
		b, err := json.Marshal(keys)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		opts.Meta.partition = string(b)
	}
	p, err := newParts(l.root, filepath.Join(MainTable, l.rel), sc, categorical(s), "", opts)
	if err != nil {
		return nil, err
	}
	mem := opts.Mem
	w := &Writer{
		p:      p,
		id:     array.NewStringBuilder(mem),
		pid:    array.NewStringBuilder(mem),
		rep:    array.NewInt64Builder(mem),
		seed:   array.NewUint64Builder(mem),
		status: array.NewStringBuilder(mem),
		errs:   array.NewStringBuilder(mem),
		wall:   array.NewFloat64Builder(mem),
	}
	p.bld = append(p.bld, w.id, w.pid, w.rep, w.seed)
	for _, q := range s.Params {
		if skip[q.Column()] {
			w.params = append(w.params, col{name: q.Column(), kind: q.Kind, skip: true})
			continue
		}
		c := newCol(mem, q.Column(), q.Kind)
		w.params = append(w.params, c)
		p.bld = append(p.bld, c.builder())
	}
	for _, m := range s.Metrics {
		c := newCol(mem, m.Column(), m.Kind)
		w.metrics = append(w.metrics, c)
		p.bld = append(p.bld, c.builder())
	}
	p.bld = append(p.bld, w.status, w.errs, w.wall)
	p.reserve()
	for _, t := range s.Tables {
		tw, err := newTableWriter(l, t, p.seq, opts)
		if err != nil {
			w.Close()
			return nil, err
		}
		w.tables = append(w.tables, tw)
	}
	return w, nil
}

func newTableWriter(l leaf, t vocab.Table, seq int, opts Options) (*tableWriter, error) {
	p, err := newParts(l.root, filepath.Join(t.Name, l.rel), TableSchema(t), tableCategorical(t), t.Name, opts)
	if err != nil {
		return nil, err
	}
	// Parts numbered seq or above belong to main parts that were never
	// committed.
	for n := seq; n < p.seq; n++ {
		if err := removePart(l.root, filepath.Join(p.rel, partName(opts.Shard, n))); err != nil {
			return nil, fmt.Errorf("dataset: removing an uncommitted part: %w", err)
		}
	}
	p.seq = seq
	w := &tableWriter{name: t.Name, p: p, id: array.NewStringBuilder(opts.Mem), rep: array.NewInt64Builder(opts.Mem)}
	p.bld = append(p.bld, w.id, w.rep)
	for _, c := range t.Columns {
		w.cols = append(w.cols, newCol(opts.Mem, c.Column(), c.Kind))
		p.bld = append(p.bld, w.cols[len(w.cols)-1].builder())
	}
	p.reserve()
	return w, nil
}

// Append adds one row and its second-table rows, closing the current part
// when it is full. A row whose values do not match the schema is an error
// and nothing of it is added.
func (w *Writer) Append(r *Row) error {
	_, err := w.AppendRows(unsafe.Slice(r, 1))
	return err
}

// AppendRows adds rows in order exactly as Append would one at a time
// (the same parts, the same error at the first bad row), and returns how
// many it added. It fills the builders column by column, which keeps the
// writes of each builder together and is faster than row by row.
func (w *Writer) AppendRows(rows []Row) (int, error) {
	added := 0
	for len(rows) > 0 {
		// The rows that fit in the current part, up to the first bad one.
		n := min(len(rows), w.p.opts.MaxRows-w.p.n)
		var bad error
		for k := range n {
			if err := w.check(&rows[k]); err != nil {
				n, bad = k, err
				break
			}
		}
		w.appendColumns(rows[:n])
		added += n
		if w.p.n >= w.p.opts.MaxRows {
			if err := w.Flush(); err != nil {
				return added, err
			}
		}
		if bad != nil {
			return added, bad
		}
		rows = rows[n:]
	}
	return added, nil
}

// appendColumns adds checked rows that fit in the current part. The main
// table's builders hold MaxRows rows (parts.reserve) and a part is cut when
// it has that many, so fixed-width cells go in without a capacity check.
func (w *Writer) appendColumns(rows []Row) {
	if len(rows) == 0 {
		return
	}
	for k := range rows {
		w.appendTables(&rows[k])
	}
	for k := range rows {
		w.id.Append(rows[k].ID)
	}
	for k := range rows {
		w.pid.Append(rows[k].PointID)
	}
	for k := range rows {
		w.rep.UnsafeAppend(int64(rows[k].Replicate))
	}
	for k := range rows {
		w.seed.UnsafeAppend(rows[k].Seed)
	}
	for i := range w.params {
		if c := &w.params[i]; !c.skip {
			c.appendColumn(rows, i, false)
		}
	}
	for i := range w.metrics {
		w.metrics[i].appendColumn(rows, i, true)
	}
	for k := range rows {
		w.status.Append(string(rows[k].Status))
	}
	for k := range rows {
		w.errs.Append(rows[k].Error)
	}
	for k := range rows {
		w.wall.UnsafeAppend(rows[k].WallS)
	}
	if w.p.n == 0 {
		w.p.first = w.p.opts.Now()
	}
	w.p.n += len(rows)
}

// appendTables adds the second-table rows of a checked row.
func (w *Writer) appendTables(r *Row) {
	for t, rows := range r.Tables {
		tw := w.tables[t]
		for _, vals := range rows {
			tw.id.Append(r.ID)
			tw.rep.Append(int64(r.Replicate))
			for i := range tw.cols {
				tw.cols[i].append(vals[i])
			}
			tw.p.n++
		}
	}
}

func (w *Writer) check(r *Row) error {
	if len(r.Params) != len(w.params) {
		return fmt.Errorf("dataset: row %s has %d parameters, want %d", r.ID, len(r.Params), len(w.params))
	}
	if r.Metrics != nil && len(r.Metrics) != len(w.metrics) {
		return fmt.Errorf("dataset: row %s has %d metrics, want %d", r.ID, len(r.Metrics), len(w.metrics))
	}
	// Kinds are compared inline; col.check only words the error.
	for i := range w.params {
		if r.Params[i].Kind() != w.params[i].kind {
			return w.params[i].check(r.Params[i], false)
		}
	}
	for i := range r.Metrics {
		if k := r.Metrics[i].Kind(); k != w.metrics[i].kind && k != vocab.Invalid {
			return w.metrics[i].check(r.Metrics[i], true)
		}
	}
	if r.Tables != nil && len(r.Tables) != len(w.tables) {
		return fmt.Errorf("dataset: row %s has %d second tables, want %d", r.ID, len(r.Tables), len(w.tables))
	}
	for t, rows := range r.Tables {
		tw := w.tables[t]
		for _, vals := range rows {
			if len(vals) != len(tw.cols) {
				return fmt.Errorf("dataset: row %s: table %s row has %d values, want %d", r.ID, tw.name, len(vals), len(tw.cols))
			}
			for i := range tw.cols {
				if err := tw.cols[i].check(vals[i], true); err != nil {
					return fmt.Errorf("dataset: table %s: %w", tw.name, err)
				}
			}
		}
	}
	return nil
}

// Tick closes the current part if its oldest row has waited MaxAge, so
// that a slow sweep killed overnight loses at most that much work. Call it
// now and then (the runner does on a ticker).
func (w *Writer) Tick() error {
	if w.p.n > 0 && w.p.opts.Now().Sub(w.p.first) >= w.p.opts.MaxAge {
		return w.Flush()
	}
	return nil
}

// Flush cuts the buffered rows into parts: the second tables' parts,
// then the main part, which commits them. The parts are encoded and
// written in the background; Flush first waits for the previous flush's
// encoding and for the publication of the one before it, and returns the
// first error of any flush (Close waits for all of them).
func (w *Writer) Flush() error {
	if err := w.wait(false); err != nil {
		return err
	}
	if w.p.n == 0 {
		return nil
	}
	var group []*pending
	for _, tw := range w.tables {
		tw.p.seq = w.p.seq
		if q := tw.p.cut(); q != nil {
			group = append(group, q)
		}
	}
	group = append(group, w.p.cut())
	f := &flight{encoded: make(chan struct{}), published: make(chan struct{})}
	before := w.last
	w.prev, w.last = w.last, f
	go func() {
		defer close(f.published)
		var enc []*encoded
		for _, q := range group {
			if f.encErr != nil {
				q.release()
				continue
			}
			e, err := q.encode()
			f.encErr = err
			if err == nil {
				enc = append(enc, e)
			}
		}
		close(f.encoded)
		f.err = f.encErr
		if before != nil {
			<-before.published
			if f.err == nil {
				f.err = before.err // nothing lands after a part that did not
			}
		}
		for _, e := range enc {
			if f.err != nil {
				e.discard()
				continue
			}
			f.err = e.publish()
		}
	}()
	return nil
}

// wait waits for the encoding of the last flush and the publication of
// the one before, or with all for the end of every flush, and returns the
// first error of a flush.
func (w *Writer) wait(all bool) error {
	if all && w.last != nil {
		<-w.last.published // a flight ends after the one before it
	}
	if w.err != nil {
		return w.err
	}
	if f := w.last; f != nil {
		<-f.encoded
		if f.encErr != nil {
			w.err = f.encErr
		} else if all {
			w.err = f.err // the publication of the ones before included
		}
	}
	if f := w.prev; f != nil && w.err == nil {
		<-f.published
		w.err = f.err
	}
	return w.err
}

// Files returns the names of the main parts written so far, in order;
// after Close, all of them are on disk.
func (w *Writer) Files() []string { return w.p.files }

// Close writes the buffered rows and releases the builders.
func (w *Writer) Close() error {
	if w.p.bld == nil {
		return nil
	}
	err := w.Flush()
	if werr := w.wait(true); err == nil {
		err = werr
	}
	w.p.release()
	for _, tw := range w.tables {
		tw.p.release()
	}
	return err
}
