package models

import (
	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine"
)

// leoParams returns leo-path's parameters with the given overrides.
func leoParams(t testing.TB, over map[string]engine.Value) engine.Params {
	t.Helper()
	s := NewLEOPath().Schema()
	vals := make([]engine.Value, len(s.Params))
	for i, p := range s.Params {
		vals[i] = p.Default
		if v, ok := over[p.Name]; ok {
			vals[i] = v
			delete(over, p.Name)
		}
	}
	if len(over) > 0 {
		t.Fatalf("unknown parameters %v", over)
	}
	return engine.NewParams(s, vals)
}

func runLEO(t testing.TB, over map[string]engine.Value) engine.Result {
	t.Helper()
	m := NewLEOPath()
	res, err := m.Run(context.Background(), leoParams(t, over), 1)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func leoMetric(res engine.Result, name string) engine.Value {
	s := NewLEOPath().Schema()
	for i, m := range s.Metrics {
		if m.Name == name {
			return res.Metrics[i]
		}
	}
	panic("no metric " + name)
}
