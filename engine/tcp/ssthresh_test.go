package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// TestSsthreshBasis: ten 1000-byte segments (the initial window, the
// whole transfer) leave and the first is lost; the other nine are SACKed.
// At the third duplicate ACK FlightSize is 10 segments, so RFC 5681
// equation (4) gives ssthresh = 5000 B. RFC 6675's pipe then leaves out the
// three SACKed segments and the first, which IsLost now deems lost (three
// SACKed segments above it): 6 segments, so ns-3's choice gives 3000 B.
// NewReno's ssthresh is the basis halved (RFC 5681 and
// TcpNewReno::GetSsThresh alike).
func TestSsthreshBasis(t *testing.T) {
	for _, tc := range []struct {
		basis SsthreshBasis
		want  unit.Bytes
	}{
		{SsthreshFlightSize, 5000},
		{SsthreshPipe, 3000},
	} {
		t.Run(tc.basis.String(), func(t *testing.T) {
			pr := ssthreshPair(t, tc.basis)
			dropped := false
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				if dir == 0 && p.Payload > 0 && !dropped {
					dropped = true
					return true
				}
				return false
			}
			pr.transfer(t, 10_000, des.Time(10*des.Second))
			if pr.client.Stats.FastRecoveries != 1 || pr.client.Stats.RTOs != 0 {
				t.Fatalf("%d fast recoveries, %d timeouts; want one recovery", pr.client.Stats.FastRecoveries, pr.client.Stats.RTOs)
			}
			if got := pr.client.CC().Ssthresh; got != tc.want {
				t.Errorf("ssthresh %d B, want %d", got, tc.want)
			}
		})
	}
}

// TestSsthreshBasisAtTimeout: of ten 1000-byte segments only the second
// and third arrive, so two duplicate ACKs (below DupThresh) SACK them and
// the retransmission timer fires. RFC 5681 section 3.1's equation (4)
// halves FlightSize, 10 segments: 5000 B. ns-3's ReTxTimeout halves the
// BytesInFlight() before the timeout: RFC 6675's pipe, 10 segments less the
// 2 SACKed (the first is not yet deemed lost: only 2 segments are SACKed
// above it), 4000 B.
func TestSsthreshBasisAtTimeout(t *testing.T) {
	for _, tc := range []struct {
		basis SsthreshBasis
		want  unit.Bytes
	}{
		{SsthreshFlightSize, 5000},
		{SsthreshPipe, 4000},
	} {
		t.Run(tc.basis.String(), func(t *testing.T) {
			pr := ssthreshPair(t, tc.basis)
			first := 0
			var atRTO unit.Bytes // ssthresh when the timeout's first retransmission leaves
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				if dir != 0 || p.Payload == 0 && p.Flags&netsim.FIN == 0 {
					return false
				}
				if p.Retransmitted {
					if atRTO == 0 {
						if pr.client.Stats.RTOs != 1 || pr.client.Stats.FastRecoveries != 0 {
							t.Fatalf("first retransmission after %d timeouts and %d fast recoveries; want one timeout", pr.client.Stats.RTOs, pr.client.Stats.FastRecoveries)
						}
						atRTO = pr.client.CC().Ssthresh
					}
					return false
				}
				first++
				return first != 2 && first != 3 // only the 2nd and 3rd first transmissions arrive (not the FIN)
			}
			pr.transfer(t, 10_000, des.Time(20*des.Second))
			if atRTO != tc.want {
				t.Errorf("ssthresh at the timeout %d B, want %d", atRTO, tc.want)
			}
		})
	}
}

// ssthreshPair is the pair both tests run: NewReno with SACK recovery and
// no limited transmit, over 100 Mbit/s and 10 ms, its ssthresh taken from
// basis.
func ssthreshPair(t *testing.T, basis SsthreshBasis) *pair {
	cfg := baseConfig()
	cfg.LimitedTransmit = false
	cfg.Recovery = RecoverySACK
	cfg.SsthreshBasis = basis
	return newPair(t, cfg, 100e6, 10*des.Millisecond, newReno)
}
