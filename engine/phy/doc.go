// Package phy holds the closed-form physics of crosslink's links: the
// free-space optical (FSO) link budget of an inter-satellite link, its
// detection noise, the SNR to BER mapping, the BER to PER mapping a
// packet-level simulator draws losses from, and the propagation and
// transmission times of a packet.
//
// Everything is in SI units (metres, seconds, watts, bit/s, kelvin, ohms,
// amperes) and plain float64: the package knows nothing of engine.Value or of
// sweeps, so the packet simulator and the sweepable models share the same
// formulas.
//
// The equations are those of Rodriguez-Colina et al., "A bit error rate
// analysis for TCP traffic over parallel free space photonics",
// Telecommunication Systems, 2013, section 4 (Eqs. 1-8, Table 1), cited
// below as "document 000". Its Table 1 has typos (Planck's constant printed
// as 6.26e-34 J s, Boltzmann's as 1.386504e-23 J/K, efficiencies as
// "0.75 %"); Constants offers both the CODATA 2018 values and the printed
// ones, so that the document's curves can be compared with either.
package phy
