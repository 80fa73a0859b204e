package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
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
		want  int64
	}{
		{SsthreshFlightSize, 5000},
		{SsthreshPipe, 3000},
	} {
		t.Run(tc.basis.String(), func(t *testing.T) {
			cfg := baseConfig()
			cfg.LimitedTransmit = false
			cfg.Recovery = RecoverySACK
			cfg.SsthreshBasis = tc.basis
			pr := newPair(t, cfg, 100e6, 10*des.Millisecond, newReno)
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
