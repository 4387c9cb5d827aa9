#!/usr/bin/env python3
"""One ns-3 3.44 replication of the static 802.11p broadcast scenario (run by crossval.py).

Reads a JSON job on stdin (positions, start offsets, payload, duration, TX power, run
number) and prints one JSON line with the per-pair received counts, the packets each node
sent and the wall time of Simulator::Run. Each replication runs in its own process:
cppyy-loaded ns-3 does not survive Simulator::Destroy followed by a second scenario.

The ns-3 set-up is ns-3's defaults for 802.11p broadcast: WIFI_STANDARD_80211p (10 MHz),
AdhocWifiMac without QoS (legacy DCF), ConstantRateWifiManager at OfdmRate6MbpsBW10MHz
(also for non-unicast frames), YansWifiPhy with its default TableBasedErrorRateModel and
ThresholdPreambleDetectionModel, ConstantSpeedPropagationDelay, ThreeLogDistance +
Nakagami propagation loss with their default attributes (or, with `"channel":
"two-ray-ground"` in the job, the deterministic TwoRayGround model at 5.9 GHz), UDP/IPv4
broadcast.
"""
import json
import os
import sys
import time

HELPER = r"""
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/internet-module.h"
#include <map>
#include <sstream>
#include <string>
#include <vector>
namespace crossval {
std::map<std::pair<uint32_t, uint32_t>, uint64_t> counts;
std::map<uint32_t, uint64_t> sent;
uint32_t base = 0;
void Recv(ns3::Ptr<ns3::Socket> s) {
  ns3::Address from;
  ns3::Ptr<ns3::Packet> p;
  while ((p = s->RecvFrom(from))) {
    uint32_t src = ns3::InetSocketAddress::ConvertFrom(from).GetIpv4().Get() - base;
    counts[std::make_pair(src, s->GetNode()->GetId())]++;
  }
}
void Send(ns3::Ptr<ns3::Socket> s, uint32_t size, ns3::Time period) {
  s->Send(ns3::Create<ns3::Packet>(size));
  sent[s->GetNode()->GetId()]++;
  ns3::Simulator::Schedule(period, &Send, s, size, period);
}
void Setup(ns3::NodeContainer nodes, std::vector<double> offsets, uint32_t size, uint32_t firstAddress) {
  counts.clear();
  sent.clear();
  base = firstAddress;
  ns3::TypeId tid = ns3::TypeId::LookupByName("ns3::UdpSocketFactory");
  for (uint32_t i = 0; i < nodes.GetN(); ++i) {
    ns3::Ptr<ns3::Socket> rx = ns3::Socket::CreateSocket(nodes.Get(i), tid);
    rx->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), 9));
    rx->SetRecvCallback(ns3::MakeCallback(&Recv));
    ns3::Ptr<ns3::Socket> tx = ns3::Socket::CreateSocket(nodes.Get(i), tid);
    tx->SetAllowBroadcast(true);
    tx->Connect(ns3::InetSocketAddress(ns3::Ipv4Address("255.255.255.255"), 9));
    ns3::Simulator::Schedule(ns3::Seconds(offsets[i]), &Send, tx, size, ns3::MilliSeconds(100));
  }
}
// "sender,receiver,count;..." for every pair with a reception (a Python loop over N^2
// cppyy calls is slow at 500 nodes).
std::string Counts() {
  std::ostringstream out;
  for (const auto& [pair, c] : counts) out << pair.first << "," << pair.second << "," << c << ";";
  return out.str();
}
std::string Sent() {
  std::ostringstream out;
  for (const auto& [node, c] : sent) out << node << "," << c << ";";
  return out.str();
}
}
"""


def main():
    job = json.load(sys.stdin)
    t0 = time.time()
    from ns import ns  # slow (cppyy loads ns-3); left out of the timing
    import cppyy

    cppyy.cppdef(HELPER)
    print(f"ns-3 import + helper compile: {time.time() - t0:.1f} s", file=sys.stderr)
    positions, offsets = job["positions"], job["offsets"]
    n = len(positions)
    ns.RngSeedManager.SetSeed(1)
    ns.RngSeedManager.SetRun(job["run"])
    nodes = ns.NodeContainer()
    nodes.Create(n)
    wifi = ns.WifiHelper()
    wifi.SetStandard(ns.WIFI_STANDARD_80211p)
    wifi.SetRemoteStationManager(
        "ns3::ConstantRateWifiManager",
        "DataMode", ns.StringValue("OfdmRate6MbpsBW10MHz"),
        "ControlMode", ns.StringValue("OfdmRate6MbpsBW10MHz"),
        # Broadcasts use NonUnicastMode, which otherwise defaults to the lowest basic rate.
        "NonUnicastMode", ns.StringValue("OfdmRate6MbpsBW10MHz"),
    )
    chan = ns.YansWifiChannelHelper()
    chan.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel")
    # "channel" is absent from the load sweep's jobs (their cache keys stay as they were).
    if job.get("channel", "three-log-nakagami") == "two-ray-ground":
        # Deterministic (paper 004's cross-validation): Friis below the crossover distance,
        # d^-4 beyond, antennas `antenna_height_m` above the nodes (which sit at z = 0).
        chan.AddPropagationLoss(
            "ns3::TwoRayGroundPropagationLossModel",
            "Frequency", ns.DoubleValue(5.9e9),
            "HeightAboveZ", ns.DoubleValue(job["antenna_height_m"]),
        )
    else:
        chan.AddPropagationLoss("ns3::ThreeLogDistancePropagationLossModel")
        chan.AddPropagationLoss("ns3::NakagamiPropagationLossModel")
    phy = ns.YansWifiPhyHelper()
    phy.SetChannel(chan.Create())
    phy.Set("TxPowerStart", ns.DoubleValue(job["tx_power_dbm"]))
    phy.Set("TxPowerEnd", ns.DoubleValue(job["tx_power_dbm"]))
    mac = ns.WifiMacHelper()
    mac.SetType("ns3::AdhocWifiMac")
    devices = wifi.Install(phy, mac, nodes)
    alloc = ns.ListPositionAllocator()
    for x, y in positions:
        alloc.Add(ns.Vector(x, y, 0.0))
    mob = ns.MobilityHelper()
    mob.SetPositionAllocator(alloc)
    mob.SetMobilityModel("ns3::ConstantPositionMobilityModel")
    mob.Install(nodes)
    ns.InternetStackHelper().Install(nodes)
    ipv4 = ns.Ipv4AddressHelper()
    ipv4.SetBase(ns.Ipv4Address("10.1.0.0"), ns.Ipv4Mask("255.255.0.0"))
    ipv4.Assign(devices)
    vec = cppyy.gbl.std.vector["double"](offsets)
    cppyy.gbl.crossval.Setup(nodes, vec, job["payload_bytes"], ns.Ipv4Address("10.1.0.1").Get())
    ns.Simulator.Stop(ns.Seconds(job["duration_s"]))
    t = time.perf_counter()
    ns.Simulator.Run()
    run_s = time.perf_counter() - t

    def parse(text, width):
        rows = [r.split(",") for r in str(text).split(";") if r]
        return [tuple(int(v) for v in r) for r in rows if len(r) == width]

    counts = {f"{a},{b}": c for a, b, c in parse(cppyy.gbl.crossval.Counts(), 3)}
    sent = {str(a): c for a, c in parse(cppyy.gbl.crossval.Sent(), 2)}
    sys.stdout.write(json.dumps({"run_s": run_s, "counts": counts, "sent": sent}) + "\n")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
