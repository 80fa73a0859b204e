package tcp

import (
	"testing"

	"github.com/crosslink-sim/crosslink/engine/des"
)

// The RFC 6298 section 2 rules worked by hand, with G = 1 ms, min RTO 200 ms.
func TestRTTEstimator(t *testing.T) {
	const ms = des.Millisecond
	e := newRTTEstimator(200*ms, 60000*ms, 1*ms, false)
	if got := e.current(); got != 1000*ms {
		t.Fatalf("initial RTO = %d, want 1 s (RFC 6298 2.1)", got)
	}
	// 2.2: R = 100 ms: SRTT 100, RTTVAR 50, RTO = 100 + 4*50 = 300 ms.
	e.sample(100 * ms)
	if e.srtt != 100*ms || e.rttvar != 50*ms || e.current() != 300*ms {
		t.Fatalf("after 100 ms: srtt, rttvar, rto = %d, %d, %d, want 100, 50, 300 ms", e.srtt, e.rttvar, e.current())
	}
	// 2.3: R' = 200 ms: RTTVAR = 3/4*50 + 1/4*|100-200| = 62.5,
	// SRTT = 7/8*100 + 1/8*200 = 112.5, RTO = 112.5 + 250 = 362.5 ms.
	e.sample(200 * ms)
	if e.srtt != 112500000 || e.rttvar != 62500000 || e.current() != 362500000 {
		t.Fatalf("after 200 ms: srtt, rttvar, rto = %d, %d, %d, want 112.5, 62.5, 362.5 ms", e.srtt, e.rttvar, e.current())
	}
	// Constant samples shrink RTTVAR until the 200 ms floor (2.4) binds.
	for range 100 {
		e.sample(10 * ms)
	}
	if e.current() != 200*ms {
		t.Errorf("RTO with 10 ms samples = %d, want the 200 ms minimum", e.current())
	}
	// 5.5: back off doubles; 2.5 caps at the maximum.
	for i, want := range []des.Duration{400, 800, 1600, 3200} {
		e.backOff()
		if got := e.current(); got != want*ms {
			t.Errorf("after %d back-offs RTO = %d, want %d ms", i+1, got, want)
		}
	}
	for range 30 {
		e.backOff()
	}
	if got := e.current(); got != 60000*ms {
		t.Errorf("RTO after 34 back-offs = %d, want the 60 s cap", got)
	}
	e.resetBackoff()
	if e.current() != 200*ms {
		t.Errorf("RTO after reset = %d, want 200 ms", e.current())
	}
}

// G bounds the variance term: with RTTVAR ~ 0, RTO = SRTT + G (2.3).
func TestRTOGranularity(t *testing.T) {
	const ms = des.Millisecond
	e := newRTTEstimator(0, 60000*ms, 500*ms, false)
	for range 200 {
		e.sample(100 * ms)
	}
	if got := e.current(); got != 600*ms {
		t.Errorf("RTO = %d, want SRTT + G = 600 ms", got)
	}
}

// Config.RTOVarFloor: Linux's RTO is SRTT + rttvar_us with rttvar_us at
// least tcp_rto_min (tcp_rtt_estimator, __tcp_set_rto), so a steady RTT
// of 300 ms gives 500 ms, where RFC 6298's min RTO bounds only the sum
// (SRTT + G, 301 ms). The first sample gives 3 RTTs either way (Linux's
// "make sure rto = 3*rtt"; RFC 6298 2.2's SRTT + 4*R/2). Exact values.
func TestRTOVarFloor(t *testing.T) {
	const ms = des.Millisecond
	for _, tt := range []struct {
		floor       bool
		first, last des.Duration
	}{{false, 900 * ms, 301 * ms}, {true, 900 * ms, 500 * ms}} {
		e := newRTTEstimator(200*ms, 60000*ms, 1*ms, tt.floor)
		e.sample(300 * ms)
		if got := e.current(); got != tt.first {
			t.Errorf("floor %v: RTO after one 300 ms sample = %v, want %v", tt.floor, got, tt.first)
		}
		for range 60 {
			e.sample(300 * ms)
		}
		if got := e.current(); got != tt.last {
			t.Errorf("floor %v: RTO after steady 300 ms samples = %v, want %v", tt.floor, got, tt.last)
		}
	}
}
