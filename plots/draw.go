package plots

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Source is one spec's contribution to the figures: its name (the dataset
// lives in out/<Name>/), its model's schema, its plots entries, and a
// loader of its rows already restricted to the scenarios of its plan at
// the chosen profile (see KeepScenarios).
type Source struct {
	Name   string
	Schema *vocab.Schema
	Plots  []Def
	// Load returns the rows of table ("" for the main table).
	Load func(ctx context.Context, table string) (*Frame, error)
}

// Draw draws the figures with the given ids (every figure the sources
// declare when ids is empty) into outDir: <id>.png, .svg, .pdf and the
// plotted data as <id>.csv (and <id>.md for tables). It returns an error
// naming each requested id no source declares; a figure whose data cannot
// be read is skipped, the others are drawn, and the error names every
// figure skipped.
func Draw(ctx context.Context, reg *Registry, outDir string, ids []string, sources []*Source) error {
	type job struct {
		def Def
		src *Source
	}
	byID := map[string]job{}
	var order []string
	for _, s := range sources {
		for _, d := range s.Plots {
			if prev, dup := byID[d.ID]; dup {
				return fmt.Errorf("plots: figure %s is declared by both %s and %s", d.ID, prev.src.Name, s.Name)
			}
			byID[d.ID] = job{d, s}
			order = append(order, d.ID)
		}
	}
	if len(ids) > 0 {
		var missing []string
		for _, id := range ids {
			if _, ok := byID[id]; !ok {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("plots: no spec declares figure %q (declared: %q)", missing, order)
		}
		order = append([]string(nil), ids...)
	}
	sort.Strings(order)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	// A figure that cannot be drawn (its dataset missing or damaged, its
	// plot entry unknown to the registry) does
	// not stop the others: every figure that can be drawn is, and the
	// failures are returned together, one line each.
	var failed []error
	digests := map[*Source]string{} // each source's DatasetDigest, read once
	for _, id := range order {
		if err := ctx.Err(); err != nil {
			return errors.Join(append(failed, err)...)
		}
		j := byID[id]
		draw, caption, err := reg.drawFunc(j.def)
		if err != nil {
			failed = append(failed, err)
			continue
		}
		if j.def.Caption == "" {
			j.def.Caption = caption
		}
		in := Input{Def: j.def, Schema: j.src.Schema, Source: j.src, Theme: reg.Theme, Scale: reg.Scale}
		out, err := draw(ctx, in)
		if err != nil {
			failed = append(failed, fmt.Errorf("plots: figure %s (spec %s): %w", id, j.src.Name, err))
			continue
		}
		w, h := reg.Theme.page(out)
		out.Problems = append(out.Problems, drawingProblems(out.Art, w, h)...)
		if err := Write(outDir, id, out, reg.Theme); err != nil {
			return errors.Join(append(failed, err)...)
		}
		digest, ok := digests[j.src]
		if !ok {
			digest = sourceDigest(ctx, j.src)
			digests[j.src] = digest
		}
		if err := writeSidecar(outDir, id, j.src.Name, digest, j.def.Caption, out); err != nil {
			return errors.Join(append(failed, err)...)
		}
	}
	return errors.Join(failed...)
}

// sourceDigest is the DatasetDigest of src's main table, or "" when it
// has none that can be read (the figure drew from another table).
func sourceDigest(ctx context.Context, src *Source) string {
	f, err := src.Load(ctx, "")
	if err != nil {
		return ""
	}
	return DatasetDigest(f)
}

// Write writes a drawn figure as <id>.png, .svg and .pdf, its data as
// <id>.csv and, for tables, <id>.md. Each file is written to a temporary
// name and renamed, so an interrupted run leaves no half file.
func Write(dir, id string, out *Output, th Theme) error {
	w, h := th.page(out)
	for _, f := range formats {
		b, err := Render(out.Art, w, h, f, th)
		if err != nil {
			return fmt.Errorf("plots: figure %s: %w", id, err)
		}
		if err := WriteFile(filepath.Join(dir, id+"."+f), b); err != nil {
			return err
		}
	}
	if out.Data != nil {
		var b bytes.Buffer
		if err := out.Data.WriteCSV(&b); err != nil {
			return err
		}
		if err := WriteFile(filepath.Join(dir, id+".csv"), b.Bytes()); err != nil {
			return err
		}
		if out.Markdown {
			b.Reset()
			if err := out.Data.WriteMarkdown(&b); err != nil {
				return err
			}
			if err := WriteFile(filepath.Join(dir, id+".md"), b.Bytes()); err != nil {
				return err
			}
		}
	}
	if out.Comparison != nil {
		var b bytes.Buffer
		if err := out.Comparison.WriteCSV(&b); err != nil {
			return err
		}
		if err := WriteFile(filepath.Join(dir, id+".compare.csv"), b.Bytes()); err != nil {
			return err
		}
		b.Reset()
		if err := out.Comparison.WriteMarkdown(&b); err != nil {
			return err
		}
		if err := WriteFile(filepath.Join(dir, id+".compare.md"), b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes b to path through a temporary file in the same
// directory and a rename, so a reader never sees half a file.
func WriteFile(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}
