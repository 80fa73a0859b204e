package cc_test

import (
	"github.com/crosslink-sim/crosslink/engine/unit"

	"github.com/crosslink-sim/crosslink/engine/des"

	"math"
	"testing"

	"github.com/crosslink-sim/crosslink/engine/tcp/cc"
)

// Westwood+ (Grieco and Mascolo 2004): ACKs delivering one 1460-byte
// segment every millisecond are 1.46 MB/s; after 3 s (about 30 samples of
// one 100 ms RTT each) the two-stage 7/8 filter has converged to within
// 1%, and a congestion event sets ssthresh = BWE x RTTmin = 1.46e6 x 0.1 s
// = 146000 bytes (100 segments; RTTmin is the smallest RTT sample) and
// cwnd = ssthresh from a larger window; a timeout sets the same ssthresh
// and cwnd = 1 segment. Tolerance: one segment.
func TestWestwoodBandwidthEstimate(t *testing.T) {
	w := cc.NewWestwood(cc.ABCOff)
	s := cc.State{Cwnd: 200 * mss, SMSS: mss}
	w.Init(&s)
	s.Ssthresh = 10 * mss
	var delivered unit.Bytes
	for now := des.Time(1e6); now <= 3e9; now = now.Add(des.Millisecond) {
		delivered += mss
		w.OnAck(&s, &cc.Ack{Now: now, Acked: mss, RTT: 100e6, MinRTT: 80e6, SRTT: 100e6, Delivered: delivered})
	}
	if got, want := w.Bandwidth().BytesPerSecond(), 1.46e6; math.Abs(got-want) > 0.01*want {
		t.Fatalf("BWE = %.0f B/s, want %.0f (+-1%%)", got, want)
	}
	want := w.Bandwidth().BytesPerSecond() * 0.1
	s.Cwnd = 200 * mss
	w.OnCongestionEvent(3e9, &s, s.Cwnd)
	if math.Abs(float64(s.Ssthresh)-want) > mss || s.Cwnd != s.Ssthresh {
		t.Errorf("after loss: ssthresh, cwnd = %d, %d, want %.0f (BWE x RTTmin)", s.Ssthresh, s.Cwnd, want)
	}
	s.Cwnd = 200 * mss
	w.OnRTO(3e9, &s, s.Cwnd, false)
	if math.Abs(float64(s.Ssthresh)-want) > mss || s.Cwnd != mss {
		t.Errorf("after timeout: ssthresh, cwnd = %d, %d, want %.0f, %d", s.Ssthresh, s.Cwnd, want, mss)
	}
}
