package spec

import (
	"slices"
	"testing"
)

// TestThousands holds what the golden bad/thousands does not: which
// errors the hint leaves alone.
func TestThousands(t *testing.T) {
	text := []byte("description: a 16,000km link\ngrid:\n  distance: [1,000km, 2km]\n  mtu:\t[1,500B]\n")
	at := func(file string, line, col int, msg string) *Error {
		return &Error{Pos: Position{File: file, Line: line, Column: col}, Msg: msg}
	}
	for _, tt := range []struct {
		name string
		errs ErrorList
		want []string
	}{
		{"another file's error at the place of a number in the spec", ErrorList{at("table.csv", 1, 16, "document must be a plain number")},
			[]string{"table.csv:1:16: document must be a plain number"}},
		{"the pieces of a split number: one hint", ErrorList{at("s.yaml", 3, 14, "distance: needs a unit"), at("s.yaml", 3, 16, "distance = 0m is out of range")},
			[]string{`s.yaml:3:14: distance: needs a unit; if "1,000km" is one number, write 1000km (YAML ends an item of [ ] or { } at each comma)`}},
		{"an error beside the number", ErrorList{at("s.yaml", 3, 25, "distance = 2km is out of range")},
			[]string{"s.yaml:3:25: distance = 2km is out of range"}},
		{"a message that speaks of the comma already", ErrorList{at("s.yaml", 1, 16, `"16,000km" has a comma`)},
			[]string{`s.yaml:1:16: "16,000km" has a comma`}},
		{"a tab before the number", ErrorList{at("s.yaml", 4, 9, "mtu: needs a unit")},
			[]string{`s.yaml:4:9: mtu: needs a unit; if "1,500B" is one number, write 1500B (YAML ends an item of [ ] or { } at each comma)`}},
		{"a column past the end of the line", ErrorList{at("s.yaml", 2, 40, "x")}, []string{"s.yaml:2:40: x"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range thousands("s.yaml", text, tt.errs) {
				got = append(got, e.Error())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("thousands =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}
