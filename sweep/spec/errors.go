package spec

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a spec, at the place to fix it.
type Error struct {
	Pos Position
	Msg string // what is wrong and, where there is one, the likely fix
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is every problem found in a spec, sorted by position. Parse
// returns it (as error) so that a user fixes all mistakes in one round; the
// CLI prints one line per Error and exits 2.
type ErrorList []*Error

// Error returns the errors, one "file:line:col: message" per line: the
// first MaxErrorLines, then a count of the rest.
func (l ErrorList) Error() string {
	n := min(len(l), MaxErrorLines)
	lines := make([]string, n, n+1)
	for i, e := range l[:n] {
		lines[i] = e.Error()
	}
	if rest := len(l) - n; rest > 0 {
		lines = append(lines, fmt.Sprintf("%s: and %d more errors", l[n].Pos, rest))
	}
	return strings.Join(lines, "\n")
}

// Sorted orders the list as Parse does (see sort), for the checks that
// find a spec's errors outside the parser (plots.CheckClaims). It reorders
// l in place.
func (l ErrorList) Sorted() ErrorList { return l.sort() }

// sort orders the list by position, then message, and drops exact
// repeats (a conflict found in the base spec is found again in each
// profile).
func (l ErrorList) sort() ErrorList {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		return a.Msg < b.Msg
	})
	out := l[:0]
	for i, e := range l {
		if i > 0 && *e == *l[i-1] {
			continue
		}
		out = append(out, e)
	}
	return out
}
