package workload

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math/rand/v2"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp"
)

// Bursts is an on/off sending application on one persistent TCP
// connection: bursts arrive as a Poisson process of rate Rate per second,
// each of an exponentially distributed number of bytes with mean
// MeanBytes, and are written to the connection at once. The offered load
// is Rate x MeanBytes x 8 bit/s; between bursts the connection idles (the
// "off" periods), and when bursts come faster than TCP drains them they
// queue in the send buffer. It is the cross traffic of document 001's
// terrestrial MBone path: web and file transfers sharing each router.
//
// Its random numbers come from Rand alone (one stream per source).
type Bursts struct {
	Conn      *tcp.Conn
	Rate      float64 // bursts per second
	MeanBytes float64
	Rand      *rand.Rand

	Written unit.Bytes // bytes written so far
	Count   int64      // bursts so far
	stop    des.Time
	s       *des.Scheduler
}

// Start opens the connection at now and schedules the first burst; no
// burst starts at or after stop.
func (b *Bursts) Start(s *des.Scheduler, now, stop des.Time) error {
	if !(b.Rate > 0) || !(b.MeanBytes >= 1) || b.Rand == nil {
		return fmt.Errorf("workload: bursts: rate %g/s and mean %g bytes need a random stream and positive values", b.Rate, b.MeanBytes)
	}
	b.s, b.stop = s, stop
	b.Conn.Connect(now)
	b.next(now)
	return nil
}

func (b *Bursts) next(now des.Time) {
	at := now.Add(des.FromSeconds(b.Rand.ExpFloat64() / b.Rate))
	if at < b.stop {
		b.s.Schedule(at, b, 0, 0)
	}
}

// Handle implements des.Handler: a burst arrives.
func (b *Bursts) Handle(now des.Time, kind int, arg uint64) {
	n := max(1, unit.Bytes(b.Rand.ExpFloat64()*b.MeanBytes+0.5))
	b.Conn.Write(now, n)
	b.Written += n
	b.Count++
	b.next(now)
}

// Established implements tcp.App.
func (b *Bursts) Established(now des.Time) {}

// Delivered implements tcp.App.
func (b *Bursts) Delivered(now des.Time, off, n unit.Bytes) {}

// PeerClosed implements tcp.App.
func (b *Bursts) PeerClosed(now des.Time) {}

// Done implements tcp.App.
func (b *Bursts) Done(now des.Time) {}
