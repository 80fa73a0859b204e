package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// noProfiles is a spec of two closed-form scenarios that declares no
// profiles.
const noProfiles = `name: no-profiles
model: ber-per
seed: 1
grid:
  ber: [1e-9, 1e-6]
`

// TestMistakes runs the mistakes users make at the command line: each
// must exit 2 (usage) with a message that says what to do, and print
// nothing on stdout.
func TestMistakes(t *testing.T) {
	dir := t.TempDir()
	specPath := filepath.Join(dir, "no-profiles.yaml")
	if err := os.WriteFile(specPath, []byte(noProfiles), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if code, _, stderr := crosslink(t, "run", "-q", "-o", out, specPath); code != exitOK {
		t.Fatalf("crosslink run: exit %d: %s", code, stderr)
	}
	tests := []struct {
		name string
		args []string
		want []string // each in stderr
		not  string   // not in stderr
	}{
		{"typo of a command", []string{"rnu", "x.yaml"}, []string{`unknown command "rnu"; did you mean "run"?`}, ""},
		{"typo of a figure", []string{"plot", "-o", out, "rc13-fgi6"}, []string{`no spec in specs declares figure "rc13-fgi6"; did you mean "rc13-fig6"`}, ""},
		{"part of a figure id", []string{"plot", "-o", out, "fig6"}, []string{`declares figure "fig6"; did you mean "os-fig6", "os-net-fig6" or "rc13-fig6"?`}, ""},
		{"a figure of a document", []string{"plot", "-o", out, "rc13-figure-6"}, []string{`declares figure "rc13-figure-6"; did you mean "rc13-fig1",`, `"rc13-fig6"`}, "zh-"},
		// The 61 declared ids are not listed: zh-tab-mbone is far from it.
		{"unknown figure", []string{"plot", "-o", out, "no-such-figure"}, []string{`declares figure "no-such-figure"`, "crosslink plot with no figure draws them all"}, "zh-tab-mbone"},
		{"status of a dataset at a profile its spec lacks", []string{"status", "-p", "quick", filepath.Join(out, "no-profiles")}, []string{`no-profiles has no profiles, so not "quick"`}, ""},
		{"two standard inputs", []string{"run", "-n", "-", "-"}, []string{"- (standard input) is named twice"}, ""},
		{"standard input where it is not read", []string{"status", "-"}, []string{"-: this command reads no spec from standard input"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := crosslink(t, tt.args...)
			if code != exitUsage || stdout != "" {
				t.Errorf("crosslink %q: exit %d, stdout %q; want exit 2 and no stdout (stderr %q)", tt.args, code, stdout, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("crosslink %q: stderr %q; want %q", tt.args, stderr, w)
				}
			}
			if tt.not != "" && strings.Contains(stderr, tt.not) {
				t.Errorf("crosslink %q: stderr %q names %q", tt.args, stderr, tt.not)
			}
		})
	}
}

// TestEmptyOutputRoot: -o ” is refused by every command whose -o is an
// output root; it would write into the current directory (here a
// temporary one, so that a failure writes nothing into the repository).
func TestEmptyOutputRoot(t *testing.T) {
	specPath := filepath.Join(t.TempDir(), "no-profiles.yaml")
	if err := os.WriteFile(specPath, []byte(noProfiles), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, cmd := range [][]string{{"run", specPath}, {"figures"}, {"plot"}, {"report"}, {"status", specPath}, {"slurm", specPath}} {
		args := append([]string{cmd[0], "-o", ""}, cmd[1:]...)
		code, stdout, stderr := crosslink(t, args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "-o '': the output root is empty") {
			t.Errorf("crosslink %q: exit %d, stdout %q, stderr %q; want exit 2 and the empty output root refused", args, code, stdout, stderr)
		}
	}
}

// TestOutsideTheRepository: plot, figures and report run where no specs/
// is say which directory they looked for, that it is relative to the
// current directory, and the flag that names another.
func TestOutsideTheRepository(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	for _, cmd := range []string{"plot", "figures", "report"} {
		code, _, stderr := crosslink(t, cmd)
		for _, w := range []string{filepath.Join(wd, "specs"), "relative to the current directory", "--specs"} {
			if code != exitUsage || !strings.Contains(stderr, w) {
				t.Errorf("crosslink %s outside the repository: exit %d, stderr %q; want exit 2 and %q", cmd, code, stderr, w)
			}
		}
	}
}

// TestSpecFromStdin: run and expand read the spec "-" from standard input.
func TestSpecFromStdin(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := crosslinkIn(t, noProfiles, "run", "-n", "-o", out, "-")
	if want := "no-profiles: 2 scenarios, 2 to run, dataset " + filepath.Join(out, "no-profiles") + "\n"; code != exitOK || stdout != want {
		t.Errorf("crosslink run -n - < spec: exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
	}
	code, stdout, stderr = crosslinkIn(t, noProfiles, "expand", "-")
	if code != exitOK || !strings.Contains(stdout, "no-profiles (base profile, model ber-per): 2 scenarios") {
		t.Errorf("crosslink expand - < spec: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// A mistake in it is placed in <stdin>.
	code, _, stderr = crosslinkIn(t, noProfiles+"gird: {}\n", "run", "-n", "-o", out, "-")
	if code != exitUsage || !strings.HasPrefix(stderr, "<stdin>:6:1: ") {
		t.Errorf("crosslink run -n - < bad spec: exit %d, stderr %q; want exit 2 and <stdin>:6:1", code, stderr)
	}
}

// TestFIFOSpec: a named pipe given as the spec is refused at once; opening
// it for reading would wait for a writer forever.
func TestFIFOSpec(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "spec.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, _, stderr := crosslink(t, "run", "-n", "-o", t.TempDir(), fifo)
		done <- result{code, stderr}
	}()
	select {
	case r := <-done:
		if r.code != exitUsage || !strings.Contains(r.stderr, "is a named pipe (FIFO), not a spec file") {
			t.Errorf("crosslink run -n FIFO: exit %d, stderr %q; want exit 2 and a named pipe refused", r.code, r.stderr)
		}
	case <-time.After(30 * time.Second): // a hang, not a slow machine: the refusal takes microseconds
		// Open the pipe for writing so that the blocked reader returns.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("crosslink run -n FIFO still blocks after 30 s")
	}
}

// claimTypos is a spec whose generic figure's claims name columns its data
// lacks (a misspelt y, a where key), and whose figure rc13-tab3, drawn by
// its own Draw, has a claim the report checks instead.
const claimTypos = `name: claim-typos
model: ber-per
grid:
  ber: [1e-9, 1e-6]
  mtu: [1500B, 9000B]
plots:
  - id: claim-typos
    x: ber
    y: [per_worst, per_exact]
    series: [mtu]
    claims:
      - claim: worst case at 1e-9
        source: test
        where: {mtu_bytes: 1500, bre: 1e-9}
        y: per_wrst
        document: 1.2375e-05
        tol: {rel: 0.001}
  - id: rc13-tab3
    kind: table
    x: ber
    y: per_worst
    claims:
      - claim: left to the report
        source: test
        y: unchecked_column
        document: 1
        tol: {rel: 0.1}
`

// TestClaimColumnMistakes: a claim naming a column its generic figure's
// data lacks is a mistake in the spec, refused at file:line:col with the
// likely fix by every command that loads specs, with the other specs'
// mistakes, before anything runs or is written.
func TestClaimColumnMistakes(t *testing.T) {
	dir := t.TempDir()
	specs := filepath.Join(dir, "specs")
	if err := os.Mkdir(specs, 0o755); err != nil {
		t.Fatal(err)
	}
	typos := filepath.Join(specs, "claim-typos.yaml")
	other := filepath.Join(specs, "other.yaml")
	for path, text := range map[string]string{typos: claimTypos, other: noProfiles + "params: {distnce: 1}\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		typos + `:14:34: plot claim-typos claim 1: where "bre" is not a column of the figure's data; did you mean "ber"? (columns: curve, mtu_bytes, ber, per_worst,`,
		typos + `:15:12: plot claim-typos claim 1: y "per_wrst" is not a column of the figure's data; did you mean "per_worst"?`,
	}
	otherWant := other + `:6:10: unknown parameter "distnce"`
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"run", "-o", out, typos, other},
		{"run", "-n", "-o", out, typos, other},
		{"figures", "-o", out, "--specs", specs},
		{"plot", "-o", out, "--specs", specs},
		{"report", "-o", out, "--specs", specs},
		{"report", "-p", "quick", "-o", out, "--specs", specs},
		{"expand", typos},
		{"slurm", "-o", out, typos},
		{"status", "-o", out, typos},
	} {
		name := strings.Join(slices.DeleteFunc(slices.Clone(args), func(a string) bool { return strings.HasPrefix(a, dir) }), " ")
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := crosslink(t, args...)
			if code != exitUsage || stdout != "" {
				t.Errorf("crosslink %q: exit %d, stdout %q; want exit 2 and no stdout (stderr %q)", args, code, stdout, stderr)
			}
			w := want
			if slices.Contains(args, other) || slices.Contains(args, specs) {
				w = append(w, otherWant)
			}
			for _, line := range w {
				if !strings.Contains(stderr, line) {
					t.Errorf("crosslink %q: stderr\n%s\nwant %q", args, stderr, line)
				}
			}
			if strings.Contains(stderr, "unchecked_column") {
				t.Errorf("crosslink %q names the claim of rc13-tab3, which its own Draw lays out: %s", args, stderr)
			}
			if entries, _ := os.ReadDir(out); len(entries) != 0 {
				t.Errorf("crosslink %q wrote %d entries into the output directory, want none", args, len(entries))
			}
		})
	}
}

// TestShippedSpecsClaims: every shipped spec loads at each profile with
// its claims checked against its figures' columns; the same check refuses
// rc13-fig3's claim with its y misspelt.
func TestShippedSpecsClaims(t *testing.T) {
	paths, err := filepath.Glob("specs/*.yaml")
	if err != nil || len(paths) < 30 {
		t.Fatalf("specs/*.yaml: %d specs, %v; want the 30 and more shipped", len(paths), err)
	}
	out := t.TempDir()
	for _, profile := range []string{"", "quick", "full"} {
		args := append([]string{"run", "-n", "-o", out, "-p", profile}, paths...)
		if code, _, stderr := crosslink(t, args...); code != exitOK {
			t.Errorf("crosslink run -n -p %q specs/*.yaml: exit %d\n%s", profile, code, stderr)
		}
	}
	data, err := os.ReadFile("specs/rc13-fig3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	typo := filepath.Join(t.TempDir(), "rc13-fig3.yaml")
	if err := os.WriteFile(typo, []byte(strings.Replace(string(data), "y: per_worst\n", "y: per_wrst\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := crosslink(t, "run", "-n", "-o", out, typo)
	if want := `: plot rc13-fig3 claim 1: y "per_wrst" is not a column of the figure's data; did you mean "per_worst"?`; code != exitUsage || !strings.Contains(stderr, typo+":") || !strings.Contains(stderr, want) {
		t.Errorf("crosslink run -n with rc13-fig3's y misspelt: exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}
