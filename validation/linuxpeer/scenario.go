package linuxpeer

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/crosslink-sim/crosslink/vocab"
)

// Scenario is one run of the testbed: the backbone's queue and loss.
type Scenario struct {
	// QueueBDP is the scripts' q in percent: the backbone's netem limit is
	// 8.33 x q/100 x 10 skbs, truncated.
	QueueBDP int
	// Loss is netem's random loss on the backbone, in percent.
	Loss float64
	// NoGSO sets gso_max_segs 1 on the senders' interfaces, so TCP's
	// autosizing makes one-segment skbs (tcp_tso_segs caps at the
	// route's sk_gso_max_segs); crosslink runs without emulate's gso. An
	// ablation of the kernel's own mechanism. (ethtool -K tso off gso off
	// would not do: TCP keeps building GSO skbs, which the device splits
	// after its qdisc, and TCP Small Queues counts their segments.)
	NoGSO bool
	// TwoBBR runs the document's mix with BBR v1 in BBR's two places
	// only and CUBIC, Linux's default controller, in BBRv2's
	// (TwoBBRCCAs): the number of BBR v1 flows the published runs had.
	TwoBBR bool
	// BBRv2 runs the document's mix as published (PublishedCCAs), BBRv2
	// included, in the kernel with Google's BBRv2 alpha
	// (kernel/bbr2.patch).
	BBRv2 bool
	// SpacingMs starts the senders one after another in the scripts'
	// order, this many milliseconds apart (the guest sleeps between
	// them; crosslink's start_spacing), where the others start at one
	// instant: how the lossless split depends on how far apart the
	// scripts' popen loop launches its clients, which depends on the
	// machine that runs it. The mainline kernel's mix (CCAs), or with
	// BBRv2 the published mix in the kernel with the BBRv2 alpha.
	SpacingMs int
}

// KernelRuns is how many times the kernel runs s: three for the published
// mix with BBRv2 (BBRv2) and for senders started apart (SpacingMs), to
// show how far its runs differ (each draws its own initial sequence
// numbers, ports, BBR's gain-cycle phase and netem's losses), once for
// the others.
func (s Scenario) KernelRuns() int {
	if s.BBRv2 || s.SpacingMs > 0 {
		return 3
	}
	return 1
}

// RunDir is the directory, under work, of the kernel's run (from 1) of s.
func (s Scenario) RunDir(work string, run int) string {
	if run == 1 {
		return filepath.Join(work, s.Name())
	}
	return filepath.Join(work, fmt.Sprintf("%s-run%d", s.Name(), run))
}

// Name identifies a scenario in the samples.
func (s Scenario) Name() string {
	n := fmt.Sprintf("q%d-loss%g", s.QueueBDP, s.Loss)
	if s.NoGSO {
		n += "-nogso"
	}
	if s.TwoBBR {
		n += "-2bbr"
	}
	if s.BBRv2 {
		n += "-bbr2"
	}
	if s.SpacingMs > 0 {
		n += fmt.Sprintf("-space%dms", s.SpacingMs)
	}
	return n
}

// CCAs returns the ten senders' controllers in start order: CCAs,
// TwoBBRCCAs for a TwoBBR scenario, PublishedCCAs for a BBRv2 one.
func (s Scenario) CCAs() []string {
	switch {
	case s.TwoBBR:
		return TwoBBRCCAs
	case s.BBRv2:
		return PublishedCCAs
	}
	return CCAs
}

// compete is tcp-compete's ccas list that gives its ten flows as many of
// each controller as s.CCAs() has (tcp-compete runs the (i mod 5)th
// name, so not in the guest's order; both start every flow at one
// instant), and the guest's ten in its order where they start apart
// (SpacingMs).
func (s Scenario) compete() string {
	switch {
	case s.SpacingMs > 0:
		return strings.Join(s.CCAs(), ",")
	case s.TwoBBR:
		return "bbr,cubic,cubic,bic,reno"
	case s.BBRv2:
		return "bbr,bbr2,cubic,bic,reno"
	}
	return "bbr,bbr,cubic,bic,reno"
}

// The set-up every scenario shares.
const (
	// Duration is each sender's time, in seconds.
	Duration = 60
	// Warmup is when the measurement window opens, in seconds after the
	// senders start; it closes at the last snapshot, Duration - 1.
	Warmup = 5
)

// CCAs are the ten senders' congestion controls, in the order the
// scripts start them (exe_t_iperf3.sh: bbr bbr bbr2 bbr2 cubic cubic bic
// bic reno reno), with BBR v1 in BBRv2's places: mainline Linux has no
// BBRv2.
var CCAs = []string{"bbr", "bbr", "bbr", "bbr", "cubic", "cubic", "bic", "bic", "reno", "reno"}

// TwoBBRCCAs are CCAs with CUBIC in BBRv2's places: the published runs'
// two BBR v1 flows, and six loss-based ones instead of their four.
var TwoBBRCCAs = []string{"bbr", "bbr", "cubic", "cubic", "cubic", "cubic", "bic", "bic", "reno", "reno"}

// PublishedCCAs are the scripts' ten controllers as they are, in their
// start order.
var PublishedCCAs = []string{"bbr", "bbr", "bbr2", "bbr2", "cubic", "cubic", "bic", "bic", "reno", "reno"}

// Spacings are the start spacings of the SpacingMs scenarios, in ms: from
// the 1 to 2 ms between consecutive clients that the scripts' loop takes
// under Mininet on a 2-core machine (median; docs/os-testbed.md) to ten
// times that.
var Spacings = []int{1, 2, 5, 10, 20}

// PublishedSpacings are the start spacings of the published mix's
// SpacingMs scenarios (BBRv2), in ms: the mainline mix's (Spacings) up to
// 10 ms, where both mixes' CUBIC pairs are already above the images'
// band on the kernel.
var PublishedSpacings = []int{1, 2, 5, 10}

// Algorithms are the distinct controllers of all the scenarios' senders,
// in the report's order.
var Algorithms = []string{"bbr", "bbr2", "cubic", "bic", "reno"}

// Scenarios are the runs of the report: the document's four loss levels
// and seven of its queue sizes, from the deep queue where the lossless
// shares are settled, through q = 55 %, the smallest at which the
// images' flows share fairly with loss, to the shallow ones where BBR
// takes the link; and,
// lossless at q = 100 and 40 %, the same without TSO and GSO; and,
// lossless from q = 100 % down to where BBR takes the link, the published
// runs' two BBR v1 flows (TwoBBR), at every tenth of the BDP above 50 %,
// where the images' per-controller bars are all about the same; and the
// published mix with BBRv2 (BBRv2) at the same points, lossless and with
// loss; and, lossless at q = 100 %, the senders started 1 to 20 ms apart
// (SpacingMs) where the images' lossless split is settled by the first
// round trips, with the mainline mix and with the published one.
func Scenarios() []Scenario {
	var out []Scenario
	for _, loss := range []float64{0, 0.2, 0.5, 0.8} {
		for _, q := range []int{100, 70, 55, 50, 40, 30, 20} {
			out = append(out, Scenario{QueueBDP: q, Loss: loss})
		}
	}
	out = append(out, Scenario{QueueBDP: 100, NoGSO: true}, Scenario{QueueBDP: 40, NoGSO: true})
	for _, q := range []int{100, 90, 80, 70, 60, 50, 40, 30, 20} {
		out = append(out, Scenario{QueueBDP: q, TwoBBR: true})
	}
	for _, q := range []int{100, 90, 80, 70, 60, 55, 50, 40, 30, 20} {
		out = append(out, Scenario{QueueBDP: q, BBRv2: true})
	}
	for _, loss := range []float64{0.2, 0.5, 0.8} {
		for _, q := range []int{100, 70, 55, 50, 40, 30, 20} {
			out = append(out, Scenario{QueueBDP: q, Loss: loss, BBRv2: true})
		}
	}
	for _, ms := range Spacings {
		out = append(out, Scenario{QueueBDP: 100, SpacingMs: ms})
	}
	for _, ms := range PublishedSpacings {
		out = append(out, Scenario{QueueBDP: 100, BBRv2: true, SpacingMs: ms})
	}
	return out
}

// SampleTimes are the seconds after the start at which the guest records
// the senders: every 5 s, and the last second.
func SampleTimes() []float64 {
	var out []float64
	for t := Warmup; t < Duration-1; t += 5 {
		out = append(out, float64(t))
	}
	return append(out, Duration-1)
}

// Params are the tcp-compete parameters of s: specs/os-compete.yaml's
// testbed with the peer's controllers and times.
func (s Scenario) Params(m vocab.Model) (vocab.Params, error) {
	sc := m.Schema()
	p := sc.Defaults()
	for _, kv := range []struct {
		name string
		v    vocab.Value
	}{
		{"flows", vocab.I(int64(len(s.CCAs())))},
		{"ccas", vocab.S(s.compete())},
		{"rate", vocab.F(100e6)},
		{"delay", vocab.F(0.010)},
		{"window", vocab.I(16777216)},
		{"duration", vocab.F(Duration)},
		{"warmup", vocab.F(Warmup)},
		// The guest starts its senders at one instant of its clock, or
		// SpacingMs apart.
		{"stagger", vocab.F(0)},
		{"start_spacing", vocab.F(float64(s.SpacingMs) / 1000)},
		{"backbone", vocab.S("mininet")},
		{"emulate", vocab.S(s.emulate(p.Str("emulate")))},
		{"queue_bdp", vocab.F(float64(s.QueueBDP) / 100)},
		{"loss", vocab.F(s.Loss / 100)},
	} {
		var err error
		if p, err = setParam(sc, p, kv.name, kv.v); err != nil {
			return vocab.Params{}, fmt.Errorf("linuxpeer: %s: %w", s.Name(), err)
		}
	}
	return p, nil
}

// setParam sets p's parameter name to v after checking that the model
// of schema sc has it and that v is valid for it.
func setParam(sc *vocab.Schema, p vocab.Params, name string, v vocab.Value) (vocab.Params, error) {
	i := sc.ParamIndex(name)
	if i < 0 {
		return vocab.Params{}, fmt.Errorf("model %s has no parameter %q", sc.Name, name)
	}
	if err := sc.Params[i].Check(v); err != nil {
		return vocab.Params{}, fmt.Errorf("%s: %w", name, err)
	}
	return p.With(name, v), nil
}

// emulate is all, the model's default emulation (every mechanism, as
// specs/os-compete.yaml lists them), without gso for a NoGSO scenario.
func (s Scenario) emulate(all string) string {
	if !s.NoGSO {
		return all
	}
	var keep []string
	for _, m := range strings.Split(all, ",") {
		if m != "gso" {
			keep = append(keep, m)
		}
	}
	return strings.Join(keep, ",")
}

// commandLine is what the guest's init reads from the kernel command line.
func (s Scenario) commandLine(outDir, bulk string) []string {
	times := make([]string, 0, len(SampleTimes()))
	for _, t := range SampleTimes() {
		times = append(times, fmt.Sprintf("%g", t))
	}
	loss := "0"
	if s.Loss > 0 {
		loss = fmt.Sprintf("%g%%", s.Loss)
	}
	gso := "on"
	if s.NoGSO {
		gso = "off"
	}
	cl := []string{
		"OUTDIR=" + outDir, "BULK=" + bulk, "GSO=" + gso,
		fmt.Sprintf("Q=%d", s.QueueBDP), "LOSS=" + loss, fmt.Sprintf("DUR=%d", Duration),
		"CCAS=" + strings.Join(s.CCAs(), ","), "SAMPLES=" + strings.Join(times, ","),
	}
	if s.SpacingMs > 0 {
		cl = append(cl, fmt.Sprintf("SPACING=%g", float64(s.SpacingMs)/1000))
	}
	return cl
}
