package phy_test

import (
	"fmt"

	"github.com/crosslink-sim/crosslink/engine/phy"
)

// The standard amplified line (80 km SSMF spans, NF 5.5 dB, 90 x 32 GBd
// on 50 GHz) at 0 dBm per channel: gOSNR in 0.1 nm falls by 3 dB per
// doubling of the span count, and the loss of 1500-byte packets through a
// 32 GBd DP-QPSK receiver with document 002's fitted 1.19 dB penalty
// goes from nothing to everything within a few spans.
func ExampleAmplifiedLink_OSNR() {
	rx := phy.Receiver{Modulation: phy.DPQPSK, SymbolRate: 32e9, Penalty: 1.19}
	for _, n := range []int{10, 16, 18, 20, 22, 25} {
		o := phy.StandardLink(n).OSNR(1e-3)
		ber := rx.BER(o.GOSNR, phy.RefBandwidth)
		fmt.Printf("%2d spans  gOSNR %5.2f dB (ASE only %5.2f)  peak %5.2f dB at %5.2f dBm  BER %.2e  loss %.2e\n",
			n, phy.DB(o.GOSNR), phy.DB(o.OSNRASE), phy.DB(o.PeakGOSNR), phy.DBm(o.OptimumLaunchPower),
			ber, phy.PER(ber, 1500, false))
	}
	// Output:
	// 10 spans  gOSNR 21.96 dB (ASE only 26.45)  peak 22.83 dB at -1.87 dBm  BER 4.27e-12  loss 5.28e-08
	// 16 spans  gOSNR 19.92 dB (ASE only 24.41)  peak 20.79 dB at -1.87 dBm  BER 3.35e-08  loss 4.15e-04
	// 18 spans  gOSNR 19.41 dB (ASE only 23.90)  peak 20.27 dB at -1.87 dBm  BER 1.79e-07  loss 2.21e-03
	// 20 spans  gOSNR 18.95 dB (ASE only 23.44)  peak 19.82 dB at -1.87 dBm  BER 6.86e-07  loss 8.46e-03
	// 22 spans  gOSNR 18.54 dB (ASE only 23.03)  peak 19.40 dB at -1.87 dBm  BER 2.07e-06  loss 2.53e-02
	// 25 spans  gOSNR 17.98 dB (ASE only 22.47)  peak 18.85 dB at -1.87 dBm  BER 7.83e-06  loss 9.24e-02
}
