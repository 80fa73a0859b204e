package vocab

import (
	"fmt"
	"strings"
)

// TextError is a problem at a line and a column (both from 1) of a
// String parameter's value: a line of an element set, a field of a
// station list. A Syntax function returns TextErrors so that the spec
// reader can place each problem in the file the value came from (a
// parameter with File), as file:line:col.
type TextError struct {
	Line, Col int
	Msg       string
}

// TextErrors is every problem a Syntax function found, in text order.
type TextErrors []TextError

func (l TextErrors) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
	}
	return strings.Join(msgs, "; ")
}
