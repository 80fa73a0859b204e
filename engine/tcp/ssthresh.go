package tcp

import "github.com/crosslink-sim/crosslink/engine/unit"

// SsthreshBasis selects the amount of outstanding data a congestion
// response hands the controller (cc.Controller's flightSize argument),
// which a loss-based controller such as NewReno halves into ssthresh.
// Controllers that scale cwnd instead (CUBIC: RFC 9438 section 4.6, as
// Linux's bictcp_recalc_ssthresh and ns-3's TcpCubic::GetSsThresh) are
// unaffected.
type SsthreshBasis uint8

const (
	// SsthreshFlightSize is RFC 5681 section 3.2 equation (4),
	// ssthresh = max(FlightSize / 2, 2*SMSS), with FlightSize the data sent
	// and not cumulatively acknowledged (SND.NXT - SND.UNA, RFC 6675's
	// HighData - HighACK), at fast retransmit and at a timeout (section
	// 3.1). RFC 6675 section 5 step (4.2) keeps it for SACK recovery; Linux
	// reaches the same through tcp_reno_ssthresh's cwnd / 2 in a
	// cwnd-limited flow.
	SsthreshFlightSize SsthreshBasis = iota
	// SsthreshPipe hands over RFC 6675 section 4's pipe (SetPipe: the
	// outstanding data less what is SACKed or deemed lost, plus
	// retransmissions) instead, as ns-3 3.37 does: TcpSocketBase::
	// EnterRecovery passes BytesInFlight() (its pipe, after marking the
	// head lost) to TcpCongestionOps::GetSsThresh, and ReTxTimeout passes
	// the BytesInFlight() before the timeout; TcpNewReno::GetSsThresh is
	// max(2*SMSS, bytesInFlight / 2). At the third duplicate ACK the pipe
	// leaves out the three SACKed segments and the lost one, so ssthresh
	// is about 2 segments lower than FlightSize / 2. Without SACK, pipe is
	// FlightSize here (ns-3's emulation of SACK from duplicate ACKs,
	// TcpTxBuffer::AddRenoSack, is not modelled).
	SsthreshPipe
)

// String returns the parameter value that names b.
func (b SsthreshBasis) String() string {
	switch b {
	case SsthreshFlightSize:
		return "flight_size"
	case SsthreshPipe:
		return "pipe"
	}
	return "unknown"
}

// lossBasis is the outstanding data a congestion response starts from,
// per Config.SsthreshBasis.
func (s *sender) lossBasis() unit.Bytes {
	if s.c.cfg.SsthreshBasis == SsthreshPipe {
		return s.pipe()
	}
	return s.una.Size(s.max).Bytes()
}
