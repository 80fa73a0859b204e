package datadoc

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/sweep/dataset"
)

// TestTablePaths: the reference names each second table of every model by
// the directory sweep/dataset writes it to (out/<spec>/flows/ since the
// layout of one directory per table), not the earlier out/<spec>/_flows/,
// which only its note on older datasets may name.
func TestTablePaths(t *testing.T) {
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, reg); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	n := 0
	for _, name := range reg.Names() {
		m, _ := reg.Lookup(name)
		for _, table := range m.Schema().Tables {
			n++
			dir := filepath.ToSlash(dataset.TableDir(filepath.Join("out", "<spec>"), table.Name))
			if want := "Second table `" + table.Name + "` (`" + dir + "/`)"; !strings.Contains(doc, want) {
				t.Errorf("%s: the reference has no %q", name, want)
			}
			if old := "/_" + table.Name + "/"; strings.Contains(doc, old) {
				t.Errorf("%s: the reference names the former directory %s of table %s", name, old, table.Name)
			}
		}
	}
	if n == 0 {
		t.Fatal("no model has a second table: the test checks nothing")
	}
}
