package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// maxDiff is the largest file, in bytes, whose mismatch is shown as a line
// diff in the failure; a larger one (an SVG, a long CSV) is only written
// out, as a diff of it would bury the other failures.
const maxDiff = 64 << 10

// Check compares got with the file at path byte for byte (see Compare for
// what a failure says), or with update writes got there, making its
// directory.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	problem, err := Compare(path, got)
	if err != nil {
		t.Fatal(err)
	}
	if problem != "" {
		t.Error(problem)
	}
}

// Compare compares got with the file at path byte for byte and returns ""
// if they are equal, else the failure message: it writes got to a
// directory that outlives the test (t.TempDir is removed when the test
// ends) and names it so that the two can be compared, and for small text
// files it adds the line diff. A missing golden file is an error that says
// how to write it.
func Compare(path string, got []byte) (string, error) {
	want, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%w (go test -update writes it)", err)
	}
	if bytes.Equal(want, got) {
		return "", nil
	}
	kept, err := keep(path, got)
	if err != nil {
		return "", err
	}
	diff := ""
	if len(want) <= maxDiff && len(got) <= maxDiff && utf8.Valid(want) && utf8.Valid(got) {
		diff = " (-want +got):\n" + cmp.Diff(string(want), string(got))
	}
	return fmt.Sprintf("%s is stale or wrong; the output is in %s (go test -update rewrites it; review the difference first)%s", path, kept, diff), nil
}

// keep writes got under a new temporary directory, with the golden file's
// name, and returns its path.
func keep(path string, got []byte) (string, error) {
	dir, err := os.MkdirTemp("", "crosslink-golden-")
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, filepath.Base(path))
	return out, os.WriteFile(out, got, 0o644)
}
