// dumbbell.cc: N bulk TCP flows sharing one bottleneck, the ns-3 side of
// crosslink's tcp-compete model.
//
// Topology: sender i -- access link -- router L -- backbone -- router R --
// access link -- receiver i. Access links run at `accessRate` with zero
// delay by default and a DropTail of `accessQueue` packets; the backbone
// runs at `rate` with one-way `delay` and a DropTail of `queue` packets in
// each direction; no queue discipline sits above any device. A loss rate
// `loss` drops packets arriving at router R over the backbone (the data
// direction). Flow i starts at a uniform random time in [0, stagger).
//
// Prints one line of key=value pairs.

#include "tcphost.h"

#include "ns3/applications-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <vector>

using namespace ns3;

namespace
{

struct Sink
{
    uint64_t got = 0;
    uint64_t afterWarmup = 0;
    Time warmup;

    void OnRx(Ptr<const Packet> p, const Address&)
    {
        got += p->GetSize();
        if (Simulator::Now() >= warmup)
        {
            afterWarmup += p->GetSize();
        }
    }
};

NetDeviceContainer
Connect(Ptr<Node> a, Ptr<Node> b, double rate, double delay, uint32_t queue)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(rate))));
    p2p.SetChannelAttribute("Delay", TimeValue(Seconds(delay)));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queue)));
    return p2p.Install(a, b);
}

// TraceState prints flow i's congestion state changes to stderr, for
// tracing when each flow enters fast recovery (CA_RECOVERY) and timeout
// recovery (CA_LOSS).
void
TraceState(uint32_t i, TcpSocketState::TcpCongState_t from, TcpSocketState::TcpCongState_t to)
{
    std::fprintf(stderr,
                 "%.6f flow %u %s -> %s\n",
                 Simulator::Now().GetSeconds(),
                 i,
                 TcpSocketState::TcpCongStateName[from],
                 TcpSocketState::TcpCongStateName[to]);
}

} // namespace

int
main(int argc, char* argv[])
{
    crosslink::Host host;
    uint32_t flows = 10;
    double rate = 100e6;      // backbone, bit/s
    double delay = 0.01;      // backbone one-way, s
    uint32_t queue = 83;      // backbone DropTail, packets
    double accessRate = 0;    // bit/s; 0 is rate
    double accessDelay = 0;   // s
    uint32_t accessQueue = 1000;
    double loss = 0;          // packet loss probability on the backbone's data direction
    double duration = 20;
    double warmup = 0;
    double stagger = 0.1;
    uint32_t run = 1;
    CommandLine cmd(__FILE__);
    host.AddTo(cmd);
    cmd.AddValue("flows", "number of flows", flows);
    cmd.AddValue("rate", "backbone rate, bit/s", rate);
    cmd.AddValue("delay", "backbone one-way delay, s", delay);
    cmd.AddValue("queue", "backbone DropTail limit, packets", queue);
    cmd.AddValue("accessRate", "access link rate, bit/s (0: rate)", accessRate);
    cmd.AddValue("accessDelay", "access link one-way delay, s", accessDelay);
    cmd.AddValue("accessQueue", "access link DropTail limit, packets", accessQueue);
    cmd.AddValue("loss", "loss probability of a packet on the backbone's data direction", loss);
    cmd.AddValue("duration", "simulated time, s", duration);
    cmd.AddValue("warmup", "goodput counts bytes delivered after this time, s", warmup);
    cmd.AddValue("stagger", "flows start at uniform times in [0, stagger), s", stagger);
    cmd.AddValue("run", "random run number", run);
    bool trace = false; // print each flow's congestion state changes to stderr
    cmd.AddValue("trace", "print each flow's congestion state changes to stderr", trace);
    cmd.Parse(argc, argv);
    if (flows == 0 || flows > 250)
    {
        NS_FATAL_ERROR("flows " << flows << " must be 1 to 250 (one /24 subnet per access link)");
    }
    if (accessRate == 0)
    {
        accessRate = rate;
    }

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);
    host.Apply();

    NodeContainer senders, receivers, routers;
    senders.Create(flows);
    receivers.Create(flows);
    routers.Create(2);
    InternetStackHelper stack;
    stack.Install(senders);
    stack.Install(receivers);
    stack.Install(routers);

    Ipv4AddressHelper addr;
    TrafficControlHelper tch;
    NetDeviceContainer bb = Connect(routers.Get(0), routers.Get(1), rate, delay, queue);
    addr.SetBase("10.0.0.0", "255.255.255.0");
    addr.Assign(bb);
    tch.Uninstall(bb);
    std::vector<Ipv4Address> dst(flows);
    for (uint32_t i = 0; i < flows; i++)
    {
        NetDeviceContainer l = Connect(senders.Get(i), routers.Get(0), accessRate, accessDelay, accessQueue);
        char net[32];
        std::snprintf(net, sizeof net, "10.1.%u.0", i);
        addr.SetBase(net, "255.255.255.0");
        addr.Assign(l);
        tch.Uninstall(l);
        NetDeviceContainer r = Connect(routers.Get(1), receivers.Get(i), accessRate, accessDelay, accessQueue);
        std::snprintf(net, sizeof net, "10.2.%u.0", i);
        addr.SetBase(net, "255.255.255.0");
        dst[i] = addr.Assign(r).GetAddress(1);
        tch.Uninstall(r);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    if (loss > 0)
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        em->SetRate(loss);
        em->AssignStreams(1);
        bb.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetStream(2);
    uint16_t port = 5001;
    std::vector<std::unique_ptr<Sink>> sinks;
    std::vector<std::unique_ptr<crosslink::SenderStats>> stats;
    for (uint32_t i = 0; i < flows; i++)
    {
        PacketSinkHelper sh("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sh.Install(receivers.Get(i));
        sa.Start(Seconds(0));
        sinks.push_back(std::make_unique<Sink>());
        sinks.back()->warmup = Seconds(warmup);
        sa.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&Sink::OnRx, sinks.back().get()));

        BulkSendHelper bh("ns3::TcpSocketFactory", InetSocketAddress(dst[i], port));
        bh.SetAttribute("SendSize", UintegerValue(host.WriteSize()));
        ApplicationContainer ba = bh.Install(senders.Get(i));
        Time t0 = Seconds(stagger > 0 ? start->GetValue(0, stagger) : 0);
        ba.Start(t0);
        stats.push_back(std::make_unique<crosslink::SenderStats>());
        crosslink::SenderStats* st = stats.back().get();
        Ptr<BulkSendApplication> bulk = DynamicCast<BulkSendApplication>(ba.Get(0));
        Simulator::Schedule(t0 + NanoSeconds(1), [st, bulk, trace, i]() {
            st->Attach(bulk->GetSocket());
            if (trace)
            {
                bulk->GetSocket()->TraceConnectWithoutContext("CongState", MakeBoundCallback(&TraceState, i));
            }
        });
    }

    Simulator::Stop(Seconds(duration));
    Simulator::Run();

    double span = duration - warmup;
    double sum = 0, sum2 = 0;
    crosslink::SenderStats total;
    for (uint32_t i = 0; i < flows; i++)
    {
        double x = double(sinks[i]->afterWarmup) * 8 / span;
        sum += x;
        sum2 += x * x;
        total.dataSegs += stats[i]->dataSegs;
        total.retransSegs += stats[i]->retransSegs;
        total.recoveries += stats[i]->recoveries;
        total.lossEpisodes += stats[i]->lossEpisodes;
    }
    double jain = sum2 > 0 ? sum * sum / (flows * sum2) : 0;
    std::printf("goodput=%.6f jain_flows=%.9f data_segs=%" PRIu64 " retrans_segs=%" PRIu64
                " fast_recoveries=%" PRIu64 " rto_episodes=%" PRIu64 "\n",
                sum, jain, total.dataSegs, total.retransSegs, total.recoveries, total.lossEpisodes);
    Simulator::Destroy();
    return 0;
}
