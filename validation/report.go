package validation

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

var csvHeader = []string{"scenario", "side", "seed", "metric", "value"}

// WriteSamples writes samples as CSV with a header line.
func WriteSamples(w io.Writer, samples []Sample) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return fmt.Errorf("validation: %w", err)
	}
	for _, s := range samples {
		rec := []string{s.Scenario, string(s.Side), strconv.Itoa(s.Seed), s.Metric, strconv.FormatFloat(s.Value, 'g', -1, 64)}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("validation: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("validation: %w", err)
	}
	return nil
}

// ReadSamplesFile reads the samples file at path.
func ReadSamplesFile(path string) ([]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadSamples(f)
}

// WriteSamplesFile writes samples to the file at path.
func WriteSamplesFile(path string, samples []Sample) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteSamples(f, samples); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadSamples reads what WriteSamples wrote.
func ReadSamples(r io.Reader) ([]Sample, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("validation: samples: %w", err)
	}
	if len(recs) == 0 || strings.Join(recs[0], ",") != strings.Join(csvHeader, ",") {
		return nil, fmt.Errorf("validation: samples: want header %q", strings.Join(csvHeader, ","))
	}
	var out []Sample
	for i, rec := range recs[1:] {
		seed, err := strconv.Atoi(rec[2])
		if err != nil {
			return nil, fmt.Errorf("validation: samples line %d: seed: %w", i+2, err)
		}
		v, err := strconv.ParseFloat(rec[4], 64)
		if err != nil {
			return nil, fmt.Errorf("validation: samples line %d: value: %w", i+2, err)
		}
		side := Side(rec[1])
		if side != NS3 && side != Crosslink && side != Linux {
			return nil, fmt.Errorf("validation: samples line %d: unknown side %q", i+2, rec[1])
		}
		out = append(out, Sample{Scenario: rec[0], Side: side, Seed: seed, Metric: rec[3], Value: v})
	}
	return out, nil
}

// Summary is one side's values of one metric over seeds.
type Summary struct {
	N                  int
	Mean, SD, Min, Max float64
}

func summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{Mean: math.NaN(), SD: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	if len(xs) == 1 {
		sd = 0
	}
	return Summary{N: len(xs), Mean: mean, SD: sd, Min: floats.Min(xs), Max: floats.Max(xs)}
}

// Comparison is the verdict on one scenario's compared metric.
type Comparison struct {
	NS3, Crosslink Summary
	// Diff is (crosslink - ns-3) / ns-3 of the means.
	Diff float64
	// Pass: Exact, |Diff| <= ExactTolerance; Lossy, crosslink's mean lies
	// within ns-3's range over seeds.
	Pass bool
}

// Compare summarises samples of metric in scenario s.
func Compare(s Scenario, metric string, samples []Sample) Comparison {
	var a, b []float64
	for _, x := range samples {
		if x.Scenario != s.Name || x.Metric != metric {
			continue
		}
		if x.Side == NS3 {
			a = append(a, x.Value)
		} else {
			b = append(b, x.Value)
		}
	}
	c := Comparison{NS3: summarize(a), Crosslink: summarize(b)}
	c.Diff = (c.Crosslink.Mean - c.NS3.Mean) / c.NS3.Mean
	switch s.Class {
	case Exact:
		c.Pass = math.Abs(c.Diff) <= ExactTolerance
	case Lossy:
		c.Pass = c.Crosslink.Mean >= c.NS3.Min && c.Crosslink.Mean <= c.NS3.Max
	case Effect:
		c.Pass = true
	}
	return c
}

// format prints a value of metric in the table's unit.
func format(metric string, v float64) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	switch metric {
	case "goodput", "throughput":
		return strconv.FormatFloat(v/1e6, 'f', 3, 64)
	case "response_time":
		return strconv.FormatFloat(v*1e3, 'f', 1, 64)
	case "jain_flows":
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// unit is the table's unit of metric.
func unit(metric string) string {
	switch metric {
	case "goodput", "throughput":
		return "Mbit/s"
	case "response_time":
		return "ms"
	}
	return ""
}

func cell(metric string, s Summary) string {
	if s.N == 0 {
		return "no data"
	}
	if s.Min == s.Max {
		return format(metric, s.Mean)
	}
	return fmt.Sprintf("%s [%s, %s]", format(metric, s.Mean), format(metric, s.Min), format(metric, s.Max))
}

func metricName(metric string) string {
	if u := unit(metric); u != "" {
		return metric + " (" + u + ")"
	}
	return metric
}

// Render writes docs/validation.md from the scenarios and their samples.
func Render(scen []Scenario, samples []Sample) ([]byte, error) {
	seeds := map[string]map[int]bool{}
	for _, x := range samples {
		k := x.Scenario + "/" + string(x.Side)
		if seeds[k] == nil {
			seeds[k] = map[int]bool{}
		}
		seeds[k][x.Seed] = true
	}
	var b bytes.Buffer
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("# crosslink against ns-3\n\n")
	p("<!-- Generated by `make validate` (validation/cmd/validate) from validation/results.csv; do not edit. -->\n\n")
	p("Matched scenarios run in crosslink's TCP models and in small ns-3 programs of our own\n")
	p("(validation/ns3/link.cc: one flow over one link; validation/ns3/dumbbell.cc: N flows sharing a\n")
	p("bottleneck) against ns-3 3.37 from Debian (packages ns3, libns3-dev). Both sides are derived from\n")
	p("one description per scenario (validation/scenarios.go). Rerun with `make validate`; the samples,\n")
	p("one line per (scenario, simulator, seed, metric), are in validation/results.csv.\n\n")
	p("Targets: **exact** scenarios (no random loss) agree when the means differ by at most %g %%;\n", ExactTolerance*100)
	p("**lossy** scenarios agree when crosslink's mean lies within ns-3's range over its seeds.\n")
	p("Cells give the mean over seeds and [min, max]; the difference is (crosslink - ns-3) / ns-3.\n\n")
	p("## Agreement\n\n")
	p("Base scenarios run crosslink's default host on both sides (no timestamps, no PRR, 1 s SYN\n")
	p("timeout, the whole transfer written at once with no send buffer limit, access links at the\n")
	p("backbone rate; ssthresh from FlightSize in crosslink, from the pipe in ns-3); `+ns3opts` runs\n")
	p("ns-3's defaults on both sides (timestamps, PRR, 3 s SYN timeout, 512-byte writes into a\n")
	p("128 KiB send buffer, ssthresh from the pipe, no RACK, 10x access links: issue 15's set-up;\n")
	p("and in crosslink ns-3's PRR rounding in bytes and cwnd growth on the ACK that ends recovery);\n")
	p("`+tsprr` only timestamps, PRR and the 3 s SYN timeout; `+flightsize` gives ns-3's NewReno\n")
	p("RFC 5681's ssthresh and crosslink its default, FlightSize, on both sides (see the findings).\n")
	p("Every scenario's crosslink host acknowledges the first data segment at once as ns-3's does\n")
	p("(ack_first_segment; it acts only with delayed ACKs) and both take the dumbbell queue in packets.\n\n")
	p("| scenario | class | model | metric | seeds | ns-3 | crosslink | difference | verdict |\n")
	p("|---|---|---|---|---|---|---|---|---|\n")
	pass, total := map[Class]int{}, map[Class]int{}
	opts, optsTotal := map[Class]int{}, map[Class]int{} // the +ns3opts rows
	for _, s := range scen {
		if s.Class == Effect {
			continue
		}
		c := Compare(s, s.Metric, samples)
		verdict := "**differs**"
		ns3opts := strings.HasSuffix(s.Name, "+ns3opts")
		if c.Pass {
			verdict = "agrees"
			pass[s.Class]++
			if ns3opts {
				opts[s.Class]++
			}
		}
		total[s.Class]++
		if ns3opts {
			optsTotal[s.Class]++
		}
		if c.NS3.N == 0 || c.Crosslink.N == 0 {
			verdict = "not run"
		}
		p("| %s | %s | %s | %s | %d | %s | %s | %+.2f %% | %s |\n", s.Name, s.Class, s.Model, metricName(s.Metric),
			min(len(seeds[s.Name+"/"+string(NS3)]), len(seeds[s.Name+"/"+string(Crosslink)])),
			cell(s.Metric, c.NS3), cell(s.Metric, c.Crosslink), c.Diff*100, verdict)
	}
	p("\n%d of %d exact scenarios agree within %g %%; %d of %d lossy scenarios agree within ns-3's seed range.\n",
		pass[Exact], total[Exact], ExactTolerance*100, pass[Lossy], total[Lossy])
	p("With ns-3's settings on both sides (`+ns3opts`): %d of %d exact and %d of %d lossy scenarios agree.\n\n",
		opts[Exact], optsTotal[Exact], opts[Lossy], optsTotal[Lossy])
	effects := slices.ContainsFunc(scen, func(s Scenario) bool { return s.Class == Effect })
	if effects {
		p("## Effects of ns-3 settings\n\n")
		p("Each row changes ns-3 settings of its base scenario while crosslink runs the base unchanged,\n")
		p("so the difference shows those settings' effect on ns-3 (see the findings). Not judged.\n\n")
		p("| scenario | ns-3 setting | metric | seeds | ns-3 | crosslink | difference |\n|---|---|---|---|---|---|---|\n")
		for _, s := range scen {
			if s.Class != Effect {
				continue
			}
			c := Compare(s, s.Metric, samples)
			keys := make([]string, 0, len(s.NS3Set))
			for k, v := range s.NS3Set {
				keys = append(keys, k+"="+v)
			}
			sort.Strings(keys)
			p("| %s | %s | %s | %d | %s | %s | %+.2f %% |\n", s.Name, strings.Join(keys, ", "), metricName(s.Metric),
				min(len(seeds[s.Name+"/"+string(NS3)]), len(seeds[s.Name+"/"+string(Crosslink)])),
				cell(s.Metric, c.NS3), cell(s.Metric, c.Crosslink), c.Diff*100)
		}
		p("\n")
	}
	p("## Other metrics\n\n")
	p("Shown for tracing differences, not judged. ns-3's counts come from its socket traces:\n")
	p("retransmitted segments resend sequence space already sent, fast recoveries are entries into\n")
	p("CA_RECOVERY and timeout episodes entries into CA_LOSS.\n\n")
	p("| scenario | metric | ns-3 | crosslink |\n|---|---|---|---|\n")
	for _, s := range scen {
		for _, m := range s.Extra {
			c := Compare(s, m, samples)
			p("| %s | %s | %s | %s |\n", s.Name, metricName(m), cell(m, c.NS3), cell(m, c.Crosslink))
		}
	}
	p("\n## Scenarios and findings\n\n")
	byName := map[string]Scenario{}
	for _, s := range scen {
		byName[s.Name] = s
	}
	for _, s := range scen {
		p("### %s\n\n%s. crosslink model %s, ns-3 program %s.\n\nHost: %s.\n\n", s.Name, capitalize(s.What), s.Model, s.Program, s.Host)
		if s.Finding != "" {
			f, err := expand(s.Finding, s.Name, byName, samples)
			if err != nil {
				return nil, err
			}
			p("Finding: %s\n\n", f)
		}
		if s.NS3Set != nil {
			continue // a variant: its base lists the notes
		}
		notes := append([]string(nil), s.Notes...)
		sort.Strings(notes)
		for _, n := range notes {
			p("- %s\n", n)
		}
		p("\n")
	}
	p("## Host settings\n\n")
	p(hostTable)
	return b.Bytes(), nil
}

// hostTable lists ns-3's TCP defaults, what the programs set and why.
const hostTable = `ns-3 3.37's defaults (printed from its attribute system) and what the programs set so that
both simulators run the same host:

| ns-3 attribute | ns-3 default | set to | crosslink |
|---|---|---|---|
| TcpSocket::SegmentSize | 536 B | 1448 B | mss 1448 B |
| TcpSocket::InitialCwnd | 10 | 10 | iw 10 |
| TcpSocket::RcvBufSize | 131072 B | the scenario's window | window |
| TcpSocket::SndBufSize | 131072 B | 1 GiB; 131072 B in +ns3opts | send_buffer 0 (unlimited); 131072 B in +ns3opts |
| TcpSocket::DelAckCount, DelAckTimeout | 2, 200 ms | 1 (off) or 2, 200 ms | delayed_ack |
| the first data segment after the handshake (TcpSocketBase::ProcessSynRcvd, ProcessSynSent: m_delAckCount = m_delAckMaxCount) | acknowledged at once, then every DelAckCount-th | unchanged | ack_first_segment true (quick_ack false: Linux ACKs up to 16 segments at once) |
| TcpSocket::ConnTimeout | 3 s | 1 s; 3 s in +ns3opts and +tsprr | syn_timeout 1 s; 3 s in +ns3opts and +tsprr |
| TcpSocketBase::WindowScaling | true | the scenario's | window_scaling (tcp-compete: on) |
| TcpSocketBase::Sack | true | the scenario's | sack (tcp-compete: on) |
| TcpSocketBase::Timestamp | true | false; true in +ns3opts and +tsprr | timestamps off; on in +ns3opts and +tsprr |
| TcpSocketBase::MinRto | 1 s | the scenario's | min_rto |
| TcpSocketBase::ClockGranularity | 1 ms | 1 ms | 1 ms |
| TcpSocketBase::LimitedTransmit | true | true | limited_transmit true |
| TcpSocketBase::ReTxThreshold | 3 | 3 | 3, loss_detection dupthresh (RACK for lost retransmissions only); dupthresh-only (no RACK) in +ns3opts |
| TcpL4Protocol::SocketType | TcpCubic | TcpNewReno or TcpCubic | cca / ccas |
| TcpL4Protocol::RecoveryType | TcpPrrRecovery | TcpClassicRecovery; TcpPrrRecovery in +ns3opts and +tsprr | RFC 6582 NewReno or RFC 6675 SACK recovery; prr in +ns3opts and +tsprr |
| TcpCubic::HyStart | true | false | HyStart off |
| NewReno's ssthresh on loss | half of BytesInFlight (the RFC 6675 pipe) | unchanged; half of FlightSize in the +flightsize variants (crosslink::TcpNewRenoFlightSize) | ssthresh_basis flight_size (RFC 5681 eq. 4); pipe in +ns3opts |
| TcpPrrRecovery's share CEIL(prr_delivered * ssthresh / RecoverFS) (DoRecovery) | rounded up in bytes; a segment goes once a whole one fits (SendPendingData) | unchanged | prr_rounding segments (Linux, RFC 6937 section 5's example); bytes in +ns3opts |
| cwnd on the ACK that ends fast recovery (TcpSocketBase::ProcessAck) | ssthresh, then IncreaseWindow on the same ACK | unchanged | grow_on_recovery_exit false (RFC 5681 3.2 step 6, RFC 6937 3.1: ssthresh); true in +ns3opts |
| BulkSendApplication::SendSize | 512 B | one segment; 512 B in +ns3opts | write_size 0; 512 B in +ns3opts |
| PointToPointNetDevice queue | DropTail 100 packets under an FqCoDel root queue disc | DropTail of the scenario's limit, queue disc uninstalled | DropTail queue |
| RateErrorModel (receiving device) | - | ERROR_UNIT_PACKET at the scenario's PER | per / loss |
| dumbbell access links | - | the backbone rate (10 times it in +ns3opts), no delay, DropTail 1000 packets | tcp-compete: access_rate, access_delay 0, access_queue 1000 |
| dumbbell start times | - | uniform in [0, 100 ms) from ns-3's stream | stagger 100 ms (crosslink's own stream) |
| host jitter | none | none | host_jitter 0 |
`

// capitalize returns s with its first letter upper-case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
