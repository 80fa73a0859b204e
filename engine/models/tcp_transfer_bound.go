package models

import (
	"math"

	"github.com/crosslink-sim/crosslink/closedform"
	"github.com/crosslink-sim/crosslink/engine/tcp"
)

// bound is the closed-form window-limited performance of a lossless
// transfer.
type bound struct {
	window     int64   // usable window in bytes (whole segments)
	rtt0       float64 // s: 2 delay + tx(full segment) + tx(ACK)
	throughput float64 // bit/s of payload
	response   float64 // s
}

// usableWindow is the largest flight the sender keeps: the receive
// buffer, capped at 65535 bytes without RFC 7323 window scaling and at
// 65535 << shift with it (the advertised field is shifted right, so the
// window is rounded down to a multiple of 2^shift, section 2.3), rounded
// down to whole segments because the sender sends only full segments
// while more data waits (RFC 9293 section 3.8.6.2.1), and at least one.
func usableWindow(buf int64, scaling bool, mss int64) int64 {
	var shift uint
	if scaling {
		for shift < 14 && buf > 65535<<shift {
			shift++
		}
	}
	w := min(buf, 65535<<shift) >> shift << shift
	return max(mss, w/mss*mss)
}

// transferBound computes by hand what a lossless transfer can do over one
// link of rate R and one-way delay d, with MSS-sized segments of
// MSS+40 bytes on the wire and 40-byte ACKs (52-byte headers with
// timestamps, 8 more with T/TCP's CC option), one ACK per segment:
//
//   - throughput: the sender keeps at most W bytes in flight and each
//     window takes RTT0 = 2d + tx(MSS+40) + tx(40) to be acknowledged, so
//     goodput <= min(R x MSS/(MSS+40), W/RTT0) (the window-limited bound
//     document 001 reasons with: throughput = window / round trip until
//     the link is full).
//   - response time: the handshake (SYN and SYN-ACK: 2d plus their
//     serialisation; none for T/TCP's accelerated open, RFC 1644, whose
//     first segment carries data the server accepts at once), then
//     rounds: round k sends w_k segments and lasts
//     RTT0, w_1 = iw and w_{k+1} = min(2 w_k, W/MSS) (slow start adds one
//     segment per ACK, RFC 5681 section 3.1), until the remaining
//     segments fit in one round or a round fills the pipe (w_k tx >=
//     RTT0), after which the rest leaves back to back at R; the last byte
//     arrives d after its serialisation ends. The slow-start time this
//     sums is document 001's RTT x log2(B/MSS).
func transferBound(c transferConfig) bound {
	conn := c.link.conn()
	mss := int64(conn.MSS)
	rate := c.link.rate.BitsPerSecond()
	d := c.link.delay.Seconds()
	// bytes over the rate in bytes per second: the same float64 as
	// 8*bytes/rate, since dividing the rate by 8 is exact in binary.
	bytesPerSecond := c.link.rate.BytesPerSecond()
	tx := func(bytes float64) float64 { return bytes / bytesPerSecond }
	// hdr is the header of every segment after the handshake: 40 bytes,
	// and 12 more with timestamps (RFC 7323 section 3.2's 10, padded).
	hdr := int64(tcp.HeaderBytes)
	if conn.Timestamps {
		hdr += 12
	}
	if c.noHandshake {
		hdr += 8 // T/TCP's CC option, aligned (RFC 1644)
	}
	b := bound{window: usableWindow(int64(conn.RcvBuf), conn.WindowScaling, mss)}
	b.rtt0 = 2*d + tx(float64(mss+hdr)) + tx(float64(hdr))
	b.throughput = math.Min(rate*float64(mss)/float64(mss+hdr), closedform.WindowRate(float64(b.window), b.rtt0))

	t := 0.0
	if !c.noHandshake {
		// MSS option 4 bytes, window scale 3, SACK-permitted 2, padded
		// to a multiple of 4 (RFC 9293 section 3.1).
		opt := 4
		if conn.WindowScaling {
			opt += 3
		}
		if conn.SACK {
			opt += 2
		}
		if conn.Timestamps {
			opt += 10
		}
		syn := float64(tcp.HeaderBytes + (opt+3)&^3)
		t = 2*d + 2*tx(syn)
	}
	iw := int64(conn.InitialWindow)
	if iw == 0 {
		iw = min(4*mss, max(2*mss, 4380)) / mss // RFC 3390
	}
	wmax := b.window / mss
	w := min(iw, wmax)
	left := int64(c.size) // bytes not yet sent
	full := tx(float64(mss + hdr))
	for {
		segs := (left + mss - 1) / mss
		if segs <= w || float64(w)*full >= b.rtt0 {
			// Last round, or the pipe is full: the rest leaves back to back.
			t += tx(float64(left+segs*hdr)) + d
			break
		}
		left -= w * mss
		t += b.rtt0
		w = min(2*w, wmax)
	}
	b.response = t
	return b
}
