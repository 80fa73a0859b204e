package des

import "context"

// maxEventsKey carries an event budget in a context.
type maxEventsKey struct{}

// WithMaxEvents returns a context whose schedulers stop with ErrMaxEvents
// after n events (n = 0: no budget). A scheduler's own MaxEvents, when set,
// takes precedence. The sweep runner uses it for its per-scenario
// simulated-event limit, so a model need not pass the limit on itself.
func WithMaxEvents(ctx context.Context, n uint64) context.Context {
	return context.WithValue(ctx, maxEventsKey{}, n)
}

// MaxEventsOf returns the event budget carried by ctx, or 0.
func MaxEventsOf(ctx context.Context) uint64 {
	n, _ := ctx.Value(maxEventsKey{}).(uint64)
	return n
}
