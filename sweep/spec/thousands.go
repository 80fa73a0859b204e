package spec

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
)

// grouped is a number written with thousands separators and the unit
// after it: "16,000km", "2,500.5 MHz", "1,000,000 pkt". The unit tells it
// from a flow list written without spaces, such as "[64,128,256]".
var grouped = regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?[ \t]*[A-Za-z%/]+`)

// thousands replaces the errors that a number with thousands separators
// ("16,000km") set off by one message that names it and its fix. A value
// in a flow collection ("[1,000km, 16,000km]" or "{from: 1,000km}") is
// split by YAML at each comma into a number without its unit and a
// "000km" of no size, a key of no value or a duplicate key; a block value
// is one unknown unit ",000km". Each error that falls within such a
// number's text is dropped but the first, which names the number; the
// other errors are kept as they are.
func thousands(text []byte, errs ErrorList) ErrorList {
	lines := bytes.Split(text, []byte{'\n'})
	type span struct{ line, from, to int }
	var seen []span
	out := errs[:0]
	for _, e := range errs {
		if e.Pos.Line < 1 || e.Pos.Line > len(lines) {
			out = append(out, e)
			continue
		}
		line := []rune(string(lines[e.Pos.Line-1]))
		from, to := groupedAt(line, e.Pos.Column-1)
		if from < 0 {
			out = append(out, e)
			continue
		}
		s := span{e.Pos.Line, from, to}
		if slices.Contains(seen, s) {
			continue
		}
		seen = append(seen, s)
		number := strings.TrimRight(string(line[from:to]), " \t")
		fixed := strings.ReplaceAll(number, ",", "")
		pos := e.Pos
		pos.Column = from + 1
		out = append(out, &Error{Pos: pos, Msg: "\"" + number + "\" has thousands separators, which a spec does not take; write " + fixed +
			" (YAML reads a comma inside [ ] or { } as the end of an item)"})
	}
	return out.sort()
}

// groupedAt returns the span [from, to) of line holding a number with
// thousands separators that covers column col (0-based), or -1, -1.
func groupedAt(line []rune, col int) (from, to int) {
	if col < 0 || col >= len(line) || !isDigitOrComma(line[col]) {
		return -1, -1
	}
	from = col
	for from > 0 && isDigitOrComma(line[from-1]) {
		from--
	}
	if from > 0 && (line[from-1] == '.' || isLetter(line[from-1])) {
		return -1, -1 // part of a word or a decimal's fraction
	}
	m := grouped.FindString(string(line[from:]))
	if m == "" {
		return -1, -1
	}
	return from, from + len([]rune(m))
}

func isDigitOrComma(r rune) bool { return r == ',' || '0' <= r && r <= '9' }

func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_' }
