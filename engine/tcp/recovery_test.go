package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// dropFirst drops the first transmission of the data segments at the given
// stream offsets (client to server) and records when each retransmission
// leaves the client.
type dropFirst struct {
	isn     uint32
	offsets map[int64]int // offset -> transmissions still to drop
	rexmits []des.Time
	rexOffs []int64 // stream offset of each retransmission
	s       *des.Scheduler
}

func (d *dropFirst) drop(dir int, p *netsim.Packet) bool {
	if dir != 0 || p.Payload == 0 {
		return false
	}
	off := int64(p.Seq - d.isn - 1)
	if p.Retransmitted {
		d.rexmits = append(d.rexmits, d.s.Now())
		d.rexOffs = append(d.rexOffs, off)
	}
	if n := d.offsets[off]; n > 0 {
		d.offsets[off] = n - 1
		return true
	}
	return false
}

// lossPair runs a 300-segment transfer over 100 Mbit/s with 50 ms one-way
// delay (RTT 100 ms), dropping the listed segments' first transmissions.
func lossPair(t *testing.T, rec Recovery, segs []int64, times int, ld ...LossDetection) (*pair, *dropFirst) {
	cfg := baseConfig()
	cfg.Recovery = rec
	if len(ld) > 0 {
		cfg.LossDetection = ld[0]
	}
	cfg.InitialWindow = 40
	cfg.LimitedTransmit = false
	pr := newPair(t, cfg, 100e6, 50*des.Millisecond, newReno)
	d := &dropFirst{isn: 1000, offsets: map[int64]int{}, s: pr.w.s}
	for _, s := range segs {
		d.offsets[s*1000] = times
	}
	pr.w.drop = d.drop
	pr.transfer(t, 300*1000, des.Time(60*des.Second))
	return pr, d
}

// RFC 6582 section 3.2 step 5: each partial ACK retransmits the next hole,
// so NewReno repairs one loss per round trip; RFC 6675 retransmits every
// segment IsLost() names as the ACKs arrive, all within about one RTT.
// Four segments of the second flight (segments 45, 50, 55, 60 of a 40+
// segment window) are dropped. Tolerance: a round trip here is 100 ms
// plus up to 40 segments of queueing at 100 Mbit/s (3.3 ms).
func TestRecoveryDropList(t *testing.T) {
	segs := []int64{45, 50, 55, 60}
	const rtt = 100 * des.Millisecond
	t.Run("newreno", func(t *testing.T) {
		pr, d := lossPair(t, RecoveryNewReno, segs, 1)
		st := pr.client.Stats
		if st.FastRecoveries != 1 || st.RTOs != 0 || st.RetransSegs != 4 {
			t.Fatalf("fast recoveries, RTOs, retransmissions = %d, %d, %d, want 1, 0, 4", st.FastRecoveries, st.RTOs, st.RetransSegs)
		}
		for i := 1; i < len(d.rexmits); i++ {
			gap := d.rexmits[i].Sub(d.rexmits[i-1])
			if gap < rtt || gap > rtt+5*des.Millisecond {
				t.Errorf("retransmission %d came %v after the previous one, want one RTT (100-105 ms)", i, gap)
			}
		}
	})
	t.Run("sack", func(t *testing.T) {
		pr, d := lossPair(t, RecoverySACK, segs, 1)
		st := pr.client.Stats
		if st.FastRecoveries != 1 || st.RTOs != 0 || st.RetransSegs != 4 {
			t.Fatalf("fast recoveries, RTOs, retransmissions = %d, %d, %d, want 1, 0, 4", st.FastRecoveries, st.RTOs, st.RetransSegs)
		}
		if span := d.rexmits[len(d.rexmits)-1].Sub(d.rexmits[0]); span >= rtt {
			t.Errorf("SACK retransmissions spread over %v, want under one RTT", span)
		}
	})
}

// RFC 6298 section 5.5: each expiry doubles the RTO; Karn's rule (section
// 3) means the ACK of a retransmitted segment gives no RTT sample, so the
// backed-off RTO stays. The last of 6 segments is dropped three times;
// nothing follows it, so only the timer can recover it.
func TestRTOBackoffKarn(t *testing.T) {
	cfg := baseConfig()
	cfg.MinRTO = 200 * des.Millisecond
	pr := newPair(t, cfg, 100e6, 10*des.Millisecond, newReno)
	d := &dropFirst{isn: 1000, offsets: map[int64]int{5000: 3}, s: pr.w.s}
	pr.w.drop = d.drop
	pr.transfer(t, 6000, des.Time(30*des.Second))
	st := pr.client.Stats
	if st.RTOs != 3 || len(d.rexmits) != 3 {
		t.Fatalf("RTOs, retransmissions = %d, %d, want 3, 3", st.RTOs, len(d.rexmits))
	}
	g1, g2 := d.rexmits[1].Sub(d.rexmits[0]), d.rexmits[2].Sub(d.rexmits[1])
	if g2 != 2*g1 {
		t.Errorf("RTO gaps %v then %v, want doubling", g1, g2)
	}
	// Samples: the handshake and the first five segments' ACKs (one per
	// ACK), none from the retransmitted segment.
	if st.RTTSamples > 6 {
		t.Errorf("RTT samples = %d, want at most 6 (no sample from a retransmission)", st.RTTSamples)
	}
	base := pr.client.snd.rtt.rto
	if got := pr.client.RTO(); got != 8*base {
		t.Errorf("RTO after three back-offs = %d, want %d (8x, kept by Karn's rule)", got, 8*base)
	}
}

// A retransmission lost in SACK recovery is found by RACK (RFC 8985
// section 6.2: segments sent after it were SACKed and an RTT has passed)
// and sent again about one RTT after the first, without a timeout; the
// congestion response to the lost retransmission (RFC 5681 section 4.3)
// happens inside the same recovery, so there is still one fast recovery.
// Segment 45 of the 300 is dropped twice. Without RACK only the timer
// (200 ms minimum, backed off) could repair it. Tolerance: one RTT here is
// 100 ms plus the queue the window builds at 100 Mbit/s (under 5 ms), and
// the detection needs a segment sent after the retransmission, which waits
// until half the window has drained after the window is halved (about 40
// segments, 3.3 ms at 100 Mbit/s): 100-110 ms.
func TestRecoveryLostRetransmission(t *testing.T) {
	const rtt = 100 * des.Millisecond
	pr, d := lossPair(t, RecoverySACK, []int64{45}, 2, LossDupThresh)
	st := pr.client.Stats
	if st.RTOs != 0 || st.FastRecoveries != 1 || st.RetransSegs != 2 || st.LostRetrans != 1 {
		t.Fatalf("RTOs, fast recoveries, retransmissions, lost retransmissions = %d, %d, %d, %d, want 0, 1, 2, 1",
			st.RTOs, st.FastRecoveries, st.RetransSegs, st.LostRetrans)
	}
	if gap := d.rexmits[1].Sub(d.rexmits[0]); gap < rtt || gap > rtt+10*des.Millisecond {
		t.Errorf("second retransmission %v after the first, want one RTT (100-110 ms)", gap)
	}
}

// TestLostRetransmissionWithoutRACK: with LossDupThreshOnly the same lost
// retransmission is found only by the retransmission timer (RFC 6298
// section 5.4), as in a sender without RFC 8985: one timeout, and the
// second retransmission leaves about the minimum RTO (RFC 6298's 1 s
// here, less the under 1 ms between the ACK that restarted the timer and
// the first retransmission) after the first, not one RTT (100 ms) as
// with RACK.
func TestLostRetransmissionWithoutRACK(t *testing.T) {
	pr, d := lossPair(t, RecoverySACK, []int64{45}, 2, LossDupThreshOnly)
	st := pr.client.Stats
	if st.RTOs != 1 || st.LostRetrans != 0 {
		t.Fatalf("RTOs, lost retransmissions found = %d, %d; want 1, 0", st.RTOs, st.LostRetrans)
	}
	if gap := d.rexmits[1].Sub(d.rexmits[0]); gap < 999*des.Millisecond || gap > 1010*des.Millisecond {
		t.Errorf("second retransmission %v after the first, want the timer's 1 s (999-1010 ms)", gap)
	}
}

// After a timeout the sender keeps its SACK scoreboard (RFC 6675 section
// 5.1; Linux's tcp_timeout_mark_lost) and resends only what the receiver
// has not reported: segment 45 is dropped ten times, so the transfer's
// other segments are all sent and SACKed when RACK runs out of later
// deliveries and the timer fires; every retransmission, before and after
// the timeouts, is of segment 45 (RFC 2018 section 8's forgetting would
// make a timeout resend all the segments above it). Exact.
func TestTimeoutResendsOnlyUnSACKed(t *testing.T) {
	const drops = 10
	pr, d := lossPair(t, RecoverySACK, []int64{45}, drops)
	st := pr.client.Stats
	if st.RTOs == 0 {
		t.Fatalf("no timeout; the test needs one (retransmissions %d)", st.RetransSegs)
	}
	for i, off := range d.rexOffs {
		if off != 45*1000 {
			t.Errorf("retransmission %d of offset %d, want only 45000", i, off)
		}
	}
	if len(d.rexOffs) != drops {
		t.Errorf("retransmissions = %d, want %d (all but the last lost)", len(d.rexOffs), drops)
	}
	t.Logf("RTOs %d, fast recoveries %d, lost retransmissions found %d", st.RTOs, st.FastRecoveries, st.LostRetrans)
}

// A timeout keeps SACK state unless the receiver shows it reneged (RFC
// 2018 section 8): a SACKed byte at SND.UNA, which a receiver that still
// held it would have acknowledged cumulatively (Linux's
// tcp_timeout_mark_lost test). The scoreboard is set by hand on a sender
// with 20 segments outstanding; exact.
func TestTimeoutRenegingRule(t *testing.T) {
	for _, tt := range []struct {
		name      string
		at        int // segment SACKed, counted from SND.UNA
		wantEmpty bool
	}{
		{"SACK above SND.UNA is kept", 5, false},
		{"SACK at SND.UNA means reneging", 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.Recovery = RecoverySACK
			cfg.InitialWindow = 20
			pr := newPair(t, cfg, 100e6, 50*des.Millisecond, newReno)
			pr.w.drop = func(dir int, p *netsim.Packet) bool { return dir == 0 && p.Payload > 0 }
			pr.client.Write(0, 20*1000)
			pr.client.Connect(0)
			if err := pr.w.s.Run(t.Context(), des.Time(110*des.Millisecond)); err != nil {
				t.Fatal(err)
			}
			s := &pr.client.snd
			if got := s.una.Size(s.max); got != 20*1000 {
				t.Fatalf("outstanding = %d bytes, want 20000", got)
			}
			start := s.una.Add(seqnum.Size(tt.at * 1000))
			s.sb.Insert(start, start.Add(1000))
			s.onRTO(pr.w.s.Now())
			if got := s.sb.Empty(); got != tt.wantEmpty {
				t.Errorf("scoreboard empty after the timeout = %v, want %v", got, tt.wantEmpty)
			}
		})
	}
}
