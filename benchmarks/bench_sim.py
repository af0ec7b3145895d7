"""Speed and memory of the packet engine (issue 6), run by hand.

Targets
-------
* Packets delivered per wall-clock second on the 20-flow dumbbell (10 Mb/s
  1 ms access, 2 Mb/s 4 ms bottleneck, 128-packet buffer, 600 simulated
  seconds): at least ns-3's, aiming at 10x.  Both sides are timed in this
  run, simulation only (ns-3 import and topology set-up excluded; ctlcc's
  numba compilation excluded - it is cached on disk after the first run).
* Memory O(flows + queued packets): a run that delivers 1e7 packets without
  traces stays under 300 MB peak RSS (measured in a fresh subprocess,
  interpreter and imports included).

Usage::

    python benchmarks/bench_sim.py [--duration 600] [--no-ns3] [--no-memory]

The ns-3 side here is a minimal, equivalent dumbbell (BulkSend over TCP
NewReno, 1000-byte segments, drop-tail queues with the traffic-control
layer removed, delayed ACKs off, IW 1, DataRetries raised) used only as a
speed baseline; the accuracy comparison lives in benchmarks/ns3_compare.py.
"""

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

N_FLOWS = 20


def bench_ctlcc(duration):
    from ctlcc.sim import run, scenarios

    scenario = scenarios.dumbbell(N_FLOWS)
    run(scenario, 1.0)  # load the compiled loop from the cache (or compile it)
    result = run(scenario, duration, progress=False)
    return result.wall_time, result.events, sum(f.delivered_unique for f in result.flows)


def bench_ns3(duration):
    """Wall time of ns-3's Simulator::Run and packets delivered."""
    from ns import ns

    for key, value in (("SegmentSize", 1000), ("DelAckCount", 1), ("InitialCwnd", 1),
                       ("DataRetries", 100), ("SndBufSize", 1 << 22), ("RcvBufSize", 1 << 22)):
        ns.Config.SetDefault(f"ns3::TcpSocket::{key}", ns.UintegerValue(value))
    routers, src, dst = ns.NodeContainer(), ns.NodeContainer(), ns.NodeContainer()
    routers.Create(2)
    src.Create(N_FLOWS)
    dst.Create(N_FLOWS)

    def helper(rate, delay, packets):
        p2p = ns.PointToPointHelper()
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize",
                     ns.QueueSizeValue(ns.QueueSize(f"{packets}p")))
        p2p.SetDeviceAttribute("DataRate", ns.StringValue(rate))
        p2p.SetChannelAttribute("Delay", ns.StringValue(delay))
        return p2p

    access, bottleneck = helper("10Mbps", "1ms", 1000), helper("2Mbps", "4ms", 128)
    stack = ns.InternetStackHelper()
    for nodes in (routers, src, dst):
        stack.Install(nodes)
    addresses, tc = ns.Ipv4AddressHelper(), ns.TrafficControlHelper()

    def connect(p2p, a, b, net):
        devices = p2p.Install(a, b)
        addresses.SetBase(ns.Ipv4Address(net), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(devices)
        tc.Uninstall(devices)
        return interfaces

    connect(bottleneck, routers.Get(0), routers.Get(1), "10.0.0.0")
    sinks = []
    for i in range(N_FLOWS):
        connect(access, src.Get(i), routers.Get(0), f"10.1.{i}.0")
        far = connect(access, routers.Get(1), dst.Get(i), f"10.2.{i}.0").GetAddress(1)
        any_address = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 5000).ConvertTo()
        sink = ns.PacketSinkHelper("ns3::TcpSocketFactory", any_address).Install(dst.Get(i))
        sinks.append(sink.Get(0))
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory",
                                 ns.InetSocketAddress(far, 5000).ConvertTo())
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk.Install(src.Get(i)).Start(ns.Seconds(0.0))
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    ns.Simulator.Stop(ns.Seconds(duration))
    start = time.perf_counter()
    ns.Simulator.Run()
    wall = time.perf_counter() - start
    delivered = sum(ns.DynamicCast[ns.PacketSink](s).GetTotalRx() for s in sinks) / 1000
    ns.Simulator.Destroy()
    return wall, delivered


MEMORY_SCRIPT = """
import sys
sys.path.insert(0, {root!r})


def peak_mb():  # VmHWM: this process's own peak (ru_maxrss survives exec)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024



from ctlcc.sim import run, scenarios
# 20 flows, 1 Gb/s everywhere: ~118,600 packets/s through the bottleneck
sc = scenarios.dumbbell(20, access_rate=1e9, bottleneck_rate=1e9, buffer=1000)
rate = 1e9 / sc.data_bits
run(sc, 0.01)
base = peak_mb()
r = run(sc, {target} / rate * 1.05, progress=False)
delivered = sum(f.delivered_unique for f in r.flows)
peak = peak_mb()
print(delivered, base, peak, r.wall_time, r.events)
"""


def bench_memory(target=1e7):
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT.format(root=root, target=target)],
                         capture_output=True, text=True, check=True).stdout.split()
    delivered, base, peak, wall, events = (float(x) for x in out)
    return delivered, base, peak, wall, events


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=600.0)
    parser.add_argument("--no-ns3", action="store_true")
    parser.add_argument("--no-memory", action="store_true")
    args = parser.parse_args()

    if not args.no_memory:
        delivered, base, peak, wall, events = bench_memory()
        print(f"memory: {delivered:.3g} packets delivered in {wall:.1f} s wall "
              f"({events / wall:,.0f} events/s); peak RSS {peak:.0f} MB (after imports and "
              f"a first run {base:.0f} MB); target < 300 MB -> {'OK' if peak < 300 else 'MISSED'}")
    wall, events, delivered = bench_ctlcc(args.duration)
    rate = delivered / wall
    print(f"ctlcc: {N_FLOWS}-flow dumbbell, {args.duration:g} s simulated in {wall:.2f} s wall: "
          f"{delivered:.0f} packets delivered, {rate:,.0f} packets/s, {events / wall:,.0f} events/s")
    if not args.no_ns3:
        ns3_wall, ns3_delivered = bench_ns3(args.duration)
        ns3_rate = ns3_delivered / ns3_wall
        print(f"ns-3 : same dumbbell in {ns3_wall:.2f} s wall: {ns3_delivered:.0f} packets "
              f"delivered, {ns3_rate:,.0f} packets/s")
        print(f"ratio ctlcc/ns-3 packets per wall second: {rate / ns3_rate:.1f}x "
              f"(target >= 1x, aim 10x)")
    print(f"this process peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
