package sweep

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TestUpgradeSetsOldPartsAside runs a sweep, then the same sweep with the
// model at a new version with another column, as after an upgrade of
// crosslink: the old parts (and their second-table parts) must move to
// _stale/<model>-v1/, every scenario must run again under its new id, and
// the dataset must read back as one table of the new version.
func TestUpgradeSetsOldPartsAside(t *testing.T) {
	dir := t.TempDir()
	v1 := newInverseSquare(0)
	if _, err := Resume(context.Background(), Config{Model: v1, Source: scenarios(v1, 30, nil), Dir: dir, Meta: testMeta(), PartRows: 10}, nil); err != nil {
		t.Fatal(err)
	}
	old, err := dataset.Parts(dir)
	if err != nil || len(old) != 3 {
		t.Fatalf("first run: parts %v, %v; want 3", old, err)
	}

	v2 := newInverseSquare(0)
	v2.schema.Version = 2
	v2.schema.Metrics = append(v2.schema.Metrics, vocab.Metric{Name: "margin", Kind: vocab.Float, Unit: vocab.Decibel})
	v2m := marginModel{v2}
	var warn bytes.Buffer
	sum, err := Resume(context.Background(), Config{Model: v2m, Source: scenarios(v2m, 30, nil), Dir: dir, Meta: testMeta(), PartRows: 10}, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if sum.OK != 30 || sum.Skipped != 0 {
		t.Errorf("after the upgrade: %d ok, %d skipped; want 30 ok, 0 skipped", sum.OK, sum.Skipped)
	}
	if got := strings.Count(warn.String(), "written by inverse-square version 1; the model is now inverse-square version 2"); got != 6 {
		t.Errorf("warnings name %d moved parts, want 6 (3 main + 3 samples):\n%s", got, warn.String())
	}
	staleDir := filepath.Join(dir, dataset.StaleDir, "inverse-square-v1")
	for _, p := range old {
		name := filepath.Base(p)
		for _, moved := range []string{filepath.Join(staleDir, dataset.MainTable, name), filepath.Join(staleDir, "samples", name)} {
			if _, err := os.Stat(moved); err != nil {
				t.Errorf("old part not set aside: %v", err)
			}
		}
	}
	tbl := rows(t, dir, true)
	if len(tbl) != 30 {
		t.Errorf("dataset after the upgrade has %d rows, want 30 of version 2 only", len(tbl))
	}
	if got := len(rows(t, dataset.TableDir(dir, "samples"), false)); got != 90 {
		t.Errorf("samples after the upgrade: %d rows, want 90", got)
	}

	// The same version again: nothing moves, nothing runs.
	warn.Reset()
	sum, err = Resume(context.Background(), Config{Model: v2m, Source: scenarios(v2m, 30, nil), Dir: dir, Meta: testMeta(), PartRows: 10}, &warn)
	if err != nil || sum.Skipped != 30 || warn.Len() != 0 {
		t.Errorf("rerun at the same version: %+v, %v, warnings %q; want 30 skipped and no warning", sum, err, warn.String())
	}

	// The older crosslink again (a cluster node built from older
	// sources): it refuses, naming both versions, and moves and runs
	// nothing, so the newer rows stay in the table.
	warn.Reset()
	before, _ := dataset.Parts(dir)
	_, err = Resume(context.Background(), Config{Model: v1, Source: scenarios(v1, 30, nil), Dir: dir, Meta: testMeta(), PartRows: 10}, &warn)
	if !errors.Is(err, dataset.ErrNewerVersion) || !strings.Contains(err.Error(), "inverse-square version 2, and this crosslink has version 1") {
		t.Errorf("older version over newer parts: error %v, want ErrNewerVersion naming versions 2 and 1", err)
	}
	after, _ := dataset.Parts(dir)
	if len(after) != len(before) || warn.Len() != 0 {
		t.Errorf("older version over newer parts: parts %d -> %d, warnings %q; want none moved", len(before), len(after), warn.String())
	}
	if got := len(rows(t, dir, true)); got != 30 {
		t.Errorf("dataset after the refusal has %d rows, want the 30 of version 2", got)
	}
}

// marginModel is inverseSquare version 2: its rows carry one more metric.
type marginModel struct{ *inverseSquare }

func (m marginModel) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	res, err := m.inverseSquare.Run(ctx, p, seed)
	if err != nil {
		return res, err
	}
	res.Metrics = append(res.Metrics, vocab.F(3))
	return res, nil
}

// TestStrayFileSetAside: a file a user left in the main table's directory
// is moved to _corrupt/ with a warning that says it is no part and held
// no row, not that its scenarios run again, and nothing reruns.
func TestStrayFileSetAside(t *testing.T) {
	dir := t.TempDir()
	m := newInverseSquare(0)
	cfg := Config{Model: m, Source: scenarios(m, 4, nil), Dir: dir, Meta: testMeta()}
	if _, err := Resume(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dataset.TableDir(dir, dataset.MainTable), "notes.txt")
	if err := os.WriteFile(notes, []byte("to do\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	sum, err := Resume(context.Background(), cfg, &warn)
	if err != nil || sum.Skipped != 4 || sum.OK != 0 {
		t.Fatalf("rerun beside a stray file: %+v, %v; want 4 skipped", sum, err)
	}
	if w := warn.String(); !strings.Contains(w, notes+" is not a part file of this dataset; moved to") || !strings.Contains(w, "the dataset never held rows of it") || strings.Contains(w, "run again") {
		t.Errorf("warning %q: want the stray named as no part, with no rerun", w)
	}
}
