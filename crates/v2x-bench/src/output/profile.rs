//! The processor profile of this machine, in the `v2x-profile` schema the simulator reads:
//! every measured cost and the packet sizes of every protocol (from its `describe()`).

use crate::result::BenchResult;
use v2x_profile::{LatencyDistribution, OperationCost, ProcessorProfile, ProfileSource};

pub fn from_result(r: &BenchResult) -> ProcessorProfile {
    let costs = r
        .measurements
        .iter()
        .map(|m| OperationCost {
            protocol: m.protocol,
            operation: m.operation,
            variant: m.variant,
            latency: LatencyDistribution {
                mean_us: m.latency.mean_us,
                median_us: m.latency.median_us,
                p99_us: m.latency.p99_us,
                quantiles: m.latency.quantiles.clone(),
                spread: None,
            },
            ops_per_sec_one_core: m.ops_per_sec,
            ops_per_sec_all_cores: m.ops_per_sec_all_cores,
        })
        .collect();
    ProcessorProfile {
        name: "this-host".into(),
        processor: format!("{} ({} cores, {})", r.host.cpu, r.host.cores, r.host.openssl),
        source: ProfileSource::Measured {
            host: r.host.hostname.clone(),
            date: r.date.clone(),
            command: r.command.clone(),
        },
        cores: u32::try_from(r.host.cores.max(1)).unwrap_or(u32::MAX),
        costs,
        sizes: r.sizes.clone(),
        // Measured costs carry their own quantiles.
        spread: None,
    }
}
