package spec

import (
	"bytes"
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
	var (
		indents    []int // the block indentations enclosing this line
		flow       int   // open [ and {
		quote      byte  // the quote a multi-line quoted scalar is open with
		blockIndex = -1  // indentation of a block scalar's header (| or >), or -1
	)
	for pos := 0; pos < len(data); {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += pos
		}
		line := data[pos:end]
		next := end + 1
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		body := bytes.TrimRight(line[indent:], " \t\r")
		if blockIndex >= 0 {
			if len(body) == 0 || indent > blockIndex {
				pos = next
				continue
			}
			blockIndex = -1
		}
		if len(body) == 0 || (quote == 0 && flow == 0 && body[0] == '#') {
			pos = next
			continue
		}
		base := 0
		i := indent
		if quote == 0 && flow == 0 {
			for len(indents) > 0 && indents[len(indents)-1] >= indent {
				indents = indents[:len(indents)-1]
			}
			indents = append(indents, indent)
			base = len(indents)
			// Compact entries ("- - x", "? - x") nest on one line.
			if base > limit {
				return pos + indent, base
			}
			for i+1 < len(line) && (line[i] == '-' || line[i] == '?') && (line[i+1] == ' ' || line[i+1] == '\t') {
				if base++; base > limit {
					return pos + i, base
				}
				i += 2
				for i < len(line) && line[i] == ' ' {
					i++
				}
			}
		} else {
			base = len(indents)
		}
		prev := byte(' ') // the last non-blank byte before i on this line
		if i > indent {
			prev = '-'
		}
		for ; i < len(line); i++ {
			c := line[i]
			if quote != 0 {
				switch {
				case c == '\\' && quote == '"':
					i++
				case c == '\'' && quote == '\'' && i+1 < len(line) && line[i+1] == '\'':
					i++
				case c == quote:
					quote = 0
					prev = c
				}
				continue
			}
			start := prev == ' ' || prev == ':' || prev == '-' || prev == '?' || (flow > 0 && (prev == '[' || prev == '{' || prev == ','))
			blank := i == indent || line[i-1] == ' ' || line[i-1] == '\t'
			switch {
			case c == '#' && blank:
				i = len(line)
				continue
			case (c == '"' || c == '\'') && start:
				quote = c
			case (c == '[' || c == '{') && (flow > 0 || start):
				flow++
				if base+flow > limit {
					return pos + i, base + flow
				}
			case (c == ']' || c == '}') && flow > 0:
				flow--
			case (c == '|' || c == '>') && flow == 0 && start && blockHeader(line[i+1:]):
				blockIndex = indent
				i = len(line)
				continue
			}
			if c != ' ' && c != '\t' {
				prev = c
			}
		}
		pos = next
	}
	return -1, 0
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
	switch {
	case name == "":
		p.errorf(pos, "%s is empty; it %s", what, use)
	case len(name) > MaxNameLen:
		p.errorf(pos, "%s is %d characters, more than the limit of %d", what, len(name), MaxNameLen)
	case !namePattern.MatchString(name):
		p.errorf(pos, "%s %q may use only a-z, 0-9 and - (it %s)", what, name, use)
	case reserved && contains(reservedNames, name):
		p.errorf(pos, "%s %q is reserved: crosslink writes OUT/%s/ itself; pick another", what, name, name)
	default:
		return true
	}
	return false
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
