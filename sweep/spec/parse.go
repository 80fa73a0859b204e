package spec

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	yamlparser "github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

var (
	topKeys     = []string{"name", "description", "model", "seed", "replicates", "params", "grid", "cases", "profiles", "plots"}
	profileKeys = []string{"replicates", "params", "grid", "cases"}
	rangeKeys   = []string{"from", "to", "step", "points", "scale"}
	plotKeys    = []string{"id", "title", "caption", "kind", "table", "x", "y", "series", "where", "xunit", "yunit", "xlabel", "ylabel", "logx", "logy", "xlim", "ylim", "labels", "claims"}
	plotKinds   = []string{"line", "table"}
	scales      = []string{"linear", "log"}
	namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	shardShaped = regexp.MustCompile(`^[0-9]+of[0-9]+$`)
)

// parser holds the state of one Parse: the errors found so far and what
// the values are checked against.
type parser struct {
	file    string
	lim     Limits
	tooMany bool     // a scenario count is over the limit: generate no range
	work    int      // keys and values read so far (see spend)
	alias   Position // the alias last followed, where an expansion is blamed
	errs    ErrorList
	anchors map[string]ast.Node
	schema  *vocab.Schema // nil when the model is missing or unknown
	// lossy marks the cases that lost a setting to an error, by their
	// first setting's position (one that lost every setting is nil):
	// combination calls none of them a repeat, for two cases the user
	// wrote apart can look alike once a setting is gone.
	lossy map[Position]bool
	lines [][]byte // of the text, for column (the parser's columns skip tabs)
}

// entry is one key: value of a YAML mapping.
type entry struct {
	key   string
	pos   Position // of the key
	value ast.Node
}

// Parse reads a spec from data (file names it in positions) and validates
// it against the model it names in reg, within the default Limits. On
// failure the error is an ErrorList holding every problem found, sorted by
// position.
//
// Every profile is checked as well, so a spec that parses runs under any of
// its profiles.
func Parse(file string, data []byte, reg *vocab.Registry) (*Spec, error) {
	return ParseLimited(file, data, reg, Limits{})
}

// ParseLimited is Parse within lim. The text is checked against the size,
// encoding and depth limits before it is parsed, and the scenario count
// against MaxScenarios before any range axis is generated.
func ParseLimited(file string, data []byte, reg *vocab.Registry, lim Limits) (*Spec, error) {
	return parse(file, data, int64(len(data)), reg, lim)
}

func parse(file string, data []byte, size int64, reg *vocab.Registry, lim Limits) (*Spec, error) {
	lim = lim.withDefaults()
	text, perr := precheck(file, data, size, lim)
	if perr != nil {
		return nil, ErrorList{perr}
	}
	p := &parser{file: file, lim: lim, anchors: map[string]ast.Node{}, lossy: map[Position]bool{}, lines: bytes.Split(text, []byte{'\n'})}
	s := &Spec{File: file, Text: bytes.Clone(text), Seed: DefaultSeed, Replicates: 1}
	root, ok := p.yaml(text)
	if !ok {
		return nil, p.errs.sort()
	}
	p.spec(s, root, reg)
	if !p.tooMany {
		p.generate(s.Grid)
		for i := range s.Profiles {
			p.generate(s.Profiles[i].Grid)
		}
	}
	if len(p.errs) > 0 {
		return nil, thousands(p.file, text, p.errs.sort())
	}
	return s, nil
}

// generate checks the values of the range axes, once the scenario counts
// are known to be within the limit, and makes them (unless the limits
// leave them lazy).
func (p *parser) generate(axes []Axis) {
	for i := range axes {
		a := &axes[i]
		if a.Range == nil || !p.checkRange(a.Range) || p.lim.LazyRanges {
			continue
		}
		a.Values, a.Range = a.Range.values(), nil
	}
}

// yamlHint adds what the YAML parser's messages about context leave
// out: in a spec they almost always come of a line indented wrong.
func yamlHint(msg string) string {
	if strings.Contains(msg, "found character '\t'") {
		return " (a tab: YAML indents with spaces only, so replace it with spaces)"
	}
	if strings.Contains(msg, "not allowed in this context") {
		return " (check the indentation here and on the next line: the keys of one mapping line up, and a line indented deeper than the key above it continues that key's value)"
	}
	return ""
}

// yaml parses the text into one document body; a syntax error ends the
// parse, since nothing after it can be trusted.
func (p *parser) yaml(data []byte) (body ast.Node, ok bool) {
	f, err := parseYAML(data)
	if err != nil {
		pos := Position{File: p.file, Line: 1, Column: 1}
		msg := err.Error()
		var se *yaml.SyntaxError
		if errors.As(err, &se) {
			msg = se.Message
			if se.Token != nil && se.Token.Position != nil && se.Token.Position.Line > 0 {
				pos.Line, pos.Column = se.Token.Position.Line, max(se.Token.Position.Column, 1)
			}
		}
		// The parser notices a [ or { left open only where the next key
		// starts, lines below; the bracket itself is the place to fix.
		// (The message first: the lexer runs only on text the parser
		// tokenized without failing.)
		if open, seq, ok := unclosed(msg, data, pos); ok {
			b, end := "{", "}"
			if seq {
				b, end = "[", "]"
			}
			open.Column, pos.Column = p.column(open.Line, open.Column), p.column(pos.Line, pos.Column)
			p.errorf(open, "invalid YAML: this %s is never closed: end it with %s after its last value (the parser stopped at %d:%d: %s)",
				b, end, pos.Line, pos.Column, msg)
			return nil, false
		}
		if !strings.Contains(msg, "character '\t'") { // the token is the tab, which has its width
			pos.Column = p.column(pos.Line, pos.Column)
		}
		p.errorf(pos, "invalid YAML: %s%s", msg, yamlHint(msg))
		return nil, false
	}
	var docs []*ast.DocumentNode
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d)
		}
	}
	if len(docs) > 1 {
		p.errorf(p.pos(docs[1].Body), "a spec file holds one YAML document; start another file for a second spec")
		return nil, false
	}
	if len(docs) == 0 {
		return nil, true
	}
	ast.Walk(anchorCollector(p.anchors), docs[0].Body)
	return docs[0].Body, true
}

// unclosed returns, for a syntax error that wants a collection's end
// (msg "',' or ']' must be specified"), the innermost [ or { open at pos,
// the error's place, and whether it is a [, when no ] or } after pos
// closes it: a collection closed later lacks a comma, not its end, and
// keeps the parser's message.
func unclosed(msg string, data []byte, pos Position) (open Position, seq, ok bool) {
	if !strings.Contains(msg, "' must be specified") {
		return Position{}, false, false
	}
	type opener struct {
		at  Position
		seq bool
	}
	var stack []opener
	inner := -1 // index in stack of the innermost collection open at pos
	for _, t := range lexer.Tokenize(string(data)) {
		if t.Position == nil {
			continue
		}
		if inner < 0 && (t.Position.Line > pos.Line || t.Position.Line == pos.Line && t.Position.Column >= pos.Column) {
			if inner = len(stack) - 1; inner < 0 {
				return Position{}, false, false
			}
		}
		switch t.Type {
		case token.SequenceStartType, token.MappingStartType:
			at := Position{File: pos.File, Line: t.Position.Line, Column: t.Position.Column}
			stack = append(stack, opener{at, t.Type == token.SequenceStartType})
		case token.SequenceEndType, token.MappingEndType:
			if len(stack) == 0 {
				continue
			}
			stack = stack[:len(stack)-1]
			if inner >= len(stack) {
				return Position{}, false, false // closed after pos
			}
		}
	}
	if inner < 0 {
		inner = len(stack) - 1 // the error at the end of the text
	}
	if inner < 0 || inner >= len(stack) {
		return Position{}, false, false
	}
	return stack[inner].at, stack[inner].seq, true
}

// parseYAML runs the YAML parser, turning a panic inside it (a bug there,
// seen on some malformed input) into an error so that a typo never crashes
// the tool. Duplicate keys are allowed here and reported by entries, with
// every other error.
func parseYAML(data []byte) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("the YAML parser failed: %v", r)
		}
	}()
	return yamlparser.ParseBytes(data, 0, yamlparser.AllowDuplicateMapKey())
}

type anchorCollector map[string]ast.Node

func (a anchorCollector) Visit(n ast.Node) ast.Visitor {
	if an, ok := n.(*ast.AnchorNode); ok && an.Name != nil {
		a[an.Name.GetToken().Value] = an.Value
	}
	return a
}

func (p *parser) errorf(pos Position, format string, args ...any) {
	p.errs = append(p.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// pos returns where n starts; never an invalid position, so that every
// error can be located.
func (p *parser) pos(n ast.Node) Position {
	pos := Position{File: p.file, Line: 1, Column: 1}
	switch m := n.(type) {
	case nil:
		return pos
	case *ast.MappingNode:
		if len(m.Values) > 0 && !m.IsFlowStyle {
			return p.pos(m.Values[0])
		}
	case *ast.MappingValueNode:
		return p.pos(m.Key)
	}
	if t := n.GetToken(); t != nil && t.Position != nil && t.Position.Line > 0 {
		pos.Line, pos.Column = t.Position.Line, p.column(t.Position.Line, max(t.Position.Column, 1))
	}
	return pos
}

// column turns the YAML parser's column on line into the text's: the
// parser gives a tab between tokens no width, so that each tab before a
// token on its line would put an error one column to the left of it.
func (p *parser) column(line, col int) int {
	if line < 1 || line > len(p.lines) || !bytes.ContainsRune(p.lines[line-1], '\t') {
		return col
	}
	if i := runeIndex([]rune(string(p.lines[line-1])), col); i >= 0 {
		return i + 1
	}
	return col
}

// runeIndex returns the index in line of the rune at the YAML parser's
// column col (1-based), which counts a tab between tokens as no width.
func runeIndex(line []rune, col int) int {
	before := 0 // runes other than tabs before i
	for i, r := range line {
		if r == '\t' {
			continue
		}
		if before == col-1 {
			return i
		}
		before++
	}
	return -1
}

// unwrap looks through tags, anchors and aliases to the node they mark.
func (p *parser) unwrap(n ast.Node) ast.Node {
	for range 16 {
		switch m := n.(type) {
		case *ast.TagNode:
			n = m.Value
		case *ast.AnchorNode:
			n = m.Value
		case *ast.AliasNode:
			if m.Value == nil {
				return nil
			}
			name := m.Value.GetToken().Value
			target, ok := p.anchors[name]
			if !ok {
				p.errorf(p.pos(m), "unknown alias *%s", name)
				return nil
			}
			p.alias = p.pos(m)
			n = target
		default:
			return n
		}
	}
	return n
}

// describe names the kind of a node for messages.
func describe(n ast.Node) string {
	switch n.(type) {
	case nil, *ast.NullNode:
		return "nothing"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.BoolNode:
		return "true/false"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	}
	return "a string"
}

// scalar returns the text of a scalar node as written (unquoted).
func (p *parser) scalar(n ast.Node) (string, bool) {
	switch m := p.unwrap(n).(type) {
	case *ast.StringNode:
		return m.Value, true
	case *ast.LiteralNode:
		if m.Value == nil {
			return "", true
		}
		return m.Value.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return m.GetToken().Value, true
	}
	return "", false
}

// entries returns the key: value pairs of a mapping in file order,
// reporting duplicate keys and, when allowed is not nil, unknown ones.
// what names the mapping in messages ("grid", "plot 2"); noun is what its
// keys are ("key" or "parameter").
func (p *parser) entries(n ast.Node, what, noun string, allowed []string) []entry {
	var pairs []*ast.MappingValueNode
	switch m := p.unwrap(n).(type) {
	case nil, *ast.NullNode:
		return nil
	case *ast.MappingNode:
		pairs = m.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{m}
	default:
		p.errorf(p.pos(n), "%s must be a mapping (key: value), not %s", what, describe(m))
		return nil
	}
	seen := map[string]Position{}
	var out []entry
	for _, mv := range pairs {
		kpos := p.pos(mv.Key)
		if !p.spend(kpos) {
			return out
		}
		if mv.Key == nil {
			continue
		}
		if mv.Key.IsMergeKey() {
			p.errorf(kpos, "merge keys (<<) are not supported in %s; write the keys out", what)
			continue
		}
		key, ok := p.scalar(mv.Key)
		if !ok {
			p.errorf(kpos, "a key in %s must be a name, not %s", what, describe(p.unwrap(mv.Key)))
			continue
		}
		if first, dup := seen[key]; dup {
			p.errorf(kpos, "duplicate key %q in %s (first at %d:%d)", key, what, first.Line, first.Column)
			continue
		}
		seen[key] = kpos
		if allowed != nil && !contains(allowed, key) {
			if noun == "parameter" && p.isMetric(key) {
				p.errorf(kpos, "%s is a metric of %s, a result each scenario gives, not a parameter to set in %s (crosslink describe %s lists both)", key, p.schema.Name, what, p.schema.Name)
				continue
			}
			if noun == "parameter" && contains(topKeys, key) {
				// Unindenting helps where the key belongs one level up:
				// any spec key beside the spec's params, a profile's
				// keys beside a profile's params.
				fix := ""
				if key != "params" && (what == "params" || (strings.HasSuffix(what, " params") && contains(profileKeys, key))) {
					fix = ": unindent it to line up with params"
				}
				p.errorf(kpos, "%s is a key of the spec, not a parameter to set in %s%s", key, what, fix)
				continue
			}
			hint := suggest(key, allowed)
			if to, ok := keySynonyms[key]; ok && contains(allowed, to) {
				hint = fmt.Sprintf("; did you mean %q?", to)
			}
			p.errorf(kpos, "unknown %s %q in %s%s", noun, key, what, hint)
			continue
		}
		out = append(out, entry{key: key, pos: kpos, value: mv.Value})
	}
	return out
}

// keySynonyms are the words a spec's author may reach for in place of a
// key, which are not near it in spelling: a claim's published number is
// its document, its tolerance tol.
var keySynonyms = map[string]string{"value": "document", "expected": "document", "published": "document", "tolerance": "tol"}

// suggest returns "; did you mean "x"?" for the nearest of names, or a
// list of the names when there are few and none is near.
func suggest(word string, names []string) string {
	if hint := units.DidYouMean(word, names); hint != "" {
		return hint
	}
	if len(names) > 0 && len(names) <= 12 {
		return "; expected one of " + strings.Join(names, ", ")
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// spec fills s from the document body.
func (p *parser) spec(s *Spec, root ast.Node, reg *vocab.Registry) {
	switch p.unwrap(root).(type) {
	case nil, *ast.NullNode, *ast.MappingNode, *ast.MappingValueNode:
	default:
		p.errorf(p.pos(root), "a spec is a mapping of keys (%s), not %s", strings.Join(topKeys, ", "), describe(p.unwrap(root)))
		return
	}
	// Unknown keys are told once the model is known: one of its
	// parameters at the top is a line that lost its indentation.
	top := map[string]entry{}
	var unknown []entry
	for _, e := range p.entries(root, "the spec", "key", nil) {
		if contains(topKeys, e.key) {
			top[e.key] = e
		} else {
			unknown = append(unknown, e)
		}
	}
	start := Position{File: p.file, Line: 1, Column: 1}
	defer func() {
		for _, e := range unknown {
			if p.isParam(e.key) {
				p.errorf(e.pos, "unknown key %q in the spec: it is a parameter of %s; indent it under params or grid", e.key, p.schema.Name)
			} else {
				p.errorf(e.pos, "unknown key %q in the spec%s", e.key, suggest(e.key, topKeys))
			}
		}
	}()

	if e, ok := top["model"]; ok {
		s.Model = p.text(e)
		if m, found := reg.Lookup(s.Model); found {
			p.schema = m.Schema()
		} else if s.Model == "" {
			p.errorf(p.pos(e.value), "model is empty; name one of %s", strings.Join(reg.Names(), ", "))
		} else {
			p.errorf(p.pos(e.value), "unknown model %q%s (crosslink models lists them)", s.Model, suggestOnly(s.Model, reg.Names()))
		}
	} else {
		p.errorf(start, "missing key \"model\": the model to run (crosslink models lists them)")
	}
	if e, ok := top["name"]; ok {
		s.Name = p.text(e)
		p.checkName(p.pos(e.value), "name", s.Name, specNameUse, true)
	} else {
		p.errorf(start, "missing key \"name\": it names the output directory out/<name>/")
	}
	if e, ok := top["description"]; ok {
		s.Description = p.text(e)
	}
	if e, ok := top["seed"]; ok {
		text, _ := p.scalar(e.value)
		seed, err := strconv.ParseUint(text, 0, 64)
		if err != nil {
			p.errorf(p.pos(e.value), "seed must be a whole number from 0 to %d, not %s", uint64(1<<64-1), quoteNode(p, e.value))
		}
		s.Seed = seed
	}
	if e, ok := top["replicates"]; ok {
		s.Replicates, s.Adaptive = p.replicates(e)
	}
	if e, ok := top["params"]; ok {
		s.Params = p.settings(e.value, "params")
	}
	if e, ok := top["grid"]; ok {
		s.Grid = p.grid(e.value)
	}
	if e, ok := top["cases"]; ok {
		s.Cases = p.cases(e.value)
	}
	if e, ok := top["profiles"]; ok {
		s.Profiles = p.profiles(e.value)
	}
	if e, ok := top["plots"]; ok {
		s.Plots = p.plots(e.value)
	}

	sizePos := start
	if e, ok := top["grid"]; ok {
		sizePos = e.pos
	}
	p.combination(s, "the spec", sizePos, nil)
	base := map[Position]bool{}
	for _, st := range s.Params {
		base[st.Pos] = true
	}
	for _, a := range s.Grid {
		base[a.Pos] = true
	}
	for _, c := range s.Cases {
		for _, st := range c {
			base[st.Pos] = true
		}
	}
	for i := range s.Profiles {
		pr := &s.Profiles[i]
		p.combination(s.apply(pr), "profile "+pr.Name, pr.Pos, base)
	}
}

// isParam reports whether name is a parameter of the model, by name or
// by column.
func (p *parser) isParam(name string) bool {
	return p.schema != nil && slices.ContainsFunc(p.schema.Params, func(q vocab.Param) bool { return q.Is(name) })
}

// isMetric reports whether name is a metric of the model, by name or by
// column.
func (p *parser) isMetric(name string) bool {
	return p.schema != nil && slices.ContainsFunc(p.schema.Metrics, func(m vocab.Metric) bool { return m.Is(name) })
}

// suggestOnly is suggest without the list of every name.
func suggestOnly(word string, names []string) string { return units.DidYouMean(word, names) }

func quoteNode(p *parser, n ast.Node) string {
	if t, ok := p.scalar(n); ok {
		return strconv.Quote(t)
	}
	return describe(p.unwrap(n))
}

// text returns a scalar value as text, reporting anything else.
func (p *parser) text(e entry) string {
	t, ok := p.scalar(e.value)
	if !ok {
		p.errorf(p.pos(e.value), "%s must be text, not %s", e.key, describe(p.unwrap(e.value)))
	}
	return t
}

// replicates reads a fixed count (replicates: 10) or an adaptive rule
// (replicates: {min: 3, max: 30, until: {metric: goodput, ci95_rel: 0.05}}),
// returning the most replicates that may run and the rule, if any.
func (p *parser) replicates(e entry) (int, *Adaptive) {
	switch p.unwrap(e.value).(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		a := p.adaptive(e)
		if a == nil {
			return 1, nil
		}
		return a.Max, a
	}
	text, _ := p.scalar(e.value)
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n < 1 || n > MaxScenarios {
		p.errorf(p.pos(e.value), "replicates must be a whole number from 1 to %d, or {min, max, until: {metric, ci95_rel}}, not %s", MaxScenarios, quoteNode(p, e.value))
		return 1, nil
	}
	return int(n), nil
}

// paramNames returns the model's parameter names, or nil (anything goes)
// when the model is unknown.
func (p *parser) paramNames() []string {
	if p.schema == nil {
		return nil
	}
	names := make([]string, len(p.schema.Params))
	for i, prm := range p.schema.Params {
		names[i] = prm.Name
	}
	return names
}

func (p *parser) param(name string) (vocab.Param, bool) {
	if p.schema == nil {
		return vocab.Param{}, false
	}
	i := p.schema.ParamIndex(name)
	if i < 0 {
		return vocab.Param{}, false
	}
	return p.schema.Params[i], true
}

// settings reads a mapping of parameter: value.
func (p *parser) settings(n ast.Node, what string) []Setting {
	var out []Setting
	for _, e := range p.entries(n, what, "parameter", p.paramNames()) {
		prm, ok := p.param(e.key)
		if !ok {
			continue
		}
		if _, isList := p.unwrap(e.value).(*ast.SequenceNode); isList && strings.HasSuffix(what, "params") {
			p.errorf(p.pos(e.value), "%s takes one value in %s, not a list; to run each value, make %s a grid axis (grid: {%s: [...]})", e.key, what, e.key, e.key)
			continue
		}
		if v, ok := p.value(prm, e.value); ok {
			out = append(out, Setting{Name: e.key, Value: v, Pos: e.pos})
		}
	}
	return out
}

// cases reads the list of explicit combinations.
func (p *parser) cases(n ast.Node) [][]Setting {
	var items []ast.Node
	switch m := p.unwrap(n).(type) {
	case nil, *ast.NullNode:
		return [][]Setting{}
	case *ast.SequenceNode:
		items = m.Values
	default:
		p.errorf(p.pos(n), "cases must be a list of mappings, e.g. - {detection: direct}, not %s", describe(m))
		return nil
	}
	out := make([][]Setting, 0, len(items))
	for i, it := range items {
		what := fmt.Sprintf("case %d", i+1)
		switch p.unwrap(it).(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
		default:
			p.errorf(p.pos(it), "%s must be a mapping of parameter: value, not %s", what, describe(p.unwrap(it)))
			continue
		}
		before := len(p.errs)
		set := p.settings(it, what)
		switch {
		case len(p.errs) > before && len(set) == 0:
			set = nil // it lost every setting: see lossy
		case len(p.errs) > before:
			p.lossy[set[0].Pos] = true
		case set == nil:
			set = []Setting{} // {}: a case, which another {} repeats
		}
		out = append(out, set)
	}
	return out
}

// profiles reads the named overrides.
func (p *parser) profiles(n ast.Node) []Profile {
	var out []Profile
	for _, e := range p.entries(n, "profiles", "profile", nil) {
		pr := Profile{Name: e.key, Pos: e.pos}
		if p.checkName(e.pos, "profile name", e.key, "is what --profile takes", false) && shardShaped.MatchString(e.key) {
			// Points parts are named part-<profile>-<i>of<n>: a profile
			// shaped like a shard would read as one.
			p.errorf(e.pos, "profile name %q has the form of a shard (<i>of<n>), which names a dataset's files; pick another", e.key)
		}
		what := "profile " + e.key
		for _, f := range p.entries(e.value, what, "key", profileKeys) {
			switch f.key {
			case "replicates":
				pr.Replicates, pr.Adaptive = p.replicates(f)
			case "params":
				pr.Params = p.settings(f.value, what+" params")
			case "grid":
				pr.Grid = p.grid(f.value)
			case "cases":
				pr.Cases, pr.HasCases = p.cases(f.value), true
			}
		}
		out = append(out, pr)
	}
	return out
}

// combination checks what only shows once params, grid and cases meet: a
// parameter set in two places, repeated cases, and the scenario count.
// For a profile, base marks the positions of the base spec's items: a
// conflict between two of them was reported for the base spec already.
func (p *parser) combination(s *Spec, what string, pos Position, base map[Position]bool) {
	prefix := ""
	if base != nil {
		prefix = what + ": "
	}
	later := func(a, b Position) Position {
		if a.before(b) {
			return b
		}
		return a
	}
	report := func(a, b Position, format string, args ...any) {
		if base[a] && base[b] {
			return
		}
		p.errorf(later(a, b), prefix+format, args...)
	}
	axes := map[string]Position{}
	for _, a := range s.Grid {
		axes[a.Name] = a.Pos
	}
	params := map[string]Position{}
	for _, st := range s.Params {
		params[st.Name] = st.Pos
		if ap, ok := axes[st.Name]; ok {
			report(st.Pos, ap, "%s is set in params and is also a grid axis; keep one", st.Name)
		}
	}
	seen := map[string]int{}
	for i, c := range s.Cases {
		for _, st := range c {
			if ap, ok := axes[st.Name]; ok {
				report(st.Pos, ap, "case %d sets %s, which is a grid axis; set it in the cases or in the grid", i+1, st.Name)
			}
			if pp, ok := params[st.Name]; ok {
				report(st.Pos, pp, "case %d sets %s, which params also sets; set it in one place", i+1, st.Name)
			}
		}
		if c == nil || p.lossy[c[0].Pos] {
			continue // lost a setting to an error (see lossy)
		}
		key := caseKey(c)
		if j, dup := seen[key]; dup {
			cpos := pos
			if len(c) > 0 {
				cpos = c[0].Pos
			}
			report(cpos, cpos, "case %d repeats case %d", i+1, j+1)
		} else {
			seen[key] = i
		}
	}
	if n := s.Size(); n > float64(p.lim.MaxScenarios) {
		p.tooMany = true
		var dims []string
		for _, a := range s.Grid {
			dims = append(dims, fmt.Sprintf("%s %d", a.Name, a.Len()))
		}
		if len(s.Cases) > 0 {
			dims = append(dims, fmt.Sprintf("cases %d", len(s.Cases)))
		}
		dims = append(dims, fmt.Sprintf("replicates %d", s.Replicates))
		p.errorf(pos, "%s expands to %s scenarios (%s), more than the limit of %d (--max-scenarios)", what, scenarioCount(n), strings.Join(dims, " x "), p.lim.MaxScenarios)
	}
}

// scenarioCount prints a plan size that Size computed as a float64: whole
// digits while float64 holds the integer exactly (below 2^53), else "about"
// and three significant digits, so that 10^27 does not print as the binary
// neighbour 1000000000000000013287555072.
func scenarioCount(n float64) string {
	if n < 1<<53 {
		return strconv.FormatFloat(n, 'f', 0, 64)
	}
	return "about " + strconv.FormatFloat(n, 'g', 3, 64)
}

// caseKey identifies a case by its settings, in name order.
func caseKey(c []Setting) string {
	parts := make([]string, len(c))
	for i, st := range c {
		parts[i] = st.Name + "=" + st.Value.Canonical()
	}
	sortStrings(parts)
	return strings.Join(parts, "\x00")
}
