package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// TestEDTPacing checks the departure time each skb leaves for the next
// against tcp_update_skb_after_send (net/ipv4/tcp_output.c, Linux 5.13),
// worked by hand from the kernel's statements: the skb departs at
// wstamp' = max(tcp_wstamp_ns, now), and, once data_segs_out (this skb's
// segments counted) reaches 10, the stamp moves on by len_ns - min(len_ns/2,
// wstamp' - tcp_wstamp_ns). Times in µs; each segment of the skb takes
// 100 µs at the pacing rate. The expectations are exact.
func TestEDTPacing(t *testing.T) {
	const us = des.Microsecond
	type seg struct {
		now     des.Duration // when the segment is sent
		open    bool         // it starts an skb
		segsOut int64        // data segments sent, this one included
	}
	tests := []struct {
		name   string
		linux  bool
		wstamp des.Duration // tcp_wstamp_ns before the first segment
		segs   []seg
		want   []des.Duration // tcp_wstamp_ns after each segment
	}{
		{"one-segment skb on time (the pacing timer): its length", true, 1000,
			[]seg{{1000, true, 20}}, []des.Duration{1100}},
		{"three segments of one skb: the skb's length", true, 1000,
			[]seg{{1000, true, 20}, {1000, false, 21}, {1000, false, 22}}, []des.Duration{1100, 1200, 1300}},
		{"an skb 30 µs late: 30 µs off its 100", true, 970,
			[]seg{{1000, true, 20}}, []des.Duration{1070}},
		{"an skb 500 µs late (an ACK after idle): half its length", true, 500,
			[]seg{{1000, true, 20}}, []des.Duration{1050}},
		{"a late skb of four segments: credit 150 of its 400", true, 850,
			[]seg{{1000, true, 20}, {1000, false, 21}, {1000, false, 22}, {1000, false, 23}}, []des.Duration{1050, 1100, 1150, 1250}},
		{"the credit is the skb's own: the next skb on time pays in full", true, 500,
			[]seg{{1000, true, 20}, {1050, true, 21}}, []des.Duration{1050, 1150}},
		{"an skb sent before its time (joining an aggregate's instant) departs at the stamp", true, 1200,
			[]seg{{1000, true, 20}}, []des.Duration{1300}},
		{"data_segs_out below 10: not paced, the stamp stays at the departure", true, 500,
			[]seg{{1000, true, 8}, {1000, false, 9}}, []des.Duration{1000, 1000}},
		{"the skb that brings data_segs_out to 10 is paced whole, with its credit (100 of 200)", true, 900,
			[]seg{{1000, true, 9}, {1000, false, 10}}, []des.Duration{1000, 1100}},
		{"without the rules: the full length from the first segment, late or not", false, 500,
			[]seg{{1000, true, 1}, {1000, false, 2}}, []des.Duration{1100, 1200}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := edtPacing{linux: tt.linux}
			wstamp := des.Time(tt.wstamp * us)
			for i, s := range tt.segs {
				wstamp = e.sent(des.Time(s.now*us), wstamp, 100*us, s.open, s.segsOut)
				if want := des.Time(tt.want[i] * us); wstamp != want {
					t.Errorf("segment %d: tcp_wstamp_ns %v, want %v", i+1, wstamp, want)
				}
			}
		})
	}
}

// TestPacingLetsTheSkbFill: with TSO a paced sender sends an aggregate's
// segments at the instant it departs, whatever the stamp its first
// segment moved on (the skb is one send in Linux), and holds the segment
// that would start the next aggregate until the stamp.
func TestPacingLetsTheSkbFill(t *testing.T) {
	c := hostConn(t, cc.NewReno(cc.ABCOff), Host{TSO: true})
	s := &c.snd
	s.cc.PacingRate = 100e6
	h := c.host
	now := des.Time(des.Second)
	s.nextSendAt = now.Add(100 * des.Microsecond)
	h.skb, h.skbAt, h.skbSegs, h.skbGoal = 1, now, 1, 8
	if !s.paceOK(now) {
		t.Error("a segment that joins the aggregate of this instant is held back")
	}
	h.skbSegs = 8
	if s.paceOK(now) {
		t.Error("a segment that starts an aggregate is sent before the stamp")
	}
	if s.paceOK(now.Add(99*des.Microsecond)) || !s.paceOK(now.Add(100*des.Microsecond)) {
		t.Error("the next aggregate is not held until the stamp exactly")
	}
}
