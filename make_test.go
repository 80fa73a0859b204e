package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeTestSummary runs the Makefile's test recipe (make gotest, which
// make test ends with) on a throw-away module of one passing, one skipped
// and one failing test: the output must name the skipped test with its
// reason and the failed one with its message, end with gotestsum's DONE
// line, which CI reads, and the exit status must say the tests failed.
func TestMakeTestSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs make and gotestsum")
	}
	if _, err := exec.LookPath("make"); err != nil {
		missingTool(t, "no make on PATH (Debian: apt-get install make)")
	}
	makefile, err := filepath.Abs("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/summary\n\ngo 1.26\n",
		"s_test.go": `package summary

import "testing"

func TestPass(t *testing.T) {}
func TestSkip(t *testing.T) { t.Skip("needs a cluster: none answers") }
func TestFail(t *testing.T) { t.Error("2 + 2 = 5") }
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("make", "-s", "-f", makefile, "gotest")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatalf("make gotest with a failing test: err %v, want a non-zero exit\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{
		"=== SKIP: . TestSkip", "needs a cluster: none answers",
		"=== FAIL: . TestFail", "2 + 2 = 5",
		"DONE 3 tests, 1 skipped, 1 failure in ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("make gotest output has no %q:\n%s", want, got)
		}
	}
}
