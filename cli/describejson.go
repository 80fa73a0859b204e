package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/crosslink-sim/crosslink/sweep"
	"github.com/crosslink-sim/crosslink/vocab"
)

// The --json forms of models, describe and expand: the same facts as the
// tables, for scripts. Values are in SI base units, as in the Parquet
// columns, with the unit named beside them.

type modelJSON struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
	Summary string `json:"summary"`
}

// listModelsJSON writes the models as a JSON array.
func listModelsJSON(w io.Writer, reg *vocab.Registry) error {
	out := []modelJSON{}
	for _, name := range reg.Names() {
		m, _ := reg.Lookup(name)
		s := m.Schema()
		out = append(out, modelJSON{s.Name, s.Version, firstSentence(s.Doc)})
	}
	return writeJSON(w, out)
}

type paramJSON struct {
	Name    string   `json:"name"`
	Column  string   `json:"column"`
	Type    string   `json:"type"`
	Unit    string   `json:"unit,omitempty"`
	Default any      `json:"default"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	Choices []string `json:"choices,omitempty"`
	Doc     string   `json:"doc"`
}

type columnJSON struct {
	Name   string `json:"name"`
	Column string `json:"column"`
	Type   string `json:"type"`
	Unit   string `json:"unit,omitempty"`
	Doc    string `json:"doc"`
}

type tableJSON struct {
	Name    string       `json:"name"`
	Doc     string       `json:"doc"`
	Columns []columnJSON `json:"columns"`
}

type schemaJSON struct {
	Name            string       `json:"name"`
	Version         int          `json:"version"`
	Doc             string       `json:"doc"`
	Params          []paramJSON  `json:"params"`
	Metrics         []columnJSON `json:"metrics"`
	Tables          []tableJSON  `json:"tables"`
	ReservedColumns []string     `json:"reserved_columns"`
}

// describeJSON writes a model's schema as one JSON object.
func describeJSON(w io.Writer, s *vocab.Schema) error {
	out := schemaJSON{Name: s.Name, Version: s.Version, Doc: s.Doc, Params: []paramJSON{},
		Metrics: columnsJSON(s.Metrics), Tables: []tableJSON{}, ReservedColumns: vocab.ReservedColumns()}
	for _, p := range s.Params {
		pj := paramJSON{Name: p.Name, Column: p.Column(), Type: p.Kind.String(), Unit: string(p.Unit),
			Default: jsonValue(p.Default), Choices: p.Choices, Doc: p.Doc}
		if p.Bounded() {
			lo, hi := p.Min, p.Max
			pj.Min, pj.Max = &lo, &hi
		}
		out.Params = append(out.Params, pj)
	}
	for _, t := range s.Tables {
		out.Tables = append(out.Tables, tableJSON{t.Name, t.Doc, columnsJSON(t.Columns)})
	}
	return writeJSON(w, out)
}

func columnsJSON(ms []vocab.Metric) []columnJSON {
	out := []columnJSON{}
	for _, m := range ms {
		out = append(out, columnJSON{m.Name, m.Column(), m.Kind.String(), string(m.Unit), m.Doc})
	}
	return out
}

// jsonValue is v as a JSON value: a number, string or boolean; a
// non-finite float (which JSON cannot hold) as its text.
func jsonValue(v vocab.Value) any {
	switch v.Kind() {
	case vocab.Float:
		if x := v.Float(); !math.IsNaN(x) && !math.IsInf(x, 0) {
			return x
		}
		return v.String()
	case vocab.Int:
		return v.Int()
	case vocab.Bool:
		return v.Bool()
	}
	return v.Str()
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

type scenarioJSON struct {
	Index     int            `json:"index"`
	ID        string         `json:"scenario_id"`
	Replicate int            `json:"replicate"`
	Seed      uint64         `json:"seed"`
	Params    map[string]any `json:"params"`
}

// expandJSON writes the job's scenarios as one JSON object whose
// "scenarios" array holds every scenario (or the first limit) with all of
// its parameters by column name. It streams the array, so a plan of any
// size costs the memory of one scenario.
func expandJSON(w io.Writer, j *sweep.Job, limit int) error {
	bw := bufio.NewWriter(w)
	s := j.Plan.Schema()
	n := j.Plan.Len()
	shown := n
	if limit > 0 && limit < n {
		shown = limit
	}
	head, err := json.Marshal(struct {
		Spec    string `json:"spec"`
		Profile string `json:"profile"`
		Model   string `json:"model"`
		Count   int    `json:"count"`
		Shown   int    `json:"shown"`
	}{j.Spec.Name, j.Profile, s.Name, n, shown})
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	bw.Write(head[:len(head)-1])
	bw.WriteString(`,"scenarios":[`)
	for k := range shown {
		sc := j.Plan.At(k)
		row := scenarioJSON{Index: k, ID: sc.ID, Replicate: sc.Replicate, Seed: sc.Seed, Params: map[string]any{}}
		for i, v := range sc.Params.Values() {
			row.Params[s.Params[i].Column()] = jsonValue(v)
		}
		b, err := json.Marshal(row)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		if k > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n")
		bw.Write(b)
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}
