package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Limits bound what the loader accepts. The text is checked against them
// before the YAML parser sees it, because the parser's memory and time grow
// faster than linearly with nesting depth (100,000 nested "[" in 200 KB
// took it 70 s and 14.7 GB) and with size. A zero field takes its default.
type Limits struct {
	// MaxBytes is the largest spec file, in bytes. The specs shipped with
	// crosslink are under 5 KB; a spec is also copied into the metadata of
	// every part file it writes, so a large one costs disk in every part.
	MaxBytes int
	// MaxDepth is the deepest nesting of mappings and lists. A spec needs
	// about 6 (profiles > name > grid > axis > range > value).
	MaxDepth int
	// MaxScenarios is the most scenarios a spec, or any of its profiles,
	// may expand to, at most ScenarioCeiling. It is checked from the axis
	// lengths before any axis is generated.
	MaxScenarios int
	// LazyRanges keeps range axes as generators: their values are checked
	// one at a time but not kept (Axis.Values nil, Axis.Range set), so that
	// counting the scenarios of a 10^6-value axis (run --dry-run) costs no
	// memory per value. A plan then makes each value when it needs it.
	LazyRanges bool
	// Stdin is what the spec path "-" reads (crosslink run -); nil
	// refuses that path.
	Stdin io.Reader
	// Recorded reads the spec text a dataset recorded when it was run,
	// without the checks added since that only refuse (a range whose
	// step misses to), so that the plan is the one the dataset was run
	// with and crosslink status still reads it.
	Recorded bool
}

// Defaults of Limits. 128 KiB is 25 times the largest spec shipped; the
// YAML parser takes about 0.3 s and 90 MB of allocations on 128 KiB of
// its worst inputs (many small flow mappings), and 0.65 s and 175 MB on
// 256 KiB.
const (
	DefaultMaxBytes = 128 << 10
	DefaultMaxDepth = 32
)

// MaxErrorLines is the number of errors an ErrorList prints before it
// counts the rest: a list of a million bad values needs its first few
// fixed, not a million lines.
const MaxErrorLines = 50

// MaxNodes is the most keys and values the loader reads. Without aliases
// a spec within MaxBytes rarely holds as many (a grid list of 100,000
// values is a range's job); with them, a list of 10,000
// values anchored once and named by 5,500 profiles is 55 million values
// from 256 KB (68 s and 3.8 GB before this limit), the YAML form of the
// billion laughs.
const MaxNodes = 100_000

// Name limits: spec names become directories, plot ids file names, and
// profile names flag values.
const (
	MaxNameLen = 64
)

// reservedNames are the directories crosslink itself writes in the output
// root; a spec of that name would share its directory with them.
var reservedNames = []string{"figures", "slurm"}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxScenarios <= 0 {
		l.MaxScenarios = MaxScenarios
	}
	l.MaxScenarios = min(l.MaxScenarios, ScenarioCeiling)
	return l
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// precheck bounds the raw text before parsing: size, encoding and nesting
// depth. It returns the text to parse (without a UTF-8 byte order mark)
// or an error at the first offending byte.
func precheck(file string, data []byte, size int64, lim Limits) ([]byte, *Error) {
	data = bytes.TrimPrefix(data, bom)
	at := func(off int, format string, args ...any) *Error {
		return &Error{Pos: offsetPos(file, data, off), Msg: fmt.Sprintf(format, args...)}
	}
	if size > int64(lim.MaxBytes) || len(data) > lim.MaxBytes {
		if size < int64(len(data)) {
			size = int64(len(data))
		}
		off := min(lim.MaxBytes, len(data))
		return nil, at(off, "the spec is %d bytes, more than the limit of %d; this is where the limit falls", size, lim.MaxBytes)
	}
	if bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) {
		return nil, at(0, "the spec is UTF-16 text; save it as UTF-8")
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, at(off, "invalid UTF-8 (byte 0x%02X); a spec is UTF-8 text", data[off])
	}
	if off := bytes.IndexFunc(data, func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7F }); off >= 0 {
		return nil, at(off, "control character U+%04X; a spec holds printable text (YAML 1.2, section 5.1)", data[off])
	}
	if off, depth := nesting(data, lim.MaxDepth); off >= 0 {
		return nil, at(off, "nesting deeper than the limit of %d levels (here %d); a spec needs about 6", lim.MaxDepth, depth)
	}
	return data, nil
}

// offsetPos converts a byte offset of data into a line and a column (in
// characters, as editors count them).
func offsetPos(file string, data []byte, off int) Position {
	off = min(off, len(data))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return Position{File: file, Line: line, Column: 1 + utf8.RuneCount(data[start:off])}
}

// nesting scans YAML text for the first place its nesting goes deeper than
// limit, and returns that byte offset and the depth there, or -1. It is a
// linear scan, not a parser: it counts open flow collections ([ and {,
// outside quotes, comments and block scalars), block levels (distinct
// indentations of the enclosing lines) and the "- " entries that start a
// line. Where YAML is ambiguous it counts a level rather than miss one.
func nesting(data []byte, limit int) (int, int) {
	n := nestScan{limit: limit, blockIndent: -1}
	for pos := 0; pos < len(data); {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += pos
		}
		if off, depth := n.line(data[pos:end]); off >= 0 {
			return pos + off, depth
		}
		pos = end + 1
	}
	return -1, 0
}

// nestScan is the state nesting carries from one line to the next.
type nestScan struct {
	limit       int
	indents     []int // the block indentations enclosing this line
	flow        int   // open [ and {
	quote       byte  // the quote a multi-line quoted scalar is open with
	blockIndent int   // indentation of a block scalar's header (| or >), or -1
}

// line scans one line (without its newline) and returns the offset in it
// where the nesting passes the limit and the depth there, or -1.
func (n *nestScan) line(line []byte) (int, int) {
	indent := 0
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	if n.skip(indent, bytes.TrimRight(line[indent:], " \t\r")) {
		return -1, 0
	}
	base, i, off := n.blockLevels(line, indent)
	if off >= 0 {
		return off, base
	}
	return n.inline(line, indent, i, base)
}

// skip reports whether a line adds no nesting: a line of a block scalar
// (more indented than its header, or blank), a blank line or a comment.
// A line that ends a block scalar ends it.
func (n *nestScan) skip(indent int, body []byte) bool {
	if n.blockIndent >= 0 {
		if len(body) == 0 || indent > n.blockIndent {
			return true
		}
		n.blockIndent = -1
	}
	return len(body) == 0 || (n.quote == 0 && n.flow == 0 && body[0] == '#')
}

// blockLevels counts the block levels of a line outside flow collections
// and quotes: the enclosing indentations, then the compact entries ("- - x",
// "? - x") that nest on one line. It returns the depth, the offset of the
// line's content after those entries, and the offset where the depth
// passed the limit (or -1).
func (n *nestScan) blockLevels(line []byte, indent int) (depth, i, over int) {
	if n.quote != 0 || n.flow != 0 {
		return len(n.indents), indent, -1
	}
	for len(n.indents) > 0 && n.indents[len(n.indents)-1] >= indent {
		n.indents = n.indents[:len(n.indents)-1]
	}
	n.indents = append(n.indents, indent)
	depth = len(n.indents)
	if depth > n.limit {
		return depth, indent, indent
	}
	i = indent
	for compactEntry(line, i) {
		if depth++; depth > n.limit {
			return depth, i, i
		}
		i += 2
		for i < len(line) && line[i] == ' ' {
			i++
		}
	}
	return depth, i, -1
}

// compactEntry reports whether line holds "- " or "? " at i.
func compactEntry(line []byte, i int) bool {
	return i+1 < len(line) && (line[i] == '-' || line[i] == '?') && (line[i+1] == ' ' || line[i+1] == '\t')
}

// inline scans a line from i for what nests within it: quotes, flow
// collections, a comment, a block scalar header. base is the depth of the
// line's block levels.
func (n *nestScan) inline(line []byte, indent, i, base int) (int, int) {
	prev := byte(' ') // the last non-blank byte before i on this line
	if i > indent {
		prev = '-'
	}
	for ; i < len(line); i++ {
		c := line[i]
		if n.quote != 0 {
			var closed bool
			if i, closed = n.inQuote(line, i); closed {
				prev = c
			}
			continue
		}
		blank := i == indent || line[i-1] == ' ' || line[i-1] == '\t'
		if done, off, depth := n.token(line, i, indent, base, n.valueStart(prev), blank); done {
			return off, depth
		}
		if c != ' ' && c != '\t' {
			prev = c
		}
	}
	return -1, 0
}

// token reads byte i of a line outside quotes; start says a value may
// begin there and blank that a blank precedes it. It reports whether the
// line's scan is done: the rest is a comment or a block scalar (off -1),
// or a flow collection passed the limit at off, with that depth.
func (n *nestScan) token(line []byte, i, indent, base int, start, blank bool) (done bool, off, depth int) {
	switch c := line[i]; {
	case c == '#' && blank:
		return true, -1, 0
	case (c == '|' || c == '>') && n.flow == 0 && start && blockHeader(line[i+1:]):
		n.blockIndent = indent
		return true, -1, 0
	case (c == '"' || c == '\'') && start:
		n.quote = c
	case (c == '[' || c == '{') && (n.flow > 0 || start):
		if n.flow++; base+n.flow > n.limit {
			return true, i, base + n.flow
		}
	case (c == ']' || c == '}') && n.flow > 0:
		n.flow--
	}
	return false, -1, 0
}

// inQuote reads byte i of an open quoted scalar: an escape (\x in double
// quotes, ” in single ones) takes the next byte too. It returns the
// index of the last byte read and whether the quote closed there.
func (n *nestScan) inQuote(line []byte, i int) (int, bool) {
	c := line[i]
	switch {
	case c == '\\' && n.quote == '"':
		return i + 1, false
	case c == '\'' && n.quote == '\'' && i+1 < len(line) && line[i+1] == '\'':
		return i + 1, false
	case c == n.quote:
		n.quote = 0
		return i, true
	}
	return i, false
}

// valueStart reports whether a byte after prev (the last non-blank one)
// may start a scalar or a collection: after a blank, a key's colon or an
// entry's dash, or inside a flow collection after its opening or a comma.
func (n *nestScan) valueStart(prev byte) bool {
	switch prev {
	case ' ', ':', '-', '?':
		return true
	case '[', '{', ',':
		return n.flow > 0
	}
	return false
}

// blockHeader reports whether rest, the text after | or >, completes a
// block scalar header: indentation and chomping indicators, then nothing
// but a comment.
func blockHeader(rest []byte) bool {
	for i, c := range rest {
		switch {
		case c == '+' || c == '-' || (c >= '1' && c <= '9'):
		case c == ' ' || c == '\t' || c == '\r':
			t := bytes.TrimLeft(rest[i:], " \t\r")
			return len(t) == 0 || t[0] == '#'
		default:
			return false
		}
	}
	return true
}

// checkName reports a name that is empty, too long, outside
// [a-z0-9-] or, for a spec (reserved set), one of the directories
// crosslink writes beside the datasets. what names the kind ("name",
// "profile name", "plot id") and use says what the name becomes.
func (p *parser) checkName(pos Position, what, name, use string, reserved bool) bool {
	if msg := nameProblem(what, name, use, reserved); msg != "" {
		p.errorf(pos, "%s", msg)
		return false
	}
	return true
}

// nameProblem is checkName's verdict: what is wrong with name, or "".
func nameProblem(what, name, use string, reserved bool) string {
	switch {
	case name == "":
		return fmt.Sprintf("%s is empty; it %s", what, use)
	case len(name) > MaxNameLen:
		return fmt.Sprintf("%s is %d characters, more than the limit of %d", what, len(name), MaxNameLen)
	case !namePattern.MatchString(name):
		return fmt.Sprintf("%s %q may use only a-z, 0-9 and -, and start with a letter or digit (it %s)", what, name, use)
	case reserved && contains(reservedNames, name):
		return fmt.Sprintf("%s %q is reserved: crosslink writes OUT/%s/ itself; pick another", what, name, name)
	}
	return ""
}

// specNameUse says what a spec's name becomes, for its errors.
const specNameUse = "names the directory out/<name>/"

// CheckSpecName returns why name cannot name a spec (what a spec's name:
// field is checked for), or nil: for commands that write a spec.
func CheckSpecName(name string) error {
	if msg := nameProblem("name", name, specNameUse, true); msg != "" {
		return errors.New(msg)
	}
	return nil
}

// spend counts one key or value read and reports whether the reading may
// go on: past MaxNodes it records one error, at the alias last followed
// (or pos), and every later call returns false, so the parser unwinds
// without reading more.
func (p *parser) spend(pos Position) bool {
	p.work++
	if p.work == MaxNodes+1 {
		if p.alias.Line > 0 {
			pos = p.alias
		}
		p.errorf(pos, "the spec has more than %d keys and values, counting each repetition by an alias; write a long list as a range, or split the spec", MaxNodes)
	}
	return p.work <= MaxNodes
}
