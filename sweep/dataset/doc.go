// Package dataset writes and reads the Parquet datasets of crosslink sweeps.
//
// A dataset is a directory of part files, out/<spec>/part-<shard>-<seq>.parquet,
// that DuckDB, pandas/pyarrow and polars read as one table. The main table
// has one row per scenario:
//
//	scenario_id  utf8     32 hex digits, see plan.ID
//	replicate    int64    0-based
//	seed         uint64   the scenario's random seed (see below)
//	<params>     typed    one column per model parameter, SI units in the name
//	<metrics>    typed    one column per metric; null when the scenario failed
//	status       utf8     ok | failed | panic | timeout | canceled
//	error        utf8     empty when ok
//	wall_s       float64  wall-clock seconds; the only column that differs between runs
//
// The seed is stored as an unsigned 64-bit integer (Parquet INT64 with the
// logical type INT(64, false)) because seeds are full 64-bit hashes: pyarrow
// and pandas read it as uint64, DuckDB as UBIGINT and polars as UInt64, each
// without loss, so the value can be passed back to a model as it is. A signed
// column would show half the seeds as negative numbers.
//
// A model's second tables (per flow, per time sample) live in
// out/<spec>/_<table>/ (see TableDir; the leading "_" makes pyarrow and
// polars skip them when they read out/<spec>/ as the main table) with the columns scenario_id, replicate and then the
// table's own columns.
//
// Every part is first written to a hidden temporary name in the same
// directory (.part-*.tmp), synced and then renamed, so a run killed at any
// moment leaves only whole part files; readers skip temporary files. Each
// field carries its unit and documentation in Arrow field metadata (keys
// "unit" and "doc"), stored with the Arrow schema in the file, and each file
// carries the spec text, its SHA-256, the crosslink, model and Go versions
// and the profile as key-value metadata in sorted key order.
package dataset
