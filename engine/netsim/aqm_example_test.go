package netsim_test

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/netsim"
)

// Document 002's bottleneck queue at q = 50 % of the BDP of a 100 Mbit/s
// path with a 10 ms RTT and 1500-byte packets: 8.33 x 0.5 x 10 = 41.65,
// 42 packets (the exact BDP is 83.33 packets, 125000 bytes). The limit
// then sizes a DropTail or an AQM.
func ExampleBDPLimit() {
	lim, err := netsim.BDPLimit(0.5, 100e6, 10*des.Millisecond, 1500)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(lim.Packets, "packets,", lim.Bytes, "bytes")
	for _, q := range []netsim.QueueModel{
		lim.DropTail(),
		netsim.RED{MinTh: float64(lim.Packets) / 4, MaxTh: float64(lim.Packets) * 3 / 4, Gentle: true, LimitPackets: lim.Packets},
		netsim.CoDel{Limit: lim.Packets},
		netsim.FQCoDel{Limit: lim.Packets},
	} {
		fmt.Printf("%T %+v\n", q, q)
	}
	// Output:
	// 42 packets, 62500 bytes
	// netsim.DropTail {Packets:42 Bytes:0}
	// netsim.RED {MinTh:10.5 MaxTh:31.5 MaxP:0 Weight:0 Gentle:true ByteQueue:false ByteMode:false MaxPacket:0 MeanPacket:0 LimitPackets:42 LimitBytes:0}
	// netsim.CoDel {Target:0s Interval:0s MTU:0 Limit:42}
	// netsim.FQCoDel {Flows:0 Quantum:0 Limit:42 Target:0s Interval:0s MTU:0 BatchDrop:false}
}
