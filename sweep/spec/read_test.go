package spec

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestParseStdin checks that the path "-" reads Limits.Stdin, its errors
// placed in <stdin>, and that it is refused when there is none.
func TestParseStdin(t *testing.T) {
	reg := registry(t)
	text, err := os.ReadFile("testdata/good/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseFileLimited(Stdin, reg, Limits{Stdin: strings.NewReader(string(text))})
	if err != nil {
		t.Fatalf("ParseFileLimited(-) of testdata/good/minimal.yaml: %v", err)
	}
	if want, _ := ParseFile("testdata/good/minimal.yaml", reg); s.Name != want.Name || string(s.Text) != string(want.Text) {
		t.Errorf("ParseFileLimited(-) = spec %q, want %q as from the file", s.Name, want.Name)
	}
	_, err = ParseFileLimited(Stdin, reg, Limits{Stdin: strings.NewReader(string(text) + "nmae: x\n")})
	if err == nil || !strings.HasPrefix(err.Error(), StdinName+":") {
		t.Errorf("ParseFileLimited(-) of a bad spec: %v; want an error at %s:line:col", err, StdinName)
	}
	if _, err := ParseFile(Stdin, reg); err == nil || !strings.Contains(err.Error(), "reads no spec from standard input") {
		t.Errorf("ParseFile(-) without Stdin: %v; want it refused", err)
	}
}

// TestParseNotRegular checks that a named pipe is refused without being
// opened (opening it for reading blocks until a writer comes), as a
// directory is.
func TestParseNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for path, want := range map[string]string{
		fifo: "is a named pipe (FIFO), not a spec file",
		dir:  "is a directory, not a spec file",
	} {
		if _, err := ParseFile(path, registry(t)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseFile(%s): %v; want %q", path, err, want)
		}
	}
}
