package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// rackPair is a 10 Mbit/s wire with 10 ms one way (RTT 20 ms plus
// serialisation, 1.2 ms per 1000-byte segment), SACK recovery, a 200 ms
// minimum RTO as in Linux, no delayed ACKs, and the given loss detection.
func rackPair(t *testing.T, ld LossDetection, iw int) *pair {
	return rackPairCC(t, ld, iw, newReno)
}

func rackPairCC(t *testing.T, ld LossDetection, iw int, ctrl func() cc.Controller) *pair {
	cfg := baseConfig()
	cfg.Recovery = RecoverySACK
	cfg.LossDetection = ld
	cfg.InitialWindow = iw
	cfg.MinRTO = 200 * des.Millisecond
	return newPair(t, cfg, 10e6, 10*des.Millisecond, ctrl)
}

// dropAt drops the first transmission of the data segment at stream offset
// off and records when it was sent and when its retransmission left.
type dropAt struct {
	isn          uint32
	off          int64
	sentAt, rxAt des.Time
	dropped      bool
	s            *des.Scheduler
}

func (d *dropAt) drop(dir int, p *netsim.Packet) bool {
	if dir != 0 || p.Payload == 0 || int64(p.Seq-d.isn-1) != d.off {
		return false
	}
	if !d.dropped {
		d.dropped, d.sentAt = true, d.s.Now()
		return true
	}
	if d.rxAt == 0 {
		d.rxAt = d.s.Now()
	}
	return false
}

// A single loss in a small window: a 2-segment transfer (and its FIN)
// from an initial window of 3 loses its first segment, so the segment and
// the FIN behind it bring two duplicate ACKs, fewer than DupThresh, with
// 1001 bytes SACKed, not more than (DupThresh-1)*SMSS (RFC 6675 IsLost):
// without RACK only the retransmission timer repairs it (200 ms minimum
// here). RACK (RFC 8985 section 6.2) marks it lost once a later segment
// is SACKed and RACK.rtt + reo_wnd has passed since it was sent: the
// reordering timer fires reo_wnd = min_RTT/4 after that SACK (section
// 6.3), so the retransmission leaves about RTT + min_RTT/4 after the
// original. Tolerance: RTT here is 20 ms plus up to 3 segment times
// (3.6 ms); the bound is 1.25 * 23.6 ms + 1 ms = 30.5 ms.
func TestRACKSmallWindowLoss(t *testing.T) {
	for _, tt := range []struct {
		name      string
		ld        LossDetection
		wantRTOs  int64
		maxRepair des.Duration
		minRepair des.Duration
	}{
		{"dupthresh", LossDupThresh, 1, des.Second, 200 * des.Millisecond},
		{"rack-tlp", LossRACKTLP, 0, 30500 * des.Microsecond, 25 * des.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pr := rackPair(t, tt.ld, 3)
			d := &dropAt{isn: 1000, off: 0, s: pr.w.s}
			pr.w.drop = d.drop
			pr.transfer(t, 2000, des.Time(10*des.Second))
			st := pr.client.Stats
			gap := d.rxAt.Sub(d.sentAt)
			t.Logf("retransmitted %v after the original; RTOs %d, fast recoveries %d, probes %d", gap, st.RTOs, st.FastRecoveries, st.TLPProbes)
			if st.RTOs != tt.wantRTOs || st.RetransSegs != 1 {
				t.Errorf("RTOs, retransmissions = %d, %d, want %d, 1", st.RTOs, st.RetransSegs, tt.wantRTOs)
			}
			if gap < tt.minRepair || gap > tt.maxRepair {
				t.Errorf("retransmission %v after the original, want in [%v, %v]", gap, tt.minRepair, tt.maxRepair)
			}
			if tt.ld == LossRACKTLP && st.FastRecoveries != 1 {
				t.Errorf("fast recoveries = %d, want 1 (one congestion event)", st.FastRecoveries)
			}
		})
	}
}

// Tail loss (RFC 8985 section 7): the last two segments of a 10-segment
// transfer sent in one initial window are lost, so no ACK follows them.
// The probe timeout after the ACK of segment 8 is 2*SRTT (two segments
// are in flight, so no WCDelAckT; section 7.2); the probe retransmits the
// last segment (nothing new is left, section 7.3), whose SACK lets RACK
// mark segment 9 lost, and one fast recovery resends it. Without TLP the
// timer (200 ms) repairs both. Tolerance: the probe leaves 2*SRTT after
// the ACK's arrival, to the microsecond; the transfer ends before the
// 200 ms minimum RTO.
func TestTLPTailLoss(t *testing.T) {
	for _, tt := range []struct {
		name string
		ld   LossDetection
	}{{"dupthresh", LossDupThresh}, {"rack-tlp", LossRACKTLP}} {
		t.Run(tt.name, func(t *testing.T) {
			count := &ccCount{Controller: cc.NewReno(cc.ABCOff)}
			first := true
			pr := rackPairCC(t, tt.ld, 10, func() cc.Controller {
				if first {
					first = false
					return count
				}
				return cc.NewReno(cc.ABCOff)
			})
			var lastAck, probeAt des.Time
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				off := int64(p.Seq - 1001)
				if dir == 1 {
					if probeAt == 0 {
						// When the ACK reaches the sender: 10 ms and
						// 40 bytes at 10 Mbit/s later.
						lastAck = pr.w.s.Now().Add(10*des.Millisecond + 32*des.Microsecond)
					}
					return false
				}
				if p.Payload == 0 && p.Flags&netsim.FIN == 0 {
					return false
				}
				if p.Retransmitted && probeAt == 0 {
					probeAt = pr.w.s.Now()
				}
				return !p.Retransmitted && off >= 8000 // segments 9, 10 and the FIN
			}
			pr.transfer(t, 10000, des.Time(10*des.Second))
			st := pr.client.Stats
			srtt := des.Duration(pr.client.SRTT())
			t.Logf("RTOs %d, probes %d, fast recoveries %d, retransmissions %d, done at %v, SRTT %v", st.RTOs, st.TLPProbes, st.FastRecoveries, st.RetransSegs, pr.clientApp.doneAt, srtt)
			if tt.ld == LossDupThresh {
				if st.RTOs == 0 {
					t.Errorf("RTOs = 0, want the timer to repair the tail without TLP")
				}
				return
			}
			if st.RTOs != 0 || st.TLPProbes != 1 || st.FastRecoveries != 1 || st.RetransSegs != 3 {
				t.Fatalf("RTOs, probes, fast recoveries, retransmissions = %d, %d, %d, %d, want 0, 1, 1, 3",
					st.RTOs, st.TLPProbes, st.FastRecoveries, st.RetransSegs)
			}
			// No RTT sample follows the probe (Karn), so SRTT is the one
			// the PTO was computed from.
			if gap := probeAt.Sub(lastAck); gap < 2*srtt-des.Microsecond || gap > 2*srtt+des.Microsecond {
				t.Errorf("probe %v after the last ACK, want 2*SRTT = %v", gap, 2*srtt)
			}
			if count.events != 1 || count.rtos != 0 {
				t.Errorf("controller saw %d congestion events and %d RTOs, want 1 and 0", count.events, count.rtos)
			}
			if pr.clientApp.doneAt > des.Time(200*des.Millisecond) {
				t.Errorf("transfer acknowledged at %v, want before the 200 ms minimum RTO", pr.clientApp.doneAt)
			}
		})
	}
}

// ccCount counts the congestion responses a controller is asked for.
type ccCount struct {
	cc.Controller
	events, rtos int
}

func (c *ccCount) OnCongestionEvent(now des.Time, s *cc.State, f unit.Bytes) {
	c.events++
	c.Controller.OnCongestionEvent(now, s, f)
}

func (c *ccCount) OnRTO(now des.Time, s *cc.State, f unit.Bytes, rep bool) {
	c.rtos++
	c.Controller.OnRTO(now, s, f, rep)
}

// reorder delays the first transmission of the data segments at the given
// stream offsets by the given time, so later segments overtake them.
type reorder struct {
	pr    *pair
	delay map[int64]des.Duration
}

type resend struct {
	pr *pair
	p  *netsim.Packet
}

func (r *resend) Handle(des.Time, int, uint64) { port{r.pr.w, 0}.Send(r.p) }

func (r *reorder) drop(dir int, p *netsim.Packet) bool {
	off := int64(p.Seq - 1001)
	d, ok := r.delay[off]
	if dir != 0 || p.Payload == 0 || p.Retransmitted || !ok {
		return false
	}
	delete(r.delay, off)
	cp := r.pr.w.pool.Get()
	*cp = *p
	r.pr.w.s.Schedule(r.pr.w.s.Now().Add(d), &resend{r.pr, cp}, 0, 0)
	return true
}

// Reordering within the reordering window causes no retransmission (RFC
// 8985 section 6.2 step 4): 40 segments over the 10 Mbit/s wire (0.83 ms
// per segment), segment 5 held back 1.5 ms (two segments overtake it) and
// segment 25 held back 4 ms (four overtake it). With RACK-TLP the first
// marks the connection as reordering (RACK.reord, step 3), after which
// reo_wnd stays min_RTT/4 (5.2 ms here) however many segments are SACKed,
// so neither is resent (exact). The duplicate-ACK threshold resends
// segment 25 spuriously (four duplicate ACKs).
func TestRACKReorderingNoSpuriousRetransmission(t *testing.T) {
	for _, tt := range []struct {
		name string
		ld   LossDetection
	}{{"dupthresh", LossDupThresh}, {"rack-tlp", LossRACKTLP}} {
		t.Run(tt.name, func(t *testing.T) {
			pr := rackPair(t, tt.ld, 10)
			r := &reorder{pr: pr, delay: map[int64]des.Duration{5000: 1500 * des.Microsecond, 25000: 4 * des.Millisecond}}
			pr.w.drop = r.drop
			pr.transfer(t, 40000, des.Time(10*des.Second))
			st := pr.client.Stats
			if tt.ld == LossDupThresh {
				if st.RetransSegs == 0 {
					t.Errorf("retransmissions = 0, want spurious ones from the duplicate-ACK threshold")
				}
				return
			}
			if st.RetransSegs != 0 || st.RTOs != 0 {
				t.Errorf("retransmissions, RTOs = %d, %d, want 0, 0", st.RetransSegs, st.RTOs)
			}
		})
	}
}

// Determinism: the same RACK-TLP transfer over a lossy wire twice gives
// identical statistics.
func TestRACKDeterministic(t *testing.T) {
	run := func() Stats {
		pr := rackPair(t, LossRACKTLP, 10)
		n := 0
		pr.w.drop = func(dir int, p *netsim.Packet) bool {
			n++
			return dir == 0 && p.Payload > 0 && n%17 == 0
		}
		pr.transfer(t, 500000, des.Time(60*des.Second))
		return pr.client.Stats
	}
	a, b := run(), run()
	if a != b {
		t.Errorf("two runs differ: %+v and %+v", a, b)
	}
	if a.RACKLost == 0 {
		t.Errorf("no segment marked lost by RACK; the test needs some")
	}
}

// RACK.reord is set only by real reordering (RFC 8985 section 6.2 step 3,
// which walks an ACK's newly delivered segments in ascending order of
// end): with delayed ACKs, segment 0 waits for its ACK, segment 1 is
// lost and segment 2's immediate ACK both acknowledges segment 0 and
// SACKs segment 2. Segment 0 lies below the new RACK.fack only because the
// SACK block is read first; the wire never reorders, so RACK.reord must
// stay false (exact) and reo_wnd 0 in recovery.
func TestRACKNoReorderingFromOneACK(t *testing.T) {
	for _, ld := range []LossDetection{LossDupThresh, LossRACKTLP} {
		t.Run([]string{"dupthresh", "rack-tlp"}[ld], func(t *testing.T) {
			pr := rackPair(t, ld, 10)
			pr.client.cfg.DelayedACK = true
			pr.server.cfg.DelayedACK = true
			d := &dropAt{isn: 1000, off: 1000, s: pr.w.s}
			pr.w.drop = d.drop
			pr.transfer(t, 20000, des.Time(10*des.Second))
			if !d.dropped || d.rxAt == 0 {
				t.Fatalf("segment at offset 1000 dropped, resent = %v, %v, want true, true", d.dropped, d.rxAt != 0)
			}
			if got := pr.client.snd.rack.reord; got {
				t.Errorf("RACK.reord = %v, want false (no reordering on the wire)", got)
			}
		})
	}
}
