package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Errorf and Fatalf instead of
// failing the test that runs it; Fatalf stops the check with a panic that
// run recovers, as the real one stops the goroutine.
type recorder struct {
	testing.TB
	errs  []string
	fatal string
}

type stopped struct{}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic(stopped{})
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }
func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }

// run calls Check with a recorder.
func run(t *testing.T, path string, got []byte, update bool) (r *recorder) {
	r = &recorder{TB: t}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(stopped); !ok {
				panic(v)
			}
		}
	}()
	Check(r, path, got, update)
	return r
}

func TestCheck(t *testing.T) {
	big := []byte(strings.Repeat("x,1\n", maxDiff/4+1))
	for _, tc := range []struct {
		name      string
		golden    []byte // nil: no file
		got       []byte
		fails     bool   // Errorf
		fatal     string // substring of Fatalf's message
		diff      bool   // the failure shows a line diff
		keptEqual bool   // the failure names a file holding got
	}{
		{name: "same", golden: []byte("a\nb\n"), got: []byte("a\nb\n")},
		{name: "text differs", golden: []byte("a\nb\n"), got: []byte("a\nc\n"), fails: true, diff: true, keptEqual: true},
		{name: "one byte more", golden: []byte("a"), got: []byte("a\n"), fails: true, diff: true, keptEqual: true},
		{name: "large differs", golden: append([]byte("y"), big...), got: big, fails: true, keptEqual: true},
		{name: "binary differs", golden: []byte{0xff, 0}, got: []byte{0xfe, 0}, fails: true, keptEqual: true},
		{name: "missing", got: []byte("a"), fatal: "go test -update writes it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "g.golden")
			if tc.golden != nil {
				if err := os.WriteFile(path, tc.golden, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := run(t, path, tc.got, false)
			if !strings.Contains(r.fatal, tc.fatal) || (tc.fatal == "") != (r.fatal == "") {
				t.Errorf("Fatalf %q, want one containing %q", r.fatal, tc.fatal)
			}
			if got := len(r.errs) > 0; got != tc.fails {
				t.Fatalf("Errorf %q, want a failure: %v", r.errs, tc.fails)
			}
			if !tc.fails {
				return
			}
			msg := r.errs[0]
			if got := strings.Contains(msg, "(-want +got)"); got != tc.diff {
				t.Errorf("failure %q shows a diff: %v, want %v", msg, got, tc.diff)
			}
			_, rest, _ := strings.Cut(msg, "the output is in ")
			kept, _, _ := strings.Cut(rest, " ")
			b, err := os.ReadFile(kept)
			if err != nil || string(b) != string(tc.got) {
				t.Errorf("kept output %q: %v, %d bytes, want the %d bytes got", kept, err, len(b), len(tc.got))
			}
			os.RemoveAll(filepath.Dir(kept))
		})
	}
	t.Run("update", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "new", "dir", "g.golden")
		if r := run(t, path, []byte("v1\n"), true); len(r.errs) > 0 || r.fatal != "" {
			t.Fatalf("update: %q %q", r.errs, r.fatal)
		}
		if r := run(t, path, []byte("v1\n"), false); len(r.errs) > 0 || r.fatal != "" {
			t.Errorf("after update: %q %q, want no failure", r.errs, r.fatal)
		}
	})
}
