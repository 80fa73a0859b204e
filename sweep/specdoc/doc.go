// Package specdoc helps people write sweep specs in an editor: JSONSchema
// returns a JSON Schema (draft 2020-12) of the spec format with every
// model's parameters, units and ranges, so YAML-aware editors complete
// keys and flag wrong values, and Starter writes a commented starter spec
// for one model that parses and runs as it is, sweeping an axis its
// plotted metric answers to (TestStarterVaries in the crosslink command
// runs the fast models' starters and fails on a flat figure).
//
// The schema is a guide for editors; the spec parser stays the authority.
// It checks a quantity's unit only as "a number followed by a unit" (the
// parser knows which units fit which parameter) and checks ranges only on
// dimensionless parameters, whose values are plain numbers.
package specdoc
