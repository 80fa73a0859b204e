package models

import (
	"context"
	"fmt"

	"github.com/crosslink-sim/crosslink/engine"
	"github.com/crosslink-sim/crosslink/engine/des"
)

// TCPTransfer is the "tcp-transfer" model: the response time and
// throughput of one TCP transfer of a given size over a link, from the
// first SYN until the last byte reaches the receiving application (the
// response-time and throughput tables of document 001, Zhang et al.).
// With handshake false the connection starts established, as transaction
// TCP (RFC 1644) saves the handshake's round trip.
type TCPTransfer struct{ schema *engine.Schema }

// NewTCPTransfer returns the tcp-transfer model.
func NewTCPTransfer() *TCPTransfer { return &TCPTransfer{schema: tcpTransferSchema()} }

// Schema implements engine.Model.
func (m *TCPTransfer) Schema() *engine.Schema { return m.schema }

// Cost is the transfer size.
func (m *TCPTransfer) Cost(p engine.Params) float64 { return float64(p.Int("size")) }

func tcpTransferSchema() *engine.Schema {
	params := append(tcpLinkParams(),
		engine.Param{Name: "size", Kind: engine.Int, Unit: engine.Byte, Default: engine.I(10240), Min: 1, Max: 1 << 40,
			Doc: "bytes transferred"},
		engine.Param{Name: "handshake", Kind: engine.Bool, Default: engine.B(true),
			Doc: "open with the three-way handshake; false starts established (T/TCP style)"},
	)
	return &engine.Schema{
		Name:    "tcp-transfer",
		Version: 1,
		Doc: "One TCP transfer of a given size: response time (first SYN to last byte delivered), " +
			"throughput (size over response time), completion (FIN acknowledged) and retransmissions.",
		Params:  params,
		Metrics: tcpMetrics(),
	}
}

// transferLimit bounds a transfer's virtual time (a day), so a scenario
// that cannot finish (a PER near 1) still ends.
const transferLimit = des.Time(86400 * des.Second)

// Run implements engine.Model. goodput is size*8/response_time.
func (m *TCPTransfer) Run(ctx context.Context, p engine.Params, seed uint64) (engine.Result, error) {
	c := readTCPConfig(p)
	c.size = p.Int("size")
	c.flows, c.channels = 1, 1
	c.noHandshk = !p.Bool("handshake")
	sc, err := buildTCP(c, seed)
	if err != nil {
		return engine.Result{}, err
	}
	if err := sc.run(ctx, transferLimit); err != nil {
		return engine.Result{}, err
	}
	f := sc.flows[0]
	if !f.source.Finished() {
		return engine.Result{}, fmt.Errorf("models: tcp-transfer: %d of %d bytes delivered in %v", f.sink.Got, c.size, transferLimit)
	}
	metrics, err := sc.metrics(c, f.source.DoneAt)
	if err != nil {
		return engine.Result{}, err
	}
	rt := (f.sink.LastAt - f.source.StartAt).Seconds()
	metrics[tmGoodput] = engine.F(float64(c.size) * 8 / rt)
	return engine.Result{Metrics: metrics}, nil
}
