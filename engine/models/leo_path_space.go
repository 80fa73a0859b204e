package models

import (
	"math"
	"math/rand/v2"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
	"github.com/crosslink-sim/crosslink/engine/orbit"
	"github.com/crosslink-sim/crosslink/engine/phy"
	"github.com/crosslink-sim/crosslink/engine/tcp"
	"github.com/crosslink-sim/crosslink/engine/unit"
	"github.com/crosslink-sim/crosslink/engine/workload"
)

// leoWorld is the moving constellation and its forwarding state.
type leoWorld struct {
	s        *des.Scheduler
	router   *orbit.Router
	cons     *orbit.Constellation
	t0       float64
	frozen   bool
	interval des.Duration

	cur, next orbit.Path
	ok        bool
	// oneWay is the current path's propagation delay, ns.
	oneWay int64

	// ISL physics.
	errors    bool
	term      phy.Terminal
	jitter    phy.Jitter
	islRate   unit.BitRate
	islSNR    []float64 // unfaded SNR of each ISL on the current path
	islBER    []float64 // unfaded BER of each
	exceedLen float64   // ISL length above which the mean PER passes the threshold
	crossISLs []int     // indices of the cross-plane ISLs
	worstBER  float64   // mean BER of the current path's longest ISL

	// Statistics over routing updates.
	updates, reachable, changes int64
	rttMin, rttMax, rttSum      float64
	hopsMin, hopsMax            int
	maxWorstBER                 float64
	exceed                      int64
	crossExceed, crossTotal     int64
}

// Handle recomputes the route (kind 0).
func (w *leoWorld) Handle(now des.Time, kind int, arg uint64) {
	w.update(now)
	if !w.frozen {
		w.s.After(w.interval, w, 0, 0)
	}
}

// update routes at now and keeps the statistics of the path.
func (w *leoWorld) update(now des.Time) {
	t := w.t0
	if !w.frozen {
		t += now.Seconds()
	}
	ok := w.router.Route(t, &w.next)
	w.updates++
	if ok != w.ok || (ok && !w.next.Same(&w.cur)) {
		if w.updates > 1 {
			w.changes++
		}
	}
	w.ok = ok
	w.cur.CopyFrom(&w.next)
	if !ok {
		return
	}
	w.reachable++
	w.oneWay = int64(math.Round(w.cur.Length / orbit.LightSpeed * 1e9))
	rtt := 2 * w.cur.Length / orbit.LightSpeed
	if w.reachable == 1 || rtt < w.rttMin {
		w.rttMin = rtt
	}
	w.rttMax = math.Max(w.rttMax, rtt)
	w.rttSum += rtt
	hops := len(w.cur.Hops)
	if w.reachable == 1 || hops < w.hopsMin {
		w.hopsMin = hops
	}
	w.hopsMax = max(w.hopsMax, hops)
	if w.errors {
		w.updateISLs()
	}
}

// updateISLs computes the BER of each ISL of the new path and counts the
// ISLs past the PER threshold.
func (w *leoWorld) updateISLs() {
	w.islSNR, w.islBER = w.islSNR[:0], w.islBER[:0]
	longest := 0.0
	for _, k := range w.cur.ISLs {
		z := w.router.ISLLength(k)
		snr := w.term.SNR(z)
		w.islSNR = append(w.islSNR, snr)
		w.islBER = append(w.islBER, phy.BERQ(snr))
		longest = math.Max(longest, z)
	}
	// Every ISL has the same terminal and jitter, so the worst is the
	// longest (the BER grows with length).
	w.worstBER = 0
	if longest > 0 {
		w.worstBER = w.term.MeanBER(longest, w.jitter)
	}
	w.maxWorstBER = math.Max(w.maxWorstBER, w.worstBER)
	if longest > w.exceedLen {
		w.exceed++
	}
	for _, k := range w.crossISLs {
		if w.router.ISLLength(k) > w.exceedLen {
			w.crossExceed++
		}
	}
	w.crossTotal += int64(len(w.crossISLs))
}

// spaceHop carries packets from one ground link to the other over the
// current path: it fixes a packet's delay and its ISL losses when the
// packet arrives, then hands it to the far ground link when the delay has
// passed. Arrivals are events of their own, so packets on a new, shorter
// path overtake those still on the old one.
type spaceHop struct {
	w     *leoWorld
	s     *des.Scheduler
	net   *netsim.Network
	down  *netsim.Link
	rng   *rand.Rand
	slots []*netsim.Packet
	free  []uint64
	lost  int64
	noWay int64
}

// Send implements netsim.Egress.
func (h *spaceHop) Send(p *netsim.Packet) {
	w := h.w
	if !w.ok {
		h.noWay++
		h.net.Free(p)
		return
	}
	delay := w.oneWay
	if n := len(w.cur.ISLs); n > 0 {
		delay += int64(n) * int64(math.Round(float64(p.Size)/w.islRate.BytesPerSecond()*1e9))
		if w.errors && h.islLoss(p.Size) {
			h.lost++
			h.net.Free(p)
			return
		}
	}
	var slot uint64
	if k := len(h.free); k > 0 {
		slot = h.free[k-1]
		h.free = h.free[:k-1]
		h.slots[slot] = p
	} else {
		slot = uint64(len(h.slots))
		h.slots = append(h.slots, p)
	}
	h.s.After(des.Duration(delay), h, 0, slot)
}

// islLoss draws whether a packet of size bytes is lost on any ISL of the
// path: on each, a pointing fade, the BER of the faded SNR and the exact
// PER of the packet.
func (h *spaceHop) islLoss(size unit.Bytes) bool {
	w := h.w
	bits := phy.WireBits(float64(size))
	for i, snr := range w.islSNR {
		ber := w.islBER[i]
		if w.jitter.Sigma > 0 {
			ber = phy.BERQ(w.term.FadedSNR(snr, w.jitter.Draw(h.rng)))
		}
		if ber == 0 {
			continue
		}
		if h.rng.Float64() < phy.PERExact(ber, bits) {
			return true
		}
	}
	return false
}

// Handle delivers a packet to the far ground link.
func (h *spaceHop) Handle(now des.Time, kind int, arg uint64) {
	p := h.slots[arg]
	h.slots[arg] = nil
	h.free = append(h.free, arg)
	h.down.Send(p)
}

// seqWatch sits in front of a receiving endpoint and classifies arriving
// data segments by their offset in the stream: seen before (a spurious
// retransmission), or a first transmission below the highest offset seen
// (overtaken: reordered). Offsets are unwrapped from the 32-bit sequence
// space around the highest one seen (RFC 9293 section 3.4: a segment is
// never more than 2^31 away from it), so streams past 4 GB count right.
type seqWatch struct {
	conn      *tcp.Conn
	isn       uint32
	seen      []uint64 // bitmap of segment offsets / mss
	mss       int64
	high      int64 // highest offset seen, unwrapped
	any       bool
	dup, reor int64
}

// Receive implements netsim.Receiver.
func (r *seqWatch) Receive(now des.Time, p *netsim.Packet) {
	r.note(p)
	r.conn.Receive(now, p)
}

// note classifies one arriving packet.
func (r *seqWatch) note(p *netsim.Packet) {
	if p.Payload > 0 {
		rel := p.Seq - r.isn - 1 // the SYN takes one sequence number
		off := r.high + int64(int32(rel-uint32(r.high)))
		if off >= 0 {
			k := off / r.mss
			for k/64 >= int64(len(r.seen)) {
				r.seen = append(r.seen, 0)
			}
			bit := uint64(1) << (k % 64)
			switch {
			case r.seen[k/64]&bit != 0:
				r.dup++
			case !p.Retransmitted && r.any && off < r.high:
				r.reor++
			}
			r.seen[k/64] |= bit
			if !r.any || off > r.high {
				r.high, r.any = off, true
			}
		}
	}
}

type leoFlow struct {
	src, dst *tcp.Conn
	source   workload.Source
	sink     workload.Sink
	watch    seqWatch
}

// exceedLength returns the ISL length above which the fade-averaged PER
// of a packet of size bytes passes threshold, by bisection on the length
// (the PER grows with it); +Inf if even 1e8 m stays below.
func exceedLength(t phy.Terminal, j phy.Jitter, size int, threshold float64) float64 {
	lo, hi := 1e3, 1e8
	if t.MeanPER(hi, j, size) <= threshold {
		return math.Inf(1)
	}
	if t.MeanPER(lo, j, size) > threshold {
		return 0
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if t.MeanPER(mid, j, size) > threshold {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}
