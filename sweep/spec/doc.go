// Package spec reads sweep specs: YAML files that name a model, fix some
// of its parameters, and list the values to sweep.
//
//	name: rc13-fig6               # required; names out/<name>/
//	description: BER vs distance
//	model: fso-ber                # crosslink models lists them
//	seed: 1                       # default 1
//	replicates: 1                 # default 1
//	params:                       # fixed values over the model defaults
//	  power: 0.9W
//	grid:                         # axes crossed with each other
//	  distance: [16000km, 25000km, 50000km, 80000km]
//	  bit_rate: {from: 1Gbps, to: 4Gbps, step: 1Gbps}   # or {from, to, points: N, scale: linear|log}
//	cases:                        # explicit combinations, crossed with the grid
//	  - {detection: direct}
//	  - {detection: coherent, wavelength: 1550nm}
//	profiles:                     # named overrides (crosslink run --profile quick)
//	  quick: {grid: {distance: {from: 10000km, to: 90000km, points: 41}}}
//	  full:  {replicates: 10}
//	plots:
//	  - {id: rc13-fig6, x: distance, y: [ber], series: [detection, bit_rate], xunit: km, logy: true}
//
// Parsing is strict, because a typo in an overnight sweep costs a night:
// unknown keys, duplicate keys, wrong types, missing or wrong units (see
// package units), values out of range or outside a parameter's choices are
// all errors. Parse collects every error of a file and returns them as an
// ErrorList sorted by position, each "file:line:col: message" with the
// nearest valid name where there is one.
//
// Decisions:
//   - A parameter is set in one place only: params, a grid axis, or cases.
//     A case that sets a grid axis or a parameter of params is an error, as
//     are two identical cases and an axis that lists a value twice (each
//     would run the same scenario twice).
//   - Integer parameters with a unit need it: a Byte parameter is written
//     mtu: 9000B, not mtu: 9000.
//   - Ranges round generated values to 15 significant digits, so
//     {from: 0.1, to: 0.3, step: 0.1} and [0.1, 0.2, 0.3] are the same
//     values and the same scenarios; a log range over whole decades
//     puts its points a whole number of decades from from at from
//     shifted by them, exactly ({from: 1e-9, to: 1e-3, points: 4,
//     scale: log} is [1e-9, 1e-7, 1e-5, 1e-3]). A step must land on to:
//     {from: 1W, to: 2W, step: 0.3W} is an error naming 1.9W, the last
//     value it reaches, rather than an axis that stops short of what
//     the spec says.
//   - A profile's params and grid axes replace the base ones of the same
//     name (or add new ones); its cases, when given, replace the base
//     cases. Every profile is validated by Parse, so Resolve cannot fail
//     on a profile that exists.
//   - A spec (and each profile) may expand to at most MaxScenarios.
//   - Plot x, y and series name parameters or metrics, by name or by
//     Parquet column name; a metric name that two metrics share (a power in
//     W and in dBm) must be written as its column. Parse fills Kind
//     ("line") and empty axis labels ("distance (km)").
//   - A plot's claims may name a claims table, {table: file.csv, source:
//     text}: a CSV beside the spec whose rows of that plot are claims
//     (claimtable.go), so that hundreds of values read off a document's
//     images stay out of the YAML. Its errors name the CSV's
//     file:line:col. A spec parsed from the text a dataset recorded (its
//     file not on disk) reads no table: running or describing a sweep
//     needs no claims.
package spec
