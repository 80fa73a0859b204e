package models

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// The bottleneck queue limit of tcp-bulk, tcp-transfer, tcp-compete and
// sat-island, in one of two forms with one name and meaning in each: queue
// in packets, or queue_bdp as a fraction of the bandwidth-delay product.
// Setting both is an error, so that one limit has one scenario id.
// sat-island also takes its limit in bytes (buffer), as document 004
// gives it, exclusive with both.

// queueParam is the limit in packets; def is the model's default.
func queueParam(def int64) vocab.Param {
	return vocab.Param{Name: "queue", Kind: vocab.Int, Unit: vocab.Packet, Default: vocab.I(def), Min: 0, Max: 1e7,
		Doc: "bottleneck queue limit in packets; 0: set by queue_bdp, or unlimited if that is 0 too (set one of the two; sat-island: or by buffer, and document 004's buffer if all are 0)"}
}

// queueBDPParam is the limit as a fraction of the BDP; def is the
// model's default.
func queueBDPParam(def float64) vocab.Param {
	return vocab.Param{Name: "queue_bdp", Kind: vocab.Float, Unit: vocab.Fraction, Default: vocab.F(def), Min: 0, Max: 1000,
		Doc: "bottleneck queue limit as a fraction of the bandwidth-delay product rate x delay (the one-way propagation delay, as document 002 sizes its queues), " +
			"written in percent and counted in full-size packets (mss + 40 header bytes, + 12 with timestamps), rounded, at least 1; 0: set by queue (set one of the two)"}
}

// fullPacket is the wire size of a full data segment.
func fullPacket(p vocab.Params) int {
	n := int(p.Int("mss")) + tcp.HeaderBytes
	if p.Bool("timestamps") {
		n += 12
	}
	return n
}

// queueLimit returns the limit in packets that queue or queue_bdp sets
// for a bottleneck of rate bit/s and one-way delay; 0 is unlimited.
func queueLimit(p vocab.Params, rate float64, delay des.Duration) (int, error) {
	pk, frac := p.Int("queue"), p.Float("queue_bdp")
	switch {
	case pk > 0 && frac > 0:
		return 0, fmt.Errorf("queue %d and queue_bdp %g%%: set the queue limit in packets or as a fraction of the BDP, not both (the other to 0)", pk, frac*100)
	case frac > 0:
		if delay <= 0 {
			return 0, fmt.Errorf("queue_bdp %g%% needs a delay > 0 (the BDP is rate x delay)", frac*100)
		}
		lim, err := netsim.BDPLimit(frac, unit.BitRate(rate), delay, unit.Bytes(fullPacket(p)))
		return lim.Packets, err
	}
	return int(pk), nil
}
