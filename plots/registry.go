package plots

import (
	"context"
	"fmt"
	"sort"

	"gonum.org/v1/plot/vg"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Figure is one figure or table crosslink regenerates.
type Figure struct {
	ID      string // "rc13-fig6", as in the list of the source documents' figures
	Caption string // the source document's caption, with its number
	// Draw draws the figure. Nil means the generic drawing of the spec's
	// plots entry by its kind (Line for "line").
	Draw DrawFunc
}

// DrawFunc draws one figure from its input.
type DrawFunc func(ctx context.Context, in Input) (*Output, error)

// Input is what a figure is drawn from: its plots entry, the model schema
// of the spec that declares it, and that spec's rows.
type Input struct {
	Def    Def
	Schema *vocab.Schema
	Source *Source
	Theme  Theme
	Scale  Scaler
}

// Frame returns the rows of the figure's table (Def.Table), restricted to
// the scenarios of the spec's plan. Rows of a second table get their
// scenario's parameters and status joined in (JoinParams), so its figures
// can name parameters as series and filters like main-table figures.
func (in Input) Frame(ctx context.Context) (*Frame, error) {
	f, err := in.Source.Load(ctx, in.Def.Table)
	if err != nil || in.Def.Table == "" {
		return f, err
	}
	main, err := in.Source.Load(ctx, "")
	if err != nil {
		return nil, err
	}
	return JoinParams(f, main, in.Schema)
}

// Output is a drawn figure.
type Output struct {
	Art Drawer // drawn to <id>.png, .svg and .pdf
	// Width and Height are the page of a figure that needs another than
	// the theme's (several panels), set for the default theme's 16 x 10
	// cm: a theme of another size scales them in proportion. Zero takes
	// the theme's page.
	Width, Height vg.Length
	Data          *Table   // the plotted numbers, written to <id>.csv
	Markdown      bool     // also write Data to <id>.md (table figures)
	Notes         []string // what was left out and why
	// Problems are what a reader of the figure would trip over: an axis
	// without enough labelled ticks, data outside the axes. Draw adds the
	// axis checks; the figure's sidecar lists them and the figure tests
	// fail on any.
	Problems []string
	// Comparison sets numbers the source document prints beside ours
	// (usually built with Comparison.Header and Comparison.Row). It is
	// written to <id>.compare.md and .csv, and the reproduction report
	// shows it under the figure; a table figure whose Data already is such
	// a comparison leaves it nil.
	Comparison *Table
}

// Registry holds the figures crosslink knows by id and the theme they are
// drawn in. Build it with NewRegistry; it is read-only while drawing.
type Registry struct {
	Theme Theme
	Scale Scaler
	figs  map[string]Figure
}

// Add registers a figure; ids are unique.
func (r *Registry) Add(f Figure) error {
	if f.ID == "" {
		return fmt.Errorf("plots: a figure has no id")
	}
	if _, dup := r.figs[f.ID]; dup {
		return fmt.Errorf("plots: two figures are called %q", f.ID)
	}
	r.figs[f.ID] = f
	return nil
}

// Lookup returns the figure called id.
func (r *Registry) Lookup(id string) (Figure, bool) {
	f, ok := r.figs[id]
	return f, ok
}

// IDs returns the registered figure ids in sorted order.
func (r *Registry) IDs() []string {
	ids := make([]string, 0, len(r.figs))
	for id := range r.figs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// drawFunc returns how to draw d: the registered figure's own function, or
// the generic one of its kind.
func (r *Registry) drawFunc(d Def) (DrawFunc, string, error) {
	f, ok := r.figs[d.ID]
	if ok && f.Draw != nil {
		return f.Draw, f.Caption, nil
	}
	switch d.kind() {
	case KindLine:
		return func(ctx context.Context, in Input) (*Output, error) {
			fr, err := in.Frame(ctx)
			if err != nil {
				return nil, err
			}
			return Line(in, fr)
		}, f.Caption, nil
	case KindTable:
		return nil, "", fmt.Errorf("plots: figure %s: a table needs a registered figure to lay it out", d.ID)
	}
	return nil, "", fmt.Errorf("plots: figure %s: unknown kind %q (want line or table)", d.ID, d.Kind)
}
