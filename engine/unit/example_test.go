package unit_test

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// The types keep bytes, rates and times apart. Each of these lines, if
// uncommented, fails to compile:
//
//	var cwnd unit.Bytes = 10 * 1460
//	var rtt des.Duration = 25 * des.Millisecond
//	_ = cwnd + rtt                   // mismatched types unit.Bytes and des.Duration
//	var rate unit.BitRate = cwnd     // cannot use cwnd (unit.Bytes) as unit.BitRate
//	var now des.Time = rtt           // cannot use rtt (des.Duration) as des.Time
//	_ = now + rtt                    // mismatched types des.Time and des.Duration: use now.Add(rtt)
//
// The conversions are methods, so no caller multiplies by 8 or 1e9.
func Example() {
	rate := 10 * unit.Mbps
	rtt := 100 * des.Millisecond
	fmt.Println(rate.TxTime(1500))
	fmt.Println(rate.BytesIn(rtt), "bytes in flight at one BDP")
	fmt.Println(unit.RateOf(125000, rtt) == rate)
	// Output:
	// 1.2ms
	// 125000 bytes in flight at one BDP
	// true
}
