// Package engine defines the contract between crosslink's simulation core and
// the sweep machinery: a Model declares its parameters and metrics in a
// Schema and maps (Params, seed) to a Result.
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
package engine
