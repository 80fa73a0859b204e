package models

import (
	"strings"
	"testing"
)

// TestEveryColumnDocumented: every parameter and metric of every model,
// and every column and table of its second tables, carries a Doc, so
// that docs/datasets.md and "crosslink describe" say what each column of
// a dataset holds (a reader of a Parquet file has nothing else).
func TestEveryColumnDocumented(t *testing.T) {
	empty := func(doc string) bool { return strings.TrimSpace(doc) == "" }
	for _, m := range All() {
		s := m.Schema()
		if empty(s.Doc) {
			t.Errorf("%s: the model has no Doc", s.Name)
		}
		for _, p := range s.Params {
			if empty(p.Doc) {
				t.Errorf("%s: parameter %s has no Doc", s.Name, p.Column())
			}
		}
		for _, x := range s.Metrics {
			if empty(x.Doc) {
				t.Errorf("%s: main table: column %s has no Doc", s.Name, x.Column())
			}
		}
		for _, tb := range s.Tables {
			if empty(tb.Doc) {
				t.Errorf("%s: table %s has no Doc", s.Name, tb.Name)
			}
			for _, c := range tb.Columns {
				if empty(c.Doc) {
					t.Errorf("%s: table %s: column %s has no Doc", s.Name, tb.Name, c.Column())
				}
			}
		}
	}
}
