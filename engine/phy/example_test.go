package phy_test

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/phy"
)

// The BER of the Table 1 link of document 000 at the distances of its
// Table 2, for both detection schemes at 1 Gbps (Be = 2 GHz), with Eq. 7,
// and the worst-case PER of a 1500 B packet (Eq. 8).
func ExampleLink_Budget() {
	for _, det := range []phy.Detection{phy.Direct, phy.Coherent} {
		l := phy.Table1()
		l.Detection = det
		for _, km := range []float64{16000, 25000, 50000, 80000} {
			b := l.Budget(km*1e3, 2e9)
			ber := phy.BEREq7(b.SNR)
			fmt.Printf("%-8v %5.0f km  PR %6.2f dBm  SNR %7.3g  BER %.2e  PER %.2e\n",
				det, km, phy.DBm(b.ReceivedPower), b.SNR, ber, phy.PER(ber, 1500, true))
		}
	}
	// Output:
	// direct   16000 km  PR -35.90 dBm  SNR    52.6  BER 2.09e-13  PER 2.59e-09
	// direct   25000 km  PR -39.78 dBm  SNR    8.82  BER 1.63e-03  PER 1.00e+00
	// direct   50000 km  PR -45.80 dBm  SNR   0.551  BER 4.08e-01  PER 1.00e+00
	// direct   80000 km  PR -49.88 dBm  SNR  0.0841  BER 5.00e-01  PER 1.00e+00
	// coherent 16000 km  PR -35.90 dBm  SNR     376  BER 4.49e-84  PER 5.55e-80
	// coherent 25000 km  PR -39.78 dBm  SNR     154  BER 1.14e-35  PER 1.42e-31
	// coherent 50000 km  PR -45.80 dBm  SNR    38.5  BER 2.79e-10  PER 3.46e-06
	// coherent 80000 km  PR -49.88 dBm  SNR      15  BER 5.57e-05  PER 6.89e-01
}
