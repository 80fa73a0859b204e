package des

import (
	"context"

	"github.com/crosslink-sim/crosslink/vocab"
)

// WithMaxEvents returns a context whose schedulers stop with ErrMaxEvents
// after n events (n = 0: no budget). A scheduler's own MaxEvents, when set,
// takes precedence. The budget is the one the sweep runner sets with
// vocab.WithEventLimit for its per-scenario simulated-event limit, so a
// model need not pass the limit on itself.
func WithMaxEvents(ctx context.Context, n uint64) context.Context {
	return vocab.WithEventLimit(ctx, n)
}

// MaxEventsOf returns the event budget carried by ctx, or 0.
func MaxEventsOf(ctx context.Context) uint64 { return vocab.EventLimit(ctx) }
