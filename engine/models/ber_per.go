package models

import (
	"context"

	"github.com/crosslink-sim/crosslink/engine"
	"github.com/crosslink-sim/crosslink/engine/phy"
)

// BERPER is the "ber-per" model: the packet error rate that a given bit
// error rate causes, worst case (Eq. 8 of document 000, one bit error per
// damaged packet) and with independent bit errors, for a packet size and a
// line code. It draws document 000's Fig. 3 with BER as the swept axis,
// which fso-ber cannot do since there BER follows from the distance.
type BERPER struct {
	schema *engine.Schema
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
	params := make([]engine.Param, bpParams)
	params[bpBER] = engine.Param{Name: "ber", Kind: engine.Float,
		Default: engine.F(1e-9), Min: 1e-30, Max: 1,
		Doc: "bit error rate of the line"}
	params[bpMTU] = engine.Param{Name: "mtu", Kind: engine.Int, Unit: engine.Byte,
		Default: engine.I(1500), Min: 1, Max: 1 << 24,
		Doc: "packet size in bytes before line coding (Ethernet 1500 B, jumbo 9000 B)"}
	params[bpLineCode] = engine.Param{Name: "line_code", Kind: engine.String,
		Default: engine.S("64b66b"), Choices: []string{"64b66b", "none"},
		Doc: "64b66b: 66 line bits per 64 data bits (10 Gigabit Ethernet, Eq. 8); none: 8 bits per byte"}
	metrics := make([]engine.Metric, bpMetrics)
	metrics[bpWireSize] = engine.Metric{Name: "wire_size", Kind: engine.Float, Unit: engine.Bit,
		Doc: "line bits of one packet: 8 mtu 66/64 with 64b66b, 8 mtu without"}
	metrics[bpPERWorst] = engine.Metric{Name: "per_worst", Kind: engine.Float,
		Doc: "worst-case packet error rate ber x wire_size (Eq. 8), clamped at 1"}
	metrics[bpPERExact] = engine.Metric{Name: "per_exact", Kind: engine.Float,
		Doc: "packet error rate with independent bit errors, 1 - (1-ber)^wire_size"}
	return &BERPER{schema: &engine.Schema{
		Name:    "ber-per",
		Version: 1,
		Doc: "Packet error rate from bit error rate: the worst-case linear relation of document 000 " +
			"(Eq. 8, Fig. 3) beside the exact 1-(1-BER)^bits. Closed form; the seed is unused.",
		Params:  params,
		Metrics: metrics,
	}}
}

// Schema returns the model's schema.
func (m *BERPER) Schema() *engine.Schema { return m.schema }

// Cost returns a constant: every scenario costs the same.
func (m *BERPER) Cost(engine.Params) float64 { return 1 }

// Run computes one scenario.
func (m *BERPER) Run(_ context.Context, p engine.Params, _ uint64) (engine.Result, error) {
	ber := p.Float("ber")
	mtu := p.Float("mtu")
	bits := 8 * mtu
	if p.Str("line_code") == "64b66b" {
		bits = phy.WireBits(mtu)
	}
	out := make([]engine.Value, bpMetrics)
	out[bpWireSize] = engine.F(bits)
	out[bpPERWorst] = engine.F(phy.PERWorst(ber, bits))
	out[bpPERExact] = engine.F(phy.PERExact(ber, bits))
	return engine.Result{Metrics: out}, nil
}
