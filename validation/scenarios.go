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
	notePPP    = "ns-3's point-to-point device adds a 2-byte PPP header: 1490 B data packets and 42 B ACKs on the wire against crosslink's 1488 B and 40 B (0.13 % less capacity for data)"
	noteTS     = "timestamps off in ns-3 (crosslink has no timestamp option yet)"
	noteSYN    = "ns-3's SYN timeout set to crosslink's 1 s (ns-3 default ConnTimeout 3 s)"
	noteRec    = "ns-3 recovery TcpClassicRecovery (crosslink has no PRR yet; ns-3's default is TcpPrrRecovery)"
	noteApp    = "ns-3 BulkSend writes one segment at a time into a send buffer that never fills (crosslink's source always has data; ns-3's default SendSize is 512 B)"
	noteRACK   = "crosslink loss_detection dupthresh (ns-3 3.37 has no RACK-TLP)"
	noteJitter = "crosslink host_jitter 0 (ns-3 has no host jitter)"
)

// Scenarios returns the matched scenarios, in table order.
func Scenarios() []Scenario {
	link := []string{notePPP, noteTS, noteSYN, noteRec, noteApp}
	dumbbell := []string{notePPP, noteTS, noteSYN, noteRec, noteApp, noteRACK, noteJitter}
	return []Scenario{
		{
			Name: "rt-100KB", Class: Exact, Program: "link", Model: "tcp-transfer", Host: linkHost,
			What: "response time of 100 KB over 10 Mbit/s, 50 ms: handshake and slow start",
			Rate: 10e6, Delay: 0.05, Size: 100_000,
			Metric: "response_time", Extra: []string{"retrans_segs"}, Notes: link,
		},
		{
			Name: "rt-1MB-delack", Class: Exact, Program: "link", Model: "tcp-transfer",
			Host: linkHost.with(func(h *Host) { h.DelAck = true }),
			What: "response time of 1 MB over 10 Mbit/s, 50 ms, delayed ACKs (every second segment, 200 ms)",
			Rate: 10e6, Delay: 0.05, Size: 1_000_000,
			Metric: "response_time", Extra: []string{"retrans_segs"}, Notes: link,
		},
		{
			Name: "wl-64KB", Class: Exact, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.Window = 65535; h.WScale = false }),
			What: "window-limited goodput: 64 KB unscaled window over 10 Mbit/s, 50 ms (W/RTT about 5.2 Mbit/s)",
			Rate: 10e6, Delay: 0.05, Duration: 20, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs"}, Notes: link,
		},
		{
			Name: "wl-64KB-delack", Class: Exact, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.Window = 65535; h.WScale = false; h.DelAck = true }),
			What: "window-limited goodput as wl-64KB, with delayed ACKs",
			Rate: 10e6, Delay: 0.05, Duration: 20, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs"}, Notes: link,
		},
		{
			Name: "pipe-q40", Class: Exact, Program: "link", Model: "tcp-bulk", Host: linkHost,
			What: "bulk goodput filling 10 Mbit/s, 25 ms through a 40-packet DropTail (about one BDP): overflow losses only",
			Rate: 10e6, Delay: 0.025, Queue: 40, Duration: 30, Warmup: 5,
			Metric: "goodput", Extra: []string{"retrans_segs", "fast_recoveries", "rto_episodes"}, Notes: link,
		},
		{
			Name: "per1%-newreno", Class: Lossy, Program: "link", Model: "tcp-bulk", Host: linkHost,
			What: "bulk goodput with 1 % packet error rate, 10 Mbit/s, 50 ms, NewReno without SACK",
			Rate: 10e6, Delay: 0.05, PER: 0.01, Duration: 30, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs", "fast_recoveries", "rto_episodes"}, Notes: link,
		},
		{
			Name: "per1%-sack", Class: Lossy, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.SACK = true }),
			What: "as per1%-newreno with SACK (RFC 6675 recovery)",
			Rate: 10e6, Delay: 0.05, PER: 0.01, Duration: 30, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs", "fast_recoveries", "rto_episodes"}, Notes: link,
		},
		{
			Name: "per0.1%-sack", Class: Lossy, Program: "link", Model: "tcp-bulk",
			Host: linkHost.with(func(h *Host) { h.SACK = true }),
			What: "bulk goodput with 0.1 % packet error rate, 10 Mbit/s, 50 ms, SACK",
			Rate: 10e6, Delay: 0.05, PER: 0.001, Duration: 30, Warmup: 2,
			Metric: "goodput", Extra: []string{"retrans_segs", "fast_recoveries", "rto_episodes"}, Notes: link,
		},
		{
			Name: "rt-1MB-per1%", Class: Lossy, Program: "link", Model: "tcp-transfer",
			Host: linkHost.with(func(h *Host) { h.SACK = true }),
			What: "response time of 1 MB with 1 % packet error rate, 10 Mbit/s, 50 ms, SACK",
			Rate: 10e6, Delay: 0.05, PER: 0.01, Size: 1_000_000,
			Metric: "response_time", Extra: []string{"retrans_segs", "rto_episodes"}, Notes: link,
		},
		{
			Name: "db10-newreno", Class: Exact, Program: "dumbbell", Model: "tcp-compete", Host: competeHost,
			What: "10 NewReno flows, 20 Mbit/s, 10 ms backbone, queue 100 % of the BDP, no random loss: total goodput",
			Rate: 20e6, Delay: 0.01, Flows: 10, QueuePct: 100, Stagger: 0.1, Duration: 20,
			Metric: "throughput", Extra: []string{"jain_flows", "retrans_segs"}, Notes: dumbbell,
		},
		{
			Name: "db10-cubic", Class: Exact, Program: "dumbbell", Model: "tcp-compete",
			Host: competeHost.with(func(h *Host) { h.CCA = "cubic" }),
			What: "as db10-newreno with CUBIC (HyStart off on both sides)",
			Rate: 20e6, Delay: 0.01, Flows: 10, QueuePct: 100, Stagger: 0.1, Duration: 20,
			Metric: "throughput", Extra: []string{"jain_flows", "retrans_segs"}, Notes: dumbbell,
		},
		{
			Name: "db10-newreno-loss0.5%", Class: Lossy, Program: "dumbbell", Model: "tcp-compete", Host: competeHost,
			What: "as db10-newreno with 0.5 % random loss on the backbone",
			Rate: 20e6, Delay: 0.01, Flows: 10, QueuePct: 100, PER: 0.005, Stagger: 0.1, Duration: 20,
			Metric: "throughput", Extra: []string{"jain_flows", "retrans_segs"}, Notes: dumbbell,
		},
	}
}
