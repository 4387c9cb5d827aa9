//! The whole result of a benchmark run, as written to `results.json`.

use crate::metric::Metric;
use crate::pool::Throughput;
use crate::stats::LatencyStats;
use crate::Suite;
use serde::{Deserialize, Serialize};
use v2x_profile::{CostKey, CurveId, Level, MessageId, Operation, PacketSizes, ProtocolId, SignerKind, Variant};

/// One measured operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    pub suite: Suite,
    /// Profile vocabulary: `raw`, `ieee1609.2`, `etsi-v1.2.1`, `tesla`, `hash-chain`, ...
    pub protocol: ProtocolId,
    /// `sign`, `verify`, `ecdh`, `ecies-wrap`, `aes128-ccm-encrypt`, `encap`, `decap`, ...
    pub operation: Operation,
    /// The profile variant, e.g. `p256`, `p256/cam/sign/digest/100`, `100`.
    pub variant: Variant,
    // The variant's parts, repeated for readers of results.json and the CSV.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curve: Option<CurveId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<MessageId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signer: Option<SignerKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload_bytes: Option<usize>,
    /// Size of the secured packet the operation produces or consumes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packet_bytes: Option<usize>,
    /// `packet_bytes - payload_bytes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead_bytes: Option<usize>,
    pub latency: LatencyStats,
    /// One core, from the mean latency (`1e6 / mean_us`).
    pub ops_per_sec: f64,
    /// Every core, from the scaling suite where measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ops_per_sec_all_cores: Option<f64>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

impl Measurement {
    /// `protocol/operation/variant`, unique within a run.
    pub fn key(&self) -> CostKey {
        CostKey::new(self.protocol, self.operation, self.variant)
    }
}

/// One row of the scaling suite: the same operation on one worker and on every core.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScalingRow {
    /// `raw` or `stack` (paper 002 Table 3.2 compares both).
    pub kind: Suite,
    /// Key of the measurement this row belongs to (`protocol/operation/variant`).
    pub key: CostKey,
    pub label: String,
    pub one_core: Throughput,
    pub all_cores: Throughput,
    /// Median over trials of all-cores / one-core.
    pub speedup: f64,
}

/// The ratios a user looks at first, measured in the same run (P-256, digest-signed CAM,
/// known signer). A field is `None` when its suite could not run (the reason is in
/// `notes`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    /// DECAP rate / raw OpenSSL verify rate on one core (target >= 0.9).
    pub decap_vs_raw_verify: Option<f64>,
    /// ENCAP rate / raw OpenSSL sign rate on one core (target >= 0.9).
    pub encap_vs_raw_sign: Option<f64>,
    /// DECAP throughput on every core / on one core (target >= 1.8 on 2 cores).
    pub all_cores_vs_one_core: Option<f64>,
    /// Hash-chain protocol verifications per second on one core.
    pub hash_chain_verify_per_sec: Option<f64>,
    /// Hash-chain verify rate / raw P-256 verify rate, same run.
    pub hash_chain_verify_vs_p256_verify: Option<f64>,
    pub raw_verify_us: Option<f64>,
    pub decap_us: Option<f64>,
    pub raw_sign_us: Option<f64>,
    pub encap_us: Option<f64>,
    pub one_core_decap_per_sec: Option<f64>,
    pub all_cores_decap_per_sec: Option<f64>,
    pub threads: usize,
    /// 95% bootstrap intervals of the ratios above, over their paired trials, by field
    /// name (and, from the verification suite, the P-256 must-show ratios).
    #[serde(default)]
    pub ratio_ci95: std::collections::BTreeMap<String, [f64; 2]>,
    /// From the verification suite (P-256, same interleaved run as raw OpenSSL): DECAP of
    /// a digest-signed CAM from a repeat signer (100 stations round-robin, precomputed
    /// strategy) / raw verify; the same without tables (plain: a signer seen as new);
    /// ENCAP / raw sign.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat_signer_decap_vs_raw_verify: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_seen_decap_vs_raw_verify: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify_suite_encap_vs_raw_sign: Option<f64>,
    /// What each ratio compares and how (interleaved trials, medians).
    pub method: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A row measured in the same interleaved trials as its raw OpenSSL reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedRatio {
    /// The row (`protocol/operation/variant`).
    pub key: CostKey,
    /// Its reference row (raw OpenSSL verify or sign on the same curve).
    pub reference: CostKey,
    /// Row rate / reference rate: median over trials of reference median / row median.
    pub ratio: f64,
    /// 95% percentile-bootstrap interval of that median.
    pub ci95: [f64; 2],
    pub trials: usize,
    /// Per signature (a batch row's per-call median divided by its batch).
    pub median_us: f64,
    /// `1e6 / median_us`: per-call wall-clock rate (the rate every suite quotes).
    pub rate_wall_per_sec: f64,
    /// Calls per second of the measuring thread's CPU time (as `openssl speed` counts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_cpu_per_sec: Option<f64>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// The machine the run measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostInfo {
    pub hostname: String,
    pub cpu: String,
    pub cores: usize,
    pub os: String,
    pub openssl: String,
}

/// Everything one `v2x bench` run produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchResult {
    pub tool: String,
    /// The commit the `v2x` binary was built from (see `v2x_report::provenance`).
    #[serde(default)]
    pub commit: String,
    pub date: String,
    pub command: String,
    pub host: HostInfo,
    /// The host's 1/5/15-minute load averages at the start and at the end of the run:
    /// timings taken on a loaded machine are read against it.
    #[serde(default)]
    pub load_average: String,
    pub quick: bool,
    pub suites: Vec<Suite>,
    pub threads: usize,
    pub headline: Headline,
    pub measurements: Vec<Measurement>,
    pub scaling: Vec<ScalingRow>,
    /// The verification suite's paired ratios against raw OpenSSL.
    #[serde(default)]
    pub verification: Vec<PairedRatio>,
    pub comparisons: Vec<ComparisonTable>,
    /// Packet sizes and schedules of each protocol, from its `describe()` (real encodings).
    #[serde(default)]
    pub sizes: Vec<PacketSizes>,
    /// The misbehaviour-detection suite's rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub misbehaviour_detection: Vec<MbdRow>,
    /// The post-quantum suite's schemes, byte rows and paired ratios to P-256.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pq: Option<PqResult>,
    /// Suites or variants that could not be measured, with the reason.
    pub skipped: Vec<String>,
    pub duration_s: f64,
}

/// Check evaluations per second of one misbehaviour detector on one core (`--suite mbd`):
/// the median over trials, with a 95 % bootstrap interval of that median.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MbdRow {
    pub detector: String,
    pub workload: String,
    pub messages: usize,
    /// Check evaluations in one pass over the workload (the detector counts them).
    pub evaluations_per_pass: u64,
    pub evaluations_per_sec: f64,
    pub ci95_low_per_sec: f64,
    pub ci95_high_per_sec: f64,
    pub messages_per_sec: f64,
    pub trials: usize,
    pub target_per_sec: f64,
    /// Only when the interval's lower end clears the target.
    pub target_met: bool,
}

impl BenchResult {
    pub fn find(&self, key: &CostKey) -> Option<&Measurement> {
        self.measurements.iter().find(|m| &m.key() == key)
    }
}

/// All published values of one paper with this machine's counterparts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonTable {
    pub paper: String,
    pub citation: String,
    pub rows: Vec<ComparisonRow>,
}

/// One published value beside this machine's figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonRow {
    pub source: String,
    pub hardware: String,
    pub procedure: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
    pub metric: Metric,
    pub unit: String,
    pub paper_value: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper_value_high: Option<f64>,
    /// This machine's figure in the same unit (medians of trials).
    pub ours: Option<f64>,
    /// The measurement it comes from.
    pub ours_key: Option<CostKey>,
    /// See `ratio_meaning`.
    pub ratio: Option<f64>,
    pub ratio_meaning: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

// The post-quantum suite's rows (`suites::pq`).

/// A post-quantum time relative to its P-256 counterpart in the same run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    /// Median over trials of (this median / P-256 median): > 1 is slower than P-256.
    pub median: f64,
    pub ci95: [f64; 2],
    pub trials: usize,
}

/// One scheme (and ML-DSA backend).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SchemeRow {
    pub scheme: String,
    pub backend: String,
    pub public_key_bytes: usize,
    pub signature_bytes: usize,
    pub keygen: LatencyStats,
    pub sign: LatencyStats,
    pub verify: LatencyStats,
    pub sign_vs_p256: Ratio,
    pub verify_vs_p256: Ratio,
}

/// Bytes on air of one design: a CAM signed with a digest and with the certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DesignRow {
    pub design: String,
    pub message_scheme: String,
    pub certificate_scheme: String,
    pub certificate_bytes: usize,
    pub digest_message_bytes: usize,
    pub certificate_message_bytes: usize,
    /// Over the 1609.2 P-256 CAM of the same payload (certificate form).
    pub certificate_message_vs_standard: f64,
}

/// ENCAP or DECAP of a design through the Authenticator, paired with the `ieee1609.2` P-256
/// adapter under the same certificate policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StackRow {
    /// The measurement (`design/operation/variant`).
    pub key: CostKey,
    /// Its P-256 counterpart.
    pub reference: CostKey,
    pub median_us: f64,
    pub reference_median_us: f64,
    pub time_vs_p256: Ratio,
    pub packet_bytes: Option<usize>,
    pub reference_packet_bytes: Option<usize>,
}

/// Everything the suite measured besides its measurements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PqResult {
    /// `/proc/loadavg` before and after the suite (the machine may be shared).
    pub load_average_before: String,
    pub load_average_after: String,
    pub payload_bytes: usize,
    pub standard_cam_digest_bytes: usize,
    pub standard_cam_certificate_bytes: usize,
    pub designs: Vec<DesignRow>,
    pub schemes: Vec<SchemeRow>,
    pub stack: Vec<StackRow>,
    pub notes: Vec<String>,
}
