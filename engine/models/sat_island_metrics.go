package models

import (
	"math"

	"github.com/crosslink-sim/crosslink/vocab"
)

// metrics lays out the main row of a finished run.
func (sc *satScenario) metrics() []vocab.Value {
	c := sc.c
	span := c.duration.Sub(c.warmup).Seconds()
	out := make([]vocab.Value, siCount)
	probeGood, probeTime := math.NaN(), math.NaN()
	if x := sc.probe.x; x != nil {
		if x.DoneAt > 0 {
			probeTime = x.DoneAt.Sub(x.Start).Seconds()
			probeGood = rateOver(x.Size, probeTime).BitsPerSecond()
		} else {
			probeGood = rateOver(x.Got, c.duration.Sub(x.Start).Seconds()).BitsPerSecond()
		}
	}
	st := sc.fwd.Stats()
	out[siChannelGoodput] = vocab.F(rateOver(sc.ch.BytesAfter, span).BitsPerSecond())
	out[siGoodput] = vocab.F(rateOver(sc.ch.BytesAfter+sc.probe.after, span).BitsPerSecond())
	out[siFlowsPerS] = vocab.F(float64(sc.ch.FlowsAfter) / span)
	out[siFlows] = vocab.I(sc.ch.FlowsAfter)
	out[siProbeGoodput] = naNull(probeGood)
	out[siProbeTime] = naNull(probeTime)
	out[siProbeBytes] = vocab.I(int64(sc.probe.bytes))
	out[siLoss] = vocab.F(sc.q.lossFrac())
	out[siOffered] = vocab.I(sc.q.offered)
	qm, q95 := sc.q.occupancy(sc.s.Now())
	out[siQueueMean] = vocab.F(qm)
	out[siQueueP95] = vocab.F(q95)
	out[siUtil] = vocab.F(float64(st.Busy-sc.atWarm.Busy) / float64(c.duration.Sub(c.warmup)))
	fct := math.NaN()
	if sc.ch.ShortN > 0 {
		fct = sc.ch.ShortSum.Seconds() / float64(sc.ch.ShortN)
	}
	out[siShortFCT] = naNull(fct)
	out[siShortN] = vocab.I(sc.ch.ShortN)
	meanSize := math.NaN()
	if sc.ch.Started > 0 {
		meanSize = float64(sc.ch.SizeSum) / float64(sc.ch.Started)
	}
	out[siMeanSize] = naNull(meanSize)
	out[siSatDelay] = vocab.F(c.satDelay.Seconds())
	out[siConns] = vocab.I(int64(sc.ex.Opened))
	to := sc.ex.Timeouts()
	out[siRTOs] = vocab.I(to.RTOs - sc.warmTimeouts.RTOs)
	out[siRTOEpisodes] = vocab.I(to.Episodes - sc.warmTimeouts.Episodes)
	var rec int64
	over := 0.0
	if sc.enc != nil {
		rec = sc.enc.recovered
		if sc.enc.dataBytes > 0 {
			over = float64(sc.enc.parityBytes) / float64(sc.enc.dataBytes)
		}
	}
	out[siRecovered] = vocab.I(rec)
	out[siOverhead] = vocab.F(over)
	resid := float64(sc.q.dropped)
	if sc.enc != nil {
		resid -= float64(sc.enc.recoveredPayload)
	}
	if sc.q.offered > 0 {
		resid /= float64(sc.q.offered)
	} else {
		resid = 0
	}
	out[siResidual] = vocab.F(resid)
	out[siEvents] = vocab.I(int64(sc.net.Events()))
	return out
}
