// Command crosslink runs sweeps of satellite and optical link models and
// draws the figures of the source documents. See README.md.
//
// main gathers what the program takes from the operating system and
// passes it to the command line package, cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/crosslink-sim/crosslink/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], &cli.Env{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Terminal:   term.IsTerminal(int(os.Stderr.Fd())),
		Getenv:     os.Getenv,
		Executable: os.Executable,
	})
	stop()
	os.Exit(code)
}
