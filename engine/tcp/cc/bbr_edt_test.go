package cc

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
	"github.com/crosslink-sim/crosslink/engine/unit"
)

// TestPacketsInNetAtEDT works tcp_bbr.c's bbr_packets_in_net_at_edt by
// hand: inflight, plus bbr_tso_segs_goal segments while the pacing gain
// is above 1, less the whole segments bw delivers in the whole
// microseconds until the next departure ((u64)bbr_bw * interval_us >>
// BW_SCALE), never below 0. Exact: every case is a whole number of bytes.
func TestPacketsInNetAtEDT(t *testing.T) {
	const mss = 1448
	// onePerUs delivers one segment a microsecond.
	onePerUs := unit.BitRate(mss * 8 * 1e6)
	cases := []struct {
		name     string
		inflight unit.Bytes
		bw       unit.BitRate
		wait     des.Duration
		gain     float64
		tso      unit.Bytes
		want     float64 // segments
	}{
		{"no wait, cruising", 100 * mss, 100e6, 0, 1, 2, 100},
		{"no wait, probing: the skb about to depart counts", 100 * mss, 100e6, 0, 1.25, 2, 102},
		{"no wait, draining: it does not", 100 * mss, 100e6, 0, 0.75, 2, 100},
		// 100 Mbit/s for 1 ms is 12,500 bytes: 8.6 segments, 8 whole.
		{"1 ms of pacing at 100 Mbit/s", 100 * mss, 100e6, des.Millisecond, 1, 2, 92},
		{"1 ms of pacing while probing", 100 * mss, 100e6, des.Millisecond, 1.25, 6, 98},
		// interval_us truncates: 1.5 us at two segments a microsecond is
		// 1 us, two segments, not three.
		{"whole microseconds", 10 * mss, 2 * onePerUs, 1500 * des.Nanosecond, 1, 2, 8},
		{"more delivered than in flight", 3 * mss, onePerUs, 10 * des.Microsecond, 1.25, 2, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &State{SMSS: mss}
			a := &Ack{PacingWait: c.wait}
			got := packetsInNetAtEDT(s, a, c.inflight, c.bw, c.gain, c.tso)
			if got != c.want*mss {
				t.Errorf("packetsInNetAtEDT = %v bytes (%.3f segments), want %v segments", got, got/mss, c.want)
			}
		})
	}
}
