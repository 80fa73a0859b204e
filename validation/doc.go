// Package validation compares crosslink's TCP models with ns-3, a peer
// simulator nobody here wrote.
//
// Each Scenario describes one network and TCP host once; from it the
// package derives both the crosslink parameters (tcp-bulk, tcp-transfer or
// tcp-compete) and the command line of one of the ns-3 programs in ns3/
// (link.cc for one flow over one link, dumbbell.cc for N flows sharing a
// bottleneck), so the two sides cannot drift apart. Where crosslink lacks an
// ns-3 knob, ns-3 is configured as crosslink behaves, and the scenario's
// notes record the mismatch.
//
// `make validate` installs ns-3 from Debian, builds the programs and runs
// cmd/validate, which runs every scenario for a handful of seeds in both
// simulators, writes the samples to results.csv and renders
// docs/validation.md from them. The tests check that the committed
// docs/validation.md is the rendering of the committed results.csv, that
// crosslink's committed samples are what the models give now (rerun
// without ns-3 by `go run ./validation/cmd/validate -side crosslink`), and
// that the numbers the findings quote from other runs of crosslink are too
// (findings_test.go).
package validation
