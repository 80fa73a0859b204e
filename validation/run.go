package validation

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Side names a simulator.
type Side string

const (
	NS3       Side = "ns-3"
	Crosslink Side = "crosslink"
	// Linux is a real Linux kernel running a document's testbed
	// (package validation/linuxpeer).
	Linux Side = "linux"
)

// Sample is one metric of one run.
type Sample struct {
	Scenario string
	Side     Side
	Seed     int
	Metric   string
	Value    float64
}

// metrics returns the metrics a scenario reports.
func (s Scenario) metrics() []string { return append([]string{s.Metric}, s.Extra...) }

// CrosslinkRunner runs scenarios in crosslink's models. Variants of a
// scenario that change only the ns-3 side share its crosslink runs: it
// keeps each run's result by model, parameters and seed.
type CrosslinkRunner struct {
	Registry *vocab.Registry
	done     map[string]vocab.Result
}

// Run runs s with the given seed and returns its compared metrics.
func (r *CrosslinkRunner) Run(ctx context.Context, s Scenario, seed int) ([]Sample, error) {
	m, ok := r.Registry.Lookup(s.Model)
	if !ok {
		return nil, fmt.Errorf("validation: %s: no model %q", s.Name, s.Model)
	}
	p, err := s.Params(m)
	if err != nil {
		return nil, err
	}
	key := []byte(s.Model)
	for _, v := range p.Values() {
		key = v.AppendCanonical(append(key, ' '))
	}
	key = strconv.AppendInt(append(key, ' '), int64(seed), 10)
	res, ok := r.done[string(key)]
	if !ok {
		res, err = m.Run(ctx, p, uint64(seed))
		if err != nil {
			return nil, fmt.Errorf("validation: %s: %w", s.Name, err)
		}
		if r.done == nil {
			r.done = map[string]vocab.Result{}
		}
		r.done[string(key)] = res
	}
	sc := m.Schema()
	var out []Sample
	for _, name := range s.metrics() {
		i := sc.MetricIndex(name)
		if i < 0 {
			return nil, fmt.Errorf("validation: %s: model %s has no metric %q", s.Name, s.Model, name)
		}
		out = append(out, Sample{Scenario: s.Name, Side: Crosslink, Seed: seed, Metric: name, Value: res.Metrics[i].Float()})
	}
	return out, nil
}

// RunNS3 runs s in the ns-3 program built in dir with RngRun seed.
func RunNS3(ctx context.Context, dir string, s Scenario, seed int) ([]Sample, error) {
	args, err := s.NS3Args(seed)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, filepath.Join(dir, s.Program), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("validation: %s: ns-3 %s %s: %w: %s", s.Name, s.Program, strings.Join(args, " "), err, stderr.String())
	}
	kv, err := parseKV(stdout.String())
	if err != nil {
		return nil, fmt.Errorf("validation: %s: %w", s.Name, err)
	}
	var out []Sample
	for _, name := range s.metrics() {
		v, ok := kv[name]
		if !ok {
			return nil, fmt.Errorf("validation: %s: ns-3 %s printed no %q in %q", s.Name, s.Program, name, stdout.String())
		}
		out = append(out, Sample{Scenario: s.Name, Side: NS3, Seed: seed, Metric: name, Value: v})
	}
	return out, nil
}

// parseKV reads the last line of key=value pairs a program printed.
func parseKV(out string) (map[string]float64, error) {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	kv := map[string]float64{}
	for _, f := range strings.Fields(last) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("output field %q is not key=value", f)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("output field %q: %w", f, err)
		}
		kv[k] = x
	}
	return kv, nil
}
