package cc_test

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// fixedPace is NewReno with a constant pacing rate: the sender's pacing
// alone then sets the departure times.
type fixedPace struct {
	*cc.Reno
	rate unit.BitRate
}

func (p *fixedPace) Init(s *cc.State) { p.Reno.Init(s); s.PacingRate = p.rate }

// departures records when the sender's data segments enter the first link.
type departures struct {
	link *netsim.Link
	at   []des.Time
}

func (d *departures) Observe(r netsim.Record) {
	if r.Kind == netsim.TraceSend && r.Link == d.link && r.Packet.Payload > 0 {
		d.at = append(d.at, r.At)
	}
}

// A paced sender spaces full segments payload/rate apart (package tcp's
// sender: the next send may not start before now + payload/PacingRate).
// Rate 1e6 B/s and 1460-byte segments give exactly 1.46 ms. The path (1
// Gbit/s, 5 ms, window never limiting after the first round trips) lets
// pacing alone decide; sends triggered by an ACK after the pacing time
// come later, never earlier, so every gap is >= 1.46 ms and the mean over
// 2 s is within 0.5 % of it.
func TestPacingInterDeparture(t *testing.T) {
	const rate = 1e6
	want := des.Duration(float64(mss) * 1e9 / rate)
	f := newFlow(t, link{rate: 1e9, delay: 5 * des.Millisecond, queue: 1000}, &fixedPace{Reno: cc.NewReno(cc.ABCOff), rate: unit.BytesPerSecond(rate)})
	d := &departures{link: f.fwd()}
	f.net.SetObserver(d)
	f.run(t, des.Time(3*des.Second))
	var n int
	var first, last des.Time
	for i := 1; i < len(d.at); i++ {
		gap := d.at[i].Sub(d.at[i-1])
		if gap < want {
			t.Fatalf("departure %d came %v after the previous one, want >= %v", i, gap, want)
		}
		if d.at[i] >= des.Time(des.Second) {
			if n == 0 {
				first = d.at[i-1]
			}
			n++
			last = d.at[i]
		}
	}
	mean := last.Sub(first) / des.Duration(n)
	if math.Abs(float64(mean)/float64(want)-1) > 0.005 {
		t.Errorf("mean inter-departure over 1-3 s = %v, want %v (0.5 %%)", mean, want)
	}
}

// invariants wraps a controller and checks after every hook what the
// sender relies on: cwnd at least one segment (BBR: four, except in fast
// recovery's packet conservation and between a timeout and the next ACK,
// the cases its doc comment names) and a finite, non-negative pacing rate.
type invariants struct {
	cc.Controller
	t          *testing.T
	bbr        bool
	inRecovery bool
	acks       int
}

func (v *invariants) check(where string, s *cc.State) {
	v.t.Helper()
	if s.Cwnd < s.SMSS {
		v.t.Fatalf("%s: %s: cwnd = %d, want >= SMSS %d", v.Name(), where, s.Cwnd, s.SMSS)
	}
	if r := s.PacingRate.BitsPerSecond(); math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		v.t.Fatalf("%s: %s: pacing rate = %v, want finite >= 0", v.Name(), where, s.PacingRate)
	}
	if v.bbr && s.PacingRate <= 0 {
		v.t.Fatalf("%s: %s: pacing rate = %v, want > 0", v.Name(), where, s.PacingRate)
	}
}

func (v *invariants) Init(s *cc.State) { v.Controller.Init(s); v.check("Init", s) }
func (v *invariants) OnAck(s *cc.State, a *cc.Ack) {
	v.Controller.OnAck(s, a)
	v.acks++
	v.check("OnAck", s)
	if v.bbr && !v.inRecovery && a.Acked > 0 && s.Cwnd < 4*s.SMSS {
		v.t.Fatalf("%s: OnAck outside recovery: cwnd = %d, want >= 4 segments", v.Name(), s.Cwnd)
	}
}
func (v *invariants) OnCongestionEvent(now des.Time, s *cc.State, flight unit.Bytes) {
	v.Controller.OnCongestionEvent(now, s, flight)
	v.inRecovery = true
	v.check("OnCongestionEvent", s)
}
func (v *invariants) OnExitRecovery(now des.Time, s *cc.State) {
	v.Controller.OnExitRecovery(now, s)
	v.inRecovery = false
	v.check("OnExitRecovery", s)
}
func (v *invariants) OnRTO(now des.Time, s *cc.State, flight unit.Bytes, repeated bool) {
	v.Controller.OnRTO(now, s, flight, repeated)
	v.inRecovery = false
	v.check("OnRTO", s)
}

// Random paths (rate 1-200 Mbit/s, one-way delay 1-150 ms, buffer 5-500
// packets, loss 0-10 %) for 5 s each, every controller of this file set.
func TestInvariantsRandomPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 1))
	for i := 0; i < 12; i++ {
		l := link{
			rate:  unit.BitRate(int64(1e6 + rng.Float64()*199e6)), // whole bit/s
			delay: des.Duration(1e6 + rng.Int64N(149e6)),
			queue: 5 + rng.IntN(496),
			loss:  []float64{0, 0, 0.001, 0.01, 0.05, 0.1}[rng.IntN(6)],
			seed:  rng.Uint64(),
		}
		for _, name := range []string{"vegas", "bbr", "bbr2"} {
			t.Run(fmt.Sprintf("%d/%s", i, name), func(t *testing.T) {
				v := &invariants{Controller: mustNew(t, name, l.seed), t: t, bbr: name != "vegas"}
				f := newFlow(t, l, v)
				f.run(t, des.Time(5*des.Second))
				if v.acks == 0 {
					t.Fatalf("no ACKs on %+v", l)
				}
			})
		}
	}
}

// initSeen records what the sender hands a controller's Init.
type initSeen struct {
	cc.Controller
	srtt des.Duration
	rate unit.BitRate
	cwnd unit.Bytes
}

func (c *initSeen) Init(s *cc.State) {
	c.Controller.Init(s)
	c.srtt, c.rate, c.cwnd = s.InitSRTT, s.PacingRate, s.Cwnd
}

// The sender initialises its controller after the handshake's RTT sample,
// as Linux does (tcp_rcv_synsent_state_process acks the SYN, taking its
// RTT, before tcp_finish_connect calls tcp_init_congestion_control), so
// that BBR and BBRv2 start pacing at high_gain x IW / SRTT
// (bbr_init_pacing_rate_from_rtt), not over a nominal 1 ms. Path: 1
// Gbit/s, 5 ms each way, so the SYN's RTT is 10 ms plus the SYN's and
// SYN-ACK's serialisation (well under 1 us each); tolerance 10 us on the
// RTT, 1e-9 relative on the rate (the same float64 arithmetic).
func TestBBRPacesFromHandshakeRTT(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctrl cc.Controller
	}{
		{"bbr", cc.NewBBR(1)},
		{"bbr2", cc.NewBBR2(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := &initSeen{Controller: tc.ctrl}
			f := newFlow(t, link{rate: 1e9, delay: 5 * des.Millisecond, queue: 1000}, seen)
			f.run(t, des.Time(100*des.Millisecond))
			if d := seen.srtt - 10*des.Millisecond; d < 0 || d > 10*des.Microsecond {
				t.Fatalf("Init saw SRTT %v, want 10 ms + under 10 us", seen.srtt)
			}
			want := (1 - cc.BBRPacingMargin) * cc.BBRHighGain * float64(seen.cwnd) * 8 / seen.srtt.Seconds()
			if got := float64(seen.rate); math.Abs(got/want-1) > 1e-9 {
				t.Errorf("pacing rate after Init = %.4g bit/s, want %.4g (high_gain x IW / SRTT)", got, want)
			}
		})
	}
}
