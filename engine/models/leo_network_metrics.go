package models

import (
	"math"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/vocab"
)

// The positions of leo-network's main-row metrics.
const (
	lnSatellites = iota
	lnISLs
	lnStations
	lnPairs
	lnFlows
	lnGoodput
	lnTCPGoodput
	lnUDPGoodput
	lnPktSent
	lnPktReceived
	lnDropOverflow
	lnDropAQM
	lnDropCorrupt
	lnDropNoRoute
	lnPktHeld
	lnRetrans
	lnSpurious
	lnRTOs
	lnPathChanges
	lnRouteSwitches
	lnHandoverGaps
	lnSteps
	lnCapFrac
	lnFlowMean
	lnFlowMin
	lnJain
	lnCount
)

// Handle writes the samples of the interval ending now.
func (sc *lnScenario) Handle(now des.Time, kind int, arg uint64) {
	dt := now.Sub(sc.lastAt)
	sc.lastAt = now
	fw := sc.fw
	ns := fw.Satellites()
	pos := fw.Positions()
	links := sc.net.Links()
	for len(sc.last) < len(links) {
		sc.last = append(sc.last, netsim.LinkStats{})
	}
	// ISL directions are the first links (leonet.New builds them first),
	// k's two at 2k and 2k+1; ground links follow.
	gl := sc.ln.GroundLinks()
	for i, l := range links {
		st := l.Stats()
		prev := sc.last[i]
		sc.last[i] = st
		sent := st.Sent - prev.Sent
		if sent == 0 && st.Queued == 0 && st.Dropped() == prev.Dropped() {
			continue
		}
		var from, to int
		var length, ber float64
		kindName := "isl"
		if k := i / 2; k < sc.ln.ISLs() {
			isl := fw.ISLs()[k]
			from, to = isl[0], isl[1]
			if i%2 == 1 {
				from, to = to, from
			}
			if length = fw.ISLLength(k); math.IsInf(length, 1) {
				length = 0 // down
			}
			if l := sc.phys[k][i%2]; sc.jitter.Sigma > 0 && sc.c.islErrors {
				ber = sc.terms[l.term].MeanBER(float64(l.km)*1e3, sc.jitter)
			} else {
				ber = l.ber
			}
		} else {
			g := gl[i-2*sc.ln.ISLs()]
			from, to, kindName = ns+g.Station, g.Sat, "gsl-up"
			if !g.Up {
				from, to, kindName = g.Sat, ns+g.Station, "gsl-down"
			}
			// 0 once the station no longer sees the satellite (the
			// link drains at its last delay).
			if l, ok := groundLen(fw, g.Station, g.Sat); ok {
				length = l
			}
		}
		lat, lon := midLatLon(sc, pos, from, to)
		sc.links = append(sc.links, []vocab.Value{vocab.F(now.Seconds()), vocab.S(l.Name()), vocab.S(kindName),
			vocab.I(int64(from)), vocab.I(int64(to)), vocab.F(lat), vocab.F(lon), vocab.F(math.Floor(lat/10)*10 + 5),
			vocab.F(float64(st.Busy-prev.Busy) / float64(dt)), vocab.F(l.Rate().BitsPerSecond()), vocab.F(length), vocab.F(ber),
			vocab.I(int64(st.Queued)), vocab.I(sent),
			vocab.I(st.Drops[netsim.DropOverflow] - prev.Drops[netsim.DropOverflow]),
			vocab.I(st.Drops[netsim.DropAQM] - prev.Drops[netsim.DropAQM]),
			vocab.I(st.Drops[netsim.DropCorrupt] - prev.Drops[netsim.DropCorrupt])})
	}
	for i := range sc.pairs {
		p := &sc.pairs[i]
		var srtt float64
		var cwnd, got int64
		first := true
		for _, fi := range p.flows {
			f := sc.flows[fi]
			if f.udp != nil {
				got += int64(f.udp.got)
				continue
			}
			got += int64(f.sink.Got)
			if first {
				srtt, cwnd, first = f.src.SRTT().Seconds(), int64(f.src.CC().Cwnd), false
			}
		}
		hops := 0
		if p.have {
			hops = len(p.path) - 1
		}
		sc.samples = append(sc.samples, []vocab.Value{vocab.F(now.Seconds()), vocab.I(int64(i)), vocab.F(p.rtt),
			vocab.I(int64(hops)), vocab.I(p.changes), vocab.F(srtt), vocab.I(cwnd), vocab.I(got)})
	}
	if kind == 0 && now < sc.c.duration {
		sc.s.After(sc.c.sample, sc, 0, 0)
	}
}

// groundLen is the current length of the ground link between station s
// and satellite k, if the station sees it.
func groundLen(fw *orbit.Forwarding, s, k int) (float64, bool) {
	sats, lens := fw.GroundLinks(s)
	for i, x := range sats {
		if int(x) == k {
			return lens[i], true
		}
	}
	return 0, false
}

// midLatLon is the geocentric latitude and longitude of the midpoint of
// the segment between nodes a and b (Earth-fixed positions), degrees.
func midLatLon(sc *lnScenario, pos []orbit.Vec, a, b int) (float64, float64) {
	p := func(v int) orbit.Vec {
		if ns := sc.fw.Satellites(); v >= ns {
			return sc.c.earth.Position(sc.c.stations[v-ns])
		}
		return pos[v]
	}
	x, y := p(a), p(b)
	m := orbit.Vec{(x[0] + y[0]) / 2, (x[1] + y[1]) / 2, (x[2] + y[2]) / 2}
	return orbit.Degrees(math.Asin(m[2] / m.Norm())), orbit.Degrees(math.Atan2(m[1], m[0]))
}

// flowRows is the flows table.
func (sc *lnScenario) flowRows() [][]vocab.Value {
	c := sc.c
	span := (c.duration - c.warmup).Seconds()
	var rows [][]vocab.Value
	for i, f := range sc.flows {
		p := sc.pairs[f.pair]
		src, dst := c.stations[p.a].Name, c.stations[p.b].Name
		var row []vocab.Value
		if f.udp != nil {
			row = []vocab.Value{vocab.I(int64(i)), vocab.I(int64(f.pair)), vocab.S(src), vocab.S(dst), vocab.S("udp"), vocab.S(""),
				vocab.F(f.start.Seconds()), vocab.F(rateOver(f.udp.gotWarm, span).BitsPerSecond()), vocab.I(int64(f.udp.got)),
				vocab.I(f.udp.sent), vocab.I(0), vocab.I(0), vocab.I(0), vocab.F(0), vocab.F(0)}
		} else {
			st := f.src.Stats
			mean := 0.0
			if st.RTTSamples > 0 {
				mean = (st.RTTSum / des.Duration(st.RTTSamples)).Seconds()
			}
			row = []vocab.Value{vocab.I(int64(i)), vocab.I(int64(f.pair)), vocab.S(src), vocab.S(dst), vocab.S("tcp"), vocab.S(f.cca),
				vocab.F(f.start.Seconds()), vocab.F(rateOver(f.sink.AfterWarmup, span).BitsPerSecond()), vocab.I(int64(f.sink.Got)),
				vocab.I(st.DataSegsSent), vocab.I(st.RetransSegs), vocab.I(f.watch.dup), vocab.I(st.RTOs),
				vocab.F(mean), vocab.F(st.RTTMax.Seconds())}
		}
		rows = append(rows, row)
	}
	return rows
}

// metrics is the main row.
func (sc *lnScenario) metrics() []vocab.Value {
	c := sc.c
	out := make([]vocab.Value, lnCount)
	span := (c.duration - c.warmup).Seconds()
	var tcpB, udpB unit.Bytes
	var sent, retrans, spur, rtos, changes int64
	for _, f := range sc.flows {
		if f.udp != nil {
			udpB += f.udp.gotWarm
			sent += f.udp.sent
			continue
		}
		tcpB += f.sink.AfterWarmup
		sent += f.src.Stats.SegsSent + f.dst.Stats.SegsSent
		retrans += f.src.Stats.RetransSegs
		spur += f.watch.dup
		rtos += f.src.Stats.RTOs
	}
	for _, p := range sc.pairs {
		changes += p.changes
	}
	var n, sum, sum2 float64
	minG := math.Inf(1)
	for _, f := range sc.flows {
		if f.udp == nil {
			g := rateOver(f.sink.AfterWarmup, span).BitsPerSecond()
			n, sum, sum2, minG = n+1, sum+g, sum2+g*g, math.Min(minG, g)
		}
	}
	if n > 0 {
		out[lnFlowMean], out[lnFlowMin] = vocab.F(sum/n), vocab.F(minG)
		jain := 0.0
		if sum2 > 0 {
			jain = sum * sum / (n * sum2)
		}
		out[lnJain] = vocab.F(jain)
	} else {
		out[lnFlowMean], out[lnFlowMin], out[lnJain] = vocab.F(0), vocab.F(0), vocab.F(0)
	}
	var drops [netsim.NumDropReasons]int64
	var held, received, noRoute int64
	for _, l := range sc.net.Links() {
		st := l.Stats()
		for r, x := range st.Drops {
			drops[r] += x
		}
		held += int64(st.Queued + st.InFlight)
	}
	for _, n := range sc.net.Nodes() {
		st := n.Stats()
		received += st.Received
		noRoute += st.NoRoute
	}
	capFrac := 1.0
	if c.modes != nil && sc.capSteps > 0 {
		capFrac = sc.capSum / float64(sc.capSteps)
	}
	out[lnSatellites] = vocab.I(int64(sc.fw.Satellites()))
	out[lnISLs] = vocab.I(int64(sc.ln.ISLs()))
	out[lnStations] = vocab.I(int64(sc.fw.Stations()))
	out[lnPairs] = vocab.I(int64(len(sc.pairs)))
	out[lnFlows] = vocab.I(int64(len(sc.flows)))
	out[lnGoodput] = vocab.F(rateOver(tcpB+udpB, span).BitsPerSecond())
	out[lnTCPGoodput] = vocab.F(rateOver(tcpB, span).BitsPerSecond())
	out[lnUDPGoodput] = vocab.F(rateOver(udpB, span).BitsPerSecond())
	out[lnPktSent] = vocab.I(sent)
	out[lnPktReceived] = vocab.I(received)
	out[lnDropOverflow] = vocab.I(drops[netsim.DropOverflow])
	out[lnDropAQM] = vocab.I(drops[netsim.DropAQM])
	out[lnDropCorrupt] = vocab.I(drops[netsim.DropCorrupt])
	out[lnDropNoRoute] = vocab.I(noRoute + drops[netsim.DropNoRoute])
	out[lnPktHeld] = vocab.I(held)
	out[lnRetrans] = vocab.I(retrans)
	out[lnSpurious] = vocab.I(spur)
	out[lnRTOs] = vocab.I(rtos)
	out[lnPathChanges] = vocab.I(changes)
	out[lnRouteSwitches] = vocab.I(sc.ln.Switches())
	out[lnHandoverGaps] = vocab.I(sc.ln.HandoverGaps())
	out[lnSteps] = vocab.I(sc.ln.Steps())
	out[lnCapFrac] = vocab.F(capFrac)
	return out
}
