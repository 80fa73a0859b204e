package netsim

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// BDP returns the bandwidth-delay product of a path in bytes: rate times
// the round-trip time.
func BDP(rate unit.BitRate, rtt des.Duration) float64 {
	return rate.BytesPerSecond() * rtt.Seconds()
}

// Limit is a queue limit in packets and in bytes; DropTail, RED, CoDel and
// FQ-CoDel take one or the other.
type Limit struct {
	Packets int
	Bytes   unit.Bytes
}

// DropTail returns a DropTail queue limited in packets only, the way Linux
// pfifo and tc's "limit" are set.
func (l Limit) DropTail() DropTail { return DropTail{Packets: l.Packets} }

// BDPLimit returns the limit of a queue that holds fraction times the
// bandwidth-delay product of a path of the given rate and RTT, for packets
// of packetSize bytes (document 002 sizes its bottleneck queue as q % of
// the BDP: 8.33 x (q/100) x 10 packets, that is 100 Mbit/s x 10 ms of
// 1500-byte packets).
//
// Rounding: Bytes is fraction x BDP rounded to the nearest byte and
// Packets is fraction x BDP / packetSize rounded to the nearest packet
// (halves away from zero), each at least one packet (packetSize bytes) so
// that a queue can always hold the packet being received.
func BDPLimit(fraction float64, rate unit.BitRate, rtt des.Duration, packetSize unit.Bytes) (Limit, error) {
	if !(fraction > 0) || math.IsInf(fraction, 0) || rate <= 0 || rtt <= 0 || packetSize <= 0 {
		return Limit{}, fmt.Errorf("netsim: bdp limit: need fraction, rate, rtt and packet size > 0, got %g, %g bit/s, %v, %d B",
			fraction, rate, rtt, packetSize)
	}
	b := fraction * BDP(rate, rtt)
	if b > math.MaxInt32*float64(packetSize) {
		return Limit{}, fmt.Errorf("netsim: bdp limit: %g bytes is too large a queue", b)
	}
	return Limit{
		Packets: max(1, int(math.Round(b/float64(packetSize)))),
		Bytes:   max(packetSize, unit.Bytes(math.Round(b))),
	}, nil
}
