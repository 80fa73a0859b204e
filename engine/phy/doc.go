// Package phy holds the closed-form physics of crosslink's links and the
// step from a link's noise to packet loss, for two kinds of link:
//
//   - the free-space optical (FSO) inter-satellite link: its link budget,
//     its detection noise and the SNR to BER mapping of on-off keying
//     (fso.go, ber.go), after Rodriguez-Colina et al., "A bit error rate
//     analysis for TCP traffic over parallel free space photonics",
//     Telecommunication Systems, 2013, section 4 (Eqs. 1-8, Table 1),
//     cited below as "document 000";
//   - the amplified fibre link: a chain of fibre spans and optical
//     amplifiers whose generalised OSNR counts amplified spontaneous
//     emission (ASE) and the nonlinear interference of the closed-form
//     incoherent GN model (optical.go, gn.go), the OSNR to SNR to BER
//     mapping of OOK, DP-QPSK and DP-16QAM receivers with an implementation
//     penalty (modulation.go, osnr.go), and the operating points of
//     document 002 ("On the interplay of congestion and OSNR degradation
//     for TCP over optical networks") the penalty is fitted to.
//
// Both end in a BER, which the BER to PER mapping turns into the loss
// probability a packet-level simulator draws from; time.go has the
// propagation and transmission times of a packet.
//
// Everything is in SI units (metres, seconds, watts, bit/s, hertz, kelvin,
// ohms, amperes; dB where a field says so) and plain float64: the package
// knows nothing of vocab.Value or of sweeps, so the packet simulator and
// the sweepable models share the same formulas.
//
// Document 000's Table 1 has typos (Planck's constant printed as
// 6.26e-34 J s, Boltzmann's as 1.386504e-23 J/K, efficiencies as
// "0.75 %"); Constants offers both the CODATA 2018 values and the printed
// ones, so that the document's curves can be compared with either.
package phy
