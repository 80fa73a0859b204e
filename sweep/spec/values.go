package spec

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/crosslink-sim/crosslink/sweep/units"
	"github.com/crosslink-sim/crosslink/vocab"
)

func sortStrings(s []string) { sort.Strings(s) }

// value reads one value of prm: a scalar with the parameter's unit, of its
// kind, inside its range and choices.
func (p *parser) value(prm vocab.Param, n ast.Node) (vocab.Value, bool) {
	pos := p.pos(n)
	if !p.spend(pos) {
		return vocab.Value{}, false
	}
	node := p.unwrap(n)
	if prm.File && prm.Kind == vocab.String {
		switch node.(type) {
		case *ast.MappingNode, *ast.MappingValueNode:
			return p.fileValue(prm, node)
		}
	}
	text, ok := p.scalar(node)
	if !ok {
		switch node.(type) {
		case nil, *ast.NullNode:
			p.errorf(pos, "%s has no value", prm.Name)
		default:
			p.errorf(pos, "%s takes one value, not %s", prm.Name, describe(node))
		}
		return vocab.Value{}, false
	}
	var v vocab.Value
	switch prm.Kind {
	case vocab.Bool:
		b, isBool := node.(*ast.BoolNode)
		if !isBool {
			hint := ""
			if t := strings.ToLower(text); t == "true" || t == "false" {
				// "true" in quotes, or YAML 1.1's True: a string to YAML 1.2.
				hint = fmt.Sprintf(" (a string; write %s, without quotes)", t)
			}
			p.errorf(pos, "%s must be true or false, not %q%s", prm.Name, text, hint)
			return v, false
		}
		v = vocab.B(b.Value)
	case vocab.String:
		v = vocab.S(text)
		if len(prm.Choices) > 0 && !contains(prm.Choices, text) {
			p.errorf(pos, "%s: %q is not one of %s%s", prm.Name, text, strings.Join(prm.Choices, ", "), suggestOnly(text, prm.Choices))
			return v, false
		}
	case vocab.Float, vocab.Int:
		if _, isBool := node.(*ast.BoolNode); isBool {
			p.errorf(pos, "%s must be a number, not %s", prm.Name, text)
			return v, false
		}
		x, ok := p.number(prm, text, pos)
		if !ok {
			return v, false
		}
		v = vocab.F(x)
		if prm.Kind == vocab.Int {
			v = vocab.I(int64(x))
		}
	default:
		p.errorf(pos, "%s has kind %s, which specs cannot set", prm.Name, prm.Kind)
		return v, false
	}
	if err := check(prm, v); err != nil {
		p.errorf(pos, "%s", err)
		return v, false
	}
	return v, true
}

// number reads a quantity of prm's unit; for an Int parameter it must be
// a whole number.
func (p *parser) number(prm vocab.Param, text string, pos Position) (float64, bool) {
	if prm.Kind == vocab.Int && prm.Unit == vocab.Dimensionless {
		if n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64); err == nil {
			return float64(n), true
		}
	}
	x, err := units.Parse(text, prm.Unit)
	if err != nil {
		var ue *units.Error
		if errors.As(err, &ue) {
			p.errorf(pos, "%s: %s", prm.Name, ue.Msg)
		} else {
			p.errorf(pos, "%s: %v", prm.Name, err)
		}
		return 0, false
	}
	if prm.Kind == vocab.Int && (x != math.Trunc(x) || math.Abs(x) >= 1<<63) {
		what := "whole number"
		if prm.Unit != vocab.Dimensionless {
			what += " of " + string(prm.Unit)
		}
		p.errorf(pos, "%s: %q is not a %s", prm.Name, text, what)
		return 0, false
	}
	return x, true
}

// check is prm.Check(v) with a number out of range said in the units a
// spec writes and describe shows ("5Tbps is out of range 1kbps .. 1Tbps",
// not in bit/s).
func check(prm vocab.Param, v vocab.Value) error {
	err := prm.Check(v)
	if err == nil || !prm.Bounded() || (v.Kind() != vocab.Float && v.Kind() != vocab.Int) {
		return err
	}
	if x := v.Float(); x < prm.Min || x > prm.Max {
		f := func(x float64) string { return display(vocab.F(x), prm.Unit) }
		if v.Kind() == vocab.Int && prm.Unit == vocab.Dimensionless {
			f = func(x float64) string { return vocab.I(int64(x)).String() }
		}
		return fmt.Errorf("%s = %s is out of range %s .. %s", prm.Name, f(x), f(prm.Min), f(prm.Max))
	}
	return err
}

func display(v vocab.Value, u vocab.Unit) string {
	if v.Kind() == vocab.Float || (v.Kind() == vocab.Int && u != vocab.Dimensionless) {
		return units.Format(v.Float(), u)
	}
	return v.String()
}

func unitMsg(err error) string {
	var ue *units.Error
	if errors.As(err, &ue) {
		return ue.Msg
	}
	return err.Error()
}
