package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/sweep/slurm"
)

// The text and --json forms of status: where each dataset stands
// (sweep.Check), for a reader and for scripts.

// writeReport prints the report on out and returns the error of writing it.
func writeReport(out io.Writer, r *sweep.Report) error {
	var w strings.Builder
	profile := ""
	if r.Profile != "" {
		profile = " (profile " + r.Profile + ")"
	}
	failed := 0
	for _, n := range r.Failed {
		failed += n
	}
	state := "complete"
	if r.Refused != "" {
		state = "refused"
	} else if len(r.Damaged) > 0 {
		state = "damaged"
	} else if !r.Complete() {
		state = "incomplete"
	}
	fmt.Fprintf(&w, "%s%s: %d scenarios: %d done, %d failed%s, %d missing: %s; dataset %s\n",
		r.Spec, profile, r.Total, r.OK, failed, sweep.FailedKinds(r.Failed), r.Missing, state, r.Dir)
	if r.Refused != "" {
		fmt.Fprintf(&w, "  crosslink run refuses it: %s\n", r.Refused)
	}
	if r.Extra > 0 {
		fmt.Fprintf(&w, "  %d rows belong to no scenario of this profile%s\n", r.Extra, otherProfiles(r))
	}
	if r.Repeated > 0 {
		fmt.Fprintf(&w, "  %d superseded rows of retried scenarios are still on disk (a --retry-failed run still running, or killed): pandas, polars and DuckDB read them beside the rows that replace them until the retry ends, or for a killed one until the next crosslink run or merge\n", r.Repeated)
	}
	for _, c := range r.Corrupt {
		fmt.Fprintf(&w, "  set aside (unreadable, a copy, or not a part): %s\n", c)
	}
	for _, d := range r.Damaged {
		fmt.Fprintf(&w, "  damaged: %s: %s (crosslink run sets it aside and reruns the scenarios no other part holds)\n", d.Path, d.Reason)
	}
	for _, l := range r.Leftovers {
		fmt.Fprintf(&w, "  left by a killed run or merge: %s (no table lists it; the next crosslink run or merge removes it)\n", l)
	}
	if p := r.Points; p != nil && !p.Complete() {
		writePointsState(&w, r, *p)
	}
	reran := r.Points != nil && !r.Points.Complete()
	// An unsharded run or a merge holding the whole dataset: the lock
	// it holds would refuse any rerun now.
	busy := r.Writer != ""
	if busy {
		fmt.Fprintf(&w, "  being written now (%s): no rerun until it ends\n", r.Writer)
	}
	if r.Shards > 1 {
		if len(r.Incomplete) == 0 {
			fmt.Fprintf(&w, "  all %d shards complete\n", r.Shards)
		}
		for _, s := range r.Incomplete {
			switch {
			case s.Writer != "":
				fmt.Fprintf(&w, "  shard %s running: %d missing, %d failed so far (%s)\n", s.Shard, s.Missing, s.Failed, s.Writer)
			case busy:
				fmt.Fprintf(&w, "  shard %s incomplete: %d missing, %d failed\n", s.Shard, s.Missing, s.Failed)
			default:
				fmt.Fprintf(&w, "  shard %s incomplete: %d missing, %d failed (rerun: %s --shard %s%s)\n", s.Shard, s.Missing, s.Failed, rerunCommand(r), s.Shard, retryFlag(s.Failed))
				reran = true
			}
		}
	} else if r.Refused == "" && r.Missing+failed > 0 && !busy {
		fmt.Fprintf(&w, "  rerun: %s%s\n", rerunCommand(r), retryFlag(failed))
		reran = true
	}
	if reran && r.Failed[dataset.Timeout] > 0 {
		fmt.Fprintf(&w, "  (the timeout rows ran under --timeout or --max-events: give the rerun the limit it needs, or none)\n")
	}
	if reran && r.SpecFile == "" {
		fmt.Fprintf(&w, "  (SPEC: the spec file of %s; the dataset records its text, not its path)\n", r.Spec)
	}
	_, err := io.WriteString(out, w.String())
	return err
}

// otherProfiles names the other profiles a dataset's parts were written
// at, and the status command of each, for the line on rows of no
// scenario of the report's profile.
func otherProfiles(r *sweep.Report) string {
	var cmds []string
	for _, p := range r.OtherProfiles {
		name := "the base spec"
		flag := " -p ''"
		if p != "" {
			name, flag = "profile "+p, " -p "+slurm.Quote(p)
		}
		cmds = append(cmds, fmt.Sprintf("%s: crosslink status %s%s", name, slurm.Quote(r.Dir), flag))
	}
	if len(cmds) == 0 {
		return ""
	}
	return "; parts of other profiles are here too (" + strings.Join(cmds, "; ") + ")"
}

// retryFlag is the run flag that reruns failed rows, when there are any:
// without it a run skips every scenario that has a row.
func retryFlag(failed int) string {
	if failed > 0 {
		return " --retry-failed"
	}
	return ""
}

// writePointsState says what the points table of an adaptive dataset
// lacks, and which run writes it.
func writePointsState(w *strings.Builder, r *sweep.Report, p dataset.PointsSplit) {
	if p.N == 0 {
		fmt.Fprintf(w, "  points table not written yet: an adaptive run writes it when its last round ends (rerun: %s)\n", rerunCommand(r))
		return
	}
	for _, i := range p.Missing {
		if p.N == 1 {
			fmt.Fprintf(w, "  points table: no whole run %s has written its part (rerun: %s)\n", atProfile(r), rerunCommand(r))
			continue
		}
		fmt.Fprintf(w, "  points table: shard %d/%d has not written its part (rerun: %s --shard %d/%d)\n", i, p.N, rerunCommand(r), i, p.N)
	}
	if p.Others > 0 {
		parts := fmt.Sprintf("%d parts of an earlier split remain", p.Others)
		if p.Others == 1 {
			parts = "1 part of an earlier split remains"
		}
		if len(p.Missing) > 0 {
			until := fmt.Sprintf("every shard of the latest split (%d) has written its part", p.N)
			if p.N == 1 {
				until = "the whole run's part is written"
			}
			fmt.Fprintf(w, "  points table: %s, listing some points twice, until %s\n", parts, until)
			return
		}
		shard := fmt.Sprintf(" --shard 0/%d", p.N)
		if p.N == 1 {
			shard = "" // the latest run was whole
		}
		fmt.Fprintf(w, "  points table: %s, listing points twice (rerun: %s%s, which writes its part again and removes them)\n", parts, rerunCommand(r), shard)
	}
}

// atProfile names the report's profile for a sentence: "at profile P", or
// "at the base settings".
func atProfile(r *sweep.Report) string {
	if r.Profile == "" {
		return "at the base settings"
	}
	return "at profile " + r.Profile
}

// rerunCommand is the run command that reruns the report's dataset: with
// its profile, and its output root when that is not the default, so that
// the rerun adds to this dataset the scenarios it misses.
func rerunCommand(r *sweep.Report) string {
	cmd := "crosslink run SPEC"
	if r.SpecFile != "" {
		cmd = "crosslink run " + slurm.Quote(r.SpecFile)
	}
	if r.Profile != "" {
		cmd += " -p " + slurm.Quote(r.Profile)
	}
	dir := filepath.Clean(r.Dir)
	if base := filepath.Base(dir); base == "." || base == ".." {
		// status . from inside the dataset: its parent is not ".".
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	if root := filepath.Dir(dir); root != "out" {
		cmd += " -o " + slurm.Quote(root)
	}
	return cmd
}

// reportJSON is the JSON form of a Report.
type reportJSON struct {
	Spec       string         `json:"spec"`
	Profile    string         `json:"profile"`
	Dir        string         `json:"dir"`
	Total      int            `json:"total"`
	OK         int            `json:"ok"`
	Failed     map[string]int `json:"failed"`
	Missing    int            `json:"missing"`
	Extra      int            `json:"extra"`
	Superseded int            `json:"superseded_rows"`     // still on disk (sweep.Report.Repeated)
	Writer     string         `json:"writer,omitempty"`    // the unsharded run (or merge) writing it now
	SpecFile   string         `json:"spec_file,omitempty"` // the spec file status was given, which the rerun commands name
	// OtherProfiles lists the profiles other parts were written at, when
	// rows of no scenario of this profile are there ("" the base spec).
	OtherProfiles []string         `json:"other_profiles,omitempty"`
	Complete      bool             `json:"complete"`
	Corrupt       []string         `json:"set_aside"`
	Damaged       []dataset.Damage `json:"damaged"`
	Leftovers     []string         `json:"leftovers"`
	Shards        int              `json:"shards"`
	Incomplete    []shardJSON      `json:"incomplete_shards"`
	Points        *pointsJSON      `json:"points"` // null without adaptive replicates
	// Refused says why crosslink run refuses the dataset for the spec;
	// omitted when it does not.
	Refused string `json:"refused,omitempty"`
	// Note says why the other fields are empty or null: a dataset with
	// no part yet records no spec, so nothing was counted or checked.
	Note string `json:"note,omitempty"`
}

// pointsJSON is the JSON form of a dataset.PointsSplit.
type pointsJSON struct {
	Complete bool  `json:"complete"`
	Shards   int   `json:"shards"`
	Missing  []int `json:"missing_shards"`
	Others   int   `json:"other_split_parts"`
}

type shardJSON struct {
	Shard   string `json:"shard"`
	Missing int    `json:"missing"`
	Failed  int    `json:"failed"`
	Writer  string `json:"writer,omitempty"` // the run writing it now
}

// toJSON is the JSON form of r.
func toJSON(r *sweep.Report) reportJSON {
	j := reportJSON{Spec: r.Spec, Profile: r.Profile, Dir: r.Dir, Total: r.Total, OK: r.OK,
		Failed: map[string]int{}, Missing: r.Missing, Extra: r.Extra, Superseded: r.Repeated, Writer: r.Writer, SpecFile: r.SpecFile, OtherProfiles: r.OtherProfiles, Complete: r.Complete(),
		Corrupt: append([]string{}, r.Corrupt...), Damaged: append([]dataset.Damage{}, r.Damaged...),
		Leftovers: append([]string{}, r.Leftovers...),
		Shards:    r.Shards, Incomplete: []shardJSON{}, Refused: r.Refused}
	for st, n := range r.Failed {
		j.Failed[string(st)] = n
	}
	for _, s := range r.Incomplete {
		j.Incomplete = append(j.Incomplete, shardJSON{Shard: s.Shard.String(), Missing: s.Missing, Failed: s.Failed, Writer: s.Writer})
	}
	if p := r.Points; p != nil {
		j.Points = &pointsJSON{Complete: p.Complete(), Shards: p.N, Missing: append([]int{}, p.Missing...), Others: p.Others}
	}
	return j
}

// noPartJSON is the entry of a dataset whose run has written no part yet:
// incomplete, with nothing counted or checked, so the lists are null
// rather than empty.
func noPartJSON(dir, note string) reportJSON {
	return reportJSON{Dir: dir, Note: note}
}

// noPartNote says why a dataset with no part is incomplete and how to
// count what it misses; noDatasetNote the same of a dataset directory not
// created yet (an array still queued).
const (
	noPartNote    = "no part written yet, so incomplete (a run writes its rows every minute; name the spec file and profile, crosslink status SPEC -p PROFILE -o OUT, to count what is missing)"
	noDatasetNote = "no dataset yet, so incomplete (a run or array task creates it when it starts; name the spec file and profile, crosslink status SPEC -p PROFILE -o OUT, to count what is missing)"
)

// writeReportsJSON prints the entries as one JSON array.
func writeReportsJSON(out io.Writer, js []reportJSON) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(js)
}
