package spec

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/crosslink-sim/crosslink/vocab"
)

// MaxScenarios is the largest number of scenarios a spec (or any of its
// profiles) may expand to. It catches a range with a step far too small
// before anything runs.
const MaxScenarios = 1_000_000_000

// ScenarioCeiling is the most scenarios Limits.MaxScenarios may allow:
// shards index a plan with 32-bit integers.
const ScenarioCeiling = 1<<31 - 1

// MaxAxis is the largest number of values one grid axis may hold. Axes are
// kept in memory (the grid they span is not), about 100 bytes a value with
// the scenario-id parts the plan precomputes, so this bounds an axis to
// about 100 MB.
const MaxAxis = 1_000_000

// Position is a place in a spec file; lines and columns count from 1.
type Position struct {
	File   string
	Line   int
	Column int
}

// String formats p as "file:line:col", the form editors jump to.
func (p Position) String() string {
	s := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
	if p.File != "" {
		s = p.File + ":" + s
	}
	return s
}

// before reports whether p comes before q in the file.
func (p Position) before(q Position) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Column < q.Column
}

// Setting is one parameter set to one value, in SI base units.
type Setting struct {
	Name  string
	Value vocab.Value
	Pos   Position
}

// Axis is one grid dimension: a parameter and the values it takes, in the
// order the spec lists or generates them.
type Axis struct {
	Name   string
	Values []vocab.Value
	// Range makes the values of a range axis that Values does not hold:
	// set only when the spec was read with Limits.LazyRanges, nil
	// otherwise. Len and At read either.
	Range *Range
	Pos   Position
}

// Len returns the number of values of a.
func (a Axis) Len() int {
	if a.Range != nil {
		return a.Range.Len()
	}
	return len(a.Values)
}

// At returns value k of a, 0 <= k < Len().
func (a Axis) At(k int) vocab.Value {
	if a.Range != nil {
		return a.Range.At(k)
	}
	return a.Values[k]
}

// Profile is a named set of overrides of the base spec, such as "quick" for
// a fast preview and "full" for paper fidelity.
type Profile struct {
	Name       string
	Replicates int       // 0: keep the base value
	Adaptive   *Adaptive // replaces the base replicates (count or adaptive) when set
	Params     []Setting // added to the base params, replacing a same-named one
	Grid       []Axis    // an axis replaces the base axis of the same name; new ones are appended
	Cases      [][]Setting
	HasCases   bool // Cases replaces the base cases (even when empty)
	Pos        Position
}

// Plot is one figure drawn from the spec's data. X, Y and Series name
// parameters or metrics (by name, or by Parquet column name when two
// metrics share a name, like received_power in W and dBm); with Table set
// they may also name that table's columns.
type Plot struct {
	ID      string // names the output files: out/figures/<id>.svg
	Title   string
	Caption string
	Kind    string // "line" (default) or "table"
	Table   string // "" for the main table, or a model's second table
	X       string
	Y       []string
	Series  []string
	Where   []Setting // only rows with these parameter values
	XUnit   string    // display units (see units.Scale); "" is the base unit
	YUnit   string
	XLabel  string // filled by Parse when empty: "distance (km)"
	YLabel  string
	LogX    bool
	LogY    bool
	// XLim and YLim fix an axis range [min, max] in the display unit; nil
	// lets the data decide.
	XLim, YLim []float64
	// Labels renames curves in the legend: y name -> text.
	Labels map[string]string
	// Claims are the document's statements the figure is checked against
	// (see Claim); the report turns them into the figure's verdict.
	Claims []Claim
	Pos    Position
}

// Adaptive is the stopping rule of adaptive replicates: run Min
// replicates of every point, then more for the points whose metric's
// Student-t 95 % confidence interval has a half-width above CI95Rel times
// |mean|, up to Max.
type Adaptive struct {
	Min, Max int
	Metric   string  // the metric's column name
	CI95Rel  float64 // target half-width of the interval relative to |mean|
	Pos      Position
}

// DefaultSeed is the seed of a spec that names none.
const DefaultSeed = 1

// Spec is a validated sweep spec: a model, fixed parameters, grid axes and
// cases, replicates and plots. Values are typed and in SI base units.
type Spec struct {
	File        string // as given to Parse, used in positions
	Text        []byte // the spec source, stored in the output metadata
	Name        string // names the output directory out/<name>/
	Description string
	Model       string
	Seed        uint64
	// Replicates is the number of runs of each point; for an adaptive
	// spec it is Adaptive.Max, the most that may run.
	Replicates int
	// Adaptive, when set, asks for replicates until a metric's 95 %
	// confidence interval is narrow enough (replicates: {min, max, until}).
	Adaptive *Adaptive
	Params   []Setting
	Grid     []Axis
	Cases    [][]Setting
	Profiles []Profile // in file order
	Plots    []Plot

	// Profile is the profile Resolve applied; "" for the base spec.
	Profile string
}

// ParseFile reads and parses the spec at path within the default Limits.
func ParseFile(path string, reg *vocab.Registry) (*Spec, error) {
	return ParseFileLimited(path, reg, Limits{})
}

// Stdin is the path that names standard input (crosslink run -), and
// StdinName the file name its errors carry.
const (
	Stdin     = "-"
	StdinName = "<stdin>"
)

// ParseFileLimited reads and parses the spec at path within lim. It reads
// no more than the size limit allows, so a huge file costs no memory. The
// path "-" reads lim.Stdin, and is refused when that is nil. Anything but
// a regular file (a directory, a named pipe, a device) is refused before
// it is opened: opening a FIFO for reading waits for a writer, forever
// if none comes.
func ParseFileLimited(path string, reg *vocab.Registry, lim Limits) (*Spec, error) {
	lim = lim.withDefaults()
	if path == Stdin {
		if lim.Stdin == nil {
			return nil, fmt.Errorf("spec: -: this command reads no spec from standard input; give the spec's file")
		}
		data, err := readLimited(lim.Stdin, lim)
		if err != nil {
			return nil, fmt.Errorf("spec: standard input: %w", err)
		}
		return parse(StdinName, data, 0, reg, lim)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	switch {
	case st.IsDir():
		return nil, fmt.Errorf("spec: %s is a directory, not a spec file", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("spec: %s is %s, not a spec file: give a regular YAML file (crosslink run - reads a spec from standard input)", path, fileKind(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	data, err := readLimited(f, lim)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	return parse(path, data, size, reg, lim)
}

// readLimited reads r up to one byte past the size limit (and a BOM):
// the byte that shows a file that grew since Stat, or an input too long.
func readLimited(r io.Reader, lim Limits) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, int64(lim.MaxBytes)+int64(len(bom))+1))
}

// fileKind names the kind of a file that is not regular, for errors.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// Size returns the number of scenarios s expands to: the product of the
// axis lengths, times the number of cases (if any), times the replicates.
// It is a float64 so that an absurd spec reports its size instead of
// overflowing.
func (s *Spec) Size() float64 {
	n := float64(max(s.Replicates, 1))
	for _, a := range s.Grid {
		n *= float64(a.Len())
	}
	if len(s.Cases) > 0 {
		n *= float64(len(s.Cases))
	}
	return n
}
