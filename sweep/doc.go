// Package sweep runs a sweep: every scenario of a plan through a model on a
// pool of workers, one Parquet row per scenario, resumable after a crash.
//
// Run is a bounded pipeline (golang.org/x/sync/errgroup): a producer hands
// out spans of scenario indices, N workers call the model and turn each
// outcome into a row (a model error or panic is a row with status failed or
// panic, never a crash), and one consumer appends the rows to the
// sweep/dataset part writers. Scenario ids and seeds depend only on the
// scenario, so the set of rows does not depend on the number of workers,
// the order they finish in, or which scenarios a previous run already did:
// a rerun after a crash or an interrupt skips the ids already in the
// dataset and writes the rest.
//
// Everything that touches the process (signals, the terminal, os.Stderr)
// stays with the caller: cancellation comes in through the context, and
// progress goes to the io.Writer in Config.
package sweep

// Version is the crosslink version recorded in every dataset.
const Version = "0.1.0"
