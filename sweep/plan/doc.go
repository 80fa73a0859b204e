// Package plan turns a sweep spec into scenarios and gives each its id and
// seed.
//
// A scenario id is the hash of the model name and version, every parameter
// value in canonical form (in parameter-name order) and the replicate
// number; its seed is the hash of the spec seed and the id (see ID and
// Seed). So a scenario's id, seed and results depend only on what it
// computes: not on the order of grid axes in the YAML, not on whether a
// value came from params, a grid axis or a case, not on which other
// scenarios the grid holds, and not on the worker or shard that runs it.
// Adding a value to an axis keeps every old scenario and its id, so a
// resumed sweep runs only the new ones.
//
// A Plan (New) is a Source: an indexable list whose At builds scenario i on
// demand by mixed-radix decoding of i. It never materialises the grid, so a
// million-scenario spec costs the memory of its axes, and At is safe for
// concurrent use by the worker pool. Index order is replicate (outermost),
// case, then grid axes in spec order, the last fastest.
package plan
