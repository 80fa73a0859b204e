package tcp

import "github.com/crosslink-sim/crosslink/engine/des"

// edtPacing is Linux's earliest-departure-time pacing of a socket whose
// controller asks for pacing (sk_pacing_status != SK_PACING_NONE, as BBR
// and BBRv2 set it): __tcp_transmit_skb stamps each skb with
// tcp_wstamp_ns = max(tcp_wstamp_ns, now), and tcp_update_skb_after_send
// (net/ipv4/tcp_output.c, Linux 5.13) then moves tcp_wstamp_ns on by the
// skb's length at sk_pacing_rate; the internal pacing timer (no fq qdisc)
// holds the next skb until then (tcp_pacing_check). Two rules of that
// function shape the gaps:
//   - "Original sch_fq does not pace first 10 MSS": no skb moves the
//     stamp until tp->data_segs_out, the segments sent so far
//     (retransmissions included, this skb's counted), reaches 10;
//   - "take into account OS jitter" (commit a7a2563064e9, Linux 4.20):
//     an skb sent late, after the stamp had passed, takes the delay as a
//     credit, len_ns -= min(len_ns/2, credit), so a send an ACK
//     triggered after an idle spell is followed by a shorter gap.
//
// The gap is per skb: a TSO aggregate cut short by cwnd owes its own
// length at once, not the full aggregate's.
type edtPacing struct {
	// The open skb: the stamp it departed at, its payload's time at the
	// pacing rate so far, and the credit it took.
	base           des.Time
	length, credit des.Duration
	linux          bool // the two rules above (Config.EDTCredit)
}

// sent accounts for a segment of gap (its payload at the pacing rate)
// sent at now, the first of its skb if open, and returns the time the
// next skb may depart: the new tcp_wstamp_ns. wstamp is the stamp before
// this segment, segsOut the data segments sent so far, this one included.
func (e *edtPacing) sent(now, wstamp des.Time, gap des.Duration, open bool, segsOut int64) des.Time {
	if open {
		start := max(wstamp, now)
		e.base, e.length, e.credit = start, 0, 0
		if e.linux {
			e.credit = start.Sub(wstamp)
		}
	}
	e.length += gap
	if e.linux && segsOut < 10 {
		return e.base
	}
	return e.base.Add(e.length - min(e.length/2, e.credit))
}
