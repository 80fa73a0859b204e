package models

import (
	"context"

	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/vocab"
)

// BERPER is the "ber-per" model: the packet error rate that a given bit
// error rate causes, worst case (Eq. 8 of document 000, one bit error per
// damaged packet) and with independent bit errors, for a packet size and a
// line code. It draws document 000's Fig. 3 with BER as the swept axis,
// which fso-ber cannot do since there BER follows from the distance.
type BERPER struct {
	schema *vocab.Schema
}

const (
	bpBER = iota
	bpMTU
	bpLineCode
	bpParams
)

const (
	bpWireSize = iota
	bpPERWorst
	bpPERExact
	bpMetrics
)

// NewBERPER returns the ber-per model.
func NewBERPER() *BERPER {
	params := make([]vocab.Param, bpParams)
	params[bpBER] = vocab.Param{Name: "ber", Kind: vocab.Float,
		Default: vocab.F(1e-9), Min: 1e-30, Max: 1,
		Doc: "bit error rate of the line"}
	params[bpMTU] = vocab.Param{Name: "mtu", Kind: vocab.Int, Unit: vocab.Byte,
		Default: vocab.I(1500), Min: 1, Max: 1 << 24,
		Doc: "packet size in bytes before line coding (Ethernet 1500 B, jumbo 9000 B)"}
	params[bpLineCode] = vocab.Param{Name: "line_code", Kind: vocab.String,
		Default: vocab.S("64b66b"), Choices: []string{"64b66b", "none"},
		Doc: "64b66b: 66 line bits per 64 data bits (10 Gigabit Ethernet, Eq. 8); none: 8 bits per byte"}
	metrics := make([]vocab.Metric, bpMetrics)
	metrics[bpWireSize] = vocab.Metric{Name: "wire_size", Kind: vocab.Float, Unit: vocab.Bit,
		Doc: "line bits of one packet: 8 mtu 66/64 with 64b66b, 8 mtu without"}
	metrics[bpPERWorst] = vocab.Metric{Name: "per_worst", Kind: vocab.Float,
		Doc: "worst-case packet error rate ber x wire_size (Eq. 8), clamped at 1"}
	metrics[bpPERExact] = vocab.Metric{Name: "per_exact", Kind: vocab.Float,
		Doc: "packet error rate with independent bit errors, 1 - (1-ber)^wire_size"}
	return &BERPER{schema: &vocab.Schema{
		Name:    "ber-per",
		Version: 1,
		Doc: "Packet error rate from bit error rate: the worst-case linear relation of document 000 " +
			"(Eq. 8, Fig. 3) beside the exact 1-(1-BER)^bits. Closed form; the seed is unused.",
		Params:  params,
		Metrics: metrics,
	}}
}

// Schema returns the model's schema.
func (m *BERPER) Schema() *vocab.Schema { return m.schema }

// Cost returns a constant: every scenario costs the same.
func (m *BERPER) Cost(vocab.Params) float64 { return 1 }

// decodeBERPER reads ber-per's parameters: the BER and the bits a packet
// of mtu bytes puts on the wire, 8 per byte uncoded or 66 per 64 with
// 64B/66B.
func decodeBERPER(p vocab.Params) (ber, bits float64) {
	mtu := p.Float("mtu")
	bits = 8 * mtu
	if p.Str("line_code") == "64b66b" {
		bits = phy.WireBits(mtu)
	}
	return p.Float("ber"), bits
}

// Run computes one scenario.
func (m *BERPER) Run(_ context.Context, p vocab.Params, _ uint64) (vocab.Result, error) {
	ber, bits := decodeBERPER(p)
	out := make([]vocab.Value, bpMetrics)
	out[bpWireSize] = vocab.F(bits)
	out[bpPERWorst] = vocab.F(phy.PERWorst(ber, bits))
	out[bpPERExact] = vocab.F(phy.PERExact(ber, bits))
	return vocab.Result{Metrics: out}, nil
}
