package tcp

import (
	"context"
	"slices"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// tracePort records every packet an endpoint sends, with the time.
type tracePort struct {
	s    *des.Scheduler
	pool netsim.Pool
	sent []sentPacket
}

type sentPacket struct {
	at des.Time
	p  netsim.Packet
}

func (t *tracePort) NewPacket() *netsim.Packet { return t.pool.Get() }
func (t *tracePort) Free(p *netsim.Packet)     { t.pool.Put(p) }
func (t *tracePort) Send(p *netsim.Packet) {
	t.sent = append(t.sent, sentPacket{t.s.Now(), *p})
	t.pool.Put(p)
}

// segIn is one hand-built segment arriving at an endpoint.
type segIn struct {
	at       des.Time
	seq, len uint32
}

// deliver hands a hand-built data segment to the endpoint at its time.
type deliver struct {
	c *Conn
	p netsim.Packet
}

func (d *deliver) Handle(now des.Time, _ int, _ uint64) {
	p := d.c.port.NewPacket()
	*p = d.p
	d.c.Receive(now, p)
}

// traceReceiver opens a receiver without a handshake (RCV.NXT = 1) and
// feeds it the segments; it returns what it sent.
func traceReceiver(t *testing.T, cfg Config, segs []segIn) []sentPacket {
	t.Helper()
	in := make([]skbIn, len(segs))
	for i, sg := range segs {
		in[i] = skbIn{at: sg.at, seq: sg.seq, len: sg.len}
	}
	sent, _ := traceHostReceiver(t, cfg, Host{}, in)
	return sent
}

// Quick-ACK mode (Linux's tcp_incr_quickack, tcp_event_data_recv): with
// delayed ACKs, the first min(rcv_wnd/(2*rcv_mss), 16) data segments are
// each acknowledged at once, then every second one (RFC 1122 section
// 4.2.3.2), and the mode returns when data arrives after more than an RTO
// (1 s here, RFC 6298 section 2.1's initial RTO, the receiver having no
// RTT sample) of silence; and every segment is acknowledged at once while
// the receive window grows towards a buffer larger than the first window
// (tcp_grow_window). 1000-byte segments 1 ms apart; the immediate
// ACKs are counted exactly, the rest left to the 200 ms timer or the
// second segment.
func TestQuickAck(t *testing.T) {
	in := func(n int, from des.Time, seq0 uint32) []segIn {
		var s []segIn
		for i := 0; i < n; i++ {
			s = append(s, segIn{at: from.Add(des.Duration(i) * des.Millisecond), seq: seq0 + uint32(i)*1000, len: 1000})
		}
		return s
	}
	tests := []struct {
		name   string
		rcvBuf unit.Bytes
		quick  bool
		segs   []segIn
		// immediate[i] says segment i is acknowledged when it arrives.
		immediate func(i int) bool
	}{
		{"off: every second segment", 64000, false, in(40, 0, 1),
			func(i int) bool { return i%2 == 1 }},
		{"16 quick ACKs (64000/(2*1000) = 32, capped)", 64000, true, in(40, 0, 1),
			func(i int) bool { return i < 16 || (i-16)%2 == 1 }},
		{"3 quick ACKs (6000/(2*1000))", 6000, true, in(6, 0, 1),
			func(i int) bool { return i < 3 || (i-3)%2 == 1 }},
		{"idle 1.5 s > RTO: quick again", 64000, true, append(in(20, 0, 1), in(4, des.Time(1520*des.Millisecond), 20001)...),
			func(i int) bool { return i < 16 || i >= 20 || (i-16)%2 == 1 }},
		{"idle 0.5 s < RTO: still delayed", 64000, true, append(in(20, 0, 1), in(4, des.Time(520*des.Millisecond), 20001)...),
			func(i int) bool { return i < 16 || (i-16)%2 == 1 }},
		// tcp_grow_window: from the first window, 65535 bytes, to the
		// clamp, 200000 - 1000 (one advmss kept back), each segment adds
		// max(2 advmss, 2 x 1000) = 2000 bytes and is acknowledged at
		// once: 133465 / 2000 = 66.7, so 67 segments, the last taking
		// the 1465 left. Its quick |= 1 makes the first data's 16 quick
		// ACKs 17, and the ACK takes them back to 16
		// (tcp_dec_quickack_mode), so those 16 follow the growth.
		{"window growth: 67 at once, then the 16 quick ACKs", 200000, true, in(100, 0, 1),
			func(i int) bool { return i < 83 || (i-83)%2 == 1 }},
		{"window growth needs quick_ack", 200000, false, in(100, 0, 1),
			func(i int) bool { return i%2 == 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{MSS: 1000, RcvBuf: tt.rcvBuf, SndBuf: 1 << 20, DelayedACK: true, QuickAck: tt.quick, WindowScaling: true}
			sent := traceReceiver(t, cfg, tt.segs)
			checkImmediateACKs(t, tt.segs, sent, tt.immediate)
		})
	}
}

// checkImmediateACKs checks which of segs the receiver acknowledged at
// the instant it arrived (an ACK in sent at that time): segment i was,
// where immediate(i).
func checkImmediateACKs(t *testing.T, segs []segIn, sent []sentPacket, immediate func(int) bool) {
	t.Helper()
	at := map[des.Time]bool{}
	for _, sp := range sent {
		at[sp.at] = true
	}
	for i, sg := range segs {
		if got, want := at[sg.at], immediate(i); got != want {
			t.Errorf("segment %d (t = %v): acknowledged at once = %v, want %v", i, sg.at, got, want)
		}
	}
}

// DSACK generation follows RFC 2883 section 4's examples, exactly (the
// RFC's sequence numbers shifted so that its first byte is our RCV.NXT):
// 4.1.1 a duplicate segment, 4.1.2 a duplicate with an out-of-order
// segment held, 4.1.3 a duplicate of an out-of-order segment (its
// containing block second), and 4.2's partial duplicates. Each segment is
// answered at once (no delayed ACKs), and a DSACK goes in one ACK only.
func TestDSACKExamples(t *testing.T) {
	type ack struct {
		ack  uint32
		sack [][2]uint32
	}
	tests := []struct {
		name  string
		base  uint32 // the RFC's first sequence number
		segs  [][2]uint32
		dsack bool
		want  []ack
	}{
		{"4.1.1 duplicate segment", 3000, [][2]uint32{{3000, 3500}, {3500, 4000}, {3000, 3500}}, true,
			[]ack{{3500, nil}, {4000, nil}, {4000, [][2]uint32{{3000, 3500}}}}},
		{"4.1.1 without DSACK", 3000, [][2]uint32{{3000, 3500}, {3500, 4000}, {3000, 3500}}, false,
			[]ack{{3500, nil}, {4000, nil}, {4000, nil}}},
		{"4.1.2 out-of-order and duplicate", 3000, [][2]uint32{{3000, 3500}, {3500, 4000}, {4500, 5000}, {3000, 3500}}, true,
			[]ack{{3500, nil}, {4000, nil}, {4000, [][2]uint32{{4500, 5000}}}, {4000, [][2]uint32{{3000, 3500}, {4500, 5000}}}}},
		{"4.1.3 duplicate of out-of-order", 3000,
			[][2]uint32{{3000, 3500}, {3500, 4000}, {4500, 5000}, {5000, 5500}, {6000, 6500}, {4500, 5000}}, true,
			[]ack{{3500, nil}, {4000, nil}, {4000, [][2]uint32{{4500, 5000}}}, {4000, [][2]uint32{{4500, 5500}}},
				{4000, [][2]uint32{{6000, 6500}, {4500, 5500}}}, {4000, [][2]uint32{{4500, 5000}, {4500, 5500}, {6000, 6500}}}}},
		{"4.2 partial duplicates", 500,
			[][2]uint32{{500, 1000}, {2000, 2500}, {1000, 1500}, {1000, 2000}, {1500, 2000}}, true,
			[]ack{{1000, nil}, {1000, [][2]uint32{{2000, 2500}}}, {1500, [][2]uint32{{2000, 2500}}},
				{2500, [][2]uint32{{1000, 1500}}}, {2500, [][2]uint32{{1500, 2000}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shift := func(v uint32) uint32 { return v - tt.base + 1 }
			var segs []segIn
			for i, sg := range tt.segs {
				segs = append(segs, segIn{at: des.Time(des.Duration(i+1) * des.Millisecond), seq: shift(sg[0]), len: sg[1] - sg[0]})
			}
			cfg := Config{MSS: 1000, RcvBuf: 64000, SndBuf: 1 << 20, SACK: true, DSACK: tt.dsack}
			sent := traceReceiver(t, cfg, segs)
			if len(sent) != len(tt.want) {
				t.Fatalf("%d ACKs, want %d", len(sent), len(tt.want))
			}
			for i, sp := range sent {
				w := tt.want[i]
				var got [][2]uint32
				for j := 0; j < sp.p.NSACK; j++ {
					got = append(got, [2]uint32{sp.p.SACK[j].Left, sp.p.SACK[j].Right})
				}
				var want [][2]uint32
				for _, b := range w.sack {
					want = append(want, [2]uint32{shift(b[0]), shift(b[1])})
				}
				if sp.p.Ack != shift(w.ack) || !equalBlocks(got, want) {
					t.Errorf("ACK %d = %d SACK %v, want %d SACK %v", i, sp.p.Ack, got, shift(w.ack), want)
				}
			}
		})
	}
}

func equalBlocks(a, b [][2]uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ns-3 3.37's first ACK (Config.AckFirstSegment): TcpSocketBase sets
// m_delAckCount = m_delAckMaxCount as the connection opens
// (ProcessSynRcvd, ProcessSynSent), so with DelAckCount 2 the first
// in-order data segment is acknowledged at once and then every second
// one; any ACK sent before resets the counter (SendEmptyPacket), so an
// out-of-order first segment's duplicate ACK uses the priming up. The
// receiver opens without a handshake here (traceReceiver);
// TestAckFirstSegmentHandshake checks the passive open. 1000-byte
// segments 1 ms apart, the 200 ms timer never due between two of them.
func TestAckFirstSegment(t *testing.T) {
	in := func(seqs ...uint32) []segIn {
		var s []segIn
		for i, q := range seqs {
			s = append(s, segIn{at: des.Time(des.Duration(i) * des.Millisecond), seq: q, len: 1000})
		}
		return s
	}
	inOrder := in(1, 1001, 2001, 3001, 4001, 5001, 6001, 7001)
	tests := []struct {
		name         string
		first, quick bool
		segs         []segIn
		immediate    func(i int) bool
	}{
		{"off: every second segment", false, false, inOrder, func(i int) bool { return i%2 == 1 }},
		{"ns-3: the first at once, then every second", true, false, inOrder, func(i int) bool { return i%2 == 0 }},
		{"ns-3: an out-of-order first segment's ACK resets the count", true, false, in(1001, 1, 2001, 3001, 4001, 5001),
			// 0 is out of order, 1 fills the hole (RFC 5681 4.2), then
			// pairs: 3 and 5.
			func(i int) bool { return i <= 1 || i%2 == 1 }},
		{"with Linux's quick ACKs (6 of them at 12000/(2*1000)) the first is among them", true, true, inOrder,
			func(i int) bool { return i < 6 || i%2 == 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{MSS: 1000, RcvBuf: 12000, SndBuf: 1 << 20, DelayedACK: true, DelAckTimeout: 200 * des.Millisecond,
				AckFirstSegment: tt.first, QuickAck: tt.quick}
			sent := traceReceiver(t, cfg, tt.segs)
			checkImmediateACKs(t, tt.segs, sent, tt.immediate)
		})
	}
}

// TestAckFirstSegmentHandshake: after a real handshake the passive opener
// (ns-3's ProcessSynRcvd, the PacketSink side of validation/ns3/link.cc)
// acknowledges the first segment of the initial window at once and then
// every second one: the ACKs of a 10-segment first flight cover 1, 3, 5,
// 7 and 9 segments, against 2, 4, 6, 8 and 10 without it.
func TestAckFirstSegmentHandshake(t *testing.T) {
	for _, tt := range []struct {
		first bool
		want  []int64
	}{{false, []int64{2, 4, 6, 8, 10}}, {true, []int64{1, 3, 5, 7, 9}}} {
		cfg := baseConfig()
		cfg.DelayedACK, cfg.DelAckTimeout, cfg.AckFirstSegment = true, 200*des.Millisecond, tt.first
		pr := newPair(t, cfg, 10e6, 50*des.Millisecond, newReno)
		var acks []int64
		pr.w.drop = func(dir int, p *netsim.Packet) bool {
			// The server's pure ACKs of data, in segments past the
			// client's ISN (1000) and SYN.
			if dir == 1 && p.Payload == 0 && p.Flags&netsim.SYN == 0 && p.Ack > 1001 {
				acks = append(acks, int64(p.Ack-1001)/1000)
			}
			return false
		}
		pr.transfer(t, 40_000, des.Time(10*des.Second))
		if len(acks) < len(tt.want) {
			t.Fatalf("AckFirstSegment %v: %d ACKs of data, want at least %d", tt.first, len(acks), len(tt.want))
		}
		if got := acks[:len(tt.want)]; !slices.Equal(got, tt.want) {
			t.Errorf("AckFirstSegment %v: the first ACKs cover %v segments, want %v", tt.first, got, tt.want)
		}
	}
}

// skbIn is one segment of an aggregate (Skb, 0: alone) arriving at an
// endpoint, with its flags.
type skbIn struct {
	at       des.Time
	seq, len uint32
	skb      uint64
	flags    netsim.Flags
}

// traceHostReceiver opens a receiver with the host model h (none when
// every mechanism is off) without a handshake (RCV.NXT = 1) and feeds it
// the segments; it returns what it sent and the receiver.
func traceHostReceiver(t *testing.T, cfg Config, h Host, segs []skbIn) ([]sentPacket, *Conn) {
	t.Helper()
	s := des.New()
	tp := &tracePort{s: s}
	cfg.NoHandshake = true
	c, err := New(s, cfg, cc.NewReno(cc.ABCOff), tp, &sinkApp{}, 1, 1, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.SetHost(h)
	c.Listen()
	for _, sg := range segs {
		s.Schedule(sg.at, &deliver{c: c, p: netsim.Packet{Flow: 1, Src: 0, Dst: 1, Seq: sg.seq, Payload: unit.Bytes(sg.len),
			Flags: netsim.ACK | sg.flags, Ack: 1, Window: 65535, WScale: -1, Skb: sg.skb}}, 0, 0)
	}
	if err := s.Run(context.Background(), des.Time(60*des.Second)); err != nil {
		t.Fatal(err)
	}
	return tp.sent, c
}

// TestGrowWindowGRO: a receiver that takes aggregates whole grows its
// window once per aggregate, by max(2 advmss, 2 x the aggregate's
// length) (tcp_grow_window per skb): two 500-byte segments as one skb add
// 2000 bytes where two skbs would add 4000 (advmss 1000, no timestamps);
// held out-of-order data grows it with SACK only and not when it is
// already held (tcp_data_queue_ofo drops such an skb); an aggregate
// ending in a FIN is acknowledged once. The window starts at 65535 bytes
// (the buffer is 1 MiB). And the growth comes before the aggregate's ACK
// is decided: 100 one-segment aggregates into a 200000-byte buffer are
// acknowledged at once for 67 growths and the first data's 16 quick ACKs
// (TestQuickAck's count), where a growth after the decision would leave
// 15 of those.
func TestGrowWindowGRO(t *testing.T) {
	const init = 65535
	at := func(ms int) des.Time { return des.Time(des.Duration(ms) * des.Millisecond) }
	pair := func(ms int, seq uint32, skb uint64, last netsim.Flags) []skbIn {
		return []skbIn{{at(ms), seq, 500, skb, 0}, {at(ms), seq + 500, 500, skb, last}}
	}
	var five []skbIn
	for i := 0; i < 5; i++ {
		five = append(five, pair(i+1, 1+uint32(i)*1000, uint64(i+1), 0)...)
	}
	tests := []struct {
		name string
		sack bool
		segs []skbIn
		want unit.Bytes
		acks int // ACKs sent, when > 0
	}{
		{"five two-segment aggregates", true, five, init + 5*2000, 0},
		{"held out of order without SACK", false,
			[]skbIn{{at(1), 1, 1000, 0, 0}, {at(2), 2001, 1000, 0, 0}, {at(3), 3001, 1000, 0, 0}}, init + 2000, 0},
		{"held out of order with SACK, then again", true,
			[]skbIn{{at(1), 1, 1000, 0, 0}, {at(2), 2001, 1000, 0, 0}, {at(3), 2001, 1000, 0, 0}}, init + 2*2000, 0},
		{"an aggregate ending in a FIN", true, pair(1, 1, 7, netsim.FIN), init + 2000, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{MSS: 1000, RcvBuf: 1 << 20, SndBuf: 1 << 20, DelayedACK: true, QuickAck: true, WindowScaling: true, SACK: tt.sack}
			sent, c := traceHostReceiver(t, cfg, Host{GRO: true}, tt.segs)
			if got := c.rcv.rcvSsthresh; got != tt.want {
				t.Errorf("rcv_ssthresh %d, want %d", got, tt.want)
			}
			if tt.acks > 0 && len(sent) != tt.acks {
				t.Errorf("%d ACKs, want %d", len(sent), tt.acks)
			}
		})
	}
	t.Run("growth before the ACK's decision", func(t *testing.T) {
		var segs []skbIn
		var plain []segIn
		for i := 0; i < 100; i++ {
			segs = append(segs, skbIn{at(i), 1 + uint32(i)*1000, 1000, uint64(i + 1), 0})
			plain = append(plain, segIn{at(i), 1 + uint32(i)*1000, 1000})
		}
		cfg := Config{MSS: 1000, RcvBuf: 200000, SndBuf: 1 << 20, DelayedACK: true, QuickAck: true, WindowScaling: true}
		sent, _ := traceHostReceiver(t, cfg, Host{GRO: true}, segs)
		checkImmediateACKs(t, plain, sent, func(i int) bool { return i < 83 || (i-83)%2 == 1 })
	})
}
