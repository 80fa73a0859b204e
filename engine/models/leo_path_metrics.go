package models

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// Handle samples the time series.
func (sc *leoScenario) Handle(now des.Time, kind int, arg uint64) {
	w := sc.w
	rtt, hops := 0.0, 0
	if w.ok {
		rtt, hops = 2*w.cur.Length/orbit.LightSpeed, len(w.cur.Hops)
	}
	row := func(flow int, cwnd int64, srtt float64, delivered int64) []vocab.Value {
		return []vocab.Value{vocab.F(now.Seconds()), vocab.I(int64(flow)), vocab.F(rtt), vocab.I(int64(hops)),
			vocab.F(w.worstBER), vocab.I(w.changes), vocab.I(cwnd), vocab.F(srtt), vocab.I(delivered)}
	}
	if len(sc.flows) == 0 {
		sc.series = append(sc.series, row(-1, 0, 0, 0))
	}
	for i, f := range sc.flows {
		sc.series = append(sc.series, row(i, int64(f.src.CC().Cwnd), f.src.SRTT().Seconds(), int64(f.sink.Got)))
	}
	sc.s.After(sc.sample, sc, 0, 0)
}

func (sc *leoScenario) metrics(end des.Time) []vocab.Value {
	w := sc.w
	out := make([]vocab.Value, lpCount)
	var got, retrans, rtos, rec, spur, reor int64
	for _, f := range sc.flows {
		got += int64(f.sink.Got)
		retrans += f.src.Stats.RetransSegs
		rtos += f.src.Stats.RTOs
		rec += f.src.Stats.FastRecoveries
		spur += f.watch.dup
		reor += f.watch.reor
	}
	var qd, gd int64
	for _, l := range sc.ground {
		st := l.Stats()
		qd += st.Drops[netsim.DropOverflow]
		gd += st.Drops[netsim.DropCorrupt]
	}
	frac := func(a, b int64) float64 {
		if b == 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	rttMean := 0.0
	if w.reachable > 0 {
		rttMean = w.rttSum / float64(w.reachable)
	}
	out[lpGoodput] = vocab.F(rateOver(unit.Bytes(got), end.Seconds()).BitsPerSecond())
	out[lpBytes] = vocab.I(got)
	out[lpRetrans] = vocab.I(retrans)
	out[lpSpurious] = vocab.I(spur)
	out[lpRTOs] = vocab.I(rtos)
	out[lpRecoveries] = vocab.I(rec)
	out[lpReordered] = vocab.I(reor)
	out[lpPathChanges] = vocab.I(w.changes)
	out[lpRTTMin] = vocab.F(w.rttMin)
	out[lpRTTMean] = vocab.F(rttMean)
	out[lpRTTMax] = vocab.F(w.rttMax)
	out[lpHopsMin] = vocab.I(int64(w.hopsMin))
	out[lpHopsMax] = vocab.I(int64(w.hopsMax))
	out[lpWorstBER] = vocab.F(w.maxWorstBER)
	out[lpExceedFrac] = vocab.F(frac(w.exceed, w.reachable))
	out[lpCrossExceed] = vocab.F(frac(w.crossExceed, w.crossTotal))
	out[lpISLDrops] = vocab.I(sc.fwd.lost + sc.rev.lost)
	out[lpQueueDrops] = vocab.I(qd)
	out[lpGroundDrops] = vocab.I(gd)
	out[lpUnreachable] = vocab.F(1 - frac(w.reachable, w.updates))
	out[lpNoPathDrops] = vocab.I(sc.fwd.noWay + sc.rev.noWay)
	out[lpSatellites] = vocab.I(int64(w.cons.Len()))
	return out
}
