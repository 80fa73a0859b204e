// Package golden compares a test's output with a golden file in testdata/
// and rewrites the file when the test runs with -update. It is the one
// copy of that helper for the root tests, plots and sweep/spec: a helper
// in a _test.go file cannot be imported by another package, and this one
// lives under internal/ so that only crosslink's own tests import it.
// Each test binary keeps its own -update flag and passes its value in
// (a flag registered here would be global state of every importer).
package golden
