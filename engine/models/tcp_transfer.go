package models

import (
	"context"
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/vocab"
)

// TCPTransfer is the "tcp-transfer" model: the response time and
// throughput of one TCP transfer of a given size over a link, from the
// first SYN until the last byte reaches the receiving application (the
// response-time and throughput table of document 001, Zhang et al.).
// With handshake false it is transaction TCP's accelerated open (T/TCP,
// RFC 1644) when the server's CC cache passes the TAO test: the first
// segment carries data the server accepts at once, so the handshake's
// round trip is saved, and every segment carries the 8-byte CC option.
// Slow start is unchanged (RFC 1644 does not touch congestion control).
// The gateway in front
// of the link is DropTail or RED (Floyd and Jacobson 1993).
//
// Beside the simulated metrics it reports the window-limited bounds in
// closed form (see transferBound), so a figure can draw both.
type TCPTransfer struct{ schema *vocab.Schema }

// NewTCPTransfer returns the tcp-transfer model.
func NewTCPTransfer() *TCPTransfer { return &TCPTransfer{schema: tcpTransferSchema()} }

// Schema implements vocab.Model.
func (m *TCPTransfer) Schema() *vocab.Schema { return m.schema }

// transferLimit bounds a transfer's virtual time (a day), so a scenario
// that cannot finish (a PER near 1) still ends.
const transferLimit = des.Time(86400 * des.Second)

// Run implements vocab.Model. goodput is size*8/response_time.
func (m *TCPTransfer) Run(ctx context.Context, p vocab.Params, seed uint64) (vocab.Result, error) {
	c := decodeTransfer(p)
	run := tcpRun{link: c.link, size: c.size, flows: 1, channels: 1, noHandshake: c.noHandshake}
	var err error
	if run.queue, err = c.link.queue.limit(c.link.rate, c.link.delay, c.link.host.fullPacket()); err != nil {
		return vocab.Result{}, fmt.Errorf("models: tcp-transfer: %w", err)
	}
	if run.fwdQueue, err = c.gateway(run.queue); err != nil {
		return vocab.Result{}, fmt.Errorf("models: tcp-transfer: %w", err)
	}
	sc, err := buildTCP(run, seed)
	if err != nil {
		return vocab.Result{}, err
	}
	if err := sc.run(ctx, transferLimit); err != nil {
		return vocab.Result{}, err
	}
	f := sc.flows[0]
	if !f.source.Finished() {
		return vocab.Result{}, fmt.Errorf("models: tcp-transfer: %d of %d bytes delivered in %v", f.sink.Got, c.size, transferLimit)
	}
	metrics, err := sc.metrics(0, f.source.DoneAt)
	if err != nil {
		return vocab.Result{}, err
	}
	rt := f.sink.LastAt.Sub(f.source.StartAt).Seconds()
	metrics[tmGoodput] = vocab.F(rateOver(c.size, rt).BitsPerSecond())
	b := transferBound(c)
	metrics = append(metrics, vocab.F(b.throughput), vocab.F(b.response))
	return vocab.Result{Metrics: metrics}, nil
}
