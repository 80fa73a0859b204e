package models

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// The bottleneck queue limit of tcp-bulk, tcp-transfer, tcp-compete and
// sat-island, in one of two forms with one name and meaning in each: queue
// in packets, or queue_bdp as a fraction of the bandwidth-delay product.
// Setting both is an error, so that one limit has one scenario id.
// sat-island also takes its limit in bytes (buffer), as document 004
// gives it, exclusive with both.

// queueForms and satQueueForms are the schemas' exclusive groups
// (vocab.Schema.Exclusive): a spec that sets two forms is refused when it
// loads, at its lines, before any scenario runs.
func queueForms() [][]string    { return [][]string{{"queue", "queue_bdp"}} }
func satQueueForms() [][]string { return [][]string{{"buffer", "queue", "queue_bdp"}} }

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

// queueForm is the bottleneck limit as a spec gives it: packets, or a
// fraction of the BDP; both 0 is unlimited.
type queueForm struct {
	packets int
	bdp     float64
}

// decodeQueue reads queue and queue_bdp.
func decodeQueue(p vocab.Params) queueForm {
	return queueForm{packets: int(p.Int("queue")), bdp: p.Float("queue_bdp")}
}

// limit returns the limit in packets that the form sets for a bottleneck
// of the given rate and one-way delay whose full packets are full bytes
// on the wire; 0 is unlimited.
func (q queueForm) limit(rate unit.BitRate, delay des.Duration, full unit.Bytes) (int, error) {
	switch {
	case q.packets > 0 && q.bdp > 0:
		return 0, fmt.Errorf("queue %d and queue_bdp %g%%: set the queue limit in packets or as a fraction of the BDP, not both (the other to 0)", q.packets, q.bdp*100)
	case q.bdp > 0:
		if delay <= 0 {
			return 0, fmt.Errorf("queue_bdp %g%% needs a delay > 0 (the BDP is rate x delay)", q.bdp*100)
		}
		lim, err := netsim.BDPLimit(q.bdp, rate, delay, full)
		return lim.Packets, err
	}
	return q.packets, nil
}
