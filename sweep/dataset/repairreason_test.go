package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// TestRepairSaysWhyTablePartFailed: a damaged part takes the other parts
// of its group (its main part, or its second-table parts) to _corrupt/;
// the warning for each must say what is wrong with the damaged one, and
// name it for the healthy ones (With) rather than call them unreadable.
func TestRepairSaysWhyTablePartFailed(t *testing.T) {
	for _, table := range []string{"flows", MainTable} {
		dir := t.TempDir()
		writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
		damaged := damagePart(t, dir, table)
		_, moved, err := Repair(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(moved) != 2 {
			t.Fatalf("damaged %s: Repair moved %+v, want the flows part and its main part", table, moved)
		}
		for _, m := range moved {
			if !strings.Contains(m.Reason, "differs from the manifest") {
				t.Errorf("damaged %s: reason for %s = %q, want the manifest mismatch", table, m.Path, m.Reason)
			}
			if want := damaged; m.Path == damaged {
				if m.With != "" {
					t.Errorf("damaged %s: the damaged part has With %q, want none", table, m.With)
				}
			} else if m.With != want {
				t.Errorf("damaged %s: %s went aside with %q, want %q", table, m.Path, m.With, want)
			}
		}
	}
}

// TestRepairInterruptedKeepsDamagedTablePart: a damaged flows part takes
// its healthy main part to _corrupt/. When Repair stops between the two
// moves (here the main part's destination cannot be made; a kill does the
// same), the next Repair must still rerun the main part's scenarios:
// counting them done would leave them without their flows rows for good.
func TestRepairInterruptedKeepsDamagedTablePart(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, testRows(12), Options{MaxRows: 5, Meta: testMeta()})
	damageFlowsPart(t, dir)
	// A file where _corrupt/scenarios/ would go.
	blocker := filepath.Join(dir, CorruptDir, MainTable)
	if err := os.MkdirAll(filepath.Dir(blocker), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Repair(dir); err == nil {
		t.Fatal("Repair succeeded with _corrupt/scenarios a file")
	}
	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	done, _, err := Repair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if done.Len() != 7 {
		t.Errorf("Repair found %d scenarios done, want 7 (parts 1 and 3; part 2's flows rows are damaged)", done.Len())
	}
}

// damageFlowsPart flips one byte in the middle of the flows table's second
// part, so that its hash no longer matches the manifest.
func damageFlowsPart(t *testing.T, dir string) { damagePart(t, dir, "flows") }

// damagePart flips one byte in the middle of the table's second part, so
// that its hash no longer matches the manifest, and returns its path.
func damagePart(t *testing.T, dir, table string) string {
	t.Helper()
	p := filepath.Join(TableDir(dir, table), "part-0of1-000002.parquet")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRepairNamesEachDamagedTablePart: when two second-table parts of one
// group are both damaged, each is reported with its own reason; only the
// healthy main part is said to go with a damaged one.
func TestRepairNamesEachDamagedTablePart(t *testing.T) {
	s := testSchema()
	s.Tables = append(s.Tables, vocab.Table{Name: "links", Columns: s.Tables[0].Columns})
	rows := testRows(12)
	for i := range rows {
		if rows[i].Tables != nil {
			rows[i].Tables = append(rows[i].Tables, rows[i].Tables[0])
		}
	}
	dir := t.TempDir()
	writeRowsOf(t, dir, s, rows, Options{MaxRows: 5, Meta: testMeta()})
	flows, links := damagePart(t, dir, "flows"), damagePart(t, dir, "links")
	// Each reason names the damaged file's own hash.
	reason := map[string]string{}
	for _, p := range []string{flows, links} {
		rel, _ := filepath.Rel(dir, p)
		reason[p] = checkPart(dir, rel).Error()
	}
	if reason[flows] == reason[links] {
		t.Fatalf("both parts give the reason %q: the test cannot tell them apart", reason[flows])
	}
	_, moved, err := Repair(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 3 {
		t.Fatalf("Repair moved %+v, want the two damaged parts and their main part", moved)
	}
	for _, m := range moved {
		switch m.Path {
		case flows, links:
			if m.With != "" || m.Reason != reason[m.Path] {
				t.Errorf("damaged %s: With %q, reason %q; want no With and %q", m.Path, m.With, m.Reason, reason[m.Path])
			}
		default:
			if m.With != flows || m.Reason != reason[flows] {
				t.Errorf("healthy %s: With %q, reason %q; want %q and its reason", m.Path, m.With, m.Reason, flows)
			}
		}
	}
}
