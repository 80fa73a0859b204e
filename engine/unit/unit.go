package unit

import "github.com/crosslink-sim/crosslink/engine/des"

// Bytes is a count of bytes. Quotients of two Bytes (a window in segments)
// and products with a dimensionless factor stay Bytes in Go's type system;
// the type's purpose is to keep byte counts apart from times and rates.
type Bytes int64

// Common sizes.
const (
	Byte Bytes = 1
	KiB        = 1024 * Byte
	MiB        = 1024 * KiB
)

// BitRate is a rate in bits per second. It is a float64 because pacing
// and delivery rates are quotients; link rates are whole numbers of bit/s,
// which float64 holds exactly up to 2^53 bit/s.
type BitRate float64

// Units of BitRate.
const (
	BitPerSecond BitRate = 1
	Kbps                 = 1e3 * BitPerSecond
	Mbps                 = 1e6 * BitPerSecond
	Gbps                 = 1e9 * BitPerSecond
)

// bitsPerByte and nsPerSecond are the two factors the conversions apply.
const (
	bitsPerByte = 8
	nsPerSecond = 1e9
)

// BytesPerSecond returns the rate of b bytes per second.
func BytesPerSecond(b float64) BitRate { return BitRate(b * bitsPerByte) }

// BytesPerSecond returns r in bytes per second.
func (r BitRate) BytesPerSecond() float64 { return float64(r) / bitsPerByte }

// BitsPerSecond returns r as a plain number of bit/s, for output columns
// and formulas outside the engine.
func (r BitRate) BitsPerSecond() float64 { return float64(r) }

// TxTime returns the time to send n bytes at r, truncated to the
// nanosecond: n*8/r seconds. r must be positive.
func (r BitRate) TxTime(n Bytes) des.Duration {
	return des.Duration(float64(n) * (bitsPerByte * nsPerSecond) / float64(r))
}

// BytesIn returns the bytes sent in d at r, not rounded: r*d/8.
func (r BitRate) BytesIn(d des.Duration) float64 {
	return float64(r) * float64(d) / (bitsPerByte * nsPerSecond)
}

// RateOf returns the rate of n bytes delivered over d: n*8/d. d must be
// positive.
func RateOf(n Bytes, d des.Duration) BitRate {
	return BitRate(float64(n) * (bitsPerByte * nsPerSecond) / float64(d))
}

// Scale returns r times the dimensionless gain g (a pacing or cwnd gain).
func (r BitRate) Scale(g float64) BitRate { return BitRate(g * float64(r)) }

// ScaledRateOf returns g*n/d, the gain applied to the bytes before the
// division, in the order of the formulas that scale a window by a gain
// and divide by an RTT (BBR's initial pacing rate, Linux's
// tcp_update_pacing_rate). d must be positive.
func ScaledRateOf(g float64, n Bytes, d des.Duration) BitRate {
	return BitRate(g * float64(n) * (bitsPerByte * nsPerSecond) / float64(d))
}
