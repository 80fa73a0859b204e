// Package unit holds the engine's quantity types other than time: Bytes,
// a count of bytes (windows, thresholds, segment sizes, bytes in flight,
// delivered and lost, buffer limits), and BitRate, a rate in bit/s (link
// rates, pacing rates, delivery-rate samples). Simulated instants and spans
// are des.Time and des.Duration.
//
// The types are distinct so that a unit mix-up does not compile: a Bytes
// cannot be added to a des.Duration, and a pacing rate cannot be used as a
// byte count. The conversions between them live on the types, so callers
// never multiply by 8 or 1e9 themselves:
//
//	r.TxTime(n)      // des.Duration to send n bytes at r
//	r.BytesIn(d)     // bytes sent in d at r
//	RateOf(n, d)     // the rate of n bytes delivered over d
//	BytesPerSecond(b), r.BytesPerSecond()
//
// Their floating-point arithmetic scales by 8 (exact in binary) and by
// 1e9, in the order the formulas of the cited specifications use, so a
// rate held in bit/s gives bit for bit the results a rate held in bytes/s
// gave.
//
// The package depends only on des, so that netsim, tcp and cc can all
// import it. Reading and printing quantities as specs write them ("1Gbps",
// "64KiB") is sweep/units' job, not this package's.
package unit
