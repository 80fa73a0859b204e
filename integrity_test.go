package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// TestFlipFoundAndRepaired flips 64 bytes in the middle of a part (inside
// a column page, where only a reader decoding it would notice): `status`
// must exit 1 naming the file, `run` must set it aside and rerun its
// scenarios, and `status` must then call the dataset complete.
func TestFlipFoundAndRepaired(t *testing.T) {
	out := t.TempDir()
	spec := filepath.Join(out, "flip.yaml")
	text := "name: flip\nmodel: ber-per\nseed: 1\nreplicates: 1\ngrid:\n  ber: [1e-9, 1e-8, 1e-7, 1e-6, 1e-5]\n  mtu: [64B, 1500B, 9000B]\n"
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, shard := range []string{"0/2", "1/2"} { // two parts
		if code, _, stderr := crosslink(t, "run", "-q", "-o", out, "--shard", shard, spec); code != exitOK {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
	}
	dir := filepath.Join(out, "flip")
	ps, _ := dataset.Parts(dir)
	if len(ps) != 2 {
		t.Fatalf("%d parts, want 2", len(ps))
	}
	b, err := os.ReadFile(ps[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := range 64 {
		b[len(b)/2-32+i] ^= 0x5a
	}
	if err := os.WriteFile(ps[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := crosslink(t, "status", dir)
	if code != exitFailed || !strings.Contains(stdout, ps[0]) || !strings.Contains(stdout, "damaged") {
		t.Errorf("status after the flip: exit %d, want 1 naming %s:\n%s", code, ps[0], stdout)
	}
	code, stdout, stderr := crosslink(t, "run", "-o", out, spec)
	if code != exitOK || !strings.Contains(stderr, ps[0]) {
		t.Errorf("run after the flip: exit %d, want 0 and a warning naming %s:\n%s%s", code, ps[0], stdout, stderr)
	}
	code, stdout, _ = crosslink(t, "status", "--deep", dir)
	if code != exitOK || !strings.Contains(stdout, "15 done, 0 failed, 0 missing: complete") {
		t.Errorf("status after the rerun: exit %d, want 0 and complete:\n%s", code, stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, dataset.CorruptDir, dataset.MainTable, filepath.Base(ps[0])+".corrupt")); err != nil {
		t.Errorf("the damaged part was not set aside: %v", err)
	}
}

// runTwoScenarios runs a two-scenario ber-per spec named g into a new
// output root and returns that root.
func runTwoScenarios(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	spec := filepath.Join(out, "g.yaml")
	if err := os.WriteFile(spec, []byte("name: g\nmodel: ber-per\ngrid:\n  ber: [1e-9, 1e-6]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := crosslink(t, "run", "-q", "-o", out, spec); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	return out
}

// TestStatusGlobAndJSON: `status out/*/` skips out/figures/ (no dataset)
// with a note instead of stopping there with exit 2, and --json prints one
// array of reports.
func TestStatusGlobAndJSON(t *testing.T) {
	out := runTwoScenarios(t)
	if err := os.MkdirAll(filepath.Join(out, "figures"), 0o755); err != nil {
		t.Fatal(err)
	}
	ds, figs := filepath.Join(out, "g")+"/", filepath.Join(out, "figures")+"/"
	code, stdout, stderr := crosslink(t, "status", figs, ds)
	if code != exitOK || !strings.Contains(stderr, "holds no dataset; skipped") || !strings.Contains(stdout, "2 done") {
		t.Errorf("status figures/ g/: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = crosslink(t, "status", "--json", ds)
	var rs []struct {
		Spec     string
		Total    int
		OK       int
		Complete bool
		Damaged  []any
	}
	if err := json.Unmarshal([]byte(stdout), &rs); err != nil || code != exitOK || len(rs) != 1 || rs[0].Spec != "g" || rs[0].Total != 2 || rs[0].OK != 2 || !rs[0].Complete {
		t.Errorf("status --json: exit %d, %v, %+v:\n%s", code, err, rs, stdout)
	}
	if code, _, _ := crosslink(t, "status", figs); code != exitUsage {
		t.Errorf("status of figures/ alone: exit %d, want %d", code, exitUsage)
	}
}

// TestStatusListsLeftovers checks that status names the temporary file a
// killed merge left in .tmp/ (up to a whole table's merged part, which no
// reader lists and nothing else reports), says the next run or merge
// removes it, and still calls the dataset complete: its tables are whole.
func TestStatusListsLeftovers(t *testing.T) {
	ds := filepath.Join(runTwoScenarios(t), "g")
	left := filepath.Join(".tmp", "merge-0001.parquet")
	if err := os.MkdirAll(filepath.Join(ds, ".tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ds, left), []byte("half a table"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := crosslink(t, "status", ds)
	if code != exitOK || !strings.Contains(stdout, "complete") || !strings.Contains(stdout, "left by a killed run or merge: "+left) {
		t.Errorf("status with %s left: exit %d\n%s%s", left, code, stdout, stderr)
	}
	code, stdout, _ = crosslink(t, "status", "--json", ds)
	var rs []struct{ Leftovers []string }
	if err := json.Unmarshal([]byte(stdout), &rs); err != nil || code != exitOK || len(rs) != 1 || len(rs[0].Leftovers) != 1 || rs[0].Leftovers[0] != left {
		t.Errorf("status --json: exit %d, %v, %+v:\n%s", code, err, rs, stdout)
	}
	if code, _, stderr := crosslink(t, "merge", ds); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(ds, left)); !os.IsNotExist(err) {
		t.Errorf("after merge, %s: %v; want it removed", left, err)
	}
}

// TestStatusTruncatedOnlyPart truncates the one part of rc13-fig2's main
// table: `status DIR` reads the spec the dataset records from a part of
// a second table instead, and exits 1 naming the damaged part, as with
// the spec file named.
func TestStatusTruncatedOnlyPart(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := crosslink(t, "run", "-q", "-p", "quick", "-o", out, "specs/rc13-fig2.yaml"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(out, "rc13-fig2")
	ps, _ := dataset.Parts(dir)
	if len(ps) != 1 {
		t.Fatalf("%d parts, want 1", len(ps))
	}
	if err := os.Truncate(ps[0], 100); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"status", dir}, {"status", "-p", "quick", "-o", out, "specs/rc13-fig2.yaml"}} {
		code, stdout, stderr := crosslink(t, args...)
		if code != exitFailed || !strings.Contains(stdout, "damaged: "+ps[0]) {
			t.Errorf("%q: exit %d, want 1 naming %s as damaged:\n%s%s", args, code, ps[0], stdout, stderr)
		}
	}
}

// TestStatusOfATable: status given a table of a dataset, or merge given
// it, refuses with exit 2, naming the dataset's directory to give.
func TestStatusOfATable(t *testing.T) {
	ds := filepath.Join(runTwoScenarios(t), "g")
	table := filepath.Join(ds, dataset.MainTable)
	want := table + " is inside the dataset " + ds
	for _, cmd := range []string{"status", "merge"} {
		code, stdout, stderr := crosslink(t, cmd, table)
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s %s: exit %d, want 2 and an error saying %q:\n%s%s", cmd, table, code, want, stdout, stderr)
		}
	}
	if code, stdout, _ := crosslink(t, "status", ds); code != exitOK || !strings.Contains(stdout, "2 done, 0 failed, 0 missing: complete") {
		t.Errorf("status of the dataset after both: exit %d, want complete:\n%s", code, stdout)
	}
}

// TestStatusReadsTheLastRun runs a spec at its base profile and then at
// quick into one dataset: `status DIR` checks it against the profile run
// last, whose parts are the newest, not the first part's by name (which
// called the dataset complete at the base profile while quick, the one
// plot would draw, was not). After merge, the merged part records the
// same.
func TestStatusReadsTheLastRun(t *testing.T) {
	out := t.TempDir()
	spec := filepath.Join(out, "g.yaml")
	text := "name: g\nmodel: ber-per\ngrid:\n  ber: [1e-9, 1e-6]\nprofiles:\n  quick:\n    grid:\n      mtu: [64B, 9000B]\n"
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := crosslink(t, "run", "-q", "-o", out, spec); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	// Shard 0/2 of quick's four scenarios (none of them the base
	// profile's): two of them, so quick is incomplete.
	if code, _, stderr := crosslink(t, "run", "-q", "-p", "quick", "--shard", "0/2", "-o", out, spec); code != exitOK {
		t.Fatalf("run -p quick: exit %d: %s", code, stderr)
	}
	ds := filepath.Join(out, "g")
	code, stdout, _ := crosslink(t, "status", ds)
	if want := "g (profile quick): 4 scenarios: 2 done, 0 failed, 2 missing: incomplete"; code != exitFailed || !strings.Contains(stdout, want) {
		t.Errorf("status after the quick shard: exit %d, want 1 and %q:\n%s", code, want, stdout)
	}
	// A copy (cp -r, scp -r) stamps the files in its own order: make the
	// base run's parts the newest files. The parts record when their run
	// started, which decides.
	ps, _ := dataset.Parts(ds)
	later := time.Now().Add(time.Hour)
	for _, p := range ps {
		if err := os.Chtimes(p, later, later); err != nil {
			t.Fatal(err)
		}
		later = later.Add(-time.Minute) // by name: the base run's part first, so newest
	}
	if code, stdout, _ := crosslink(t, "status", ds); code != exitFailed || !strings.Contains(stdout, "g (profile quick)") {
		t.Errorf("status after the files' times changed: exit %d, want 1 at profile quick:\n%s", code, stdout)
	}
	if code, _, stderr := crosslink(t, "merge", ds); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if code, stdout, _ := crosslink(t, "status", ds); code != exitFailed || !strings.Contains(stdout, "g (profile quick)") {
		t.Errorf("status after merge: exit %d, want 1 at profile quick:\n%s", code, stdout)
	}
}

// TestStatusNothingToCheck: status given only directories that hold no
// dataset (output roots, say) exits 2 rather than 0 having checked
// nothing, and a dataset whose run has written no part yet (its first
// minute, or a run killed in it) is incomplete, exit 1, not a usage error.
func TestStatusNothingToCheck(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	code, _, stderr := crosslink(t, "status", a, b)
	if want := "none of the 2 paths is a dataset or a spec file"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("status of two empty directories: exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
	ds := filepath.Join(t.TempDir(), "g")
	if err := os.MkdirAll(ds, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ds, dataset.LockFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = crosslink(t, "status", ds)
	if want := ds + ": no part written yet, so incomplete"; code != exitFailed || !strings.Contains(stderr, want) {
		t.Errorf("status of a dataset with a lock and no part: exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	// --json lists it too, incomplete, with the reason.
	code, stdout, _ := crosslink(t, "status", "--json", ds)
	var js []struct {
		Dir      string    `json:"dir"`
		Complete bool      `json:"complete"`
		Damaged  *[]string `json:"damaged"`
		Note     string    `json:"note"`
	}
	if err := json.Unmarshal([]byte(stdout), &js); err != nil {
		t.Fatalf("status --json: %v:\n%s", err, stdout)
	}
	if code != exitFailed || len(js) != 1 || js[0].Dir != ds || js[0].Complete || js[0].Damaged != nil || !strings.HasPrefix(js[0].Note, "no part written yet") {
		t.Errorf("status --json of a dataset with no part: exit %d, %+v; want 1 and one incomplete entry for %s, damaged null (not checked), with a note", code, js, ds)
	}
}

// TestStatusStrayPartAdvisesOnce: a file in a table directory that no
// run wrote (here a part copied under another shard's name) is named
// damaged with one piece of advice, not the reason's and the line's both.
func TestStatusStrayPartAdvisesOnce(t *testing.T) {
	ds := filepath.Join(runTwoScenarios(t), "g")
	ps, _ := dataset.Parts(ds)
	if len(ps) != 1 {
		t.Fatalf("%d parts, want 1", len(ps))
	}
	b, err := os.ReadFile(ps[0])
	if err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(filepath.Dir(ps[0]), "part-1of2-000001.parquet")
	if err := os.WriteFile(stray, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := crosslink(t, "status", ds)
	line := "damaged: " + stray + ": not a part file of this dataset (crosslink run sets it aside"
	if code != exitFailed || !strings.Contains(stdout, line) || strings.Count(stdout, "(crosslink run") != 1 {
		t.Errorf("status with a stray part: exit %d, want 1 and one line %q with one piece of advice:\n%s", code, line, stdout)
	}
}

// TestStatusIgnoresAnUnusedOut: status given datasets only does not read
// -o, so a file named out in the working directory (a log, say) does not
// refuse them; given a spec file, it does.
func TestStatusIgnoresAnUnusedOut(t *testing.T) {
	ds := filepath.Join(runTwoScenarios(t), "g")
	t.Chdir(t.TempDir())
	if err := os.WriteFile("out", []byte("a log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := crosslink(t, "status", ds); code != exitOK {
		t.Errorf("status DATASET beside a file named out: exit %d, want 0:\n%s%s", code, stdout, stderr)
	}
	if err := os.WriteFile("g.yaml", []byte("name: g\nmodel: ber-per\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := crosslink(t, "status", "g.yaml"); code != exitUsage || !strings.Contains(stderr, "-o out: that is a file") {
		t.Errorf("status SPEC with out a file: exit %d, stderr %q; want 2 naming -o", code, stderr)
	}
}

// statusAdviceSpec is two small tcp-compete scenarios: with --max-events
// 1000 each times out.
const statusAdviceSpec = `name: status-advice
model: tcp-compete
seed: 1
params:
  duration: 1s
  flows: 2
grid:
  ccas: [cubic, newreno]
`

// TestStatusRerunAdvice: the commands status gives to finish a dataset
// work as pasted. Given the spec file, they name it; failed rows get
// --retry-failed, without which a run skips them; a whole run gets one as
// a shard does. For a dataset directory they say SPEC and what it stands
// for. A dataset not created yet (an array still queued) is incomplete,
// not an error, and a file that is neither a dataset nor a spec is
// skipped among others.
func TestStatusRerunAdvice(t *testing.T) {
	root, spec := specIn(t, "status-advice", statusAdviceSpec)
	notes := filepath.Join(root, "README.md")
	if err := os.WriteFile(notes, []byte("# notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rerun := regexp.MustCompile(`rerun: crosslink (.*?)\)?\n`)
	// pasteAll runs every rerun command of status's output and returns
	// how many there were.
	pasteAll := func(out string) int {
		t.Helper()
		cmds := rerun.FindAllStringSubmatch(out, -1)
		for _, m := range cmds {
			if code, _, stderr := crosslink(t, strings.Fields(m[1])...); code != exitOK {
				t.Errorf("pasted %q: exit %d\n%s", m[1], code, stderr)
			}
		}
		return len(cmds)
	}

	// A path whose parent is missing too is mistyped, not queued.
	if code, _, stderr := crosslink(t, "status", filepath.Join(root, "nowhere", "status-advice")); code != exitUsage || !strings.Contains(stderr, "no such file or directory") {
		t.Errorf("status of a path under a missing directory: exit %d, stderr %q; want 2, no such file", code, stderr)
	}
	sharded := filepath.Join(root, "sharded")
	ds := filepath.Join(sharded, "status-advice")
	if err := os.MkdirAll(sharded, 0o755); err != nil { // the output root crosslink slurm writes its scripts in
		t.Fatal(err)
	}
	code, _, stderr := crosslink(t, "status", ds, notes)
	if code != exitFailed || !strings.Contains(stderr, ds+": no dataset yet, so incomplete") || !strings.Contains(stderr, notes+" is neither a dataset nor a spec file") {
		t.Errorf("status of a dataset not created yet and a README: exit %d, stderr %q; want 1, the dataset incomplete and the README skipped", code, stderr)
	}
	if code, _, stderr := crosslink(t, "run", "-q", spec, "-o", sharded, "--shard", "0/2", "--max-events", "1000"); code != exitFailed {
		t.Fatalf("run of shard 0/2 with --max-events 1000: exit %d, want 1 (a timeout)\n%s", code, stderr)
	}
	code, stdout, _ := crosslink(t, "status", ds)
	if code != exitFailed || !strings.Contains(stdout, "(rerun: crosslink run SPEC -o "+sharded+" --shard 0/2 --retry-failed)") ||
		!strings.Contains(stdout, "(SPEC: the spec file of status-advice;") {
		t.Errorf("status of the dataset directory: exit %d\n%s\nwant shard 0/2's rerun with SPEC and --retry-failed, and what SPEC is", code, stdout)
	}
	code, stdout, _ = crosslink(t, "status", spec, "-o", sharded)
	want := []string{
		"shard 0/2 incomplete: 0 missing, 1 failed (rerun: crosslink run " + spec + " -o " + sharded + " --shard 0/2 --retry-failed)",
		"shard 1/2 incomplete: 1 missing, 0 failed (rerun: crosslink run " + spec + " -o " + sharded + " --shard 1/2)",
	}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("status of the spec: exit %d\n%s\nwant the line %q", code, stdout, w)
		}
	}
	if strings.Contains(stdout, "SPEC") {
		t.Errorf("status of the spec file says SPEC:\n%s", stdout)
	}
	if n := pasteAll(stdout); n != 2 {
		t.Errorf("%d rerun commands, want 2", n)
	}
	// A spec not named .yaml is one all the same, among other paths.
	other := filepath.Join(root, "status-advice.spec")
	if err := os.WriteFile(other, []byte(statusAdviceSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := crosslink(t, "status", other, notes, "-o", sharded); code != exitOK || !strings.Contains(stdout, "status-advice: 2 scenarios: 2 done") || !strings.Contains(stderr, notes+" is neither a dataset nor a spec file; skipped") {
		t.Errorf("status of a .spec spec and a README: exit %d\n%s%s\nwant the spec's complete dataset, the README skipped", code, stdout, stderr)
	}
	if code, stdout, _ := crosslink(t, "status", spec, "-o", sharded); code != exitOK {
		t.Errorf("after the pasted reruns: exit %d\n%s\nwant complete", code, stdout)
	}

	whole := filepath.Join(root, "whole")
	if code, _, stderr := crosslink(t, "run", "-q", spec, "-o", whole, "--max-events", "1000"); code != exitFailed {
		t.Fatalf("whole run with --max-events 1000: exit %d, want 1\n%s", code, stderr)
	}
	code, stdout, _ = crosslink(t, "status", spec, "-o", whole)
	if w := "  rerun: crosslink run " + spec + " -o " + whole + " --retry-failed\n"; code != exitFailed || !strings.Contains(stdout, w) || !strings.Contains(stdout, "(the timeout rows ran under --timeout or --max-events") {
		t.Errorf("status of the whole run's dataset: exit %d\n%s\nwant the line %q, and that the timeouts ran under a limit", code, stdout, w)
	}
	if n := pasteAll(stdout); n != 1 {
		t.Errorf("%d rerun commands, want 1", n)
	}
	if code, stdout, _ := crosslink(t, "status", spec, "-o", whole); code != exitOK {
		t.Errorf("after the pasted rerun: exit %d\n%s\nwant complete", code, stdout)
	}
}

// twoProfileSpec is a closed-form sweep with a smaller quick profile.
const twoProfileSpec = `name: two-profiles
model: ber-per
seed: 3
grid:
  ber: [1e-9, 1e-7, 1e-5]
  mtu: [1500B, 9000B]
profiles:
  quick:
    grid:
      ber: [1e-9, 1e-6]
  full: {}
`

// TestStatusOtherProfiles: a dataset that runs of two profiles wrote (a
// quick run, then a full one) is reported at the latest run's profile,
// and the rows of the other are said to be that profile's, with the
// status command that counts them.
func TestStatusOtherProfiles(t *testing.T) {
	root, spec := specIn(t, "two-profiles", twoProfileSpec)
	out := filepath.Join(root, "out")
	ds := filepath.Join(out, "two-profiles")
	for _, p := range []string{"quick", "full"} {
		if code, _, stderr := crosslink(t, "run", "-q", spec, "-p", p, "-o", out); code != exitOK {
			t.Fatalf("run -p %s: exit %d\n%s", p, code, stderr)
		}
	}
	code, stdout, _ := crosslink(t, "status", ds)
	want := "2 rows belong to no scenario of this profile; parts of other profiles are here too (profile quick: crosslink status " + ds + " -p quick)"
	if code != exitOK || !strings.Contains(stdout, "two-profiles (profile full): 6 scenarios: 6 done") || !strings.Contains(stdout, want) {
		t.Errorf("status of the dataset: exit %d\n%s\nwant full complete and the line %q", code, stdout, want)
	}
	if code, stdout, _ := crosslink(t, "status", ds, "-p", "quick"); code != exitOK || !strings.Contains(stdout, "(profile quick): 4 scenarios: 4 done") || !strings.Contains(stdout, "profile full: crosslink status") {
		t.Errorf("the status command it gives: exit %d\n%s\nwant quick complete, and full named as the other profile", code, stdout)
	}
	_, stdout, _ = crosslink(t, "status", "--json", spec, "-p", "full", "-o", out)
	var js []struct {
		SpecFile      string   `json:"spec_file"`
		OtherProfiles []string `json:"other_profiles"`
	}
	if err := json.Unmarshal([]byte(stdout), &js); err != nil || len(js) != 1 || js[0].SpecFile != spec || len(js[0].OtherProfiles) != 1 || js[0].OtherProfiles[0] != "quick" {
		t.Errorf("status --json: %v, %+v; want spec_file %s and other_profiles [quick]", err, js, spec)
	}
}
