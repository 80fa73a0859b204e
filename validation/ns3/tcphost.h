// tcphost.h: the TCP host configuration shared by the crosslink validation
// programs (link.cc, dumbbell.cc). Every ns-3 default that crosslink's TCP
// models set differently is overridden here from the command line, so that
// both simulators run the same host; docs/validation.md lists each choice.
//
// These programs link against ns-3 (GPL-2.0-only) as a library.

#ifndef CROSSLINK_VALIDATION_TCPHOST_H
#define CROSSLINK_VALIDATION_TCPHOST_H

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace crosslink
{

// TcpNewRenoFlightSize is ns-3's TcpNewReno with RFC 5681's ssthresh.
// ns-3 3.37 calls GetSsThresh with BytesInFlight(), the RFC 6675 pipe, which
// leaves out what was SACKed or marked lost by the time the third duplicate
// ACK arrives; RFC 5681 section 3.2 equation (4), which crosslink follows,
// halves FlightSize, the data sent and not yet cumulatively acknowledged.
// The validation uses this class to show how much of a difference that
// choice alone makes (--ssthresh=flightsize).
class TcpNewRenoFlightSize : public ns3::TcpNewReno
{
  public:
    static ns3::TypeId GetTypeId()
    {
        static ns3::TypeId tid = ns3::TypeId("crosslink::TcpNewRenoFlightSize")
                                     .SetParent<ns3::TcpNewReno>()
                                     .AddConstructor<TcpNewRenoFlightSize>();
        return tid;
    }

    TcpNewRenoFlightSize() = default;

    TcpNewRenoFlightSize(const TcpNewRenoFlightSize& o)
        : ns3::TcpNewReno(o)
    {
    }

    std::string GetName() const override
    {
        return "TcpNewRenoFlightSize";
    }

    // GetSsThresh is RFC 5681 equation (4), max(FlightSize / 2, 2 SMSS),
    // FlightSize = HighTxMark - the last cumulative ACK (which ns-3 updates
    // before it processes duplicate ACKs and timeouts).
    uint32_t GetSsThresh(ns3::Ptr<const ns3::TcpSocketState> tcb, uint32_t) override
    {
        uint32_t flight = tcb->m_highTxMark.Get().GetValue() - tcb->m_lastAckedSeq.GetValue();
        return std::max(2 * tcb->m_segmentSize, flight / 2);
    }

    ns3::Ptr<ns3::TcpCongestionOps> Fork() override
    {
        return ns3::CopyObject<TcpNewRenoFlightSize>(this);
    }
};

// Host holds the TCP parameters both programs take.
struct Host
{
    uint32_t mss = 1448;        // TcpSocket::SegmentSize: payload bytes per segment
    uint32_t iw = 10;           // TcpSocket::InitialCwnd, segments
    uint32_t rcvbuf = 131072;   // TcpSocket::RcvBufSize: the largest advertised window
    uint32_t sndbuf = 1u << 30; // TcpSocket::SndBufSize: never limits the sender
    bool wscale = true;         // TcpSocketBase::WindowScaling (RFC 7323)
    bool sack = true;           // TcpSocketBase::Sack (RFC 2018)
    bool ts = true;             // TcpSocketBase::Timestamp (RFC 7323): 12 option bytes
    bool delack = true;         // DelAckCount 2 (on) or 1 (off)
    double delackTimeout = 0.2; // TcpSocket::DelAckTimeout, s
    double minrto = 1.0;        // TcpSocketBase::MinRto, s
    double synTimeout = 3.0;    // TcpSocket::ConnTimeout, s
    bool limitedTransmit = true;
    std::string cca = "newreno"; // newreno | cubic | linuxreno
    bool hystart = false;        // TcpCubic::HyStart
    std::string recovery = "classic"; // classic | prr
    std::string ssthresh = "pipe";    // newreno's loss ssthresh from: pipe (ns-3) | flightsize (RFC 5681)
    uint32_t sendSize = 0;            // BulkSendApplication::SendSize; 0 is mss

    void AddTo(ns3::CommandLine& cmd)
    {
        cmd.AddValue("mss", "segment size, payload bytes", mss);
        cmd.AddValue("iw", "initial window, segments", iw);
        cmd.AddValue("rcvbuf", "receive buffer, bytes", rcvbuf);
        cmd.AddValue("sndbuf", "send buffer, bytes", sndbuf);
        cmd.AddValue("wscale", "window scaling", wscale);
        cmd.AddValue("sack", "SACK", sack);
        cmd.AddValue("ts", "timestamps", ts);
        cmd.AddValue("delack", "delayed ACKs (every second segment)", delack);
        cmd.AddValue("delackTimeout", "delayed ACK timeout, s", delackTimeout);
        cmd.AddValue("minrto", "minimum RTO, s", minrto);
        cmd.AddValue("synTimeout", "SYN retransmission timeout, s", synTimeout);
        cmd.AddValue("limitedTransmit", "RFC 3042 limited transmit", limitedTransmit);
        cmd.AddValue("cca", "congestion control: newreno, linuxreno or cubic", cca);
        cmd.AddValue("hystart", "TcpCubic HyStart", hystart);
        cmd.AddValue("recovery", "loss recovery: classic or prr", recovery);
        cmd.AddValue("ssthresh", "newreno's ssthresh on loss from: pipe (ns-3's BytesInFlight) or flightsize (RFC 5681)", ssthresh);
        cmd.AddValue("sendSize", "application write size, bytes (0: one segment)", sendSize);
    }

    // Apply sets the defaults every TCP socket created afterwards takes.
    void Apply() const
    {
        using namespace ns3;
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(iw));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(rcvbuf));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(sndbuf));
        Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delack ? 2 : 1));
        Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(Seconds(delackTimeout)));
        Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(synTimeout)));
        Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(wscale));
        Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
        Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(ts));
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minrto)));
        Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(limitedTransmit));
        Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(hystart));
        TypeId cc = TypeId::LookupByName("ns3::TcpNewReno");
        if (cca == "newreno" && ssthresh == "flightsize")
        {
            cc = TcpNewRenoFlightSize::GetTypeId();
        }
        else if (ssthresh != "pipe")
        {
            NS_FATAL_ERROR("ssthresh " << ssthresh << " is for cca newreno only");
        }
        if (cca == "cubic")
        {
            cc = TypeId::LookupByName("ns3::TcpCubic");
        }
        else if (cca == "linuxreno")
        {
            cc = TypeId::LookupByName("ns3::TcpLinuxReno");
        }
        else if (cca != "newreno")
        {
            NS_FATAL_ERROR("unknown cca " << cca);
        }
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(cc));
        std::string rec = "ns3::TcpClassicRecovery";
        if (recovery == "prr")
        {
            rec = "ns3::TcpPrrRecovery";
        }
        else if (recovery != "classic")
        {
            NS_FATAL_ERROR("unknown recovery " << recovery);
        }
        Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", TypeIdValue(TypeId::LookupByName(rec)));
    }

    uint32_t WriteSize() const
    {
        return sendSize == 0 ? mss : sendSize;
    }
};

// SenderStats counts what one sending socket does, from its traces.
struct SenderStats
{
    uint64_t highTx = 0;       // highest sequence number sent + 1 (32-bit space: runs stay under 4 GB)
    uint64_t dataSegs = 0;     // data segments sent
    uint64_t retransSegs = 0;  // data segments that resend sequence space already sent
    uint64_t recoveries = 0;   // entries into CA_RECOVERY (fast retransmit)
    uint64_t lossEpisodes = 0; // entries into CA_LOSS (a retransmission timeout sequence)

    void OnTx(ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h, ns3::Ptr<const ns3::TcpSocketBase>)
    {
        uint32_t n = p->GetSize();
        if (n == 0)
        {
            return;
        }
        uint64_t start = h.GetSequenceNumber().GetValue();
        dataSegs++;
        if (start + n <= highTx)
        {
            retransSegs++;
        }
        else
        {
            highTx = start + n;
        }
    }

    void OnCongState(ns3::TcpSocketState::TcpCongState_t from, ns3::TcpSocketState::TcpCongState_t to)
    {
        if (to == ns3::TcpSocketState::CA_RECOVERY && from != to)
        {
            recoveries++;
        }
        if (to == ns3::TcpSocketState::CA_LOSS && from != to)
        {
            lossEpisodes++;
        }
    }

    // Attach connects the counters to a connected socket's traces.
    void Attach(ns3::Ptr<ns3::Socket> s)
    {
        s->TraceConnectWithoutContext("Tx", ns3::MakeCallback(&SenderStats::OnTx, this));
        s->TraceConnectWithoutContext("CongState", ns3::MakeCallback(&SenderStats::OnCongState, this));
    }
};

} // namespace crosslink

#endif
