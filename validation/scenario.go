package validation

import (
	units "github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Host is the TCP host configuration both simulators run.
type Host struct {
	MSS     int     // payload bytes per segment
	IW      int     // initial window, segments
	Window  int64   // receive buffer: the largest advertised window, bytes
	WScale  bool    // RFC 7323 window scaling
	SACK    bool    // RFC 2018 SACK with RFC 6675 recovery
	DelAck  bool    // delayed ACKs: every second segment, 200 ms timer
	MinRTO  float64 // s
	CCA     string  // newreno or cubic
	Compete bool    // tcp-compete's host (SACK, window scaling fixed on)
	// The host options crosslink's models share (engine/models/tcp_host.go).
	TS         bool    // RFC 7323 timestamps: 12 option bytes per segment
	PRR        bool    // RFC 6937 PRR (crosslink: over SACK recovery only)
	SYNTimeout float64 // s; 0 is 1 s
	// WriteSize is the application's write, bytes; 0 hands over the
	// whole transfer at once (ns-3: whole-segment writes into a send
	// buffer that never fills; with a write size, ns-3's default 128 KiB
	// buffer).
	WriteSize int
	// SendBuffer is the send buffer, bytes (crosslink's send_buffer, ns-3's
	// TcpSocket::SndBufSize); 0 is unlimited (ns-3: 1 GiB).
	SendBuffer int64
	// SsthreshPipe sets ssthresh at a loss from RFC 6675's pipe as ns-3
	// 3.37 does (crosslink's ssthresh_basis pipe); false is RFC 5681's
	// FlightSize, crosslink's default. It sets crosslink's side only: ns-3
	// uses the pipe unless a +flightsize variant changes it.
	SsthreshPipe bool
	// NoRACK runs crosslink without RACK (loss_detection dupthresh-only):
	// a lost retransmission waits for the retransmission timer, as in
	// ns-3 3.37, which has no RACK; false is dupthresh, which keeps
	// RACK for lost retransmissions.
	NoRACK bool
	// ExitGrowth lets the ACK that ends fast recovery grow cwnd past
	// ssthresh as ns-3 3.37's TcpSocketBase::ProcessAck does (crosslink's
	// grow_on_recovery_exit); false is RFC 5681 section 3.2 step 6,
	// crosslink's default. It sets crosslink's side only: ns-3 always
	// grows.
	ExitGrowth bool
	// PRRBytes rounds PRR's proportional share up in bytes as ns-3
	// 3.37's TcpPrrRecovery::DoRecovery does (crosslink's prr_rounding
	// bytes); false rounds in segments, crosslink's default. Crosslink's
	// side only.
	PRRBytes bool
}

// syn returns the SYN timeout in seconds.
func (h Host) syn() float64 {
	if h.SYNTimeout == 0 {
		return 1
	}
	return h.SYNTimeout
}

// lossDetection is crosslink's loss_detection.
func (h Host) lossDetection() string {
	if h.NoRACK {
		return "dupthresh-only"
	}
	return "dupthresh"
}

// prrRounding is crosslink's prr_rounding.
func (h Host) prrRounding() string {
	if h.PRRBytes {
		return "bytes"
	}
	return "segments"
}

// basis is crosslink's ssthresh_basis.
func (h Host) basis() string {
	if h.SsthreshPipe {
		return "pipe"
	}
	return "flight_size"
}

// String describes the host in one line for the report.
func (h Host) String() string {
	on := func(b bool, name string) string {
		if b {
			return name + " on"
		}
		return name + " off"
	}
	sack, ws := h.SACK || h.Compete, h.WScale || h.Compete
	rec := "RFC 6582 NewReno recovery"
	switch {
	case sack && h.PRR:
		rec = "RFC 6937 PRR recovery"
	case sack:
		rec = "RFC 6675 recovery"
	case h.PRR:
		rec = "PRR in ns-3, NewReno in crosslink (its prr needs SACK)"
	}
	if h.PRRBytes {
		rec += " (its share rounded in bytes, as ns-3)"
	}
	if h.NoRACK {
		rec += ", no RACK"
	}
	write := "the whole transfer written at once"
	if h.WriteSize > 0 {
		write = fmt.Sprintf("%d-byte writes", h.WriteSize)
	}
	buf := "no send buffer limit"
	if h.SendBuffer > 0 {
		buf = fmt.Sprintf("a %d-byte send buffer", h.SendBuffer)
	}
	basis := "crosslink's ssthresh from FlightSize (RFC 5681)"
	if h.SsthreshPipe {
		basis = "crosslink's ssthresh from the pipe (as ns-3)"
	}
	if h.ExitGrowth {
		basis += ", cwnd grown on the ACK that ends recovery (as ns-3)"
	}
	return fmt.Sprintf("%s, MSS %d B, IW %d, window %d B, %s, %s, %s, %s, min RTO %g s, %s, SYN timeout %g s, %s, %s, %s",
		h.CCA, h.MSS, h.IW, h.Window, on(ws, "window scaling"), on(sack, "SACK"), on(h.DelAck, "delayed ACKs"),
		on(h.TS, "timestamps"), h.MinRTO, rec, h.syn(), write, buf, basis)
}

// Class says which agreement a scenario is held to.
type Class string

const (
	// Exact scenarios have no random loss: the two simulators should agree
	// within ExactTolerance.
	Exact Class = "exact"
	// Lossy scenarios have random loss: crosslink's mean should lie within
	// ns-3's spread over seeds.
	Lossy Class = "lossy"
	// Effect scenarios set an ns-3 default that crosslink cannot match
	// yet: the difference measures that default's effect and is not judged.
	Effect Class = "effect"
)

// ExactTolerance is the target for the lossless cases: 1 %.
const ExactTolerance = 0.01

// Scenario is one matched set-up.
type Scenario struct {
	Name  string
	Class Class
	What  string // one line: what it checks
	// Program is the ns-3 program: "link" or "dumbbell".
	Program string
	// Model is the crosslink model: tcp-bulk, tcp-transfer or tcp-compete.
	Model string
	Host  Host

	// The link (Program link) or the backbone (Program dumbbell).
	Rate  float64 // bit/s
	Delay float64 // one-way, s
	Queue int     // DropTail packets, each direction; 0 is unlimited (link only)
	PER   float64 // packet loss probability of the data direction

	Size     int64   // sized transfer, bytes (tcp-transfer); 0 is timed
	Duration float64 // timed transfer, s
	Warmup   float64 // s

	// Dumbbell only.
	Flows int
	// AccessRate is the rate of every access link, bit/s; 0 is Rate.
	AccessRate float64
	QueuePct   float64 // backbone queue, % of the one-way BDP in 1500-byte packets
	Stagger    float64 // s

	// Metric is the compared metric (a crosslink metric name, printed by
	// the ns-3 programs under the same name); Extra are shown beside it.
	Metric string
	Extra  []string
	// Notes name each known behaviour that differs between the sides.
	Notes []string
	// NS3Set overrides arguments of the ns-3 program (key without "--"):
	// the variants that turn on an ns-3 default crosslink lacks, or change
	// one ns-3 behaviour to show its effect.
	NS3Set map[string]string
	// Finding traces a disagreement, or explains an agreement, once the
	// numbers are known.
	Finding string
}

// queuePackets is the dumbbell backbone limit in packets, QueuePct of the
// one-way BDP in 1500-byte packets, which both sides take in packets.
func (s Scenario) queuePackets() (int, error) {
	lim, err := netsim.BDPLimit(s.QueuePct/100, units.BitRate(s.Rate), des.FromSeconds(s.Delay), 1500)
	if err != nil {
		return 0, fmt.Errorf("validation: %s: %w", s.Name, err)
	}
	return lim.Packets, nil
}

// Params returns the crosslink parameter set of s for model m.
func (s Scenario) Params(m vocab.Model) (vocab.Params, error) {
	sc := m.Schema()
	p := sc.Defaults()
	set := func(name string, v any) error {
		i := sc.ParamIndex(name)
		if i < 0 {
			return fmt.Errorf("validation: %s: model %s has no parameter %q", s.Name, sc.Name, name)
		}
		par := sc.Params[i]
		var val vocab.Value
		switch x := v.(type) {
		case float64:
			val = vocab.F(x)
			if par.Kind == vocab.Int {
				val = vocab.I(int64(x))
			}
		case int:
			val = vocab.I(int64(x))
			if par.Kind == vocab.Float {
				val = vocab.F(float64(x))
			}
		case int64:
			val = vocab.I(x)
		case bool:
			val = vocab.B(x)
		case string:
			val = vocab.S(x)
		default:
			panic(fmt.Sprintf("validation: bug: value %v of type %T", v, v))
		}
		if err := par.Check(val); err != nil {
			return fmt.Errorf("validation: %s: %w", s.Name, err)
		}
		p = p.With(name, val)
		return nil
	}
	h := s.Host
	type kv struct {
		k string
		v any
	}
	var kvs []kv
	// ns-3 3.37 has none of Linux's recovery mechanisms beyond its
	// delayed ACKs: no quick-ACK mode, DSACK, undo, F-RTO, adaptive
	// reordering or SACK compression (its TcpSocketBase acknowledges
	// every out-of-order segment at once), and its RTO is max(min RTO, SRTT + 4 RTTVAR)
	// (TcpSocketBase::EstimateRtt), RFC 6298's. Its receiver acknowledges
	// the first data segment after the handshake at once
	// (TcpSocketBase::ProcessSynRcvd sets m_delAckCount =
	// m_delAckMaxCount), crosslink's ack_first_segment.
	ns3Recovery := []kv{
		{"quick_ack", false}, {"dsack", false}, {"undo", false}, {"frto", false},
		{"adaptive_reordering", false}, {"rto_min_on", "rto"}, {"ack_first_segment", true},
		{"sack_compression", false},
	}
	switch s.Model {
	case "tcp-bulk", "tcp-transfer":
		kvs = []kv{
			{"rate", s.Rate}, {"delay", s.Delay}, {"queue", s.Queue}, {"per", s.PER},
			{"mss", h.MSS}, {"iw", h.IW}, {"window", h.Window}, {"window_scaling", h.WScale},
			{"sack", h.SACK}, {"delayed_ack", h.DelAck}, {"min_rto", h.MinRTO}, {"cca", h.CCA},
			{"loss_detection", h.lossDetection()}, {"timestamps", h.TS}, {"prr", h.PRR}, {"syn_timeout", h.syn()},
			{"write_size", h.WriteSize}, {"send_buffer", h.SendBuffer}, {"ssthresh_basis", h.basis()},
			{"hystart", false}, {"byte_counting", false},
			{"grow_on_recovery_exit", h.ExitGrowth}, {"prr_rounding", h.prrRounding()},
		}
		kvs = append(kvs, ns3Recovery...)
		if s.Model == "tcp-bulk" {
			kvs = append(kvs, kv{"duration", s.Duration}, kv{"warmup", s.Warmup})
		} else {
			kvs = append(kvs, kv{"size", s.Size})
		}
	case "tcp-compete":
		// One limit in packets for both sides: tcp-compete's queue_bdp
		// counts the BDP in its host's full packets (MSS + 40 bytes,
		// 1488 here), ns-3's limit is the BDP in 1500-byte packets, and
		// the two round apart (1008 against 1000 packets for the probe).
		q, err := s.queuePackets()
		if err != nil {
			return vocab.Params{}, err
		}
		kvs = []kv{
			{"flows", s.Flows}, {"ccas", h.CCA}, {"rate", s.Rate}, {"delay", s.Delay},
			{"queue", q}, {"queue_bdp", 0.0}, {"loss", s.PER}, {"mss", h.MSS}, {"iw", h.IW},
			{"window", h.Window}, {"delayed_ack", h.DelAck}, {"min_rto", h.MinRTO},
			{"loss_detection", h.lossDetection()}, {"duration", s.Duration}, {"warmup", s.Warmup},
			{"stagger", s.Stagger}, {"host_jitter", 0.0},
			{"timestamps", h.TS}, {"prr", h.PRR}, {"syn_timeout", h.syn()},
			{"write_size", h.WriteSize}, {"access_rate", s.AccessRate},
			{"send_buffer", h.SendBuffer}, {"ssthresh_basis", h.basis()},
			{"hystart", false}, {"byte_counting", false},
			{"grow_on_recovery_exit", h.ExitGrowth}, {"prr_rounding", h.prrRounding()},
		}
		kvs = append(kvs, ns3Recovery...)
	default:
		return vocab.Params{}, fmt.Errorf("validation: %s: unknown model %q", s.Name, s.Model)
	}
	for _, e := range kvs {
		if err := set(e.k, e.v); err != nil {
			return vocab.Params{}, err
		}
	}
	return p, nil
}

// NS3Args returns the command-line arguments of the ns-3 program for s and
// run (ns-3's RngRun).
func (s Scenario) NS3Args(run int) ([]string, error) {
	h := s.Host
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	b := strconv.FormatBool
	// Without a send buffer limit, a 1 GiB buffer that never fills.
	sndbuf := "1073741824"
	if h.SendBuffer > 0 {
		sndbuf = strconv.FormatInt(h.SendBuffer, 10)
	}
	args := []string{
		"--mss=" + strconv.Itoa(h.MSS),
		"--iw=" + strconv.Itoa(h.IW),
		"--rcvbuf=" + strconv.FormatInt(h.Window, 10),
		"--wscale=" + b(h.WScale || h.Compete),
		"--sack=" + b(h.SACK || h.Compete),
		"--delack=" + b(h.DelAck),
		"--minrto=" + f(h.MinRTO),
		"--cca=" + h.CCA,
		"--ts=" + b(h.TS),
		"--synTimeout=" + f(h.syn()),
		"--recovery=" + map[bool]string{false: "classic", true: "prr"}[h.PRR],
		"--sendSize=" + strconv.Itoa(h.WriteSize),
		"--sndbuf=" + sndbuf,
		"--hystart=false",
		"--ssthresh=pipe",
		"--run=" + strconv.Itoa(run),
		"--rate=" + f(s.Rate),
		"--delay=" + f(s.Delay),
	}
	switch s.Program {
	case "link":
		args = append(args, "--queue="+strconv.Itoa(s.Queue), "--per="+f(s.PER))
		if s.Size > 0 {
			args = append(args, "--size="+strconv.FormatInt(s.Size, 10))
		} else {
			args = append(args, "--duration="+f(s.Duration), "--warmup="+f(s.Warmup))
		}
	case "dumbbell":
		q, err := s.queuePackets()
		if err != nil {
			return nil, err
		}
		args = append(args, "--flows="+strconv.Itoa(s.Flows), "--queue="+strconv.Itoa(q),
			"--loss="+f(s.PER), "--duration="+f(s.Duration), "--warmup="+f(s.Warmup),
			"--stagger="+f(s.Stagger), "--accessQueue=1000", "--accessRate="+f(s.AccessRate))
	default:
		return nil, fmt.Errorf("validation: %s: unknown ns-3 program %q", s.Name, s.Program)
	}
	for k, v := range s.NS3Set {
		i := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, "--"+k+"=") })
		if i < 0 {
			return nil, fmt.Errorf("validation: %s: ns-3 argument %q is not one the scenarios set", s.Name, k)
		}
		args[i] = "--" + k + "=" + v
	}
	return args, nil
}
