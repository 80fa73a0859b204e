package models

import (
	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine"
)

func runModel(t *testing.T, m engine.Model, set map[string]engine.Value, seed uint64) engine.Result {
	t.Helper()
	p := m.Schema().Defaults()
	for k, v := range set {
		p = p.With(k, v)
	}
	r, err := m.Run(t.Context(), p, seed)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A 10 KB (10240-byte) transfer over 1.544 Mbit/s, MSS 1460, no loss, no
// delayed ACKs, worked by hand. Wire sizes: SYN and SYN-ACK 44 bytes
// (40 + MSS option), data 1500, the last segment 20 + 40 = 60, ACKs 40.
// 10240 = 7*1460 + 20: eight segments. tx(n) = 8n/1.544e6 s.
//
//	handshake:   SYN and SYN-ACK: 2d + 2 tx(44); the ACK rides on data.
//	IW = 3 (RFC 3390 for MSS 1460): round 1 sends segments 1-3; the ACK of
//	  segment 1 returns at tx(1500) + 2d + tx(40) after it started and
//	  (slow start, +1 segment per ACK) releases 2 segments; ACKs then
//	  arrive every tx(1500) and release 2 each, faster than the link
//	  drains them, so segments 4-8 leave back to back: the last byte
//	  arrives 4 tx(1500) + tx(60) + d after the ACK of segment 1.
//	  (Valid while 3 tx(1500) < tx(1500) + 2d + tx(40), i.e. d > 7.7 ms.)
//	IW = 10 (RFC 6928): all eight segments in round 1: 7 tx(1500) + tx(60) + d.
//	Without the handshake (T/TCP style) the 2d + 2 tx(44) term goes.
func TestTransferResponseTime(t *testing.T) {
	const rate = 1.544e6
	tx := func(n float64) float64 { return 8 * n / rate }
	for _, d := range []float64{0.010, 0.050, 0.100, 0.200, 0.400} {
		handshake := 2*d + 2*tx(44)
		tests := []struct {
			iw        int64
			handshake bool
			want      float64
		}{
			{0, true, handshake + tx(1500) + 2*d + tx(40) + 4*tx(1500) + tx(60) + d},
			{10, true, handshake + 7*tx(1500) + tx(60) + d},
			{10, false, 7*tx(1500) + tx(60) + d},
		}
		for _, tt := range tests {
			r := runModel(t, NewTCPTransfer(), map[string]engine.Value{
				"rate": engine.F(rate), "delay": engine.F(d), "size": engine.I(10240),
				"iw": engine.I(tt.iw), "handshake": engine.B(tt.handshake),
			}, 1)
			got := r.Metrics[tmResponse].Float()
			if math.Abs(got-tt.want) > 1e-3 {
				t.Errorf("response time(d %v, iw %d, handshake %v) = %.6f s, want %.6f s (within 1 ms)", d, tt.iw, tt.handshake, got, tt.want)
			}
			if r.Metrics[tmRetransSegs].Int() != 0 {
				t.Errorf("retransmissions on a lossless link")
			}
		}
	}
}
