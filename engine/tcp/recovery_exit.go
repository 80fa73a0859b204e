package tcp

// recoveryAck reports whether the controller sees the ACK just processed
// by the recovery (wasIn: the sender was in fast recovery before it) as
// one of the recovery, which it does not grow the window on.
//
// RFC 5681 section 3.2 step 6 ("set cwnd to ssthresh", deflating the
// window) and RFC 6937 section 3.1 ("on exiting recovery cwnd =
// ssthresh") end recovery on the ACK that covers the recovery point with
// cwnd = ssthresh, and congestion avoidance grows it from the next ACK
// on: that ACK counts as one of the recovery.
//
// ns-3 3.37 treats it as an ordinary ACK too. TcpSocketBase::ProcessAck
// (src/internet/model/tcp-socket-base.cc), on the cumulative ACK that
// ends CA_RECOVERY, sets the state to CA_OPEN and exitedFastRecovery;
// "if (exitedFastRecovery)" then sets m_cWnd = m_ssThresh, and the
// "if (m_congState == CA_OPEN)" block right after calls
// m_congestionControl->IncreaseWindow(m_tcb, segsAcked). With cwnd =
// ssthresh that is a congestion-avoidance step, for TcpNewReno
// max(1, SMSS*SMSS/cwnd) bytes (TcpNewReno::CongestionAvoidance in
// tcp-congestion-ops.cc): half a segment at ssthresh's 2-segment floor.
// Config.GrowOnRecoveryExit reproduces it, for matching ns-3
// (validation/: the +ns3opts scenarios); the default keeps to the RFCs.
func (s *sender) recoveryAck(wasIn bool) bool {
	if wasIn && !s.inRecovery && s.c.cfg.GrowOnRecoveryExit {
		return false
	}
	return wasIn
}
