package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/internal/golden"
)

// figureGoldens is where the goldens of every drawn figure live: each
// figure's CSV (and each comparison CSV) byte for byte, and one SHA-256
// per SVG in svg.sha256. The SVGs themselves are not committed: every one
// embeds its fonts (about 0.5 MB each, 35 MB for the 61 figures measured),
// while their hashes take 6 KB; a changed SVG is written to a kept
// directory that the failure names, so the drawing can be looked at.
const figureGoldens = "testdata/figures"

// svgSums is the file of SVG hashes under figureGoldens, in sha256sum's
// format so that `sha256sum -c` checks a drawn figures directory.
const svgSums = "svg.sha256"

// checkFigureGoldens compares every CSV and SVG drawn in dir (an
// out/figures directory) with testdata/figures, or rewrites testdata/figures
// with -update (removing the goldens of figures no longer drawn). A figure
// whose drawing or data changed shows in review as a diff of its CSV or of
// its line in svg.sha256.
func checkFigureGoldens(t *testing.T, dir string) {
	t.Helper()
	problems, err := figureProblems(dir, figureGoldens, *update)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// figureProblems compares the CSVs and SVGs drawn in dir with the goldens
// in goldens and returns one message per difference; with update it
// rewrites goldens instead and returns none.
func figureProblems(dir, goldens string, update bool) ([]string, error) {
	drawn, err := readDrawn(dir)
	if err != nil {
		return nil, err
	}
	var sums strings.Builder
	for _, name := range sortedKeys(drawn) {
		if strings.HasSuffix(name, ".svg") {
			h := sha256.Sum256(drawn[name])
			fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(h[:]), name)
			delete(drawn, name)
		}
	}
	drawn[svgSums] = []byte(sums.String())
	if update {
		return nil, rewriteGoldens(goldens, drawn)
	}

	var problems, changed []string
	for _, name := range sortedKeys(drawn) {
		if name == svgSums {
			continue
		}
		path := filepath.Join(goldens, name)
		if _, err := os.Stat(path); os.IsNotExist(err) {
			problems = append(problems, fmt.Sprintf("%s: no golden for this figure (go test -update . writes it)", path))
			continue
		}
		p, err := golden.Compare(path, drawn[name])
		if err != nil {
			return nil, err
		}
		if p != "" {
			problems = append(problems, p)
		}
	}
	sumsPath := filepath.Join(goldens, svgSums)
	want, err := readSums(sumsPath)
	if err != nil {
		return nil, fmt.Errorf("%w (run go test -update to create it)", err)
	}
	got, err := readSums("drawn "+svgSums, drawn[svgSums])
	if err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(got) {
		if w, ok := want[name]; !ok || w != got[name] {
			changed = append(changed, name)
		}
	}
	for _, name := range sortedKeys(want) {
		if _, ok := got[name]; !ok {
			problems = append(problems, fmt.Sprintf("%s names %s, which is no longer drawn (go test -update . removes it)", sumsPath, name))
		}
	}
	if len(changed) > 0 {
		keep, err := keepSVGs(dir, changed)
		if err != nil {
			return nil, err
		}
		for _, name := range changed {
			what := "differs from its hash in"
			if _, ok := want[name]; !ok {
				what = "has no hash in"
			}
			problems = append(problems, fmt.Sprintf("figure %s: the SVG drawn %s %s; the new drawing is %s (go test -update . accepts it; look at it first)",
				name, what, sumsPath, filepath.Join(keep, name)))
		}
	}
	names, err := goldenNames(goldens)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if _, ok := drawn[name]; !ok {
			problems = append(problems, fmt.Sprintf("%s has no drawn figure (go test -update . removes it)", filepath.Join(goldens, name)))
		}
	}
	return problems, nil
}

// readDrawn reads every CSV and SVG of dir, by file name.
func readDrawn(dir string) (map[string][]byte, error) {
	drawn := map[string][]byte{}
	for _, pattern := range []string{"*.csv", "*.svg"} {
		files, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no %s drawn", dir, pattern)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			drawn[filepath.Base(f)] = b
		}
	}
	return drawn, nil
}

// rewriteGoldens writes files into goldens and removes every other file
// there (the goldens of figures no longer drawn).
func rewriteGoldens(goldens string, files map[string][]byte) error {
	if err := os.MkdirAll(goldens, 0o755); err != nil {
		return err
	}
	names, err := goldenNames(goldens)
	if err != nil {
		return err
	}
	for _, name := range names {
		if _, ok := files[name]; !ok {
			if err := os.Remove(filepath.Join(goldens, name)); err != nil {
				return err
			}
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(goldens, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readSums reads a sha256sum file into a map from file name to hash.
func readSums(path string, data ...[]byte) (map[string]string, error) {
	var b []byte
	if len(data) > 0 {
		b = data[0]
	} else {
		var err error
		if b, err = os.ReadFile(path); err != nil {
			return nil, err
		}
	}
	sums := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		hash, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(hash) != 2*sha256.Size {
			return nil, fmt.Errorf("%s:%d: want \"<sha256>  <file>\", got %q", path, n, sc.Text())
		}
		sums[name] = hash
	}
	return sums, sc.Err()
}

// keepSVGs copies the named SVGs of dir to a new directory that outlives
// the test (t.TempDir is removed when it ends) and returns its path.
func keepSVGs(dir string, names []string) (string, error) {
	keep, err := os.MkdirTemp("", "crosslink-figures-")
	if err != nil {
		return "", err
	}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(keep, name), b, 0o644); err != nil {
			return "", err
		}
	}
	return keep, nil
}

// goldenNames lists the files under goldens (none if it does not exist).
func goldenNames(goldens string) ([]string, error) {
	ents, err := os.ReadDir(goldens)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestFigureGoldens drives figureProblems on a two-figure directory: after
// an update it reports nothing, and each kind of change (a CSV's bytes, an
// SVG's bytes, a figure gone, a stale golden) gives its message.
func TestFigureGoldens(t *testing.T) {
	base := map[string]string{"a.csv": "x,y\n1,2\n", "a.svg": "<svg>a</svg>", "b.csv": "x\n3\n", "b.svg": "<svg>b</svg>"}
	for _, tc := range []struct {
		name   string
		change func(dir, goldens string) error
		want   []string // substrings, one per problem, in order
	}{
		{"unchanged", func(string, string) error { return nil }, nil},
		{"csv bytes", func(dir, _ string) error {
			return os.WriteFile(filepath.Join(dir, "a.csv"), []byte("x,y\n1,2.0000001\n"), 0o644)
		}, []string{"a.csv is stale or wrong"}},
		{"svg bytes", func(dir, _ string) error {
			return os.WriteFile(filepath.Join(dir, "b.svg"), []byte("<svg>b2</svg>"), 0o644)
		}, []string{"figure b.svg: the SVG drawn differs from its hash"}},
		{"figure gone", func(dir, _ string) error {
			if err := os.Remove(filepath.Join(dir, "b.csv")); err != nil {
				return err
			}
			return os.Remove(filepath.Join(dir, "b.svg"))
		}, []string{"names b.svg, which is no longer drawn", "b.csv has no drawn figure"}},
		{"new figure", func(dir, _ string) error {
			if err := os.WriteFile(filepath.Join(dir, "c.csv"), []byte("z\n"), 0o644); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "c.svg"), []byte("<svg>c</svg>"), 0o644)
		}, []string{"c.csv: no golden", "figure c.svg: the SVG drawn has no hash"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, goldens := t.TempDir(), filepath.Join(t.TempDir(), "figures")
			for name, s := range base {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if p, err := figureProblems(dir, goldens, true); err != nil || p != nil {
				t.Fatalf("update: %v, %q", err, p)
			}
			if err := tc.change(dir, goldens); err != nil {
				t.Fatal(err)
			}
			got, err := figureProblems(dir, goldens, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("figureProblems = %q, want %d problems like %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], w)
				}
			}
			for _, p := range got {
				if _, kept, ok := strings.Cut(p, "the new drawing is "); ok {
					path, _, _ := strings.Cut(kept, " ")
					if _, err := os.Stat(path); err != nil {
						t.Errorf("the kept SVG named in %q: %v", p, err)
					}
					os.RemoveAll(filepath.Dir(path))
				}
			}
		})
	}
}
