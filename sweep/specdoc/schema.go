package specdoc

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

// SchemaFile is the file name crosslink schema -o DIR and crosslink init
// -o DIR write the schema to, and the name a starter spec's first line
// refers to: a YAML language server resolves it beside the spec.
const SchemaFile = "spec.schema.json"

// SchemaID is the $id of the schema: a name, not a place to fetch it from.
const SchemaID = "https://crosslink-sim.github.io/crosslink/spec.schema.json"

// obj is a JSON object whose keys encoding/json writes in sorted order,
// so the schema's bytes depend only on the registry.
type obj = map[string]any

// quantity returns the pattern of a number followed by one of the unit
// symbols Parse accepts for u: "16000km", "1 Gbps", "53.3ms", "0.5%";
// "1Gbs" matches none.
func quantity(u vocab.Unit) string {
	syms := units.Spellings(u)
	alts := make([]string, len(syms))
	for i, s := range syms {
		alts[i] = regexp.QuoteMeta(s)
	}
	return `^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*(` + strings.Join(alts, "|") + `)\s*$`
}

// JSONSchema returns the JSON Schema of a spec for the models of reg,
// indented for reading.
func JSONSchema(reg *vocab.Registry) ([]byte, error) {
	names := reg.Names()
	var perModel []any
	for _, name := range names {
		m, _ := reg.Lookup(name)
		perModel = append(perModel, modelRule(m.Schema()))
	}
	plotProps := obj{
		"id":      obj{"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$", "description": "names the files out/figures/<id>.{png,svg,pdf,csv}; a figure of the documents uses its id (rc13-fig6)"},
		"title":   obj{"type": "string"},
		"caption": obj{"type": "string"},
		"kind":    obj{"enum": []string{"line", "table"}, "default": "line"},
		"table":   obj{"type": "string", "description": "a second table of the model; empty for the main table"},
		"x":       obj{"type": "string", "description": "parameter or metric on the x axis"},
		"y":       obj{"description": "metrics on the y axis", "oneOf": []any{obj{"type": "string"}, obj{"type": "array", "items": obj{"type": "string"}}}},
		"series":  obj{"description": "parameters whose combinations make one curve each", "oneOf": []any{obj{"type": "string"}, obj{"type": "array", "items": obj{"type": "string"}}}},
		"where":   obj{"type": "object", "description": "keep only rows with these parameter values"},
		"xunit":   obj{"type": "string", "description": "display unit of x (km, ms, Mbps)"},
		"yunit":   obj{"type": "string"},
		"xlabel":  obj{"type": "string"},
		"ylabel":  obj{"type": "string"},
		"logx":    obj{"type": "boolean"},
		"logy":    obj{"type": "boolean"},
		"xlim":    obj{"type": "array", "items": obj{"type": "number"}, "minItems": 2, "maxItems": 2},
		"ylim":    obj{"type": "array", "items": obj{"type": "number"}, "minItems": 2, "maxItems": 2},
		"labels":  obj{"type": "object", "additionalProperties": obj{"type": "string"}, "description": "legend text per y name"},
		"claims": obj{"type": "array", "description": "the document's statements the figure is checked against; crosslink report gives the verdict", "items": obj{"oneOf": []any{
			obj{
				"type": "object", "additionalProperties": false, "required": []string{"claim", "source", "y"},
				"properties": obj{
					"claim":         obj{"type": "string", "description": "the statement, one sentence"},
					"source":        obj{"type": "string", "description": "document and figure or table it is read from"},
					"where":         obj{"type": "object", "description": "rows of the figure's CSV: column: value, or column: lo..hi for a range of numbers"},
					"relative_to":   obj{"type": "object", "description": "ours becomes the ratio of where's rows to these (where with these columns replaced)"},
					"relative_plot": obj{"type": "string", "description": "the figure whose CSV holds the reference of a relative claim (default: this one)"},
					"relative":      obj{"enum": []string{"ratio", "difference"}, "default": "ratio", "description": "ours over the reference, or ours minus it"},
					"at_max":        obj{"type": "string", "description": "ours is y in the selected row where this column is largest"},
					"y":             obj{"type": "string", "description": "the CSV column compared"},
					"document":      obj{"type": "number", "description": "the document's value"},
					"op":            obj{"enum": []string{"approx", "ge", "le", "between"}, "default": "approx"},
					"tol":           obj{"type": "object", "additionalProperties": false, "properties": obj{"rel": obj{"type": "number", "minimum": 0}, "abs": obj{"type": "number", "minimum": 0}}},
					"bounds":        obj{"type": "array", "items": obj{"type": "number"}, "minItems": 2, "maxItems": 2},
					"agg":           obj{"enum": []string{"mean", "min", "max"}, "default": "mean"},
				}},
			obj{
				"type": "object", "additionalProperties": false, "required": []string{"table", "source"},
				"description": "a claims table: the rows of a CSV file (relative to the spec) whose plot column is this plot's id, one claim each",
				"properties": obj{
					"table":  obj{"type": "string", "description": "the CSV file, relative to the spec's directory"},
					"source": obj{"type": "string", "description": "document and figure the table's values are read from, and the tolerance's source"},
				}},
		}}},
	}
	s := obj{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         SchemaID,
		"title":       "crosslink sweep spec",
		"description": "A sweep: a model, fixed parameters, grid axes, cases, profiles and plots. Quantities with a dimension take their unit (16000km, 1Gbps, 53.3ms); plain numbers are for dimensionless parameters. Generated by crosslink schema.",
		"type":        "object",
		"required":    []string{"name", "model"},
		"properties": obj{
			"name":        obj{"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$", "description": "names the dataset directory out/<name>/"},
			"description": obj{"type": "string"},
			"model":       obj{"enum": names, "description": "the model to run (crosslink models lists them)"},
			"seed":        obj{"type": "integer", "minimum": 0, "default": 1},
			"replicates":  obj{"$ref": "#/$defs/replicates", "default": 1},
			"params":      obj{"type": "object", "description": "fixed parameter values"},
			"grid":        obj{"type": "object", "description": "axes to cross: a list of values or a range {from, to, step|points, scale}"},
			"cases":       obj{"type": "array", "items": obj{"type": "object"}, "description": "explicit combinations crossed with the grid"},
			"profiles": obj{"type": "object", "description": "named overrides (quick, full)", "additionalProperties": obj{
				"type": "object", "additionalProperties": false,
				"properties": obj{
					"replicates": obj{"$ref": "#/$defs/replicates"},
					"params":     obj{"type": "object"},
					"grid":       obj{"type": "object"},
					"cases":      obj{"type": "array", "items": obj{"type": "object"}},
				},
			}},
			"plots": obj{"type": "array", "items": obj{
				"type": "object", "required": []string{"id"}, "additionalProperties": false, "properties": plotProps,
			}},
		},
		"additionalProperties": false,
		"allOf":                perModel,
		"$defs": obj{
			"replicates": obj{
				"description": "runs of each point, with different seeds: a count, or adaptive {min, max, until: {metric, ci95_rel}}: min replicates of every point, then more (up to max) where the metric's Student-t 95 % interval is wider than ci95_rel times |mean|",
				"oneOf": []any{
					obj{"type": "integer", "minimum": 1},
					obj{
						"type": "object", "additionalProperties": false, "required": []string{"min", "max", "until"},
						"properties": obj{
							"min": obj{"type": "integer", "minimum": 2, "description": "replicates every point runs"},
							"max": obj{"type": "integer", "minimum": 2, "description": "replicates no point exceeds"},
							"until": obj{
								"type": "object", "additionalProperties": false, "required": []string{"metric", "ci95_rel"},
								"properties": obj{
									"metric":   obj{"type": "string", "description": "a numeric metric of the model, by name or column name"},
									"ci95_rel": obj{"anyOf": []obj{{"type": "number", "exclusiveMinimum": 0}, {"type": "string", "pattern": `^\s*[0-9.]+(e[+-]?[0-9]+)?\s*%\s*$`}}, "description": "largest half-width of the 95 % interval relative to |mean|, in percent or as a number: 5% or 0.05"},
								},
							},
						},
					},
				},
			},
			"range": obj{
				"type": "object", "additionalProperties": false, "required": []string{"from", "to"},
				"properties": obj{
					"from":   obj{},
					"to":     obj{},
					"step":   obj{},
					"points": obj{"type": "integer", "minimum": 1},
					"scale":  obj{"enum": []string{"linear", "log"}},
				},
			},
		},
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("specdoc: %w", err)
	}
	return append(b, '\n'), nil
}

// modelRule is the if/then of one model: when model is this one, params,
// grid, cases and profiles may name only its parameters, with values of
// their type and range.
func modelRule(s *vocab.Schema) obj {
	values := obj{}
	axes := obj{}
	for _, p := range s.Params {
		v := value(p)
		values[p.Name] = v
		axes[p.Name] = obj{
			"description": v["description"],
			"anyOf":       []any{obj{"type": "array", "items": v, "minItems": 1}, obj{"$ref": "#/$defs/range"}, v},
		}
	}
	var metrics []string
	for _, m := range s.Metrics {
		if m.Kind == vocab.Float || m.Kind == vocab.Int {
			metrics = append(metrics, m.Name)
			if m.Column() != m.Name {
				metrics = append(metrics, m.Column())
			}
		}
	}
	slices.Sort(metrics)
	metrics = slices.Compact(metrics)
	// Adaptive replicates name one of the model's numeric metrics.
	replicates := obj{"if": obj{"type": "object"}, "then": obj{"properties": obj{"until": obj{"properties": obj{"metric": obj{"enum": metrics}}}}}}
	params := obj{"type": "object", "properties": values, "additionalProperties": false}
	grid := obj{"type": "object", "properties": axes, "additionalProperties": false}
	cases := obj{"type": "array", "items": params}
	return obj{
		"if": obj{"properties": obj{"model": obj{"const": s.Name}}, "required": []string{"model"}},
		"then": obj{
			"properties": obj{
				"params": params, "grid": grid, "cases": cases, "replicates": replicates,
				"profiles": obj{"additionalProperties": obj{"properties": obj{"params": params, "grid": grid, "cases": cases, "replicates": replicates}}},
			},
		},
	}
}

// value is the schema of one value of parameter p.
func value(p vocab.Param) obj {
	doc := p.Doc
	if p.Unit != vocab.Dimensionless {
		doc += fmt.Sprintf(" [%s]", p.Unit)
	}
	doc += fmt.Sprintf(" default %s", sweep.FormatValue(p.Default, p.Unit))
	if p.Bounded() {
		doc += fmt.Sprintf(", range %s .. %s", sweep.FormatValue(vocab.F(p.Min), p.Unit), sweep.FormatValue(vocab.F(p.Max), p.Unit))
	}
	switch p.Kind {
	case vocab.String:
		v := obj{"type": "string", "description": doc, "default": p.Default.Str()}
		if len(p.Choices) > 0 {
			v["enum"] = p.Choices
		}
		if p.File {
			// Or {file: PATH}, the text of a file relative to the spec.
			return obj{"description": doc, "default": p.Default.Str(), "anyOf": []obj{{"type": "string"}, {
				"type": "object", "additionalProperties": false, "required": []string{"file"},
				"properties": obj{"file": obj{"type": "string", "description": "the file whose text is the value, relative to the spec's directory"}},
			}}}
		}
		return v
	case vocab.Bool:
		return obj{"type": "boolean", "description": doc, "default": p.Default.Bool()}
	}
	num := obj{"type": "number"}
	if p.Kind == vocab.Int {
		num["type"] = "integer"
	}
	if p.Bounded() {
		num["minimum"], num["maximum"] = p.Min, p.Max
	}
	if p.Unit == vocab.Dimensionless {
		num["description"] = doc
		num["default"] = p.Default.Float()
		return num
	}
	// A quantity with a dimension needs its unit (the parser refuses
	// "distance: 16000000"), so the schema offers only the string form.
	what := " (a number with a unit of " + string(p.Unit) + ")"
	if p.Unit == vocab.Fraction {
		what = " (a percentage: 0.2% is stored as 0.002)"
	}
	return obj{
		"description": doc + what,
		"default":     sweep.FormatValue(p.Default, p.Unit),
		"examples":    []string{units.Format(p.Default.Float(), p.Unit)},
		"type":        "string",
		"pattern":     quantity(p.Unit),
	}
}
