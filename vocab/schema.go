package vocab

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// Model is one sweepable simulation: closed-form (a BER curve) or
// packet-level (TCP over a link). Implementations live in engine/models.
//
// Run must be a pure function of (p, seed): same inputs, same Result, on any
// machine and in any goroutine. It may be called concurrently from several
// workers, so a Model holds no mutable state. Long runs should return
// ctx.Err() soon after ctx is cancelled.
type Model interface {
	Schema() *Schema
	Run(ctx context.Context, p Params, seed uint64) (Result, error)
}

// CostEstimator is implemented by models that can guess the relative cost of
// a scenario (for example simulated seconds times link rate). The sweep uses
// it to balance shards; the unit is arbitrary but consistent within a model.
type CostEstimator interface {
	Cost(p Params) float64
}

// MemoryEstimator is implemented by models whose scenarios can need more
// memory than a machine has (the state of a whole constellation grows with
// its satellites, stations, flows and tables). The sweep asks it about
// every point of a spec when the spec loads, and refuses the spec at the
// line and column of the parameter the estimate names, with the estimate
// and the limit, rather than let a scenario exhaust the machine.
type MemoryEstimator interface {
	Memory(p Params) (MemoryEstimate, error)
}

// MemoryEstimate is a model's estimate of one scenario's peak memory.
type MemoryEstimate struct {
	Bytes int64 // peak resident memory of the process running the scenario alone
	// Limit is the most the model allows one scenario, bytes; 0 is no
	// limit of its own (the machine's memory still applies).
	Limit int64
	// Param is the parameter whose value drives the estimate most: the
	// one a user would change, whose line the refusal names.
	Param string
	// Detail gives the parts of the estimate, for the message.
	Detail string
}

// Schema describes a model: its identity, its parameters and what it measures.
type Schema struct {
	Name    string // registry name, e.g. "fso-ber"
	Version int    // bump when results change for the same parameters
	Doc     string // one paragraph: what the model computes and its sources
	Params  []Param
	Metrics []Metric // the main table: one row per scenario
	Tables  []Table  // optional second tables: per flow, per time sample
	// Exclusive lists groups of parameters that say one thing in several
	// forms (a queue limit in packets or as a fraction of the BDP): a
	// scenario may set at most one parameter of a group to a non-zero
	// value. Specs are checked against it when they load, so a spec that
	// sets two forms is refused at its lines, not scenario by scenario.
	Exclusive [][]string

	indexOnce sync.Once
	index     map[string]int
}

// Param declares one parameter of a model.
type Param struct {
	Name    string // spec key: "distance"
	Kind    Kind
	Unit    Unit
	Default Value    // used when a spec does not set the parameter
	Min     float64  // inclusive range for Float and Int; both 0 means unbounded
	Max     float64  //
	Choices []string // the allowed values of a String parameter; empty = any
	// Syntax checks a String parameter that is not one of a few choices
	// but has a grammar (a list of algorithm names, an empirical CDF), so
	// that a spec is refused when it is read, not when a scenario runs.
	Syntax func(string) error
	// File lets a spec give a String parameter's value as {file: PATH}:
	// the text of that file, PATH relative to the spec's directory, read
	// when the spec loads, so that a scenario (and its id) holds the text
	// itself, not a name. Errors of Syntax that are TextErrors are then
	// placed in that file (file:line:col).
	File bool
	Doc  string
}

// Column returns the parameter's Parquet column name ("distance_m").
func (p Param) Column() string { return ColumnName(p.Name, p.Unit) }

// Is reports whether a spec's name for a quantity, its name or its
// column, is p.
func (p Param) Is(name string) bool { return p.Name == name || p.Column() == name }

// Bounded reports whether p has a numeric range to check.
func (p Param) Bounded() bool { return p.Min != 0 || p.Max != 0 }

// Check returns an error if v is not an acceptable value for p.
func (p Param) Check(v Value) error {
	if v.Kind() != p.Kind {
		return fmt.Errorf("%s must be a %s, not a %s", p.Name, p.Kind, v.Kind())
	}
	switch p.Kind {
	case Float, Int:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s must be finite", p.Name)
		}
		if p.Bounded() && (x < p.Min || x > p.Max) {
			return fmt.Errorf("%s = %s is out of range [%s, %s]", p.Name,
				FormatQuantity(x, p.Unit), FormatQuantity(p.Min, p.Unit), FormatQuantity(p.Max, p.Unit))
		}
	case String:
		if p.Syntax != nil {
			if err := p.Syntax(v.Str()); err != nil {
				return fmt.Errorf("%s = %q: %w", p.Name, v.Str(), err)
			}
		}
		if len(p.Choices) == 0 {
			return nil
		}
		for _, c := range p.Choices {
			if v.Str() == c {
				return nil
			}
		}
		return fmt.Errorf("%s = %q is not one of %q", p.Name, v.Str(), p.Choices)
	}
	return nil
}

// FormatQuantity prints x with its unit for messages ("1.6e+07 m").
func FormatQuantity(x float64, u Unit) string {
	s := F(x).Canonical()
	if u != Dimensionless {
		s += " " + string(u)
	}
	return s
}

// Metric declares one output column: a metric of the main table, or a
// column of a second table.
type Metric struct {
	Name string // "ber", "received_power" (the unit suffix is added)
	Kind Kind
	Unit Unit
	Doc  string
}

// Column returns the Parquet column name ("received_power_w").
func (m Metric) Column() string { return ColumnName(m.Name, m.Unit) }

// Is reports whether a spec's name for a quantity, its name or its
// column, is m.
func (m Metric) Is(name string) bool { return m.Name == name || m.Column() == name }

// Table declares a second table a model writes, such as one row per flow or
// one row per time sample. Its rows are keyed by scenario_id in the dataset.
type Table struct {
	Name    string // "flows", "timeseries": becomes the table out/<spec>/<name>/ (sweep/dataset's TableDir)
	Doc     string
	Columns []Metric
}

// Result is what one scenario produced.
type Result struct {
	// Metrics is aligned with Schema.Metrics.
	Metrics []Value
	// Tables[i] holds the rows of Schema.Tables[i]; each row is aligned with
	// that table's Columns.
	Tables [][][]Value
}

// Params is the full, validated parameter set of one scenario, aligned with
// its Schema.Params. It is read by name through typed accessors.
type Params struct {
	schema *Schema
	vals   []Value
}

// NewParams binds vals (aligned with s.Params) to s. It panics if the
// lengths differ: that is a bug in the caller, not a user error.
func NewParams(s *Schema, vals []Value) Params {
	if len(vals) != len(s.Params) {
		panic(fmt.Sprintf("vocab: bug: %d values for %d parameters of %s", len(vals), len(s.Params), s.Name))
	}
	return Params{schema: s, vals: vals}
}

// Defaults returns the parameter set with every default value.
func (s *Schema) Defaults() Params {
	vals := make([]Value, len(s.Params))
	for i, p := range s.Params {
		vals[i] = p.Default
	}
	return NewParams(s, vals)
}

// MetricIndex returns the position of the metric called name, or -1.
func (s *Schema) MetricIndex(name string) int {
	for i, m := range s.Metrics {
		if m.Name == name {
			return i
		}
	}
	return -1
}

// ParamIndex returns the position of the parameter called name, or -1.
func (s *Schema) ParamIndex(name string) int {
	s.indexOnce.Do(s.buildIndex)
	if i, ok := s.index[name]; ok {
		return i
	}
	return -1
}

func (s *Schema) buildIndex() {
	s.index = make(map[string]int, len(s.Params))
	for i, p := range s.Params {
		s.index[p.Name] = i
	}
}

// Schema returns the schema the parameters belong to.
func (p Params) Schema() *Schema { return p.schema }

// Values returns the values aligned with Schema().Params. Do not modify.
func (p Params) Values() []Value { return p.vals }

// Get returns the value of the parameter called name; it panics for an
// unknown name because models only ask for parameters they declared.
func (p Params) Get(name string) Value {
	i := p.schema.ParamIndex(name)
	if i < 0 {
		panic(fmt.Sprintf("vocab: bug: model %s has no parameter %q", p.schema.Name, name))
	}
	return p.vals[i]
}

// Float returns a Float or Int parameter as float64.
func (p Params) Float(name string) float64 { return p.Get(name).Float() }

// Int returns an Int parameter.
func (p Params) Int(name string) int64 { return p.Get(name).Int() }

// Str returns a String parameter.
func (p Params) Str(name string) string { return p.Get(name).Str() }

// Bool returns a Bool parameter.
func (p Params) Bool(name string) bool { return p.Get(name).Bool() }

// With returns a copy of p with the named parameter set to v.
func (p Params) With(name string, v Value) Params {
	vals := append([]Value(nil), p.vals...)
	i := p.schema.ParamIndex(name)
	if i < 0 {
		panic(fmt.Sprintf("vocab: bug: model %s has no parameter %q", p.schema.Name, name))
	}
	vals[i] = v
	return NewParams(p.schema, vals)
}
