package tcp

import "github.com/crosslink-sim/crosslink/engine/des"

// RTO defaults (RFC 6298).
const (
	// DefaultMinRTO is RFC 6298 section 2.4's lower bound of one second.
	// Linux uses 200 ms; Config.MinRTO sets it.
	DefaultMinRTO = des.Second
	// DefaultMaxRTO is the upper bound section 2.5 allows ("at least 60
	// seconds").
	DefaultMaxRTO = 60 * des.Second
	// InitialRTO is RFC 6298 section 2.1's one second.
	InitialRTO = des.Second
)

// rttEstimator keeps SRTT and RTTVAR and computes the retransmission
// timeout as RFC 6298 specifies.
type rttEstimator struct {
	srtt, rttvar des.Duration
	minRTT       des.Duration // smallest sample, 0 before the first
	hasSample    bool
	rto          des.Duration // current RTO before backoff
	backoff      uint         // number of doublings (section 5.5)

	minRTO, maxRTO des.Duration
	g              des.Duration // clock granularity G (section 2)
	// varFloor bounds the variance term, not the sum, by minRTO
	// (Config.RTOVarFloor).
	varFloor bool
}

func newRTTEstimator(minRTO, maxRTO, g des.Duration, varFloor bool) rttEstimator {
	return rttEstimator{rto: max(InitialRTO, minRTO), minRTO: minRTO, maxRTO: maxRTO, g: g, varFloor: varFloor}
}

// sample folds one RTT measurement r into SRTT, RTTVAR and the RTO. The
// caller applies Karn's rule (RFC 6298 section 3): no samples from
// retransmitted segments.
func (e *rttEstimator) sample(r des.Duration) {
	r = max(r, 1) // a measurement below clock resolution; keep RTTVAR finite
	if !e.hasSample {
		// RFC 6298 section 2.2: SRTT <- R, RTTVAR <- R/2.
		e.srtt = r
		e.rttvar = r / 2
		e.hasSample = true
	} else {
		// RFC 6298 section 2.3 with alpha = 1/8, beta = 1/4, RTTVAR updated
		// first with the old SRTT.
		d := e.srtt - r
		if d < 0 {
			d = -d
		}
		e.rttvar = (3*e.rttvar + d) / 4
		e.srtt = (7*e.srtt + r) / 8
	}
	if e.varFloor {
		// Linux's tcp_rtt_estimator and __tcp_set_rto: RTO = srtt +
		// rttvar_us, where rttvar_us (4*RTTVAR in RFC 6298's terms)
		// never falls below tcp_rto_min: a path whose RTT is steady
		// still gets SRTT + 200 ms. (Linux takes rttvar_us as the
		// largest deviation of the last round trip, decaying; the
		// smoothed RTTVAR stands in for it here.)
		e.rto = min(e.srtt+max(e.g, 4*e.rttvar, e.minRTO), e.maxRTO)
		return
	}
	// RTO <- SRTT + max(G, K*RTTVAR), K = 4; then the bounds of 2.4, 2.5.
	e.rto = min(max(e.srtt+max(e.g, 4*e.rttvar), e.minRTO), e.maxRTO)
}

// observeMin folds a sample into the minimum RTT: that of the newest
// segment an ACK times, which waited least for the ACK (Linux's
// tcp_update_rtt_min takes ca_rtt_us). Linux keeps the minimum over a
// window of net.ipv4.tcp_min_rtt_wlen = 300 s; here it is the whole
// run's.
func (e *rttEstimator) observeMin(r des.Duration) {
	r = max(r, 1)
	if e.minRTT == 0 || r < e.minRTT {
		e.minRTT = r
	}
}

// current returns the timeout to arm now: the RTO doubled once per
// back-off (RFC 6298 section 5.5), capped at maxRTO.
func (e *rttEstimator) current() des.Duration {
	r := e.rto
	for i := uint(0); i < e.backoff && r < e.maxRTO; i++ {
		r *= 2
	}
	return min(r, e.maxRTO)
}

// backOff doubles the timeout after an expiry (RFC 6298 section 5.5).
func (e *rttEstimator) backOff() {
	if e.current() < e.maxRTO {
		e.backoff++
	}
}

// resetBackoff drops the back-off once a new RTT sample is taken: RFC 6298
// section 5.7 ("the RTO ... MAY be recomputed" once data is acknowledged)
// and Karn's algorithm keep the backed-off value until a valid sample.
func (e *rttEstimator) resetBackoff() { e.backoff = 0 }
