package dataset

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/crosslink-sim/crosslink/vocab"
)

// PointsTable is the name of the per-point summary an adaptive sweep
// writes (see WritePoints). Its directory, dir/points, is not a second
// table of the main parts: Repair, Supersede and Merge leave it alone.
const PointsTable = "points"

// Columns of the points table, after the parameters.
const (
	ColMetric           = "metric"
	ColReplicatesNeeded = "replicates_needed"
	ColReplicatesOK     = "replicates_ok"
	ColMean             = "mean"
	ColCI95Rel          = "ci95_rel"
	ColTargetMet        = "target_met"
)

// Point is one row of the points table: a combination of parameter values
// and how many replicates it needed.
type Point struct {
	ID      string        // the point key, as in the main table's point_id column
	Params  []vocab.Value // aligned with Schema.Params, as in the main table
	Metric  string        // column name of the metric the rule watches
	Needed  int           // replicates run: the count at which the rule stopped
	OK      int           // of those, the ones with status ok
	Mean    float64       // mean of the metric over the ok replicates
	CI95Rel float64       // half-width of the 95 % interval / |mean|; NaN or Inf when undefined
	Met     bool          // CI95Rel reached the target (else Needed is the maximum)
}

// PointsDir returns the directory of the points table of the dataset dir.
func PointsDir(dir string) string { return filepath.Join(dir, PointsTable) }

// PointsSchema returns the Arrow schema of the points table of model s.
func PointsSchema(s *vocab.Schema) *arrow.Schema {
	fs := make([]arrow.Field, 0, len(s.Params)+7)
	fs = append(fs, pointIDField)
	for _, p := range s.Params {
		fs = append(fs, field(p.Column(), arrowType(p.Kind), false, p.Unit, p.Doc))
	}
	fs = append(fs,
		field(ColMetric, arrow.BinaryTypes.String, false, vocab.Dimensionless, "column of the metric whose confidence interval decides"),
		field(ColReplicatesNeeded, arrow.PrimitiveTypes.Int64, false, vocab.Dimensionless, "replicates run for this point: 0..replicates_needed-1"),
		field(ColReplicatesOK, arrow.PrimitiveTypes.Int64, false, vocab.Dimensionless, "of those, the replicates with status ok whose metric is not null (the interval and the mean use these; a metric null in an ok row, such as the response time of a transfer that did not finish, leaves that row out)"),
		field(ColMean, arrow.PrimitiveTypes.Float64, true, vocab.Dimensionless, "mean of the metric over the replicates replicates_ok counts, in the unit of the column metric names (its suffix: goodput_bps is in bit/s); the column carries no unit metadata, since a profile may watch another metric than the base spec"),
		field(ColCI95Rel, arrow.PrimitiveTypes.Float64, true, vocab.Dimensionless, "half-width of the Student-t 95 % interval divided by |mean|; null with fewer than two ok replicates or a zero mean"),
		field(ColTargetMet, arrow.FixedWidthTypes.Boolean, false, vocab.Dimensionless, "ci95_rel reached the spec's target; false: the maximum count stopped it"))
	return arrow.NewSchema(fs, nil)
}

// WritePoints writes the points table of one shard (or of a whole run) as
// dir/points/part-<shard>.parquet, replacing that file and, once its
// split is complete, the parts of another split (dropOtherSplits): it is
// a summary, recomputed from the main table at the end of every adaptive
// run, so the last run's is the truth. mem may be nil.
func WritePoints(dir string, s *vocab.Schema, pts []Point, opts Options) error {
	opts.fill()
	sc := PointsSchema(s)
	cols := make([]col, 0, len(s.Params))
	bld := make([]array.Builder, 0, sc.NumFields())
	pid := array.NewStringBuilder(opts.Mem)
	bld = append(bld, pid)
	for _, p := range s.Params {
		c := newCol(opts.Mem, p.Column(), p.Kind)
		cols = append(cols, c)
		bld = append(bld, c.builder())
	}
	metric := array.NewStringBuilder(opts.Mem)
	needed := array.NewInt64Builder(opts.Mem)
	okN := array.NewInt64Builder(opts.Mem)
	mean := array.NewFloat64Builder(opts.Mem)
	rel := array.NewFloat64Builder(opts.Mem)
	met := array.NewBooleanBuilder(opts.Mem)
	bld = append(bld, metric, needed, okN, mean, rel, met)
	defer func() {
		for _, b := range bld {
			b.Release()
		}
	}()
	finite := func(b *array.Float64Builder, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b.AppendNull()
		} else {
			b.Append(x)
		}
	}
	for _, pt := range pts {
		if len(pt.Params) != len(cols) {
			return fmt.Errorf("dataset: point with %d parameters, want %d", len(pt.Params), len(cols))
		}
		pid.Append(pt.ID)
		for i := range cols {
			if err := cols[i].check(pt.Params[i], false); err != nil {
				return err
			}
			cols[i].append(pt.Params[i])
		}
		metric.Append(pt.Metric)
		needed.Append(int64(pt.Needed))
		okN.Append(int64(pt.OK))
		finite(mean, pt.Mean)
		finite(rel, pt.CI95Rel)
		met.Append(pt.Met)
	}
	arrs := make([]arrow.Array, len(bld))
	for i, b := range bld {
		arrs[i] = b.NewArray()
	}
	rec := array.NewRecordBatch(sc, arrs, int64(len(pts)))
	for _, a := range arrs {
		a.Release()
	}
	defer rec.Release()
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(opts.Mem),
		parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithDictionaryDefault(false),
		parquet.WithCreatedBy("crosslink "+opts.Meta.Version),
	)
	// Writers of the points table take turns: a task of one split may
	// remove another split's parts (dropOtherSplits) while a task of that
	// split publishes its part and manifest entry.
	lf, err := os.OpenFile(filepath.Join(dir, pointsLock), os.O_RDONLY|os.O_CREATE, fileMode)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	name := pointsPartName(opts.Meta.Profile, opts.Shard)
	if err := writeFile(dir, filepath.Join(PointsTable, name), rec, props, opts.Meta.pairs(PointsTable), opts.Mem); err != nil {
		return err
	}
	return dropOtherSplits(dir, opts.Meta.Profile, opts.Shard)
}

// pointsLock is the file whose flock(2) writers of the points table take
// turns on.
const pointsLock = ".lock-points"

// pointsPartName is the name of the points part of shard (an infix
// "<i>of<n>") of a run at profile: part-<i>of<n>.parquet at the spec's
// base settings, part-<profile>-<i>of<n>.parquet at a profile, so that
// the runs of two profiles (make figures at quick, the full run on a
// cluster) neither overwrite nor remove each other's.
func pointsPartName(profile, shard string) string {
	if profile == "" {
		return "part-" + shard + ".parquet"
	}
	return "part-" + profile + "-" + shard + ".parquet"
}

// pointsPart is a points part as its name and metadata describe it.
type pointsPart struct {
	path    string
	profile string // the profile of the run that wrote it
	i, n    int    // shard i of n
	// legacy: a part named without its profile, by a run at a profile
	// before names carried it. It counts among the other parts of both
	// that profile and the base settings (whose name it has), and goes
	// when either's split is complete, so that neither's status calls it
	// complete while it lists points of another run.
	legacy bool
}

// pointsParts lists the points parts of the dataset dir whose names
// parse, with their profiles; other files are Verify's to report.
func pointsParts(dir string) ([]pointsPart, error) {
	paths, err := ownParts(PointsDir(dir))
	if err != nil {
		return nil, err
	}
	var out []pointsPart
	for _, p := range paths {
		s := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "part-"), ".parquet")
		pp := pointsPart{path: p}
		if k := strings.LastIndexByte(s, '-'); k >= 0 {
			pp.profile, s = s[:k], s[k+1:]
		}
		i, n, ok := parseShardInfix(s)
		if !ok {
			continue // not a name WritePoints gives
		}
		pp.i, pp.n = i, n
		if pp.profile == "" {
			if kv, err := fileMeta(p); err == nil {
				for _, m := range kv {
					if m[0] == KeyProfile && m[1] != "" {
						pp.profile, pp.legacy = m[1], true
					}
				}
			}
		}
		out = append(out, pp)
	}
	return out, nil
}

// dropOtherSplits removes the points parts of profile's runs that are not
// of shard's split ("<i>of<n>" with another n, or named the former way:
// pointsPart.legacy) once shard's split is complete, every part 0..n-1 of
// it written: a run split another way (whole, then in shards, or the
// reverse) has then written every point they hold, and a table holding
// both would list each point twice. Until then both stay, so that no
// point goes missing while the other tasks of the split (queued, running,
// or failed and to be resubmitted) have not written theirs. Other
// profiles' parts stay.
func dropOtherSplits(dir, profile, shard string) error {
	_, n, ok := parseShardInfix(shard)
	if !ok {
		return nil
	}
	parts, err := pointsParts(dir)
	if err != nil {
		return err
	}
	have := map[int]bool{}
	for _, p := range parts {
		if p.profile == profile && !p.legacy && p.n == n {
			have[p.i] = true
		}
	}
	if len(have) < n {
		return nil // the split is not complete yet
	}
	for _, p := range parts {
		if p.of(profile) && (p.legacy || p.n != n) {
			if err := removePart(dir, filepath.Join(PointsTable, filepath.Base(p.path))); err != nil {
				return err
			}
		}
	}
	return nil
}

// of reports whether the part counts among the parts of profile's runs.
func (p pointsPart) of(profile string) bool {
	return p.profile == profile || p.legacy && profile == ""
}

// parseShardInfix parses a shard infix "<i>of<n>" as pointsPartName
// writes it: shard i of n, 0 <= i < n, both in canonical decimal (no
// sign, no leading zero), so that one shard has one name.
func parseShardInfix(s string) (i, n int, ok bool) {
	a, b, ok := strings.Cut(s, "of")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n || strconv.Itoa(i) != a || strconv.Itoa(n) != b {
		return 0, 0, false
	}
	return i, n, true
}

// PointsSplit is how far the points table of an adaptive dataset is at a
// profile: the split (shard count) of the profile's latest part, which of
// that split's shards have not written their part yet, and how many parts
// of another split remain (dropOtherSplits removes them when the split is
// complete).
type PointsSplit struct {
	N       int   // shards of the latest part's split; 0 when the profile has no part
	Missing []int // shards of that split without a part
	Others  int   // parts of another split, or named the former way
}

// Complete reports whether the profile's parts are one whole split: each
// point once.
func (p PointsSplit) Complete() bool { return p.N > 0 && len(p.Missing) == 0 && p.Others == 0 }

// PointsState reads which parts of the runs at profile the points table
// of the dataset dir holds. The latest part is the one whose run started
// last (KeyRunStarted; the newest file among equals), so that a copy
// reordering file times does not change the answer.
func PointsState(dir, profile string) (PointsSplit, error) {
	all, err := pointsParts(dir)
	if err != nil {
		return PointsSplit{}, err
	}
	// The latest split is that of the profile's own parts; of its
	// former-style ones only when it has no other.
	var parts []pointsPart
	var paths, legacy []string
	for _, p := range all {
		if !p.of(profile) {
			continue
		}
		parts = append(parts, p)
		if p.legacy {
			legacy = append(legacy, p.path)
		} else {
			paths = append(paths, p.path)
		}
	}
	var st PointsSplit
	if len(parts) == 0 {
		return st, nil
	}
	if len(paths) == 0 {
		paths = legacy
	}
	latest := newestFirst(paths)[0]
	var at time.Time
	found := false
	for _, p := range newestFirst(paths) {
		kv, err := fileMeta(p)
		if err != nil {
			continue // damaged: Verify reports it
		}
		if t := runStarted(kv); !found || t.After(at) {
			latest, at, found = p, t, true
		}
	}
	for _, p := range parts {
		if p.path == latest {
			st.N = p.n
		}
	}
	have := map[int]bool{}
	for _, p := range parts {
		if !p.legacy && p.n == st.N {
			have[p.i] = true
		} else {
			st.Others++
		}
	}
	for i := range st.N {
		if !have[i] {
			st.Missing = append(st.Missing, i)
		}
	}
	return st, nil
}

// ReadPoints reads the points table of the dataset dir; a dataset without
// one (a sweep with a fixed replicate count) gives os.ErrNotExist.
func ReadPoints(dir string, mem memory.Allocator) (arrow.Table, error) {
	paths, err := ownParts(PointsDir(dir))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("dataset: %s has no points table: %w", dir, os.ErrNotExist)
	}
	return readParts(paths, mem)
}
