package validation

import (
	"bytes"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/models"
	"github.com/crosslink-sim/crosslink/vocab"
	"gonum.org/v1/gonum/stat"
)

// committedSamples reads results.csv, the samples `make validate` last
// committed.
func committedSamples(t *testing.T) []Sample {
	t.Helper()
	f, err := os.Open("results.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	samples, err := ReadSamples(f)
	if err != nil {
		t.Fatal(err)
	}
	return samples
}

// TestDocCurrent checks that docs/validation.md is the rendering of the
// committed samples and scenarios: after a change to either, rerun
// `make validate` (or `go run ./validation/cmd/validate -render` for a
// change of wording only).
func TestDocCurrent(t *testing.T) {
	samples := committedSamples(t)
	want, err := Render(Scenarios(), samples)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../docs/validation.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/validation.md is not the rendering of validation/results.csv; run `go run ./validation/cmd/validate -render` from the repository root (or `make validate` after a scenario change)")
	}
	// Every scenario has samples from both sides, so the table has no
	// "not run" row.
	for _, s := range Scenarios() {
		c := Compare(s, s.Metric, samples)
		if c.NS3.N == 0 || c.Crosslink.N == 0 {
			t.Errorf("scenario %s has no samples (ns-3 %d, crosslink %d): run `make validate ONLY=%s`", s.Name, c.NS3.N, c.Crosslink.N, s.Name)
		}
	}
}

// TestScenariosMatchModels checks that every scenario maps onto its
// crosslink model's current parameters and metrics, and onto a command line
// of its ns-3 program.
func TestScenariosMatchModels(t *testing.T) {
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range Scenarios() {
		if seen[s.Name] {
			t.Errorf("two scenarios are called %s", s.Name)
		}
		seen[s.Name] = true
		m, ok := reg.Lookup(s.Model)
		if !ok {
			t.Errorf("%s: no model %s", s.Name, s.Model)
			continue
		}
		if _, err := s.Params(m); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		names := map[string]bool{}
		for _, mt := range m.Schema().Metrics {
			names[mt.Name] = true
		}
		for _, mt := range s.metrics() {
			if !names[mt] {
				t.Errorf("%s: model %s has no metric %s", s.Name, s.Model, mt)
			}
		}
		args, err := s.NS3Args(1)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if !strings.Contains(strings.Join(args, " "), "--run=1") {
			t.Errorf("%s: ns-3 arguments %q lack the run number", s.Name, args)
		}
	}
}

// TestCompare checks the two verdict rules on hand-made samples.
func TestCompare(t *testing.T) {
	mk := func(side Side, vals ...float64) []Sample {
		var out []Sample
		for i, v := range vals {
			out = append(out, Sample{Scenario: "x", Side: side, Seed: i + 1, Metric: "goodput", Value: v})
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		class     Class
		ns3, ours []float64
		pass      bool
	}{
		{"exact within 1 %", Exact, []float64{100, 100}, []float64{100.9, 100.9}, true},
		{"exact beyond 1 %", Exact, []float64{100, 100}, []float64{98.9, 98.9}, false},
		{"lossy inside the range", Lossy, []float64{80, 120, 100}, []float64{119, 119}, true},
		{"lossy above the range", Lossy, []float64{80, 120, 100}, []float64{121, 121}, false},
	} {
		s := Scenario{Name: "x", Class: tc.class, Metric: "goodput"}
		c := Compare(s, "goodput", append(mk(NS3, tc.ns3...), mk(Crosslink, tc.ours...)...))
		if c.Pass != tc.pass {
			t.Errorf("%s: Compare(ns-3 %v, crosslink %v).Pass = %v, want %v (diff %g)", tc.name, tc.ns3, tc.ours, c.Pass, tc.pass, c.Diff)
		}
	}
}

// TestSamplesRoundTrip checks that ReadSamples reads what WriteSamples wrote.
func TestSamplesRoundTrip(t *testing.T) {
	in := []Sample{
		{Scenario: "a", Side: NS3, Seed: 1, Metric: "goodput", Value: 5.145226666667e+06},
		{Scenario: "a", Side: Crosslink, Seed: 2, Metric: "response_time", Value: 0.3990496},
	}
	var b bytes.Buffer
	if err := WriteSamples(&b, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadSamples(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("read %d samples, want %d", len(out), len(in))
	}
	for i := range in {
		if out[i] != in[i] {
			t.Errorf("sample %d = %+v, want %+v", i, out[i], in[i])
		}
	}
}

// committedRuns holds crosslink's committed samples by scenario, seed and
// metric, and checks reruns against them: the samples are the models' as
// they are, or docs/validation.md describes runs the models no longer give.
type committedRuns struct {
	value map[runKey]float64
	seeds map[string][]int // each scenario's seeds, in the order committed
}

type runKey struct {
	scenario, metric string
	seed             int
}

func newCommittedRuns(samples []Sample) committedRuns {
	c := committedRuns{value: map[runKey]float64{}, seeds: map[string][]int{}}
	for _, x := range samples {
		if x.Side != Crosslink {
			continue
		}
		c.value[runKey{x.Scenario, x.Metric, x.Seed}] = x.Value
		if !slices.Contains(c.seeds[x.Scenario], x.Seed) {
			c.seeds[x.Scenario] = append(c.seeds[x.Scenario], x.Seed)
		}
	}
	return c
}

// check fails t for every rerun sample of got that is not the committed
// one. The runs are deterministic and results.csv holds each value as the
// shortest decimal that parses back to the same float64, so a rerun must
// give it exactly (on amd64, where the samples were run: an architecture
// that fuses multiply-adds may round otherwise).
func (c committedRuns) check(t *testing.T, got []Sample) {
	t.Helper()
	for _, x := range got {
		want, ok := c.value[runKey{x.Scenario, x.Metric, x.Seed}]
		if !ok || x.Value != want {
			t.Errorf("seed %d: crosslink %s = %v, the committed sample %v (present: %v): validation/results.csv is stale; rerun `go run ./validation/cmd/validate -side crosslink` (no ns-3 needed) and commit it with docs/validation.md", x.Seed, x.Metric, x.Value, want, ok)
		}
	}
}

// rerun runs crosslink's side of s over its committed seeds, checks every
// sample (check) and returns the compared metric of each run.
func (c committedRuns) rerun(t *testing.T, r *CrosslinkRunner, s Scenario) []float64 {
	t.Helper()
	if len(c.seeds[s.Name]) == 0 {
		t.Fatalf("no committed crosslink samples; run `go run ./validation/cmd/validate -side crosslink`")
	}
	var out []float64
	for _, seed := range c.seeds[s.Name] {
		got, err := r.Run(t.Context(), s, seed)
		if err != nil {
			t.Fatal(err)
		}
		c.check(t, got)
		out = append(out, got[0].Value)
	}
	return out
}

// rerunSetup reads the committed samples and returns them, indexed, with
// a runner of the registry's models.
func rerunSetup(t *testing.T) ([]Sample, committedRuns, *CrosslinkRunner) {
	t.Helper()
	samples := committedSamples(t)
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	return samples, newCommittedRuns(samples), &CrosslinkRunner{Registry: reg}
}

// agreementRerun reruns crosslink's side of every exact scenario of program
// that agrees with ns-3 in the committed samples, over the committed seeds,
// and checks that its mean still lies within ExactTolerance (issue 15's
// 1 %) of ns-3's committed mean: a change to the TCP engine that moves
// crosslink away from the peer simulator fails here, before anyone reruns
// `make validate`. It also checks every metric of every run against the
// committed crosslink samples (committedRuns.check). It returns the names
// it checked.
func agreementRerun(t *testing.T, program string) map[string]bool {
	samples, committed, r := rerunSetup(t)
	checked := map[string]bool{}
	for _, s := range Scenarios() {
		c := Compare(s, s.Metric, samples)
		if s.Class != Exact || s.Program != program || !c.Pass {
			continue
		}
		checked[s.Name] = true
		t.Run(s.Name, func(t *testing.T) {
			runs := committed.rerun(t, r, s)
			mean := stat.Mean(runs, nil)
			if d := (mean - c.NS3.Mean) / c.NS3.Mean; math.Abs(d) > ExactTolerance {
				t.Errorf("crosslink %s = %g over %d seeds, ns-3 %g: %+.2f %%, beyond %g %%", s.Metric, mean, len(runs), c.NS3.Mean, d*100, ExactTolerance*100)
			}
		})
	}
	return checked
}

// TestCommittedSamplesCurrent reruns crosslink's side of every scenario
// that agreementRerun leaves out (the lossy ones, and the exact ones that
// differ from ns-3) over the committed seeds and checks each metric of
// each run against the committed sample: with agreementRerun it holds
// every crosslink sample of docs/validation.md to the models as they are,
// so a model version that changes any fails here until the samples are
// rerun. With -short it leaves out the 10-flow dumbbells, as
// TestDumbbellAgreement does.
func TestCommittedSamplesCurrent(t *testing.T) {
	samples, committed, r := rerunSetup(t)
	ran := 0
	for _, s := range Scenarios() {
		if s.Class == Exact && Compare(s, s.Metric, samples).Pass {
			continue // agreementRerun's
		}
		if testing.Short() && s.Program == "dumbbell" {
			continue
		}
		ran++
		t.Run(s.Name, func(t *testing.T) { committed.rerun(t, r, s) })
	}
	if ran == 0 {
		t.Skip("every scenario is exact and agrees with ns-3: agreementRerun holds them all")
	}
}

// TestLinkAgreement: the one-flow exact scenarios still agree with ns-3;
// among them every +ns3opts
// one, issue 15's set-up with ns-3's write size, send buffer, ssthresh
// basis, timestamps, PRR and SYN timeout on both sides, and the delayed-ACK
// scenarios over GEO and ISL delays and at 0.384 Mbit/s, which agree
// through ns-3's immediate ACK of the first segment (ack_first_segment).
func TestLinkAgreement(t *testing.T) {
	checked := agreementRerun(t, "link")
	for _, s := range Scenarios() {
		if s.Class == Exact && s.Program == "link" && strings.HasSuffix(s.Name, "+ns3opts") && !checked[s.Name] {
			t.Errorf("%s does not agree with ns-3 in the committed samples (docs/validation.md)", s.Name)
		}
	}
	if len(checked) < 19 {
		t.Errorf("only %d one-flow exact scenarios agree in the committed samples, want the 19 of docs/validation.md", len(checked))
	}
	// The scenarios with delayed ACKs whose difference was ns-3's first
	// ACK (ack_first_segment) agree.
	for _, n := range []string{"geo-64KB-delack", "isl-64KB-delack", "rt-100KB-384k-delack", "rt-100KB-384k-250ms-delack"} {
		if !checked[n] {
			t.Errorf("%s does not agree with ns-3 in the committed samples (docs/validation.md)", n)
		}
	}
}

// TestDumbbellAgreement: the dumbbell exact scenarios that agree with ns-3
// (10 flows, 20-30 s, five seeds each) still do; among them every +ns3opts
// one: NewReno at 5-segment windows (with ns-3's PRR rounding and growth on
// recovery exit), with room per flow (a queue of 200 % of the BDP, a 50 ms
// path) and CUBIC.
func TestDumbbellAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("reruns 10-flow dumbbells")
	}
	checked := agreementRerun(t, "dumbbell")
	for _, n := range []string{"db10-newreno+ns3opts", "db10-newreno-q200+ns3opts", "db10-newreno-50ms+ns3opts", "db10-cubic+ns3opts", "db10-newreno+ns3opts+flightsize"} {
		if !checked[n] {
			t.Errorf("%s does not agree with ns-3 in the committed samples (docs/validation.md)", n)
		}
	}
}

// TestFindingPlaceholders: a finding's numbers come from the samples.
func TestFindingPlaceholders(t *testing.T) {
	a := Scenario{Name: "a", Class: Exact, Metric: "goodput"}
	b := Scenario{Name: "b", Class: Lossy, Metric: "response_time"}
	by := map[string]Scenario{"a": a, "b": b}
	var samples []Sample
	for i, v := range []float64{9e6, 10e6, 11e6} {
		samples = append(samples, Sample{Scenario: "a", Side: NS3, Seed: i + 1, Metric: "goodput", Value: v},
			Sample{Scenario: "a", Side: Crosslink, Seed: i + 1, Metric: "goodput", Value: v * 1.02},
			Sample{Scenario: "a", Side: NS3, Seed: i + 1, Metric: "retrans_segs", Value: float64(10 * (i + 1))},
			Sample{Scenario: "b", Side: NS3, Seed: i + 1, Metric: "response_time", Value: 0.4 + 0.1*float64(i)},
			Sample{Scenario: "b", Side: Crosslink, Seed: i + 1, Metric: "response_time", Value: 0.5})
	}
	for _, tc := range []struct{ in, want string }{
		{"{diff} here", "+2.00 % here"},
		{"{ns3} and {cl}", "10.000 Mbit/s and 10.200 Mbit/s"},
		{"{ns3:a:retrans_segs} retransmissions", "20.0 retransmissions"},
		{"range {range:b}, ours {clrange:b}, {diff:b}", "range 400.0-600.0 ms, ours 500.0-500.0 ms, +0.00 %"},
	} {
		got, err := expand(tc.in, "a", by, samples)
		if err != nil || got != tc.want {
			t.Errorf("expand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"{diff:nope}", "{ns3:b:fast_recoveries}"} {
		if got, err := expand(bad, "a", by, samples); err == nil {
			t.Errorf("expand(%q) = %q, want an error", bad, got)
		}
	}
}

// TestFirstAckMatters: ns-3's immediate ACK of the first data segment is
// what closes the delayed-ACK rows. With ack_first_segment off, crosslink's
// receiver pairs ACKs from the first segment and the rows move beyond
// ExactTolerance of ns-3's committed means (measured: isl-64KB-delack
// -1.11 %, rt-100KB-384k-250ms-delack +1.86 %, which their findings quote
// and TestFindingsFirstAck holds); the committed samples,
// with it on, agree (TestLinkAgreement). Every seed gives the same value
// on these lossless paths, so one seed stands for the five.
func TestFirstAckMatters(t *testing.T) {
	samples := committedSamples(t)
	reg, err := models.Registry()
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Scenario{}
	for _, s := range Scenarios() {
		by[s.Name] = s
	}
	for _, n := range []string{"isl-64KB-delack", "rt-100KB-384k-250ms-delack"} {
		s := by[n]
		m, _ := reg.Lookup(s.Model)
		p, err := s.Params(m)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Run(t.Context(), p.With("ack_first_segment", vocab.B(false)), 1)
		if err != nil {
			t.Fatal(err)
		}
		sc := m.Schema()
		i := slices.IndexFunc(sc.Metrics, func(mt vocab.Metric) bool { return mt.Name == s.Metric })
		got := res.Metrics[i].Float()
		c := Compare(s, s.Metric, samples)
		if d := (got - c.NS3.Mean) / c.NS3.Mean; math.Abs(d) <= ExactTolerance {
			t.Errorf("%s without ack_first_segment: %s = %g against ns-3's %g (%+.2f %%), want beyond %g %%", n, s.Metric, got, c.NS3.Mean, d*100, ExactTolerance*100)
		}
	}
}
