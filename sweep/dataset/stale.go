package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/crosslink-sim/crosslink/vocab"
)

// StaleDir is the directory, inside a dataset (or a partition of one),
// where SetAside keeps the parts an earlier version of the model wrote,
// in a subdirectory per version: _stale/<model>-v<version>/.
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
func SetAside(dir string, s *vocab.Schema) ([]Moved, error) {
	leaves, err := Partitions(dir)
	if err != nil {
		return nil, err
	}
	want := Schema(s)
	var moved []Moved
	for _, leaf := range leaves {
		paths, err := ownParts(leaf)
		if err != nil {
			return moved, err
		}
		tables, err := tableDirs(leaf)
		if err != nil {
			return moved, err
		}
		for _, p := range paths {
			model, version, sc, err := partIdentity(p)
			if err != nil {
				continue // unreadable: Repair's business
			}
			if model == s.Name && version == s.Version && sameColumns(sc, want) {
				continue
			}
			reason := fmt.Sprintf("written by %s version %d; the model is now %s version %d", model, version, s.Name, s.Version)
			if model == s.Name && version == s.Version {
				reason = fmt.Sprintf("its columns differ from %s version %d's although the version is the same", s.Name, s.Version)
			}
			sub := filepath.Join(StaleDir, fmt.Sprintf("%s-v%d", model, version))
			name := filepath.Base(p)
			// Second-table parts first, the main part last, as in Repair:
			// a crash in between leaves the main part, moved next time.
			group := make([]string, 0, len(tables)+1)
			for _, t := range tables {
				group = append(group, filepath.Join(t, name))
			}
			group = append(group, name)
			for _, rel := range group {
				from := filepath.Join(leaf, rel)
				if _, err := os.Stat(from); errors.Is(err, os.ErrNotExist) {
					continue
				}
				to, err := moveInto(leaf, sub, rel, "")
				if err != nil {
					return moved, err
				}
				moved = append(moved, Moved{Path: from, To: to, Reason: reason})
			}
		}
	}
	return moved, nil
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
