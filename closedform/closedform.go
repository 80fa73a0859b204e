package closedform

import "math"

// WireBits returns the bits on the wire of a packet of n bytes under
// 64B/66B line coding, 8 n 66/64: the packet size of Eq. 8 of document
// 000 (every 64 payload bits travel as a 66-bit block, IEEE 802.3
// clause 49).
func WireBits(n float64) float64 { return 8 * n * 66 / 64 }

// WindowRate returns the rate in bit/s of a sender that keeps a window of
// window bytes in flight per round trip of rtt seconds: 8 W / RTT, the
// window-limited bound on goodput.
func WindowRate(window, rtt float64) float64 { return window * 8 / rtt }

// WholeSegments returns the part of a window of window bytes that whole
// segments of mss bytes fill, floor(W/MSS) MSS: a sender does not split a
// segment to fill the last bytes of the offered window (RFC 9293 section
// 3.8.6.2.1, the sender's side of silly-window avoidance).
func WholeSegments(window, mss float64) float64 { return math.Floor(window/mss) * mss }

// BDP returns the bandwidth-delay product in bytes of a path of rate
// bit/s and round-trip (or one-way, as the caller means it) time delay
// seconds: rate delay / 8.
func BDP(rate, delay float64) float64 { return rate * delay / 8 }

// Mathis returns the loss-limited throughput in bit/s of Mathis et al.
// (1997) Eq. (3), MSS/RTT sqrt(3/2)/sqrt(p), of segments of mss bytes
// over a round trip of rtt seconds with loss probability p per segment.
func Mathis(mss, rtt, p float64) float64 { return mss * 8 / rtt * math.Sqrt(1.5/p) }

// Padhye returns the throughput in bit/s of the approximate model of
// Padhye et al. (1998), Eq. (31) without its window limit (take the
// minimum with WindowRate for a receiver window Wmax):
//
//	B(p) = MSS / (RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1 + 32 p²))
//
// for segments of mss bytes, a round trip of rtt seconds, loss indication
// probability p, b segments acknowledged per ACK and a first timeout of
// t0 seconds.
func Padhye(mss, rtt, p, b, t0 float64) float64 {
	return mss * 8 / (rtt*math.Sqrt(2*b*p/3) + t0*math.Min(1, 3*math.Sqrt(3*b*p/8))*p*(1+32*p*p))
}

// PadhyeFull returns the throughput in bit/s of the full model of Padhye
// et al. (1998), Eq. (32), which, unlike Eq. (31), keeps the receiver's
// window Wmax (in segments) and the timeout probability Q̂(w) of a window
// of w segments exact:
//
//	E[Wu] = (2+b)/(3b) + sqrt(8(1-p)/(3bp) + ((2+b)/(3b))²)
//	Q̂(w)  = min(1, (1-(1-p)³)(1+(1-p)³(1-(1-p)^(w-3))) / (1-(1-p)^w))
//	f(p)  = 1 + p + 2p² + 4p³ + 8p⁴ + 16p⁵ + 32p⁶
//
//	B = ((1-p)/p + E[Wu] + Q̂(E[Wu])/(1-p)) / (RTT(b E[Wu]/2 + 1) + Q̂(E[Wu]) T0 f(p)/(1-p))   if E[Wu] < Wmax
//	B = ((1-p)/p + Wmax + Q̂(Wmax)/(1-p)) / (RTT(b Wmax/8 + (1-p)/(p Wmax) + 2) + Q̂(Wmax) T0 f(p)/(1-p))   otherwise
//
// in segments per second, times 8 mss. Its limits are the other closed
// forms: Wmax/RTT as p goes to 0 (window-limited), Eq. (31) for a window
// that never binds and small p. p must be in (0, 1).
func PadhyeFull(mss, rtt, p, b, t0, wmax float64) float64 {
	q := 1 - p
	qhat := func(w float64) float64 {
		return math.Min(1, (1-q*q*q)*(1+q*q*q*(1-math.Pow(q, w-3)))/(1-math.Pow(q, w)))
	}
	f := 1 + p + 2*p*p + 4*math.Pow(p, 3) + 8*math.Pow(p, 4) + 16*math.Pow(p, 5) + 32*math.Pow(p, 6)
	a := (2 + b) / (3 * b)
	wu := a + math.Sqrt(8*q/(3*b*p)+a*a)
	var segs, secs float64
	if wu < wmax {
		segs = q/p + wu + qhat(wu)/q
		secs = rtt*(b*wu/2+1) + qhat(wu)*t0*f/q
	} else {
		segs = q/p + wmax + qhat(wmax)/q
		secs = rtt*(b*wmax/8+q/(p*wmax)+2) + qhat(wmax)*t0*f/q
	}
	return mss * 8 * segs / secs
}
