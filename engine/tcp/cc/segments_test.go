package cc

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"

	"math"
	"math/rand/v2"
	"testing"
)

// lossBased lists the controllers of the loss-based family, each built
// the way New builds it.
var lossBased = []string{"bic", "cubic", "highspeed", "htcp", "hybla", "scalable", "westwood"}

// pipe is an ACK-clocked fake path with a fake clock: every segment is
// acknowledged one RTT after it was sent, one ACK per segment, and the
// sender refills the window at each ACK. It has no bottleneck, so it shows
// a controller's window growth over simulated time with nothing else in
// the way; rtt may change with time to stand for a queue.
type pipe struct {
	t        *testing.T
	c        Controller
	s        State
	now      des.Time
	rtt      func(sent des.Time) des.Duration
	minRTT   des.Duration
	srtt     des.Duration
	sentAt   []des.Time // send times of the segments in flight, oldest first
	inflight unit.Bytes
}

// newPipe initialises c with cwnd segments (and ssthresh, if positive)
// and sends the first window at time 0.
func newPipe(t *testing.T, c Controller, cwnd, ssthresh unit.Bytes, rtt func(des.Time) des.Duration) *pipe {
	s := State{Cwnd: cwnd * smss, SMSS: smss}
	c.Init(&s)
	if ssthresh > 0 {
		s.Ssthresh = ssthresh * smss
	}
	return pipeFrom(t, c, s, 0, rtt)
}

// pipeFrom continues a controller already in state s at time now.
func pipeFrom(t *testing.T, c Controller, s State, now des.Time, rtt func(des.Time) des.Duration) *pipe {
	p := &pipe{t: t, c: c, s: s, now: now, rtt: rtt}
	p.fill()
	return p
}

// fill sends whole segments while cwnd allows.
func (p *pipe) fill() {
	for p.inflight+smss <= p.s.Cwnd {
		p.inflight += smss
		p.sentAt = append(p.sentAt, p.now)
		p.c.OnPacketSent(p.now, &p.s, smss, p.inflight, false)
	}
}

// step delivers the next ACK and refills the window.
func (p *pipe) step() {
	if len(p.sentAt) == 0 {
		p.t.Fatal("pipe: nothing in flight")
	}
	sent := p.sentAt[0]
	p.sentAt = p.sentAt[1:]
	r := p.rtt(sent)
	p.now = max(p.now, sent.Add(r))
	if p.minRTT == 0 || r < p.minRTT {
		p.minRTT = r
	}
	if p.srtt == 0 {
		p.srtt = r
	} else {
		p.srtt = (7*p.srtt + r) / 8
	}
	a := Ack{Now: p.now, Acked: smss, Inflight: p.inflight, RTT: r, MinRTT: p.minRTT, SRTT: p.srtt}
	p.inflight -= smss
	p.c.OnAck(&p.s, &a)
	if p.s.Cwnd < smss {
		p.t.Fatalf("cwnd = %d, below one segment", p.s.Cwnd)
	}
	p.fill()
}

// runUntil delivers ACKs until the clock reaches t.
func (p *pipe) runUntil(t des.Time) {
	for len(p.sentAt) > 0 && p.sentAt[0].Add(p.rtt(p.sentAt[0])) <= t {
		p.step()
	}
	p.now = max(p.now, t)
}

// runRounds delivers n windows' worth of ACKs.
func (p *pipe) runRounds(n int) {
	for range n {
		k := len(p.sentAt)
		for range k {
			p.step()
		}
	}
}

func fixedRTT(r des.Duration) func(des.Time) des.Duration {
	return func(des.Time) des.Duration { return r }
}

// The sender's invariants (engine/tcp panics otherwise): whatever the
// sequence of ACKs, congestion events and timeouts, cwnd stays at least
// one SMSS and finite, and ssthresh at least 2 SMSS once set. The driver
// plays a sender: recovery inflates and deflates cwnd as RFC 6582 does,
// ACKs in recovery carry InRecovery, and time only moves forward.
// With strict it also checks ssthresh >= 2 SMSS, which the loss-based
// controllers keep (RFC 5681 equation (4)'s floor) and model-based ones
// need not.
func checkInvariants(t *testing.T, name string, seed uint64, ops int, strict bool) {
	c, err := New(name, Options{HyStart: seed%2 == 0})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	mssOpts := []unit.Bytes{536, 1000, 1460, 8960}
	mss := mssOpts[rng.IntN(len(mssOpts))]
	s := State{Cwnd: unit.Bytes(1+rng.IntN(10)) * mss, SMSS: mss}
	c.Init(&s)
	var now des.Time
	var inflight unit.Bytes
	var minRTT, srtt des.Duration
	inRecovery, repeated := false, false
	for i := range ops {
		now = now.Add(des.Duration(rng.Int64N(50e6)))
		switch op := rng.IntN(20); {
		case op < 12: // send what the window allows, then an ACK
			for inflight+mss <= s.Cwnd && inflight < 1<<40 {
				inflight += mss
				c.OnPacketSent(now, &s, mss, inflight, rng.IntN(20) == 0)
			}
			acked := min(inflight, unit.Bytes(1+rng.IntN(4))*mss)
			if rng.IntN(10) == 0 {
				acked = min(inflight, 1+unit.Bytes(rng.Int64N(int64(mss)))) // a partial segment
			}
			var rtt des.Duration
			if rng.IntN(5) > 0 {
				rtt = des.Duration(1e5 + rng.Int64N(2e9))
				if minRTT == 0 || rtt < minRTT {
					minRTT = rtt
				}
				srtt = (7*srtt + rtt) / 8
				if srtt == 0 {
					srtt = rtt
				}
			}
			a := Ack{Now: now, Acked: acked, Inflight: inflight, RTT: rtt, MinRTT: minRTT, SRTT: srtt, InRecovery: inRecovery}
			inflight -= acked
			c.OnAck(&s, &a)
			repeated = false
			if inRecovery && rng.IntN(4) == 0 {
				// RFC 6582 section 3.2 step 6, full ACK.
				s.Cwnd = min(s.Ssthresh, max(inflight, mss)+mss)
				inRecovery = false
				c.OnExitRecovery(now, &s)
			}
		case op < 16:
			if !inRecovery {
				c.OnCongestionEvent(now, &s, inflight)
				s.Cwnd = max(s.Cwnd, mss)
				s.Cwnd = s.Ssthresh + 3*mss // RFC 6582 step 3 inflation
				inRecovery = true
			} else {
				s.Cwnd += mss // RFC 5681 section 3.2 step 4
			}
		case op < 18:
			c.OnRTO(now, &s, inflight, repeated)
			repeated, inRecovery = true, false
			inflight = 0 // go-back-N: everything is presumed lost
		default:
			now = now.Add(des.Duration(rng.Int64N(20e9))) // idle
		}
		if s.Cwnd < mss || s.Cwnd > maxCwnd+4*mss {
			t.Fatalf("%s seed %d op %d: cwnd = %d, want in [%d, %d]", name, seed, i, s.Cwnd, mss, unit.Bytes(maxCwnd))
		}
		if strict && s.Ssthresh < 2*mss {
			t.Fatalf("%s seed %d op %d: ssthresh = %d, want >= %d", name, seed, i, s.Ssthresh, 2*mss)
		}
		if math.IsNaN(s.PacingRate.BitsPerSecond()) || math.IsInf(s.PacingRate.BitsPerSecond(), 0) || s.PacingRate < 0 {
			t.Fatalf("%s seed %d op %d: pacing rate = %v", name, seed, i, s.PacingRate)
		}
	}
}

func TestLossBasedInvariants(t *testing.T) {
	for _, name := range lossBased {
		t.Run(name, func(t *testing.T) {
			for seed := range uint64(20) {
				checkInvariants(t, name, seed, 3000, true)
			}
		})
	}
}

// FuzzControllers runs the cwnd invariant on every controller New knows
// with a fuzzed seed.
func FuzzControllers(f *testing.F) {
	for i := range uint64(4) {
		f.Add(i)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		for _, name := range Names() {
			checkInvariants(t, name, seed, 500, false)
		}
	})
}
