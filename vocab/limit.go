package vocab

import (
	"context"
	"errors"
)

// ErrEventLimit is wrapped by the error of a model whose simulation
// processed the event limit set with WithEventLimit. The sweep records such
// a scenario with status timeout, like one that ran past its wall-clock
// limit: both are runs that did not end in time, one in simulated events,
// one in seconds. engine/des returns it (as des.ErrMaxEvents).
var ErrEventLimit = errors.New("event budget exhausted")

// eventLimitKey carries an event budget in a context.
type eventLimitKey struct{}

// WithEventLimit returns a context under which every discrete-event
// scheduler a model runs stops after n events with an error wrapping
// ErrEventLimit (n = 0: no limit). Closed-form models process no events
// and ignore it. The budget lives here, not in engine/des, so that the
// sweep can set it without linking the scheduler.
func WithEventLimit(ctx context.Context, n uint64) context.Context {
	return context.WithValue(ctx, eventLimitKey{}, n)
}

// EventLimit returns the limit set by WithEventLimit, or 0.
func EventLimit(ctx context.Context) uint64 {
	n, _ := ctx.Value(eventLimitKey{}).(uint64)
	return n
}
