// Package cli is the crosslink command line: its subcommands (cobra,
// built afresh for each Run from an injected Env, with no package-level
// command), their flags mapped to calls of the sweep and plots packages,
// and the presenters that print what those calls return (models,
// describe, expand, status, as tables or JSON).
//
// main gathers everything the program takes from the operating system
// (arguments, standard streams, whether stderr is a terminal, signals)
// into an Env and calls Run; the exit code Run returns is the process's:
// 0 done, 1 scenarios failed or a run-time error, 2 a mistake in the
// command line or a spec, 130 stopped by a signal.
package cli
