package models

import (
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// sqlKeywords are the words DuckDB refuses as an unquoted column name:
// its keyword categories "reserved" and "type_function" (SELECT
// keyword_name FROM duckdb_keywords(), DuckDB 2.0.1). Its parser derives
// from PostgreSQL's, whose reserved words these include, so a column
// outside this list is written bare in DuckDB, PostgreSQL and polars' SQL
// alike.
var sqlKeywords = strings.Fields(`
all analyse analyze and any array as asc asymmetric both case cast check
collate column constraint create default deferrable desc describe distinct
do else end except false fetch for foreign from group having in initially
intersect into lambda lateral leading limit not null offset on only or order
pivot pivot_longer pivot_wider placing primary qualify references returning
select show some summarize symmetric table then to trailing true union unique
unpivot using variadic when where window with
anti asof at authorization binary by collation columns concurrently cross
freeze full generated glob ilike inner is isnull join left like map natural
notnull outer overlaps positional right semi similar struct tablesample
try_cast tuple unpack verbose`)

// TestColumnsNeedNoQuoting: no column of any model's tables, nor the
// columns the sweep adds, is an SQL keyword, so that a data scientist
// writes SELECT cross_traffic, ... without quotes (a column named cross
// must be written "cross" in every query).
func TestColumnsNeedNoQuoting(t *testing.T) {
	bad := map[string]bool{}
	for _, k := range sqlKeywords {
		bad[k] = true
	}
	check := func(model, table, col string) {
		if bad[strings.ToLower(col)] {
			t.Errorf("%s: table %q: column %q is an SQL keyword; name it so that it needs no quoting", model, table, col)
		}
	}
	for _, c := range vocab.ReservedColumns() {
		check("sweep", "", c)
	}
	for _, m := range All() {
		s := m.Schema()
		for _, p := range s.Params {
			check(s.Name, "", p.Column())
		}
		for _, x := range s.Metrics {
			check(s.Name, "", x.Column())
		}
		for _, tb := range s.Tables {
			for _, c := range tb.Columns {
				check(s.Name, tb.Name, c.Column())
			}
		}
	}
}

// TestFracColumnsAreFractions: every column whose name ends in _frac, in
// every table of every model, carries the unit fraction in its metadata,
// so that a reader who goes by the unit (a plot that shows fractions in
// percent, a notebook that reads the Arrow field metadata) treats it as
// the name says.
func TestFracColumnsAreFractions(t *testing.T) {
	check := func(model, table string, cols []vocab.Metric) {
		for _, c := range cols {
			if strings.HasSuffix(c.Column(), "_frac") && c.Unit != vocab.Fraction {
				t.Errorf("%s: %s: column %s has unit %q, want %q", model, table, c.Column(), c.Unit, vocab.Fraction)
			}
		}
	}
	for _, m := range All() {
		s := m.Schema()
		for _, p := range s.Params {
			if strings.HasSuffix(p.Column(), "_frac") && p.Unit != vocab.Fraction {
				t.Errorf("%s: parameter %s has unit %q, want %q", s.Name, p.Column(), p.Unit, vocab.Fraction)
			}
		}
		check(s.Name, "main table", s.Metrics)
		for _, tb := range s.Tables {
			check(s.Name, tb.Name, tb.Columns)
		}
	}
}
