// link.cc: one TCP flow over one point-to-point link, the ns-3 side of
// crosslink's tcp-bulk (timed transfer: goodput after a warm-up) and
// tcp-transfer (sized transfer: response time) models.
//
// Topology: sender -- link (rate, delay, DropTail queue of `queue` packets
// in each direction, no queue discipline above it) -- receiver. A packet
// error rate `per` drops packets arriving at the receiver (the data
// direction: SYN, data, FIN), as crosslink's per does.
//
// Prints one line of key=value pairs (see Report).

#include "tcphost.h"

#include "ns3/applications-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>

using namespace ns3;

namespace
{

// Sink counts the bytes the receiving application gets.
struct Sink
{
    uint64_t got = 0;
    uint64_t afterWarmup = 0;
    Time warmup;
    uint64_t size = 0; // sized transfer: stop when this many bytes arrived
    Time last;          // when the last byte arrived

    void OnRx(Ptr<const Packet> p, const Address&)
    {
        got += p->GetSize();
        if (Simulator::Now() >= warmup)
        {
            afterWarmup += p->GetSize();
        }
        last = Simulator::Now();
        if (size > 0 && got >= size)
        {
            Simulator::Stop();
        }
    }
};

// Trace prints the sender's congestion window, RFC 6675 pipe estimate
// (BytesInFlight), ssthresh and congestion state to stderr, for tracing a
// difference.
struct Trace
{
    static void Cwnd(uint32_t, uint32_t v)
    {
        std::fprintf(stderr, "%.6f cwnd %u\n", Simulator::Now().GetSeconds(), v);
    }

    static void InFlight(uint32_t, uint32_t v)
    {
        std::fprintf(stderr, "%.6f bytes_in_flight %u\n", Simulator::Now().GetSeconds(), v);
    }

    static void Ssthresh(uint32_t, uint32_t v)
    {
        std::fprintf(stderr, "%.6f ssthresh %u\n", Simulator::Now().GetSeconds(), v);
    }

    static void State(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t v)
    {
        std::fprintf(stderr, "%.6f state %s\n", Simulator::Now().GetSeconds(), TcpSocketState::TcpCongStateName[v]);
    }

    static void Attach(Ptr<Socket> s)
    {
        s->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&Trace::Cwnd));
        s->TraceConnectWithoutContext("BytesInFlight", MakeCallback(&Trace::InFlight));
        s->TraceConnectWithoutContext("CongState", MakeCallback(&Trace::State));
        s->TraceConnectWithoutContext("SlowStartThreshold", MakeCallback(&Trace::Ssthresh));
    }
};

} // namespace

int
main(int argc, char* argv[])
{
    crosslink::Host host;
    double rate = 10e6;   // bit/s
    double delay = 0.05;  // one-way, s
    uint32_t queue = 0;   // DropTail limit, packets; 0 is unlimited
    double per = 0;       // packet error rate of the data direction
    double duration = 20; // timed transfer: simulated time, s
    double warmup = 0;    // timed transfer: goodput counts bytes after this, s
    uint64_t size = 0;    // sized transfer: bytes; 0 is a timed transfer
    uint32_t run = 1;     // ns-3 RngRun
    bool trace = false;   // print the sender's cwnd, pipe and state to stderr
    CommandLine cmd(__FILE__);
    host.AddTo(cmd);
    cmd.AddValue("rate", "link rate, bit/s", rate);
    cmd.AddValue("delay", "one-way propagation delay, s", delay);
    cmd.AddValue("queue", "DropTail limit in packets, each direction (0: unlimited)", queue);
    cmd.AddValue("per", "packet error rate of the data direction", per);
    cmd.AddValue("duration", "simulated time of a timed transfer, s", duration);
    cmd.AddValue("warmup", "goodput counts bytes delivered after this time, s", warmup);
    cmd.AddValue("size", "bytes of a sized transfer (0: timed)", size);
    cmd.AddValue("run", "random run number", run);
    cmd.AddValue("trace", "print the sender's cwnd, BytesInFlight and congestion state to stderr", trace);
    cmd.Parse(argc, argv);

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);
    host.Apply();

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(rate))));
    p2p.SetChannelAttribute("Delay", TimeValue(Seconds(delay)));
    uint32_t limit = queue == 0 ? 10000000 : queue;
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, limit)));
    NetDeviceContainer devs = p2p.Install(nodes);

    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addr("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);
    // No queue discipline: the device's DropTail is the only queue, as in
    // crosslink's netsim link.
    TrafficControlHelper tch;
    tch.Uninstall(devs);

    if (per > 0)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(per);
        em->AssignStreams(1);
        devs.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

    uint16_t port = 5001;
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sinkHelper.Install(nodes.Get(1));
    sinkApp.Start(Seconds(0));
    Sink sink;
    sink.warmup = Seconds(warmup);
    sink.size = size;
    sinkApp.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&Sink::OnRx, &sink));

    BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(ifs.GetAddress(1), port));
    src.SetAttribute("MaxBytes", UintegerValue(size));
    src.SetAttribute("SendSize", UintegerValue(host.WriteSize()));
    ApplicationContainer srcApp = src.Install(nodes.Get(0));
    srcApp.Start(Seconds(0));
    crosslink::SenderStats st;
    Ptr<BulkSendApplication> bulk = DynamicCast<BulkSendApplication>(srcApp.Get(0));
    Simulator::Schedule(NanoSeconds(1), [&st, bulk, trace]() {
        st.Attach(bulk->GetSocket());
        if (trace)
        {
            Trace::Attach(bulk->GetSocket());
        }
    });

    // A sized transfer stops when its last byte arrives (Sink::OnRx); the
    // bound keeps a stalled one finite.
    Simulator::Stop(Seconds(size > 0 ? 100000 : duration));
    Simulator::Run();

    double goodput = 0;
    double span = duration - warmup;
    if (size == 0 && span > 0)
    {
        goodput = double(sink.afterWarmup) * 8 / span;
    }
    double response = NAN;
    if (size > 0 && sink.got >= size)
    {
        response = sink.last.GetSeconds();
    }
    std::printf("goodput=%.6f response_time=%.9f bytes_delivered=%" PRIu64
                " data_segs=%" PRIu64 " retrans_segs=%" PRIu64 " fast_recoveries=%" PRIu64
                " rto_episodes=%" PRIu64 "\n",
                goodput, response, sink.got, st.dataSegs, st.retransSegs, st.recoveries, st.lossEpisodes);
    Simulator::Destroy();
    return 0;
}
