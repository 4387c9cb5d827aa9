//! What a published value measures (the `metric` of `data/papers.json`).

v2x_profile::named_enum! {
    /// What a published value measures; each compares with one figure of this machine.
    pub enum Metric ("metric") {
        /// Latency of one operation (ms): compared with our median.
        LatencyMs = "latency_ms",
        /// Operations per second on one core: compared with 1e6 / our median.
        OpsPerSec = "ops_per_sec",
        /// Operations per second on every core: compared with the scaling suite.
        OpsPerSecAllCores = "ops_per_sec_all_cores",
        /// Security bytes on a message.
        OverheadBytes = "overhead_bytes",
        /// All cores / one core.
        ScalingRatio = "scaling_ratio",
        /// A ratio of two latencies (`match` over `match_denominator`).
        TimeRatio = "time_ratio",
        /// A simulated fraction (PDR, loss ratio, awareness, success rate), 0..1.
        Fraction = "fraction",
        /// A simulated delay (ms).
        DelayMs = "delay_ms",
        /// A distance (m), e.g. where two reception curves cross.
        DistanceM = "distance_m",
    }
}

impl Metric {
    /// Unit, and what the comparison's ratio means.
    pub fn unit_and_meaning(self) -> (&'static str, &'static str) {
        match self {
            Metric::LatencyMs => ("ms", "x faster here (paper time / our time)"),
            Metric::OpsPerSec => ("ops/s", "x faster here (our rate / paper rate), one core"),
            Metric::OpsPerSecAllCores => ("ops/s", "x faster here (our all-core rate / paper rate)"),
            Metric::OverheadBytes => ("bytes", "our size / paper size"),
            Metric::ScalingRatio => ("x", "our speed-up / paper speed-up"),
            Metric::TimeRatio => ("x", "our ratio / paper's lower bound"),
            Metric::Fraction => ("", "ours - paper"),
            Metric::DelayMs => ("ms", "ours / paper"),
            Metric::DistanceM => ("m", "ours / paper"),
        }
    }
}
