// Package dataset writes and reads the Parquet datasets of crosslink sweeps.
//
// The main table of a dataset has one row per scenario:
//
//	scenario_id  utf8     32 hex digits, see plan.ID
//	replicate    int64    0-based
//	seed         uint64   the scenario's random seed (see below)
//	<params>     typed    one column per model parameter, SI units in the name
//	<metrics>    typed    one column per metric; null when the scenario failed
//	status       utf8     ok | failed | panic | timeout | canceled
//	error        utf8     empty when ok
//	wall_s       float64  wall-clock seconds (of the copy, for a result another spec of the
//	                      same run computed); the only column that differs between runs
//
// The seed is stored as an unsigned 64-bit integer (Parquet INT64 with the
// logical type INT(64, false)) because seeds are full 64-bit hashes: pyarrow
// and pandas read it as uint64, DuckDB as UBIGINT and polars as UInt64, each
// without loss, so the value can be passed back to a model as it is. A signed
// column would show half the seeds as negative numbers.
//
// A dataset directory, out/<spec>/, holds one directory per table, each
// holding nothing but that table's parts, so that pyarrow, pandas, polars
// and DuckDB read a table directory as exactly that table with no options:
// the main table in scenarios/ (MainDir), each second table (per flow, per
// time sample) in <table>/ (TableDir) with the columns scenario_id,
// replicate and then the table's own, and the points table of an adaptive
// sweep in points/. A hive-partitioned dataset has the same partition
// directories below each table (see Partitioned). Everything else lives
// beside the tables, in names starting with "_" or ".": the manifest
// (_manifest/, a SHA-256 per part, see Verify), set-aside parts (_corrupt/,
// _stale/), locks, and files being written (.tmp/, .merge/). Migrate moves
// a dataset of the former layout (parts beside the lock file) into this one.
//
// Every part is first written under .tmp/, synced, recorded in the manifest
// and then renamed into its table, so a run killed at any moment leaves only
// whole part files in the tables. Merge builds a compacted table beside the
// old one and exchanges the two directories in one rename. Each field
// carries its unit and documentation in Arrow field metadata (keys "unit"
// and "doc"), stored with the Arrow schema in the file, and each file
// carries the spec text, its SHA-256, the crosslink, module, VCS, model and
// Go versions and the profile as key-value metadata in sorted key order.
package dataset
