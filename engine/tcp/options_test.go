package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
)

// TestTimestampsWireBytes: RFC 7323 section 3.2 negotiation and the bytes
// the option costs. With both ends offering timestamps, the SYN carries
// MSS (4), window scale (3), SACK-permitted (2) and TSopt (10), 19 bytes
// padded to 20 (Linux's SYN is 60 bytes), and every later segment 12
// more: a full 1448-byte segment is 1500 bytes on the wire, as Linux's
// with a 1500-byte MTU, and a pure ACK 52. When only the client offers
// them, the SYN-ACK does not echo the option and no segment carries it;
// without it the SYN's 9 option bytes pad to 12 (52 bytes).
func TestTimestampsWireBytes(t *testing.T) {
	for _, tc := range []struct {
		name               string
		client, server     bool
		syn, data, ack     unit.Bytes
		clientTS, serverTS bool
	}{
		{"both", true, true, 60, 1500, 52, true, true},
		{"client only", true, false, 60, 1488, 40, false, false},
		{"neither", false, false, 52, 1488, 40, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.MSS = 1448
			cfg.Timestamps = tc.client
			pr := newPair(t, cfg, 100e6, des.Millisecond, newReno)
			pr.server.cfg.Timestamps = tc.server
			var syn, data, ack unit.Bytes
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				switch {
				case dir == 0 && p.Flags&netsim.SYN != 0:
					syn = p.Size
				case dir == 0 && p.Payload == 1448:
					data = p.Size
				case dir == 1 && p.Payload == 0 && p.Flags&netsim.SYN == 0:
					ack = p.Size
				}
				return false
			}
			pr.transfer(t, 20*1448, des.Time(des.Second))
			if syn != tc.syn || data != tc.data || ack != tc.ack {
				t.Errorf("wire sizes SYN, data, ACK = %d, %d, %d B, want %d, %d, %d", syn, data, ack, tc.syn, tc.data, tc.ack)
			}
			if pr.client.tsOK != tc.clientTS || pr.server.tsOK != tc.serverTS {
				t.Errorf("timestamps agreed: client %v, server %v; want %v, %v", pr.client.tsOK, pr.server.tsOK, tc.clientTS, tc.serverTS)
			}
		})
	}
}

// TestSYNTimeout: a lost SYN is sent again after Config.SYNTimeout (ns-3's
// ConnTimeout of 3 s here), or after RFC 6298 section 2.1's initial RTO
// of 1 s when it is 0; a second loss doubles the wait (section 5.5).
func TestSYNTimeout(t *testing.T) {
	for _, tc := range []struct {
		timeout des.Duration
		want    []des.Time
	}{
		{0, []des.Time{0, des.Time(des.Second), des.Time(3 * des.Second)}},
		{3 * des.Second, []des.Time{0, des.Time(3 * des.Second), des.Time(9 * des.Second)}},
	} {
		cfg := baseConfig()
		cfg.SYNTimeout = tc.timeout
		pr := newPair(t, cfg, 100e6, des.Millisecond, newReno)
		var sent []des.Time
		pr.w.drop = func(dir int, p *netsim.Packet) bool {
			if dir == 0 && p.Flags&netsim.SYN != 0 {
				sent = append(sent, pr.w.s.Now())
				return len(sent) <= 2 // the first two SYNs are lost
			}
			return false
		}
		pr.transfer(t, 1000, des.Time(20*des.Second))
		if len(sent) != 3 || sent[0] != tc.want[0] || sent[1] != tc.want[1] || sent[2] != tc.want[2] {
			t.Errorf("SYNTimeout %v: SYNs sent at %v, want %v", tc.timeout, sent, tc.want)
		}
	}
}
