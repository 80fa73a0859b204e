package sweep

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/plan"
	"github.com/crosslink-sim/crosslink/sweep/spec"
	"github.com/crosslink-sim/crosslink/vocab"
)

// twinJob parses a spec text named "twin" from file for m, writing into
// out/twin.
func twinJob(t *testing.T, m vocab.Model, file, text, out string) *Job {
	t.Helper()
	reg, err := vocab.NewRegistry(m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse(file, []byte(text), reg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.New(s, m)
	if err != nil {
		t.Fatal(err)
	}
	return &Job{Spec: s, Model: m, Plan: p, Dir: filepath.Join(out, s.Name)}
}

// TestAnotherSpecSameName: a second spec with the same name run into the
// same output directory is refused, naming both specs and the fix, and
// adds no row; an edit of the first spec (an axis value added) runs only
// the new scenario.
func TestAnotherSpecSameName(t *testing.T) {
	m := newInverseSquare(0)
	out := t.TempDir()
	first := "name: twin\ndescription: near field\nmodel: inverse-square\nseed: 1\ngrid:\n  distance: [1m, 2m, 3m]\n"
	other := "name: twin\ndescription: far field\nmodel: inverse-square\nseed: 2\ngrid:\n  distance: [1km, 2km]\n"
	edited := "name: twin\ndescription: near field\nmodel: inverse-square\nseed: 1\ngrid:\n  distance: [1m, 2m, 3m, 4m]\n"
	opts := Options{Workers: 1, Warn: io.Discard}
	a := twinJob(t, m, "near.yaml", first, out)
	if _, err := RunJobs(context.Background(), []*Job{a}, opts); err != nil {
		t.Fatal(err)
	}
	b := twinJob(t, m, "far.yaml", other, out)
	_, err := RunJobs(context.Background(), []*Job{b}, opts)
	if err == nil {
		t.Fatal("the second spec named twin ran into the first's dataset")
	}
	for _, want := range []string{"another spec named \"twin\" (description \"near field\")", "far.yaml", "scenarios/part-0of1-000001.parquet", "another name", "--out"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if n, err := b.Missing(); err != nil || n != 2 {
		t.Errorf("the refused spec's scenarios missing: %d, %v; want 2 (no row written)", n, err)
	}
	e := twinJob(t, m, "near.yaml", edited, out)
	var progress strings.Builder
	opts.Progress = &progress
	if _, err := RunJobs(context.Background(), []*Job{e}, opts); err != nil {
		t.Fatalf("the edited spec: %v", err)
	}
	if !strings.Contains(progress.String(), "1 ok, 0 failed, 3 skipped") {
		t.Errorf("the edited spec's run: %q, want 1 ok and 3 skipped", progress.String())
	}
}

// TestEditedSpecOtherProfile: a spec whose text changed since its full
// run (a description reworded), run at a quick profile none of whose
// scenarios the full run made, is the same spec: its profiles share the
// dataset.
func TestEditedSpecOtherProfile(t *testing.T) {
	m := newInverseSquare(0)
	out := t.TempDir()
	full := "name: twin\ndescription: near field\nmodel: inverse-square\nseed: 1\ngrid:\n  distance: [1m, 2m, 3m]\nprofiles:\n  quick:\n    grid:\n      distance: [10m]\n"
	reworded := strings.Replace(full, "near field", "the near field", 1)
	if _, err := RunJobs(context.Background(), []*Job{twinJob(t, m, "twin.yaml", full, out)}, Options{Warn: io.Discard}); err != nil {
		t.Fatal(err)
	}
	q := twinJob(t, m, "twin.yaml", reworded, out)
	if q.Spec, _ = q.Spec.Resolve("quick"); q.Spec == nil {
		t.Fatal("no quick profile")
	}
	p, err := plan.New(q.Spec, m)
	if err != nil {
		t.Fatal(err)
	}
	q.Plan, q.Profile = p, "quick"
	if _, err := RunJobs(context.Background(), []*Job{q}, Options{Warn: io.Discard}); err != nil {
		t.Errorf("the reworded spec at its quick profile: %v", err)
	}
}

// TestEditedSpecAfterUpgrade: a spec edited in the release that bumped
// its model's version (a plot's label reworded) runs into its dataset:
// none of the old rows can be one of its scenarios (their ids hash the
// old version), and the run sets their parts aside rather than refusing
// them as another spec's. Rows of another model under the same name are
// still refused.
func TestEditedSpecAfterUpgrade(t *testing.T) {
	out := t.TempDir()
	first := "name: twin\ndescription: near field\nmodel: inverse-square\nseed: 1\ngrid:\n  distance: [1m, 2m, 3m]\n"
	edited := strings.Replace(first, "near field", "the near field", 1)
	opts := Options{Workers: 1, Warn: io.Discard}
	v1 := newInverseSquare(0)
	if _, err := RunJobs(context.Background(), []*Job{twinJob(t, v1, "twin.yaml", first, out)}, opts); err != nil {
		t.Fatal(err)
	}

	other := newInverseSquare(0)
	other.schema.Name = "inverse-cube"
	otherText := strings.Replace(edited, "inverse-square", "inverse-cube", 1)
	if _, err := RunJobs(context.Background(), []*Job{twinJob(t, other, "cube.yaml", otherText, out)}, opts); err == nil || !strings.Contains(err.Error(), "another spec named") {
		t.Errorf("a spec of another model named twin: %v, want refused as another spec", err)
	}

	v2 := newInverseSquare(0)
	v2.schema.Version = 2
	var progress, warn strings.Builder
	opts.Progress, opts.Warn = &progress, &warn
	if _, err := RunJobs(context.Background(), []*Job{twinJob(t, v2, "twin.yaml", edited, out)}, opts); err != nil {
		t.Fatalf("the edited spec after the upgrade: %v", err)
	}
	if !strings.Contains(progress.String(), "3 ok, 0 failed, 0 skipped") {
		t.Errorf("the edited spec's run: %q, want 3 ok", progress.String())
	}
	if !strings.Contains(warn.String(), "written by inverse-square version 1; the model is now inverse-square version 2") {
		t.Errorf("the old part was not set aside: warnings %q", warn.String())
	}
}

// TestEditedSeedRefused: a spec whose seed changed, run into the dataset
// its former seed wrote, is refused, naming both seeds and the fix: its
// scenario ids are the same (an id leaves the seed out), so the run would
// skip them and keep the old draws under the new seed. A reworded
// description with the same seed still shares the dataset.
func TestEditedSeedRefused(t *testing.T) {
	m := newInverseSquare(0)
	out := t.TempDir()
	first := "name: twin\ndescription: near field\nmodel: inverse-square\nseed: 1\ngrid:\n  distance: [1m, 2m, 3m]\n"
	opts := Options{Workers: 1, Warn: io.Discard}
	if _, err := RunJobs(context.Background(), []*Job{twinJob(t, m, "twin.yaml", first, out)}, opts); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want []string // in the error; none: runs
	}{
		{strings.Replace(first, "seed: 1", "seed: 2", 1), []string{"3 rows drawn with spec seed 1", "twin.yaml has seed 2", "move", "--out"}},
		{strings.Replace(first, "seed: 1\n", "", 1), nil}, // the default seed is 1
		{strings.Replace(first, "near field", "the near field", 1), nil},
	} {
		_, err := RunJobs(context.Background(), []*Job{twinJob(t, m, "twin.yaml", c.text, out)}, opts)
		if c.want == nil {
			if err != nil {
				t.Errorf("%q: %v, want it to run", c.text, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%q ran into rows of another seed", c.text)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not say %q", err, w)
			}
		}
		// status says so too, rather than calling the old draws complete.
		r, err := Check(twinJob(t, m, "twin.yaml", c.text, out), 0, false)
		if err != nil || r.Complete() || !strings.Contains(r.Refused, c.want[0]) {
			t.Errorf("status of %q: %+v, %v; want incomplete and refused with %q", c.text, r, err, c.want[0])
		}
	}
}

// TestSeedRefusedStatusDir: status of a dataset by its directory (the
// job loaded from what its parts record) names the spec of the last run,
// not a file the user never wrote, when that spec's seed differs from the
// rows' beside it: here a part of a seed-2 run copied into a seed-1
// dataset, as a merge of two runs' outputs leaves it.
func TestSeedRefusedStatusDir(t *testing.T) {
	m := newInverseSquare(0)
	one, two := t.TempDir(), t.TempDir()
	text := "name: twin\nmodel: inverse-square\nseed: 1\ngrid:\n  distance: [1m, 2m, 3m]\n"
	opts := Options{Workers: 1, Warn: io.Discard}
	for _, r := range []struct{ out, text string }{{one, text}, {two, strings.Replace(text, "seed: 1", "seed: 2", 1)}} {
		if _, err := RunJobs(context.Background(), []*Job{twinJob(t, m, "twin.yaml", r.text, r.out)}, opts); err != nil {
			t.Fatal(err)
		}
	}
	parts, err := dataset.Parts(filepath.Join(two, "twin"))
	if err != nil || len(parts) != 1 {
		t.Fatalf("seed-2 parts %v, %v; want 1", parts, err)
	}
	b, err := os.ReadFile(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(one, "twin")
	if err := os.WriteFile(filepath.Join(dataset.MainDir(dir), "part-0of1-000009.parquet"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	reg, err := vocab.NewRegistry(m)
	if err != nil {
		t.Fatal(err)
	}
	j, err := LoadDir(dir, reg)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Check(j, 0, false)
	if err != nil || !strings.Contains(r.Refused, "3 rows drawn with spec seed 1") ||
		!strings.Contains(r.Refused, "and the spec of its last run has seed 2") || strings.Contains(r.Refused, recordedSpec) {
		t.Errorf("status %s: %+v, %v; want refused naming seed 1's rows and the last run's seed 2", dir, r, err)
	}
}

// TestEditedSeedDamagedPart: a part that no longer decodes does not let
// the rows of the readable parts beside it through: the spec with a new
// seed is still refused, by the rows that read.
func TestEditedSeedDamagedPart(t *testing.T) {
	m := newInverseSquare(0)
	out := t.TempDir()
	text := "name: twin\nmodel: inverse-square\nseed: 1\ngrid:\n  distance: [1m, 2m, 3m]\nprofiles:\n  quick: {grid: {distance: [1m]}}\n"
	opts := Options{Workers: 1, Warn: io.Discard}
	quick := twinJob(t, m, "twin.yaml", text, out)
	var err error
	if quick.Spec, err = quick.Spec.Resolve("quick"); err != nil {
		t.Fatal(err)
	}
	if quick.Plan, err = plan.New(quick.Spec, m); err != nil {
		t.Fatal(err)
	}
	quick.Profile = "quick"
	for _, j := range []*Job{quick, twinJob(t, m, "twin.yaml", text, out)} {
		if _, err := RunJobs(context.Background(), []*Job{j}, opts); err != nil {
			t.Fatal(err)
		}
	}
	parts, err := dataset.Parts(filepath.Join(out, "twin"))
	if err != nil || len(parts) != 2 {
		t.Fatalf("parts %v, %v; want 2", parts, err)
	}
	b, err := os.ReadFile(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	for i := 4; i < 400; i++ { // the first pages, not the footer
		b[i] ^= 0xff
	}
	if err := os.WriteFile(parts[1], b, 0o644); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(text, "seed: 1", "seed: 2", 1)
	_, err = RunJobs(context.Background(), []*Job{twinJob(t, m, "twin.yaml", edited, out)}, opts)
	if err == nil || !strings.Contains(err.Error(), "1 rows drawn with spec seed 1") {
		t.Errorf("the new seed beside a damaged part: %v, want refused by the readable part's row", err)
	}
}

// TestRecordedSpecKeepsOldRanges: a dataset run before a range's step had
// to land on to (its recorded spec has {from: 1m, to: 4m, step: 2m}, whose
// axis stopped at 3m) is still read by status, with the plan it was run
// with, while the same spec in a file is refused.
func TestRecordedSpecKeepsOldRanges(t *testing.T) {
	m := newInverseSquare(0)
	out := t.TempDir()
	text := "name: old\nmodel: inverse-square\ngrid:\n  distance: {from: 1m, to: 4m, step: 2m}\n"
	reg, err := vocab.NewRegistry(m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spec.Parse("old.yaml", []byte(text), reg); err == nil || !strings.Contains(err.Error(), "does not reach 4m") {
		t.Fatalf("the spec in a file: %v, want the step refused", err)
	}
	s, err := spec.ParseLimited("old.yaml", []byte(text), reg, spec.Limits{Recorded: true})
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.New(s, m)
	if err != nil {
		t.Fatal(err)
	}
	j := &Job{Spec: s, Model: m, Plan: p, Dir: filepath.Join(out, s.Name)}
	if _, err := RunJobs(context.Background(), []*Job{j}, Options{Workers: 1, Warn: io.Discard}); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadDir(j.Dir, reg)
	if err != nil {
		t.Fatalf("status of the dataset: %v", err)
	}
	r, err := Check(loaded, 0, false)
	if err != nil || loaded.Plan.Len() != 2 || r.Total != 2 || r.OK != 2 || r.Missing != 0 || r.Extra != 0 || r.Refused != "" {
		t.Errorf("status: %d scenarios planned, report %+v, %v; want the 2 it was run with (1m, 3m), done", loaded.Plan.Len(), r, err)
	}
}
