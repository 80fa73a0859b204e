package tcp

import (
	"context"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// TestSendBufferFill: what enters a send buffer of limit bytes when the
// application writes n bytes piece bytes at a time before anything is
// acknowledged. A piece enters whole or waits (ns-3's TcpTxBuffer::Add
// refuses a write larger than Available()); a single write (piece 0)
// enters as far as room allows, as a blocking send(2) copies what fits.
func TestSendBufferFill(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		limit, n, piece       unit.Bytes
		wantHeld, wantWaiting unit.Bytes
	}{
		{"unlimited", 0, 1 << 40, 512, 1 << 40, 0},
		{"ns-3 default, 512-byte writes", 131072, 1_000_000, 512, 131072, 1_000_000 - 131072},
		{"pieces stop short of the limit", 1300, 2000, 512, 1024, 976},
		{"the short last piece fits", 1300, 1100, 512, 1100, 0},
		{"one write fills the buffer", 1300, 2000, 0, 1300, 700},
		{"a write smaller than a piece", 1300, 300, 512, 300, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.SendBuffer = tc.limit
			pr := newPair(t, cfg, 100e6, des.Millisecond, newReno)
			pr.client.WritePieces(0, tc.n, tc.piece)
			if got, w := pr.client.SendBufferHeld(), pr.client.Blocked(); got != tc.wantHeld || w != tc.wantWaiting {
				t.Errorf("held %d B, waiting %d B; want %d, %d", got, w, tc.wantHeld, tc.wantWaiting)
			}
		})
	}
}

// TestSendBufferLimitsFlight: a 1 MB transfer written 512 bytes at a time
// into a 128 KiB send buffer (ns-3's defaults) over a path whose
// bandwidth-delay product (10 Mbit/s x 100 ms = 125 kB) the window
// exceeds. At every data segment the buffer holds at most its limit, and
// while the writer waits it holds more than the limit less one piece: an
// ACK lets the writer refill before the sender transmits. The buffer, not
// the 1 MiB receive window, bounds the flight, and the refills of a few
// pieces leave as short segments (no Nagle), so more segments are sent
// than the ceil(1 MB / MSS) of an unlimited buffer.
func TestSendBufferLimitsFlight(t *testing.T) {
	const size, limit, piece = 1_000_000, 131072, 512
	for _, tc := range []struct {
		name  string
		limit unit.Bytes
	}{{"unlimited", 0}, {"128 KiB", limit}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.SACK = false
			cfg.SendBuffer = tc.limit
			pr := newPair(t, cfg, 10e6, 50*des.Millisecond, newReno)
			var segs, short int
			var maxFlight unit.Bytes
			pr.w.drop = func(dir int, p *netsim.Packet) bool {
				if dir != 0 || p.Payload == 0 {
					return false
				}
				c := pr.client
				segs++
				if p.Payload < cfg.MSS {
					short++
				}
				maxFlight = max(maxFlight, c.InFlight()+p.Payload)
				if tc.limit > 0 {
					if h := c.SendBufferHeld(); h > tc.limit {
						t.Fatalf("send buffer holds %d B, limit %d", h, tc.limit)
					}
					if c.Blocked() > 0 && c.SendBufferHeld() <= tc.limit-piece {
						t.Fatalf("writer waits with %d B held, room for a %d-byte piece", c.SendBufferHeld(), piece)
					}
				}
				return false
			}
			pr.client.Connect(0)
			pr.client.WritePieces(0, size, piece) // before the handshake: the writes wait for it
			pr.client.Close(0)
			if err := pr.w.s.Run(context.Background(), des.Time(30*des.Second)); err != nil {
				t.Fatal(err)
			}
			if pr.serverApp.got != size || pr.clientApp.doneAt == 0 {
				t.Fatalf("server got %d of %d B, done at %v", pr.serverApp.got, size, pr.clientApp.doneAt)
			}
			full := int(size / cfg.MSS) // 1000 full segments, no short one
			switch {
			case tc.limit == 0 && (segs != full || short != 0):
				t.Errorf("unlimited buffer: %d data segments (%d short), want %d full ones", segs, short, full)
			case tc.limit > 0 && segs <= full:
				t.Errorf("128 KiB buffer: %d data segments, want more than %d (short refills)", segs, full)
			case tc.limit > 0 && maxFlight > tc.limit:
				t.Errorf("flight reached %d B, above the %d B buffer", maxFlight, tc.limit)
			case tc.limit == 0 && maxFlight <= limit:
				t.Errorf("unlimited buffer: flight peaked at %d B, want above %d (the window exceeds the BDP)", maxFlight, limit)
			}
			t.Logf("%d data segments, %d short, flight up to %d B", segs, short, maxFlight)
		})
	}
}

// TestWritesCoalesce: the application's 512-byte writes at the instant the
// connection opens leave in full segments, as in ns-3 (TcpSocketBase::Send
// defers SendPendingData one time step) and Linux (tcp_sendmsg_locked
// fills the tail skb to the size goal): the initial window of 10 is 10
// full segments, not 10 writes.
func TestWritesCoalesce(t *testing.T) {
	cfg := baseConfig()
	pr := newPair(t, cfg, 10e6, 50*des.Millisecond, newReno)
	var first []unit.Bytes
	pr.w.drop = func(dir int, p *netsim.Packet) bool {
		if dir == 0 && p.Payload > 0 && len(first) < 10 {
			first = append(first, p.Payload)
		}
		return false
	}
	pr.clientApp.onEstablished = func(now des.Time) { pr.client.WritePieces(now, 100_000, 512); pr.client.Close(now) }
	pr.client.Connect(0)
	if err := pr.w.s.Run(context.Background(), des.Time(10*des.Second)); err != nil {
		t.Fatal(err)
	}
	if pr.serverApp.got != 100_000 {
		t.Fatalf("server got %d B, want 100000", pr.serverApp.got)
	}
	for i, n := range first {
		if n != cfg.MSS {
			t.Fatalf("segment %d of the first flight carries %d B, want a full %d (segments %v)", i+1, n, cfg.MSS, first)
		}
	}
	if len(first) != 10 {
		t.Fatalf("%d segments seen, want 10", len(first))
	}
}
