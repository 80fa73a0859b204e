package models

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/engine/workload"
	"github.com/crosslink-sim/crosslink/vocab"
)

// videoResult lays out the main row and the time series of a finished
// run.
func videoResult(c videoConfig, path *netsim.Path, video *workload.Video, rcv *workload.VideoReceiver, cross []*crossFlow) (vocab.Result, error) {
	duration := c.duration
	series := rcv.Series(video.SentAt, video.Sent, c.interval, duration)
	rows := make([][]vocab.Value, len(series))
	jsum := 0.0
	for i, x := range series {
		rows[i] = []vocab.Value{
			vocab.F(x.Start.Seconds()), vocab.F(x.Loss), vocab.F(x.Jitter.Seconds()), vocab.F(x.Bandwidth),
			vocab.F(x.FrameRate), vocab.F(x.MarkerRate), vocab.I(x.Sent), vocab.I(x.Lost),
		}
		jsum += x.Jitter.Seconds()
	}
	// The means count every arrival, those of the drain time included
	// (the last frames arrive a path delay after the sender stops).
	var bits, frames, marked float64
	for _, x := range rcv.Series(video.SentAt, video.Sent, duration.Sub(0)+drainTime, duration.Add(drainTime)) {
		bits += x.Bandwidth * (duration.Sub(0) + drainTime).Seconds()
		frames += x.FrameRate * (duration.Sub(0) + drainTime).Seconds()
		marked += x.MarkerRate * (duration.Sub(0) + drainTime).Seconds()
	}
	sec := duration.Seconds()
	loss := 0.0
	if video.Sent > 0 {
		loss = 1 - float64(rcv.Received())/float64(video.Sent)
	}
	dMean, dMax := rcv.Delays()
	var crossBytes unit.Bytes
	for _, f := range cross {
		if err := f.sink.Check(workload.Unlimited, false); err != nil {
			return vocab.Result{}, fmt.Errorf("models: multicast-video: cross flow %d: %w", f.src.Flow(), err)
		}
		crossBytes += f.sink.Got
	}
	var drops int64
	for _, l := range path.Forward {
		drops += l.Stats().Dropped()
	}
	metrics := []vocab.Value{
		vocab.F(loss), vocab.F(jsum / float64(max(1, len(series)))), vocab.F(rcv.MaxJitter().Seconds()),
		vocab.F(bits / sec), vocab.F(frames / sec), vocab.F(dMean.Seconds()), vocab.F(dMax.Seconds()),
		vocab.I(video.Sent), vocab.I(rcv.Received()),
		vocab.F(rateOver(crossBytes, duration.Add(drainTime).Seconds()).BitsPerSecond() / float64(len(path.Forward))),
		vocab.I(drops), vocab.F(marked / sec),
	}
	return vocab.Result{Metrics: metrics, Tables: [][][]vocab.Value{rows}}, nil
}
