package models

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// testbedSeeds is how many seeds testbedShape runs at each point. Each
// quantity is the median over them, so that one seed in the tail does not
// decide a bound: in 30 s runs with 0.2 % loss at q = 100 %, one seed in
// eight gave BIC 26-27 Mbit/s and Jain's index 0.91 (0.98 on average),
// with either form of the cwnd-limited gate.
const testbedSeeds = 3

// medianPoint returns each quantity's median over the seeds' points.
func medianPoint(seeds []testbedPoint) testbedPoint {
	med := func(f func(testbedPoint) float64) float64 {
		v := make([]float64, len(seeds))
		for i, p := range seeds {
			v[i] = f(p)
		}
		slices.Sort(v)
		if n := len(v); n%2 == 0 {
			return (v[n/2-1] + v[n/2]) / 2
		}
		return v[len(v)/2]
	}
	p := testbedPoint{algo: map[string]float64{}}
	p.thr = med(func(o testbedPoint) float64 { return o.thr })
	p.loss = med(func(o testbedPoint) float64 { return o.loss })
	p.bbr = med(func(o testbedPoint) float64 { return o.bbr })
	p.jain = med(func(o testbedPoint) float64 { return o.jain })
	p.retr = med(func(o testbedPoint) float64 { return o.retr })
	p.rate = med(func(o testbedPoint) float64 { return o.rate })
	for a := range seeds[0].algo {
		p.algo[a] = med(func(o testbedPoint) float64 { return o.algo[a] })
	}
	return p
}

// testbedPoint is one 60 s scenario of the testbed, or the median over
// testbedSeeds of them: total and per-algorithm goodput (bit/s), the loss-based and
// BBR shares of the total, Jain's index over the flows, the retransmitted
// segments and the retransmission rate as Figs. 3, 5, 7 and 9 stack it
// (each algorithm's retrans_rate, per second per flow, summed over the
// five algorithms).
type testbedPoint struct {
	thr, loss, bbr, jain, retr, rate float64
	algo                             map[string]float64
}

// testbedShape runs the reduced set of document 002's Figs. 2-5 that
// TestCompeteTestbedShape pins (60 s instead of 200, the median of three
// seeds, q = 100, 70, 50, 30 and 10 % lossless, q = 100 % with 0.2, 0.5
// and 0.8 % loss) with the parameters set (emulate, a host setting) over
// tcp-compete's defaults (backbone mininet, the Linux host), and returns
// each broken bound as a message. The bounds are the acceptance
// criteria, read off the published bars (Images/Thoughput_00_loss.png,
// Thoughput_02_loss.png, Thoughput_08_loss.png, Retr_00_loss.png,
// Retr_02_loss.png, Retr_08_loss.png):
//   - Fig. 2, q = 100, 50 %: a lossless total within 10 % of 92 Mbit/s,
//     and at most what the wire carries of payload, a closed form and not
//     a reading of the images: each TCLink sends 100 Mbit/s of frames,
//     and a frame of the Linux host carries 1448 payload bytes in 1514
//     (20 bytes of IPv4, 20 of TCP, the 12-byte timestamp option that
//     tcp_current_mss() takes off the 1460-byte MSS, and the 14-byte
//     Ethernet header that HTB counts, qdisc_pkt_len): 95.64 Mbit/s. The
//     total is counted over the run, so it can pass that only by the
//     segments on the wire at its edges (0.1 % is about 250 of them);
//   - Fig. 2, q = 100, 70 %: BIC and Reno together more than CUBIC, BBR
//     and BBRv2 together (the images: 60-70 against 25-30 Mbit/s), and
//     BBR and BBRv2 each at 8-12 Mbit/s (the images: 8-10, +-2 for the
//     short runs' spread: seeds of 30 s vary by about 1 Mbit/s);
//   - Fig. 3, q = 100, 70 %: close to no retransmissions (under 100 in a
//     run);
//   - Fig. 2, q = 30, 10 %: BBR's share (with BBRv2) above 0.6, and the
//     total falling with q from 50 to 30 to 10 % (netem's limit in skbs);
//     BBRv2 at most 6 Mbit/s, where the images show it starving (at most
//     2.2; the bound is issue 21's acceptance);
//   - Fig. 2, q = 100, 70 %: CUBIC at 8-12 Mbit/s too (the images: 9.1
//     and 11.1), and the per-algorithm order: the leader of BIC and Reno
//     ahead of each of CUBIC, BBR and BBRv2 (the images: 38.9 and 56.0
//     against at most 11.1; which of BIC and Reno leads changes from one
//     q to the next there);
//   - Figs. 4, 6 and 8, q = 100 %, 0.2, 0.5 and 0.8 % loss: Jain's index
//     at least 0.93 (the images: 0.997, 0.99 and 0.966);
//   - Figs. 4 and 8, q = 100 %: at 0.8 % loss BBR ahead of CUBIC and of
//     Reno (the images: 22.1 against 13.9 and 13.9), and CUBIC and Reno
//     each below its own throughput at 0.2 % (the images: 18.0 and 18.0
//     there): random loss holds the loss-based flows back and BBR, which
//     does not take it as congestion, gets what they leave. Both gaps in
//     the images (8.2 and 4.1 Mbit/s) exceed the reading precision of two
//     bars (+-1.5 each);
//   - Figs. 3, 5, 7 and 9, q = 100 %: retransmissions growing with loss,
//     from 0.2 to 0.5 to 0.8 %, and those at 0.8 % at least twice those at
//     0.2 % (the images: 10.4, 24.5 and 38.0 per second; random loss, four
//     times as frequent, drives them);
//   - Figs. 5, 7 and 9, q = 100 %: the stacked retransmission rate within
//     30 % of the images' 10.4, 24.5 and 38.0 per second at 0.2, 0.5 and
//     0.8 % loss (issue 21's acceptance: within 30 %; the bars read to
//     about +-1 per second). A 60 s run counts its slow starts' losses
//     against 60 s rather than 200, but lossless at q = 100 % they lose
//     nothing (the Fig. 3 bound above).
func testbedShape(t *testing.T, set map[string]vocab.Value) (fails []string, logs []string) {
	t.Helper()
	m := NewTCPCompete()
	at := func(q, loss float64) testbedPoint {
		var seeds [testbedSeeds]testbedPoint
		for i := range seeds {
			params := map[string]vocab.Value{"backbone": vocab.S("mininet"), "queue_bdp": vocab.F(q / 100),
				// 60 s: the windows Linux's slow start leaves (every
				// segment a stretch ACK covers counted, byte counting
				// without a limit) take longer than 30 s to give way
				// under 0.2 % loss; the document ran 200 s.
				"loss": vocab.F(loss / 100), "duration": vocab.F(60)}
			for k, v := range set {
				params[k] = v
			}
			r := runModel(t, m, params, uint64(i+1))
			o := &seeds[i]
			o.algo = map[string]float64{}
			o.thr = metric(t, m, r, "goodput").Float()
			bbr := metric(t, m, r, "goodput_bbr").Float() + metric(t, m, r, "goodput_bbr2").Float()
			o.bbr = bbr / o.thr
			o.loss = (o.thr - bbr) / o.thr
			o.jain = metric(t, m, r, "jain_flows").Float()
			o.retr = float64(metric(t, m, r, "retrans_segs").Int())
			for _, a := range []string{"bbr", "bbr2", "cubic", "bic", "reno"} {
				o.algo[a] = metric(t, m, r, "goodput_"+a).Float()
				o.rate += metric(t, m, r, "retrans_rate_"+a).Float()
			}
		}
		p := medianPoint(seeds[:])
		logs = append(logs, fmt.Sprintf("q %3g %%, loss %g %%: total %.1f Mbit/s (BBR %.1f, BBRv2 %.1f, CUBIC %.1f, BIC %.1f, Reno %.1f), loss-based %.2f, BBR %.2f, Jain %.2f, retransmissions %.0f (%.1f per second stacked)",
			q, loss, p.thr/1e6, p.algo["bbr"]/1e6, p.algo["bbr2"]/1e6, p.algo["cubic"]/1e6, p.algo["bic"]/1e6, p.algo["reno"]/1e6,
			p.loss, p.bbr, p.jain, p.retr, p.rate))
		return p
	}
	fail := func(format string, a ...any) { fails = append(fails, fmt.Sprintf(format, a...)) }
	byQ := map[float64]testbedPoint{}
	for _, q := range []float64{100, 70, 50, 30, 10} {
		byQ[q] = at(q, 0)
	}
	for _, q := range []float64{100, 50} {
		if p := byQ[q]; p.thr < 0.9*92e6 || p.thr > 1.1*92e6 {
			fail("q %g %%: total %.1f Mbit/s, want 92 +- 10 %% (Fig. 2)", q, p.thr/1e6)
		}
	}
	// A frame of the Linux host: 1448 payload bytes, 52 of headers and
	// options, 14 of Ethernet header counted by HTB.
	const wire = tcRate * 1448 / (1448 + 52 + 14)
	for _, q := range []float64{100, 50} {
		if p := byQ[q]; p.thr > 1.001*wire {
			fail("q %g %%: total %.2f Mbit/s, want at most the wire's %.2f (1448 payload bytes a 1514-byte frame)", q, p.thr/1e6, wire/1e6)
		}
	}
	for _, q := range []float64{100, 70} {
		p := byQ[q]
		if lead, rest := p.algo["bic"]+p.algo["reno"], p.algo["cubic"]+p.algo["bbr"]+p.algo["bbr2"]; lead <= rest {
			fail("q %g %%: BIC and Reno %.1f Mbit/s, CUBIC, BBR and BBRv2 %.1f: want BIC and Reno ahead (Fig. 2)", q, lead/1e6, rest/1e6)
		}
		leader := max(p.algo["bic"], p.algo["reno"])
		for _, a := range []string{"bbr", "bbr2", "cubic"} {
			if x := p.algo[a]; x < 8e6 || x > 12e6 {
				fail("q %g %%: %s %.1f Mbit/s, want 8-12 (Fig. 2)", q, a, x/1e6)
			}
			if x := p.algo[a]; x >= leader {
				fail("q %g %%: %s at %.1f Mbit/s, the leader of BIC and Reno at %.1f: want the leader ahead (Fig. 2)", q, a, x/1e6, leader/1e6)
			}
		}
		if p.retr >= 100 {
			fail("q %g %%: %.0f retransmissions in 60 s, want under 100 (Fig. 3)", q, p.retr)
		}
	}
	for _, q := range []float64{30, 10} {
		if p := byQ[q]; p.bbr <= 0.6 {
			fail("q %g %%: BBR share %.2f, want above 0.6 (Fig. 2)", q, p.bbr)
		}
		if x := byQ[q].algo["bbr2"]; x > 6e6 {
			fail("q %g %%: bbr2 %.1f Mbit/s, want at most 6 (Fig. 2)", q, x/1e6)
		}
	}
	if !(byQ[10].thr < byQ[30].thr && byQ[30].thr < byQ[50].thr) {
		fail("total %.1f, %.1f, %.1f Mbit/s at q 50, 30, 10 %%: want it to fall with q (netem's limit in skbs)",
			byQ[50].thr/1e6, byQ[30].thr/1e6, byQ[10].thr/1e6)
	}
	low, mid, high := at(100, 0.2), at(100, 0.5), at(100, 0.8)
	for _, p := range []struct {
		loss float64
		fig  int
		jain float64
	}{{0.2, 4, low.jain}, {0.5, 6, mid.jain}, {0.8, 8, high.jain}} {
		if p.jain < 0.93 {
			fail("%g %% loss, q 100 %%: Jain's index %.2f, want >= 0.93 (Fig. %d)", p.loss, p.jain, p.fig)
		}
	}
	for _, a := range []string{"cubic", "reno"} {
		if high.algo["bbr"] <= high.algo[a] {
			fail("0.8 %% loss, q 100 %%: BBR %.1f Mbit/s, %s %.1f: want BBR ahead (Fig. 8)", high.algo["bbr"]/1e6, a, high.algo[a]/1e6)
		}
		if high.algo[a] >= low.algo[a] {
			fail("q 100 %%: %s %.1f Mbit/s at 0.8 %% loss, %.1f at 0.2 %%: want less at 0.8 %% (Figs. 4, 8)", a, high.algo[a]/1e6, low.algo[a]/1e6)
		}
	}
	if !(low.retr < mid.retr && mid.retr < high.retr) {
		fail("q 100 %%: %.0f, %.0f, %.0f retransmissions at 0.2, 0.5, 0.8 %% loss: want them to grow with loss (Figs. 5, 7, 9)", low.retr, mid.retr, high.retr)
	}
	if high.retr < 2*low.retr {
		fail("q 100 %%: %.0f retransmissions at 0.8 %% loss, %.0f at 0.2 %%: want at least twice as many (Figs. 3, 5)", high.retr, low.retr)
	}
	for _, p := range []struct {
		loss, image float64
		fig         int
		rate        float64
	}{{0.2, 10.4, 5, low.rate}, {0.5, 24.5, 7, mid.rate}, {0.8, 38.0, 9, high.rate}} {
		if p.rate < 0.7*p.image || p.rate > 1.3*p.image {
			fail("%g %% loss, q 100 %%: retransmissions %.1f per second, want %.1f +- 30 %% (Fig. %d)", p.loss, p.rate, p.image, p.fig)
		}
	}
	return fails, logs
}

// TestCompeteTestbedShape pins the shape of document 002's Figs. 2-5
// that the testbed emulation (backbone mininet, every mechanism, the
// Linux host) gives on a reduced run (testbedShape). At q = 50 % the
// per-algorithm bounds are not pinned: the queue is near the size at
// which the BBR take-over begins, and short runs do not settle it.
// The bounds the model misses are listed as known gaps, which must stay
// missed until the list is changed.
func TestCompeteTestbedShape(t *testing.T) {
	if testing.Short() {
		t.Skip("twenty-seven 60 s scenarios")
	}
	fails, logs := testbedShape(t, nil)
	for _, l := range logs {
		t.Log(l)
	}
	seen := map[string]bool{}
	for _, f := range fails {
		if k, ok := knownGap(testbedKnownGaps, f); ok {
			seen[k] = true
			t.Logf("known gap: %s", f)
			continue
		}
		t.Error(f)
	}
	for k := range testbedKnownGaps {
		if !seen[k] {
			t.Errorf("known gap %q closed: the bound holds now; take it off the list", k)
		}
	}
}

// testbedKnownGaps are the bounds of testbedShape the Linux host misses,
// each a finding of docs/os-testbed.md: the failure's text before its
// value, with the bound the value passes and how far past it the known
// gap reaches (a value further out is a new failure: a host that breaks
// the bound by more than the gap does is another host). A known gap that
// closes fails TestCompeteTestbedShape too, so that this list stays true.
//
// None is left. BBRv2 at q = 30 % was the last: 6.6 Mbit/s (the median
// of three 30 s runs) above the images' 2.2 and the bound of 6 while
// every TCLink serialised each skb and delivered it after its last bit;
// with the TCLinks as HTB's token bucket (emulate htb, tcp-compete 33),
// which releases an skb whole, it is 4.8.
//
// CUBIC at q = 100 and 70 % is no longer a gap: two seeds' mean was 12.4
// Mbit/s, above the band's 12, and the median of three seeds is 11.2 (the
// full profile's 200 s runs give 11.1-13.1 over q >= 50 %, above 12 at
// four q, tcp-compete 25: the card of os-fig2).
//
// Jain's index at 0.8 % loss is no longer a gap: it was 0.91 (BBR 30
// Mbit/s against the images' 22.1) while BIC grew one credit per ACK, as
// Linux did before 5.7, and a sending pass that sent nothing recorded the
// window as not cwnd-limited; with tcp_bic.c's and tcp_write_xmit's
// Linux 5.13 forms BIC keeps its share with loss, and BBR takes less.
//
// BBR and BBRv2 are no longer gaps: they ended just above the band
// (12.1-14 Mbit/s) while their STARTUP paced at a nominal 1 ms RTT (331
// Mbit/s); paced from the handshake's RTT, as bbr_init does, they are at
// 10.8-11.0.
var testbedKnownGaps = map[string]knownBound{}

// knownBound is the bound a known gap's value passes, above it (a rate
// over its band) or below it, and how far the gap reaches.
type knownBound struct {
	bound, reach float64
	above        bool
}

// knownGap reports whether the broken bound f, a failure of the form
// "<bound's name> <value>[ Mbit/s], want ...", is one of gaps with its
// value between the bound and the gap's reach, and which. A value on the
// other side of the bound (a rate below its band) or beyond the reach is
// a new failure.
func knownGap(gaps map[string]knownBound, f string) (string, bool) {
	head, _, ok := strings.Cut(f, ", want ")
	if !ok {
		return "", false
	}
	head = strings.TrimSuffix(head, " Mbit/s")
	i := strings.LastIndex(head, " ")
	if i <= 0 {
		return "", false
	}
	b, known := gaps[head[:i]]
	var v float64
	if _, err := fmt.Sscan(head[i+1:], &v); err != nil || !known {
		return "", false
	}
	// Values are printed to 0.1 Mbit/s or 0.01: 12.0 is above 12.
	if b.above {
		return head[:i], v >= b.bound && v <= b.reach
	}
	return head[:i], v <= b.bound && v >= b.reach
}

// TestKnownGap: a failure is a known gap only between the gap's bound and
// its reach, and only under its own name (the gap CUBIC's lossless share
// was, with a reach of 14 Mbit/s).
func TestKnownGap(t *testing.T) {
	gaps := map[string]knownBound{
		"q 100 %: cubic": {bound: 12, reach: 14, above: true},
		"q 70 %: cubic":  {bound: 12, reach: 14, above: true},
		"q 30 %: jain":   {bound: 0.5, reach: 0.3},
	}
	for _, c := range []struct {
		fail, name string
		known      bool
	}{
		{"q 100 %: cubic 12.4 Mbit/s, want 8-12 (Fig. 2)", "q 100 %: cubic", true},
		{"q 70 %: cubic 12.0 Mbit/s, want 8-12 (Fig. 2)", "q 70 %: cubic", true},
		{"q 70 %: cubic 14.0 Mbit/s, want 8-12 (Fig. 2)", "q 70 %: cubic", true},
		{"q 100 %: cubic 23.5 Mbit/s, want 8-12 (Fig. 2)", "", false}, // beyond the reach: CUBIC without HyStart
		{"q 100 %: cubic 7.5 Mbit/s, want 8-12 (Fig. 2)", "", false},  // the other side of the band
		{"q 100 %: bbr 12.4 Mbit/s, want 8-12 (Fig. 2)", "", false},   // not a known gap
		{"q 100 %: cubic twelve Mbit/s, want 8-12 (Fig. 2)", "", false},
		{"no value here", "", false},
		{"q 30 %: jain 0.40, want >= 0.5", "q 30 %: jain", true},
		{"q 30 %: jain 0.20, want >= 0.5", "", false}, // beyond the reach, below
		{"q 30 %: jain 0.60, want >= 0.5", "", false}, // the other side of the bound
	} {
		name, known := knownGap(gaps, c.fail)
		if known != c.known || (known && name != c.name) {
			t.Errorf("knownGap(%q) = %q, %v; want %q, %v", c.fail, name, known, c.name, c.known)
		}
	}
}

// TestCompeteTestbedShapeNeedsEach checks which mechanisms of the
// testbed's Linux hosts the shape test sees: with one of them removed,
// at least one of its bounds that the Linux host keeps breaks (a known
// gap's bound counts only past the gap's reach). It sees 8 of the 24
// (tcp-compete 39): topology, gso, tsq and cwndlimited (13 to 24 bounds
// each); hystart (CUBIC 13.6 Mbit/s at q = 100 and 70 % without it, 9.3
// with it); sack (BBR's share at q = 30 % 0.48 and BBRv2 9.7 Mbit/s there
// without it); timestamps and ethernet, through the bound of what the
// wire carries of payload (the lossless total at q = 100 and 50 % is
// 96.28 Mbit/s without timestamps, whose 12 option bytes leave a
// 1502-byte frame, and 96.41 without HTB's count of the Ethernet header,
// against the 95.64 the wire carries with both; 95.5 on the Linux host).
// sack_compression and skb_marked_lost, seen through Jain's index at
// q = 100 % and 0.2 % loss until tcp-compete 36, are not since the
// write queue's skbs (tcp-compete 37) put it at 0.99 with and without
// them. Which recovery mechanisms the bounds see moves with any change
// to the host or the testbed: the bounds nearest the Linux host's
// values, Jain's index with loss and BBRv2 at q = 30 %, are crossed by
// different removals from one version to the next. The retransmission
// rates of Figs. 5, 7 and 9 at q = 100 % stay within 30 % of the
// images' without any one of the others (33.6 a second at 0.8 % loss on
// the Linux host, from 33.2 to 33.8 without one of them). The others
// are listed in unseen with the measured numbers or the reason. The
// test fails if one of those starts to matter or one of the others
// stops to, so that the list stays true. It runs the shape test once
// per removal, 24 times twenty-seven 60 s scenarios (about three
// minutes of CPU).
func TestCompeteTestbedShapeNeedsEach(t *testing.T) {
	if testing.Short() {
		t.Skip("24 runs of the shape test")
	}
	// What the shape does not see, measured by this test's own runs (the
	// Linux host: BBRv2 3.7 Mbit/s at q = 30 %; at q = 100 % with 0.8 %
	// loss Jain's index 0.97 and 33.6 retransmissions a second, stacked).
	// Lossless at q >= 50 % nothing is lost after the slow starts, so a
	// mechanism of loss recovery acts only in the lossless q = 30 and 10 %
	// runs and in those with random loss.
	atQ30 := func(bbr2 string) string {
		return "without it BBRv2 gets " + bbr2 + " Mbit/s at q = 30 %, under the bound of 6"
	}
	same := "; at 0.8 % loss the row is the same with and without it"
	at08 := func(jain, retr string) string {
		return ", and at 0.8 % loss Jain's index is " + jain + " and the retransmissions " + retr + " a second"
	}
	unseen := map[string]string{
		"emulate -sockbuf":       "with Mininet's 16 MiB rmem_max/wmem_max it turns the 16 MiB window into 16 MiB (and the send buffer into 32 MiB): every row of its runs is the same with and without it at these rates; it matters with Linux's own 212992 bytes",
		"emulate -ackloss":       atQ30("3.7") + at08("0.97", "33.5") + ": a lost ACK's successor acknowledges its data",
		"emulate -defer":         atQ30("3.6") + at08("0.97", "33.3"),
		"emulate -htb":           atQ30("4.0") + at08("0.97", "33.3") + "; HTB's bucket sets the totals at q = 20-40 %, which these bounds do not check",
		"no delayed_ack":         atQ30("3.5") + at08("0.97", "33.4"),
		"no sack_rate_samples":   atQ30("4.6") + at08("0.97", "33.5"),
		"no prr":                 atQ30("3.1") + at08("0.97", "33.4"),
		"no dsack":               atQ30("3.7") + "; DSACKs report only what arrives twice" + same,
		"no frto":                atQ30("3.6") + "; F-RTO acts only after a retransmission timeout (RFC 5682)" + same,
		"no quick_ack":           atQ30("3.9") + at08("0.97", "33.7"),
		"no undo":                atQ30("3.9") + at08("0.97", "33.6"),
		"no adaptive_reordering": atQ30("3.9") + at08("0.97", "33.6"),
		"no edt_credit":          atQ30("3.3") + at08("0.97", "33.2"),
		"no byte_counting":       atQ30("3.3") + at08("0.94", "33.8"),
		"no sack_compression":    atQ30("3.8") + at08("0.97", "33.6"),
		"no skb_marked_lost":     atQ30("5.2") + at08("0.97", "33.4"),
	}
	removals := map[string]map[string]vocab.Value{}
	for _, m := range testbedMechanisms {
		var rest []string
		for _, o := range testbedMechanisms {
			if o != m {
				rest = append(rest, o)
			}
		}
		removals["emulate -"+m] = map[string]vocab.Value{"emulate": vocab.S(strings.Join(rest, ","))}
	}
	for _, h := range LinuxHostSwitches {
		removals["no "+h] = map[string]vocab.Value{h: vocab.B(false)}
	}
	for _, name := range slices.Sorted(maps.Keys(removals)) {
		t.Run(name, func(t *testing.T) {
			all, logs := testbedShape(t, removals[name])
			// A removal breaks the shape when it breaks a bound the Linux
			// host keeps: the known gaps break with every host.
			var fails []string
			for _, f := range all {
				if _, ok := knownGap(testbedKnownGaps, f); !ok {
					fails = append(fails, f)
				}
			}
			why, known := unseen[name]
			switch {
			case len(fails) == 0 && !known:
				for _, l := range logs {
					t.Log(l)
				}
				t.Errorf("%s: the shape holds without it", name)
			case len(fails) > 0 && known:
				t.Errorf("%s: listed as unseen (%s), but the shape breaks: %v", name, why, fails)
			default:
				t.Logf("%s: %d bounds break: %v", name, len(fails), fails)
			}
			for _, l := range logs {
				// BBRv2 at q = 30 % and the retransmissions at 0.8 %
				// loss: the unseen list's numbers.
				if strings.HasPrefix(l, "q  30 %, loss 0 %") || strings.HasPrefix(l, "q 100 %, loss 0.8 %") {
					t.Logf("%s: %s", name, l)
				}
			}
		})
	}
}

// TestEmulateRejectsUnknown: a misspelt mechanism is an error that lists
// the names.
func TestEmulateRejectsUnknown(t *testing.T) {
	m := NewTCPCompete()
	p := m.Schema().Defaults().With("backbone", vocab.S("mininet")).With("emulate", vocab.S("topology,tso"))
	if _, err := m.Run(t.Context(), p, 1); err == nil {
		t.Fatal("emulate topology,tso: no error")
	}
}
