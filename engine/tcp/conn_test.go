package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

func TestHandshakeNegotiation(t *testing.T) {
	tests := []struct {
		name                string
		clientWS, serverWS  bool
		clientSACK, srvSACK bool
		wantShift           uint8
		wantSACK            bool
	}{
		// RFC 7323 section 2.2: scaling only when both ends send the option;
		// 1 MiB needs shift 5 (65535 << 5 >= 2^20).
		{"both", true, true, true, true, 5, true},
		{"client only", true, false, true, false, 0, false},
		{"server only", false, true, false, true, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr := newPair(t, baseConfig(), 1e9, des.Millisecond, newReno)
			pr.client.cfg.WindowScaling, pr.server.cfg.WindowScaling = tt.clientWS, tt.serverWS
			pr.client.cfg.SACK, pr.server.cfg.SACK = tt.clientSACK, tt.srvSACK
			pr.transfer(t, 50000, des.Time(des.Second))
			if pr.client.sndShift != tt.wantShift || pr.server.rcvShift != tt.wantShift {
				t.Errorf("shifts = %d, %d, want %d", pr.client.sndShift, pr.server.rcvShift, tt.wantShift)
			}
			if pr.client.sackOK != tt.wantSACK || pr.server.sackOK != tt.wantSACK {
				t.Errorf("sack = %v, %v, want %v", pr.client.sackOK, pr.server.sackOK, tt.wantSACK)
			}
			// The handshake RTT (2 ms plus serialisation) is a sample.
			if pr.client.Stats.RTTSamples == 0 {
				t.Errorf("no RTT samples")
			}
		})
	}
}

// RFC 3390 / RFC 5681 section 3.1: IW = min(4*MSS, max(2*MSS, 4380)).
func TestInitialWindow(t *testing.T) {
	tests := []struct {
		mss  unit.Bytes
		iw   int
		want unit.Bytes
	}{
		{1460, 0, 4380}, {1000, 0, 4000}, {536, 0, 2144}, {4000, 0, 8000},
		{1460, 1, 1460}, {1460, 10, 14600},
	}
	for _, tt := range tests {
		cfg := baseConfig()
		cfg.MSS, cfg.InitialWindow = tt.mss, tt.iw
		pr := newPair(t, cfg, 1e9, des.Millisecond, newReno)
		pr.client.Connect(0)
		pr.w.s.Run(t.Context(), des.Time(3*des.Millisecond))
		if got := pr.client.CC().Cwnd; got != tt.want {
			t.Errorf("IW(mss %d, iw %d) = %d, want %d", tt.mss, tt.iw, got, tt.want)
		}
	}
}
