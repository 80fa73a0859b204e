// Package cc holds TCP congestion controllers behind one small interface of
// event hooks.
//
// The congestion window, slow-start threshold and pacing rate live in the
// sender's State, which a Controller updates from its hooks; so a trace of
// cwnd and ssthresh reads the same whatever the algorithm. Every hook takes
// the virtual time `now` (a des.Time) as an argument: a controller holds no
// clock. Instants are des.Time and spans des.Duration (RTT samples, SRTT,
// the rate sample's interval), so an instant cannot stand where a span is
// meant: `a.Now - c.epoch` does not compile, `a.Now.Sub(c.epoch)` does. Loss recovery (which segments to retransmit and how cwnd is
// inflated while recovering, RFC 6582 or RFC 6675) is a separate seam in
// package tcp; a controller only decides the window reduction on entering
// recovery or on a timeout and the growth on ACKs, and, through the
// optional Undoer (Linux's undo_cwnd), what it restores when the sender
// finds a reduction spurious (UndoCwnd: Reno's max(cwnd, prior cwnd)
// unless the controller says otherwise, as BBR and BBR2 do).
//
// The Ack a controller receives carries what every known algorithm needs:
// newly acknowledged bytes (Reno, HighSpeed), an RTT sample with Karn's rule
// applied and the minimum RTT seen (Vegas, Hybla, CUBIC's HyStart), a
// delivery-rate sample (BBR, following draft-cheng-iccrg-delivery-rate-estimation)
// and the bytes in flight. A controller that paces sets State.PacingRate.
//
// Reno and NewReno share the RFC 5681 window growth (slow start and
// congestion avoidance, with RFC 3465 appropriate byte counting as an
// option, ABC, whose slow-start limit L may be none, as in Linux)
// and the RFC 5681 equation (4) reduction; they differ in loss recovery
// (RFC 5681 section 3.2 versus RFC 6582), which the sender selects.
//
// # The Linux they follow
//
// Where a controller follows Linux rather than an RFC (CUBIC's HyStart,
// BIC, BBR v1, BBRv2), the kernel is Linux 5.13.12: the base of Google's
// BBRv2 alpha kernel (github.com/google/bbr, branch v2alpha), the only
// kernel with the BBRv2 that document 002 ran, so the host the
// document's Mininet testbed stood on. The branch's top-level Makefile
// (VERSION/PATCHLEVEL/SUBLEVEL) is not in the stored copy of the
// repository here; the version is read from two independent build notes
// for that branch: StanfordSNR/connection-splitting deps/BBRV3.md ("Ubuntu,
// with Linux 5.13.12", "/lib/modules/5.13.12/source/net/ipv4/tcp_bbr2.c"
// after checking out google-bbr/v2alpha) and melody0123/bbrv2-installer
// README.md ("Google's BBRv2 alpha branch is based on Linux Kernel 5.13").
// The kernel files the code here cites are that version's
// net/ipv4/tcp_cubic.c, tcp_bic.c, tcp_cong.c (tcp_slow_start,
// tcp_cong_avoid_ai, tcp_reno_cong_avoid), tcp_bbr.c and the branch's
// tcp_bbr2.c.
//
// CUBIC has two forms: CubicLinux, tcp_cubic.c's integer arithmetic (the
// Linux host's default), and Cubic, RFC 9438 as written; either runs
// Linux's HyStart (LinuxHyStart) or RFC 9406's HyStart++ (HyStart). BIC
// is tcp_bic.c's arithmetic; BBR2 the alpha's tcp_bbr2.c; BBR the draft
// with tcp_bbr.c's ACK-aggregation allowance, quantization budget and
// in-flight judged at the next departure (bbr_packets_in_net_at_edt).
// Reno and NewReno stay RFC 5681's (with RFC 3465 byte counting when
// asked), which tcp_reno_cong_avoid matches in congestion avoidance;
// with ABCUnlimited their slow start is tcp_slow_start's, which adds
// every segment an ACK covers.
package cc
