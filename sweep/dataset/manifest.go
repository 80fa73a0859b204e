package dataset

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// ManifestDir holds the manifest of a dataset: for each part file,
// <dataset>/_manifest/<path of the part>.json records its size, row count
// and SHA-256, so that a part damaged after it was written (a disk error,
// a bad copy, an editor) is found by hashing it, and a file no crosslink
// writer made is told apart from a part.
//
// An entry is written before its part becomes visible, as <name>.json.pending,
// and renamed to <name>.json once the part is in place; both name a valid
// content of the part, so a writer killed anywhere in between (or while
// rewriting a part in place) leaves no part whose entry calls it damaged.
// Each entry is a file of its own, written to a temporary name and renamed,
// so the tasks of a job array never contend for one manifest file.
const ManifestDir = "_manifest"

// Entry is the manifest record of one part file.
type Entry struct {
	Path   string `json:"path"` // relative to the dataset directory, with "/"
	Size   int64  `json:"size"`
	Rows   int64  `json:"rows"`
	SHA256 string `json:"sha256"`
}

func entryPath(root, rel string) string {
	return filepath.Join(root, ManifestDir, rel+".json")
}

// writeJSONAtomic writes v as JSON to path via a temporary file in root's
// temporary directory, synced and renamed.
func writeJSONAtomic(root, path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	// Named after the part, so that cleanTmp of the part's shard removes
	// what a killed writer left.
	tmp, err := createTemp(filepath.Join(root, tmpDir), strings.TrimSuffix(filepath.Base(path), ".pending")+".*.tmp")
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("dataset: writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("dataset: writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("dataset: writing %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("dataset: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("dataset: %w", err)
	}
	return nil
}

// countingHash hashes and counts what is written through it.
type countingHash struct {
	h hash.Hash
	n int64
}

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.h.Write(p)
}

// writeFile writes rec as the part root/rel: into a temporary file under
// root/.tmp (outside every table, so no reader lists it), synced; then its
// manifest entry (pending); then the rename into place, which publishes it;
// then the entry is made final. mem may be nil.
func writeFile(root, rel string, rec arrow.RecordBatch, props *parquet.WriterProperties, kv [][2]string, mem memory.Allocator) error {
	return writePart(root, rel, filepath.Join(root, rel), props, kv, mem, func(fw *pqarrow.FileWriter) (int64, error) {
		return rec.NumRows(), fw.Write(rec)
	}, rec.Schema())
}

// writePart writes a part whose rows fill adds, with the schema sc, to
// dest, recording it in the manifest as root/rel (dest is root/rel except
// for a merge, which writes into a directory that later takes the table's
// place): encodePart, then publish.
func writePart(root, rel, dest string, props *parquet.WriterProperties, kv [][2]string, mem memory.Allocator, fill func(*pqarrow.FileWriter) (int64, error), sc *arrow.Schema) error {
	t, err := encodePart(root, rel, dest, props, kv, mem, fill, sc)
	if err != nil {
		return err
	}
	return t.publish()
}

// encoded is a part written and synced under root/.tmp (outside every
// table, so no reader lists it) and not yet published.
type encoded struct {
	root, rel, dest, tmp string
	e                    Entry
}

// encodePart writes the part into a temporary file under root/.tmp and
// syncs it; publish then puts it in place. On error nothing is left.
func encodePart(root, rel, dest string, props *parquet.WriterProperties, kv [][2]string, mem memory.Allocator, fill func(*pqarrow.FileWriter) (int64, error), sc *arrow.Schema) (_ *encoded, err error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	name := filepath.Base(rel)
	td := filepath.Join(root, tmpDir)
	if err := os.MkdirAll(td, dirMode); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	f, err := createTemp(td, name+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	sum := &countingHash{h: sha256.New()}
	// bufio.Writer has no Close, so the Parquet writer leaves the file open
	// for the sync below.
	bw := bufio.NewWriterSize(io.MultiWriter(f, sum), 1<<20)
	fw, err := pqarrow.NewFileWriter(sc, bw, props,
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(mem)))
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", name, err)
	}
	rows, err := fill(fw)
	if err != nil {
		fw.Close()
		return nil, ioError(name, err)
	}
	for _, p := range kv {
		if err := fw.AppendKeyValueMetadata(p[0], p[1]); err != nil {
			fw.Close()
			return nil, ioError(name, err)
		}
	}
	if err := fw.Close(); err != nil {
		return nil, ioError(name, err)
	}
	if err := bw.Flush(); err != nil {
		return nil, ioError(name, err)
	}
	if err := f.Sync(); err != nil {
		return nil, ioError(name, err)
	}
	if err := f.Close(); err != nil {
		return nil, ioError(name, err)
	}
	e := Entry{Path: filepath.ToSlash(rel), Size: sum.n, Rows: rows, SHA256: hex.EncodeToString(sum.h.Sum(nil))}
	return &encoded{root: root, rel: rel, dest: dest, tmp: tmp, e: e}, nil
}

// publish records the part in the manifest (pending), renames it into
// place, which publishes it, and makes the entry final. On error the
// temporary file is removed.
func (t *encoded) publish() (err error) {
	defer func() {
		if err != nil {
			os.Remove(t.tmp)
		}
	}()
	ep := entryPath(t.root, t.rel)
	if err := writeJSONAtomic(t.root, ep+".pending", t.e); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(t.dest), dirMode); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	if err := os.Rename(t.tmp, t.dest); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	if err := syncDir(filepath.Dir(t.dest)); err != nil {
		return err
	}
	if err := os.Rename(ep+".pending", ep); err != nil {
		// A Verify (crosslink status, another shard's Repair) that
		// hashed the part in between has made the entry final already.
		if final, _ := readEntry(t.root, t.rel); errors.Is(err, os.ErrNotExist) && final != nil && *final == t.e {
			return nil
		}
		return fmt.Errorf("dataset: %w", err)
	}
	return nil
}

// discard removes the temporary file of a part that will not be
// published.
func (t *encoded) discard() { os.Remove(t.tmp) }

// ioError words an error of writing the part name. The Parquet writer
// reports a failed write of its own as a recovered panic ("unknown error
// type: write ...: no space left on device"); the operating system's error
// inside says what happened, so that is what the message shows, with the
// file: a full disk, a quota, an I/O error.
func ioError(name string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return fmt.Errorf("dataset: %s: %w", name, err)
	}
	what := pe.Err.Error()
	switch {
	case errors.Is(pe.Err, syscall.ENOSPC):
		what = "disk full (no space left on device)"
	case errors.Is(pe.Err, syscall.EDQUOT):
		what = "disk quota exceeded"
	case errors.Is(pe.Err, syscall.EIO):
		what = "input/output error (a failing disk or file system)"
	case errors.Is(pe.Err, syscall.EROFS):
		what = "read-only file system"
	}
	return fmt.Errorf("dataset: writing %s: %s (%s)%w", name, what, pe.Path, ioErr{pe})
}

// ioErr keeps the operating system's error for errors.Is and errors.As
// without repeating its text.
type ioErr struct{ pe *fs.PathError }

func (e ioErr) Error() string { return "" }
func (e ioErr) Unwrap() error { return e.pe }

// removePart removes the part root/rel and its manifest entry, and then
// the directories that removing it left empty up to the table's, so that
// no table or partition directory is left without rows. A part that is not
// there is no error.
func removePart(root, rel string) error {
	err := os.Remove(filepath.Join(root, rel))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("dataset: %w", err)
	}
	dropEntry(root, rel)
	pruneEmpty(root, filepath.Dir(rel))
	return nil
}

// dropEntry removes the manifest entry of root/rel, both forms.
func dropEntry(root, rel string) {
	ep := entryPath(root, rel)
	os.Remove(ep)
	os.Remove(ep + ".pending")
	pruneEmpty(filepath.Join(root, ManifestDir), filepath.Dir(filepath.Join(rel)))
}

// pruneEmpty removes root/rel and its parents up to root while they are
// empty directories.
func pruneEmpty(root, rel string) {
	for rel != "." && rel != "" && rel != string(filepath.Separator) {
		if os.Remove(filepath.Join(root, rel)) != nil {
			return
		}
		rel = filepath.Dir(rel)
	}
}

// readEntry returns the manifest entries of root/rel: the final one and a
// pending one, either nil when absent.
func readEntry(root, rel string) (final, pending *Entry) {
	read := func(p string) *Entry {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		var e Entry
		if json.Unmarshal(b, &e) != nil {
			return nil
		}
		return &e
	}
	ep := entryPath(root, rel)
	return read(ep), read(ep + ".pending")
}

// hashFile returns the size and SHA-256 of a file.
func hashFile(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// errNoEntry marks a file the manifest does not know.
var errNoEntry = errors.New("not in the dataset's manifest: no crosslink writer made this file")

// verifyHash checks the part root/rel against its manifest entry: its
// size and SHA-256 must match the final or the pending entry. A match of
// the pending entry only (a writer killed between publishing the part and
// finalizing its entry) makes that entry final.
//
// A part rewritten in place (Supersede) while it is hashed has an entry
// for its content before that content is visible and keeps it until the
// file is replaced: so the content hashed matches the entries read before
// hashing or those read after. A part removed meanwhile gives an error
// wrapping os.ErrNotExist.
func verifyHash(root, rel string) error {
	final, pending := readEntry(root, rel)
	if final == nil && pending == nil {
		if _, err := os.Lstat(filepath.Join(root, rel)); err != nil {
			return err // removed since it was listed
		}
		return errNoEntry
	}
	n, sum, err := hashFile(filepath.Join(root, rel))
	if err != nil {
		return err
	}
	matches := func(e *Entry) bool { return e != nil && e.Size == n && e.SHA256 == sum }
	if matches(final) {
		return nil
	}
	if matches(pending) {
		ep := entryPath(root, rel)
		os.Rename(ep+".pending", ep) // best effort: the next check does it again
		return nil
	}
	if f2, p2 := readEntry(root, rel); matches(f2) || matches(p2) {
		return nil
	}
	want := final
	if want == nil {
		want = pending
	}
	return fmt.Errorf("content differs from the manifest: %d bytes with SHA-256 %s, written as %d bytes with SHA-256 %s", n, sum[:16], want.Size, want.SHA256[:min(16, len(want.SHA256))])
}

// recordEntry hashes the existing part root/rel into a final manifest
// entry (for parts a former layout left without one); rows < 0 reads the
// row count from the part's footer.
func recordEntry(root, rel string, rows int64) error {
	return recordEntryAs(root, rel, rel, rows)
}

// recordEntryOf records the part now at root/from as the final manifest
// entry of root/rel, where it is about to be renamed; an error wraps
// os.ErrNotExist when from is gone.
func recordEntryOf(root, from, rel string) error {
	return recordEntryAs(root, from, rel, -1)
}

func recordEntryAs(root, from, rel string, rows int64) error {
	if rows < 0 {
		if rdr, err := file.OpenParquetFile(filepath.Join(root, from), false); err == nil {
			rows = rdr.NumRows()
			rdr.Close()
		}
	}
	n, sum, err := hashFile(filepath.Join(root, from))
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(root, tmpDir), dirMode); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	return writeJSONAtomic(root, entryPath(root, rel), Entry{Path: filepath.ToSlash(rel), Size: n, Rows: rows, SHA256: sum})
}

// cleanTmp removes the temporary files a killed writer of shard left in
// dir/.tmp: a part being written (part-<shard>-*) and manifest entries
// being written (harmless either way, but they take space). Other shards'
// files are left alone: their writers may be running. A shard of a job
// array waits for a Supersede that rewrites one of its parts under .tmp/.
func cleanTmp(dir, shard string) error {
	if shard != DefaultShard {
		release, err := supersedeTurn(dir, syscall.LOCK_SH)
		if err != nil {
			return err
		}
		defer release()
	}
	ents, err := readDir(filepath.Join(dir, tmpDir))
	if err != nil {
		return err
	}
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, "part-"+shard+"-") && strings.HasSuffix(n, ".tmp") {
			if err := os.Remove(filepath.Join(dir, tmpDir, n)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("dataset: removing a leftover part: %w", err)
			}
		}
	}
	return nil
}

// syncDir makes a rename durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("dataset: syncing %s: %w", dir, err)
	}
	return nil
}

// Damage is a file of a dataset that fails verification.
type Damage struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Verify checks every file in the tables of the dataset dir: each part's
// size and SHA-256 against its manifest entry and, when deep is set, every
// page of every column decoded (which checks each page's compressed frame
// and its encoding); files that are not parts of the dataset and main
// parts that repeat the rows of another (a copied part, see owners) are
// reported too. It returns the damaged files, in path order. Temporary
// files a killed writer left are no damage of the tables (a reader never
// lists them), and Verify leaves them to Leftovers.
func Verify(dir string, deep bool, mem memory.Allocator) ([]Damage, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	strays, err := Strays(dir)
	if err != nil {
		return nil, err
	}
	var out []Damage
	stray := map[string]bool{}
	for _, s := range strays {
		stray[s] = true
		out = append(out, Damage{Path: filepath.Join(dir, s), Reason: "not a part file of this dataset"})
	}
	err = walkTables(dir, func(rel string) error {
		if stray[rel] {
			return nil
		}
		p := filepath.Join(dir, rel)
		if err := verifyHash(dir, rel); errors.Is(err, os.ErrNotExist) {
			return nil // removed by a Supersede since it was listed
		} else if err != nil {
			out = append(out, Damage{Path: p, Reason: err.Error()})
			return nil
		}
		if deep {
			if err := decodeAll(p, mem); err != nil && !vanished(p) {
				out = append(out, Damage{Path: p, Reason: err.Error()})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, d := range out {
		skip[d.Path] = true
	}
	dup, err := copies(dir, skip)
	if err != nil {
		return nil, err
	}
	out = append(out, dup...)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// vanished reports whether the file at p is gone.
func vanished(p string) bool {
	_, err := os.Lstat(p)
	return errors.Is(err, os.ErrNotExist)
}

// decodeAll reads every row group of a part, every column, and drops the
// values: an error is a page that does not decode.
func decodeAll(path string, mem memory.Allocator) error {
	sc, err := fileSchema(path, mem)
	if err != nil {
		return err
	}
	_, err = streamPart(path, sc, mem, func(arrow.RecordBatch) error { return nil })
	return err
}
