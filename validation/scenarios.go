package validation

// linkHost is the one-flow host: a 1448-byte MSS (a 1500-byte MTU less
// 40 header bytes and Linux's 12 timestamp option bytes, so the same MSS
// fits when timestamps are on), Linux's and ns-3's initial window of 10,
// a 4 MiB scaled window that never limits, NewReno without SACK, no delayed
// ACKs, RFC 6298's 1 s minimum RTO.
var linkHost = Host{MSS: 1448, IW: 10, Window: 4 << 20, WScale: true, MinRTO: 1, CCA: "newreno"}

// competeHost is tcp-compete's host (Linux's: IW 10, 200 ms minimum RTO,
// SACK, window scaling, 16 MiB buffers) with the same 1448-byte MSS.
var competeHost = Host{MSS: 1448, IW: 10, Window: 16 << 20, WScale: true, SACK: true, MinRTO: 0.2, CCA: "newreno", Compete: true}

// with returns h changed by f.
func (h Host) with(f func(*Host)) Host { f(&h); return h }

// Notes shared by several scenarios.
const (
	notePPP    = "ns-3's point-to-point device adds a 2-byte PPP header: 1490 B data packets and 42 B ACKs on the wire against crosslink's 1488 B and 40 B without timestamps (0.13 % less capacity for data)"
	noteApp    = "without a write size, ns-3's BulkSend writes one segment at a time into a 1 GiB send buffer that never fills, as crosslink's source hands over the whole transfer at once; +ns3opts writes 512 bytes at a time into ns-3's default 128 KiB send buffer on both sides"
	noteRACK   = "crosslink's loss_detection is dupthresh: ns-3 3.37 has no RACK-TLP"
	noteJitter = "crosslink's host_jitter is 0: ns-3 has no host jitter"
	noteAccess = "access links run at the backbone rate on both sides in the base scenarios, at 10 times it in +ns3opts"
	noteCubic  = "HyStart off in ns-3: tcp-compete's cubic runs without it"
)

// variant returns base with the ns-3 arguments set changed, under the name
// base+suffix.
func variant(base Scenario, suffix string, class Class, what string, set map[string]string) Scenario {
	v := base
	v.Name = base.Name + "+" + suffix
	v.Class = class
	v.What = what
	v.NS3Set = set
	if set["ssthresh"] == "flightsize" {
		v.Host.SsthreshPipe = false // RFC 5681 on both sides
	}
	v.Finding = ""
	return v
}

// withNS3Options returns s with the host options crosslink shares with
// ns-3 set on both sides as ns-3 has them by default: timestamps, PRR, a 3 s
// SYN timeout, BulkSend's 512-byte writes into TcpSocket's 128 KiB send
// buffer, ssthresh from the pipe (TcpSocketBase::EnterRecovery), no RACK
// (ns-3 3.37 has none: a lost retransmission waits for the timer), PRR's
// share rounded up in bytes (TcpPrrRecovery::DoRecovery), cwnd grown on
// the ACK that ends fast recovery (TcpSocketBase::ProcessAck)
// and, on a dumbbell, access links at 10 times the backbone rate (issue
// 15's set-up).
func withNS3Options(s Scenario) Scenario {
	v := s
	v.Name = s.Name + "+ns3opts"
	v.What = "as " + s.Name + ", with ns-3's defaults on both sides: timestamps, PRR, a 3 s SYN timeout, 512-byte writes into a 128 KiB send buffer, ssthresh from the pipe, no RACK, PRR's share rounded in bytes, cwnd grown on the ACK that ends recovery"
	v.Host.TS, v.Host.PRR, v.Host.SYNTimeout, v.Host.WriteSize = true, true, 3, 512
	v.Host.SendBuffer, v.Host.SsthreshPipe, v.Host.NoRACK, v.Host.ExitGrowth, v.Host.PRRBytes = 131072, true, true, true, true
	if s.Program == "dumbbell" {
		v.AccessRate = 10 * s.Rate
		v.What += " and access links at 10 times the backbone rate"
	}
	v.Finding = ""
	return v
}

// withTSPRR returns s with timestamps, PRR and a 3 s SYN timeout on both
// sides, and crosslink's whole-transfer writes and access links at the
// backbone rate: the options both simulators model alike.
func withTSPRR(s Scenario) Scenario {
	v := s
	v.Name = s.Name + "+tsprr"
	v.What = "as " + s.Name + ", with timestamps, PRR and a 3 s SYN timeout on both sides"
	v.Host.TS, v.Host.PRR, v.Host.SYNTimeout = true, true, 3
	v.Finding = ""
	return v
}

// Scenarios returns the matched scenarios, in table order: the base
// scenarios (ns-3 set to crosslink's default host), the same with ns-3's
// host defaults on both sides (+ns3opts), with only timestamps, PRR and the
// SYN timeout of them (+tsprr), and the variants that give
// ns-3's NewReno RFC 5681's ssthresh (+flightsize).
func Scenarios() []Scenario {
	base := baseScenarios()
	by := map[string]Scenario{}
	out := base
	for _, s := range base {
		by[s.Name] = s
	}
	for _, n := range []string{"rt-100KB", "rt-1MB-delack", "wl-64KB", "wl-64KB-delack", "pipe-q40-sack", "per1%-sack",
		"per0.1%-sack", "rt-1MB-per1%", "db10-newreno", "db10-newreno-q200", "db10-newreno-50ms", "db10-cubic",
		"db10-newreno-loss0.5%"} {
		v := withNS3Options(by[n])
		by[v.Name] = v
		out = append(out, v)
	}
	for _, n := range []string{"rt-100KB", "rt-1MB-delack", "wl-64KB", "wl-64KB-delack", "pipe-q40-sack", "per1%-sack",
		"db10-newreno", "db10-cubic"} {
		v := withTSPRR(by[n])
		by[v.Name] = v
		out = append(out, v)
	}
	flight := map[string]string{"ssthresh": "flightsize"}
	const flightWhat = "ns-3's NewReno sets ssthresh from FlightSize as RFC 5681 and crosslink do, instead of from BytesInFlight"
	for _, n := range []string{"pipe-q40", "per1%-newreno", "per1%-sack", "per0.1%-sack", "rt-1MB-per1%", "db10-newreno",
		"db10-newreno-50ms", "db10-newreno-loss0.5%", "per1%-sack+ns3opts", "db10-newreno+ns3opts", "db10-newreno-loss0.5%+ns3opts",
		"db10-newreno+tsprr"} {
		out = append(out, variant(by[n], "flightsize", by[n].Class, flightWhat, flight))
	}
	// ns-3's send buffer at 1 GiB beside crosslink's 128 KiB: what ns-3
	// does differently when it always has new data to send.
	bigBuf := map[string]string{"sndbuf": "1073741824"}
	for _, n := range []string{"pipe-q40-sack+ns3opts", "per0.1%-sack+ns3opts", "rt-1MB-per1%+ns3opts"} {
		out = append(out, variant(by[n], "sndbuf1GiB", Effect,
			"as "+n+" with ns-3's send buffer at 1 GiB, crosslink's at 128 KiB: ns-3 always has new data to send", bigBuf))
	}
	findings := variantFindings()
	for i := range out {
		if f, ok := findings[out[i].Name]; ok {
			out[i].Finding = f
		}
	}
	return out
}

// baseScenarios are the scenarios with ns-3 set to crosslink's host.
func baseScenarios() []Scenario {
	link := []string{notePPP, noteApp}
	dumbbell := []string{notePPP, noteApp, noteRACK, noteJitter, noteAccess}
	return []Scenario{
		{
			Name: "rt-100KB", Class: Exact, Program: "link", Model: "tcp-transfer", Host: linkHost,
			What: "response time of 100 KB over 10 Mbit/s, 50 ms: handshake and slow start",
			Rate: 10e6, Delay: 0.05, Size: 100_000,
			Metric: "response_time", Extra: []string{"retrans_segs"}, Finding: "the handshake, the initial window of 10 and slow start are the same on both sides ({diff}); what remains is about what ns-3's 2-byte PPP header costs on its 70 segments at 10 Mbit/s (1.6 us each).",
			Notes: link,
		},
		{
			Name: "rt-1MB-delack", Class: Exact, Program: "link", Model: "tcp-transfer",
			Host: linkHost.with(func(h *Host) { h.DelAck = true }),
			What: "response time of 1 MB over 10 Mbit/s, 50 ms, delayed ACKs (every second segment, 200 ms)",
			Rate: 10e6, Delay: 0.05, Size: 1_000_000,
			Metric: "response_time", Extra: []string{"retrans_segs"}, Finding: "delayed ACKs (every second segment, a 200 ms timer) pace slow start alike on both sides ({diff}).",
			Notes: link,
		},
		{
			Name: "wl-64KB", Class: Exact, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.Window = 65535; h.WScale = false }),
			What: "window-limited goodput: 64 KB unscaled window over 10 Mbit/s, 50 ms (W/RTT about 5.2 Mbit/s)",
			Rate: 10e6, Delay: 0.05, Duration: 20, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs"}, Finding: "the 65535-byte window (45 segments) per round trip sets the goodput on both sides; they deliver the same bytes after the warm-up.",
			Notes: link,
		},
		{
			Name: "wl-64KB-delack", Class: Exact, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.Window = 65535; h.WScale = false; h.DelAck = true }),
			What: "window-limited goodput as wl-64KB, with delayed ACKs",
			Rate: 10e6, Delay: 0.05, Duration: 20, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs"}, Notes: link,
		},
		{
			Name: "geo-64KB-delack", Class: Exact, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.Window = 65535; h.WScale = false; h.DelAck = true }),
			What: "window-limited goodput over a GEO hop: 64 KB unscaled window, 10 Mbit/s, 250 ms one-way, delayed ACKs (W/RTT about 1.05 Mbit/s)",
			Rate: 10e6, Delay: 0.25, Duration: 60, Warmup: 5,
			Metric: "goodput", Extra: []string{"retrans_segs"}, Finding: "ns-3's receiver acknowledges the first data segment after the handshake at once (TcpSocketBase::ProcessSynRcvd sets m_delAckCount = m_delAckMaxCount, \"Always respond to first data packet to speed up the connection\") and pairs the rest from the second; crosslink does so under ack_first_segment, set in every scenario: both deliver the same bytes after the warm-up ({diff}); delaying from the first segment, crosslink was -0.82 % (1.019 Mbit/s), its ACKs pairing different segments from then on.",
			Notes: link,
		},
		{
			Name: "isl-64KB-delack", Class: Exact, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.Window = 65535; h.WScale = false; h.DelAck = true }),
			What: "window-limited goodput over document 000's longest ISL: 64 KB unscaled window, 1 Gbit/s, 266.7 ms one-way, delayed ACKs",
			Rate: 1e9, Delay: 0.2667, Duration: 60, Warmup: 5,
			Metric: "goodput", Extra: []string{"retrans_segs"}, Finding: "as geo-64KB-delack: the same bytes delivered ({diff}) with ack_first_segment; -1.11 % (0.955 Mbit/s) without it.",
			Notes: link,
		},
		{
			Name: "rt-100KB-384k-delack", Class: Exact, Program: "link", Model: "tcp-transfer",
			Host: linkHost.with(func(h *Host) { h.DelAck = true }),
			What: "response time of 100 KB over document 001's 0.384 Mbit/s, 50 ms one-way, delayed ACKs",
			Rate: 384e3, Delay: 0.05, Size: 100_000,
			Metric: "response_time", Extra: []string{"retrans_segs"}, Finding: "a 1488-byte packet takes 31 ms at 0.384 Mbit/s, so the initial window of 10 fills the 100 ms round trip and the link, not the ACKs, paces the transfer: {diff} with and without ack_first_segment, about what ns-3's 2-byte PPP header costs on 70 packets (2.9 ms, 0.13 %).",
			Notes: link,
		},
		{
			Name: "rt-100KB-384k-250ms-delack", Class: Exact, Program: "link", Model: "tcp-transfer",
			Host: linkHost.with(func(h *Host) { h.DelAck = true }),
			What: "as rt-100KB-384k-delack over 250 ms one-way (a GEO hop)",
			Rate: 384e3, Delay: 0.25, Size: 100_000,
			Metric: "response_time", Extra: []string{"retrans_segs"}, Finding: "at 250 ms the path holds 16 packets, more than the initial window, so the first ACK's round trip counts: with ack_first_segment {diff} (the PPP header's 2.9 ms), without it +1.86 % (3244.3 ms), crosslink's window growing one ACK later.",
			Notes: link,
		},
		{
			Name: "pipe-q40", Class: Exact, Program: "link", Model: "tcp-bulk", Host: linkHost,
			What: "bulk goodput filling 10 Mbit/s, 25 ms through a 40-packet DropTail (about one BDP): overflow losses only",
			Rate: 10e6, Delay: 0.025, Queue: 40, Duration: 30, Warmup: 5,
			Metric: "goodput", Extra: []string{"retrans_segs", "fast_recoveries", "rto_episodes"}, Finding: "traced to ns-3 3.37's loss recovery without SACK, which emulates SACK by counting duplicate ACKs as SACKed segments and sends by that pipe estimate (BytesInFlight): in seed 1 it stays in one recovery episode from 2.10 s to 3.20 s with 9-10 segments in flight and leaves it by a timeout (`bin/validation/link --rate=1e7 --delay=0.025 --queue=40 --rcvbuf=4194304 --sack=false --delack=false --ts=false --synTimeout=1 --recovery=classic --duration=30 --warmup=5 --trace=true` prints the trace). ns-3 averages {ns3:pipe-q40:rto_episodes} timeout episodes and {ns3:pipe-q40:retrans_segs} retransmissions against crosslink's {cl:pipe-q40:rto_episodes} and {cl:pipe-q40:retrans_segs}. With SACK (pipe-q40-sack) the two agree ({diff:pipe-q40-sack}). crosslink's {cl} is close to the 9.73 Mbit/s of payload a full link carries in 1488-byte packets, what NewReno reaches with a queue of about one bandwidth-delay product.",
			Notes: link,
		},
		{
			Name: "pipe-q40-sack", Class: Exact, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.SACK = true }),
			What: "as pipe-q40 with SACK (RFC 6675 recovery)",
			Rate: 10e6, Delay: 0.025, Queue: 40, Duration: 30, Warmup: 5,
			Metric: "goodput", Extra: []string{"retrans_segs", "fast_recoveries", "rto_episodes"}, Finding: "one flow, overflow losses only, SACK: {ns3:pipe-q40-sack:fast_recoveries} fast recoveries in ns-3 and {cl:pipe-q40-sack:fast_recoveries} in crosslink, {ns3:pipe-q40-sack:retrans_segs} and {cl:pipe-q40-sack:retrans_segs} retransmissions. ns-3's lower goodput ({diff}) is its deeper ssthresh cut (see per1%-sack) and its 2-byte PPP header (0.13 %); with ssthresh from the pipe on both sides and ns-3's other defaults, pipe-q40-sack+ns3opts differs by {diff:pipe-q40-sack+ns3opts}.",
			Notes: link,
		},
		{
			Name: "per1%-newreno", Class: Lossy, Program: "link", Model: "tcp-bulk", Host: linkHost,
			What: "bulk goodput with 1 % packet error rate, 10 Mbit/s, 50 ms, NewReno without SACK",
			Rate: 10e6, Delay: 0.05, PER: 0.01, Duration: 30, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs", "fast_recoveries", "rto_episodes"}, Finding: "ns-3 is bimodal over its seeds ({range}), some seeds several times Mathis et al.'s 1.22 MSS / (RTT sqrt(p)) = 1.40 Mbit/s (MSS 1448 B, RTT 101 ms, p = 1 %), where crosslink's seeds lie ({clrange}). In seed 1 ns-3's pipe estimate stays at 1-2 segments through a 1.06 s recovery episode (3.52-4.58 s, from its --trace=true output) while the sender keeps delivering 7 Mbit/s: the non-SACK recovery of pipe-q40 again. The verdict passes only because ns-3's range is that wide.",
			Notes: link,
		},
		{
			Name: "per1%-sack", Class: Lossy, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.SACK = true }),
			What: "as per1%-newreno with SACK (RFC 6675 recovery)",
			Rate: 10e6, Delay: 0.05, PER: 0.01, Duration: 30, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs", "fast_recoveries", "rto_episodes"}, Finding: "traced to ns-3's ssthresh: TcpSocketBase::EnterRecovery halves BytesInFlight(), the RFC 6675 pipe, which by the third duplicate ACK leaves out the three SACKed segments and the one marked lost, where RFC 5681 section 3.2 equation (4), crosslink's default, halves FlightSize. At 1 % loss the window is about 12 segments, so ns-3 cuts ssthresh by a third more. With FlightSize in ns-3 (per1%-sack+flightsize, a TcpNewReno subclass in validation/ns3/tcphost.h) the difference goes from {diff} to {diff:per1%-sack+flightsize}, and fast recoveries match ({ns3:per1%-sack+flightsize:fast_recoveries} against {cl:per1%-sack+flightsize:fast_recoveries}); with the pipe on both sides (ssthresh_basis pipe, per1%-sack+ns3opts) it is {diff:per1%-sack+ns3opts}.",
			Notes: link,
		},
		{
			Name: "per0.1%-sack", Class: Lossy, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.SACK = true }),
			What: "bulk goodput with 0.1 % packet error rate, 10 Mbit/s, 50 ms, SACK",
			Rate: 10e6, Delay: 0.05, PER: 0.001, Duration: 30, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs", "fast_recoveries", "rto_episodes"}, Finding: "agrees within ns-3's wide range ({range}); ns-3's ssthresh cut (see per1%-sack) matters less at larger windows ({diff:per0.1%-sack+flightsize} with FlightSize in ns-3).",
			Notes: link,
		},
		{
			Name: "rt-1MB-per1%", Class: Lossy, Program: "link", Model: "tcp-transfer",
			Host: linkHost.with(func(h *Host) { h.SACK = true }),
			What: "response time of 1 MB with 1 % packet error rate, 10 Mbit/s, 50 ms, SACK",
			Rate: 10e6, Delay: 0.05, PER: 0.01, Size: 1_000_000,
			Metric: "response_time", Extra: []string{"retrans_segs", "rto_episodes"}, Finding: "the spread comes from which segments are lost and whether a retransmission timeout (1 s minimum) is needed; crosslink's mean lies inside ns-3's range. No SYN was lost in these seeds, so the SYN timeout did not act.",
			Notes: link,
		},
		{
			Name: "db10-newreno", Class: Exact, Program: "dumbbell", Model: "tcp-compete", Host: competeHost,
			What: "10 NewReno flows, 20 Mbit/s, 10 ms backbone, queue 100 % of the BDP, no random loss: total goodput",
			Rate: 20e6, Delay: 0.01, Flows: 10, QueuePct: 100, Stagger: 0.1, Duration: 20,
			Metric: "goodput", Extra: []string{"jain_flows", "retrans_segs"}, Finding: "traced to the same ssthresh choice as per1%-sack: 10 flows share about 50 packets of window (33 in flight, 17 queued), 5 per flow, so halving the pipe instead of FlightSize cuts the windows below the bandwidth-delay product after each overflow and the link idles. With FlightSize in ns-3 (db10-newreno+flightsize) the difference is {diff:db10-newreno+flightsize}; with a queue of 200 % of the BDP, which absorbs the deeper cut, {diff:db10-newreno-q200} (db10-newreno-q200); CUBIC, whose ns-3 ssthresh is 0.7 cwnd rather than a function of the pipe, {diff:db10-cubic} (db10-cubic). crosslink's Jain index spreads as {clrange:db10-newreno:jain_flows} against ns-3's {range:db10-newreno:jain_flows}: with host_jitter 0 its flows can lock into phase (Floyd and Jacobson 1992), which is why tcp-compete jitters hosts by default.",
			Notes: dumbbell,
		},
		{
			Name: "db10-newreno-q200", Class: Exact, Program: "dumbbell", Model: "tcp-compete", Host: competeHost,
			What: "as db10-newreno with the queue at 200 % of the BDP",
			Rate: 20e6, Delay: 0.01, Flows: 10, QueuePct: 200, Stagger: 0.1, Duration: 20,
			Metric: "goodput", Extra: []string{"jain_flows", "retrans_segs"}, Notes: dumbbell,
		},
		{
			Name: "db10-newreno-50ms", Class: Exact, Program: "dumbbell", Model: "tcp-compete", Host: competeHost,
			What: "as db10-newreno over a 50 ms backbone: five times the window per flow",
			Rate: 20e6, Delay: 0.05, Flows: 10, QueuePct: 100, Stagger: 0.1, Duration: 30,
			Metric: "goodput", Extra: []string{"jain_flows", "retrans_segs"}, Finding: "the ssthresh choice of db10-newreno again, with 5 times the window per flow: {diff}, and {diff:db10-newreno-50ms+flightsize} with FlightSize in ns-3.",
			Notes: dumbbell,
		},
		{
			Name: "db10-cubic", Class: Exact, Program: "dumbbell", Model: "tcp-compete",
			Host: competeHost.with(func(h *Host) { h.CCA = "cubic" }),
			What: "as db10-newreno with CUBIC (HyStart off on both sides)",
			Rate: 20e6, Delay: 0.01, Flows: 10, QueuePct: 100, Stagger: 0.1, Duration: 20,
			Metric: "goodput", Extra: []string{"jain_flows", "retrans_segs"}, Finding: "agree ({diff}). Per-flow shares differ more than the total: crosslink's Jain index ranges {clrange:db10-cubic:jain_flows} against ns-3's {range:db10-cubic:jain_flows} without host jitter (see db10-newreno).",
			Notes: append(dumbbell[:len(dumbbell):len(dumbbell)], noteCubic),
		},
		{
			Name: "db10-newreno-loss0.5%", Class: Lossy, Program: "dumbbell", Model: "tcp-compete", Host: competeHost,
			What: "as db10-newreno with 0.5 % random loss on the backbone",
			Rate: 20e6, Delay: 0.01, Flows: 10, QueuePct: 100, PER: 0.005, Stagger: 0.1, Duration: 20,
			Metric: "goodput", Extra: []string{"jain_flows", "retrans_segs"}, Finding: "crosslink is {diff} from ns-3, outside its narrow range; with FlightSize in ns-3 the means differ by {diff:db10-newreno-loss0.5%+flightsize} (db10-newreno-loss0.5%+flightsize): the ssthresh choice of db10-newreno.",
			Notes: dumbbell,
		},
		{
			// The command-line probe's set-up (BenchmarkCompeteProbe,
			// engine/models) with 10 Gbit/s access links, as
			// BenchmarkProbeCubic's (engine/tcp/bench_test.go, whose access
			// links also have 1 ms of delay), and ns-3's loss detection on
			// both sides: ns-3 3.37 has no RACK, so a lost retransmission
			// waits for the retransmission timer.
			Name: "probe-cubic", Class: Exact, Program: "dumbbell", Model: "tcp-compete",
			Host: competeHost.with(func(h *Host) { h.CCA = "cubic"; h.NoRACK = true }),
			What: "the CUBIC probe: 10 CUBIC flows, 1 Gbit/s, 25 ms backbone, 1000-packet DropTail (48 % of the BDP), 10 Gbit/s access links, 30 s, dupthresh-only on both sides",
			Rate: 1e9, Delay: 0.025, Flows: 10, QueuePct: 48, AccessRate: 10e9, Stagger: 0.1, Duration: 30,
			Metric: "goodput", Extra: []string{"jain_flows", "retrans_segs", "rto_episodes"},
			Finding: "{diff} over 30 s. Every timeout of either simulator falls in the first recovery after the ten slow starts (HyStart off) overshoot the 1000-packet queue together: ns-3's traces (`bin/validation/dumbbell` with this scenario's arguments and `--trace=true`, its CA_LOSS entries) put them at 0.69-1.26 s in its five runs, and crosslink's runs cut at 0.5 s have none, cut at 1 s all of them. Each follows a lost retransmission, which without RACK only the timer finds: with loss_detection dupthresh (RACK for lost retransmissions) crosslink has none in the same five seeds and delivers 22-31 % more in the first 2 s. Timeout episodes per run: ns-3 {ns3:probe-cubic:rto_episodes} ({range:probe-cubic:rto_episodes}), crosslink {cl:probe-cubic:rto_episodes} ({clrange:probe-cubic:rto_episodes}); which flows lose a retransmission depends on their start times, which each simulator draws from its own stream, and crosslink's higher count is not traced further. Over the first 2 s the gap is wider (ns-3 runs 1-3: 783.6, 605.4 and 729.7 Mbit/s; crosslink seeds 1-3: 671.6, 593.8 and 640.1); the 28 s that follow dilute it. TestFindingProbeTimeouts reruns crosslink's typed numbers above (the cut runs, the 22-31 % and seeds 1-3).",
			Notes:   append(dumbbell[:len(dumbbell):len(dumbbell)], noteCubic),
		},
	}
}

// variantFindings returns the findings that trace the differences of the
// variants, once measured.
func variantFindings() map[string]string {
	return map[string]string{
		"rt-100KB+tsprr":                           "timestamps lengthen the response time on both sides alike (12 more bytes a segment): {diff}. PRR and the SYN timeout do not act without loss.",
		"rt-1MB-delack+tsprr":                      "{diff}, as without the options.",
		"wl-64KB+tsprr":                            "the window bounds both; timestamps cost both the same 12 bytes a segment ({diff}).",
		"wl-64KB-delack+tsprr":                     "as wl-64KB+tsprr ({diff}).",
		"pipe-q40-sack+tsprr":                      "with PRR and timestamps on both sides: {diff}.",
		"per1%-sack+tsprr":                         "PRR on both sides leaves per1%-sack's ssthresh difference (see per1%-sack+ns3opts, where crosslink takes ssthresh from the pipe too).",
		"db10-newreno+tsprr":                       "the ssthresh choice of db10-newreno: {diff}; with FlightSize in ns-3 (db10-newreno+tsprr+flightsize) {diff:db10-newreno+tsprr+flightsize}.",
		"db10-cubic+tsprr":                         "{diff}.",
		"rt-100KB+ns3opts":                         "{diff}. BulkSend's 512-byte writes at connection leave as full segments on both sides: ns-3's TcpSocketBase::Send defers SendPendingData one time step, crosslink coalesces the writes of one instant (engine/tcp/sndbuf.go); 100 KB fits the 128 KiB send buffer.",
		"rt-1MB-delack+ns3opts":                    "{diff}. Once 1 MB no longer fits the 128 KiB send buffer, both sides refill it 512 bytes at a time as ACKs free room and send the refills as short segments (ns-3: TcpSocketBase::NewAck's NotifySend, BulkSendApplication::DataSend; crosslink: the blocked writer of engine/tcp/sndbuf.go), which lengthens the transfer on both sides against rt-1MB-delack+tsprr ({ns3:rt-1MB-delack+tsprr} in ns-3).",
		"wl-64KB+ns3opts":                          "the window bounds both; neither the write size nor the send buffer acts: {diff}.",
		"wl-64KB-delack+ns3opts":                   "{diff}.",
		"pipe-q40-sack+ns3opts":                    "{diff} with the send buffer, the writes and ssthresh from the pipe on both sides. ns-3 retransmits {ns3:pipe-q40-sack+ns3opts:retrans_segs} segments against crosslink's {cl:pipe-q40-sack+ns3opts:retrans_segs} for about the same number of fast recoveries, traced to ns-3 3.37's TcpTxBuffer::NextSeg, which applies RFC 6675's rule (3) without its condition (1.b): when it has no new data to send, as with a full send buffer, it retransmits the first unSACKed segment even above the highest SACKed byte, that is segments still in flight; crosslink keeps to (1.b) (Scoreboard.nextUnsacked). With ns-3's buffer at 1 GiB (pipe-q40-sack+ns3opts+sndbuf1GiB) ns-3 retransmits {ns3:pipe-q40-sack+ns3opts+sndbuf1GiB:retrans_segs}, as many as without the options. Here they cost ns-3 little goodput.",
		"per1%-sack+ns3opts":                       "with ssthresh from the pipe on both sides: {diff}, inside ns-3's range; fast recoveries {ns3:per1%-sack+ns3opts:fast_recoveries} against {cl:per1%-sack+ns3opts:fast_recoveries}.",
		"per0.1%-sack+ns3opts":                     "{diff}, outside ns-3's narrow range ({range}), traced to ns-3's retransmissions of in-flight segments when its send buffer is full (see pipe-q40-sack+ns3opts): {ns3:per0.1%-sack+ns3opts:retrans_segs} retransmissions against crosslink's {cl:per0.1%-sack+ns3opts:retrans_segs}. With ns-3's buffer at 1 GiB (per0.1%-sack+ns3opts+sndbuf1GiB) it retransmits {ns3:per0.1%-sack+ns3opts+sndbuf1GiB:retrans_segs} and delivers {ns3:per0.1%-sack+ns3opts+sndbuf1GiB}; crosslink's mean with 128 KiB differs from that by {diff:per0.1%-sack+ns3opts+sndbuf1GiB}.",
		"rt-1MB-per1%+ns3opts":                     "{diff}, outside ns-3's range ({range}, crosslink {clrange}), traced to ns-3's 128 KiB send buffer, in which ns-3 recovers worse than crosslink (see pipe-q40-sack+ns3opts for its retransmissions of in-flight segments when the buffer is full): ns-3 retransmits {ns3:rt-1MB-per1%+ns3opts:retrans_segs} segments a transfer against crosslink's {cl:rt-1MB-per1%+ns3opts:retrans_segs}. With ns-3's buffer at 1 GiB (rt-1MB-per1%+ns3opts+sndbuf1GiB) ns-3 retransmits {ns3:rt-1MB-per1%+ns3opts+sndbuf1GiB:retrans_segs} and takes {ns3:rt-1MB-per1%+ns3opts+sndbuf1GiB} ({range:rt-1MB-per1%+ns3opts+sndbuf1GiB}); crosslink's mean with 128 KiB differs from that by {diff:rt-1MB-per1%+ns3opts+sndbuf1GiB}, inside that range.",
		"db10-newreno+ns3opts":                     "{diff}, traced to two departures of ns-3 3.37 from the RFCs, which act at the windows near the 2-segment floor that ssthresh from the pipe leaves here: (1) on the ACK that ends fast recovery TcpSocketBase::ProcessAck sets cwnd = ssthresh and then, the state being CA_OPEN again, calls IncreaseWindow on the same ACK (TcpNewReno: SMSS*SMSS/cwnd more, half a segment at 2 segments), where RFC 5681 section 3.2 step 6 and RFC 6937 section 3.1 leave cwnd at ssthresh; (2) TcpPrrRecovery::DoRecovery rounds PRR's share CEIL(prr_delivered * ssthresh / RecoverFS) up in bytes and SendPendingData sends whole segments only, so PRR sends one ACK later than RFC 6937 section 5's example every other time, where crosslink rounds in segments as Linux does. crosslink reproduces both under grow_on_recovery_exit and prr_rounding bytes, set in every +ns3opts scenario: the row differs by -4.27 % without them, +0.50 % with the exit growth alone and {diff} with both (TestFindingsNS3Behaviours reruns the first two); retransmissions {ns3:db10-newreno+ns3opts:retrans_segs} in ns-3 against {cl:db10-newreno+ns3opts:retrans_segs}. Two more departures were tried at tcp-compete 10 and left out: ns-3's PRR-SSRB allows ssthresh - pipe and one segment more only on an ACK that covers a retransmission (m_isRetransDataAcked), DeliveredData otherwise (RFC 6937: always), which moved the row by +0.02 points; and on a partial ACK ns-3's ProcessAck calls DoRetransmit outside the window unless the segment after SND.UNA was already retransmitted (RFC 6582's partial-ACK rule kept under SACK, where RFC 6675 leaves retransmissions to NextSeg); sending that one segment outside the window (the next lost one, else new data, else SND.UNA again) moved this row by +0.10 points, db10-newreno-50ms+ns3opts by +0.52 and db10-newreno-loss0.5%+ns3opts by -0.24, all inside 1 %, and resending SND.UNA only moved db10-newreno-50ms+ns3opts to -2.06 %; it is left out, unmatched.",
		"db10-newreno-q200+ns3opts":                "{diff}: a queue of 200 % of the BDP keeps the windows above the 2-segment floor.",
		"db10-newreno-50ms+ns3opts":                "{diff}: five times the window per flow.",
		"db10-cubic+ns3opts":                       "{diff} with 512-byte writes, the send buffer and 10x access links on both sides.",
		"db10-newreno-loss0.5%+ns3opts":            "{diff}, inside ns-3's narrow range ({range}), with the two ns-3 behaviours of db10-newreno+ns3opts reproduced (without them -1.43 %, with the exit growth alone +0.58 %; TestFindingsNS3Behaviours reruns both).",
		"db10-newreno-loss0.5%+ns3opts+flightsize": "{diff}, just outside ns-3's range ({range}) over five seeds; the gap is of the size of ns-3's 2-byte PPP header (0.13 %).",
		"pipe-q40+flightsize":                      "FlightSize lifts ns-3 from {ns3:pipe-q40} to {ns3}; the remaining {diff} is ns-3's recovery without SACK (see pipe-q40).",
		"per1%-newreno+flightsize":                 "still bimodal: ns-3's recovery without SACK (see per1%-newreno).",
	}
}
