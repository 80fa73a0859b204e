package models

import (
	"fmt"
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Jain returns Jain's fairness index (sum x)^2 / (n sum x^2) of xs
// (Jain, Chiu and Hawe, DEC-TR-301, 1984): 1 when all are equal, 1/n when
// one takes everything. It is NaN for no values or all zeros.
func Jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if len(xs) == 0 || s2 == 0 {
		return math.NaN()
	}
	return s * s / (float64(len(xs)) * s2)
}

// collect turns a finished run into the main row and the per-flow rows.
func (m *TCPCompete) collect(run *competeRun, cn *competeNet, rate float64, duration, warmup des.Time, limit int, lossData float64) (vocab.Result, error) {
	span := duration.Sub(warmup).Seconds()
	nAlg := len(m.algos)
	groupThr := make([]float64, nAlg)
	groupRetr := make([]float64, nAlg)
	groupN := make([]int, nAlg)
	index := make(map[string]int, nAlg)
	for i, a := range m.algos {
		index[a] = i
	}
	var thr []float64
	var total float64
	var retr, rtos, episodes, rttN int64
	var rttSum des.Duration
	flows := make([][]vocab.Value, len(run.flows))
	for i, f := range run.flows {
		if err := f.sink.Check(f.source.Size, false); err != nil {
			return vocab.Result{}, fmt.Errorf("flow %d: %w", i, err)
		}
		st := f.src.Stats
		x := rateOver(f.sink.AfterWarmup, span).BitsPerSecond()
		thr = append(thr, x)
		total += x
		retr += st.RetransSegs
		rtos += st.RTOs
		episodes += st.FirstRTOs
		rttN += st.RTTSamples
		rttSum += st.RTTSum
		k, ok := index[f.cca]
		if !ok {
			panic("models: bug: algorithm " + f.cca + " accepted by cc.New but missing from cc.Names")
		}
		groupThr[k] += x
		groupRetr[k] += float64(st.RetransSegs)
		groupN[k]++
		rtt := vocab.Value{} // null: a flow that never sampled an RTT has no mean
		if st.RTTSamples > 0 {
			rtt = vocab.F(float64(st.RTTSum) / float64(st.RTTSamples) / 1e9)
		}
		flows[i] = []vocab.Value{
			vocab.I(int64(i)), vocab.S(f.cca), vocab.F(f.start.Seconds()), vocab.F(x),
			vocab.I(int64(f.sink.Got)), vocab.I(st.RetransSegs), vocab.I(st.RTOs), rtt,
		}
	}
	var means []float64
	for k := range m.algos {
		if groupN[k] > 0 {
			means = append(means, groupThr[k]/float64(groupN[k]))
		}
	}
	var overflow, corrupt, aqm int64
	for _, l := range cn.links {
		st := l.Stats()
		overflow += st.Drops[netsim.DropOverflow]
		corrupt += st.Drops[netsim.DropCorrupt]
		aqm += st.Drops[netsim.DropAQM]
	}
	bst := cn.bottleneck.Stats()
	rttMean := vocab.Value{} // null without any RTT sample
	if rttN > 0 {
		rttMean = vocab.F(float64(rttSum) / float64(rttN) / 1e9)
	}
	out := make([]vocab.Value, tcFixed+3*nAlg)
	out[tcGoodput] = vocab.F(total)
	out[tcUtilisation] = vocab.F(total / rate)
	out[tcJainFlows] = naNull(Jain(thr)) // null when no flow delivered: no shares to compare
	out[tcJainAlgos] = naNull(Jain(means))
	out[tcRetrans] = vocab.I(retr)
	out[tcRTOs] = vocab.I(rtos)
	out[tcRTOEpisodes] = vocab.I(episodes)
	out[tcDropsOverflow] = vocab.I(overflow)
	out[tcDropsCorrupt] = vocab.I(corrupt)
	out[tcDropsAQM] = vocab.I(aqm)
	out[tcLossData] = vocab.F(lossData)
	out[tcBackbonePackets] = vocab.I(bst.Sent)
	out[tcQueueLimit] = vocab.I(int64(limit))
	out[tcRTTMean] = rttMean
	out[tcQueueDelayMean] = vocab.F(bst.QueueDelayMean.Seconds())
	out[tcEvents] = vocab.I(int64(run.net.Events()))
	for k := range m.algos {
		// Null, not NaN, for an algorithm not in the run: not applicable.
		out[tcFixed+k], out[tcFixed+nAlg+k], out[tcFixed+2*nAlg+k] = vocab.Value{}, vocab.Value{}, vocab.Value{}
		if groupN[k] > 0 {
			out[tcFixed+k], out[tcFixed+nAlg+k] = vocab.F(groupThr[k]), vocab.I(int64(groupRetr[k]))
			out[tcFixed+2*nAlg+k] = vocab.F(groupRetr[k] / float64(groupN[k]) / duration.Seconds())
		}
	}
	return vocab.Result{Metrics: out, Tables: [][][]vocab.Value{flows}}, nil
}
