package tcp

import (
	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/seqnum"
)

// SACK compression (Config.SACKCompression): how a Linux receiver
// acknowledges out-of-order data, as net/ipv4/tcp_input.c has done since
// 5.8 (commits "tcp: add tp->dup_ack_counter" and "tcp:
// tcp_sack_new_ofo_skb() should be more conservative", April 2020; SACK
// compression itself since 4.18), the code of Linux 5.13.
const (
	// compSACKNr is net.ipv4.tcp_comp_sack_nr's default: at most this
	// many ACKs are held back before one is sent.
	compSACKNr = 44
	// compSACKDelay is net.ipv4.tcp_comp_sack_delay_ns's default, the
	// longest an ACK is held back. The timer's slack
	// (tcp_comp_sack_slack_ns, 100 µs) lets Linux fire it up to that
	// much later; the model fires it on time.
	compSACKDelay = des.Millisecond
	// fastRetransThresh is TCP_FASTRETRANS_THRESH: the duplicate ACKs
	// at one RCV.NXT that go at once, for a sender that counts them.
	fastRetransThresh = 3
	// sackBlocksExpected is TCP_SACK_BLOCKS_EXPECTED: the SACK blocks an
	// ACK is sure to carry (4 fit, 3 with timestamps, "given that SACK
	// packets might be lost, be conservative and use 2").
	sackBlocksExpected = 2
)

// ackOutOfOrder acknowledges a segment (or GRO aggregate) received while
// out-of-order data is held: __tcp_ack_snd_check past its first test
// with the out-of-order queue not empty. The ACK goes at once when more
// than one full frame is unacknowledged, in quick-ACK mode, without SACK
// compression, without SACK, when compSACKNr ACKs are already held, or
// for the first fastRetransThresh ACKs at this RCV.NXT; otherwise it is
// held, and the timer armed if it is not, for min(1 ms, RTT/20).
func (r *receiver) ackOutOfOrder(now des.Time) {
	if r.unacked >= 2 || r.quick > 0 || !r.c.cfg.SACKCompression || !r.c.sackOK || r.compressed >= compSACKNr {
		r.ackNow(now)
		return
	}
	if r.compNxt != r.nxt {
		r.compNxt = r.nxt
		r.dupAcks = 0
	}
	if r.dupAcks < fastRetransThresh {
		r.dupAcks++
		r.ackNow(now)
		return
	}
	r.compressed++
	if !r.compTimer.Pending() {
		r.compTimer.ResetAfter(r.compressDelay())
	}
}

// compressDelay is how long a compressed ACK waits: 5 % of the RTT, at
// most compSACKDelay. Linux takes the smaller of the receiver's RTT
// estimate (rcv_rtt_est, which includes the queueing the data met) and
// the socket's SRTT, which for a receiver is the handshake's; the model
// has the latter only, and without it (no handshake) waits compSACKDelay.
func (r *receiver) compressDelay() des.Duration {
	if srtt := r.c.snd.rtt.srtt; srtt > 0 {
		return min(compSACKDelay, srtt/20)
	}
	return compSACKDelay
}

// compressedAckDue is the timer's expiry (tcp_compressed_ack_kick):
// the held ACK goes, if none went meanwhile.
func (r *receiver) compressedAckDue(now des.Time) {
	if r.compressed > 0 {
		r.sendAck(now)
	}
}

// sackBlockCheck runs before the out-of-order range [seq, end) joins the
// SACK report (tcp_sack_new_ofo_skb): when the block it extends is not
// among the first sackBlocksExpected reported, or it starts a new block
// behind at least that many, a held ACK goes now, with the report as it
// stood (tcp_sack_compress_send_ack), so that every block reaches the
// sender in one of the first places of some ACK.
func (r *receiver) sackBlockCheck(now des.Time, seq, end seqnum.Value) {
	if r.compressed == 0 {
		return
	}
	at := r.nRecent // a new block
	for i := 0; i < r.nRecent; i++ {
		// tcp_sack_extend: the range overlaps or touches block i.
		if b := r.recent[i]; seq.LessThanEq(b.end) && b.start.LessThanEq(end) {
			at = i
			break
		}
	}
	if at >= sackBlocksExpected {
		r.sendAck(now)
	}
}
