package models

import (
	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// rateOver is the rate of n bytes over seconds s. It divides before it
// scales to bits, which is exact in binary, so the rate is the same
// float64 as n*8/s.
func rateOver(n unit.Bytes, s float64) unit.BitRate {
	return unit.BytesPerSecond(float64(n) / s)
}

// metrics fills the shared metric columns; goodput counts from warmup.
func (sc *tcpScenario) metrics(warmup, elapsed des.Time) ([]vocab.Value, error) {
	out := make([]vocab.Value, tmCount)
	var delivered, after unit.Bytes
	var st tcp.Stats
	rtoSum := 0.0
	completion, response := 0.0, 0.0
	finished := true
	for _, f := range sc.flows {
		if err := f.sink.Check(f.source.Size, f.source.Finished()); err != nil {
			return nil, fmt.Errorf("models: flow %d: %w", f.src.Flow(), err)
		}
		delivered += f.sink.Got
		after += f.sink.AfterWarmup
		fs := f.src.Stats
		st.RetransSegs += fs.RetransSegs
		st.RetransBytes += fs.RetransBytes
		st.FastRecoveries += fs.FastRecoveries
		st.RTOs += fs.RTOs
		st.FirstRTOs += fs.FirstRTOs
		st.FirstRTOTime += fs.FirstRTOTime
		st.RTTSamples += fs.RTTSamples
		st.RTTSum += fs.RTTSum
		st.RTTMax = max(st.RTTMax, fs.RTTMax)
		rtoSum += float64(f.src.RTO()) / 1e9
		if f.source.Finished() {
			completion = max(completion, f.source.DoneAt.Sub(f.source.StartAt).Seconds())
			response = max(response, f.sink.LastAt.Sub(f.source.StartAt).Seconds())
		} else {
			finished = false
		}
	}
	if !finished {
		completion, response = math.NaN(), math.NaN()
	}
	span := elapsed.Sub(warmup).Seconds()
	goodput := 0.0
	if span > 0 {
		goodput = rateOver(after, span).BitsPerSecond()
	}
	var txBytes unit.Bytes
	var sent, deliv, dropped, inflight, overflow, corrupt int64
	var qdSum float64
	var qdN int64
	var qdMax des.Duration
	for _, l := range sc.forward {
		ls := l.Stats()
		txBytes += ls.TransmittedBytes
		qdSum += float64(ls.QueueDelayMean) * float64(ls.Transmitted)
		qdN += ls.Transmitted
		qdMax = max(qdMax, ls.QueueDelayMax)
	}
	for _, l := range sc.all {
		ls := l.Stats()
		sent += ls.Sent
		deliv += ls.Delivered
		dropped += ls.Dropped()
		inflight += int64(ls.Queued + ls.InFlight)
		overflow += ls.Drops[netsim.DropOverflow]
		corrupt += ls.Drops[netsim.DropCorrupt]
	}
	rttMean := 0.0
	if st.RTTSamples > 0 {
		rttMean = float64(st.RTTSum) / float64(st.RTTSamples) / 1e9
	}
	qdMean := 0.0
	if qdN > 0 {
		qdMean = qdSum / float64(qdN) / 1e9
	}
	out[tmGoodput] = vocab.F(goodput)
	out[tmWireRate] = vocab.F(rateOver(txBytes, elapsed.Seconds()).BitsPerSecond())
	out[tmBytesDelivered] = vocab.I(int64(delivered))
	out[tmRetransSegs] = vocab.I(st.RetransSegs)
	out[tmRetransBytes] = vocab.I(int64(st.RetransBytes))
	out[tmFastRecoveries] = vocab.I(st.FastRecoveries)
	out[tmRTOs] = vocab.I(st.RTOs)
	out[tmDropsOverflow] = vocab.I(overflow)
	out[tmDropsCorrupt] = vocab.I(corrupt)
	out[tmRTTMean] = vocab.F(rttMean)
	out[tmRTTMax] = vocab.F(float64(st.RTTMax) / 1e9)
	out[tmRTO] = vocab.F(rtoSum / float64(max(len(sc.flows), 1)))
	out[tmRTOEpisodes] = vocab.I(st.FirstRTOs)
	out[tmT0] = vocab.Value{} // null: no timeout, no T0
	if st.FirstRTOs > 0 {
		out[tmT0] = vocab.F(float64(st.FirstRTOTime) / float64(st.FirstRTOs) / 1e9)
	}
	out[tmQueueDelayMean] = vocab.F(qdMean)
	out[tmQueueDelayMax] = vocab.F(qdMax.Seconds())
	out[tmCompletion] = naNull(completion)
	out[tmResponse] = naNull(response)
	out[tmPktsSent] = vocab.I(sent)
	out[tmPktsDelivered] = vocab.I(deliv)
	out[tmPktsDropped] = vocab.I(dropped)
	out[tmPktsInFlight] = vocab.I(inflight)
	return out, nil
}

// flowRows are the rows of tcp-bulk's flows table; goodput counts over
// span seconds after the warm-up.
func (sc *tcpScenario) flowRows(span float64) [][]vocab.Value {
	rows := make([][]vocab.Value, len(sc.flows))
	for i, f := range sc.flows {
		fs := f.src.Stats
		rtt := 0.0
		if fs.RTTSamples > 0 {
			rtt = float64(fs.RTTSum) / float64(fs.RTTSamples) / 1e9
		}
		ct := vocab.Value{} // null while unfinished
		if f.source.Finished() {
			ct = vocab.F(f.source.DoneAt.Sub(f.source.StartAt).Seconds())
		}
		rows[i] = []vocab.Value{
			vocab.I(int64(i)), vocab.F(rateOver(f.sink.AfterWarmup, span).BitsPerSecond()), vocab.I(int64(f.sink.Got)),
			vocab.I(fs.RetransSegs), vocab.I(fs.FastRecoveries), vocab.I(fs.RTOs), vocab.F(rtt), ct,
		}
	}
	return rows
}
