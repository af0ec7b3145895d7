# ctlcc.sim._ns3_backend - build and run one ns-3 simulation (imports ns-3)
"""Private ns-3 backend of :mod:`ctlcc.sim.ns3`: builds and runs one job.

ns-3 is imported (and the C++ recorder compiled) on the first
:func:`run_job`, normally inside the worker process started by
:func:`ctlcc.sim.ns3.run_ns3`; importing this module alone costs nothing.  It takes the plain-data job dictionaries produced by
:mod:`ctlcc.sim.ns3` and returns plain-data result dictionaries, so that the
two sides can talk through JSON.

Measurement happens in a small C++ recorder compiled by cppyy (no Python in
the event loop, so the timed part is ns-3 itself):

* per flow, data segments (TCP payload > 0) are classified by their TCP
  destination port (the sink port of the flow) at three places: the sender's
  device ``MacTx`` (sent, retransmissions included), the receiver's device
  ``MacRx`` (delivered, duplicates included), and every drop point: the
  drop-tail device queues' ``Drop`` trace and the receive error models'
  ``PhyRxDrop`` trace (dropped);
* per monitored queue, the ``PacketsInQueue`` traced value gives the exact
  time-average, maximum and (optionally) the full trajectory;
* per traced flow, the sender socket's ``CongestionWindow`` trace.
"""

import functools
import resource
import time

__all__ = ["run_job", "ns3_version"]

_GLUE = r"""
#ifndef CTLCC_NS3_GLUE
#define CTLCC_NS3_GLUE
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/internet-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/applications-module.h"
#include "ns3/traffic-control-module.h"
#include <cstdint>
#include <vector>

namespace ctlcc_ns3
{
using namespace ns3;

// Flow index k of a data segment (TCP payload > 0, destination port in
// [port0, port0 + nflows)), or -1 for anything else (ACKs, SYNs, ...).
// Devices see PPP + IPv4 + TCP (PPP header present or not depending on the
// trace point); the traffic-control layer's TcDrop sees IPv4 + TCP.
inline int
FlowOfDataPacket(Ptr<const Packet> p, uint16_t port0, int nflows)
{
    uint8_t b[80];
    uint32_t n = p->CopyData(b, sizeof(b));
    uint32_t off = 0;
    if (n >= 2 && b[0] == 0x00 && b[1] == 0x21)
    {
        off = 2; // PPP header, protocol 0x0021 = IPv4
    }
    if (n < off + 20 || (b[off] >> 4) != 4 || b[off + 9] != 6)
    {
        return -1; // not IPv4/TCP
    }
    uint32_t ihl = (b[off] & 0x0f) * 4;
    uint32_t payloadEnd = off + ((uint32_t(b[off + 2]) << 8) | b[off + 3]);
    off += ihl;
    if (n < off + 14)
    {
        return -1;
    }
    const uint8_t* tcp = b + off;
    uint16_t dport = (uint16_t(tcp[2]) << 8) | tcp[3];
    uint32_t thl = (tcp[12] >> 4) * 4;
    if (payloadEnd <= off + thl || dport < port0 || dport >= port0 + nflows)
    {
        return -1;
    }
    return int(dport - port0);
}

struct Recorder
{
    uint16_t port0 = 5000;
    int nflows = 0;
    bool trace = false;
    double warmup = 0.0;
    std::vector<uint64_t> sent, delivered, droppedQueue, droppedLoss;
    std::vector<uint64_t> retransmitted, lossEpisodes, recoveryEpisodes;
    std::vector<uint64_t> rxAtWarmup;
    // monitored queues
    std::vector<double> qArea, qLastT, qAreaAtWarmup;
    std::vector<uint32_t> qCur, qMax;
    std::vector<uint64_t> qDrops, qLosses;
    std::vector<std::vector<double>> qT, qV;
    // cwnd traces
    std::vector<std::vector<double>> cwT, cwV;
    std::vector<Ptr<PacketSink>> sinks;
    // RED queue discs (one per RED-managed link direction): the queue disc,
    // its device (whose queue holds at most one waiting packet), samples
    std::vector<Ptr<QueueDisc>> redQdisc;
    std::vector<Ptr<NetDevice>> redDevice;
    std::vector<int> redMonitor; // monitored-queue index of each, or -1
    std::vector<double> redSum, redStatsAtWarmup;
    std::vector<uint64_t> redN;
    std::vector<uint32_t> redMax;
    std::vector<std::vector<double>> redT, redV;
    double sampleInterval = 0.02;
    double stopAt = 0.0;

    void Init(int flows, int queues, bool tr, double wu, uint16_t p0)
    {
        nflows = flows;
        trace = tr;
        warmup = wu;
        port0 = p0;
        sent.assign(flows, 0);
        delivered.assign(flows, 0);
        droppedQueue.assign(flows, 0);
        droppedLoss.assign(flows, 0);
        retransmitted.assign(flows, 0);
        lossEpisodes.assign(flows, 0);
        recoveryEpisodes.assign(flows, 0);
        rxAtWarmup.assign(flows, 0);
        cwT.assign(flows, {});
        cwV.assign(flows, {});
        qArea.assign(queues, 0.0);
        qLastT.assign(queues, 0.0);
        qAreaAtWarmup.assign(queues, 0.0);
        qCur.assign(queues, 0);
        qMax.assign(queues, 0);
        qDrops.assign(queues, 0);
        qLosses.assign(queues, 0);
        qT.assign(queues, {});
        qV.assign(queues, {});
        sinks.clear();
        redQdisc.clear();
        redDevice.clear();
        redMonitor.clear();
        redSum.clear();
        redN.clear();
        redMax.clear();
        redT.clear();
        redV.clear();
        redStatsAtWarmup.clear();
    }
};

inline void
OnSent(Recorder* r, Ptr<const Packet> p)
{
    int k = FlowOfDataPacket(p, r->port0, r->nflows);
    if (k >= 0)
    {
        r->sent[k]++;
    }
}

inline void
OnDelivered(Recorder* r, Ptr<const Packet> p)
{
    int k = FlowOfDataPacket(p, r->port0, r->nflows);
    if (k >= 0)
    {
        r->delivered[k]++;
    }
}

// Queue overflow (q = monitored queue or -1).
inline void
OnQueueDrop(Recorder* r, int q, Ptr<const Packet> p)
{
    if (q >= 0)
    {
        r->qDrops[q]++;
    }
    int k = FlowOfDataPacket(p, r->port0, r->nflows);
    if (k >= 0)
    {
        r->droppedQueue[k]++;
    }
}

// Loss by a receive error model (q = the monitored queue feeding that link
// direction, or -1).
inline void
OnLoss(Recorder* r, int q, Ptr<const Packet> p)
{
    if (q >= 0)
    {
        r->qLosses[q]++;
    }
    int k = FlowOfDataPacket(p, r->port0, r->nflows);
    if (k >= 0)
    {
        r->droppedLoss[k]++;
    }
}

inline void
OnQueueLength(Recorder* r, int q, uint32_t oldValue, uint32_t newValue)
{
    double t = Simulator::Now().GetSeconds();
    r->qArea[q] += double(r->qCur[q]) * (t - r->qLastT[q]);
    r->qLastT[q] = t;
    r->qCur[q] = newValue;
    if (newValue > r->qMax[q])
    {
        r->qMax[q] = newValue;
    }
    if (r->trace)
    {
        r->qT[q].push_back(t);
        r->qV[q].push_back(double(newValue));
    }
}

inline void
OnCwnd(Recorder* r, int k, uint32_t oldValue, uint32_t newValue)
{
    r->cwT[k].push_back(Simulator::Now().GetSeconds());
    r->cwV[k].push_back(double(newValue));
}

inline void
OnCongState(Recorder* r, int k, TcpSocketState::TcpCongState_t oldValue,
            TcpSocketState::TcpCongState_t newValue)
{
    if (newValue == TcpSocketState::CA_LOSS)
    {
        r->lossEpisodes[k]++; // retransmission timeout (consecutive ones count once)
    }
    else if (newValue == TcpSocketState::CA_RECOVERY)
    {
        r->recoveryEpisodes[k]++; // fast retransmit / recovery
    }
}

inline void
OnRetransmission(Recorder* r, int k, Ptr<const Packet> p, const TcpHeader& h,
                 const Address& local, const Address& peer, Ptr<const TcpSocketBase> s)
{
    if (p->GetSize() > 0)
    {
        r->retransmitted[k]++;
    }
}

// Called just after the BulkSend application created its socket.
inline void
ConnectSocket(Recorder* r, int k, Ptr<Application> app)
{
    Ptr<BulkSendApplication> bulk = DynamicCast<BulkSendApplication>(app);
    Ptr<Socket> s = bulk->GetSocket();
    s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&OnCongState, r, k));
    s->TraceConnectWithoutContext("Retransmission", MakeBoundCallback(&OnRetransmission, r, k));
    if (r->trace)
    {
        s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, r, k));
    }
}


// Flow index of a data segment seen by a queue disc (the item's packet
// starts with the TCP header: the IPv4 header is kept apart).
inline int
FlowOfQdiscPacket(Ptr<const Packet> p, uint16_t port0, int nflows)
{
    uint8_t b[20];
    uint32_t n = p->CopyData(b, sizeof(b));
    if (n < 14)
    {
        return -1;
    }
    uint16_t dport = (uint16_t(b[2]) << 8) | b[3];
    uint32_t thl = (b[12] >> 4) * 4;
    if (p->GetSize() <= thl || dport < port0 || dport >= port0 + nflows)
    {
        return -1;
    }
    return int(dport - port0);
}

inline void
OnQdiscDrop(Recorder* r, Ptr<const QueueDiscItem> item)
{
    int k = FlowOfQdiscPacket(item->GetPacket(), r->port0, r->nflows);
    if (k >= 0)
    {
        r->droppedQueue[k]++;
    }
}

// Packets waiting behind RED j: the queue disc's plus the device queue's
// (at most one; the packet being serialised is in neither).
inline uint32_t
RedWaiting(Recorder* r, size_t j)
{
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(r->redDevice[j]);
    return r->redQdisc[j]->GetNPackets() + p2p->GetQueue()->GetNPackets();
}

inline void
SampleRed(Recorder* r)
{
    double t = Simulator::Now().GetSeconds();
    for (size_t j = 0; j < r->redQdisc.size(); ++j)
    {
        uint32_t v = RedWaiting(r, j);
        if (t >= r->warmup - 1e-12)
        {
            r->redSum[j] += v;
            r->redN[j]++;
            if (v > r->redMax[j])
            {
                r->redMax[j] = v;
            }
        }
        if (r->trace)
        {
            r->redT[j].push_back(t);
            r->redV[j].push_back(double(v));
        }
    }
    if (t + r->sampleInterval <= r->stopAt + 1e-12)
    {
        Simulator::Schedule(Seconds(r->sampleInterval), &SampleRed, r);
    }
}

// Install ns-3's RedQueueDisc on dev (the a -> b direction of a link), with
// every attribute set explicitly, and shrink the device queue to one packet.
inline void
InstallRed(Recorder* r, int monitor, Ptr<NetDevice> dev, double minTh, double maxTh,
           double lInterm, double qW, bool gentle, bool wait, bool ecn, bool hardDrop,
           uint32_t maxSize, uint32_t meanPktSize, uint64_t bandwidth)
{
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(dev);
    p2p->GetQueue()->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, 1));
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::RedQueueDisc",
                         "MinTh", DoubleValue(minTh),
                         "MaxTh", DoubleValue(maxTh),
                         "LInterm", DoubleValue(lInterm),
                         "QW", DoubleValue(qW),
                         "Gentle", BooleanValue(gentle),
                         "Wait", BooleanValue(wait),
                         "UseEcn", BooleanValue(ecn),
                         "UseHardDrop", BooleanValue(hardDrop),
                         "MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, maxSize)),
                         "MeanPktSize", UintegerValue(meanPktSize),
                         "IdlePktSize", UintegerValue(0),
                         "ARED", BooleanValue(false),
                         "AdaptMaxP", BooleanValue(false),
                         "FengAdaptive", BooleanValue(false),
                         "NLRED", BooleanValue(false),
                         "Ns1Compat", BooleanValue(false),
                         "LinkBandwidth", DataRateValue(DataRate(bandwidth)));
    QueueDiscContainer qdiscs = tch.Install(dev);
    Ptr<QueueDisc> q = qdiscs.Get(0);
    // RED's uniform draws on a fixed stream, so a run does not depend on what
    // ran before it in the same process (ns-3 numbers unassigned streams in
    // creation order)
    DynamicCast<RedQueueDisc>(q)->AssignStreams(5000 + int64_t(r->redQdisc.size()));
    q->TraceConnectWithoutContext("Drop", MakeBoundCallback(&OnQdiscDrop, r));
    r->redQdisc.push_back(q);
    r->redDevice.push_back(dev);
    r->redMonitor.push_back(monitor);
    r->redSum.push_back(0.0);
    r->redN.push_back(0);
    r->redMax.push_back(0);
    r->redT.push_back({});
    r->redV.push_back({});
    for (int i = 0; i < 8; ++i)
    {
        r->redStatsAtWarmup.push_back(0.0);
    }
}

// Counters of RED j: arrivals, drops (all), early drops, forced drops,
// overflow drops, early marks, forced marks, packets sent on.
inline std::vector<double>
RedStats(Recorder* r, size_t j)
{
    const QueueDisc::Stats& s = r->redQdisc[j]->GetStats();
    return {double(s.nTotalReceivedPackets),
            double(s.nTotalDroppedPackets),
            double(s.GetNDroppedPackets(RedQueueDisc::UNFORCED_DROP)),
            double(s.GetNDroppedPackets(RedQueueDisc::FORCED_DROP)),
            double(s.GetNDroppedPackets(QueueDisc::INTERNAL_QUEUE_DROP)),
            double(s.GetNMarkedPackets(RedQueueDisc::UNFORCED_MARK)),
            double(s.GetNMarkedPackets(RedQueueDisc::FORCED_MARK)),
            double(s.nTotalSentPackets)};
}

inline void
ScheduleRedSampling(Recorder* r, double interval, double duration)
{
    r->sampleInterval = interval;
    r->stopAt = duration;
    if (!r->redQdisc.empty())
    {
        Simulator::Schedule(Seconds(0.0), &SampleRed, r);
    }
}

inline void
Snapshot(Recorder* r)
{
    double t = Simulator::Now().GetSeconds();
    for (size_t q = 0; q < r->qArea.size(); ++q)
    {
        r->qArea[q] += double(r->qCur[q]) * (t - r->qLastT[q]);
        r->qLastT[q] = t;
        r->qAreaAtWarmup[q] = r->qArea[q];
    }
    for (size_t k = 0; k < r->sinks.size(); ++k)
    {
        r->rxAtWarmup[k] = r->sinks[k]->GetTotalRx();
    }
    for (size_t j = 0; j < r->redQdisc.size(); ++j)
    {
        std::vector<double> s = RedStats(r, j);
        for (size_t i = 0; i < s.size(); ++i)
        {
            r->redStatsAtWarmup[8 * j + i] = s[i];
        }
    }
}

inline void
Finish(Recorder* r)
{
    // closes the queue-length integrals at the current time (the warm-up
    // snapshot is left as it was taken)
    double t = Simulator::Now().GetSeconds();
    for (size_t q = 0; q < r->qArea.size(); ++q)
    {
        r->qArea[q] += double(r->qCur[q]) * (t - r->qLastT[q]);
        r->qLastT[q] = t;
    }
}

inline void
HookSender(Recorder* r, Ptr<NetDevice> dev)
{
    dev->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&OnSent, r));
}

inline void
HookReceiver(Recorder* r, Ptr<NetDevice> dev)
{
    dev->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&OnDelivered, r));
}

inline void
HookErrorDrops(Recorder* r, int q, Ptr<NetDevice> dev)
{
    dev->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&OnLoss, r, q));
}

// Every device queue is hooked for drops (a drop anywhere is counted), and
// queue q additionally for its length.
inline void
HookQueue(Recorder* r, int q, Ptr<NetDevice> dev)
{
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(dev);
    Ptr<Queue<Packet>> queue = p2p->GetQueue();
    queue->TraceConnectWithoutContext("Drop", MakeBoundCallback(&OnQueueDrop, r, q));
    if (q >= 0)
    {
        queue->TraceConnectWithoutContext("PacketsInQueue",
                                          MakeBoundCallback(&OnQueueLength, r, q));
    }
}

// A node's traffic-control layer drops what its stopped device queue cannot
// take; q is the monitored queue on that node (or -1).
inline void
HookTcDrop(Recorder* r, int q, Ptr<Node> node)
{
    Ptr<TrafficControlLayer> tc = node->GetObject<TrafficControlLayer>();
    tc->TraceConnectWithoutContext("TcDrop", MakeBoundCallback(&OnQueueDrop, r, q));
}

inline void
SetQueueLimit(Ptr<NetDevice> dev, uint32_t packets)
{
    Ptr<PointToPointNetDevice> p2p = DynamicCast<PointToPointNetDevice>(dev);
    p2p->GetQueue()->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, packets));
}

inline void
ScheduleConnect(Recorder* r, int k, Ptr<Application> app, double t)
{
    Simulator::Schedule(Seconds(t), &ConnectSocket, r, k, app);
}

inline void
ScheduleSnapshot(Recorder* r, double t)
{
    Simulator::Schedule(Seconds(t), &Snapshot, r);
}

inline void
AddSink(Recorder* r, Ptr<Application> app)
{
    r->sinks.push_back(DynamicCast<PacketSink>(app));
}

inline uint64_t
SinkRx(Ptr<Application> app)
{
    return DynamicCast<PacketSink>(app)->GetTotalRx();
}

// Gilbert-Elliott channel with exponential sojourns, as ctlcc's engine:
// the state at t = 0 from the stationary law, each sojourn exponential with
// the state's mean, a packet lost with the loss probability of the state
// the channel is in when the packet reaches the far device.
class GeErrorModel : public ErrorModel
{
  public:
    double meanGood = 1.0, meanBad = 1.0, lossGood = 0.0, lossBad = 1.0;
    bool bad = false;
    bool started = false;
    double nextSwitch = 0.0;
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    Ptr<ExponentialRandomVariable> e = CreateObject<ExponentialRandomVariable>();

    void Configure(double mg, double mb, double lg, double lb, int64_t stream)
    {
        meanGood = mg;
        meanBad = mb;
        lossGood = lg;
        lossBad = lb;
        u->SetStream(stream);
        e->SetStream(stream + 1);
    }

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        double now = Simulator::Now().GetSeconds();
        if (!started)
        {
            started = true;
            bad = u->GetValue() < meanBad / (meanGood + meanBad);
            nextSwitch = e->GetValue(bad ? meanBad : meanGood, 0.0);
        }
        while (nextSwitch <= now)
        {
            bad = !bad;
            nextSwitch += e->GetValue(bad ? meanBad : meanGood, 0.0);
        }
        double prob = bad ? lossBad : lossGood;
        if (prob <= 0.0)
        {
            return false;
        }
        return u->GetValue() < prob;
    }

    void DoReset() override
    {
    }
};

inline Ptr<ErrorModel>
MakeGe(double mg, double mb, double lg, double lb, int64_t stream)
{
    Ptr<GeErrorModel> m = Create<GeErrorModel>();
    m->Configure(mg, mb, lg, lb, stream);
    return m;
}

inline void
SetSocketType(Ptr<Node> node, std::string typeName)
{
    Ptr<TcpL4Protocol> tcp = node->GetObject<TcpL4Protocol>();
    tcp->SetAttribute("SocketType", TypeIdValue(TypeId::LookupByName(typeName)));
}

inline void
RunFor(double duration)
{
    Simulator::Stop(Seconds(duration));
    Simulator::Run();
}
} // namespace ctlcc_ns3
#endif
"""

_SINK_PORT0 = 5000


@functools.lru_cache(maxsize=None)
def _load():
    """Import ns-3 and compile the recorder once per process."""
    from ns import ns

    ns.cppyy.cppdef(_GLUE)
    return ns, ns.cppyy.gbl.ctlcc_ns3


def ns3_version():
    """Return the installed ns-3 version string (e.g. ``"3.44"``)."""
    try:
        from importlib.metadata import version

        return version("ns3")
    except Exception:  # noqa: BLE001 - metadata may be missing in a source build
        return "unknown"


def _configure_tcp(ns, tcp):
    segment = int(tcp["segment_size"])
    buffer_bytes = int(tcp["buffer_bytes"])
    defaults = [
        ("ns3::TcpL4Protocol::SocketType", ns.StringValue(tcp["socket_type"])),
        ("ns3::TcpL4Protocol::RecoveryType", ns.StringValue(tcp["recovery_type"])),
        ("ns3::TcpSocket::SegmentSize", ns.UintegerValue(segment)),
        ("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(int(tcp["initial_cwnd"]))),
        ("ns3::TcpSocket::InitialSlowStartThreshold", ns.UintegerValue(0xFFFFFFFF)),
        ("ns3::TcpSocket::DelAckCount", ns.UintegerValue(int(tcp["del_ack_count"]))),
        ("ns3::TcpSocket::DataRetries", ns.UintegerValue(int(tcp["data_retries"]))),
        ("ns3::TcpSocket::SndBufSize", ns.UintegerValue(buffer_bytes)),
        ("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(buffer_bytes)),
        ("ns3::TcpSocketBase::ReTxThreshold", ns.UintegerValue(int(tcp["dupack_threshold"]))),
        ("ns3::TcpVegas::Alpha", ns.UintegerValue(int(tcp["vegas_alpha"]))),
        ("ns3::TcpVegas::Beta", ns.UintegerValue(int(tcp["vegas_beta"]))),
        ("ns3::TcpVegas::Gamma", ns.UintegerValue(int(tcp["vegas_gamma"]))),
        # ctlcc's CUBIC runs without HyStart by default (RFC 9438 leaves it optional)
        ("ns3::TcpCubic::HyStart", ns.BooleanValue(bool(tcp.get("cubic_hystart", False)))),
        ("ns3::TcpSocketBase::Sack", ns.BooleanValue(bool(tcp["sack"]))),
        # RFC 3168 ECN (ctlcc's TcpOptions(ecn=True)); off is ns-3's default
        ("ns3::TcpSocketBase::UseEcn", ns.StringValue("On" if tcp.get("ecn") else "Off")),
        ("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(bool(tcp["timestamps"]))),
        ("ns3::TcpSocketBase::LimitedTransmit", ns.BooleanValue(bool(tcp["limited_transmit"]))),
        ("ns3::TcpSocketBase::MinRto", ns.TimeValue(ns.Seconds(float(tcp["min_rto"])))),
        (
            "ns3::TcpSocketBase::ClockGranularity",
            ns.TimeValue(ns.Seconds(float(tcp["clock_granularity"]))),
        ),
        (
            "ns3::RttEstimator::InitialEstimation",
            ns.TimeValue(ns.Seconds(float(tcp["initial_rto"]))),
        ),
    ]
    for name, value in defaults:
        ns.Config.SetDefault(name, value)


def run_job(job):
    """Run one ns-3 simulation described by *job*; return a result dict.

    Parameters
    ----------
    job : dict
        Plain-data description made by :func:`ctlcc.sim.ns3.ns3_job`
        (keys ``topology``, ``tcp``, ``duration``, ``seed``, ``trace``,
        ``warmup``).

    Returns
    -------
    dict
        Counters, queue statistics, optional traces and timing.
    """
    ns, _glue = _load()
    topo = job["topology"]
    tcp = job["tcp"]
    duration = float(job["duration"])
    warmup = float(job.get("warmup", 0.0))
    trace = bool(job.get("trace", False))
    segment = int(tcp["segment_size"])
    rate_scale = float(tcp["rate_scale"])

    ns.RngSeedManager.SetSeed(int(job["seed"]) + 1)
    ns.RngSeedManager.SetRun(1)
    _configure_tcp(ns, tcp)

    nodes = ns.NodeContainer()
    nodes.Create(int(topo["nodes"]))
    stack = ns.InternetStackHelper()
    stack.Install(nodes)

    links = topo["links"]
    flows = topo["flows"]
    monitored = [(i, d) for i, link in enumerate(links) for d in ("ab", "ba") if link["monitor_" + d]]
    recorder = _glue.Recorder()
    port0 = int(topo.get("sink_port0", _SINK_PORT0))
    recorder.Init(len(flows), len(monitored), trace, warmup, port0)

    p2p = ns.PointToPointHelper()
    p2p.SetQueue("ns3::DropTailQueue<Packet>")
    tch = ns.TrafficControlHelper()
    device_of = {}  # (link index, "a"/"b") -> device
    address_of = {}  # node -> an IPv4 address of it
    error_models = []
    for i, link in enumerate(links):
        p2p.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(int(round(link["rate_bps"] * rate_scale)))))
        p2p.SetChannelAttribute("Delay", ns.TimeValue(ns.Seconds(float(link["delay_s"]))))
        devices = p2p.Install(nodes.Get(link["a"]), nodes.Get(link["b"]))
        for side, index, buffer_key in (("a", 0, "buffer_ab"), ("b", 1, "buffer_ba")):
            dev = devices.Get(index)
            _glue.SetQueueLimit(dev, int(link[buffer_key]))
            device_of[(i, side)] = dev
        addresses = ns.Ipv4AddressHelper()
        addresses.SetBase(ns.Ipv4Address(f"10.{i // 250}.{i % 250}.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(devices)
        address_of.setdefault(link["a"], interfaces.GetAddress(0))
        address_of.setdefault(link["b"], interfaces.GetAddress(1))
        # Plain drop-tail FIFO: remove the default FqCoDel queue disc.
        tch.Uninstall(devices)
        red = link.get("red_ab")
        if red is not None:  # ns-3's RedQueueDisc on the a -> b direction instead
            q = monitored.index((i, "ab")) if (i, "ab") in monitored else -1
            _glue.InstallRed(recorder, q, device_of[(i, "a")], float(red["min_th"]),
                             float(red["max_th"]), float(red["l_interm"]), float(red["qw"]),
                             bool(red["gentle"]), bool(red["wait"]), bool(red["ecn"]),
                             bool(red["hard_drop"]), int(red["max_size"]),
                             int(red["mean_pkt_size"]),
                             int(round(link["rate_bps"] * rate_scale)))
        ge = link.get("ge_ab")
        if ge is not None:
            em = _glue.MakeGe(ge["mean_good"], ge["mean_bad"], ge["loss_good"], ge["loss_bad"],
                              3000 + 2 * i)
            device_of[(i, "b")].SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
            q = monitored.index((i, "ab")) if (i, "ab") in monitored else -1
            _glue.HookErrorDrops(recorder, q, device_of[(i, "b")])
            error_models.append(em)
        for direction, receiver in (("ab", "b"), ("ba", "a")):
            p = float(link["loss_" + direction])
            if p > 0.0:
                em = ns.CreateObject["RateErrorModel"]()
                em.SetAttribute("ErrorUnit", ns.EnumValue["ns3::RateErrorModel::ErrorUnit"](ns.RateErrorModel.ERROR_UNIT_PACKET))
                em.SetAttribute("ErrorRate", ns.DoubleValue(p))
                em.AssignStreams(1000 + 2 * i + (direction == "ba"))
                device_of[(i, receiver)].SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
                q = monitored.index((i, direction)) if (i, direction) in monitored else -1
                _glue.HookErrorDrops(recorder, q, device_of[(i, receiver)])
                error_models.append(em)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    for (i, side), dev in device_of.items():
        direction = "ab" if side == "a" else "ba"
        q = monitored.index((i, direction)) if (i, direction) in monitored else -1
        _glue.HookQueue(recorder, q, dev)

    for node in range(int(topo["nodes"])):
        here = [q for q, (i, d) in enumerate(monitored) if links[i][d[0]] == node]
        if len(here) > 1:
            raise ValueError(f"node {node} holds {len(here)} monitored queues; TcDrop cannot tell them apart")
        _glue.HookTcDrop(recorder, here[0] if here else -1, nodes.Get(node))

    sender_devices = set()
    receiver_devices = set()
    for (i, side), dev in device_of.items():
        node = links[i][side]
        if any(f["src"] == node for f in flows):
            sender_devices.add((i, side))
        if any(f["dst"] == node for f in flows):
            receiver_devices.add((i, side))
    for key in sender_devices:
        _glue.HookSender(recorder, device_of[key])
    for key in receiver_devices:
        _glue.HookReceiver(recorder, device_of[key])

    for flow in flows:  # congestion control per source node (ns3_job checks they agree)
        if "socket_type" in flow and flow["socket_type"] != tcp["socket_type"]:
            _glue.SetSocketType(nodes.Get(flow["src"]), flow["socket_type"])

    sink_apps = []
    for k, flow in enumerate(flows):
        port = port0 + k
        sink_helper = ns.PacketSinkHelper(
            "ns3::TcpSocketFactory",
            ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo(),
        )
        sink = sink_helper.Install(nodes.Get(flow["dst"]))
        sink.Start(ns.Seconds(0.0))
        sink_apps.append(sink.Get(0))
        _glue.AddSink(recorder, sink.Get(0))
        bulk = ns.BulkSendHelper(
            "ns3::TcpSocketFactory",
            ns.InetSocketAddress(address_of[flow["dst"]], port).ConvertTo(),
        )
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk.SetAttribute("SendSize", ns.UintegerValue(segment))
        app = bulk.Install(nodes.Get(flow["src"]))
        start = float(flow["start"])
        stop = min(float(flow["stop"]), duration)
        app.Start(ns.Seconds(start))
        app.Stop(ns.Seconds(stop))
        _glue.ScheduleConnect(recorder, k, app.Get(0), start + 1e-9)
    if warmup > 0.0:
        _glue.ScheduleSnapshot(recorder, warmup)
    _glue.ScheduleRedSampling(recorder, float(job.get("queue_sample_interval", 0.02)), duration)

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    events_before = ns.Simulator.GetEventCount()
    t0 = time.perf_counter()
    _glue.RunFor(duration)
    wall = time.perf_counter() - t0
    events = ns.Simulator.GetEventCount() - events_before
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    _glue.Finish(recorder)

    rx_bytes = [int(_glue.SinkRx(a)) for a in sink_apps]
    rx_at_warmup = [int(recorder.rxAtWarmup[k]) for k in range(len(flows))] if warmup > 0 else [0] * len(flows)
    q_area = [float(recorder.qArea[q]) for q in range(len(monitored))]
    q_area_w = [float(recorder.qAreaAtWarmup[q]) for q in range(len(monitored))] if warmup > 0 else [0.0] * len(monitored)
    result = {
        "flows": {
            "rx_bytes": rx_bytes,
            "rx_bytes_at_warmup": rx_at_warmup,
            "sent": [int(recorder.sent[k]) for k in range(len(flows))],
            "delivered": [int(recorder.delivered[k]) for k in range(len(flows))],
            "dropped_queue": [int(recorder.droppedQueue[k]) for k in range(len(flows))],
            "dropped_loss": [int(recorder.droppedLoss[k]) for k in range(len(flows))],
            "retransmitted": [int(recorder.retransmitted[k]) for k in range(len(flows))],
            "timeout_episodes": [int(recorder.lossEpisodes[k]) for k in range(len(flows))],
            "fast_retransmits": [int(recorder.recoveryEpisodes[k]) for k in range(len(flows))],
        },
        "queues": {
            "link": [i for i, _ in monitored],
            "direction": [d for _, d in monitored],
            "area": q_area,
            "area_at_warmup": q_area_w,
            "max": [int(recorder.qMax[q]) for q in range(len(monitored))],
            "drops": [int(recorder.qDrops[q]) for q in range(len(monitored))],
            "losses": [int(recorder.qLosses[q]) for q in range(len(monitored))],
        },
        "events": int(events),
        "wall_s": wall,
        "peak_rss_kib_before_run": int(rss_before),
        "peak_rss_kib_after_run": int(rss_after),
        "ns3_version": ns3_version(),
    }
    n_red = len(recorder.redQdisc)
    red_end = [list(_glue.RedStats(recorder, j)) for j in range(n_red)]
    result["red"] = {
        "monitor": [int(recorder.redMonitor[j]) for j in range(n_red)],
        "sampled_sum": [float(recorder.redSum[j]) for j in range(n_red)],
        "samples": [int(recorder.redN[j]) for j in range(n_red)],
        "sampled_max": [int(recorder.redMax[j]) for j in range(n_red)],
        "stats": red_end,
        "stats_at_warmup": [[float(recorder.redStatsAtWarmup[8 * j + i]) for i in range(8)]
                            for j in range(n_red)] if warmup > 0 else [[0.0] * 8] * n_red,
    }
    if trace:
        result["red"]["time"] = [list(recorder.redT[j]) for j in range(n_red)]
        result["red"]["queue"] = [list(recorder.redV[j]) for j in range(n_red)]
        result["traces"] = {
            "cwnd_time": [list(recorder.cwT[k]) for k in range(len(flows))],
            "cwnd_bytes": [list(recorder.cwV[k]) for k in range(len(flows))],
            "queue_time": [list(recorder.qT[q]) for q in range(len(monitored))],
            "queue_packets": [list(recorder.qV[q]) for q in range(len(monitored))],
        }
    ns.Simulator.Destroy()
    return result
