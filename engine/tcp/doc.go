// Package tcp implements TCP endpoints on netsim packets, following the
// RFCs a reader would check them against, one file per concept:
//
//   - conn.go: the connection, its states and the three-way handshake with
//     MSS, window-scale and SACK-permitted negotiation (RFC 9293 section
//     3.5, RFC 7323 section 2, RFC 2018 section 2);
//   - snd.go: the sender: sequence space, windows, initial window (RFC 3390,
//     RFC 6928), fast retransmit (RFC 5681 section 3.2), limited transmit
//     (RFC 3042), retransmission timeout (RFC 6298) and pacing;
//   - rcv.go: the receiver: reassembly, receive window, delayed ACKs
//     (RFC 1122 section 4.2.3.2, RFC 5681 section 4.2) with Linux's
//     quick-ACK mode (Config.QuickAck) or ns-3's immediate ACK of the
//     first segment (Config.AckFirstSegment), SACK generation (RFC 2018
//     section 4) and DSACKs (Config.DSACK, RFC 2883);
//   - rto.go: RTT estimation and the RTO (RFC 6298; with
//     Config.RTOVarFloor, Linux's floor on the variance term);
//   - sack_scoreboard.go: the RFC 6675 scoreboard (IsLost, SetPipe,
//     NextSeg);
//   - recovery.go: the loss-recovery seam, one implementation per file,
//     chosen once per connection from Config.Recovery, Config.LossDetection
//     and the peer's SACK-permitted option:
//     newreno_recovery.go (RFC 5681/6582), sack_recovery.go (RFC 6675;
//     the scoreboard survives a timeout, after which only unSACKed data is
//     resent, section 5.1, as Linux does), rack_recovery.go (RFC 8985
//     RACK-TLP) and prr.go (RFC 6937 Proportional Rate Reduction over
//     either SACK-based one);
//   - rack.go: RACK's time-based loss detection (RFC 8985 section 6): of
//     lost retransmissions always, with the second congestion response
//     they call for (RFC 5681 section 4.3), and of every segment under
//     Config.LossDetection LossRACKTLP, which replaces the duplicate-ACK
//     threshold; reo_wnd is the RFC's min_RTT/4, static unless
//     Config.AdaptiveReordering lets DSACKs widen it (reorder.go), and
//     spurious-retransmission cases are excluded by the min_RTT check of
//     step 2 (timestamps, when on the wire, are not used for it);
//   - tlp.go: Tail Loss Probes (RFC 8985 section 7) under LossRACKTLP;
//   - undo.go: the undo of spurious congestion responses (Config.Undo):
//     RFC 3708's DSACK detection, RFC 3522's Eifel detection by
//     timestamps, and Linux's undo paths (tcp_try_undo_recovery,
//     tcp_try_undo_loss, tcp_try_undo_dsack, tcp_try_undo_partial,
//     tcp_undo_cwnd_reduction) with the controller's cc.Undoer;
//   - frto.go: RFC 5682's SACK-enhanced F-RTO after a timeout
//     (Config.FRTO, Linux's tcp_process_loss);
//   - reorder.go: the adaptive duplicate-ACK threshold and RACK
//     reordering window (Config.AdaptiveReordering, Linux's
//     tcp_check_sack_reordering and tcp_rack_update_reo_wnd);
//   - rate.go: delivery-rate samples (draft-cheng-iccrg-delivery-rate-estimation);
//   - sndbuf.go: the send buffer (Config.SendBuffer, ns-3's SndBufSize,
//     Linux's SO_SNDBUF) and the application's writes into it: a writer
//     blocked on a full buffer refills it as ACKs free room, and the writes
//     of one instant leave together in full segments;
//   - ssthresh.go: what a congestion response halves (Config.SsthreshBasis):
//     RFC 5681's FlightSize or, as ns-3 3.37, RFC 6675's pipe.
//   - recovery_exit.go: whether the ACK that ends fast recovery also grows
//     cwnd (Config.GrowOnRecoveryExit): not by RFC 5681 and RFC 6937, as
//     ns-3 3.37 does when set; prr.go's Config.PRRByteCeil likewise rounds
//     PRR's share in bytes as ns-3 does.
//
// Congestion control is the separate seam of package cc: the sender keeps
// cwnd and ssthresh in a cc.State that the controller updates.
//
// Packets carry sizes, not bytes, so the byte stream is checked by
// sequence: the application is told the stream offset and length of every
// delivery and can verify that deliveries are contiguous.
//
// The per-packet path allocates nothing in steady state: packets come from
// the netsim pool, timers are embedded des.Timers, and the send record ring
// and scoreboards grow only to the largest window.
//
// Conn.SetHost adds what a Linux sending host does below TCP (host.go):
// TSO/GSO aggregates of tcp_tso_autosize's size (at most half of cwnd,
// tcp_cwnd_test, and within one of the skbs tcp_sendmsg built when the
// application wrote), TCP Small Queues, and a
// receiver that acknowledges an aggregate once; without it every segment
// is its own packet.
//
// Left out: TIME-WAIT and the closing states beyond what a transfer's
// completion needs (a FIN is sent after the data and its ACK ends the
// transfer), RST, urgent data and RFC 7323's PAWS. Config.Timestamps puts
// the option on the wire, its 12 bytes per segment; RTT is measured from
// sequence numbers per RFC 6298 with Karn's rule, and the echo times only
// an ACK of new data that gives no other sample, as in Linux (ackRTT).
package tcp
