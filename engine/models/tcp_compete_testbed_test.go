package models

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/crosslink-sim/crosslink/vocab"
)

// testbedPoint is the mean over two seeds of one 30 s scenario of the
// testbed: total and per-algorithm goodput (bit/s), the loss-based and
// BBR shares of the total, Jain's index over the flows and the
// retransmitted segments.
type testbedPoint struct {
	thr, loss, bbr, jain, retr float64
	algo                       map[string]float64
}

// testbedShape runs the reduced set of document 002's Figs. 2-5 that
// TestCompeteTestbedShape pins (30 s instead of 200, two seeds, q = 100,
// 70, 50, 30 and 10 % lossless, q = 100 % with 0.2 and 0.8 % loss) with
// the parameters set (emulate, a host setting) over tcp-compete's
// defaults (backbone mininet, the Linux host), and returns each broken
// bound as a message. The bounds are the acceptance criteria,
// read off the published bars (Images/Thoughput_00_loss.png,
// Thoughput_02_loss.png, Thoughput_08_loss.png, Retr_00_loss.png,
// Retr_02_loss.png, Retr_08_loss.png):
//   - Fig. 2, q = 100, 50 %: a lossless total within 10 % of 92 Mbit/s;
//   - Fig. 2, q = 100, 70 %: BIC and Reno together more than CUBIC, BBR
//     and BBRv2 together (the images: 60-70 against 25-30 Mbit/s), and
//     BBR and BBRv2 each at 8-12 Mbit/s (the images: 8-10, +-2 for the
//     30 s runs' spread: two seeds of 30 s vary by about 1 Mbit/s);
//   - Fig. 3, q = 100, 70 %: close to no retransmissions (under 100 in a
//     run);
//   - Fig. 2, q = 30, 10 %: BBR's share (with BBRv2) above 0.6, and the
//     total falling with q from 50 to 30 to 10 % (netem's limit in skbs);
//     BBRv2 at most 6 Mbit/s, where the images show it starving (at most
//     2.2; the bound is issue 21's acceptance);
//   - Fig. 4, q = 100 %, 0.2 % loss: Jain's index at least 0.93;
//   - Figs. 3 and 5, q = 100 %: retransmissions at 0.8 % loss at least
//     twice those at 0.2 % (the images: 37 against 9 per second; random
//     loss, four times as frequent, drives them).
func testbedShape(t *testing.T, set map[string]vocab.Value) (fails []string, logs []string) {
	t.Helper()
	m := NewTCPCompete()
	at := func(q, loss float64) testbedPoint {
		p := testbedPoint{algo: map[string]float64{}}
		for seed := uint64(1); seed <= 2; seed++ {
			params := map[string]vocab.Value{"backbone": vocab.S("mininet"), "queue_bdp": vocab.F(q / 100),
				"loss": vocab.F(loss / 100), "duration": vocab.F(30)}
			for k, v := range set {
				params[k] = v
			}
			r := runModel(t, m, params, seed)
			thr := metric(t, m, r, "goodput").Float()
			bbr := metric(t, m, r, "goodput_bbr").Float() + metric(t, m, r, "goodput_bbr2").Float()
			p.thr += thr / 2
			p.bbr += bbr / thr / 2
			p.loss += (thr - bbr) / thr / 2
			p.jain += metric(t, m, r, "jain_flows").Float() / 2
			p.retr += float64(metric(t, m, r, "retrans_segs").Int()) / 2
			for _, a := range []string{"bbr", "bbr2", "cubic", "bic", "reno"} {
				p.algo[a] += metric(t, m, r, "goodput_"+a).Float() / 2
			}
		}
		logs = append(logs, fmt.Sprintf("q %3g %%, loss %g %%: total %.1f Mbit/s (BBR %.1f, BBRv2 %.1f, CUBIC %.1f, BIC %.1f, Reno %.1f), loss-based %.2f, BBR %.2f, Jain %.2f, retransmissions %.0f",
			q, loss, p.thr/1e6, p.algo["bbr"]/1e6, p.algo["bbr2"]/1e6, p.algo["cubic"]/1e6, p.algo["bic"]/1e6, p.algo["reno"]/1e6,
			p.loss, p.bbr, p.jain, p.retr))
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
	for _, q := range []float64{100, 70} {
		p := byQ[q]
		if lead, rest := p.algo["bic"]+p.algo["reno"], p.algo["cubic"]+p.algo["bbr"]+p.algo["bbr2"]; lead <= rest {
			fail("q %g %%: BIC and Reno %.1f Mbit/s, CUBIC, BBR and BBRv2 %.1f: want BIC and Reno ahead (Fig. 2)", q, lead/1e6, rest/1e6)
		}
		for _, a := range []string{"bbr", "bbr2"} {
			if x := p.algo[a]; x < 8e6 || x > 12e6 {
				fail("q %g %%: %s %.1f Mbit/s, want 8-12 (Fig. 2)", q, a, x/1e6)
			}
		}
		if p.retr >= 100 {
			fail("q %g %%: %.0f retransmissions in 30 s, want under 100 (Fig. 3)", q, p.retr)
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
	low, high := at(100, 0.2), at(100, 0.8)
	if low.jain < 0.93 {
		fail("0.2 %% loss, q 100 %%: Jain's index %.2f, want >= 0.93 (Fig. 4)", low.jain)
	}
	if high.retr < 2*low.retr {
		fail("q 100 %%: %.0f retransmissions at 0.8 %% loss, %.0f at 0.2 %%: want at least twice as many (Figs. 3, 5)", high.retr, low.retr)
	}
	return fails, logs
}

// TestCompeteTestbedShape pins the shape of document 002's Figs. 2-5
// that the testbed emulation (backbone mininet, every mechanism, the
// Linux host) gives on a reduced run (testbedShape). At q = 50 % the
// per-algorithm bounds are not pinned: the queue is near the size at
// which the BBR take-over begins, and two 30 s runs do not settle it.
// The bounds the model misses are listed as known gaps, which must stay
// missed until the list is changed.
func TestCompeteTestbedShape(t *testing.T) {
	if testing.Short() {
		t.Skip("sixteen 30 s scenarios")
	}
	fails, logs := testbedShape(t, nil)
	for _, l := range logs {
		t.Log(l)
	}
	seen := map[string]bool{}
	for _, f := range fails {
		if k, ok := knownGap(f); ok {
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
// each a finding of docs/os-testbed.md, with the rate (Mbit/s) the
// bound's upper end: each gap is a rate above it. None is left: BBR and
// BBRv2 ended just above the images' band at q = 100 and 70 % (12.1-14
// Mbit/s) while their STARTUP paced at a nominal 1 ms RTT (331 Mbit/s);
// paced from the handshake's RTT, as bbr_init does, they are at 10.8 and
// 10.9. A known gap that closes fails TestCompeteTestbedShape too, so
// that this list stays true.
var testbedKnownGaps = map[string]float64{}

// knownGap reports whether the broken bound f is one of
// testbedKnownGaps (its rate above the bound), and which. A rate below
// the band is a new failure.
func knownGap(f string) (string, bool) {
	k, _, ok := strings.Cut(f, " Mbit/s, want ")
	if !ok {
		return "", false
	}
	i := strings.LastIndex(k, " ")
	if i <= 0 {
		return "", false
	}
	upper, known := testbedKnownGaps[k[:i]]
	var rate float64
	if _, err := fmt.Sscan(k[i+1:], &rate); err != nil {
		return "", false
	}
	return k[:i], known && rate >= upper // printed to 0.1: 12.0 is above 12
}

// TestCompeteTestbedShapeNeedsEach checks which mechanisms of the
// testbed's Linux hosts the shape test sees: with one of them removed,
// at least one of its bounds that the Linux host keeps breaks (the known
// gaps do not count). It sees topology, gso, tsq, cwndlimited, ethernet,
// SACK, delayed ACKs and sack_rate_samples (BBRv2 11.7 Mbit/s at q = 30 %
// without it, 4.2 on the Linux host, bound 6); that bound is the one most sensitive to the
// recovery mechanisms, and which of them cross it moves with any change
// to the host or to BBR (at tcp-compete 19 PRR, timestamps, undo and
// adaptive_reordering crossed it; at 20, with one ACK decision per GRO
// aggregate, delayed ACKs did instead; at 21, with Linux 5.13's TSO
// deferral, none of them did; at 23, with SACK compression and HTB's
// count of the Ethernet header, delayed ACKs do again, through Jain's
// index at 0.2 % loss, 0.90 without them). The others are listed in
// unseen with the measured rate or the reason. The
// test fails if one of those starts to matter or one of the others stops
// to, so that the list stays true. Set CROSSLINK_SHAPE_ABLATION=1 to run it (about
// three hundred 30 s scenarios).
func TestCompeteTestbedShapeNeedsEach(t *testing.T) {
	if testing.Short() || os.Getenv("CROSSLINK_SHAPE_ABLATION") == "" {
		t.Skip("set CROSSLINK_SHAPE_ABLATION=1: eighteen runs of the shape test")
	}
	// What the shape does not see, measured (CROSSLINK_SHAPE_ABLATION=1):
	recovery := "acts only in loss recovery or on the ACK clock: lossless at q >= 50 % nothing is lost, and with loss at q = 100 % its effect on shares, Jain's index and retransmissions stays inside the bounds"
	unseen := map[string]string{
		"emulate -ackloss":       "a lost ACK is covered by the next cumulative one",
		"emulate -defer":         "BBR and BBRv2 stay inside the images' band at q = 100 and 70 % without it",
		"emulate -sockbuf":       "with Mininet's 16 MiB rmem_max/wmem_max it turns the 16 MiB window into 16 MiB (and the send buffer into 32 MiB): nothing at these rates; it matters with Linux's own 212992 bytes",
		"no skb_marked_lost":     "without it BBRv2 gets 4.6 Mbit/s at q = 30 % (4.2 with it), inside the bound; with loss at q = 100 % it moves BBRv2 by under 0.5 Mbit/s",
		"no prr":                 "without it BBRv2 gets 3.0 Mbit/s at q = 30 % (4.2 with it), inside the bound; " + recovery,
		"no timestamps":          "without them BBRv2 gets 3.6 Mbit/s at q = 30 % (4.2 with them), inside the bound; " + recovery,
		"no undo":                "without it BBRv2 gets 5.1 Mbit/s at q = 30 % (4.2 with it), inside the bound; " + recovery,
		"no adaptive_reordering": "without it BBRv2 gets 5.1 Mbit/s at q = 30 % (4.2 with it), inside the bound; " + recovery,
		"no byte_counting":       recovery,
		"no dsack":               recovery, "no frto": recovery, "no hystart": recovery,
		"no quick_ack": recovery,
		"no sack_compression": "without it BBRv2 gets 5.2 Mbit/s at q = 30 % (4.2 with it), inside the bound, and Jain's index with loss at q = 100 % is unchanged (0.98, 0.91); " +
			"it acts at q = 55 %, which this test does not run, where the BBR take-over with loss begins (full profile, 5 x 200 s: Jain's index 0.963, 0.782, 0.693 at 0.2, 0.5, 0.8 % loss at tcp-compete 21, 0.984, 0.861, 0.742 with it at 22)",
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
	for _, h := range []string{"delayed_ack", "prr", "timestamps", "hystart", "byte_counting", "quick_ack", "dsack", "undo", "frto", "adaptive_reordering", "sack", "skb_marked_lost", "sack_rate_samples", "sack_compression"} {
		removals["no "+h] = map[string]vocab.Value{h: vocab.B(false)}
	}
	for _, name := range slices.Sorted(maps.Keys(removals)) {
		t.Run(name, func(t *testing.T) {
			all, logs := testbedShape(t, removals[name])
			// A removal breaks the shape when it breaks a bound the Linux
			// host keeps: the known gaps break with every host.
			var fails []string
			for _, f := range all {
				if _, ok := knownGap(f); !ok {
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
				if strings.HasPrefix(l, "q  30 %, loss 0 %") {
					t.Logf("%s: %s", name, l) // BBRv2 at q = 30 %, the unseen list's numbers
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
