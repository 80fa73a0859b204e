// Package closedform holds the closed forms that crosslink's models are
// checked against and its figures draw beside the simulated numbers, each
// written once: the size of a packet on a 64B/66B-coded wire, the
// window-limited rate W/RTT, the bandwidth-delay product, and the
// loss-limited TCP throughput of Mathis et al. and Padhye et al.
//
//   - M. Mathis, J. Semke, J. Mahdavi, T. Ott, "The Macroscopic Behavior
//     of the TCP Congestion Avoidance Algorithm", ACM SIGCOMM CCR 27(3),
//     1997: Eq. (3), BW = MSS/RTT C/sqrt(p), C = sqrt(3/2) for one ACK
//     per segment and periodic loss.
//   - J. Padhye, V. Firoiu, D. Towsley, J. Kurose, "Modeling TCP
//     Throughput: A Simple Model and its Empirical Validation", ACM
//     SIGCOMM 1998: the approximate model, Eq. (31) (Eq. (33) of the
//     technical report), with b packets acknowledged per ACK and the
//     timeout T0; and the full model, Eq. (32), which keeps the
//     receiver's window Wmax and the timeout probability Q̂(w) exact.
//
// Quantities are float64 in SI base units and bytes: sizes in bytes,
// times in seconds, rates in bit/s. The package imports nothing of
// crosslink, so the engine, its tests and the figures share it.
package closedform
