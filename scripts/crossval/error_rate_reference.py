#!/usr/bin/env python3
"""Reference chunk success rates computed by ns-3 3.44 itself, for the simulator's tests.

Runs ns-3's TableBasedErrorRateModel and NistErrorRateModel (GetChunkSuccessRate) on the
802.11p 10 MHz modes for a grid of SINRs and chunk sizes and writes
crates/v2x-sim/tests/data/ns3-error-rates.csv (model, rate_mbps, sinr_db, bits,
success). Needs the ns-3 virtual environment crossval.py creates:

  python3 scripts/crossval/crossval.py --nodes 50 --reps 1   # creates out/crossval/venv
  out/crossval/venv/bin/python scripts/crossval/error_rate_reference.py > \
      crates/v2x-sim/tests/data/ns3-error-rates.csv
"""
from ns import ns  # noqa: F401  (loads ns-3)
import cppyy

cppyy.cppdef(r"""
#include "ns3/wifi-module.h"
namespace refs {
double Chunk(std::string model, std::string modeName, double snr, uint64_t nbits) {
  ns3::WifiMode mode(modeName);
  ns3::WifiTxVector tx;
  tx.SetMode(mode);
  tx.SetChannelWidth(ns3::MHz_u{10});
  tx.SetPreambleType(ns3::WIFI_PREAMBLE_LONG);
  ns3::Ptr<ns3::ErrorRateModel> m;
  if (model == "table-based") m = ns3::CreateObject<ns3::TableBasedErrorRateModel>();
  else m = ns3::CreateObject<ns3::NistErrorRateModel>();
  return m->GetChunkSuccessRate(mode, tx, snr, nbits, 1, ns3::WIFI_PPDU_FIELD_DATA, 0xffff);
}
}
""")

MODES = [("3", 3.0), ("4_5", 4.5), ("6", 6.0), ("12", 12.0), ("27", 27.0)]
print("model,rate_mbps,sinr_db,bits,success")
for model in ["table-based", "nist"]:
    for name, rate in MODES:
        for db in [-1.0, 0.73, 2.0, 2.25, 3.1, 4.0, 5.5, 9.3, 14.0, 19.77]:
            for bits in [24, 256, 2976, 3300, 12000]:
                v = cppyy.gbl.refs.Chunk(model, f"OfdmRate{name}MbpsBW10MHz", 10 ** (db / 10), bits)
                print(f"{model},{rate},{db},{bits},{v!r}")
