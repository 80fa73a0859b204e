package workload

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp"
)

// Unlimited is the size a timed bulk source writes: more than any run can
// send (2^50 bytes).
const Unlimited unit.Bytes = 1 << 50

// Sink is a receiving application that reads everything at once and
// checks the stream is contiguous and in order.
type Sink struct {
	// Warmup is the time from which delivered bytes count as goodput.
	Warmup des.Time

	Got         unit.Bytes // in-order bytes delivered
	AfterWarmup unit.Bytes // bytes delivered at or after Warmup
	FirstAt     des.Time
	LastAt      des.Time
	ClosedAt    des.Time // when the peer's FIN arrived (0 if not)
	err         error
}

// Established implements tcp.App.
func (s *Sink) Established(now des.Time) {}

// Delivered implements tcp.App: a delivery must start where the last one
// ended.
func (s *Sink) Delivered(now des.Time, off, n unit.Bytes) {
	if off != s.Got && s.err == nil {
		s.err = fmt.Errorf("workload: delivery at stream offset %d, want %d", off, s.Got)
	}
	if s.Got == 0 {
		s.FirstAt = now
	}
	s.Got += n
	s.LastAt = now
	if now >= s.Warmup {
		s.AfterWarmup += n
	}
}

// PeerClosed implements tcp.App.
func (s *Sink) PeerClosed(now des.Time) { s.ClosedAt = now }

// Done implements tcp.App.
func (s *Sink) Done(now des.Time) {}

// Check returns an error if the stream was not contiguous or, when the
// sender closed, the total differs from want.
func (s *Sink) Check(want unit.Bytes, closed bool) error {
	if s.err != nil {
		return s.err
	}
	if closed && s.Got != want {
		return fmt.Errorf("workload: received %d bytes, sender wrote %d", s.Got, want)
	}
	if s.Got > want {
		return fmt.Errorf("workload: received %d bytes, more than the %d written", s.Got, want)
	}
	return nil
}

// Source is a sending application: it writes Size bytes once the
// connection opens (Unlimited for a timed bulk transfer) and closes after
// them if Close is set.
//
// With WriteSize 0 it hands the whole transfer to the connection at once
// (before the handshake). With WriteSize w it writes w bytes at a time
// once the connection is established, as an application looping on
// send(2) with a w-byte buffer (ns-3's BulkSendApplication, SendSize 512
// by default): the writes of that instant fill the connection's send
// buffer and leave together in full segments, and the rest follow w bytes
// at a time as ACKs free room (tcp.Conn.WritePieces; without a send
// buffer limit everything enters at once).
type Source struct {
	Conn      *tcp.Conn
	Size      unit.Bytes
	Close     bool
	WriteSize unit.Bytes

	StartAt       des.Time // when Start was called (the first SYN)
	EstablishedAt des.Time
	DoneAt        des.Time // all data and the FIN acknowledged
	finished      bool
}

// Start writes the data and opens the connection at now.
func (s *Source) Start(now des.Time) {
	s.StartAt = now
	if s.WriteSize <= 0 {
		s.Conn.Write(now, s.Size)
		if s.Close {
			s.Conn.Close(now)
		}
	}
	s.Conn.Connect(now)
}

// Established implements tcp.App: with WriteSize set, the writes start.
func (s *Source) Established(now des.Time) {
	s.EstablishedAt = now
	if s.WriteSize <= 0 {
		return
	}
	s.Conn.WritePieces(now, s.Size, s.WriteSize)
	if s.Close {
		s.Conn.Close(now)
	}
}

// Delivered implements tcp.App.
func (s *Source) Delivered(now des.Time, off, n unit.Bytes) {}

// PeerClosed implements tcp.App.
func (s *Source) PeerClosed(now des.Time) {}

// Done implements tcp.App.
func (s *Source) Done(now des.Time) { s.DoneAt = now; s.finished = true }

// Finished reports whether everything was acknowledged.
func (s *Source) Finished() bool { return s.finished }

// Wrote returns the bytes the source wrote.
func (s *Source) Wrote() unit.Bytes { return s.Size }
