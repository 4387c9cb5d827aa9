#!/usr/bin/env python3
"""A scripted signal sequence at one ns-3 3.44 receiver, for the simulator's CCA test.

Four transmitters that cannot hear each other (MatrixPropagationLossModel, 250 dB between
them) each broadcast a few frames at scripted times; the receiver (node 0) hears them at
fixed powers. ns-3 records, at the receiver, the PHY state periods (IDLE, CCA_BUSY, RX)
and which frames it delivered. The output (stdout, CSV) lists each transmission (start,
end, power at the receiver, received or not) and each busy period of the receiver; the
Rust test `tests/ns3_reference.rs` replays the transmissions into the simulator's radio
and checks it reports the same busy periods and receives the same frames.

  out/crossval/venv/bin/python scripts/crossval/cca_reference.py > \
      crates/v2x-sim/tests/data/ns3-cca-sequence.csv
"""
from ns import ns  # noqa: F401  (loads ns-3)
import cppyy

# Transmitter -> power at the receiver (dBm); TX power 20 dBm.
POWERS_DBM = {1: -88.0, 2: -84.0, 3: -87.5, 4: -70.0}
# (enqueue time in µs, transmitter): the DCF sends DIFS (58 µs) after an idle enqueue.
SCRIPT = [
    (1000, 1),            # -88 dBm alone: below the preamble RSSI and the CCA: idle
    (2000, 2),            # -84 dBm: undecodable but above -85.01 dBm: CCA busy
    (3000, 1), (3100, 3),  # -88 and -87.5 overlapping: their sum reaches -85.01 dBm
    (4000, 4),            # -70 dBm: detected, received
    (5000, 4), (5100, 1),  # received; the weak one outlasts it: idle after
    (6000, 2), (6002, 4),  # the stronger preamble 2 µs later takes the receiver
    (7000, 4), (7150, 2),  # interference during the data; the -84 dBm one outlasts it
    (8500, 4),            # ns-3 logs a CCA_BUSY period only at the next state change
]

cppyy.cppdef(r"""
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/propagation-module.h"
#include "ns3/wifi-module.h"
#include <sstream>
namespace ccaref {
std::ostringstream out;
std::map<uint32_t, uint32_t> delivered;
void State(ns3::Time start, ns3::Time duration, ns3::WifiPhyState state) {
  if (state == ns3::WifiPhyState::CCA_BUSY || state == ns3::WifiPhyState::RX)
    out << "busy," << start.GetNanoSeconds() << "," << (start + duration).GetNanoSeconds() << ","
        << (state == ns3::WifiPhyState::RX ? "rx" : "cca") << "\n";
}
void TxBegin(uint32_t node, ns3::Ptr<const ns3::Packet> p, double w) {
  out << "tx," << node << "," << ns3::Simulator::Now().GetNanoSeconds() << "," << p->GetSize() << "\n";
}
void Recv(ns3::Ptr<ns3::Socket> s) {
  ns3::Address from;
  while (auto p = s->RecvFrom(from)) {
    uint32_t src = ns3::InetSocketAddress::ConvertFrom(from).GetIpv4().Get() & 0xff;
    out << "rxok," << src - 1 << "," << ns3::Simulator::Now().GetNanoSeconds() << "\n";
  }
}
void Send(ns3::Ptr<ns3::Socket> s) { s->Send(ns3::Create<ns3::Packet>(100)); }
std::string Run(std::vector<double> lossToRx, std::vector<double> times, std::vector<uint32_t> who) {
  uint32_t n = lossToRx.size();
  ns3::NodeContainer nodes;
  nodes.Create(n);
  ns3::MobilityHelper mob;
  mob.SetMobilityModel("ns3::ConstantPositionMobilityModel");
  mob.Install(nodes);
  auto loss = ns3::CreateObject<ns3::MatrixPropagationLossModel>();
  loss->SetDefaultLoss(250);
  for (uint32_t i = 1; i < n; ++i)
    loss->SetLoss(nodes.Get(0)->GetObject<ns3::MobilityModel>(), nodes.Get(i)->GetObject<ns3::MobilityModel>(), lossToRx[i]);
  auto chan = ns3::CreateObject<ns3::YansWifiChannel>();
  chan->SetPropagationLossModel(loss);
  chan->SetPropagationDelayModel(ns3::CreateObject<ns3::ConstantSpeedPropagationDelayModel>());
  ns3::YansWifiPhyHelper phy;
  phy.SetChannel(chan);
  phy.Set("TxPowerStart", ns3::DoubleValue(20));
  phy.Set("TxPowerEnd", ns3::DoubleValue(20));
  ns3::WifiHelper wifi;
  wifi.SetStandard(ns3::WIFI_STANDARD_80211p);
  wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", ns3::StringValue("OfdmRate6MbpsBW10MHz"),
                               "ControlMode", ns3::StringValue("OfdmRate6MbpsBW10MHz"),
                               "NonUnicastMode", ns3::StringValue("OfdmRate6MbpsBW10MHz"));
  ns3::WifiMacHelper mac;
  mac.SetType("ns3::AdhocWifiMac");
  auto devices = wifi.Install(phy, mac, nodes);
  ns3::InternetStackHelper().Install(nodes);
  ns3::Ipv4AddressHelper ipv4;
  ipv4.SetBase("10.1.0.0", "255.255.0.0");
  ipv4.Assign(devices);
  auto tid = ns3::TypeId::LookupByName("ns3::UdpSocketFactory");
  auto rx = ns3::Socket::CreateSocket(nodes.Get(0), tid);
  rx->Bind(ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), 9));
  rx->SetRecvCallback(ns3::MakeCallback(&Recv));
  std::vector<ns3::Ptr<ns3::Socket>> tx(n);
  for (uint32_t i = 1; i < n; ++i) {
    tx[i] = ns3::Socket::CreateSocket(nodes.Get(i), tid);
    tx[i]->SetAllowBroadcast(true);
    tx[i]->Connect(ns3::InetSocketAddress(ns3::Ipv4Address("255.255.255.255"), 9));
    auto phyI = ns3::DynamicCast<ns3::WifiNetDevice>(devices.Get(i))->GetPhy();
    phyI->TraceConnectWithoutContext("PhyTxBegin", ns3::MakeBoundCallback(&TxBegin, i));
  }
  auto phy0 = ns3::DynamicCast<ns3::WifiNetDevice>(devices.Get(0))->GetPhy();
  phy0->GetState()->TraceConnectWithoutContext("State", ns3::MakeCallback(&State));
  for (size_t k = 0; k < times.size(); ++k)
    ns3::Simulator::Schedule(ns3::MicroSeconds(times[k]), &Send, tx[who[k]]);
  ns3::Simulator::Stop(ns3::MilliSeconds(9));
  ns3::Simulator::Run();
  ns3::Simulator::Destroy();
  return out.str();
}
}
""")

n = 1 + max(POWERS_DBM)
loss = [0.0] + [20.0 - POWERS_DBM[i] for i in range(1, n)]
times = [float(t) for t, _ in SCRIPT]
who = [w for _, w in SCRIPT]
text = cppyy.gbl.ccaref.Run(
    cppyy.gbl.std.vector["double"](loss),
    cppyy.gbl.std.vector["double"](times),
    cppyy.gbl.std.vector["unsigned int"](who),
)
print("# ns-3 3.44 (PyPI ns3==3.44.post0), scripts/crossval/cca_reference.py")
print("# power,transmitter,dbm_at_receiver | tx,transmitter,start_ns,mpdu_bytes | busy,from_ns,to_ns,state | rxok,transmitter,at_ns")
for t, p in sorted(POWERS_DBM.items()):
    print(f"power,{t},{p}")
print(str(text), end="")
