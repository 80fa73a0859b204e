package plots

import (
	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/closedform"
)

// Document 000's Table 3 read with every throughput formula its printed
// inputs allow, row by row, so that rc13-tab3's and rc13-fig8's cards show
// with numbers why the 80,000 km row (0.291 Mbit/s at PER 1e-3) is not
// what a TCP with the document's inputs gives, and what it would take.

// rc13T0 is the first retransmission timeout of the Padhye et al. columns:
// RFC 6298 section 2.4's 1 s floor, which the specs' min_rto also sets
// (an RTT of 0.53 s with a steady RTTVAR sits below it).
const rc13T0 = 1.0

// rc13DocMSS is document 000's MSS for Table 3 and Fig. 8 (Sect. 5.2:
// "the maximum segment size (MSS) of 1500 bytes").
const rc13DocMSS = 1500

// rc13Ours is our mean goodput of one flow for one printed Table 3 row.
type rc13Ours struct {
	km, gbps float64 // the row's distance (km) and channel rate (Gbit/s)
	goodput  float64 // bit/s per flow, mean of the runs
	runs     int
}

// rc13RTT is the round trip of a window-limited tcp-bulk flow: twice the
// delay plus the serialisation of a data packet (MSS + 40 bytes) and of an
// ACK (40 bytes), as rc13-fig7's closed forms take it.
func rc13RTT(delay, rate, mss float64) float64 {
	return 2*delay + (mss+rc13HeaderBytes)*8/rate + rc13HeaderBytes*8/rate
}

// rc13Reading is one printed Table 3 row beside the closed forms at its
// printed inputs (bit/s). Every form but Eq. (32), which has the window in
// it, is capped by the window bound.
type rc13Reading struct {
	km, gbps, per, doc float64
	ours               float64 // NaN without a scenario
	runs               int
	rtt, window        float64
	mathis1, mathis2   float64 // Mathis et al. Eq. (3), b = 1 and b = 2 (C = sqrt(3/(2b)))
	padhye31           float64 // Padhye et al. Eq. (31), b = 1, T0
	padhye32, pad32b2  float64 // Padhye et al. Eq. (32) with Wmax, b = 1 and b = 2, T0
}

// rc13Readings computes the readings of every printed row: window and mss
// are the scenarios' (bytes); ours may miss rows.
func rc13Readings(window, mss float64, ours []rc13Ours) []rc13Reading {
	segs := math.Floor(window / mss)
	var out []rc13Reading
	for _, r := range rc13Tab3Doc {
		var doc, per float64
		fmt.Sscan(r.goodput, &doc)
		fmt.Sscan(r.per, &per)
		rd := rc13Reading{km: r.km, gbps: r.gbps, per: per, doc: doc * 1e6, ours: math.NaN()}
		for _, o := range ours {
			if o.km == r.km && o.gbps == r.gbps {
				rd.ours, rd.runs = o.goodput, o.runs
			}
		}
		rd.rtt = rc13RTT(r.delay, r.gbps*1e9, mss)
		rd.window = closedform.WindowRate(segs*mss, rd.rtt)
		rd.mathis1 = math.Min(rd.window, closedform.Mathis(mss, rd.rtt, per))
		rd.mathis2 = math.Min(rd.window, closedform.Mathis(mss, rd.rtt, 2*per)) // C/sqrt(b p) = sqrt(3/2)/sqrt(2p)
		rd.padhye31 = math.Min(rd.window, closedform.Padhye(mss, rd.rtt, per, 1, rc13T0))
		rd.padhye32 = closedform.PadhyeFull(mss, rd.rtt, per, 1, rc13T0, segs)
		rd.pad32b2 = closedform.PadhyeFull(mss, rd.rtt, per, 2, rc13T0, segs)
		out = append(out, rd)
	}
	return out
}

// rc13ReadingsTable sets each printed row beside ours and the closed forms.
func rc13ReadingsTable(rs []rc13Reading) *Table {
	t := &Table{
		Title: "Table 3's goodput per flow beside the throughput formulas at its printed inputs",
		Header: []string{"distance (km)", "rate (Gbps)", "PER", "document (Mbps)", "ours (Mbps)", "runs",
			"W/RTT (Mbps)", "Mathis b=1 (Mbps)", "Mathis b=2 (Mbps)", "Padhye Eq. 31 (Mbps)", "Padhye Eq. 32 (Mbps)", "Padhye Eq. 32 b=2 (Mbps)"},
	}
	mb := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return formatNumber(roundSig(x/1e6, 4))
	}
	for _, r := range rs {
		t.AddRow(formatNumber(r.km), formatNumber(r.gbps), formatNumber(r.per), mb(r.doc), mb(r.ours), fmt.Sprint(r.runs),
			mb(r.window), mb(r.mathis1), mb(r.mathis2), mb(r.padhye31), mb(r.padhye32), mb(r.pad32b2))
	}
	t.Notes = []string{
		"every row: MSS and window of the scenarios, RTT = 2 x delay + the serialisation of a data packet and an ACK; closed forms at the printed PER, each capped by W/RTT (Eq. 32 holds the window itself)",
		fmt.Sprintf("Mathis et al. (1997) Eq. 3, C = sqrt(3/(2b)); Padhye et al. (1998) Eq. 31 (b = 1) and Eq. 32 with Wmax in whole segments, T0 = %g s (RFC 6298's floor, the specs' min_rto)", rc13T0),
	}
	return t
}

// rc13Solve returns the x in [lo, hi] where f(x) = target for an f that
// falls as x grows, by bisection on a log scale (lo > 0) to 1e-6 relative.
func rc13Solve(f func(float64) float64, target, lo, hi float64) float64 {
	for hi/lo > 1+1e-6 {
		mid := math.Sqrt(lo * hi)
		if f(mid) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Sqrt(lo * hi)
}

// rc13ReadingNotes explains the rows no formula reaches: for each printed
// row whose goodput is below every closed form at its printed inputs by
// more than the 5 % the specs' claims allow, what each formula would need
// (loss rate, timeout, MSS) to give it, and whether that need holds on the
// row it was not fitted to (the same factor on the 50,000 km row); and for
// each row with PER > 0 that sits on the loss-free window bound, that its
// run saw no loss.
func rc13ReadingNotes(rs []rc13Reading, mss, window float64) []string {
	segs := math.Floor(window / mss)
	var notes []string
	var lossFree *rc13Reading // the slowest printed row with PER > 0 that shows no loss
	for i := range rs {
		r := &rs[i]
		if r.gbps != 1 {
			continue // the 4 Gbps rows repeat the 1 Gbps ones within 1 % (the table shows both)
		}
		lowest := math.Min(r.mathis2, r.pad32b2)
		switch {
		case r.per > 0 && r.per < 1e-6:
			// PER 1e-12 and 1e-8: a window loses a segment once in 1e6 RTTs or more.
		case math.Abs(r.doc-r.window)/r.window < 0.01 && r.per > 0:
			if lossFree == nil || r.km > lossFree.km {
				lossFree = r
			}
		case r.doc < 0.95*lowest:
			p1, p32, t0, m := rc13Needs(*r, r.doc, mss, segs)
			notes = append(notes, fmt.Sprintf("%s km, %s Gbps: the document's %s Mbps is %s of W/RTT (%s Mbps) and below every formula at its printed PER %s "+
				"(Mathis %s, Padhye Eq. 32 %s, with delayed ACKs %s Mbps; ours %s); to give it, Mathis needs a loss of %s per segment (%s x the printed PER), Eq. 32 %s (%s x); "+
				"at the printed PER Eq. 32 needs a first timeout T0 = %s s (RFC 6298 section 2.4: a 1 s floor; 2.5: any cap at least 60 s) or Mathis an MSS of %s B (the document's is %s B, Sect. 5.2)",
				formatNumber(r.km), formatNumber(r.gbps), formatNumber(roundSig(r.doc/1e6, 4)), pct(r.doc/r.window), formatNumber(roundSig(r.window/1e6, 4)),
				formatNumber(r.per), formatNumber(roundSig(r.mathis1/1e6, 3)), formatNumber(roundSig(r.padhye32/1e6, 3)), formatNumber(roundSig(r.pad32b2/1e6, 3)),
				rc13MbOrNone(r.ours), formatNumber(roundSig(p1, 3)), formatNumber(roundSig(p1/r.per, 3)), formatNumber(roundSig(p32, 3)), formatNumber(roundSig(p32/r.per, 3)),
				formatNumber(roundSig(t0, 3)), formatNumber(math.Round(m)), formatNumber(rc13DocMSS)))
			// The held-out check of the loss-rate reading: the factor the
			// row needs, applied to the slower printed row with PER > 0.
			for j := range rs {
				h := &rs[j]
				if h.gbps != r.gbps || h.per <= 1e-6 || h.km >= r.km {
					continue
				}
				k := p32 / r.per
				got := rc13HeldOut(*h, k, mss, segs)
				notes = append(notes, fmt.Sprintf("held out: the same %s x on the %s km row (PER %s -> %s) gives Eq. 32 %s Mbps against the printed %s (%s): "+
					"no one loss factor fits both rows, so the loss reading is a calibration of the %s km row alone",
					formatNumber(roundSig(k, 3)), formatNumber(h.km), formatNumber(h.per), formatNumber(roundSig(k*h.per, 3)),
					formatNumber(roundSig(got/1e6, 4)), formatNumber(roundSig(h.doc/1e6, 4)), relDiff(got, h.doc), formatNumber(r.km)))
			}
			notes = append(notes, fmt.Sprintf("so the %s km row's printed PER and goodput cannot both be what the document simulated: no TCP mechanism at PER %s "+
				"(timeouts, delayed ACKs, Reno or NewReno recovery, the window) comes within a factor %s of it; the document's 1 and 4 Gbps rows have the same PER "+
				"although its own link budget (Eqs. 1-8, rc13-fig8-physics) gives 4 Gbps a far higher BER. An inconsistency of the document, reported, not fitted",
				formatNumber(r.km), formatNumber(r.per), formatNumber(roundSig(lowest/r.doc, 2))))
		}
	}
	if lossFree != nil {
		r := lossFree
		// The window the first printed row implies, carried to this row's RTT.
		first := rs[0]
		implied := first.doc * first.rtt / r.rtt
		notes = append(notes, fmt.Sprintf("%s km: the document's %s Mbps is W/RTT (%s Mbps) to %s and the window of its %s km row over this RTT to %s, a run that lost nothing (its Sect. 6.1: 'the TCP simulations of distances above 50,000 km include the BER effect'); "+
			"at the printed PER %s, Padhye Eq. 32 gives %s Mbps (%s) and ours %s: the loss the table prints costs this much over a long run",
			formatNumber(r.km), formatNumber(roundSig(r.doc/1e6, 4)), formatNumber(roundSig(r.window/1e6, 4)), relDiff(r.doc, r.window),
			formatNumber(first.km), relDiff(r.doc, implied),
			formatNumber(r.per), formatNumber(roundSig(r.padhye32/1e6, 4)), relDiff(r.padhye32, r.doc), rc13MbOrNone(r.ours)))
	}
	return notes
}

// rc13Needs returns what each formula needs to give goodput (bit/s) on
// the row r: the loss per segment for Mathis et al. (p1) and for Padhye et
// al. Eq. (32) with T0 = rc13T0 (p32), the first timeout Eq. (32) needs at
// the printed PER (t0, s), and the MSS Mathis needs at the printed PER
// (bytes; Mathis is linear in the MSS). segs is the window in segments.
func rc13Needs(r rc13Reading, goodput, mss, segs float64) (p1, p32, t0, mssNeeded float64) {
	p1 = rc13Solve(func(p float64) float64 { return closedform.Mathis(mss, r.rtt, p) }, goodput, 1e-9, 1)
	p32 = rc13Solve(func(p float64) float64 { return closedform.PadhyeFull(mss, r.rtt, p, 1, rc13T0, segs) }, goodput, 1e-9, 0.5)
	t0 = rc13Solve(func(t0 float64) float64 { return closedform.PadhyeFull(mss, r.rtt, r.per, 1, t0, segs) }, goodput, 1e-3, 1e6)
	return p1, p32, t0, goodput / closedform.Mathis(1, r.rtt, r.per)
}

// rc13HeldOut returns Padhye et al. Eq. (32) on row h with its printed PER
// multiplied by k: the loss reading of another row checked on this one.
func rc13HeldOut(h rc13Reading, k, mss, segs float64) float64 {
	return closedform.PadhyeFull(mss, h.rtt, k*h.per, 1, rc13T0, segs)
}

// pct prints a fraction as a percentage to three digits.
func pct(x float64) string { return formatNumber(roundSig(100*x, 3)) + " %" }

// rc13MbOrNone prints bit/s as Mbit/s to four digits, or "not run".
func rc13MbOrNone(x float64) string {
	if math.IsNaN(x) {
		return "not run"
	}
	return formatNumber(roundSig(x/1e6, 4)) + " Mbps"
}
