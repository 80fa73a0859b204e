package spec

import (
	"bytes"
	"regexp"
	"strings"
)

// grouped is a number written with thousands separators and the unit
// after it: "16,000km", "2,500.5 MHz", "1,000,000 pkt". The unit tells it
// from a flow list of plain numbers written without spaces, such as
// "[64,128,256]".
var grouped = regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?[ \t]*[A-Za-z%/]+`)

// thousands explains the errors of a number with thousands separators in
// a flow collection. YAML ends an item of [ ] or { } at each comma, so
// "[1,000km]" is the two items "1" and "000km", and "{from: 1,000km}" a
// "from: 1" and a key "000km": the errors name the pieces ("needs a
// unit", "0m is out of range", "unknown key"), not the number. The first
// error within such a number's text in file gets the hint, and the others
// within it are dropped as its consequences. The hint is conditional, for
// "[256,512B]" may be a list that lacks a unit. An error that already
// speaks of the comma (a block value, which units.Parse reads whole) is
// kept as it is, as are the errors of other files (claims tables, value
// files) and those outside such a number.
func thousands(file string, text []byte, errs ErrorList) ErrorList {
	lines := bytes.Split(text, []byte{'\n'})
	type span struct{ line, from int }
	seen := map[span]bool{}
	out := errs[:0]
	for _, e := range errs {
		if e.Pos.File != file || e.Pos.Line < 1 || e.Pos.Line > len(lines) {
			out = append(out, e)
			continue
		}
		line := []rune(string(lines[e.Pos.Line-1]))
		from, to := groupedAt(line, e.Pos.Column-1)
		if from < 0 {
			out = append(out, e)
			continue
		}
		s := span{e.Pos.Line, from}
		if seen[s] {
			continue
		}
		seen[s] = true
		if strings.Contains(e.Msg, "comma") {
			out = append(out, e)
			continue
		}
		number := strings.TrimRight(string(line[from:to]), " \t")
		out = append(out, &Error{Pos: e.Pos, Msg: e.Msg + "; if \"" + number + "\" is one number, write " +
			strings.ReplaceAll(number, ",", "") + " (YAML ends an item of [ ] or { } at each comma)"})
	}
	return out
}

// groupedAt returns the span [from, to) of line holding a number with
// thousands separators that covers index i, or -1, -1.
func groupedAt(line []rune, i int) (from, to int) {
	if i < 0 || i >= len(line) || !isDigitOrComma(line[i]) {
		return -1, -1
	}
	from = i
	for from > 0 && isDigitOrComma(line[from-1]) {
		from--
	}
	for from < i && line[from] == ',' {
		from++ // the comma that ends the item before: "[1,000km,2,000km]"
	}
	if from > 0 && (line[from-1] == '.' || isLetter(line[from-1])) {
		return -1, -1 // part of a word or of a decimal's fraction
	}
	m := grouped.FindString(string(line[from:]))
	if m == "" {
		return -1, -1
	}
	return from, from + len([]rune(m))
}

func isDigitOrComma(r rune) bool { return r == ',' || '0' <= r && r <= '9' }

func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_' }
