package engine

import (
	"context"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// ErrEventLimit is wrapped by the error of a model whose simulation
// processed the event limit set with WithEventLimit. The sweep records such
// a scenario with status timeout, like one that ran past its wall-clock
// limit: both are runs that did not end in time, one in simulated events,
// one in seconds.
var ErrEventLimit = des.ErrMaxEvents

// WithEventLimit returns a context under which every discrete-event
// scheduler a model runs stops after n events with an error wrapping
// ErrEventLimit (n = 0: no limit). Closed-form models process no events
// and ignore it.
func WithEventLimit(ctx context.Context, n uint64) context.Context {
	return des.WithMaxEvents(ctx, n)
}

// EventLimit returns the limit set by WithEventLimit, or 0.
func EventLimit(ctx context.Context) uint64 { return des.MaxEventsOf(ctx) }
