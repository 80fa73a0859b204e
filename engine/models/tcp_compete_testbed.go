package models

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"slices"
	"strings"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Document 002's Mininet testbed (backbone: mininet), after the published
// scripts (nerds-ufes/IP_TCPoDWDM_IMOC2025, scripts/Case 0N/
// tcp_cc_mn_iperf4.py, SimpleLinkTopo.build): hosts h10-h19 hang off
// switch s3 and h20-h29 off s4, each by its own TCLink (bw 100, delay 0,
// max_queue_size 100 x d = 1000); s3-s1 and s4-s2 are TCLinks of bw 100,
// delay 0 and max_queue_size 21 x d x 20/100 = 42; the backbone s1-s2 is
// a TCLink of bw 100, delay d = 10 ms, max_queue_size 8.33 x (q/100) x d
// and loss l/10 %. Mininet's TCIntf (mininet/link.py, config, bwCmds and
// delayCmds) builds every such link on both of its interfaces as "htb
// rate 100Mbit burst 15k" with the leaf "netem delay D loss L limit N"
// (%d: the limit truncates, 83.3 x q/100 packets becomes an integer);
// tc gives the class the default cburst, which binds (emulate htb).
// The switches are Open vSwitch bridges with STP; in Case 01 (the only
// one whose path is all TCLinks) the switches form a line, so STP blocks
// nothing and leaves the traffic on s1-s2 once the ports forward, which
// they do long before the measured run (the script pings all pairs and
// runs a 50 s capacity test first). iperf3 -w 16m asks for 16 MB socket
// buffers, which Linux caps at net.core.rmem_max/wmem_max.
//
// Each mechanism that can decide the shape is switched on by name in the
// emulate parameter, so that each can be tried alone (the ablation of
// the model's doc and docs/os-testbed.md):
//
//   - topology: the links above, each a netem limit counting what it
//     holds (netsim.LinkConfig.NetemLimit), instead of the dumbbell whose
//     access links are plain 1000-packet queues; the first queue the ten
//     flows share is then s3-s1's 42, not the backbone's.
//   - gso: TCP hands the stack aggregates of tcp_tso_autosize's size
//     (about 1 ms at the pacing rate, at least 2 segments; new data's at
//     most half of cwnd, as tcp_cwnd_test has it, so one segment below
//     four segments of cwnd, and each within one write-queue skb, the
//     22-segment skbs tcp_sendmsg builds under the SYN-ACK's window for
//     the send buffer's first fill and 45-segment ones later), which veth
//     and Open vSwitch pass on whole, so every netem limit counts them as
//     one skb and netem's loss drops them whole (tcp.Host.TSO,
//     netsim.Packet.Skb).
//   - tsq: TCP Small Queues holds a socket's bytes below TCP to about
//     1 ms at its pacing rate until a delaying netem orphans them
//     (tcp.Host.TSQ, netsim.Packet.SetOwner): the host and s3-s1 queues
//     stay short and a flow with more data waits in its socket.
//   - sockbuf: setsockopt caps SO_SNDBUF/SO_RCVBUF at wmem_max/rmem_max
//     and doubles the value (sock_setsockopt); the receiver advertises
//     the buffer less 1/2^tcp_adv_win_scale of it (tcp_win_from_space,
//     tcp_adv_win_scale = 1 before Linux 6.6). Mininet raises wmem_max
//     and rmem_max to 16 MiB before it builds a network (mininet/util.py
//     fixLimits, called by Mininet.init from Mininet.__init__), so -w 16m
//     gets its 16 MiB window and a 32 MiB send buffer; with Linux's own
//     212992 bytes (SK_WMEM_MAX) iperf3 since 3.1 would stop with
//     "socket buffer size not set correctly", as it reads the size back
//     (iperf_tcp.c, IESETBUF2), so the document's runs had the raised
//     limits.
//   - ackloss: the TCLink's netem, on both interfaces, loses ACKs too.
//
//   - defer: TSO deferral (tcp_tso_should_defer): a sender that may send
//     less than a full aggregate waits for the ACK due within a
//     millisecond to send a larger one (tcp.Host.Defer).
//   - cwndlimited: CUBIC, BIC and Reno grow cwnd only while cwnd limits
//     the sender (tcp_is_cwnd_limited, tcp_cwnd_validate): a flow that
//     TCP Small Queues holds back keeps its window instead of growing it
//     without bound (tcp.Host.CwndLimited).
//   - ethernet: HTB counts each frame's 14-byte Ethernet header against
//     its 100 Mbit/s (qdisc_pkt_len: the skb at a veth's qdisc holds the
//     header, and qdisc_pkt_len_init adds it for every segment of a GSO
//     skb), so a full link carries 1500-byte packets at 100 x 1500/1514
//     Mbit/s (netsim.LinkConfig.FrameOverhead on every TCLink).
//   - htb: every TCLink's rate is HTB's token bucket in front of a veth,
//     which sends at once (netsim.LinkConfig.Shaper): HTB releases an
//     skb whole while its class is in credit and charges its length at
//     the rate, so an skb reaches the next hop when released, not after
//     its serialisation, and a link idle for a while lets the bucket's
//     depth pass at once. The class needs credit in both of its buckets
//     (htb_class_mode), and with ceil equal to rate the smaller binds:
//     the cburst tc gives a class that names only burst, ceil/hz + mtu
//     with hz from /proc/net/psched (iproute2's q_htb.c and get_hz),
//     1600 bytes on a host with high-resolution timers, not the 15 kB
//     burst. Without it each TCLink is a transmitter that serialises at
//     the rate and delivers after the last bit, which holds an skb of n
//     segments n x 121 us longer at every hop; BBR paces the aggregates
//     of a flow that grew its estimate into them (about 1 ms of its
//     rate each), and at small q one BBR flow takes the backbone with
//     8-segment skbs.

// Linux and Mininet quantities of the testbed emulation.
const (
	// net.core.rmem_max/wmem_max as Mininet sets them (mininet/util.py
	// fixLimits: sysctlTestAndSet 16777216), in place of Linux's
	// SK_RMEM_MAX/SK_WMEM_MAX of 212992 bytes (include/net/sock.h).
	mininetMemMax = 16 << 20
	// Mininet script: hi_params max_queue_size = 100 x d (d = 10).
	mnHostQueue = 1000
	// Mininet script: ar_params max_queue_size = 21 x d x 20/100.
	mnAccessQueue = 42
	// ETH_HLEN (include/uapi/linux/if_ether.h): the Ethernet header HTB
	// counts in every frame.
	ethHeaderBytes = 14
	// The cburst of an HTB class that tc gives none (iproute2
	// tc/q_htb.c: ceil/get_hz() + mtu, mtu 1600 by default): get_hz
	// reads the clock resolution from /proc/net/psched, 10^9 Hz with
	// high-resolution timers, so 100 Mbit/s adds 0 bytes. tc class show
	// prints it as "cburst 1600b".
	htbCburst = 1600
)

// LinuxHostSwitches are tcp-compete's boolean parameters that each turn
// one mechanism of the Linux host on (its default) or off: the host's
// half of an ablation, beside emulate's testbed mechanisms.
var LinuxHostSwitches = []string{"delayed_ack", "prr", "timestamps", "hystart", "byte_counting", "quick_ack", "dsack", "undo", "frto", "adaptive_reordering", "sack", "skb_marked_lost", "sack_rate_samples", "sack_compression", "edt_credit"}

// testbedMechanisms are the emulate names, in ablation order.
var testbedMechanisms = []string{"topology", "gso", "tsq", "defer", "cwndlimited", "sockbuf", "ackloss", "ethernet", "htb"}

// testbedAll is the emulate default: every mechanism.
var testbedAll = strings.Join(testbedMechanisms, ",")

// parseEmulate reads the emulate list ("" or "none": none).
func parseEmulate(list string) (map[string]bool, error) {
	on := map[string]bool{}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" || f == "none" {
			continue
		}
		if !slices.Contains(testbedMechanisms, f) {
			return nil, fmt.Errorf("emulate: unknown mechanism %q (want a comma-separated subset of %s, or none)", f, testbedAll)
		}
		on[f] = true
	}
	return on, nil
}

// competeNet is the built network of a scenario.
type competeNet struct {
	senders, receivers []*netsim.Node
	bottleneck         *netsim.Link   // backbone, data direction
	links              []*netsim.Link // every link, for the drop counts
}

// buildTestbed builds the Mininet topology of the scripts.
func buildTestbed(net *netsim.Network, n int, rate unit.BitRate, delay des.Duration, bb competeBackbone, jitter des.Duration) (*competeNet, error) {
	cn := &competeNet{}
	s1, s2, s3, s4 := net.AddNode("s1"), net.AddNode("s2"), net.AddNode("s3"), net.AddNode("s4")
	// A TCLink: netem is the only queue (HTB's class has no other), so
	// the link's own queue is unlimited and the netem limit governs.
	tclink := func(name string, lim int, d des.Duration, l netsim.LossModel) netsim.LinkConfig {
		return netsim.LinkConfig{Name: name, Rate: rate, Delay: d, Queue: netsim.DropTail{}, Loss: l, NetemLimit: lim, FrameOverhead: bb.frameOverhead, Shaper: bb.htb, Burst: bb.burst()}
	}
	limit, loss, ackLoss := bb.netemLimit, bb.loss, bb.ackLoss
	connect := func(a, b *netsim.Node, fwd, rev netsim.LinkConfig) (*netsim.Link, error) {
		f, err := net.Connect(a, b, fwd)
		if err != nil {
			return nil, err
		}
		r, err := net.Connect(b, a, rev)
		if err != nil {
			return nil, err
		}
		cn.links = append(cn.links, f, r)
		return f, nil
	}
	var err error
	if cn.bottleneck, err = connect(s1, s2, tclink("s1-s2", limit, delay, loss), tclink("s2-s1", limit, delay, ackLoss)); err != nil {
		return nil, err
	}
	if _, err = connect(s3, s1, tclink("s3-s1", mnAccessQueue, 0, nil), tclink("s1-s3", mnAccessQueue, 0, nil)); err != nil {
		return nil, err
	}
	if _, err = connect(s2, s4, tclink("s2-s4", mnAccessQueue, 0, nil), tclink("s4-s2", mnAccessQueue, 0, nil)); err != nil {
		return nil, err
	}
	for i := range n {
		h := net.AddNode(fmt.Sprintf("h%d", 10+i))
		r := net.AddNode(fmt.Sprintf("h%d", 20+i))
		cn.senders = append(cn.senders, h)
		cn.receivers = append(cn.receivers, r)
		up := tclink(h.Name()+"-s3", mnHostQueue, 0, nil)
		up.Jitter = jitter
		if _, err = connect(h, s3, up, tclink("s3-"+h.Name(), mnHostQueue, 0, nil)); err != nil {
			return nil, err
		}
		back := tclink(r.Name()+"-s4", mnHostQueue, 0, nil)
		back.Jitter = jitter
		if _, err = connect(s4, r, tclink("s4-"+r.Name(), mnHostQueue, 0, nil), back); err != nil {
			return nil, err
		}
	}
	net.ComputeRoutes()
	return cn, nil
}

// testbedHost is the Linux host model the emulate list asks for.
func testbedHost(on map[string]bool) tcp.Host {
	return tcp.Host{TSO: on["gso"], TSQ: on["tsq"], GRO: on["gso"], Defer: on["defer"], CwndLimited: on["cwndlimited"]}
}

// testbedBuffers returns the receive window and send buffer iperf3 -w
// window gets under sockbuf, on a host whose rmem_max and wmem_max
// Mininet raised.
func testbedBuffers(window unit.Bytes) (rcv, snd unit.Bytes) {
	c := min(window, mininetMemMax)
	// sock_setsockopt doubles; tcp_win_from_space keeps half of the
	// receive buffer for the window (tcp_adv_win_scale 1).
	return 2 * c / 2, 2 * c
}

// emulateParam is the emulate parameter's schema entry.
func emulateParam() vocab.Param {
	return vocab.Param{Name: "emulate", Kind: vocab.String, Default: vocab.S(testbedAll), Syntax: checkEmulate,
		Doc: "with backbone mininet, the testbed mechanisms emulated, a comma-separated subset of " + testbedAll +
			" (or none): topology (every host on its own 1000-packet TCLink, the switches joined by 42-packet TCLinks, all netem limits), " +
			"gso (TSO/GSO aggregates of about 1 ms at the pacing rate, at most half of cwnd, within the skbs tcp_sendmsg built when the application wrote, counted as one skb by netem's limit and lost whole), " +
			"tsq (TCP Small Queues), defer (TSO deferral, tcp_tso_should_defer), cwndlimited (cwnd grows only while it limits the sender, tcp_is_cwnd_limited), sockbuf (iperf3 -w 16m capped at rmem_max/wmem_max, 16 MiB as Mininet sets them, and doubled), " +
			"ackloss (the backbone's loss on the ACK direction too), ethernet (HTB counts each frame's 14-byte Ethernet header against the TCLinks' rate), " +
			"htb (each TCLink's rate is HTB's token bucket, cburst 1600 bytes: an skb leaves whole when released, without serialisation)"}
}
