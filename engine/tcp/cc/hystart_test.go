package cc

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// RFC 9406 section 4.2 on a path whose RTT rises from 100 ms to 125 ms in
// the 5th round (a queue building): the rise exceeds RttThresh = max(4 ms,
// min(100 ms / 8, 16 ms)) = 12.5 ms, so slow start ends in that round and
// CSS begins, growing cwnd by a quarter of slow start's rate; after
// CSS_ROUNDS = 5 rounds (the partial first one included) ssthresh = cwnd.
// Standard slow start grows by min(N, L*SMSS) with L = 8, so one ACK per
// segment doubles cwnd each round. All counts are exact.
func TestHyStartExit(t *testing.T) {
	c := NewCubicHyStart(HyStartRFC9406, ABCOff)
	rtt := func(now des.Time) des.Duration {
		if now >= 4*100e6 { // sent in the 5th round or later
			return 125e6
		}
		return 100e6
	}
	p := newPipe(t, c, 10, 0, rtt)
	for round := range 4 {
		before := p.s.Cwnd
		p.runRounds(1)
		if p.s.Cwnd != 2*before {
			t.Fatalf("round %d: cwnd = %d, want %d (doubling)", round, p.s.Cwnd, 2*before)
		}
		if c.hs.InCSS() {
			t.Fatalf("round %d: CSS before the RTT rose", round)
		}
	}
	// Round 5: the first N_RTT_SAMPLE = 8 ACKs double, then CSS.
	before := p.s.Cwnd
	p.runRounds(1)
	if !c.hs.InCSS() {
		t.Fatalf("no CSS after the RTT rose by 25 ms")
	}
	if got, want := p.s.Cwnd/smss, before/smss+8+(before/smss-8)/4; got != want {
		t.Errorf("round 5: cwnd = %d segments, want %d (8 ACKs at slow start, the rest at a quarter)", got, want)
	}
	// Rounds 6 to 9 are CSS; the first ACK of round 10 completes
	// CSS_ROUNDS rounds and sets ssthresh = cwnd.
	for r := 6; r <= 9; r++ {
		before := p.s.Cwnd
		p.runRounds(1)
		// Tolerance: one segment, as the pipe sends whole segments of a
		// window counted in bytes.
		if want := before + before/4; p.s.Cwnd < want-smss || p.s.Cwnd > want+smss {
			t.Errorf("CSS round %d: cwnd = %d, want %d (+1/4)", r, p.s.Cwnd, want)
		}
		if !c.hs.InCSS() {
			t.Fatalf("CSS round %d: CSS ended early", r)
		}
	}
	before = p.s.Cwnd
	p.runRounds(1)
	if p.s.InSlowStart() || p.s.Ssthresh != before {
		t.Errorf("after CSS_ROUNDS rounds: ssthresh = %d, want cwnd %d at the end of CSS (congestion avoidance)", p.s.Ssthresh, before)
	}
}

// Section 4.2: if the RTT falls back below the CSS baseline, the exit was
// spurious and slow start resumes.
func TestHyStartSpuriousExit(t *testing.T) {
	c := NewCubicHyStart(HyStartRFC9406, ABCOff)
	rtt := func(now des.Time) des.Duration {
		if now >= 4*100e6 && now < 5*100e6+25e6*1 {
			return 125e6 // a transient queue in the 5th round only
		}
		return 100e6
	}
	p := newPipe(t, c, 10, 0, rtt)
	p.runRounds(5)
	if !c.hs.InCSS() {
		t.Fatalf("no CSS after the RTT rose")
	}
	p.runRounds(2)
	if c.hs.InCSS() || !p.s.InSlowStart() {
		t.Errorf("CSS did not end when the RTT fell back")
	}
	before := p.s.Cwnd
	p.runRounds(1)
	if p.s.Cwnd != 2*before {
		t.Errorf("after resuming: cwnd = %d, want %d (doubling)", p.s.Cwnd, 2*before)
	}
}

// A loss ends HyStart++ (section 4.2): later slow starts are standard.
func TestHyStartStopsOnLoss(t *testing.T) {
	c := NewCubicHyStart(HyStartRFC9406, ABCOff)
	s := State{Cwnd: 50 * smss, SMSS: smss}
	c.Init(&s)
	c.OnCongestionEvent(0, &s, s.Cwnd)
	if c.hs.Active() {
		t.Errorf("HyStart++ still active after a congestion event")
	}
}
