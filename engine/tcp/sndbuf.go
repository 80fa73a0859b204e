package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// The send buffer and the application's writes into it.
//
// A socket holds the application's data from the write until the peer
// acknowledges it: Linux charges it to sk_wmem_queued against sk_sndbuf
// (SO_SNDBUF; tcp_sendmsg_locked waits in sk_stream_wait_memory when it is
// full), ns-3 keeps it in TcpTxBuffer, whose Add refuses a write larger
// than the room left (TcpTxBuffer::Available, TcpSocket::SndBufSize,
// 131072 bytes by default). Config.SendBuffer is that limit: bytes
// written and not yet acknowledged (sent or not) never exceed it.
//
// An application blocked on a full buffer writes again when an ACK frees
// room: ns-3's TcpSocketBase::NewAck calls NotifySend, on which
// BulkSendApplication::DataSend resumes its loop of SendSize-byte writes
// before ReceivedAck's SendPendingData transmits; Linux wakes the writer
// from tcp_check_space (sk_stream_write_space). The connection models the
// blocked writer itself (writeQueue), so every application gets the limit
// without code of its own: WritePieces(n, piece) is a loop of piece-byte
// writes, each entering whole or waiting (TcpTxBuffer::Add's
// all-or-nothing), Write(n) one write that enters as far as room allows
// (a blocking send(2) copies what fits and sleeps for the rest). The
// refill runs on every ACK that advances SND.UNA, before the transmission
// that ACK allows, as in ns-3; Linux wakes the writer only once a third of
// the buffer is free (sk_stream_is_writeable), which is not modelled.
//
// Writes made at one instant are one stretch of the send queue: the loop
// of WritePieces hands over every piece that fits before anything is
// transmitted, so the data leaves in full segments, not one segment per
// write. ns-3 does this by deferring SendPendingData one time step in
// TcpSocketBase::Send ("to allow the application to fill the buffer");
// Linux by appending each write to the tail skb up to the size goal
// (tcp_sendmsg_locked) and by Nagle's algorithm (tcp_nagle_test) and
// autocorking (tcp_should_autocork) holding a short tail while earlier
// data is unacknowledged or still queued. It is always on: both stacks do
// it, and a model in which every small write left as its own segment
// would match neither (it cost issue 15's comparison 14 % of a 100 KB
// response time). A refill of fewer bytes than a segment is sent as a
// short segment when the window allows, without Nagle's algorithm (ns-3's
// TcpNoDelay default; Linux with TCP_NODELAY), so a sender limited by its
// send buffer sends more, smaller segments, as ns-3 does.

// pendingWrite is an application write not yet wholly in the send buffer:
// n bytes, in writes of piece bytes (0: one write).
type pendingWrite struct {
	n, piece unit.Bytes
}

// writeQueue is the application's writes waiting for room, oldest first.
type writeQueue struct {
	q     []pendingWrite
	bytes unit.Bytes // sum of n
}

// WritePieces queues n bytes written piece bytes at a time, as an
// application looping on send(2) with a piece-byte buffer (ns-3's
// BulkSendApplication with SendSize piece); piece 0 is one write of n
// bytes. Without a send buffer limit everything enters at once. The pieces
// that fit are sent together once all of them are in (see above); the
// rest enter as ACKs free room.
func (c *Conn) WritePieces(now des.Time, n, piece unit.Bytes) {
	if n <= 0 {
		return
	}
	if piece < 0 || piece >= n {
		piece = 0
	}
	w := &c.blocked
	if k := len(w.q); k > 0 && w.q[k-1].piece == piece {
		w.q[k-1].n += n
	} else {
		w.q = append(w.q, pendingWrite{n: n, piece: piece})
	}
	w.bytes += n
	c.fillSendBuffer()
	if c.state == stateEstablished {
		c.snd.output(now)
		c.snd.tlpSchedule(now)
	}
}

// SendBufferHeld returns the bytes in the send buffer: written, not yet
// acknowledged.
func (c *Conn) SendBufferHeld() unit.Bytes { return max(c.snd.written-c.snd.unaOff, 0) }

// Blocked returns the bytes the application has written that wait for
// room in the send buffer.
func (c *Conn) Blocked() unit.Bytes { return c.blocked.bytes }

// fillSendBuffer moves waiting writes into the send buffer while they fit
// (whole pieces; a write without pieces as far as room allows).
func (c *Conn) fillSendBuffer() {
	w := &c.blocked
	lim := c.cfg.SendBuffer
	for len(w.q) > 0 {
		p := &w.q[0]
		var take unit.Bytes
		switch {
		case lim <= 0:
			take = p.n
		case p.piece == 0:
			take = min(p.n, lim-c.SendBufferHeld())
		default:
			// Whole pieces while they fit, then the short last piece
			// if it is the rest of the write.
			room := lim - c.SendBufferHeld()
			take = min(p.n/p.piece, room/p.piece) * p.piece
			if rest := p.n - take; rest < p.piece && rest <= room-take {
				take = p.n
			}
		}
		if take <= 0 {
			return
		}
		c.snd.written += take
		p.n -= take
		w.bytes -= take
		if p.n > 0 {
			return
		}
		w.q = w.q[1:]
	}
	w.q = w.q[:0]
}
