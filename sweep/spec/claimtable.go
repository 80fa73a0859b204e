package spec

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// A claims table is a CSV file of claims, one a row, that a plot's claims
// list names as {table: file.csv, source: text}, the file relative to the
// spec's. It keeps hundreds of claims read off a document's images
// readable: the YAML says where they come from, the table holds them.
// Columns:
//
//	plot             the plot id the row is a claim of (rows of other plots are skipped)
//	where.<column>   a column = value condition of the claim's row selection
//	y                the compared column
//	op               approx (default), ge or le
//	document         the document's value
//	tol_abs, tol_rel the tolerance (see Claim.Abs, Claim.Rel); approx needs one
//	relative_plot    the figure whose data holds the reference of a relative claim
//	relative         ratio (default) or difference, with relative_plot
//	claim, source    the statement and its source (default: generated, the entry's source)
//	read.<anything>  how the value was read (image, pixels, method): named in the claim's text
//
// Any other column is an error, so that a misspelt tolerance is not
// silently dropped.
var tableCols = []string{"plot", "y", "op", "document", "tol_abs", "tol_rel", "relative_plot", "relative", "claim", "source"}

// isTable reports whether a claims list item is a table entry.
func (p *parser) isTable(n ast.Node) bool {
	m, ok := p.unwrap(n).(*ast.MappingNode)
	var pairs []*ast.MappingValueNode
	if ok {
		pairs = m.Values
	} else if mv, ok := p.unwrap(n).(*ast.MappingValueNode); ok {
		pairs = []*ast.MappingValueNode{mv}
	}
	for _, kv := range pairs {
		if kv.Key != nil && kv.Key.GetToken() != nil && kv.Key.GetToken().Value == "table" {
			return true
		}
	}
	return false
}

// claimsTable reads the claims of plotID from the table an item names,
// relative to the spec's file. A spec with no file on disk (the text a
// dataset recorded, or standard input) reads no table: it is parsed to run
// or describe the sweep, which claims do not change; crosslink report
// reads the specs' files.
func (p *parser) claimsTable(n ast.Node, what, plotID string, number int) []Claim {
	var table, source string
	var at Position
	for _, e := range p.entries(n, what, "key", []string{"table", "source"}) {
		switch e.key {
		case "table":
			table, at = p.text(e), p.pos(e.value)
		case "source":
			source = p.text(e)
		}
	}
	switch {
	case table == "":
		p.errorf(p.pos(n), "%s: table needs the claims table's file, relative to the spec", what)
		return nil
	case strings.TrimSpace(source) == "":
		p.errorf(p.pos(n), "%s: a claims table needs source (where the document shows the values)", what)
		return nil
	}
	if st, err := os.Stat(p.file); p.file == StdinName || err != nil || !st.Mode().IsRegular() {
		return nil
	}
	path := filepath.Join(filepath.Dir(p.file), table)
	data, err := readTable(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			p.errorf(at, "%s: claims table %s does not exist (the path is relative to the spec's directory)", what, path)
		} else {
			p.errorf(at, "%s: claims table %s: %v", what, path, err)
		}
		return nil
	}
	claims, errs := ReadClaimsTable(path, data, plotID, source)
	p.errs = append(p.errs, errs...)
	for i := range claims {
		claims[i].Number = number
	}
	if len(errs) == 0 && len(claims) == 0 {
		p.errorf(at, "%s: claims table %s has no row whose plot is %q", what, path, plotID)
	}
	return claims
}

// MaxTableBytes is the largest claims table. Document 002's eight charts,
// every bar read, take 130 KB; a table names its file, so a path to a
// device or a huge file must not hang or exhaust a parse.
const MaxTableBytes = 8 << 20

// readTable reads a claims table: a regular file of at most MaxTableBytes.
func readTable(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("is %s; a claims table must be a regular file", fileKind(st.Mode()))
	}
	if st.Size() > MaxTableBytes {
		return nil, fmt.Errorf("is %d bytes, more than the %d a claims table may have", st.Size(), MaxTableBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxTableBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxTableBytes {
		return nil, fmt.Errorf("grew past the %d bytes a claims table may have", MaxTableBytes)
	}
	return data, nil
}

// ReadClaimsTable parses a claims table (see tableCols) and returns the
// claims of the rows whose plot is plotID, with source as the source of
// rows that give none. Every error names file:line:col of its cell.
func ReadClaimsTable(file string, data []byte, plotID, source string) ([]Claim, ErrorList) {
	r := csv.NewReader(bytes.NewReader(data))
	var errs ErrorList
	errorf := func(line, col int, format string, args ...any) {
		errs = append(errs, &Error{Pos: Position{File: file, Line: line, Column: col}, Msg: fmt.Sprintf(format, args...)})
	}
	header, err := r.Read()
	if err != nil {
		if err == io.EOF {
			errorf(1, 1, "claims table is empty: it needs a header row")
		} else {
			errorf(1, 1, "claims table: %v", err)
		}
		return nil, errs
	}
	col := map[string]int{}
	headPos := make([]Position, len(header)) // where a where.<column> heading is fixed
	for i, h := range header {
		line, c := r.FieldPos(i)
		headPos[i] = Position{File: file, Line: line, Column: c}
		h = strings.TrimSpace(h)
		switch {
		case strings.HasPrefix(h, "where.") && len(h) > len("where."), strings.HasPrefix(h, "read.") && len(h) > len("read."):
		case contains(tableCols, h):
		default:
			errorf(line, c, "claims table: unknown column %q: columns are %s, where.<column> and read.<note>%s", h, strings.Join(tableCols, ", "), suggestOnly(h, tableCols))
			continue
		}
		if _, dup := col[h]; dup {
			errorf(line, c, "claims table: duplicate column %q", h)
		}
		col[h] = i
	}
	for _, req := range []string{"plot", "y", "document"} {
		if _, ok := col[req]; !ok {
			errorf(1, 1, "claims table: needs a column %q", req)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	var out []Claim
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				errorf(pe.Line, pe.Column, "claims table: %v", pe.Err)
			} else {
				errorf(1, 1, "claims table: %v", err)
			}
			return nil, errs
		}
		if strings.TrimSpace(rec[col["plot"]]) != plotID {
			continue
		}
		line, first := r.FieldPos(0)
		cell := func(name string) (string, int) {
			i, ok := col[name]
			if !ok {
				return "", 0
			}
			_, c := r.FieldPos(i)
			return strings.TrimSpace(rec[i]), c
		}
		c := Claim{Source: source, Op: "approx", Agg: "mean", Pos: Position{File: file, Line: line, Column: first}}
		y, yAt := cell("y")
		c.Y, c.YPos = y, Position{File: file, Line: line, Column: yAt}
		if c.Y == "" {
			errorf(line, yAt, "claims table: y is empty")
		}
		if op, at := cell("op"); op != "" {
			if op != "approx" && op != "ge" && op != "le" {
				errorf(line, at, "claims table: op %q is not one of approx, ge, le (a table has no bounds for between)%s", op, suggestOnly(op, claimOps))
			}
			c.Op = op
		}
		num := func(name string, required bool) (float64, bool) {
			v, at := cell(name)
			if v == "" {
				if required {
					errorf(line, at, "claims table: %s is empty", name)
				}
				return 0, false
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				errorf(line, at, "claims table: %s must be a plain number, not %q", name, v)
				return 0, false
			}
			if x < 0 && name != "document" {
				errorf(line, at, "claims table: %s %g must not be negative", name, x)
				return 0, false
			}
			return x, true
		}
		if x, ok := num("document", true); ok {
			c.Document = &x
		}
		hasAbs, hasRel := false, false
		c.Abs, hasAbs = num("tol_abs", false)
		c.Rel, hasRel = num("tol_rel", false)
		if c.Op == "approx" && !hasAbs && !hasRel {
			errorf(line, first, "claims table: op approx needs tol_abs or tol_rel, chosen before looking at ours")
		}
		var reads []string
		for i, h := range header {
			h = strings.TrimSpace(h)
			v := strings.TrimSpace(rec[i])
			switch {
			case strings.HasPrefix(h, "where."):
				_, at := r.FieldPos(i)
				if lo, hi, isRange, err := MatchRange(v); isRange && err != nil {
					errorf(line, at, "claims table: %s: %v", h, err)
				} else if isRange && lo > hi {
					errorf(line, at, "claims table: %s: range %s: lo must not exceed hi", h, v)
				}
				if v != "" {
					c.Where = append(c.Where, ClaimMatch{Column: strings.TrimPrefix(h, "where."), Value: v, Pos: headPos[i]})
				}
			case strings.HasPrefix(h, "read.") && v != "":
				reads = append(reads, strings.TrimPrefix(h, "read.")+" "+v)
			}
		}
		if s, _ := cell("source"); s != "" {
			c.Source = s
		}
		c.RelativePlot, _ = cell("relative_plot")
		if rel, at := cell("relative"); rel != "" {
			if !contains(claimRels, rel) {
				errorf(line, at, "claims table: relative %q is not one of %s%s", rel, strings.Join(claimRels, ", "), suggestOnly(rel, claimRels))
			} else if c.RelativePlot == "" {
				errorf(line, at, "claims table: relative applies to a row with relative_plot")
			}
			c.Relative = rel
		}
		c.Claim, _ = cell("claim")
		if c.Claim == "" && c.Document != nil {
			c.Claim = tableClaimText(c, reads)
		}
		out = append(out, c)
	}
	return out, errs
}

// tableClaimText is the generated statement of a table row: "goodput_mbps
// where queue_bdp_pct=100, algorithm=BBR is about 8.2 (image ..., how ...)".
func tableClaimText(c Claim, reads []string) string {
	where := make([]string, len(c.Where))
	for i, m := range c.Where {
		where[i] = m.Column + "=" + m.Value
	}
	verb := map[string]string{"approx": "is about", "ge": "is at least", "le": "is at most"}[c.Op]
	s := c.Y
	if len(where) > 0 {
		s += " where " + strings.Join(where, ", ")
	}
	if c.RelativePlot != "" {
		if c.Relative == "difference" {
			s += " minus that of " + c.RelativePlot
		} else {
			s += " over that of " + c.RelativePlot
		}
	}
	s += " " + verb + " " + strconv.FormatFloat(*c.Document, 'g', -1, 64)
	if len(reads) > 0 {
		s += " (" + strings.Join(reads, "; ") + ")"
	}
	return s
}
