package linuxpeer

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/crosslink-sim/crosslink/validation"
	"github.com/crosslink-sim/crosslink/vocab"
)

// The compared metrics, named as tcp-compete's columns where it has them.
const (
	metricGoodput = "goodput"      // bit/s, all senders
	metricJain    = "jain_flows"   // Jain's index over the senders' goodputs
	metricRetrans = "retrans_rate" // retransmitted segments per second
)

// Metrics lists the compared metrics of senders running ccas in the
// report's order: the goodput of each of Algorithms that ccas has, then
// the totals.
func Metrics(ccas []string) []string {
	out := make([]string, 0, len(Algorithms)+3)
	for _, a := range Algorithms {
		if slices.Contains(ccas, a) {
			out = append(out, "goodput_"+a)
		}
	}
	return append(out, metricGoodput, metricJain, metricRetrans)
}

// Guest runs scenarios in the User-Mode Linux kernel Kernel, or KernelBBR2
// for a BBRv2 scenario, whose init is Script (guest/testbed.sh) and whose
// senders run Bulk (guest/bulk.c, built static). All are host paths the
// guest reads through hostfs.
type Guest struct {
	Kernel, KernelBBR2, Script, Bulk string
}

// Run runs s in the guest, keeping its output in dir (a fresh directory
// each time), and returns its samples as those of the run-th run.
func (g Guest) Run(ctx context.Context, s Scenario, run int, dir string) ([]validation.Sample, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	console, err := os.Create(filepath.Join(dir, "console.log"))
	if err != nil {
		return nil, err
	}
	defer console.Close()
	// The kernel command line splits on spaces, so every path must be
	// free of them.
	for _, p := range []string{dir, g.Script, g.Bulk} {
		if strings.ContainsAny(p, " \t") {
			return nil, fmt.Errorf("linuxpeer: path %q has a space, which the guest's command line cannot carry", p)
		}
	}
	args := append([]string{
		// 8 GiB, so TCP's memory limits (tcp_mem, sized from the
		// guest's memory at boot) stay far from the 32 MiB buffers of
		// ten senders, as on a testbed machine of several GiB; with 3 GiB the
		// receivers enter memory pressure and clamp their windows to
		// four segments (tcp_adjust_rcv_ssthresh).
		"mem=8G", "rootfstype=hostfs", "rootflags=/", "ro",
		"time-travel=inf-cpu", "init=" + g.Script, "con=null", "con0=fd:0,fd:1",
	}, s.commandLine(dir, g.Bulk)...)
	kernel := g.Kernel
	if s.BBRv2 {
		kernel = g.KernelBBR2
	}
	if kernel == "" {
		return nil, fmt.Errorf("linuxpeer: %s: no kernel given for it", s.Name())
	}
	cmd := exec.CommandContext(ctx, kernel, args...)
	cmd.Stdout, cmd.Stderr = console, console
	// UML runs its guest's processes as host processes of its own:
	// cancelling kills them all.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("linuxpeer: %s: guest: %w (console in %s)", s.Name(), err, console.Name())
	}
	return Load(s, run, dir)
}

// Load reads the output a guest left in dir for its run-th run of s.
func Load(s Scenario, run int, dir string) ([]validation.Sample, error) {
	if status, err := guestStatus(dir); status != "OK" {
		return nil, fmt.Errorf("linuxpeer: %s: guest did not finish: %q %v (see %s)", s.Name(), status, err, dir)
	}
	f, err := os.Open(filepath.Join(dir, "snapshots.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	snaps, err := ParseSnapshots(f)
	if err != nil {
		return nil, fmt.Errorf("linuxpeer: %s: %w", s.Name(), err)
	}
	m, err := Measure(snaps, len(s.CCAs()))
	if err != nil {
		return nil, fmt.Errorf("linuxpeer: %s: %w", s.Name(), err)
	}
	return m.samples(s, run), nil
}

// Finished reports whether dir holds a finished guest run.
func Finished(dir string) bool {
	status, _ := guestStatus(dir)
	return status == "OK"
}

// guestStatus is what the guest's init wrote to dir/status: OK, or
// FAILED and why.
func guestStatus(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "status"))
	return strings.TrimSpace(string(b)), err
}

// samples turns the run-th guest run of s into the compared metrics.
func (m Measured) samples(s Scenario, run int) []validation.Sample {
	byAlg := map[string]float64{}
	var flows []float64
	// In host order, so the sums are the same bits every time.
	for _, h := range slices.Sorted(maps.Keys(m.Goodput)) {
		g := m.Goodput[h]
		byAlg[m.CCA[h]] += g
		flows = append(flows, g)
	}
	vals := map[string]float64{metricJain: jain(flows), metricRetrans: m.RetransRate}
	for _, a := range Algorithms {
		vals["goodput_"+a] = byAlg[a]
		vals[metricGoodput] += byAlg[a]
	}
	names := Metrics(s.CCAs())
	out := make([]validation.Sample, 0, len(names))
	for _, name := range names {
		out = append(out, validation.Sample{Scenario: s.Name(), Side: validation.Linux, Seed: run, Metric: name, Value: vals[name]})
	}
	return out
}

// jain is Jain's fairness index (Jain, Chiu, Hawe 1984): (sum x)^2 /
// (n sum x^2).
func jain(xs []float64) float64 {
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	if sq == 0 {
		return 0
	}
	return sum * sum / (float64(len(xs)) * sq)
}

// RunCrosslink runs s in tcp-compete with the given seed.
func RunCrosslink(ctx context.Context, reg *vocab.Registry, s Scenario, seed int) ([]validation.Sample, error) {
	return RunCrosslinkWith(ctx, reg, s, seed, nil)
}

// RunCrosslinkWith is RunCrosslink with some of tcp-compete's parameters
// set otherwise (an ablation: a host mechanism switched off).
func RunCrosslinkWith(ctx context.Context, reg *vocab.Registry, s Scenario, seed int, with map[string]vocab.Value) ([]validation.Sample, error) {
	m, ok := reg.Lookup("tcp-compete")
	if !ok {
		return nil, fmt.Errorf("linuxpeer: no model tcp-compete")
	}
	p, err := s.Params(m)
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(with)) {
		if p, err = setParam(m.Schema(), p, name, with[name]); err != nil {
			return nil, fmt.Errorf("linuxpeer: %s: %w", s.Name(), err)
		}
	}
	res, err := m.Run(ctx, p, uint64(seed))
	if err != nil {
		return nil, fmt.Errorf("linuxpeer: %s: %w", s.Name(), err)
	}
	var out []validation.Sample
	for _, name := range Metrics(s.CCAs()) {
		src := name
		if name == metricRetrans {
			src = "retrans_segs"
		}
		i := m.Schema().MetricIndex(src)
		if i < 0 {
			return nil, fmt.Errorf("linuxpeer: tcp-compete has no metric %q", src)
		}
		v := res.Metrics[i].Float()
		if name == metricRetrans {
			v /= Duration
		}
		out = append(out, validation.Sample{Scenario: s.Name(), Side: validation.Crosslink, Seed: seed, Metric: name, Value: v})
	}
	return out, nil
}
