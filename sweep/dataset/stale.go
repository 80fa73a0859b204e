package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/crosslink-sim/crosslink/vocab"
)

// StaleDir is the directory, inside a dataset and beside its tables, where
// SetAside keeps the parts an earlier version of the model wrote, in a
// subdirectory per version: _stale/<model>-v<version>/<table>/....
const StaleDir = "_stale"

// SetAside moves every main part of the dataset in dir that was not
// written by this version of the model, with the second-table parts of
// the same name, to _stale/<model>-v<version>/ beside it. A model's
// version changes when its results or columns change: the old rows
// cannot share a table with the new ones (their columns differ), and
// none of their ids can name a current scenario (an id hashes the model
// version), so a sweep after an upgrade reruns everything. Moving the
// parts keeps them, under a name every reader skips (pyarrow and polars
// ignore names starting with "_"), for whoever wants to compare versions.
//
// A part counts as this version's when its metadata names this model and
// version and its columns have the names and types Schema(s) gives.
//
// Parts of a later version of the model (a newer crosslink wrote them:
// another checkout, or a cluster node built from newer sources) are not
// stale: setting them aside would have this older binary redo newer
// results with the older model. SetAside then moves nothing and returns
// an error wrapping ErrNewerVersion that names the part and both versions.
func SetAside(dir string, s *vocab.Schema) ([]Moved, error) {
	ls, err := leaves(dir)
	if err != nil {
		return nil, err
	}
	tables, err := tableDirs(dir)
	if err != nil {
		return nil, err
	}
	want := Schema(s)
	// Every part is judged before any moves, so that a newer part found
	// late leaves the dataset as it was.
	type staleMain struct {
		l            leaf
		name, reason string
		sub          string
	}
	var stale []staleMain
	for _, l := range ls {
		paths, err := ownParts(l.main())
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			model, version, sc, err := partIdentity(p)
			if err != nil {
				continue // unreadable: Repair's business
			}
			if model == s.Name && version > s.Version {
				return nil, fmt.Errorf("%w: %s was written by %s version %d, and this crosslink has version %d: "+
					"run the crosslink that wrote it (build it from the same sources: git pull && make build), "+
					"or write this run elsewhere (--out DIR); nothing was moved",
					ErrNewerVersion, p, model, version, s.Version)
			}
			inFile := keysInFile(l.rel, sc)
			if model == s.Name && version == s.Version && sameColumns(sc, withoutKeys(want, p)) && !inFile {
				continue
			}
			reason := fmt.Sprintf("written by %s version %d; the model is now %s version %d", model, version, s.Name, s.Version)
			switch {
			case model == s.Name && version == s.Version && inFile:
				reason = "written in the former partitioned layout, its partition key columns inside the file"
			case model == s.Name && version == s.Version:
				reason = fmt.Sprintf("its columns differ from %s version %d's although the version is the same", s.Name, s.Version)
			}
			sub := filepath.Join(StaleDir, fmt.Sprintf("%s-v%d", model, version))
			stale = append(stale, staleMain{l: l, name: filepath.Base(p), reason: reason, sub: sub})
		}
	}
	var moved []Moved
	for _, st := range stale {
		// Second-table parts first, the main part last, as in Repair:
		// a crash in between leaves the main part, moved next time.
		group := make([]string, 0, len(tables)+1)
		for _, t := range tables {
			group = append(group, st.l.relTable(t, st.name))
		}
		group = append(group, st.l.relMain(st.name))
		for _, rel := range group {
			from := filepath.Join(st.l.root, rel)
			if _, err := os.Stat(from); errors.Is(err, os.ErrNotExist) {
				continue
			}
			to, err := moveInto(st.l.root, st.sub, rel, "")
			if errors.Is(err, errMovedAway) {
				continue
			}
			if err != nil {
				return moved, err
			}
			moved = append(moved, Moved{Path: from, To: to, Reason: st.reason})
		}
	}
	return moved, nil
}

// ErrNewerVersion is wrapped by SetAside's error when the dataset holds
// parts of a later version of the model than the running one.
var ErrNewerVersion = errors.New("dataset holds rows of a newer model version")

// keysInFile reports whether a part in the partition rel holds a column of
// one of its partition keys, as parts of the former layout did.
func keysInFile(rel string, sc *arrow.Schema) bool {
	if rel == "" {
		return false
	}
	for _, seg := range strings.Split(filepath.ToSlash(rel), "/") {
		if k, _, ok := strings.Cut(seg, "="); ok && len(sc.FieldIndices(k)) > 0 {
			return true
		}
	}
	return false
}

// withoutKeys returns sc less the partition key columns the part at path
// leaves out (see partKey).
func withoutKeys(sc *arrow.Schema, path string) *arrow.Schema {
	kv, err := fileMeta(path)
	if err != nil {
		return sc
	}
	for _, p := range kv {
		if p[0] != KeyPartition {
			continue
		}
		var keys []partKey
		if json.Unmarshal([]byte(p[1]), &keys) != nil {
			return sc
		}
		return dropColumns(sc, keyColumns(keys))
	}
	return sc
}

// keyColumns returns the columns of keys, which a partitioned leaf's main
// parts leave out: their values are in the leaf's path.
func keyColumns(keys []partKey) map[string]bool {
	cols := map[string]bool{}
	for _, k := range keys {
		cols[k.Column] = true
	}
	return cols
}

// dropColumns returns sc less the columns in drop.
func dropColumns(sc *arrow.Schema, drop map[string]bool) *arrow.Schema {
	var fs []arrow.Field
	for _, f := range sc.Fields() {
		if !drop[f.Name] {
			fs = append(fs, f)
		}
	}
	return arrow.NewSchema(fs, nil)
}

// partIdentity reads the model name and version a part's metadata names
// and its Arrow schema.
func partIdentity(path string) (model string, version int, sc *arrow.Schema, err error) {
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		return "", 0, nil, err
	}
	defer rdr.Close()
	kv := rdr.MetaData().KeyValueMetadata()
	if v := kv.FindValue(KeyModel); v != nil {
		model = *v
	}
	if v := kv.FindValue(KeyModelVersion); v != nil {
		version, _ = strconv.Atoi(*v)
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return "", 0, nil, err
	}
	sc, err = fr.Schema()
	return model, version, sc, err
}

// sameColumns reports whether a and b have the same column names, types
// and nullability, in order; field documentation may differ.
func sameColumns(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i := range a.NumFields() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Nullable != fb.Nullable || !arrow.TypeEqual(fa.Type, fb.Type) {
			return false
		}
	}
	return true
}
