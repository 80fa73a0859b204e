// Package vocab is the vocabulary the simulation core, the sweep machinery and
// the figures share: a Model declares its parameters and metrics in a Schema
// of typed Values with Units, and maps (Params, seed) to a Result; a Registry
// holds the models; a context carries the simulated-event limit.
//
// It is a leaf: it imports nothing of crosslink, so that plots/ and sweep/
// can read and describe rows without linking the event scheduler, the
// network or TCP (DESIGN.md, Layout). engine/ packages implement models;
// sweep/ runs them; plots/ draws their rows.
//
// Everything below engine/ is pure: no file I/O, no goroutines inside a
// scenario, no global state. A model's Run is a deterministic function of its
// parameters and seed, which is what lets sweep/ run scenarios in any order,
// on any number of workers or Slurm tasks, and still write the same rows.
//
// Values are stored in SI base units (metres, seconds, bit/s, watts, bytes);
// the Unit of a parameter or metric names that base unit and gives the
// suffix of its Parquet column, so "distance" in metres becomes the column
// "distance_m".
package vocab
