// Command linuxpeer runs document 002's testbed in a real Linux kernel
// (User-Mode Linux, see package validation/linuxpeer) and in crosslink,
// writes the samples to -data and renders the comparison to -doc (see
// `make linux-peer`).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/validation"
	"github.com/crosslink-sim/crosslink/validation/linuxpeer"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "linuxpeer:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, log io.Writer) error {
	fs := flag.NewFlagSet("linuxpeer", flag.ContinueOnError)
	kernel := fs.String("kernel", "bin/linux-peer/linux", "the User-Mode Linux kernel (validation/linuxpeer/kernel/build.sh)")
	kernelBBR2 := fs.String("kernel-bbr2", "bin/linux-peer/linux-bbr2", "the kernel with BBRv2, for the published mix (build.sh with tcp_bbr2.c)")
	guest := fs.String("guest", "validation/linuxpeer/guest", "directory of testbed.sh and bulk.c")
	work := fs.String("work", "out/linux-peer", "directory of the guests' raw output, one subdirectory per scenario")
	seeds := fs.Int("seeds", 3, "crosslink seeds per scenario (the kernel runs Scenario.KernelRuns times)")
	jobs := fs.Int("j", 2, "guests run at once (each is one host CPU)")
	data := fs.String("data", "validation/linuxpeer/results.csv", "samples file to write")
	doc := fs.String("doc", "docs/linux-peer.md", "report to write")
	render := fs.Bool("render", false, "only render -doc from -data")
	rerun := fs.Bool("rerun", false, "run every guest again, even where -work holds a finished run of its scenario")
	crosslinkOnly := fs.Bool("crosslink-only", false, "keep the kernel's samples of -data and run crosslink's side again (after a change to the model; no kernel is needed)")
	keepBBR2 := fs.Bool("keep-bbr2", false, "keep the kernel's samples of -data for the published mix with BBRv2 and run only the mainline kernel's guests (when -kernel-bbr2 cannot be built: it needs the alpha branch's tcp_bbr2.c)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var samples []validation.Sample
	var err error
	switch {
	case *render:
		samples, err = validation.ReadSamplesFile(*data)
	case *crosslinkOnly:
		if samples, err = rerunCrosslink(ctx, *data, *seeds, log); err == nil {
			err = validation.WriteSamplesFile(*data, samples)
		}
	default:
		var kept map[string][]validation.Sample
		if *keepBBR2 {
			if kept, err = keptBBR2(*data); err != nil {
				return err
			}
		}
		if samples, err = runAll(ctx, *kernel, *kernelBBR2, *guest, *work, *seeds, *jobs, *rerun, kept, log); err == nil {
			err = validation.WriteSamplesFile(*data, samples)
		}
	}
	if err != nil {
		return err
	}
	out, err := linuxpeer.Render(samples)
	if err != nil {
		return err
	}
	return os.WriteFile(*doc, out, 0o644)
}

// keptBBR2 returns the kernel's samples of the file data for each
// published-mix scenario (Scenario.BBRv2), which must hold some for every
// one of them.
func keptBBR2(data string) (map[string][]validation.Sample, error) {
	return recordedKernel(data, func(s linuxpeer.Scenario) bool { return s.BBRv2 }, "-keep-bbr2")
}

// recordedKernel returns the kernel's samples of the file data, by
// scenario, for each scenario that want selects; the file must hold some
// for every one of them, or the error names the first missing and the
// flag (which asked to keep them) to run without.
func recordedKernel(data string, want func(linuxpeer.Scenario) bool, flag string) (map[string][]validation.Sample, error) {
	old, err := validation.ReadSamplesFile(data)
	if err != nil {
		return nil, err
	}
	scen := linuxpeer.Scenarios()
	wanted := map[string]bool{}
	for _, s := range scen {
		wanted[s.Name()] = want(s)
	}
	kept := map[string][]validation.Sample{}
	for _, s := range old {
		if s.Side == validation.Linux && wanted[s.Scenario] {
			kept[s.Scenario] = append(kept[s.Scenario], s)
		}
	}
	for _, s := range scen {
		if want(s) && kept[s.Name()] == nil {
			return nil, fmt.Errorf("%s holds no kernel samples of %s: run without %s", data, s.Name(), flag)
		}
	}
	return kept, nil
}

// runAll runs every scenario's guests and crosslink's side; the kernel's
// samples of the published-mix scenarios come from kept instead when it
// is not nil (-keep-bbr2).
func runAll(ctx context.Context, kernel, kernelBBR2, guestDir, work string, seeds, jobs int, rerun bool, kept map[string][]validation.Sample, log io.Writer) ([]validation.Sample, error) {
	abs := func(p string) (string, error) { return filepath.Abs(p) }
	kernel, err := abs(kernel)
	if err != nil {
		return nil, err
	}
	kernelBBR2, err = abs(kernelBBR2)
	if err != nil {
		return nil, err
	}
	script, err := abs(filepath.Join(guestDir, "testbed.sh"))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	bulk, err := abs(filepath.Join(work, "bulk"))
	if err != nil {
		return nil, err
	}
	// Static, so the guest needs no library of the host's beyond its
	// file system.
	cc := exec.CommandContext(ctx, "cc", "-O2", "-Wall", "-static", "-o", bulk, filepath.Join(guestDir, "bulk.c"))
	cc.Stdout, cc.Stderr = log, log
	if err := cc.Run(); err != nil {
		return nil, fmt.Errorf("building bulk: %w", err)
	}
	g := linuxpeer.Guest{Kernel: kernel, KernelBBR2: kernelBBR2, Script: script, Bulk: bulk}
	scen := linuxpeer.Scenarios()
	// results[i][r] are the samples of the kernel's (r+1)-th run of scen[i].
	results := make([][][]validation.Sample, len(scen))
	var mu sync.Mutex
	eg, gctx := errgroup.WithContext(ctx)
	eg.SetLimit(jobs)
	for i, s := range scen {
		if k, ok := kept[s.Name()]; ok {
			results[i] = [][]validation.Sample{k}
			fmt.Fprintf(log, "linux %s: kept the samples of the earlier runs\n", s.Name())
			continue
		}
		results[i] = make([][]validation.Sample, s.KernelRuns())
		for r := range results[i] {
			run, dir := r+1, s.RunDir(work, r+1)
			if !rerun && linuxpeer.Finished(dir) {
				got, err := linuxpeer.Load(s, run, dir)
				if err != nil {
					return nil, err
				}
				results[i][r] = got
				fmt.Fprintf(log, "linux %s run %d: kept the finished run in %s\n", s.Name(), run, dir)
				continue
			}
			eg.Go(func() error {
				got, err := g.Run(gctx, s, run, dir)
				if err != nil {
					return err
				}
				results[i][r] = got
				mu.Lock()
				fmt.Fprintf(log, "linux %s run %d done\n", s.Name(), run)
				mu.Unlock()
				return nil
			})
		}
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	ours, err := crosslinkSide(ctx, scen, seeds, log)
	if err != nil {
		return nil, err
	}
	var samples []validation.Sample
	for i := range scen {
		for _, got := range results[i] {
			samples = append(samples, got...)
		}
		samples = append(samples, ours[i]...)
	}
	return samples, nil
}

// rerunCrosslink returns the kernel's samples of the file data, which
// must hold some for every scenario, with crosslink's run again.
func rerunCrosslink(ctx context.Context, data string, seeds int, log io.Writer) ([]validation.Sample, error) {
	kernel, err := recordedKernel(data, func(linuxpeer.Scenario) bool { return true }, "-crosslink-only")
	if err != nil {
		return nil, err
	}
	scen := linuxpeer.Scenarios()
	ours, err := crosslinkSide(ctx, scen, seeds, log)
	if err != nil {
		return nil, err
	}
	var samples []validation.Sample
	for i, s := range scen {
		samples = append(samples, kernel[s.Name()]...)
		samples = append(samples, ours[i]...)
	}
	return samples, nil
}

// crosslinkSide runs every scenario in tcp-compete with seeds 1 to
// seeds; the i-th slice holds scen[i]'s samples.
func crosslinkSide(ctx context.Context, scen []linuxpeer.Scenario, seeds int, log io.Writer) ([][]validation.Sample, error) {
	reg, err := models.Registry()
	if err != nil {
		return nil, err
	}
	out := make([][]validation.Sample, len(scen))
	for i, s := range scen {
		for seed := 1; seed <= seeds; seed++ {
			got, err := linuxpeer.RunCrosslink(ctx, reg, s, seed)
			if err != nil {
				return nil, err
			}
			out[i] = append(out[i], got...)
		}
		fmt.Fprintf(log, "crosslink %s done\n", s.Name())
	}
	return out, nil
}
