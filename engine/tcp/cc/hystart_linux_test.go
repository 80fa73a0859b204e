package cc

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// bottleneck is a fake path with one FIFO bottleneck that serves a
// segment every perSeg, and a fixed base RTT after it: a segment sent at
// s leaves the bottleneck at d = max(s, previous d) + perSeg and is
// acknowledged (one ACK per segment) at d + base. Its queue spaces the
// ACKs as a real bottleneck does, which is what HyStart's ACK-train
// detector watches.
type bottleneck struct {
	t        *testing.T
	c        Controller
	s        State
	now      des.Time
	perSeg   des.Duration
	base     des.Duration
	lastDep  des.Time
	sentAt   []des.Time
	ackAt    []des.Time
	inflight unit.Bytes
	srtt     des.Duration
}

func newBottleneck(t *testing.T, c Controller, iw unit.Bytes, perSeg, base des.Duration) *bottleneck {
	b := &bottleneck{t: t, c: c, s: State{Cwnd: iw * smss, SMSS: smss}, perSeg: perSeg, base: base}
	c.Init(&b.s)
	b.fill()
	return b
}

func (b *bottleneck) fill() {
	for b.inflight+smss <= b.s.Cwnd {
		b.inflight += smss
		dep := max(b.now, b.lastDep).Add(b.perSeg)
		b.lastDep = dep
		b.sentAt = append(b.sentAt, b.now)
		b.ackAt = append(b.ackAt, dep.Add(b.base))
		b.c.OnPacketSent(b.now, &b.s, smss, b.inflight, false)
	}
}

// step delivers the next ACK (RFC 6298 SRTT from its sample) and refills.
func (b *bottleneck) step() {
	b.now = b.ackAt[0]
	r := b.now.Sub(b.sentAt[0])
	b.sentAt, b.ackAt = b.sentAt[1:], b.ackAt[1:]
	if b.srtt == 0 {
		b.srtt = r
	} else {
		b.srtt = (7*b.srtt + r) / 8
	}
	a := Ack{Now: b.now, Acked: smss, Inflight: b.inflight, RTT: r, SRTT: b.srtt}
	b.inflight -= smss
	b.c.OnAck(&b.s, &a)
	b.fill()
}

// Linux's ACK-train exit (tcp_cubic.c hystart_update, HYSTART_ACK_TRAIN)
// on a bottleneck of one segment (1460 B) per ms behind a 100 ms base
// RTT, one ACK per segment, IW 10, no pacing. Hand trace: the first
// window's segments leave at 1..10 ms, so delay_min = 101 ms (a segment
// sent into an idle bottleneck). Each ACK releases two segments, so from
// the second window on the queue spaces the ACKs 1 ms apart (<= the
// 2 ms of hystart_ack_delta_us): a round's ACKs form one train, starting
// with the ACK that opens the round (bictcp_hystart_reset at 101, 202,
// 303 and 404 ms). The threshold is (delay_min + hystart_ack_delay) / 2
// = (101000 + 1000) >> 1 = 51000 us (the cushion is capped at 1 ms:
// 4 * 65536 B at 2 * cwnd / srtt ~ 3.9 MB/s is 68 ms). Rounds 1 and 2
// last 20 and 40 ms; round 3 (80 ACKs from 404 ms) passes 51 ms with the
// ACK at 456 ms, when cwnd = 80 + 52 = 132 segments: ssthresh = 132
// segments, exactly (integer arithmetic, no tolerance). The delay
// detector stays quiet: each round's smallest sample is 101-102 ms,
// below delay_min + clamp(101 ms / 8, 4, 16) = 113.625 ms.
//
// It runs with both window arithmetics (RFC 9438's and tcp_cubic.c's):
// HyStart does not depend on them.
func TestLinuxHyStartAckTrain(t *testing.T) {
	for _, name := range []string{"rfc9438", "linux"} {
		t.Run(name, func(t *testing.T) { testLinuxHyStartAckTrain(t, newHyStartCubic(name)) })
	}
}

// hyStartCubic is either CUBIC with Linux's HyStart.
type hyStartCubic interface {
	Controller
	LinuxHyStart() *LinuxHyStart
	DelayMin() des.Duration
}

func newHyStartCubic(variant string) hyStartCubic {
	if variant == "linux" {
		return NewCubicLinux(HyStartLinux, ABCOff)
	}
	return NewCubicHyStart(HyStartLinux, ABCOff)
}

func testLinuxHyStartAckTrain(t *testing.T, c hyStartCubic) {
	b := newBottleneck(t, c, 10, des.Millisecond, 100*des.Millisecond)
	for !c.LinuxHyStart().Found() {
		if b.now > des.Time(2*des.Second) {
			t.Fatalf("no HyStart exit by 2 s (cwnd %d segments)", b.s.Cwnd/smss)
		}
		b.step()
	}
	if got, want := b.now, des.Time(456*des.Millisecond); got != want {
		t.Errorf("exit at %v, want %v", got, want)
	}
	if got, want := b.s.Ssthresh, unit.Bytes(132*smss); got != want {
		t.Errorf("ssthresh = %d segments, want %d (cwnd at the exit)", got/smss, want/smss)
	}
	if got, want := c.DelayMin(), 101*des.Millisecond; got != want {
		t.Errorf("delay_min = %v, want %v", got, want)
	}
	// After the exit the window grows by CUBIC's congestion avoidance,
	// not by slow start: the next ACK adds less than a segment.
	before := b.s.Cwnd
	b.step()
	if b.s.InSlowStart() || b.s.Cwnd-before >= smss {
		t.Errorf("after the exit: cwnd %d -> %d, ssthresh %d: still in slow start", before, b.s.Cwnd, b.s.Ssthresh)
	}
}

// Linux's delay exit (HYSTART_DELAY) on the ACK-clocked pipe: RTT 100 ms
// for segments sent before 400 ms, 115 ms after (a queue). A round's ACKs
// arrive together, so the ACK train never spans the threshold. Hand
// trace: rounds open at 100, 200, 300, 400 ms (cwnd 10, 20, 40, 80) and
// 515 ms (cwnd 160). The ACK that opens a round gives its sample to the
// old round (bictcp_acked runs before bictcp_cong_avoid resets the
// round); the next 8 samples fill HYSTART_MIN_SAMPLES; the 10th ACK of
// the round tests curr_rtt = 115 ms > delay_min + clamp(100 ms / 8, 4,
// 16) = 112.5 ms, with cwnd = 160 + 9 segments: ssthresh = 169 segments.
// A rise to 112 ms would not exit (checked as a second case).
func TestLinuxHyStartDelay(t *testing.T) {
	for _, tc := range []struct {
		name     string
		late     des.Duration
		ssthresh unit.Bytes // segments; 0: no exit
	}{
		{"rise 15 ms", 115 * des.Millisecond, 169},
		{"rise 12 ms, below the 12.5 ms threshold", 112 * des.Millisecond, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCubicHyStart(HyStartLinux, ABCOff)
			rtt := func(sent des.Time) des.Duration {
				if sent >= des.Time(400*des.Millisecond) {
					return tc.late
				}
				return 100 * des.Millisecond
			}
			p := newPipe(t, c, 10, 0, rtt)
			for !c.LinuxHyStart().Found() && p.now < des.Time(600*des.Millisecond) {
				p.step()
			}
			if tc.ssthresh == 0 {
				if c.LinuxHyStart().Found() {
					t.Fatalf("exit at %v with cwnd %d segments, want none", p.now, p.s.Cwnd/smss)
				}
				return
			}
			if !c.LinuxHyStart().Found() {
				t.Fatalf("no exit by %v", p.now)
			}
			if got, want := p.now, des.Time(515*des.Millisecond); got != want {
				t.Errorf("exit at %v, want %v", got, want)
			}
			if got := p.s.Ssthresh / smss; got != tc.ssthresh || p.s.Ssthresh%smss != 0 {
				t.Errorf("ssthresh = %d B (%d segments), want %d segments", p.s.Ssthresh, got, tc.ssthresh)
			}
		})
	}
}

// hystart_ack_delay: min(1 ms, 4 * GSO_MAX_SIZE / sk_pacing_rate) in
// whole microseconds, the rate tcp_update_pacing_rate's 200 % (cwnd <
// ssthresh/2) or 120 % of cwnd / srtt. Values by hand.
func TestLinuxHyStartAckDelay(t *testing.T) {
	for _, tc := range []struct {
		name           string
		cwnd, ssthresh unit.Bytes // segments
		srtt           des.Duration
		want           des.Duration
	}{
		// SMSS 1460: 2 * 146000 B / 1 ms = 292 MB/s: 262144e6 / 292e6 =
		// 897.75 us, truncated.
		{"slow start 100 segments 1 ms", 100, 1 << 30, des.Millisecond, 897 * des.Microsecond},
		// 2 * 1460000 B / 1 ms: 89.78 us.
		{"slow start 1000 segments 1 ms", 1000, 1 << 30, des.Millisecond, 89 * des.Microsecond},
		// 1.2 * 146000 B / 1 ms = 175.2 MB/s: 1496.3 us, capped at 1 ms.
		{"congestion avoidance ratio", 100, 150, des.Millisecond, des.Millisecond},
		// 2 * 23360 B / 100 ms = 467.2 kB/s: 0.561 s, capped.
		{"long RTT", 16, 1 << 30, 100 * des.Millisecond, des.Millisecond},
		{"no RTT sample yet", 16, 1 << 30, 0, 0},
	} {
		s := State{Cwnd: tc.cwnd * smss, Ssthresh: tc.ssthresh * smss, SMSS: smss}
		if got := linuxHyStartAckDelay(&s, tc.srtt); got != tc.want {
			t.Errorf("%s: hystart_ack_delay = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// What the other events do to Linux's HyStart: a fast-recovery loss
// leaves it armed (tcp_cubic.c has no stop; ssthresh < cwnd keeps it
// idle), a retransmission timeout resets found and delay_min
// (bictcp_state on TCP_CA_Loss), below hystart_low_window = 16 segments
// nothing is detected, and off means slow start runs to the first loss.
func TestLinuxHyStartEvents(t *testing.T) {
	c := NewCubicHyStart(HyStartLinux, ABCOff)
	rtt := func(sent des.Time) des.Duration {
		if sent >= des.Time(400*des.Millisecond) {
			return 130 * des.Millisecond
		}
		return 100 * des.Millisecond
	}
	p := newPipe(t, c, 10, 0, rtt)
	for !c.LinuxHyStart().Found() {
		p.step()
	}
	c.OnRTO(p.now, &p.s, p.s.Cwnd, false)
	if c.LinuxHyStart().Found() || c.DelayMin() != 0 {
		t.Errorf("after a timeout: found %v, delay_min %v; want false, 0", c.LinuxHyStart().Found(), c.DelayMin())
	}
	c2 := NewCubicHyStart(HyStartLinux, ABCOff)
	s := State{Cwnd: 50 * smss, SMSS: smss}
	c2.Init(&s)
	c2.OnCongestionEvent(0, &s, s.Cwnd)
	if c2.LinuxHyStart() == nil || c2.LinuxHyStart().Found() {
		t.Errorf("a fast-recovery loss changed Linux's HyStart")
	}

	// Below 16 segments: a 10-segment window whose RTT doubles at once
	// and cwnd pinned by ssthresh = 15 segments sees no exit.
	c3 := NewCubicHyStart(HyStartLinux, ABCOff)
	p3 := newPipe(t, c3, 10, 0, func(sent des.Time) des.Duration {
		if sent > 0 {
			return 200 * des.Millisecond
		}
		return 100 * des.Millisecond
	})
	p3.s.Ssthresh = 15 * smss
	for range 30 {
		p3.step()
	}
	if c3.LinuxHyStart().Found() {
		t.Errorf("exit below hystart_low_window")
	}

	off := NewCubicHyStart(HyStartOff, ABCOff)
	if off.LinuxHyStart() != nil || off.hs != nil {
		t.Errorf("HyStartOff built a HyStart")
	}
}

// New builds Linux's HyStart for Options{HyStart: true}, HyStart++ only
// when asked.
func TestNewHyStartVariant(t *testing.T) {
	for _, tc := range []struct {
		o               Options
		linux, rfc9, cl bool
	}{
		{Options{HyStart: true}, true, false, true},
		{Options{HyStart: true, HyStartVariant: HyStartLinux}, true, false, true},
		{Options{HyStart: true, HyStartVariant: HyStartRFC9406}, false, true, true},
		{Options{HyStart: false, HyStartVariant: HyStartRFC9406}, false, false, true},
		{Options{HyStart: true, CubicVariant: CubicRFC9438}, true, false, false},
		{Options{HyStart: true, HyStartVariant: HyStartRFC9406, CubicVariant: CubicRFC9438}, false, true, false},
	} {
		c, err := New("cubic", tc.o)
		if err != nil {
			t.Fatal(err)
		}
		var lhs *LinuxHyStart
		var hs *HyStart
		switch cu := c.(type) {
		case *Cubic:
			lhs, hs = cu.lhs, cu.hs
		case *CubicLinux:
			lhs, hs = cu.lhs, cu.hs
		}
		_, isLinux := c.(*CubicLinux)
		if (lhs != nil) != tc.linux || (hs != nil) != tc.rfc9 || isLinux != tc.cl {
			t.Errorf("New(cubic, %+v): linux HyStart %v, HyStart++ %v, tcp_cubic.c %v; want %v %v %v", tc.o, lhs != nil, hs != nil, isLinux, tc.linux, tc.rfc9, tc.cl)
		}
	}
}
