package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// sendsPerAck runs RFC 6937 section 5's example: a window of 20 segments
// of which the first is lost, so the receiver answers the other 19 with
// duplicate ACKs (no delayed ACKs, no limited transmit), under Reno's
// halving (ssthresh = 10 segments). It returns, for k = 1..19, how many
// segments the sender had sent since the fast retransmit (the
// retransmission included) once it had processed the k-th duplicate ACK,
// and the number of fast recoveries.
func sendsPerAck(t *testing.T, rec Recovery) (sent [20]int, recoveries int64) {
	return sendsPerAckCfg(t, rec, false)
}

// sendsPerAckCfg is sendsPerAck with Config.PRRByteCeil set to byteCeil.
func sendsPerAckCfg(t *testing.T, rec Recovery, byteCeil bool) (sent [20]int, recoveries int64) {
	t.Helper()
	return sendsPerAckCtrl(t, rec, byteCeil, newReno)
}

// sendsPerAckCtrl is sendsPerAckCfg with the controller ctrl makes.
func sendsPerAckCtrl(t *testing.T, rec Recovery, byteCeil bool, ctrl func() cc.Controller) (sent [20]int, recoveries int64) {
	t.Helper()
	const mss = 1000
	cfg := baseConfig()
	cfg.Recovery = rec
	cfg.PRRByteCeil = byteCeil
	cfg.InitialWindow = 20
	cfg.LimitedTransmit = false
	pr := newPair(t, cfg, 100e6, 50*des.Millisecond, ctrl)
	var inRecovery bool
	counts := map[uint64]int{}
	pr.w.drop = func(dir int, p *netsim.Packet) bool {
		if dir != 0 || p.Payload == 0 {
			return false
		}
		snd := &pr.client.snd
		if p.Retransmitted {
			inRecovery = true
		}
		if inRecovery && snd.acks <= 19 {
			counts[snd.acks]++
		}
		off := int64(p.Seq-1000-1) / mss
		return off == 0 && !p.Retransmitted
	}
	pr.client.Write(0, 40*mss)
	pr.client.Close(0)
	pr.client.Connect(0)
	// The handshake takes one 100 ms RTT, the duplicate ACKs arrive
	// after the second, the retransmission's ACK before 3.6 RTT.
	if err := pr.w.s.Run(t.Context(), des.Time(360*des.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if pr.client.snd.inRecovery {
		t.Fatalf("still in recovery at 360 ms")
	}
	total := 0
	for k := 1; k <= 19; k++ {
		total += counts[uint64(k)]
		sent[k] = total
	}
	return sent, pr.client.Stats.FastRecoveries
}

// TestPRRExample checks PRR against RFC 6937's single-loss example
// (section 5): a Reno halving (ssthresh = 10 segments) with RecoverFS =
// 20 segments. The expected sends come from the RFC's per-ACK pseudo-code
// (section 3.1, PRR-SSRB) run over the example's accounting in segments:
// recovery starts at the third duplicate ACK (DupThresh, RFC 5681), each
// duplicate ACK SACKs one segment (DeliveredData = 1), and pipe is RFC
// 6675's: the 20 outstanding, less those SACKed, less the lost one, plus
// what was sent since. While pipe > ssthresh PRR sends on every second
// ACK; by the last it has sent ssthresh = 10 (the retransmission and 9 new
// segments). RFC 6675, which sets cwnd = ssthresh at once, sends the
// retransmission, then nothing until pipe falls below 10, then one
// segment per ACK, and also ends at 10.
func TestPRRExample(t *testing.T) {
	const ss, recoverFS = 10, 20
	var want [20]int
	sent, delivered := 0, 0
	for k := 3; k <= 19; k++ {
		delivered++
		pipe := recoverFS - k - 1 + sent
		var sndcnt int
		if pipe > ss {
			sndcnt = (delivered*ss+recoverFS-1)/recoverFS - sent
		} else {
			sndcnt = min(ss-pipe, max(delivered-sent, 1)+1)
		}
		if sent == 0 {
			sndcnt = max(sndcnt, 1)
		}
		sent += max(sndcnt, 0)
		want[k] = sent
	}
	if want[19] != ss {
		t.Fatalf("the RFC's pseudo-code ends at %d segments, want ssthresh = %d", want[19], ss)
	}
	prr, n := sendsPerAck(t, RecoveryPRR)
	if n != 1 {
		t.Fatalf("PRR: %d fast recoveries, want 1", n)
	}
	if prr != want {
		t.Errorf("PRR: segments sent by duplicate ACK 3..19 = %v, want %v (RFC 6937 section 3.1)", prr[3:], want[3:])
	}
	sack, _ := sendsPerAck(t, RecoverySACK)
	for k := 3; k <= 19; k++ {
		if w := max(1, k-9); sack[k] != w {
			t.Errorf("RFC 6675: sent %d segments by duplicate ACK %d, want %d (all: %v)", sack[k], k, w, sack[3:])
		}
	}
}

// TestPRRByteCeil runs RFC 6937 section 5's example with PRR's share
// rounded up in bytes, as ns-3 3.37's TcpPrrRecovery::DoRecovery does
// (std::ceil over bytes, cwnd = BytesInFlight + sndcnt), and the sender
// sending whole segments only (ns-3's SendPendingData, RFC 6675 step (C)).
// The expected sends run section 3.1's pseudo-code in bytes (SMSS 1000 B,
// ssthresh 10000 B, RecoverFS 20000 B): a segment goes once the share
// reaches a whole segment, so after the fast retransmit PRR sends on the
// even duplicate ACKs, one ACK after the segment rounding of
// TestPRRExample, and still ends at ssthresh = 10 segments.
func TestPRRByteCeil(t *testing.T) {
	const mss, ss, recoverFS = 1000, 10 * 1000, 20 * 1000
	var want [20]int
	sent, delivered := 0, 0 // segments, bytes
	for k := 3; k <= 19; k++ {
		delivered += mss
		pipe := recoverFS - (k+1)*mss + sent*mss
		var sndcnt int
		if pipe > ss {
			sndcnt = (delivered*ss+recoverFS-1)/recoverFS - sent*mss
		} else {
			sndcnt = min(ss-pipe, max(delivered-sent*mss, mss)+mss)
		}
		if sent == 0 {
			sndcnt = max(sndcnt, mss)
		}
		sent += max(sndcnt, 0) / mss // whole segments (cwnd - pipe >= SMSS)
		want[k] = sent
	}
	if want[19] != ss/mss {
		t.Fatalf("the pseudo-code in bytes ends at %d segments, want ssthresh = %d", want[19], ss/mss)
	}
	if want[5] != 1 || want[6] != 2 {
		t.Fatalf("the pseudo-code in bytes sends by ACK 5 and 6: %d, %d; want 1, 2 (the even ACKs)", want[5], want[6])
	}
	got, n := sendsPerAckCfg(t, RecoveryPRR, true)
	if n != 1 {
		t.Fatalf("%d fast recoveries, want 1", n)
	}
	if got != want {
		t.Errorf("segments sent by duplicate ACK 3..19 = %v, want %v (RFC 6937 section 3.1 in bytes)", got[3:], want[3:])
	}
	seg, _ := sendsPerAck(t, RecoveryPRR)
	if seg == got {
		t.Errorf("byte and segment rounding send alike (%v)", got[3:])
	}
}

// TestNoPRRUnderCongControl checks that PRR leaves alone a controller
// that sets cwnd itself in recovery, as Linux does for BBR and BBRv2
// (tcp_cong_control in net/ipv4/tcp_input.c returns after their
// cong_control hook, before tcp_cwnd_reduction): on RFC 6937's example
// a BBR sender sends the same segments on the same ACKs with prr on as
// with plain SACK recovery, while Reno's sends differ (TestPRRExample).
func TestNoPRRUnderCongControl(t *testing.T) {
	for _, c := range []struct {
		name string
		ctrl func() cc.Controller
		same bool
	}{
		{"bbr", func() cc.Controller { return cc.NewBBR(1) }, true},
		{"bbr2", func() cc.Controller { return cc.NewBBR2(1) }, true},
		{"newreno", newReno, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prr, n1 := sendsPerAckCtrl(t, RecoveryPRR, false, c.ctrl)
			sack, n2 := sendsPerAckCtrl(t, RecoverySACK, false, c.ctrl)
			if n1 != 1 || n2 != 1 {
				t.Fatalf("fast recoveries: prr %d, sack %d, want 1 each", n1, n2)
			}
			if (prr == sack) != c.same {
				t.Errorf("sends per duplicate ACK with prr %v, with sack %v: same = %v, want %v", prr[1:], sack[1:], prr == sack, c.same)
			}
		})
	}
}
