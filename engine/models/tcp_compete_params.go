package models

import (
	"fmt"
	"strings"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Cost is simulated seconds times the bottleneck rate: the packets the
// scenario moves.
func (m *TCPCompete) Cost(p vocab.Params) float64 {
	return p.Float("duration") * p.Float("rate")
}

// Document 002's set-up, the defaults.
const (
	tcRate        = 100e6    // every link, bit/s
	tcDelay       = 0.010    // backbone one-way delay, s
	tcWindow      = 16 << 20 // iperf3 -w 16M
	tcPacket      = 1500     // a full packet (MSS 1460 + 40), the size loss_data is given for
	tcAccessQueue = 1000     // Linux txqueuelen
	tcStagger     = 0.1      // flows start within the first 100 ms
	tcHostJitter  = 120e-6   // 1500 B at 100 Mbit/s
)

// PaperCCAs is document 002's algorithm mix.
const PaperCCAs = "bbr,bbr2,cubic,bic,reno"

const (
	tcGoodput = iota
	tcUtilisation
	tcJainFlows
	tcJainAlgos
	tcRetrans
	tcRTOs
	tcRTOEpisodes
	tcDropsOverflow
	tcDropsCorrupt
	tcDropsAQM
	tcLossData
	tcBackbonePackets
	tcQueueLimit
	tcRTTMean
	tcQueueDelayMean
	tcEvents
	tcFixed // the per-algorithm columns follow
)

func tcpCompeteSchema(algos []string) *vocab.Schema {
	params := []vocab.Param{
		{Name: "flows", Kind: vocab.Int, Default: vocab.I(10), Min: 1, Max: 1000,
			Doc: "number of flows, each with its own sender and receiver host"},
		{Name: "ccas", Kind: vocab.String, Default: vocab.S(PaperCCAs),
			Syntax: func(v string) error { _, err := ParseCCAs(v); return err },
			Doc: "comma-separated congestion controls repeated over the flows in order (10 flows of 5 names: two each); names as in cc: " +
				strings.Join(algos, ", ")},
		{Name: "rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(tcRate), Min: 1e5, Max: 1e11,
			Doc: "rate of the backbone, and of the access links unless access_rate is set"},
		{Name: "delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(tcDelay), Min: 1e-6, Max: 10,
			Doc: "one-way propagation delay of the backbone"},
		{Name: "access_rate", Kind: vocab.Float, Unit: vocab.BitPerSecond, Default: vocab.F(0), Min: 0, Max: 1e12,
			Doc: "rate of every access link; 0: the backbone's rate, as document 002's Mininet set-up (ns-3's dumbbell examples use 10 times the bottleneck)"},
		{Name: "access_delay", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0), Min: 0, Max: 10,
			Doc: "one-way propagation delay of each access link"},
		queueParam(0),
		queueBDPParam(1),
		{Name: "aqm", Kind: vocab.String, Default: vocab.S("droptail"), Choices: []string{"droptail", "red", "codel", "fq_codel"},
			Doc: "backbone queue discipline, each limited to the queue size: DropTail; RED (gentle, thresholds 1/4 and 3/4 of the limit); CoDel (RFC 8289 defaults); FQ-CoDel (RFC 8290 defaults)"},
		{Name: "backbone", Kind: vocab.String, Default: vocab.S("link"), Choices: []string{"link", "tclink", "mininet"},
			Doc: "link: the queue holds the packets waiting for the backbone's transmitter; tclink: the backbone is a Mininet TCLink (an HTB shaper whose leaf is a netem delay line), whose queue limit is netem's (queue_bdp taken as document 002's script writes it, 8.33 x q/100 x 10 at 100 Mbit/s and 10 ms, truncated by Mininet's \"limit %d\"), counting the packets being delayed too, so the limit caps the packets in flight on the backbone and its throughput at limit packets per delay; mininet: document 002's Mininet testbed with the mechanisms of emulate (with emulate none it is tclink); tclink and mininet take aqm droptail only, and their random loss stays on the data direction unless ack_loss (or emulate's ackloss)"},
		emulateParam(),
		{Name: "access_queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(tcAccessQueue), Min: 1, Max: 1e7,
			Doc: "DropTail limit of every access link (Linux txqueuelen 1000)"},
		{Name: "window", Kind: vocab.Int, Unit: vocab.Byte, Default: vocab.I(tcWindow), Min: 1000, Max: 1 << 30,
			Doc: "socket buffers, receive and send (iperf3 -w)"},
		hostParam("mss"),
		hostParam("iw"),
		hostParam("window_scaling"),
		hostParam("sack"),
		hostParam("limited_transmit"),
		hostParam("delayed_ack"),
		hostParam("min_rto"),
		hostParam("loss_detection"),
		{Name: "duration", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(200), Min: 0.01, Max: 1e5,
			Doc: "simulated time (iperf3 -t)"},
		{Name: "warmup", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0), Min: 0, Max: 1e5,
			Doc: "goodput, goodput_<cca>, utilisation, the Jain indices and the flows' goodput count bytes delivered after this time; the other columns cover the whole run (iperf3 averages over the whole run: 0)"},
		{Name: "stagger", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(tcStagger), Min: 0, Max: 1e4,
			Doc: "flows start at independent uniform times in [0, stagger) (seeded), added to start_spacing's"},
		{Name: "start_spacing", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(0), Min: 0, Max: 1e4,
			Doc: "flow i (from 0, in the order of ccas repeated) starts i x start_spacing after the first, as a script that launches its clients one after another (document 002's popen loop); stagger's draw is added to each; 0: all at stagger's draws"},
		{Name: "host_jitter", Kind: vocab.Float, Unit: vocab.Second, Default: vocab.F(tcHostJitter), Min: 0, Max: 1,
			Doc: "each host's outgoing access link delays each packet, after the link's queue, by a further uniform random time in [0, host_jitter), in order; the default is one 1500-byte packet time at 100 Mbit/s, which removes the phase effects of a deterministic simulation (Floyd and Jacobson 1992); 0 turns it off"},
		{Name: "loss_model", Kind: vocab.String, Default: vocab.S("given"), Choices: []string{"given", "gosnr"},
			Doc: "given: Bernoulli loss of probability loss per packet; gosnr: loss per packet size from gosnr through the calibrated receiver of optical-osnr"},
		{Name: "loss", Kind: vocab.Float, Unit: vocab.Fraction, Default: vocab.F(0), Min: 0, Max: 1,
			Doc: "random packet loss on the backbone in loss_model given (document 002: 0, 0.2, 0.5, 0.8 %)"},
		{Name: "gosnr", Kind: vocab.Float, Unit: vocab.Decibel, Default: vocab.F(25), Min: -20, Max: 80,
			Doc: "generalised OSNR (0.1 nm) of the backbone in loss_model gosnr (document 002: 19.45, 19.15, 18.95 dB)"},
		{Name: "ack_loss", Kind: vocab.Bool, Default: vocab.B(false),
			Doc: "apply the loss process to the ACK direction of the backbone too (per packet size under gosnr)"},
	}
	metrics := []vocab.Metric{
		tcGoodput: {Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond,
			Doc: "application goodput: payload bytes delivered in order to the receiving applications per second after warmup, all flows (iperf3's receiver sum, the throughput of document 002)"},
		tcUtilisation: {Name: "utilisation", Kind: vocab.Float, Doc: "goodput / rate"},
		tcJainFlows: {Name: "jain_flows", Kind: vocab.Float,
			Doc: "Jain's fairness index over the flows' goodputs, (sum x)^2 / (n sum x^2) (Jain, Chiu, Hawe 1984); null when no flow delivered anything"},
		tcJainAlgos: {Name: "jain_algorithms", Kind: vocab.Float,
			Doc: "Jain's index over the algorithms present, each represented by the mean goodput of its flows; null when no flow delivered anything"},
		tcRetrans: {Name: "retrans_segs", Kind: vocab.Int, Unit: vocab.Packet, Doc: "retransmitted segments, all flows (iperf3 Retr)"},
		tcRTOs:    {Name: "rtos", Kind: vocab.Int, Doc: "retransmission timer expiries of data, all flows (a SYN's timeouts are not counted)"},
		tcRTOEpisodes: {Name: "rto_episodes", Kind: vocab.Int,
			Doc: "sequences of timeouts, all flows: expiries before any back-off (as tcp-bulk's rto_episodes)"},
		tcDropsOverflow: {Name: "drops_overflow", Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "packets dropped by a full queue, all links"},
		tcDropsCorrupt: {Name: "drops_corrupt", Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "packets lost to the random (optical) loss process"},
		tcDropsAQM: {Name: "drops_aqm", Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "packets dropped early by the AQM (RED, CoDel, FQ-CoDel)"},
		tcLossData: {Name: "loss_data", Kind: vocab.Float,
			Doc: "loss probability of a 1500-byte packet on the backbone (the given loss, or the PER at gosnr)"},
		tcBackbonePackets: {Name: "backbone_packets", Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "packets offered to the backbone's data direction (the denominator of its loss)"},
		tcQueueLimit: {Name: "queue_limit", Kind: vocab.Int, Unit: vocab.Packet, Doc: "backbone queue limit"},
		tcRTTMean:    {Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second, Doc: "mean RTT sample, all flows; null without any sample (the flows table's rtt_mean says which samples)"},
		tcQueueDelayMean: {Name: "queue_delay_mean", Kind: vocab.Float, Unit: vocab.Second,
			Doc: "mean waiting time in the backbone queue (data direction) of the packets that left it; 0 if none did, which means no packet to measure"},
		tcEvents: {Name: "events", Kind: vocab.Int, Doc: "simulation events processed"},
	}
	for _, a := range algos {
		metrics = append(metrics, vocab.Metric{Name: "goodput_" + columnSafe(a), Kind: vocab.Float, Unit: vocab.BitPerSecond,
			Doc: "summed goodput of the " + a + " flows after warmup; null without such flows"})
	}
	for _, a := range algos {
		metrics = append(metrics, vocab.Metric{Name: "retrans_" + columnSafe(a), Kind: vocab.Int, Unit: vocab.Packet,
			Doc: "retransmitted segments of the " + a + " flows; null without such flows"})
	}
	for _, a := range algos {
		metrics = append(metrics, vocab.Metric{Name: "retrans_rate_" + columnSafe(a), Kind: vocab.Float, Unit: vocab.PerSecond,
			Doc: "retransmitted segments per second per flow of the " + a + " flows: iperf3's Retr of each 1 s interval averaged over the run and the algorithm's flows, the quantity of document 002's Figs. 3, 5, 7 and 9; null without such flows"})
	}
	return &vocab.Schema{
		Exclusive: queueForms(),
		Name:      "tcp-compete",
		Version:   40, // 40: the RTT is sampled as Linux's tcp_ack_update_rtt does: an ACK that covers a segment ever retransmitted gives no sample from sequence numbers (Karn; FLAG_RETRANS_DATA_ACKED), otherwise the oldest segment it newly acknowledges and had not SACKed is timed, where the newest was, so the ACK that ended a repair timed the receiver's wait since it SACKed the segment (seconds after a timeout); without a sequence sample the oldest segment an ACK newly SACKs is timed (RACK-TLP senders), and without that an ACK of new data by its timestamp echo; the minimum RTT and the controller's RTT (HyStart, Vegas, BBR) follow the newest segment timed (ca_rtt_us); every sample ends the timer's back-off; 39: with quick_ack (Linux's quick-ACK mode) the receiver also acknowledges every skb at once while its receive window grows from the first 65535 bytes towards the buffer's, each skb raising it by max(2 advmss, 2 x its length) (tcp_grow_window's icsk_ack.quick |= 1), as a real Linux 6.1 receiver does on document 002's testbed for the first 25-35 s of a flow of a few Mbit/s into a 16 MiB window (validation/linuxpeer's captures); past the first quick ACKs it delayed them; 38: with emulate defer, a one-segment skb at the send head is never deferred (tcp_write_xmit calls tcp_tso_should_defer only for more than one segment, tcp_init_tso_segs), where the model looked at all that was written; 37: with emulate gso, new data's skbs do not cross the ends of the write queue's skbs, which tcp_sendmsg built at the size goal of the moment the application wrote (tcp_xmit_size_goal: sk_gso_max_size bounded to half the largest window the peer offered): the send buffer's first fill, written at connect under the SYN-ACK's 65535-byte window, in skbs of 22 segments, the later writes in skbs of 45; tcp_write_xmit only splits them, and TSO deferral sends a middle skb that fits whole (tcp_tso_should_defer); 36: with emulate gso, an skb of new data holds at most half of cwnd (tcp_cwnd_test's halfcwnd = max(cwnd >> 1, 1), which tcp_write_xmit splits at), so a flow whose cwnd is below four segments sends one-segment skbs; it held as many as cwnd let go and tcp_tso_autosize allowed; 35: with byte counting as Linux's (abc_limit 0) Reno's slow start stops at ssthresh and hands the segments a stretch ACK carries past it to congestion avoidance, as tcp_slow_start and tcp_reno_cong_avoid do (it overshot ssthresh by them); 34: byte counting as Linux's tcp_slow_start runs it: in slow start one ACK adds every segment it covers (was at most 2, RFC 3465's L), so a stretch ACK (GRO, an ACK lost or delayed) grows cwnd by all it acknowledges; the host parameter abc_limit sets an L (2 is RFC 3465's); 33: with emulate htb (in the default), every TCLink of backbone mininet is HTB's token bucket (netsim.LinkConfig.Shaper, cburst 1600 bytes as tc sets it on a host with high-resolution timers): an skb leaves whole when the bucket is in credit and reaches the next hop then, where each TCLink serialised it and delivered it after its last bit; 32: with emulate tsq, an skb's truesize is its payload plus 1280 bytes (the sk_buff and a head kmalloc serves from its 1024-byte slab, as __alloc_skb counts it; a real Linux 6.1 kernel's skmem shows 2728 bytes per one-segment skb), was 896: TCP Small Queues' limit of two truesizes is larger, so a flow whose pacing quantum lay between the two is held at two skbs rather than three; 31: with emulate tsq, TCP Small Queues counts sk_wmem_alloc from 1 as Linux does (sk_alloc), so two skbs of the next one's truesize fill the limit of twice it (a third went before), and it holds a sender in SACK recovery too: each retransmitted skb waits past twice the limit (tcp_xmit_retransmit_queue's tcp_small_queue_check(sk, skb, 1)) and new data past the limit, where recovery sent past it (the retransmission timer's own resend of the oldest segment goes past it, as tcp_retransmit_timer calls tcp_retransmit_skb itself); 30: the host parameter edt_credit: a paced sender (BBR, BBRv2) paces from its 10th segment on, and an skb sent after its departure time had passed (an ACK let it go) shortens the gap after it by that delay, up to half its length, as Linux's tcp_update_skb_after_send does (on by default, as in Linux since 4.20; was every skb followed by its whole length from the first); and with TSO an aggregate that cwnd cut short is followed by its own length at the pacing rate (tcp_wstamp_ns moves per skb), where its pacing was carried into the next aggregate's gap; 29: BBRv2 judges its departure-time in-flight tests (PROBE_UP, DOWN, DRAIN) under the gain the previous ACK left, bbr->pacing_gain as bbr_update_gains sets it after the model update, where it used the new phase's gain on an ACK or after a loss mark that changed the phase; BBR v1's TSO burst goal is capped at 127 segments (tcp_bbr.c's bbr_tso_segs_goal), which binds only for segments under 514 bytes; 28: BBR and BBRv2 judge their gain cycle's and DRAIN's in-flight targets by what will be in the network at the next departure, as bbr_packets_in_net_at_edt does (prior_in_flight less what the bandwidth delivers until the pacing lets the next skb go, plus that skb while probing), where they judged prior_in_flight itself; 27: with emulate gso, a retransmission resends in one skb the segments of one skb first sent that are still lost, in sequence, as far as cwnd lets them go and up to the aggregate's size, as Linux does (tcp_xmit_retransmit_queue calls tcp_retransmit_skb with min(cwnd - in flight, tcp_tso_segs) segments; a lost skb is marked lost whole), where each went as an skb of its own: netem holds and loses the retransmission as one skb; 26: with emulate cwndlimited, CUBIC, BIC and Reno skip their whole congestion-avoidance step while tcp_is_cwnd_limited is false, as their Linux cong_avoid hooks return at once (tcp_reno_cong_avoid, bictcp_cong_avoid, cubictcp_cong_avoid): no count of ACKed segments toward the next increment, no CUBIC epoch started and no ACKs counted for its TCP friendliness, no HyStart round begun; the growth was undone after the step, its counters kept (no change beyond the seeds' spread in 200 s runs at q = 100 %); 25: BIC grows by the segments each ACK covers and carries what slow start leaves past ssthresh into congestion avoidance, as tcp_bic.c does since Linux 5.7 ("tcp: fix stretch ACK bugs in BIC": tcp_cong_avoid_ai(tp, ca->cnt, acked), was one credit per ACK whatever it covered, the excess dropped); with emulate defer and cwndlimited, a sending pass renews the cwnd-limited record only when it sent something or cwnd stopped it, and a pass that defers an aggregate cwnd cannot take is cwnd-limited (tcp_write_xmit, tcp_tso_should_defer, Linux 5.11's "tcp: fix cwnd-limited bug for TSO deferral where we send nothing"; a pass held back by TCP Small Queues or pacing with nothing sent had recorded the window as not cwnd-limited); 24: BBR v1 models a token-bucket policer as tcp_bbr.c does (bbr_lt_bw_sampling: after two lossy intervals of 4-16 round trips, each with at least 50/256 of its delivery lost, whose rates agree within 1/8 or 4 kbit/s, it paces at and sizes cwnd from their mean with a gain of 1 for 48 round trips), where it was left out, and sets its gains on every ACK (bbr_update_gains); 23: emulate ethernet, in the default: every TCLink of backbone mininet counts each frame's 14-byte Ethernet header against its rate, as HTB does (qdisc_pkt_len), so a full 100 Mbit/s TCLink carries 1500-byte packets at 99.08 Mbit/s; 22: the host parameter sack_compression: Linux's SACK compression (__tcp_ack_snd_check, tcp_sack_new_ofo_skb: a receiver holding out-of-order data sends the first three ACKs at one RCV.NXT at once, then one per 44 segments, per min(1 ms, SRTT/20) or when a SACK block would fall behind the first two), on by default as in Linux since 4.18; 21: with emulate defer, TSO deferral waits for an ACK due within srtt/2 as Linux 5.13's tcp_tso_should_defer does (was min(1 ms, srtt/2), a later kernel's bound); 20: with emulate gso the receiver decides once per GRO aggregate whether to acknowledge, as Linux 5.13's tcp_input.c does (one immediate ACK for an aggregate out of order, duplicate or filling a hole, was one per segment; an in-order one-segment aggregate waits for a second full frame, __tcp_ack_snd_check, or the 40 ms delayed ACK); 19: links without delay deliver in their end-of-transmission event, and the hosts' links (no delay, host_jitter) draw each arrival when the transmission starts (netsim): the far node has a packet before the events already queued for its instant, and a packet offered as a transmission ends finds the transmitter free, which orders some same-instant events otherwise (no parameter, column or model changed); 18: the netem limit of backbones tclink and mininet for queue_bdp as document 002's script sets it, 8.33*(q/100)*10 truncated by Mininet's "limit %d" (49 skbs at q = 60 %, was 50: one fewer at twelve of the figures' twenty q); 17: BBR and BBRv2 pace from the handshake's RTT (bbr_init_pacing_rate_from_rtt: high_gain x IW / SRTT, was over a nominal 1 ms) and restart from high_gain x cwnd / SRTT at the first RTT known whatever the bandwidth sample (bbr_set_pacing_rate; STARTUP kept the nominal 331 Mbit/s); BBRv2 raises inflight_hi in PROBE_UP while the window was cwnd-limited as tcp_cwnd_validate records it (tp->is_cwnd_limited, bbr2_probe_inflight_hi_upward), not while the pipe at the ACK fills cwnd; 16: losses counted when a segment is marked lost (tcp_mark_skb_lost: RACK's marks, every unSACKed segment at a timeout, none of a timeout's marks among an ACK's losses), not when it is resent, which BBR and BBRv2 read; the host parameter skb_marked_lost: BBRv2 reacts to each segment the moment it is marked lost (bbr2_skb_marked_lost), on by default as in the BBRv2 alpha; 15: the rate sample and the cong_control call of every ACK that SACKs new data (tcp_rate_gen, tcp_cong_control: BBR and BBRv2 follow SACKs through a recovery, STARTUP ends on loss as in Linux); BBR's window grows by the bytes delivered, SACKed included (rs->acked_sacked); the host parameter sack_rate_samples; 14: the controllers of Linux 5.13 (the BBRv2 alpha kernel's base), with no PRR over BBR and BBRv2 (Linux's cong_control controllers): CUBIC in tcp_cubic.c's arithmetic (cubic_variant, rfc9438 kept) with Linux's HyStart (hystart_variant, rfc9406 kept), BIC as tcp_bic.c, BBR v1 with tcp_bbr.c's ACK-aggregation allowance and quantization budget, BBRv2 as the v2alpha tcp_bbr2.c (no recovery cut); emulate defer (TSO deferral, tcp_tso_should_defer) and cwndlimited (tcp_is_cwnd_limited) in the default; sockbuf caps iperf3's window at Mininet's rmem_max/wmem_max of 16 MiB (was Linux's 212992 bytes); 13: the Linux recovery mechanisms of the shared host (quick_ack, dsack, undo, frto, adaptive_reordering, rto_min_on), on by default as in Linux; 12: rtt_mean (main row and flows) null, not NaN, where a flow has no RTT sample, and jain_flows, jain_algorithms null where no flow delivered anything; 11: goodput, goodput_<cca> and the flows' goodput (were throughput, throughput_<cca>, throughput); the queue limit as queue_bdp (was queue) or queue in packets; the host parameters sack, window_scaling and limited_transmit (were always on); 10: queue and loss stored as fractions in queue_frac and loss_frac (were percent in queue_pct, loss_pct); 9: throughput_<cca>, retrans_<cca>, retrans_rate_<cca> of absent algorithms null (not NaN), retrans_<cca> an integer; 8: access_rate; hystart, byte_counting, write_size and one definition of mss, iw, delayed_ack, min_rto, loss_detection (the shared host parameters); 7: backbone mininet and emulate (document 002's testbed); netem limits count skbs; retrans_rate_<algo>; 6: rto_episodes; prr, timestamps, syn_timeout (the shared host options); 5: backbone parameter (Mininet TCLink netem limit); 2: host jitter after the access queue; RACK, SACK kept over timeouts, BBR as Linux; 3: RACK-TLP (RFC 8985) by default; 4: RACK sees reordering only where the wire reorders
		Doc: "N bulk TCP flows of several congestion controls (repeated from a list) over a dumbbell with a shared " +
			"100 Mbit/s, 10 ms backbone whose queue is q % of the BDP (DropTail or AQM), random loss given or from " +
			"gOSNR; total goodput, Jain's index over flows and algorithms, per-algorithm goodput and " +
			"retransmissions (document 002).",
		Params:  append(params, withRecovery("prr", "timestamps", "syn_timeout", "hystart", "hystart_variant", "cubic_variant", "byte_counting", "abc_limit", "write_size", "send_buffer", "ssthresh_basis", "prr_rounding", "grow_on_recovery_exit", "ack_first_segment")...),
		Metrics: metrics,
		Tables: []vocab.Table{
			{Name: "flows", Doc: "one row per flow", Columns: []vocab.Metric{
				{Name: "flow", Kind: vocab.Int, Doc: "flow index, 0-based"},
				{Name: "cca", Kind: vocab.String, Doc: "the flow's congestion control: flow i runs the (i mod n)-th of the n names in ccas"},
				{Name: "start", Kind: vocab.Float, Unit: vocab.Second, Doc: "when the flow sent its SYN"},
				{Name: "goodput", Kind: vocab.Float, Unit: vocab.BitPerSecond, Doc: "the flow's application goodput after warmup"},
				{Name: "bytes_delivered", Kind: vocab.Int, Unit: vocab.Byte,
					Doc: "payload bytes the flow's receiving application got in order over the whole run (warmup not applied)"},
				{Name: "retrans_segs", Kind: vocab.Int, Unit: vocab.Packet,
					Doc: "data segments the flow's sender retransmitted over the whole run, for any cause, spurious ones included (iperf3 Retr)"},
				{Name: "rtos", Kind: vocab.Int, Doc: "the flow's retransmission timer expiries of data, back-offs counted one each (a SYN's timeouts are not counted: a flow whose handshake never completed has 0 and a null rtt_mean)"},
				{Name: "rtt_mean", Kind: vocab.Float, Unit: vocab.Second, Doc: "mean RTT sample of the flow: the samples Linux's tcp_ack_update_rtt takes: the handshake's, and per ACK the oldest segment it newly acknowledges that was neither SACKed nor ever retransmitted, none from an ACK that covers a retransmission (Karn's rule as tcp_clean_rtx_queue applies it); without one, with loss_detection rack-tlp, the oldest segment it newly SACKs, and then, with timestamps, its echo; null without any: a flow that has not started, one whose handshake was not answered by the end of the run, or one whose SYN and every segment its ACKs measured were retransmitted"},
			}},
		},
	}
}

// columnSafe turns an algorithm name into a column-name fragment.
func columnSafe(name string) string {
	return strings.NewReplacer("-", "_", "+", "p", ".", "_").Replace(name)
}

// ParseCCAs splits a ccas list and checks every name against cc.
func ParseCCAs(list string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if _, err := cc.New(f, cc.Options{}); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no congestion control in %q", list)
	}
	return out, nil
}

// competeConfig is tcp-compete's parameters, decoded.
type competeConfig struct {
	algos       []string // ccas, repeated over the flows
	flows       int
	rate        unit.BitRate
	delay       des.Duration
	accessRate  unit.BitRate // the backbone's rate when access_rate is 0
	accessDelay des.Duration
	accessQueue int // packets
	queue       queueForm
	aqm         string
	backbone    string
	emulate     map[string]bool // the testbed mechanisms of backbone mininet
	window      unit.Bytes      // both socket buffers (iperf3 -w)
	host        tcpHost
	duration    des.Time
	warmup      des.Time
	stagger     float64 // seconds: start times are stagger x U[0, 1) seconds, rounded once
	spacing     float64 // seconds: flow i starts i x spacing later (start_spacing)
	hostJitter  des.Duration
	gosnr       bool    // loss_model gosnr
	loss        float64 // loss_model given: Bernoulli probability
	gosnrDB     float64
	ackLoss     bool
}

// decodeCompete reads tcp-compete's parameters and checks the ones that
// depend on each other.
func decodeCompete(p vocab.Params) (competeConfig, error) {
	algos, err := ParseCCAs(p.Str("ccas"))
	if err != nil {
		return competeConfig{}, err
	}
	c := competeConfig{
		algos:       algos,
		flows:       int(p.Int("flows")),
		rate:        unit.BitRate(p.Float("rate")),
		delay:       des.FromSeconds(p.Float("delay")),
		accessRate:  unit.BitRate(p.Float("access_rate")),
		accessDelay: des.FromSeconds(p.Float("access_delay")),
		accessQueue: int(p.Int("access_queue")),
		queue:       decodeQueue(p),
		aqm:         p.Str("aqm"),
		backbone:    p.Str("backbone"),
		emulate:     map[string]bool{},
		window:      unit.Bytes(p.Int("window")),
		host:        decodeHost(p),
		duration:    des.Time(des.FromSeconds(p.Float("duration"))),
		warmup:      des.Time(des.FromSeconds(p.Float("warmup"))),
		stagger:     p.Float("stagger"),
		spacing:     p.Float("start_spacing"),
		hostJitter:  des.FromSeconds(p.Float("host_jitter")),
		loss:        p.Float("loss"),
		gosnrDB:     p.Float("gosnr"),
		ackLoss:     p.Bool("ack_loss"),
	}
	if c.accessRate == 0 {
		c.accessRate = c.rate
	}
	switch m := p.Str("loss_model"); m {
	case "given":
	case "gosnr":
		c.gosnr = true
	default:
		return c, fmt.Errorf("unknown loss_model %q (want given or gosnr)", m)
	}
	if c.warmup >= c.duration {
		return c, fmt.Errorf("warmup %v must be shorter than duration %v", c.warmup, c.duration)
	}
	if last := float64(c.flows-1) * c.spacing; c.spacing > 0 && des.Time(des.FromSeconds(last)) >= c.duration {
		return c, fmt.Errorf("start_spacing %gs starts the last of %d flows at %gs, not before the end of the run (duration %v): shorten start_spacing or lengthen duration", c.spacing, c.flows, last, c.duration)
	}
	if c.backbone == "mininet" {
		if c.emulate, err = parseEmulate(p.Str("emulate")); err != nil {
			return c, err
		}
	}
	return c, nil
}

// competeLoss returns the loss process of the backbone and the loss of a
// 1500-byte packet under it.
func (c competeConfig) competeLoss() (netsim.LossModel, float64) {
	if !c.gosnr {
		if c.loss == 0 {
			return nil, 0
		}
		return netsim.Bernoulli{P: c.loss}, c.loss
	}
	// The receiver and line code of optical-osnr's defaults, the
	// calibration to document 002's three loss points.
	rx := phy.Receiver{Modulation: phy.DPQPSK, SymbolRate: 32e9, Penalty: phy.Document002Penalty}
	ber := rx.BER(phy.FromDB(c.gosnrDB), phy.RefBandwidth)
	per := func(size int) float64 { return phy.PERExact(ber, phy.LineBits(float64(size), true)) }
	return netsim.PER{Func: per}, per(tcPacket)
}

// competeQueue returns the backbone queue: limit packets of the chosen
// discipline.
func competeQueue(aqm string, limit int) (netsim.QueueModel, error) {
	switch aqm {
	case "droptail":
		return netsim.DropTail{Packets: limit}, nil
	case "red":
		// Floyd's guideline max_th = 3 min_th, both inside the buffer.
		return netsim.RED{MinTh: float64(limit) / 4, MaxTh: float64(limit) * 3 / 4, Gentle: true, LimitPackets: limit}, nil
	case "codel":
		return netsim.CoDel{Limit: limit}, nil
	case "fq_codel":
		return netsim.FQCoDel{Limit: limit}, nil
	}
	return nil, fmt.Errorf("unknown aqm %q", aqm)
}
