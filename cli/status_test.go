package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/slurm"
)

// brokenWriter fails every write of some bytes, as a closed pipe does
// (an empty write sends nothing and succeeds).
type brokenWriter struct{}

func (brokenWriter) Write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	return 0, errors.New("broken pipe")
}

// TestReportWriteError checks that writeReport returns the error of its
// writer, so that `crosslink status | head` does not exit 0 on a lost line.
func TestReportWriteError(t *testing.T) {
	r := &sweep.Report{Spec: "s", Dir: "out/s", Total: 2, OK: 1, Missing: 1, Failed: map[dataset.Status]int{}}
	if err := writeReport(brokenWriter{}, r); err == nil {
		t.Errorf("writeReport(broken writer) = nil, want the write error")
	}
}

// TestFailedCounts: status counts every row that is not ok as failed and
// names the statuses in parentheses, unless they are all "failed", which
// the count already says.
func TestFailedCounts(t *testing.T) {
	tests := []struct {
		failed map[dataset.Status]int
		want   string
	}{
		{map[dataset.Status]int{}, "2 done, 0 failed, 0 missing"},
		{map[dataset.Status]int{dataset.Failed: 2}, "0 done, 2 failed, 0 missing"},
		{map[dataset.Status]int{dataset.Timeout: 2}, "0 done, 2 failed (2 timeout), 0 missing"},
		{map[dataset.Status]int{dataset.Failed: 1, dataset.Panic: 1}, "0 done, 2 failed (1 failed, 1 panic), 0 missing"},
	}
	for _, tt := range tests {
		r := &sweep.Report{Spec: "s", Dir: "out/s", Total: 2, OK: 2, Failed: tt.failed}
		for _, n := range tt.failed {
			r.OK -= n
		}
		var out strings.Builder
		if err := writeReport(&out, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "s: 2 scenarios: "+tt.want+":") {
			t.Errorf("statuses %v: status printed\n%s\nwant %q", tt.failed, out.String(), tt.want)
		}
	}
}

// TestSupersededRows: status says when superseded rows of a cut-short
// retry are still on disk, which readers other than crosslink's read, and
// what removes them; the JSON form counts them.
func TestSupersededRows(t *testing.T) {
	for _, n := range []int{0, 3} {
		r := &sweep.Report{Spec: "s", Dir: "out/s", Total: 2, OK: 2, Failed: map[dataset.Status]int{}, Repeated: n}
		var out strings.Builder
		if err := writeReport(&out, r); err != nil {
			t.Fatal(err)
		}
		line := "3 superseded rows of retried scenarios are still on disk"
		if got := strings.Contains(out.String(), line) && strings.Contains(out.String(), "for a killed one until the next crosslink run or merge"); got != (n > 0) {
			t.Errorf("%d superseded rows: status printed\n%s\nwant the line %q: %v", n, out.String(), line, n > 0)
		}
		if j := toJSON(r); j.Superseded != n {
			t.Errorf("%d superseded rows: JSON superseded_rows = %d", n, j.Superseded)
		}
	}
}

// TestRunningShards: a shard or a whole run being written now gets its
// writer named, not a rerun command that its lock would refuse.
func TestRunningShards(t *testing.T) {
	r := &sweep.Report{Spec: "s", Dir: "out/s", Total: 8, OK: 4, Missing: 4, Failed: map[dataset.Status]int{}, Shards: 2,
		Incomplete: []sweep.ShardReport{
			{Shard: sweep.Shard{I: 0, N: 2}, Missing: 2},
			{Shard: sweep.Shard{I: 1, N: 2}, Missing: 2, Writer: "pid 7 on n1, shard 1/2, since 2025-01-02T03:04:05Z"},
		}}
	var out strings.Builder
	if err := writeReport(&out, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"shard 0/2 incomplete: 2 missing, 0 failed (rerun: crosslink run SPEC --shard 0/2)",
		"shard 1/2 running: 2 missing, 0 failed so far (pid 7 on n1, shard 1/2, since 2025-01-02T03:04:05Z)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("status printed\n%s\nwant the line %q", out.String(), want)
		}
	}
	if strings.Contains(out.String(), "--shard 1/2") {
		t.Errorf("status advises rerunning the running shard:\n%s", out.String())
	}
	// A merge (or an unsharded run) holding the whole dataset refuses
	// every shard's rerun.
	r.Writer = "pid 3 on n0, a merge, since 2025-01-02T03:04:05Z"
	out.Reset()
	if err := writeReport(&out, r); err != nil {
		t.Fatal(err)
	}
	if want := "  being written now (pid 3 on n0, a merge"; !strings.Contains(out.String(), want) || strings.Contains(out.String(), "rerun:") {
		t.Errorf("status of a sharded dataset under a merge printed\n%s\nwant %q and no rerun", out.String(), want)
	}
	whole := &sweep.Report{Spec: "s", Dir: "out/s", Total: 8, OK: 4, Missing: 4, Failed: map[dataset.Status]int{}, Writer: "pid 9 on n2, the whole run, since 2025-01-02T03:04:05Z"}
	out.Reset()
	if err := writeReport(&out, whole); err != nil {
		t.Fatal(err)
	}
	if want := "  being written now (pid 9 on n2"; !strings.Contains(out.String(), want) || strings.Contains(out.String(), "rerun:") {
		t.Errorf("status of a running whole run printed\n%s\nwant %q and no rerun", out.String(), want)
	}
}

// TestRerunHint checks the command status gives to rerun an incomplete
// shard: it keeps the dataset's profile and output root, so that the
// rerun adds to this dataset rather than another profile's or out/'s.
func TestRerunHint(t *testing.T) {
	tests := []struct{ profile, dir, want string }{
		{"", "out/s", "(rerun: crosslink run SPEC --shard 1/4)"},
		{"quick", "out/s", "(rerun: crosslink run SPEC -p quick --shard 1/4)"},
		{"full", "/data/sweeps/s", "(rerun: crosslink run SPEC -p full -o /data/sweeps --shard 1/4)"},
		{"", "my runs/s", "(rerun: crosslink run SPEC -o 'my runs' --shard 1/4)"},
	}
	// status . from inside the dataset: the root is the parent of the
	// working directory, not ".".
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests = append(tests, struct{ profile, dir, want string }{"", ".", "(rerun: crosslink run SPEC -o " + slurm.Quote(filepath.Dir(wd)) + " --shard 1/4)"})
	for _, tt := range tests {
		r := &sweep.Report{Spec: "s", Profile: tt.profile, Dir: tt.dir, Total: 8, OK: 6, Missing: 2, Failed: map[dataset.Status]int{},
			Shards: 4, Incomplete: []sweep.ShardReport{{Shard: sweep.Shard{I: 1, N: 4}, Missing: 2}}}
		var out strings.Builder
		if err := writeReport(&out, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "shard 1/4 incomplete: 2 missing, 0 failed "+tt.want) {
			t.Errorf("profile %q, dir %q: status printed\n%s\nwant the line to end %q", tt.profile, tt.dir, out.String(), tt.want)
		}
	}
}

// TestPointsStateLines: a dataset with adaptive replicates whose points
// table lacks a shard's part, or has none, or still holds an earlier
// split, is incomplete, and status says which run writes what is missing.
func TestPointsStateLines(t *testing.T) {
	tests := []struct {
		p    dataset.PointsSplit
		want []string
	}{
		{dataset.PointsSplit{N: 3}, []string{"incomplete", "points table: shard 0/3 has not written its part (rerun: crosslink run SPEC -p quick --shard 0/3)"}},
		{dataset.PointsSplit{N: 3, Missing: []int{2}, Others: 1}, []string{"incomplete",
			"points table: shard 2/3 has not written its part (rerun: crosslink run SPEC -p quick --shard 2/3)",
			"points table: 1 part of an earlier split remains, listing some points twice, until every shard of the latest split (3) has written its part\n"}},
		{dataset.PointsSplit{N: 2, Others: 3}, []string{"incomplete", "3 parts of an earlier split remain, listing points twice (rerun: crosslink run SPEC -p quick --shard 0/2, which writes its part again and removes them)"}},
		{dataset.PointsSplit{}, []string{"incomplete", "points table not written yet: an adaptive run writes it when its last round ends (rerun: crosslink run SPEC -p quick)"}},
		{dataset.PointsSplit{N: 1}, []string{": complete;"}},
		{dataset.PointsSplit{N: 1, Missing: []int{0}, Others: 1}, []string{"incomplete", "points table: no whole run at profile quick has written its part (rerun: crosslink run SPEC -p quick)\n",
			"points table: 1 part of an earlier split remains, listing some points twice, until the whole run's part is written\n"}},
		{dataset.PointsSplit{N: 1, Others: 4}, []string{"incomplete", "4 parts of an earlier split remain, listing points twice (rerun: crosslink run SPEC -p quick, which writes its part again and removes them)\n"}},
	}
	tests[0].p.Missing = []int{0}
	for _, tt := range tests {
		p := tt.p
		r := &sweep.Report{Spec: "s", Profile: "quick", Dir: "out/s", Total: 8, OK: 8, Failed: map[dataset.Status]int{}, Points: &p}
		var out strings.Builder
		if err := writeReport(&out, r); err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%+v: status printed\n%s\nwant %q", p, out.String(), w)
			}
		}
		if p.Complete() == strings.Contains(out.String(), "points table") {
			t.Errorf("%+v: status printed\n%s\nwant a points line exactly when the table is not complete", p, out.String())
		}
	}
}
