// Command validate runs every scenario of package validation in crosslink
// and in the ns-3 programs built in -ns3, writes the samples to -data and
// renders the agreement table to -doc (see `make validate`).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/validation"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "validate:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, log io.Writer) error {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	ns3 := fs.String("ns3", "bin/validation", "directory of the built ns-3 programs (link, dumbbell)")
	seeds := fs.Int("seeds", 5, "seeds (ns-3 RngRun 1..n, crosslink seed 1..n) per scenario")
	data := fs.String("data", "validation/results.csv", "samples file to write")
	doc := fs.String("doc", "docs/validation.md", "report to write")
	only := fs.String("only", "", "comma-separated scenario names to run (default all); the others keep their samples from -data")
	render := fs.Bool("render", false, "only render -doc from -data")
	side := fs.String("side", "", "run only this simulator (ns-3 or crosslink) and keep the other's samples from -data")
	if err := fs.Parse(args); err != nil {
		return err
	}
	scen := validation.Scenarios()
	var samples []validation.Sample
	if !*render {
		reg, err := models.Registry()
		if err != nil {
			return err
		}
		cl := &validation.CrosslinkRunner{Registry: reg}
		want := map[string]bool{}
		for _, n := range strings.Split(*only, ",") {
			if n != "" {
				want[n] = true
			}
		}
		if *side != "" && *side != string(validation.NS3) && *side != string(validation.Crosslink) {
			return fmt.Errorf("-side %q: want ns-3 or crosslink", *side)
		}
		keep := func(s validation.Sample) bool {
			return (len(want) > 0 && !want[s.Scenario]) || (*side != "" && string(s.Side) != *side)
		}
		if len(want) > 0 || *side != "" {
			old, err := validation.ReadSamplesFile(*data)
			if err != nil {
				return err
			}
			known := map[string]bool{}
			for _, s := range scen {
				known[s.Name] = true
			}
			for _, s := range old {
				if known[s.Scenario] && keep(s) {
					samples = append(samples, s)
				}
			}
		}
		for _, s := range scen {
			if len(want) > 0 && !want[s.Name] {
				continue
			}
			for seed := 1; seed <= *seeds; seed++ {
				fmt.Fprintf(log, "%s seed %d:", s.Name, seed)
				if *side != string(validation.Crosslink) {
					a, err := validation.RunNS3(ctx, *ns3, s, seed)
					if err != nil {
						return err
					}
					fmt.Fprintf(log, " ns-3 %g", a[0].Value)
					samples = append(samples, a...)
				}
				if *side != string(validation.NS3) {
					b, err := cl.Run(ctx, s, seed)
					if err != nil {
						return err
					}
					fmt.Fprintf(log, " crosslink %g", b[0].Value)
					samples = append(samples, b...)
				}
				fmt.Fprintln(log)
			}
		}
		// One order whatever was rerun: scenario, simulator, seed (each
		// run's metrics in the scenario's order), so reruns diff cleanly.
		pos := map[string]int{}
		for i, s := range scen {
			pos[s.Name] = i
		}
		sort.SliceStable(samples, func(i, j int) bool {
			a, b := samples[i], samples[j]
			if pos[a.Scenario] != pos[b.Scenario] {
				return pos[a.Scenario] < pos[b.Scenario]
			}
			if a.Side != b.Side {
				return a.Side == validation.NS3
			}
			return a.Seed < b.Seed
		})
		if err := validation.WriteSamplesFile(*data, samples); err != nil {
			return err
		}
	}
	samples, err := validation.ReadSamplesFile(*data)
	if err != nil {
		return err
	}
	out, err := validation.Render(scen, samples)
	if err != nil {
		return err
	}
	return os.WriteFile(*doc, out, 0o644)
}
